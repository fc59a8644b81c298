// gettext PO catalogs (gnu.org/software/gettext/manual/html_node/PO-Files.html): msgctxt, msgid, msgid_plural,
// msgstr[n], `#, fuzzy` / `#, c-format` flags, `#.` extracted comments, `#~` obsolete entries, the `Plural-Forms`
// header. Read with a line reader of ours that keeps 1-based lines: gettext-parser (kept) keeps no positions and
// took 3.7 s for Chia's 8.5 MB of PO files on the project machine (budget: 2 s for the whole l10n corpus). The
// unit tests check this reader against gettext-parser on every corpus PO file, and gettext-parser gives the message
// when this reader finds a file malformed.
import { po as poParser } from 'gettext-parser';
import type { CatalogEntry, Grammar, LoadedCatalog, Variant } from '../model.js';
import { localeCatalog } from '../model.js';

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
  const body = t.slice(1, -1);
  return body.includes('\\') ? body.replace(/\\(.)/g, (_, c: string) => ESC[c] ?? c) : body;
}

/**
 * Read every non-obsolete message of a PO file, header (msgid "") included. Linear in the size.
 * Throws PoSyntaxError at the first malformed line.
 */
export function readPo(text: string): PoMessage[] {
  const lines = text.split('\n');
  const out: PoMessage[] = [];
  let cur: PoMessage | undefined;
  let pendingFlags: string[] = [];
  let pendingExtracted: string | undefined;
  let pendingCtx: string | undefined;
  let target: { set: (s: string) => void } | undefined;
  const flush = () => {
    if (cur) out.push(cur);
    cur = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    let l = lines[i]!;
    if (l.endsWith('\r')) l = l.slice(0, -1);
    if (l.trim() === '') {
      target = undefined;
      continue;
    }
    if (l.startsWith('#')) {
      if (cur && cur.msgstr.length) flush();
      target = undefined;
      if (l.startsWith('#,')) pendingFlags.push(...l.slice(2).split(',').map((f) => f.trim()).filter(Boolean));
      else if (l.startsWith('#.')) pendingExtracted = (pendingExtracted ? `${pendingExtracted}\n` : '') + l.slice(2).trim();
      continue;
    }
    if (l.startsWith('"')) {
      if (!target) throw new PoSyntaxError('continuation string without a keyword', n);
      target.set(quoted(l, n));
      continue;
    }
    const m = /^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)(\s.*)?$/.exec(l);
    if (!m) throw new PoSyntaxError(`unknown keyword: ${JSON.stringify(l.slice(0, 40))}`, n);
    const kw = m[1]!;
    const value = quoted(m[3] ?? '', n);
    if (kw === 'msgctxt') {
      flush();
      pendingCtx = value;
      target = { set: (s) => (pendingCtx = (pendingCtx ?? '') + s) };
    } else if (kw === 'msgid') {
      if (cur && cur.msgstr.length) flush();
      if (cur) throw new PoSyntaxError('msgid without msgstr before it', n);
      const msg: PoMessage = { msgid: value, msgstr: [], msgstrLines: [], flags: pendingFlags, line: n };
      if (pendingCtx !== undefined) msg.msgctxt = pendingCtx;
      if (pendingExtracted !== undefined) msg.extracted = pendingExtracted;
      cur = msg;
      pendingFlags = [];
      pendingExtracted = undefined;
      pendingCtx = undefined;
      target = { set: (s) => (msg.msgid += s) };
    } else if (kw === 'msgid_plural') {
      if (!cur) throw new PoSyntaxError('msgid_plural without msgid', n);
      const msg = cur;
      msg.msgidPlural = value;
      target = { set: (s) => (msg.msgidPlural += s) };
    } else {
      if (!cur) throw new PoSyntaxError('msgstr without msgid', n);
      const msg = cur;
      const idx = m[2] !== undefined ? Number(m[2]) : 0;
      msg.msgstr[idx] = value;
      msg.msgstrLines[idx] = n;
      target = { set: (s) => (msg.msgstr[idx] += s) };
    }
  }
  flush();
  return out;
}

/**
 * Parse a PO file of `locale`. `grammar` is the placeholder grammar of messages without a format flag (`icu` for
 * Lingui catalogs, `none` for plain gettext); `#, c-format` selects printf. The header entry is left out.
 * An entry with an empty msgstr is untranslated (gettext shows the msgid) and is left out of `entries` unless
 * `isSource`, where the msgid is the text. `#, fuzzy` sets `state: 'fuzzy'`. Plural entries (msgid_plural) keep
 * `msgstr[n]` as plurals `0`, `1`, ... and `nplurals` from the header. Problems: `unparsable`. Never throws.
 */
export function parsePo(path: string, bytes: Buffer, locale: string, grammar: Grammar, isSource: boolean): LoadedCatalog {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  let messages: PoMessage[];
  try {
    messages = readPo(text);
  } catch (err) {
    const line = err instanceof PoSyntaxError ? err.line : 1;
    let detail = (err as Error).message;
    try {
      poParser.parse(bytes, { validation: true });
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
  for (const t of messages) {
    if (t === header) continue;
    const key = poKey(t.msgctxt, t.msgid);
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push({ rule: 'duplicate-key', key: t.msgid, message: `duplicate message definition (first at line ${first}); msgfmt refuses the file and readers keep only one`, line: t.line, column: 1, severity: 'warning' });
    } else seen.set(key, t.line);
    const g: Grammar = t.flags.includes('c-format') ? 'printf-apple' : t.flags.includes('no-c-format') || t.flags.includes('python-format') ? 'none' : grammar;
    const state = t.flags.includes('fuzzy') ? 'fuzzy' : undefined;
    const translated = t.msgstr.some((s) => s !== '');
    if (!translated && !isSource) continue;
    const valueLine = t.msgstrLines[0] ?? t.line;
    const common = { key, line: t.line, column: 1, valueLine, valueColumn: 1, grammar: g, translatable: true, ...(state ? { state } : {}), ...(t.extracted ? { comment: t.extracted } : {}) };
    if (t.msgidPlural !== undefined) {
      const plurals: Record<string, Variant> = {};
      const texts = translated ? t.msgstr : [t.msgid, t.msgidPlural];
      texts.forEach((s, n) => {
        plurals[String(n)] = { text: s ?? '', line: t.msgstrLines[n] ?? valueLine, column: 1 };
      });
      entries.push({ ...common, kind: 'plural', value: texts[texts.length - 1] ?? '', plurals });
    } else {
      entries.push({ ...common, kind: 'string', value: translated ? t.msgstr[0]! : t.msgid });
    }
  }
  return { path, format: 'gettext-po', locales: [localeCatalog(locale, entries)], problems, ...(pf ? { nplurals: Number(pf[1]) } : {}) };
}
