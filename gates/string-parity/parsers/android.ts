// Android string resources: `<string>`, `<plurals>`, `<string-array>` in res/values*/ XML, read with @xmldom/xmldom
// (line numbers on nodes). Source: developer.android.com/guide/topics/resources/string-resource, and aapt2's
// escaping rules (`\'`, `\"`, `\n`, `\t`, `\uXXXX`, double-quoted spans keep apostrophes and whitespace).
import { DOMParser } from '@xmldom/xmldom';
import type { CatalogEntry, LoadedCatalog, ParseProblem, Variant } from '../model.js';
import { localeCatalog } from '../model.js';

// xmldom's node classes are not exported as types in a stable way across 0.9.x; the subset we touch:
interface XNode {
  nodeType: number;
  nodeName: string;
  data?: string;
  lineNumber?: number;
  columnNumber?: number;
  childNodes: ArrayLike<XNode>;
  getAttribute?(name: string): string | null;
  hasAttribute?(name: string): boolean;
}

const POSITION = /@#\[line:(\d+),col:(\d+)\]/;

/**
 * Parse one Android values XML file of locale `locale`. Returns every string, plural and string-array entry with
 * 1-based positions; problems: `unparsable` (malformed XML, with its line) and `android-unescaped-apostrophe`
 * (an `'` neither escaped nor inside a double-quoted span: aapt2 drops it and Android Lint reports it).
 * Never throws.
 */
export function parseAndroidXml(path: string, text: string, locale: string): LoadedCatalog {
  const problems: ParseProblem[] = [];
  let doc: { documentElement: XNode | null } | undefined;
  try {
    doc = new DOMParser({
      onError: (level: string, message: string) => {
        if (level !== 'error') return; // fatalError throws next, with its locator
        const m = POSITION.exec(message);
        problems.push({ rule: 'unparsable', message: `malformed XML: ${message.replace(/\s*@#\[.*$/s, '').trim()}`, line: m ? Number(m[1]) : 1, column: m ? Number(m[2]) : 1, severity: 'error' });
      },
    }).parseFromString(text, 'text/xml') as unknown as { documentElement: XNode | null };
  } catch (err) {
    const loc = (err as { locator?: { lineNumber?: number; columnNumber?: number } }).locator;
    if (!problems.some((p) => p.rule === 'unparsable')) {
      problems.push({ rule: 'unparsable', message: `malformed XML: ${(err as Error).message.split('\n')[0]}`, line: loc?.lineNumber ?? 1, column: loc?.columnNumber ?? 1, severity: 'error' });
    }
    return { path, format: 'android-xml', locales: [localeCatalog(locale, [])], problems };
  }
  const entries: CatalogEntry[] = [];
  const root = doc.documentElement;
  if (!root || root.nodeName !== 'resources') {
    if (!problems.length) problems.push({ rule: 'unparsable', message: 'not an Android resources file (no <resources> root)', line: 1, column: 1, severity: 'error' });
    return { path, format: 'android-xml', locales: [localeCatalog(locale, entries)], problems };
  }
  for (const el of elements(root)) {
    const name = el.getAttribute?.('name');
    if (!name) continue;
    const line = el.lineNumber ?? 1;
    const column = el.columnNumber ?? 1;
    const translatable = el.getAttribute?.('translatable') !== 'false';
    const formatted = el.getAttribute?.('formatted') !== 'false';
    const grammar = formatted ? 'printf-java' : 'none';
    if (el.nodeName === 'string') {
      const v = variant(el, name, problems);
      entries.push({ key: name, kind: 'string', value: v.text, raw: v.raw ?? v.text, line, column, grammar, translatable });
    } else if (el.nodeName === 'plurals') {
      const plurals: Record<string, Variant> = {};
      for (const item of elements(el)) {
        if (item.nodeName !== 'item') continue;
        const q = item.getAttribute?.('quantity');
        if (q) plurals[q] = variant(item, name, problems);
      }
      const value = plurals.other?.text ?? Object.values(plurals)[0]?.text ?? '';
      entries.push({ key: name, kind: 'plural', value, line, column, grammar, translatable, plurals });
    } else if (el.nodeName === 'string-array') {
      const items: Variant[] = [];
      for (const item of elements(el)) if (item.nodeName === 'item') items.push(variant(item, name, problems));
      entries.push({ key: name, kind: 'array', value: items.map((i) => i.text).join('\n'), line, column, grammar, translatable, items });
    }
  }
  return { path, format: 'android-xml', locales: [localeCatalog(locale, entries)], problems };
}

function elements(node: XNode): XNode[] {
  const out: XNode[] = [];
  for (let i = 0; i < node.childNodes.length; i++) {
    const c = node.childNodes[i]!;
    if (c.nodeType === 1) out.push(c);
  }
  return out;
}

/** Raw text of an element with its markup children flattened (xliff:g, b, i keep their text). */
function rawText(node: XNode, onText: (t: XNode) => void): string {
  let s = '';
  for (let i = 0; i < node.childNodes.length; i++) {
    const c = node.childNodes[i]!;
    if (c.nodeType === 3 || c.nodeType === 4) {
      onText(c);
      s += c.data ?? '';
    } else if (c.nodeType === 1) s += rawText(c, onText);
  }
  return s;
}

function variant(el: XNode, key: string, problems: ParseProblem[]): Variant {
  const line = el.lineNumber ?? 1;
  const column = el.columnNumber ?? 1;
  let inQuote = false;
  const raw = rawText(el, (t) => {
    if (t.nodeType === 4) return; // CDATA: taken verbatim by aapt2, but quoting state still flows through
    const data = t.data ?? '';
    for (let i = 0; i < data.length; i++) {
      const c = data[i];
      if (c === '\\') i++;
      else if (c === '"') inQuote = !inQuote;
      else if (c === "'" && !inQuote) {
        const before = data.slice(0, i);
        const nl = before.split('\n').length - 1;
        const tl = t.lineNumber ?? line;
        const tc = t.columnNumber ?? column;
        problems.push({
          rule: 'android-unescaped-apostrophe',
          key,
          message: `unescaped apostrophe in \`${key}\`: write \\' (aapt2 drops a bare ' and Android Lint reports it)`,
          line: tl + nl,
          column: nl === 0 ? tc + i : i - before.lastIndexOf('\n'),
          severity: 'error',
        });
      }
    }
  });
  return { text: unescapeAndroid(raw), raw, line, column };
}

/** The text aapt2 stores: quotes removed, whitespace outside quotes collapsed, escapes resolved. */
export function unescapeAndroid(raw: string): string {
  let out = '';
  let quote = false;
  let space = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\') {
      const e = raw[i + 1];
      i++;
      if (e === 'n') out += '\n';
      else if (e === 't') out += '\t';
      else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(raw.slice(i + 1, i + 5))) {
        out += String.fromCharCode(parseInt(raw.slice(i + 1, i + 5), 16));
        i += 4;
      } else if (e !== undefined) out += e;
      space = false;
    } else if (c === '"') {
      quote = !quote;
    } else if (!quote && /\s/.test(c)) {
      if (!space) out += ' ';
      space = true;
    } else {
      out += c;
      space = false;
    }
  }
  return out.trim();
}
