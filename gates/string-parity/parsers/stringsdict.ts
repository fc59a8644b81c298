// Apple `.stringsdict` plural rules: an XML property list (apple.com/DTDs/PropertyList-1.0.dtd) whose entries hold
// `NSStringLocalizedFormatKey` and `NSStringPluralRuleType` variables. Source: developer.apple.com "Localizing
// strings that contain plurals". Read with @xmldom/xmldom (the parser the `plist` package itself uses) so every key
// keeps its line number, which `plist.parse` drops.
import { DOMParser } from '@xmldom/xmldom';
import type { CatalogEntry, LoadedCatalog, ParseProblem, PluralVariable, Variant } from '../model.js';
import { localeCatalog } from '../model.js';
import { decodeCatalogBytes } from './apple-strings.js';

interface XNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  lineNumber?: number;
  columnNumber?: number;
  childNodes: ArrayLike<XNode>;
}

/** A plist value with the position of the `<key>` that names it. */
type PValue = { kind: 'dict'; entries: Array<{ key: string; line: number; column: number; value: PValue }>; line: number; column: number } | { kind: 'string'; text: string; line: number; column: number } | { kind: 'other'; line: number; column: number };

function kids(n: XNode): XNode[] {
  const out: XNode[] = [];
  for (let i = 0; i < n.childNodes.length; i++) if (n.childNodes[i]!.nodeType === 1) out.push(n.childNodes[i]!);
  return out;
}

function toValue(n: XNode): PValue {
  const line = n.lineNumber ?? 1;
  const column = n.columnNumber ?? 1;
  if (n.nodeName === 'dict') {
    const entries: Array<{ key: string; line: number; column: number; value: PValue }> = [];
    const ch = kids(n);
    for (let i = 0; i + 1 < ch.length; i += 2) {
      const k = ch[i]!;
      if (k.nodeName !== 'key') throw Object.assign(new Error(`expected <key>, found <${k.nodeName}>`), { line: k.lineNumber, column: k.columnNumber });
      entries.push({ key: k.textContent ?? '', line: k.lineNumber ?? line, column: k.columnNumber ?? column, value: toValue(ch[i + 1]!) });
    }
    if (ch.length % 2 === 1) throw Object.assign(new Error('<key> without a value'), { line: ch[ch.length - 1]!.lineNumber, column: 1 });
    return { kind: 'dict', entries, line, column };
  }
  if (n.nodeName === 'string') return { kind: 'string', text: n.textContent ?? '', line, column };
  return { kind: 'other', line, column };
}

/**
 * Parse a `.stringsdict` of `locale`. Each top-level key becomes an entry whose `value` is its
 * `NSStringLocalizedFormatKey` and whose `variables` are its plural (or device/width) rules. Problems: `unparsable`.
 * Never throws.
 */
export function parseStringsdict(path: string, bytes: Buffer, locale: string): LoadedCatalog {
  const problems: ParseProblem[] = [];
  const entries: CatalogEntry[] = [];
  const { text } = decodeCatalogBytes(bytes);
  try {
    const doc = new DOMParser({
      onError: (level: string, message: string) => {
        if (level !== 'warning') throw new Error(message);
      },
    }).parseFromString(text, 'text/xml') as unknown as { documentElement: XNode | null };
    const root = doc.documentElement;
    const top = root && root.nodeName === 'plist' ? kids(root)[0] : undefined;
    if (!top || top.nodeName !== 'dict') throw new Error('not a property list with a top-level <dict>');
    const dict = toValue(top);
    if (dict.kind !== 'dict') throw new Error('not a dict');
    for (const e of dict.entries) {
      if (e.value.kind !== 'dict') continue;
      let format: { text: string; line: number; column: number } | undefined;
      const variables: Record<string, PluralVariable> = {};
      for (const v of e.value.entries) {
        if (v.key === 'NSStringLocalizedFormatKey' && v.value.kind === 'string') format = v.value;
        else if (v.value.kind === 'dict') {
          const plurals: Record<string, Variant> = {};
          let spec = '';
          let type = '';
          for (const r of v.value.entries) {
            if (r.value.kind !== 'string') continue;
            if (r.key === 'NSStringFormatSpecTypeKey') type = r.value.text;
            else if (r.key === 'NSStringFormatValueTypeKey') spec = r.value.text;
            else plurals[r.key] = { text: r.value.text, line: r.value.line, column: r.value.column };
          }
          if (type === 'NSStringPluralRuleType' || type === '') variables[v.key] = { spec, plurals, line: v.line, column: v.column };
        }
      }
      entries.push({
        key: e.key,
        kind: 'plural',
        value: format?.text ?? '',
        line: e.line,
        column: e.column,
        ...(format ? { valueLine: format.line, valueColumn: format.column } : {}),
        grammar: 'printf-apple',
        translatable: true,
        variables,
      });
    }
  } catch (err) {
    const m = /@#\[line:(\d+),col:(\d+)\]/.exec((err as Error).message);
    const e = err as { line?: number; column?: number; locator?: { lineNumber?: number; columnNumber?: number } };
    problems.push({
      rule: 'unparsable',
      message: `.stringsdict is not a valid property list: ${(err as Error).message.replace(/\s*@#\[.*$/s, '').split('\n')[0]}`,
      line: m ? Number(m[1]) : e.line ?? e.locator?.lineNumber ?? 1,
      column: m ? Number(m[2]) : e.column ?? e.locator?.columnNumber ?? 1,
      severity: 'error',
    });
  }
  return { path, format: 'apple-stringsdict', locales: [localeCatalog(locale, entries)], problems };
}
