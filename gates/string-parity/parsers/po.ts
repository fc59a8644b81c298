// gettext PO catalogs (gnu.org/software/gettext/manual/html_node/PO-Files.html): msgctxt, msgid, msgid_plural,
// msgstr[n], `#, fuzzy` / `#, c-format` flags, `#.` extracted comments, `#~` obsolete entries, the `Plural-Forms`
// header. Read with a line reader of ours that keeps 1-based lines: gettext-parser (kept) keeps no positions and
// took 3.7 s for Chia's 8.5 MB of PO files on the project machine (budget: 2 s for the whole l10n corpus). The
// unit tests check this reader against gettext-parser on every corpus PO file, and gettext-parser gives the message
// when this reader finds a file malformed.
import type { CatalogEntry, Grammar, LoadedCatalog, Variant } from '../model.js';
import { localeCatalog } from '../model.js';
import { gettextFormatsOf, pluralDistribution } from '../placeholders/gettext.js';

/** Key of a PO entry: `msgctxt` + U+0004 + `msgid` (gettext's own convention for contexts). */
export function poKey(msgctxt: string | undefined, msgid: string): string {
  return msgctxt !== undefined ? `${msgctxt}\u0004${msgid}` : msgid;
}

/** One PO entry as read, with 1-based lines. */
export interface PoMessage {
  msgctxt?: string;
  msgid: string;
  msgidPlural?: string;
  /** msgstr, or msgstr[0..n-1] for plural entries. */
  msgstr: string[];
  msgstrLines: number[];
  flags: string[];
  extracted?: string;
  line: number;
}

const ESC: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', a: '\x07', b: '\b', f: '\f', v: '\v' };

/** Thrown for a malformed line; `line` is 1-based. */
export class PoSyntaxError extends Error {
  constructor(message: string, readonly line: number) {
    super(message);
  }
}

function quoted(rest: string, line: number): string {
  const t = rest.trim();
  if (t.length < 2 || t[0] !== '"' || t[t.length - 1] !== '"') throw new PoSyntaxError(`expected a "quoted string", found ${JSON.stringify(t.slice(0, 40))}`, line);
  return unescapePo(t.slice(1, -1));
}

// The keyword lines a reader meets most, each written `keyword "…"`: read without a regex (KEYWORD below).
const FAST_KEYWORDS = ['msgid "', 'msgstr "', 'msgctxt "', 'msgid_plural "'] as const;
const KEYWORD = /^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)(\s.*)?$/;
// Where a continuation string goes.
const T_NONE = 0;
const T_CTX = 1;
const T_MSGID = 2;
const T_PLURAL = 3;
const T_MSGSTR = 4;

const NON_ASCII = /[^\x00-\x7f]/;

/** Whether `text` holds `ls` or `ps` (U+2028 / U+2029 as the text spells them) or a CR not before LF. */
function oddTerminators(text: string, ls: string, ps: string): boolean {
  if (text.includes(ls) || text.includes(ps)) return true;
  for (let i = text.indexOf('\r'); i !== -1; i = text.indexOf('\r', i + 1)) if (text.charCodeAt(i + 1) !== 10) return true;
  return false;
}

function unescapePo(body: string): string {
  return body.includes('\\') ? body.replace(/\\(.)/g, (_, c: string) => ESC[c] ?? c) : body;
}

/**
 * Read every non-obsolete message of a PO file, header (msgid "") included. Linear in the size.
 * Throws PoSyntaxError at the first malformed line.
 */
export function readPo(text: string): PoMessage[] {
  return readPoText(text, null, 0, oddTerminators(text, '\u2028', '\u2029'));
}

/**
 * The file's text from `a` to `b` (offsets in `text`; see readPoText). Pieces start and end at ASCII characters,
 * where a UTF-8 decoder is between sequences, so a piece decodes as it reads in the whole decoded file.
 */
function pieceOf(text: string, bytes: Buffer | null, skip: number, a: number, b: number): string {
  const s = text.slice(a, b);
  return bytes !== null && NON_ASCII.test(s) ? bytes.toString('utf8', a + skip, b + skip) : s;
}

/**
 * readPo over `text`: the file itself (`bytes` null), or the file's `bytes` from offset `skip` read as Latin-1, whose
 * ASCII characters are the file's at the same offsets. Every string kept or reported is then decoded from the bytes
 * (when it holds other bytes than ASCII). `oddTerminators`: the file holds U+2028, U+2029 or a CR not before LF.
 */
function readPoText(text: string, bytes: Buffer | null, skip: number, oddTerminators: boolean): PoMessage[] {
  const piece = (a: number, b: number): string => pieceOf(text, bytes, skip, a, b);
  const out: PoMessage[] = [];
  let cur: PoMessage | undefined;
  let pendingFlags: string[] = [];
  let pendingExtracted: string | undefined;
  let pendingCtx: string | undefined;
  // Where a continuation string goes: the pending msgctxt, or a part of `targetMsg`.
  let target: number = T_NONE;
  let targetMsg: PoMessage | undefined;
  let targetIdx = 0;
  const flush = () => {
    if (cur) out.push(cur);
    cur = undefined;
  };
  // KEYWORD's `.` stops at odd terminators: with one in the file, keyword lines take the regex path (to fail as it does).
  const len = text.length;
  let n = 0;
  for (let ls = 0; ls <= len; ) {
    n++;
    let le = text.indexOf('\n', ls);
    if (le === -1) le = len;
    const next = le + 1;
    if (le > ls && text.charCodeAt(le - 1) === 13) le--;
    const c = ls < len ? text.charCodeAt(ls) : -1;
    if (c === 35) {
      // `#` comment: only flags (`#,`) and extracted comments (`#.`) are read.
      if (cur && cur.msgstr.length) flush();
      target = T_NONE;
      const c2 = text.charCodeAt(ls + 1);
      if (c2 === 44) {
        const flags = piece(ls + 2, le).split(',').map((f) => f.trim()).filter(Boolean);
        // Taken as is when it is the message's first flags line (pushing into an empty array allocates room for 17).
        if (pendingFlags.length === 0) pendingFlags = flags;
        else pendingFlags.push(...flags);
      } else if (c2 === 46) pendingExtracted = (pendingExtracted ? `${pendingExtracted}\n` : '') + piece(ls + 2, le).trim();
      ls = next;
      continue;
    }
    if (c === 34) {
      // Continuation string. `"…"` with nothing around it needs no trim.
      if (target === T_NONE) throw new PoSyntaxError('continuation string without a keyword', n);
      const s = le - ls >= 2 && text.charCodeAt(le - 1) === 34 ? unescapePo(piece(ls + 1, le - 1)) : quoted(piece(ls, le), n);
      if (target === T_CTX) pendingCtx = (pendingCtx ?? '') + s;
      else if (target === T_MSGID) targetMsg!.msgid += s;
      else if (target === T_PLURAL) targetMsg!.msgidPlural += s;
      else targetMsg!.msgstr[targetIdx] += s;
      ls = next;
      continue;
    }
    let kw: string | undefined;
    let idx = 0;
    let value: string | undefined;
    if (c === 109 && !oddTerminators && text.charCodeAt(le - 1) === 34) {
      for (const k of FAST_KEYWORDS) {
        if (le - ls > k.length && text.startsWith(k, ls)) {
          kw = k.slice(0, -2);
          value = unescapePo(piece(ls + k.length, le - 1));
          break;
        }
      }
    }
    if (kw === undefined) {
      const l = piece(ls, le);
      if (l.trim() === '') {
        target = T_NONE;
        ls = next;
        continue;
      }
      const m = KEYWORD.exec(l);
      if (!m) throw new PoSyntaxError(`unknown keyword: ${JSON.stringify(l.slice(0, 40))}`, n);
      kw = m[1]!;
      value = quoted(m[3] ?? '', n);
      idx = m[2] !== undefined ? Number(m[2]) : 0;
    }
    if (kw === 'msgctxt') {
      flush();
      pendingCtx = value!;
      target = T_CTX;
    } else if (kw === 'msgid') {
      if (cur && cur.msgstr.length) flush();
      if (cur) throw new PoSyntaxError('msgid without msgstr before it', n);
      const msg: PoMessage = { msgid: value!, msgstr: [], msgstrLines: [], flags: pendingFlags, line: n };
      if (pendingCtx !== undefined) msg.msgctxt = pendingCtx;
      if (pendingExtracted !== undefined) msg.extracted = pendingExtracted;
      cur = msg;
      pendingFlags = [];
      pendingExtracted = undefined;
      pendingCtx = undefined;
      target = T_MSGID;
      targetMsg = msg;
    } else if (kw === 'msgid_plural') {
      if (!cur) throw new PoSyntaxError('msgid_plural without msgid', n);
      cur.msgidPlural = value!;
      target = T_PLURAL;
      targetMsg = cur;
    } else {
      if (!cur) throw new PoSyntaxError('msgstr without msgid', n);
      // A message's first msgstr makes its arrays of one (assigning into the empty ones would allocate room for 17:
      // two such arrays per message were a third of what reading Chia's 8.5 MB of PO files allocated).
      if (idx === 0 && cur.msgstr.length === 0) {
        cur.msgstr = [value!];
        cur.msgstrLines = [n];
      } else {
        cur.msgstr[idx] = value!;
        cur.msgstrLines[idx] = n;
      }
      target = T_MSGSTR;
      targetMsg = cur;
      targetIdx = idx;
    }
    ls = next;
  }
  flush();
  return out;
}

/**
 * Parse a PO file of `locale`: its text, or its bytes when they are UTF-8 (catalogs.ts decodes other charsets with
 * ../encoding.ts, which the header declares). `grammar` is the placeholder grammar of messages without a format flag (`icu` for
 * Lingui catalogs, `none` for plain gettext); `#, c-format` selects printf. The header entry is left out.
 * An entry with an empty msgstr is untranslated (gettext shows the msgid) and is left out of `entries` unless
 * `isSource`, where the msgid is the text. `#, fuzzy` sets `state: 'fuzzy'`. Plural entries (msgid_plural) keep
 * `msgstr[n]` as plurals `0`, `1`, ... and `nplurals` from the header. Problems: `unparsable` (with gettext-parser's own
 * message, that library being imported only for a malformed file). Never rejects.
 */
export async function parsePo(path: string, input: Buffer | string, locale: string, grammar: Grammar, isSource: boolean): Promise<LoadedCatalog> {
  let messages: PoMessage[];
  try {
    if (typeof input === 'string') messages = readPo(input.charCodeAt(0) === 0xfeff ? input.slice(1) : input);
    else {
      // UTF-8 bytes are scanned as Latin-1 (one byte, one character: fast to decode and to scan, and the PO syntax is
      // ASCII); only the pieces kept that hold other bytes are decoded as UTF-8 (a UTF-8 BOM is skipped, as before).
      const bom = input.length >= 3 && input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf ? 3 : 0;
      const latin = input.toString('latin1', bom);
      messages = readPoText(latin, input, bom, oddTerminators(latin, '\u00e2\u0080\u00a8', '\u00e2\u0080\u00a9'));
    }
  } catch (err) {
    const line = err instanceof PoSyntaxError ? err.line : 1;
    let detail = (err as Error).message;
    try {
      // Loaded only here: importing gettext-parser costs ~75 ms, a run over well-formed catalogs never needs it.
      (await import('gettext-parser')).po.parse(input, { validation: true });
    } catch (gp) {
      detail += ` (gettext-parser: ${(gp as Error).message})`;
    }
    return { path, format: 'gettext-po', locales: [localeCatalog(locale, [])], problems: [{ rule: 'unparsable', message: `not a valid PO file: ${detail}`, line, column: 1, severity: 'error' }] };
  }
  const header = messages.find((m) => m.msgid === '' && m.msgctxt === undefined);
  const pf = /nplurals\s*=\s*(\d+)/.exec(header?.msgstr[0] ?? '');
  const entries: CatalogEntry[] = [];
  const problems: LoadedCatalog['problems'] = [];
  const seen = new Map<string, number>();
  let often: boolean[] | null | undefined;
  for (const t of messages) {
    if (t === header) continue;
    const key = poKey(t.msgctxt, t.msgid);
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push({ rule: 'duplicate-key', key: t.msgid, message: `duplicate message definition (first at line ${first}); msgfmt refuses the file and readers keep only one`, line: t.line, column: 1, severity: 'warning' });
    } else seen.set(key, t.line);
    // A format flag (`#, c-format`, `#, python-brace-format`…) names the grammar msgfmt -c checks msgstr against
    // msgid in; such entries are judged on their own (gettext below), so the base comparison reads no placeholders.
    const formats = t.flags.length ? gettextFormatsOf(t.flags) : undefined;
    const flagged = formats !== undefined && (formats.checked.length > 0 || formats.unchecked.length > 0);
    const g: Grammar = flagged || t.flags.some((f) => f.endsWith('-format')) ? 'none' : grammar;
    const state = t.flags.includes('fuzzy') ? 'fuzzy' : undefined;
    const translated = t.msgstr.some((s) => s !== '');
    if (!translated && !isSource) continue;
    const valueLine = t.msgstrLines[0] ?? t.line;
    // Built field by field in the order the spread form gave (key ... translatable, state, comment, kind, value,
    // plurals): object spreads cost more than the rest of this loop.
    const e = { key, line: t.line, column: 1, valueLine, valueColumn: 1, grammar: g, translatable: true } as CatalogEntry;
    if (state) e.state = state;
    // msgfmt judges only translated messages (msgstr[0] not empty), never the header.
    if (flagged && t.msgstr[0]) {
      often ??= pluralDistribution(header?.msgstr[0]);
      e.gettext = { formats: formats!.checked, unchecked: formats!.unchecked, msgid: t.msgid, msgstr: t.msgstr.map((s) => s ?? ''), lines: t.msgstrLines, often };
      if (t.msgidPlural !== undefined) e.gettext.msgidPlural = t.msgidPlural;
    }
    if (t.extracted) e.comment = t.extracted;
    if (t.msgidPlural !== undefined) {
      const plurals: Record<string, Variant> = {};
      const texts = translated ? t.msgstr : [t.msgid, t.msgidPlural];
      texts.forEach((s, n) => {
        plurals[String(n)] = { text: s ?? '', line: t.msgstrLines[n] ?? valueLine, column: 1 };
      });
      e.kind = 'plural';
      e.value = texts[texts.length - 1] ?? '';
      e.plurals = plurals;
      if (translated && pf) e.pluralForms = Number(pf[1]);
    } else {
      e.kind = 'string';
      e.value = translated ? t.msgstr[0]! : t.msgid;
    }
    entries.push(e);
  }
  return { path, format: 'gettext-po', locales: [localeCatalog(locale, entries)], problems, ...(pf ? { nplurals: Number(pf[1]) } : {}) };
}
