// gettext PO catalogs (gnu.org/software/gettext/manual/html_node/PO-Files.html): msgctxt, msgid, msgid_plural,
// msgstr[n], `#, fuzzy` and `#, c-format` flags, the `Plural-Forms` header. Parsed with gettext-parser; it keeps no
// positions, so a light line scan maps each (msgctxt, msgid) to the 1-based line of its `msgid` and `msgstr`.
import { po as poParser, type GetTextTranslations } from 'gettext-parser';
import type { CatalogEntry, Grammar, LoadedCatalog, Variant } from '../model.js';
import { localeCatalog } from '../model.js';

/** Key of a PO entry: `msgctxt` + U+0004 + `msgid` (gettext's own convention for contexts). */
export function poKey(msgctxt: string | undefined, msgid: string): string {
  return msgctxt ? `${msgctxt}\u0004${msgid}` : msgid;
}

function cString(line: string): string | undefined {
  const m = /^\s*(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)?\s*"(.*)"\s*$/.exec(line);
  if (!m) return undefined;
  return m[1]!.replace(/\\(.)/g, (_, c: string) => ({ n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' })[c] ?? c);
}

/** Line numbers (1-based) of each entry's msgid and first msgstr, by `poKey`. Obsolete `#~` entries are skipped. */
function scanLines(text: string): Map<string, { line: number; valueLine: number }> {
  const lines = text.split('\n');
  const out = new Map<string, { line: number; valueLine: number }>();
  let ctx: string | undefined;
  let id: string | undefined;
  let idLine = 0;
  let field: 'ctx' | 'id' | 'other' = 'other';
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.startsWith('msgctxt')) {
      ctx = cString(l) ?? '';
      field = 'ctx';
    } else if (l.startsWith('msgid_plural')) field = 'other';
    else if (l.startsWith('msgid')) {
      id = cString(l) ?? '';
      idLine = i + 1;
      field = 'id';
    } else if (l.startsWith('msgstr')) {
      if (id !== undefined) {
        const k = poKey(ctx, id);
        if (!out.has(k)) out.set(k, { line: idLine, valueLine: i + 1 });
      }
      id = undefined;
      ctx = undefined;
      field = 'other';
    } else if (l.startsWith('"')) {
      const s = cString(l) ?? '';
      if (field === 'ctx') ctx = (ctx ?? '') + s;
      else if (field === 'id') id = (id ?? '') + s;
    }
  }
  return out;
}

/**
 * Parse a PO file of `locale`. `grammar` is the placeholder grammar of messages without a format flag (`icu` for
 * Lingui catalogs, `none` for plain gettext); `#, c-format` selects printf. The header entry is left out.
 * An entry with an empty msgstr is untranslated (gettext shows the msgid) and is left out of `entries` unless
 * `isSource`, where the msgid is the text. `#, fuzzy` sets `state: 'fuzzy'`. Plural entries (msgid_plural) keep
 * `msgstr[n]` as plurals `0`, `1`, ... with `nplurals` from the header. Problems: `unparsable`. Never throws.
 */
export function parsePo(path: string, bytes: Buffer, locale: string, grammar: Grammar, isSource: boolean): LoadedCatalog {
  let parsed: GetTextTranslations;
  try {
    parsed = poParser.parse(bytes);
  } catch (err) {
    const m = /line (\d+)/i.exec((err as Error).message);
    return { path, format: 'gettext-po', locales: [localeCatalog(locale, [])], problems: [{ rule: 'unparsable', message: `not a valid PO file: ${(err as Error).message}`, line: m ? Number(m[1]) : 1, column: 1, severity: 'error' }] };
  }
  const text = bytes.toString('utf8');
  const lines = scanLines(text);
  const pf = /nplurals\s*=\s*(\d+)/.exec(parsed.headers['Plural-Forms'] ?? parsed.headers['plural-forms'] ?? '');
  const entries: CatalogEntry[] = [];
  for (const [ctx, table] of Object.entries(parsed.translations)) {
    for (const [id, t] of Object.entries(table)) {
      if (id === '' && !ctx) continue;
      const key = poKey(ctx || undefined, id);
      const pos = lines.get(key) ?? { line: 1, valueLine: 1 };
      const flags = (t.comments?.flag ?? '').split(',').map((f) => f.trim());
      const g: Grammar = flags.includes('c-format') ? 'printf-apple' : flags.includes('no-c-format') || flags.includes('python-format') ? 'none' : grammar;
      const state = flags.includes('fuzzy') ? 'fuzzy' : undefined;
      const strs = t.msgstr ?? [];
      const translated = strs.some((s) => s !== '');
      if (!translated && !isSource) continue;
      const common = { key, line: pos.line, column: 1, valueLine: pos.valueLine, valueColumn: 1, grammar: g, translatable: true, ...(state ? { state } : {}), ...(t.comments?.extracted ? { comment: t.comments.extracted } : {}) };
      if (t.msgid_plural !== undefined) {
        const plurals: Record<string, Variant> = {};
        const texts = translated ? strs : [id, t.msgid_plural];
        texts.forEach((s, n) => {
          plurals[String(n)] = { text: s, line: pos.valueLine + n, column: 1 };
        });
        entries.push({ ...common, kind: 'plural', value: texts[texts.length - 1] ?? '', plurals });
      } else {
        entries.push({ ...common, kind: 'string', value: translated ? strs[0]! : id });
      }
    }
  }
  return { path, format: 'gettext-po', locales: [localeCatalog(locale, entries)], problems: [], ...(pf ? { nplurals: Number(pf[1]) } : {}) };
}
