// Android resource XML extractor (layouts, menus, preference screens, navigation graphs, the manifest), parsed with
// @xmldom/xmldom 0.9 (attributes carry `lineNumber` / `columnNumber` from its locator). Which attributes are text:
// the Android API reference of TextView, View, MenuItem, Preference, SearchView, TextInputLayout and Toolbar;
// references (`@string/…`, `@{…}` data binding, `?attr/…`) and `tools:` attributes (design-time only, see
// developer.android.com/studio/write/tool-attributes) are never candidates. `tools:ignore="HardcodedText"` is
// Android Lint's own suppression and is honoured (as `suppressed`) unless config turns it off.
import { DOMParser, type Attr, type Comment, type Element, type Node } from '@xmldom/xmldom';
import { ANDROID_NS, DEFAULT_ANDROID_ATTRIBUTES, TOOLS_NS } from './defaults.js';
import { hasLetter, parseDirective, type Candidate, type Directive, type Extraction } from './model.js';

export { ANDROID_NS, DEFAULT_ANDROID_ATTRIBUTES, TOOLS_NS } from './defaults.js';

const RES_AUTO = 'http://schemas.android.com/apk/res-auto';

/** Canonical name of an attribute: platform namespace -> `android:`, app namespaces -> `app:`, tools -> null. */
function canonicalName(attr: Attr): string | null {
  const ns = attr.namespaceURI;
  if (ns === TOOLS_NS) return null;
  if (ns === ANDROID_NS) return `android:${attr.localName}`;
  // Before res-auto, custom attributes lived in `http://schemas.android.com/apk/res/<package>`.
  if (ns === RES_AUTO || (ns?.startsWith('http://schemas.android.com/apk/res/') ?? false)) return `app:${attr.localName}`;
  return attr.name;
}

function lintIgnoresHardcodedText(el: Element): boolean {
  const v = el.getAttributeNS(TOOLS_NS, 'ignore');
  return !!v && v.split(',').some((s) => s.trim() === 'HardcodedText' || s.trim() === 'all');
}

const lineOf = (n: Node) => n.lineNumber ?? 0;
const columnOf = (n: Node) => n.columnNumber ?? 0;

/** Options of `extractAndroidXml`. */
export interface AndroidXmlOptions {
  attributes?: readonly string[];
  /** Honour Android Lint's `tools:ignore="HardcodedText"` on an element and its descendants. Default true. */
  honorLintIgnore?: boolean;
}

/**
 * Extract candidates and directives from one Android XML file. Malformed XML yields `fatal` (the first error with
 * its 1-based line and column) and no candidates, so the gate can fail on it instead of passing blind.
 */
export function extractAndroidXml(source: string, options: AndroidXmlOptions = {}): Extraction {
  const attributes = new Set(options.attributes ?? DEFAULT_ANDROID_ATTRIBUTES);
  const honorLint = options.honorLintIgnore ?? true;
  let fatal: Extraction['fatal'];
  const parser = new DOMParser({
    locator: true,
    // xmldom reports where its reader stood, which for a tag mismatch is near, not at, the culprit.
    onError: (level, message, context) => {
      if (level === 'warning' || fatal) return;
      const at = (context as { locator?: { lineNumber?: number; columnNumber?: number } } | undefined)?.locator;
      fatal = { line: at?.lineNumber ?? 1, column: at?.columnNumber ?? 1, message: message.trim() };
    },
  });
  let doc: Node;
  try {
    doc = parser.parseFromString(source, 'text/xml');
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { candidates: [], directives: [], syntaxErrors: [], fatal: fatal ?? { line: 1, column: 1, message: message.split('\n')[0] ?? message } };
  }
  if (fatal) return { candidates: [], directives: [], syntaxErrors: [], fatal };
  const lines = source.split('\n');
  const candidates: Candidate[] = [];
  const directives: Directive[] = [];
  const visit = (node: Node, ignored: boolean) => {
    if (node.nodeType === 8 /* COMMENT_NODE */) {
      directiveFor(node as Comment, lines, directives);
      return;
    }
    if (node.nodeType !== 1 /* ELEMENT_NODE */) {
      for (const c of Array.from(node.childNodes ?? [])) visit(c, ignored);
      return;
    }
    const el = node as Element;
    const lint = ignored || (honorLint && lintIgnoresHardcodedText(el));
    for (const attr of Array.from(el.attributes)) {
      const name = canonicalName(attr);
      if (!name || !attributes.has(name)) continue;
      const value = attr.value;
      const trimmed = value.trim();
      if (trimmed.startsWith('@') || trimmed.startsWith('?') || !hasLetter(value)) continue;
      candidates.push({
        line: lineOf(attr),
        column: columnOf(attr),
        literal: value,
        context: name,
        ...(lint ? { suppressedBy: 'tools:ignore="HardcodedText" (Android Lint)' } : {}),
      });
    }
    for (const c of Array.from(el.childNodes)) visit(c, lint);
  };
  visit(doc, false);
  return { candidates, directives, syntaxErrors: [] };
}

/** A directive in an XML comment: trailing covers its line; leading also covers the next element's start tag. */
function directiveFor(comment: Comment, lines: readonly string[], out: Directive[]): void {
  const parsed = parseDirective(comment.data);
  if (!parsed) return;
  const line = lineOf(comment);
  const column = columnOf(comment);
  const end = line + (comment.data.match(/\n/gu)?.length ?? 0);
  const ranges: Array<readonly [number, number]> = [[line, end]];
  const before = (lines[line - 1] ?? '').slice(0, Math.max(0, column - 1));
  if (before.trim() === '') {
    let next = comment.nextSibling;
    while (next && (next.nodeType === 3 /* TEXT */ ? (next.nodeValue ?? '').trim() === '' : next.nodeType === 8)) next = next.nextSibling;
    if (next && next.nodeType === 1) {
      const el = next as Element;
      const attrLines = Array.from(el.attributes).map(lineOf);
      ranges.push([lineOf(el), Math.max(lineOf(el), ...attrLines)]);
    } else ranges.push([end + 1, end + 1]);
  }
  out.push({ line, column, reason: parsed.reason, ranges });
}
