// Android string resources: `<string>`, `<plurals>`, `<string-array>` in res/values*/ XML, read with saxes (a strict
// streaming XML 1.0 parser with positions). Source: developer.android.com/guide/topics/resources/string-resource, and
// aapt2's escaping rules (`\'`, `\"`, `\n`, `\t`, `\uXXXX`, double-quoted spans keep apostrophes and whitespace).
// The XML helpers here are shared with stringsdict.ts.
import type { MarkupTag } from '../placeholders/markup.js';
import { SaxesParser } from 'saxes';
import type { CatalogEntry, LoadedCatalog, ParseProblem, Variant } from '../model.js';
import { localeCatalog } from '../model.js';

/** saxes with positions and without its namespace processing: names stay qualified (`xliff:g`); PrefixScope checks prefixes. */
export type XmlParser = SaxesParser<{ position: true; xmlns: false }>;

/**
 * A parser for these readers. Set at most seven handlers on it with `on()`: saxes stores each as a new property of
 * the parser object, and from the eighth V8 turns that object into a dictionary, after which every character saxes
 * reads costs a hash lookup (AntennaPod's 53 values files: ~24 ms warm with five handlers, ~180 ms with nine).
 * Namespace processing is off for speed (it cost about a third more on the same files).
 */
export function xmlParser(): XmlParser {
  return new SaxesParser({ position: true, xmlns: false });
}

/**
 * XML line ends before parsing, as the document's version defines them: CRLF and CR become LF (XML 1.0 §2.11), and in
 * a document declaring version 1.1 NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR too (w3.org/TR/xml11/#sec-line-ends).
 * In 1.0 (aapt2's XML, every Android resource) U+2028 is a character, and git and editors count no line there, so a
 * finding's line after one must not move.
 */
export function normaliseXmlLineEnds(text: string): string {
  if (!/[\r\u0085\u2028\u2029]/.test(text)) return text;
  return /^\uFEFF?<\?xml\s+version\s*=\s*["']1\.1["']/.test(text)
    ? text.replace(/\r[\n\u0085]/g, '\n').replace(/[\r\u0085\u2028\u2029]/g, '\n')
    : text.replace(/\r\n?/g, '\n');
}

/**
 * The start tag saxes has just completed (call from `opentag`, where the parser stands right after its `>`): the
 * 1-based line and UTF-16 column of its `<`, and whether its source holds a `:` (a prefixed name or a namespace
 * declaration may be there). A well-formed start tag holds no other `<`: saxes refuses one in an attribute value.
 */
export function startTag(p: XmlParser, text: string): { line: number; column: number; colon: boolean } {
  const pos = p.position;
  const lt = text.lastIndexOf('<', pos - 1);
  let lines = 0;
  let colon = false;
  for (let i = lt + 1; i < pos; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) lines++;
    else if (c === 58) colon = true;
  }
  if (lines === 0) return { line: p.line, column: p.columnIndex + 1 - (pos - lt), colon };
  return { line: p.line - lines, column: lt - text.lastIndexOf('\n', lt - 1), colon };
}

/**
 * Namespace prefixes in scope (w3.org/TR/xml-names/ §5). A prefixed element or attribute name whose prefix no
 * enclosing `xmlns:p="uri"` binds is an error for aapt2 and was one for xmldom (`<xliff:g>` without `xmlns:xliff`);
 * `xml:` is always bound, `xmlns:p=""` leaves `p` unbound (as xmldom had it). Call `open` at each start tag and `close`
 * at each end tag; a tag whose source holds no `:` costs nothing more.
 */
const XLIFF_NS = 'urn:oasis:names:tc:xliff:document:1.2';

export class PrefixScope {
  private readonly uris = new Map<string, string[]>();
  private readonly declared: Array<{ depth: number; prefixes: string[] }> = [];

  /**
   * The start tag `name` with `attributes` at `depth` (0: the root) is complete; `colon` from startTag. Returns an
   * error message (`unbound namespace prefix: "p"`, `malformed name: a:b:c`), or undefined when the names are bound.
   */
  open(name: string, attributes: Record<string, string>, depth: number, colon: boolean): string | undefined {
    if (!colon) return undefined;
    const prefixes: string[] = [];
    for (const a in attributes) {
      if (!a.startsWith('xmlns:')) continue;
      const prefix = a.slice(6);
      prefixes.push(prefix);
      const s = this.uris.get(prefix);
      if (s) s.push(attributes[a]!);
      else this.uris.set(prefix, [attributes[a]!]);
    }
    if (prefixes.length) this.declared.push({ depth, prefixes });
    const bad = this.unbound(name);
    if (bad) return bad;
    for (const a in attributes) {
      const e = a.startsWith('xmlns:') ? undefined : this.unbound(a);
      if (e) return e;
    }
    return undefined;
  }

  /** The element at `depth` has ended: its declarations go out of scope. */
  close(depth: number): void {
    const top = this.declared[this.declared.length - 1];
    if (!top || top.depth !== depth) return;
    this.declared.pop();
    for (const p of top.prefixes) this.uris.get(p)!.pop();
  }

  /** The namespace URI `prefix` is bound to here, or undefined. */
  uri(prefix: string): string | undefined {
    const s = this.uris.get(prefix);
    return s?.[s.length - 1] || undefined;
  }

  /** Whether element `qname` is in the XLIFF 1.2 namespace (`xliff:g`): aapt2 strips such elements, keeping their text. */
  isXliff(qname: string): boolean {
    const c = qname.indexOf(':');
    return c !== -1 && this.uri(qname.slice(0, c)) === XLIFF_NS;
  }

  private unbound(qname: string): string | undefined {
    const c = qname.indexOf(':');
    if (c === -1) return undefined;
    const prefix = qname.slice(0, c);
    const local = qname.slice(c + 1);
    if (!prefix || !local || local.includes(':')) return `malformed name: ${qname}`;
    if (prefix === 'xml') return undefined;
    const s = this.uris.get(prefix);
    return s && s[s.length - 1] ? undefined : `unbound namespace prefix: "${prefix}"`;
  }
}

const TOOLS_URI = 'http://schemas.android.com/tools';

/**
 * The Lint issue ids an element's `tools:ignore` names (any prefix bound to the tools namespace), trimmed and
 * lowercased: Lint splits the value at commas and compares ids case-insensitively.
 */
function lintIgnores(attributes: Record<string, string>, ns: PrefixScope): string[] {
  const out: string[] = [];
  for (const a in attributes) {
    const c = a.indexOf(':');
    if (c === -1 || a.slice(c + 1) !== 'ignore' || ns.uri(a.slice(0, c)) !== TOOLS_URI) continue;
    for (const id of attributes[a]!.split(',')) if (id.trim()) out.push(id.trim().toLowerCase());
  }
  return out;
}

/** A well-formedness error that ends a parse: its message and 1-based line and column. */
export class XmlSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

/** 1-based line and column (UTF-16 units) of `offset` in `text`. Linear: for error paths only. */
export function xmlPosition(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return { line, column: offset - text.lastIndexOf('\n', offset - 1) };
}

/**
 * The error that ends a parse, from saxes's first report that is not an undefined entity or text outside the root:
 * worded as xmldom worded the common ones (tag mismatch, unclosed tags, no root) and placed at the defect; a bare `&`
 * (no entity reference: saxes reads on to the next `;` and fails far away) is reported where it stands. `open` holds
 * the names of the elements open, outermost first; `lastClosed` the last end tag's element.
 */
export function xmlSyntaxError(p: XmlParser, text: string, err: Error, open: readonly string[], lastClosed: string): XmlSyntaxError {
  const message = err.message.replace(/^\d+:\d+: /, '');
  const pos = p.position;
  const amp = bareAmpersand(text, pos);
  if (amp >= 0) {
    const at = xmlPosition(text, amp);
    return new XmlSyntaxError("'&' does not start an entity reference (write &amp;)", at.line, at.column);
  }
  const here = { line: p.line, column: p.columnIndex + 1 };
  if (message === 'document must contain a root element.') return new XmlSyntaxError('missing root element', here.line, here.column);
  if (message.startsWith('unclosed tag: ')) return new XmlSyntaxError(`unclosed xml tag(s): ${open.join(', ')}`, here.line, here.column);
  if (message === 'unexpected close tag.') {
    const lt = text.lastIndexOf('</', pos - 1);
    const at = xmlPosition(text, lt);
    return new XmlSyntaxError(`Opening and ending tag mismatch: "${lastClosed}" != "${text.slice(lt + 2, pos - 1)}"`, at.line, at.column);
  }
  return new XmlSyntaxError(message.replace(/\.$/, ''), here.line, here.column);
}

/**
 * Message and position of non-whitespace text outside the root element, which saxes reports ("text data outside of
 * root node") once the run of text has been read; worded as xmldom worded it, at the run's first non-space character.
 */
export function outsideRoot(p: XmlParser, text: string, rootClosed: boolean): { message: string; line: number; column: number } {
  const end = text.charCodeAt(p.position - 1) === 60 ? p.position - 1 : p.position;
  const from = text.lastIndexOf('>', end - 1) + 1;
  const lt = text.indexOf('<', from);
  const run = text.slice(from, lt === -1 ? undefined : lt);
  const at = xmlPosition(text, from + Math.max(0, run.search(/[^\x20\t\r\n]/)));
  const message = rootClosed && lt === -1 ? 'Extra content at the end of the document' : `Unexpected content outside root element: '${run.replace(/[\x20\t\r\n]+/g, '')}'`;
  return { message, ...at };
}

/** The reference saxes has just failed to resolve (`&name;`, ending right before the parser) and where its `&` stands. */
export function undefinedEntity(p: XmlParser, text: string): { ref: string; line: number; column: number } {
  const pos = p.position;
  const amp = text.lastIndexOf('&', pos - 1);
  return { ref: text.slice(amp, pos), line: p.line, column: p.columnIndex + 1 - (pos - amp) };
}

// doctypedecl (w3.org/TR/xml/#NT-doctypedecl) after `<!DOCTYPE`, loosely: a name, an optional SYSTEM or PUBLIC
// external id with quoted literals, an optional internal subset in brackets (captured).
const DOCTYPE = /^[ \t\n]+[^\s[\]>"']+(?:[ \t\n]+(?:SYSTEM|PUBLIC[ \t\n]+(?:"[^"]*"|'[^']*'))[ \t\n]+(?:"[^"]*"|'[^']*'))?[ \t\n]*(?:\[([\s\S]*)\][ \t\n]*)?$/;
// intSubset (w3.org/TR/xml/#NT-intSubset), loosely: white space, comments, PIs, parameter-entity references and
// ENTITY / ELEMENT / ATTLIST / NOTATION declarations, an ENTITY's value quoted or an external id.
const INTERNAL_SUBSET = /^(?:[ \t\n]+|<!--(?:(?!--)[\s\S])*-->|<\?[\s\S]*?\?>|%[^\s;%]+;|<!(?:ENTITY[ \t\n]+(?:%[ \t\n]+)?[^\s%"'<>]+[ \t\n]+(?:"[^"]*"|'[^']*'|(?:SYSTEM|PUBLIC)[ \t\n]+(?:[^>"']|"[^"]*"|'[^']*')*?)[ \t\n]*|(?:ELEMENT|NOTATION)[ \t\n]+[^>]*|ATTLIST[ \t\n]+(?:[^>"']|"[^"]*"|'[^']*')*)>)*$/;

/**
 * The error in a DOCTYPE declaration saxes has just read (call from `doctype`, with its text after `<!DOCTYPE`), or
 * undefined. saxes does not check a declaration's syntax; xmldom did, and refused the file. Entities the internal
 * subset declares are not expanded (as xmldom did not): a reference to one is an undefined entity.
 */
export function doctypeError(p: XmlParser, text: string, body: string): XmlSyntaxError | undefined {
  const m = DOCTYPE.exec(body);
  if (m && (m[1] === undefined || INTERNAL_SUBSET.test(m[1]))) return undefined;
  const at = xmlPosition(text, p.position - body.length - '<!DOCTYPE>'.length);
  return new XmlSyntaxError('malformed DOCTYPE declaration', at.line, at.column);
}

/** Offset of the first `&` before `end` that starts no entity or character reference, outside comments, CDATA and PIs; else -1. */
function bareAmpersand(text: string, end: number): number {
  const re = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|&(?!#[0-9]+;|#x[0-9a-fA-F]+;|[^\s&;<>"']+;)/g;
  for (let m = re.exec(text); m && m.index < end; m = re.exec(text)) if (m[0] === '&') return m.index;
  return -1;
}

/** The variant being read: an entry's `<string>` or a `<plurals>` / `<string-array>` `<item>`. */
interface OpenVariant {
  depth: number;
  line: number;
  column: number;
  raw: string;
  inQuote: boolean;
  /** Styling elements inside the text (`<b>`, `<a href>`, `<xliff:g>`), in order. */
  markup?: MarkupTag[];
}

/** The entry being read (a child of `<resources>` with a `name`). */
interface OpenEntry {
  kind: 'string' | 'plural' | 'array';
  key: string;
  line: number;
  column: number;
  grammar: 'printf-java' | 'none';
  translatable: boolean;
  /** Lint issue ids `tools:ignore` names on the element or on `<resources>`, lowercased. */
  lintIgnore?: string[];
  plurals: Record<string, Variant>;
  items: Variant[];
  /** The `quantity` of the plural item being read. */
  quantity: string;
}

// What changes aapt2's quoting state in a text: an escape (the next character is taken as is), a double quote, an apostrophe.
const QUOTING = /[\\"']/g;

/** A place in the source: offset, 1-based line and column. */
interface Mark {
  offset: number;
  line: number;
  column: number;
}

/**
 * Parse one Android values XML file of locale `locale`. Returns every string, plural and string-array entry with
 * 1-based positions (line and UTF-16 column of the element's `<`); problems: `unparsable` (malformed XML, with its
 * line and column; after an undefined entity such as `&nbsp;`, kept as written, or text outside the root element the
 * entries are still read) and `android-unescaped-apostrophe` (an `'` neither escaped nor inside a double-quoted span:
 * aapt2 drops it and Android Lint reports it), reported at the apostrophe's line and at the column its offset in the
 * decoded text node gives (what xmldom's text-node positions gave), and `duplicate-resource` (severity error) at each
 * later definition of a resource type and name already defined in the file (`<string name="a">` twice; a `<string>`
 * and a `<plurals>` of one name are two resources): aapt2 fails with "duplicate value for resource". Both copies stay
 * in `entries` (the later one in `byKey`). Never throws.
 */
export function parseAndroidXml(path: string, text: string, locale: string): LoadedCatalog {
  const src = normaliseXmlLineEnds(text);
  // Problems of the XML itself come first, then those of the entries, in file order.
  const parseProblems: ParseProblem[] = [];
  const problems: ParseProblem[] = [];
  const entries: CatalogEntry[] = [];
  const p = xmlParser();
  const open: string[] = [];
  const ns = new PrefixScope();
  let lastClosed = '';
  let root: string | undefined;
  let rootIgnore: string[] = [];
  let entry: OpenEntry | undefined;
  let v: OpenVariant | undefined;
  // Where a run of text starts (xmldom's text-node position): right after the last start tag, end tag or CDATA
  // section, or after the comments and processing instructions (no handlers: see xmlParser) that follow the `<` that
  // ended the previous run of text.
  const mark: Mark = { offset: 0, line: 1, column: 1 };
  const runEnd: Mark = { offset: -1, line: 1, column: 1 };
  const afterMarkup = () => {
    mark.offset = p.position;
    mark.line = p.line;
    mark.column = p.columnIndex + 1;
  };
  const runStart = (): Mark => {
    const from = runEnd.offset > mark.offset ? runEnd : mark;
    let at = from.offset;
    if (src.charCodeAt(at) !== 60) return from;
    let { line, column } = from;
    while (src.charCodeAt(at) === 60) {
      const end = src.startsWith('<!--', at) ? src.indexOf('-->', at + 4) + 3 : src.startsWith('<?', at) ? src.indexOf('?>', at + 2) + 2 : -1;
      if (end < at) break;
      for (; at < end; at++) {
        if (src.charCodeAt(at) === 10) {
          line++;
          column = 1;
        } else column++;
      }
    }
    return { offset: at, line, column };
  };
  // First line of each resource (aapt2 type and name): a second definition in the file fails aapt2's build.
  const seen = new Map<string, number>();
  const add = (e: CatalogEntry) => {
    const type = e.kind === 'plural' ? 'plurals' : e.kind;
    const id = `${type}/${e.key}`;
    const first = seen.get(id);
    if (first === undefined) seen.set(id, e.line);
    else problems.push({ rule: 'duplicate-resource', key: e.key, message: `duplicate value for resource ${id} (first at line ${first}); aapt2 fails the build`, line: e.line, column: e.column, severity: 'error' });
    entries.push(e);
  };
  const check = (data: string, start: Mark) => {
    const key = entry!.key;
    const variant = v!;
    QUOTING.lastIndex = 0;
    for (let m = QUOTING.exec(data); m; m = QUOTING.exec(data)) {
      const i = m.index;
      const c = data.charCodeAt(i);
      if (c === 92 /* \ */) QUOTING.lastIndex = i + 2;
      else if (c === 34 /* " */) variant.inQuote = !variant.inQuote;
      else if (!variant.inQuote) {
        const before = data.slice(0, i);
        const nl = before.split('\n').length - 1;
        problems.push({
          rule: 'android-unescaped-apostrophe',
          key,
          message: `unescaped apostrophe in \`${key}\`: write \\' (aapt2 drops a bare ' and Android Lint reports it)`,
          line: start.line + nl,
          column: nl === 0 ? start.column + i : i - before.lastIndexOf('\n'),
          severity: 'error',
        });
      }
    }
  };
  p.on('opentag', (tag) => {
    const at = startTag(p, src);
    afterMarkup();
    const depth = open.push(tag.name) - 1;
    const nsError = ns.open(tag.name, tag.attributes, depth, at.colon);
    if (nsError) throw new XmlSyntaxError(nsError, at.line, at.column);
    if (depth === 0) {
      root = tag.name;
      if (at.colon) rootIgnore = lintIgnores(tag.attributes, ns);
    }
    if (root !== 'resources') return;
    // <xliff:g> is a translator's note (aapt2 strips it, users never see it): not markup; its text is the string's.
    if (v && depth > v.depth && !ns.isXliff(tag.name)) (v.markup ??= []).push({ name: tag.name.toLowerCase(), kind: tag.isSelfClosing ? 'self' : 'open' });
    if (depth === 1) {
      entry = undefined;
      const key = tag.attributes.name;
      if (!key) return;
      // `<item type="string">` is a string resource (aapt2 compiles it as `<string>`); `<item type="plurals">` is no
      // bag for aapt2 (an <item> is never one), only a reference, so it is not read.
      const isString = tag.name === 'string' || (tag.name === 'item' && tag.attributes.type === 'string');
      const kind = isString ? 'string' : tag.name === 'plurals' ? 'plural' : tag.name === 'string-array' ? 'array' : undefined;
      if (!kind) return;
      const grammar = tag.attributes.formatted !== 'false' ? 'printf-java' : 'none';
      entry = { kind, key, line: at.line, column: at.column, grammar, translatable: tag.attributes.translatable !== 'false', plurals: {}, items: [], quantity: '' };
      const ignore = at.colon ? [...rootIgnore, ...lintIgnores(tag.attributes, ns)] : rootIgnore;
      if (ignore.length) entry.lintIgnore = ignore;
      if (kind === 'string') v = { depth, line: at.line, column: at.column, raw: '', inQuote: false };
    } else if (depth === 2 && entry && entry.kind !== 'string' && tag.name === 'item') {
      const q = tag.attributes.quantity;
      if (entry.kind === 'plural' && !q) return;
      entry.quantity = q ?? '';
      v = { depth, line: at.line, column: at.column, raw: '', inQuote: false };
    }
  });
  p.on('closetag', (tag) => {
    afterMarkup();
    lastClosed = tag.name;
    const depth = open.length - 1;
    open.pop();
    const xliff = ns.isXliff(tag.name);
    ns.close(depth);
    if (v && depth > v.depth && !tag.isSelfClosing && !xliff) v.markup!.push({ name: tag.name.toLowerCase(), kind: 'close' });
    if (v && depth === v.depth && entry) {
      const variant: Variant = { text: unescapeAndroid(v.raw), raw: v.raw, line: v.line, column: v.column, ...(v.markup ? { markup: v.markup } : {}) };
      v = undefined;
      if (entry.kind === 'string') add({ key: entry.key, kind: 'string', value: variant.text, raw: variant.raw ?? variant.text, line: entry.line, column: entry.column, grammar: entry.grammar, translatable: entry.translatable, ...(variant.markup ? { markup: variant.markup } : {}), ...(entry.lintIgnore ? { lintIgnore: entry.lintIgnore } : {}) });
      else if (entry.kind === 'plural') entry.plurals[entry.quantity] = variant;
      else entry.items.push(variant);
    }
    if (depth === 1 && entry) {
      const e = entry;
      entry = undefined;
      if (e.kind === 'plural') {
        const value = e.plurals.other?.text ?? Object.values(e.plurals)[0]?.text ?? '';
        add({ key: e.key, kind: 'plural', value, line: e.line, column: e.column, grammar: e.grammar, translatable: e.translatable, plurals: e.plurals, ...(e.lintIgnore ? { lintIgnore: e.lintIgnore } : {}) });
      } else if (e.kind === 'array') {
        add({ key: e.key, kind: 'array', value: e.items.map((i) => i.text).join('\n'), line: e.line, column: e.column, grammar: e.grammar, translatable: e.translatable, items: e.items, ...(e.lintIgnore ? { lintIgnore: e.lintIgnore } : {}) });
      }
    }
  });
  p.on('text', (t) => {
    // Without a quote or an apostrophe a text changes no quoting state and holds no apostrophe (most texts).
    if (v) {
      v.raw += t;
      if (t.indexOf("'") !== -1 || t.indexOf('"') !== -1) check(t, runStart());
    }
    // saxes reports text inside the root on the `<` that ends it.
    runEnd.offset = p.position - 1;
    runEnd.line = p.line;
    runEnd.column = p.columnIndex;
  });
  // CDATA is taken verbatim by aapt2 (no apostrophe check), but quoting state still flows through it.
  p.on('cdata', (t) => {
    afterMarkup();
    if (v) v.raw += t;
  });
  p.on('doctype', (body) => {
    const e = doctypeError(p, src, body);
    if (e) throw e;
  });
  p.on('error', (err) => {
    // xmldom went on after these two (an entity it did not know; text outside the root) and so do we: the entries
    // are still read, and the file is reported unparsable.
    if (err.message.endsWith(': text data outside of root node.')) {
      const o = outsideRoot(p, src, root !== undefined && open.length === 0);
      parseProblems.push({ rule: 'unparsable', message: `malformed XML: ${o.message}`, line: o.line, column: o.column, severity: 'error' });
      return;
    }
    if (err.message.endsWith(': undefined entity.')) {
      const u = undefinedEntity(p, src);
      parseProblems.push({ rule: 'unparsable', message: `malformed XML: entity not found:${u.ref}`, line: u.line, column: u.column, severity: 'error' });
      return;
    }
    throw xmlSyntaxError(p, src, err, open, lastClosed);
  });
  try {
    p.write(src).close();
  } catch (err) {
    if (!(err instanceof XmlSyntaxError)) throw err;
    parseProblems.push({ rule: 'unparsable', message: `malformed XML: ${err.message}`, line: err.line, column: err.column, severity: 'error' });
    return { path, format: 'android-xml', locales: [localeCatalog(locale, [])], problems: parseProblems };
  }
  if (root !== 'resources') {
    if (!parseProblems.length) parseProblems.push({ rule: 'unparsable', message: 'not an Android resources file (no <resources> root)', line: 1, column: 1, severity: 'error' });
    return { path, format: 'android-xml', locales: [localeCatalog(locale, [])], problems: parseProblems };
  }
  return { path, format: 'android-xml', locales: [localeCatalog(locale, entries)], problems: [...parseProblems, ...problems] };
}

// A raw value needing no work: no escape, no quote, no whitespace but single spaces between words.
const NEEDS_UNESCAPE = /[\\"\t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]| {2}|^ | $/;

/** Whether UTF-16 unit `c` is JavaScript white space (what `/\s/` and `String.prototype.trim` match). */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c >= 0x2000 && c <= 0x200a) || c === 0xa0 || c === 0x1680 || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** The text aapt2 stores: quotes removed, whitespace outside quotes collapsed, escapes resolved. */
export function unescapeAndroid(raw: string): string {
  if (!NEEDS_UNESCAPE.test(raw)) return raw;
  let out = '';
  let quote = false;
  let space = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 92 /* \ */) {
      const e = raw[i + 1];
      i++;
      if (e === 'n') out += '\n';
      else if (e === 't') out += '\t';
      else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(raw.slice(i + 1, i + 5))) {
        out += String.fromCharCode(parseInt(raw.slice(i + 1, i + 5), 16));
        i += 4;
      } else if (e !== undefined) out += e;
      space = false;
    } else if (c === 34 /* " */) {
      quote = !quote;
    } else if (!quote && isSpace(c)) {
      if (!space) out += ' ';
      space = true;
    } else {
      out += raw[i];
      space = false;
    }
  }
  return out.trim();
}
