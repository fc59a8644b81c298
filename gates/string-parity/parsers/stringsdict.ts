// Apple `.stringsdict` plural rules: an XML property list (apple.com/DTDs/PropertyList-1.0.dtd) whose entries hold
// `NSStringLocalizedFormatKey` and `NSStringPluralRuleType` variables. Source: developer.apple.com "Localizing
// strings that contain plurals". Read with saxes (the strict streaming XML parser android.ts uses) into a small tree
// of elements so every key keeps its line number, which `plist.parse` drops.
import type { CatalogEntry, LoadedCatalog, ParseProblem, PluralVariable, Variant } from '../model.js';
import { localeCatalog } from '../model.js';
import { catalogText } from '../encoding.js';
import { doctypeError, normaliseXmlLineEnds, outsideRoot, PrefixScope, startTag, undefinedEntity, xmlParser, xmlSyntaxError, XmlSyntaxError } from './android.js';

/** One element: its name, the 1-based position of its `<`, its element children and its text content (DOM `textContent`). */
interface XNode {
  nodeName: string;
  lineNumber: number;
  columnNumber: number;
  kids: XNode[];
  textContent: string;
}

/** A plist value with the position of the `<key>` that names it. */
type PValue = { kind: 'dict'; entries: Array<{ key: string; line: number; column: number; value: PValue }>; line: number; column: number } | { kind: 'string'; text: string; line: number; column: number } | { kind: 'other'; line: number; column: number };

const kids = (n: XNode): XNode[] => n.kids;

/**
 * The root element of `text` as a tree of elements (comments and processing instructions dropped, text and CDATA
 * joined into each ancestor's `textContent`). Throws XmlSyntaxError (message, 1-based line and column) on the first
 * well-formedness error, an undefined entity included (plists use only the predefined ones).
 */
function readTree(text: string): XNode | undefined {
  const src = normaliseXmlLineEnds(text);
  const p = xmlParser();
  const stack: XNode[] = [];
  const open: string[] = [];
  const ns = new PrefixScope();
  let lastClosed = '';
  let root: XNode | undefined;
  const addText = (t: string) => {
    for (const n of stack) n.textContent += t;
  };
  p.on('opentag', (tag) => {
    const at = startTag(p, src);
    const nsError = ns.open(tag.name, tag.attributes, stack.length, at.colon);
    if (nsError) throw new XmlSyntaxError(nsError, at.line, at.column);
    const node: XNode = { nodeName: tag.name, lineNumber: at.line, columnNumber: at.column, kids: [], textContent: '' };
    const parent = stack[stack.length - 1];
    if (parent) parent.kids.push(node);
    else root ??= node;
    stack.push(node);
    open.push(tag.name);
  });
  p.on('closetag', (tag) => {
    lastClosed = tag.name;
    stack.pop();
    open.pop();
    ns.close(stack.length);
  });
  p.on('text', addText);
  p.on('cdata', addText);
  p.on('doctype', (body) => {
    const e = doctypeError(p, src, body);
    if (e) throw e;
  });
  p.on('error', (err) => {
    if (err.message.endsWith(': text data outside of root node.')) {
      const o = outsideRoot(p, src, root !== undefined && stack.length === 0);
      throw new XmlSyntaxError(o.message, o.line, o.column);
    }
    if (err.message.endsWith(': undefined entity.')) {
      const u = undefinedEntity(p, src);
      throw new XmlSyntaxError(`entity not found:${u.ref}`, u.line, u.column);
    }
    throw xmlSyntaxError(p, src, err, open, lastClosed);
  });
  p.write(src).close();
  return root;
}

function toValue(n: XNode): PValue {
  const line = n.lineNumber;
  const column = n.columnNumber;
  if (n.nodeName === 'dict') {
    const entries: Array<{ key: string; line: number; column: number; value: PValue }> = [];
    const ch = kids(n);
    for (let i = 0; i + 1 < ch.length; i += 2) {
      const k = ch[i]!;
      if (k.nodeName !== 'key') throw new XmlSyntaxError(`expected <key>, found <${k.nodeName}>`, k.lineNumber, k.columnNumber);
      entries.push({ key: k.textContent, line: k.lineNumber, column: k.columnNumber, value: toValue(ch[i + 1]!) });
    }
    if (ch.length % 2 === 1) throw new XmlSyntaxError('<key> without a value', ch[ch.length - 1]!.lineNumber, 1);
    return { kind: 'dict', entries, line, column };
  }
  if (n.nodeName === 'string') return { kind: 'string', text: n.textContent, line, column };
  return { kind: 'other', line, column };
}

/**
 * Parse a `.stringsdict` of `locale` (its text, or its bytes, decoded as ../encoding.ts reads them). Each top-level key becomes an entry whose `value` is its
 * `NSStringLocalizedFormatKey` and whose `variables` are its plural (or device/width) rules, with 1-based lines and
 * UTF-16 columns of their `<key>` / `<string>` elements. Problems: one `unparsable` (malformed XML, an undefined
 * entity, or not a property list with a top-level `<dict>` of key/value pairs), at its line and column, and then no
 * entries. Never throws.
 */
export function parseStringsdict(path: string, input: string | Buffer, locale: string): LoadedCatalog {
  const problems: ParseProblem[] = [];
  const entries: CatalogEntry[] = [];
  const text = typeof input === 'string' ? input : catalogText(input, 'apple-stringsdict');
  try {
    const root = readTree(text);
    const top = root && root.nodeName === 'plist' ? kids(root)[0] : undefined;
    if (!top || top.nodeName !== 'dict') throw new XmlSyntaxError('not a property list with a top-level <dict>', 1, 1);
    const dict = toValue(top);
    if (dict.kind !== 'dict') throw new XmlSyntaxError('not a dict', 1, 1);
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
    if (!(err instanceof XmlSyntaxError)) throw err;
    problems.push({ rule: 'unparsable', message: `.stringsdict is not a valid property list: ${err.message}`, line: err.line, column: err.column, severity: 'error' });
  }
  return { path, format: 'apple-stringsdict', locales: [localeCatalog(locale, entries)], problems };
}
