// Android resource XML extractor (layouts, menus, preference screens, navigation graphs, the manifest), streamed
// through saxes 6 (XML 1.0 fifth edition + Namespaces in XML 1.0; github.com/lddubeau/saxes). Which attributes are
// text: the Android API reference of TextView, View, MenuItem, Preference, SearchView, TextInputLayout and Toolbar;
// references (`@string/…`, `@{…}` data binding, `?attr/…`; not their escaped forms `\@…` / `\?…`, which are text)
// and `tools:` attributes (design-time only, see developer.android.com/studio/write/tool-attributes) are never
// candidates. `tools:ignore="HardcodedText"` is Android Lint's own suppression and is honoured (as `suppressed`)
// unless config turns it off.
import { SaxesParser, type SaxesAttributeNS } from 'saxes';
import { parseSuppression, type Directive } from '../../core/suppression.js';
import { ANDROID_NS, DEFAULT_ANDROID_ATTRIBUTES, GATE_ID, TOOLS_NS } from './defaults.js';
import { xmlReferences } from './android-references.js';
import { hasLetter, type AndroidReference, type Candidate, type Extraction } from './model.js';

export { ANDROID_NS, DEFAULT_ANDROID_ATTRIBUTES, TOOLS_NS } from './defaults.js';

const RES_AUTO = 'http://schemas.android.com/apk/res-auto';
// Before res-auto, custom attributes lived in `http://schemas.android.com/apk/res/<package>`.
const RES_PACKAGE = 'http://schemas.android.com/apk/res/';
const LINT_SUPPRESSION = 'tools:ignore="HardcodedText" (Android Lint)';

/** Options of `extractAndroidXml`. */
export interface AndroidXmlOptions {
  attributes?: readonly string[];
  /** Honour Android Lint's `tools:ignore="HardcodedText"` on an element and its descendants. Default true. */
  honorLintIgnore?: boolean;
}

/**
 * Line ends as the document's XML version reads them: CR LF and CR -> LF (1.0 §2.11), and NEL, LS, PS too in a document
 * declaring version 1.1. In 1.0 (every Android layout) U+2028 is a character: git and editors count no line there.
 */
function normalizeLineEndings(source: string): string {
  if (!/[\r\u0085\u2028\u2029]/u.test(source)) return source;
  return /^\uFEFF?<\?xml\s+version\s*=\s*["']1\.1["']/u.test(source)
    ? source.replace(/\r[\n\u0085]/gu, '\n').replace(/[\r\u0085\u2028\u2029]/gu, '\n')
    : source.replace(/\r\n?/gu, '\n');
}

/** A leading directive waiting for what follows it: the next element's start tag, or else the line after it. */
interface Pending {
  directive: Directive;
  /** Last line of the comment. */
  end: number;
}

/**
 * Extract candidates and directives from one Android XML file.
 *
 * Candidates: every attribute whose canonical name (the platform namespace as `android:`, res-auto and the legacy
 * `apk/res/<package>` namespaces as `app:`, whatever prefix the document binds them to; `tools:` never) is in
 * `options.attributes` (default `DEFAULT_ANDROID_ATTRIBUTES`) and whose value has a letter and is no reference.
 * Positions are 1-based lines and 1-based UTF-16 columns of the value's opening quote, after line-end normalisation
 * (CR LF, CR, NEL, LS and PS each end one line). Directives: `loopgates-ignore hardcoded-strings` comments at their
 * `<!--`; a comment with nothing before it on its line also covers the next sibling element's start tag (from `<` to
 * the line of its last attribute value) or, when something else follows (text, CDATA, a processing instruction, the
 * parent's end tag, the end of the document), the line after the comment. Whitespace and comments in between are
 * skipped.
 *
 * Malformed XML (not well-formed per XML 1.0 or Namespaces in XML 1.0) yields `fatal` with the first error saxes
 * reports (see `fatalOf` for where it is placed) and no candidates or directives, so the gate can fail on it instead
 * of passing blind. Never throws. A leading byte order mark is skipped.
 */
export function extractAndroidXml(source: string, options: AndroidXmlOptions = {}): Extraction {
  const wanted = new Set(options.attributes ?? DEFAULT_ANDROID_ATTRIBUTES);
  const locals = localNames(wanted);
  const honorLint = options.honorLintIgnore ?? true;
  const text = normalizeLineEndings(source);
  const candidates: Candidate[] = [];
  const references: AndroidReference[] = [];
  const directives: Directive[] = [];
  // Lint suppression of each open element (index = depth; the suppressing element, as lintIgnores names it); [0] is
  // the document.
  const lint: Array<string | false> = [false];
  const lintIgnores: string[] = [];
  // Names of the attributes of the start tag being read whose local name may make them candidates (or tools:ignore).
  let picked: string[] = [];
  // Names of the attributes of that start tag whose value names a text resource (`@string/x`), in any attribute.
  let refPicked: string[] = [];
  let pending: Pending[] = [];
  // While directives are pending: where the markup skipped so far ends (see `skipTo`).
  let gap = 0;
  // Offset where the last construct reported to a listener here ended: an error lies after it (see fatalOf).
  let since = 0;
  let closed = '';
  let lineStarts: number[] | undefined;
  let sourceLines: string[] | undefined;

  /** 1-based line and UTF-16 column of an offset into `text`. */
  const locate = (offset: number): { line: number; column: number } => {
    if (!lineStarts) {
      lineStarts = [0];
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
    }
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStarts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (lineStarts[lo] ?? 0) + 1 };
  };

  // Four listeners, five while a directive waits, never more: saxes stores each listener as a new property of the
  // parser, and from the seventh on V8 turns the parser into a dictionary-mode object, which made every file about
  // 30% slower to read. So CDATA, processing instructions and the doctype get no listener: `skipTo` finds them in
  // the source, and the parser throws its first error instead of calling an error listener.
  const parser = new SaxesParser({ xmlns: true, position: true });
  const resolve = (range: readonly [number, number]) => {
    for (const p of pending) p.directive.ranges.push(range);
    pending = [];
    parser.off('text');
  };
  const resolveNone = () => {
    for (const p of pending) p.directive.ranges.push([p.end + 1, p.end + 1]);
    pending = [];
    parser.off('text');
  };
  /**
   * Called while directives are pending, before the construct starting at `start` is judged. Between the end of the
   * markup skipped so far (`gap`) and `start` there is only text, reported to `onText`, unless saxes met a construct
   * that has no listener here (CDATA, a processing instruction, a doctype): it is the directives' next sibling.
   */
  const skipTo = (start: number) => {
    const lt = text.indexOf('<', gap);
    if (lt !== -1 && lt < start) resolveNone();
  };
  // Text is read only between a leading directive and what follows it: saxes builds no text without a listener.
  const onText = (t: string) => {
    // Emitted on the `<` that ends the text, or at the end of input.
    const end = text[parser.position - 1] === '<' ? parser.position - 1 : parser.position;
    skipTo(end);
    if (pending.length > 0 && t.trim() !== '') resolveNone();
    gap = end;
  };

  // Most attributes (layout_width, id...) are dropped here by local name, before saxes resolves their namespace.
  parser.on('attribute', (attr) => {
    if (locals.has(attr.local)) picked.push(attr.name);
    if (attr.value.includes('@') && xmlReferences(attr.value).length > 0) refPicked.push(attr.name);
  });
  parser.on('opentag', (tag) => {
    const end = (since = parser.position);
    let ignored = lint[lint.length - 1] ?? false;
    let hits: SaxesAttributeNS[] | undefined;
    if (picked.length > 0) {
      for (const name of picked) {
        const attr = tag.attributes[name];
        if (!attr) continue;
        if (attr.uri === TOOLS_NS) {
          if (honorLint && attr.local === 'ignore' && namesHardcodedText(attr.value)) lintIgnores.push((ignored = lintName(tag)));
          continue;
        }
        if (!wanted.has(canonicalName(attr))) continue;
        const value = attr.value;
        if (isReference(value) || !hasLetter(value)) continue;
        (hits ??= []).push(attr);
      }
      picked = [];
    }
    if (!tag.isSelfClosing) lint.push(ignored);
    const refs = refPicked.filter((name) => tag.attributes[name]?.uri !== TOOLS_NS);
    refPicked = [];
    if (hits === undefined && pending.length === 0 && refs.length === 0) return;
    // Where the start tag and its values begin, read back from the source only when a position is needed.
    const start = text.lastIndexOf('<', end - 1);
    const written = startTagAttributes(text, start);
    for (const name of refs) {
      const attr = tag.attributes[name]!;
      const at = locate(written.find((w) => w.name === name)?.quote ?? start);
      for (const r of xmlReferences(attr.value)) {
        references.push({ line: at.line, column: at.column, type: r.type, name: r.name, context: `@${r.type}/${r.name} in ${canonicalName(attr)}` });
      }
    }
    for (const attr of hits ?? []) {
      const at = locate(written.find((w) => w.name === attr.name)?.quote ?? start);
      candidates.push({
        line: at.line,
        column: at.column,
        literal: attr.value,
        context: canonicalName(attr),
        ...(ignored ? { suppressedBy: LINT_SUPPRESSION, suppressedAt: ignored } : {}),
      });
    }
    if (pending.length > 0) skipTo(start);
    if (pending.length > 0) {
      const line = locate(start).line;
      const last = written[written.length - 1];
      resolve([line, last === undefined ? line : Math.max(line, locate(last.quote).line)]);
    }
  });
  parser.on('closetag', (tag) => {
    since = parser.position;
    // On a mismatched end tag saxes closes the open element, then reports the error: fatalOf names both.
    closed = tag.name;
    if (!tag.isSelfClosing) lint.pop();
    // The start tag of a self-closing element resolved them already; else the parent ends with no element after.
    if (pending.length > 0) resolveNone();
  });
  parser.on('comment', (body) => {
    // Emitted on the `>` of `-->`, before reading it.
    since = parser.position;
    const start = text.lastIndexOf('<!--', parser.position);
    if (pending.length > 0) {
      // Comments between a leading directive and its element are skipped; a directive among them waits too.
      skipTo(start);
      gap = parser.position + 1;
    }
    const parsed = parseSuppression(body, GATE_ID);
    if (!parsed) return;
    const at = locate(start);
    const end = at.line + (body.match(/\n/gu)?.length ?? 0);
    const directive: Directive = { line: at.line, column: at.column, reason: parsed.reason, ranges: [[at.line, end]] };
    directives.push(directive);
    // Whether the comment leads its line is read from the source as given (`source`, not `text`), as before.
    sourceLines ??= source.split('\n');
    const before = (sourceLines[at.line - 1] ?? '').slice(0, Math.max(0, at.column - 1));
    if (before.trim() === '') {
      if (pending.length === 0) parser.on('text', onText);
      pending.push({ directive, end });
      gap = parser.position + 1;
    }
  });

  try {
    parser.write(text).close();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // saxes' errors start with its position ("3:15: "); anything else is an error of this extractor.
    const fatal = /^\d+:\d+: /u.test(message)
      ? fatalOf(message, parser, text, { since, closed, locate })
      : { line: 1, column: 1, message: message.split('\n')[0] ?? message };
    return { candidates: [], directives: [], syntaxErrors: [], fatal };
  }
  resolveNone();
  return { candidates, androidReferences: references, directives, syntaxErrors: [], ...(lintIgnores.length ? { lintIgnores } : {}) };
}

/** An element as Extraction.lintIgnores names it: `TextView#@+id/promo`, or the local name alone without an id. */
function lintName(tag: { local: string; attributes: Record<string, SaxesAttributeNS> }): string {
  for (const a of Object.values(tag.attributes)) if (a.uri === ANDROID_NS && a.local === 'id') return `${tag.local}#${a.value}`;
  return tag.local;
}

/**
 * Whether an attribute value is a resource or theme reference rather than text, as aapt2 decides
 * (ResourceUtils::ParseReference and ParseAttributeReference): after leading whitespace, an `@` (`@string/x`,
 * `@android:string/x`, `@null`, data binding `@{…}`) or a `?` (`?attr/x`). A backslash before them (`\@string/x`,
 * `\?attr/x`) is the documented escape: the value is text, shown without the backslash, so it is a candidate.
 */
function isReference(value: string): boolean {
  const first = value.trimStart()[0];
  return first === '@' || first === '?';
}

/** Canonical name of an attribute outside `tools:`: platform namespace -> `android:`, app namespaces -> `app:`. */
function canonicalName(attr: SaxesAttributeNS): string {
  if (attr.uri === ANDROID_NS) return `android:${attr.local}`;
  if (attr.uri === RES_AUTO || attr.uri.startsWith(RES_PACKAGE)) return `app:${attr.local}`;
  return attr.name;
}

/**
 * Local names an attribute must have to be a candidate under `wanted` (canonical names: `android:text` needs
 * `text`; a name kept as written, `x:title` or `text`, needs `title` or `text`), and `ignore` for `tools:ignore`.
 */
function localNames(wanted: ReadonlySet<string>): Set<string> {
  const out = new Set(['ignore']);
  for (const name of wanted) out.add(name.slice(name.indexOf(':') + 1));
  return out;
}

/** Whether a `tools:ignore` value names Android Lint's HardcodedText check (or `all`). */
function namesHardcodedText(value: string): boolean {
  return !!value && value.split(',').some((s) => s.trim() === 'HardcodedText' || s.trim() === 'all');
}

/**
 * The first well-formedness error as `fatal`, at a 1-based line and UTF-16 column. saxes positions an error at the
 * next character to read, so its 0-based column is the 1-based column of the character that showed the error.
 * Three errors are placed where the culprit is rather than where saxes noticed it:
 * - a duplicate attribute (in xmldom's words and at the start tag's `<`, as reports gave before saxes);
 * - an end tag that closes another element than the open one (in xmldom's words, naming both, at its `</`);
 * - an `&` that starts no reference: saxes reads an entity name up to the next `;`, so it reports the damage far
 *   later (often `unexpected end.` at the end of the file). `since` is where the last start tag, end tag or comment
 *   ended (text, CDATA, processing instructions and the doctype have no listener); a bad `&` after it with only text
 *   or a start tag before it (no `<!` or `<?`) is the culprit.
 */
function fatalOf(
  raw: string,
  parser: SaxesParser<{ xmlns: true; position: true }>,
  text: string,
  at: { since: number; closed: string; locate: (offset: number) => { line: number; column: number } },
): NonNullable<Extraction['fatal']> {
  const { since, locate } = at;
  const message = raw.replace(/^\d+:\d+: /u, '');
  const dup = /^duplicate attribute: (.*)\.$/u.exec(message);
  if (dup) {
    // saxes names it by expanded name ({uri}local); xmldom named it as written, the second time it was written.
    const start = text.lastIndexOf('<', parser.position - 1);
    const names = startTagAttributes(text, start).map((a) => a.name);
    const again = names.find((n, i) => names.indexOf(n) !== i);
    return { ...locate(start), message: `Attribute ${again ?? dup[1]} redefined` };
  }
  if (message === 'unexpected close tag.') {
    const start = text.lastIndexOf('</', parser.position - 1);
    const name = /^<\/([^\s>]*)/u.exec(text.slice(start, parser.position))?.[1] ?? '';
    return { ...locate(start), message: `Opening and ending tag mismatch: "${at.closed}" != "${name}"` };
  }
  const region = text.slice(since, parser.position);
  const amp = /&(?!(?:[\p{L}_:][\p{L}\p{N}\p{M}_:.\-\u00B7\u203F\u2040]*|#[0-9]+|#x[0-9A-Fa-f]+);)/u.exec(region);
  // Only when saxes noticed it later than right at the `&` (an `&` in a name is reported where it is, in its words).
  if (amp && since + amp.index + 1 < parser.position && !/<[!?]/u.test(region.slice(0, amp.index))) {
    return { ...locate(since + amp.index), message: '"&" starts no entity or character reference (write &amp;)' };
  }
  return { line: parser.line, column: Math.max(1, parser.columnIndex), message };
}

/**
 * The attributes of the start tag whose `<` is at `start`, as written: qualified name and the offset of the value's
 * opening quote, in document order. saxes checked the tag before reporting it (or failed on it: a duplicate), so it
 * matches XML 1.0 [40] STag: a value holds no `<` and ends at the next occurrence of its quote.
 */
function startTagAttributes(text: string, start: number): Array<{ name: string; quote: number }> {
  const out: Array<{ name: string; quote: number }> = [];
  const tagName = /<[^ \t\n\r/>]*/uy;
  tagName.lastIndex = start;
  if (!tagName.exec(text)) return out;
  const attribute = /[ \t\n\r]+([^ \t\n\r=/>"']+)[ \t\n\r]*=[ \t\n\r]*(?:"[^"]*"|'[^']*')/guy;
  attribute.lastIndex = tagName.lastIndex;
  for (let m = attribute.exec(text); m; m = attribute.exec(text)) {
    const value = m[0].endsWith('"') ? m[0].lastIndexOf('"', m[0].length - 2) : m[0].lastIndexOf("'", m[0].length - 2);
    out.push({ name: m[1] ?? '', quote: m.index + value });
  }
  return out;
}
