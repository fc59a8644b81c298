// Mutation operators for `loopgates mutate`: inject a hard-coded user-visible literal into a real input, at a place
// the gate must report. Operators are pure and synchronous (the WASM grammars load asynchronously), so source files
// are scanned with a small lexer that skips comments and string literals; Android XML is parsed with xmldom.
import { createRequire } from 'node:module';
import type { Element, Node } from '@xmldom/xmldom';
import type { GateContext, Mutant, MutationOperator } from '../../core/types.js';
import { ANDROID_NS, DEFAULT_ANDROID_ATTRIBUTES, DOM_NON_COPY_ELEMENTS, TOOLS_NS, TRANSLATION_COMPONENTS } from './defaults.js';

// xmldom (CommonJS) is required on the first XML mutant, not at import: the gate object, and so every commit,
// loads this module for the synchronous `mutations` list, while only `loopgates mutate` parses XML here.
let xmldom: typeof import('@xmldom/xmldom') | undefined;
const loadXmldom = (): typeof import('@xmldom/xmldom') => (xmldom ??= createRequire(import.meta.url)('@xmldom/xmldom') as typeof import('@xmldom/xmldom'));

/** The literal every operator injects: letters, no catalog would hold it, no allow-list should match it. */
export const INJECTED_TEXT = 'Hello from loopgates';

const pick = <T>(list: readonly T[], random: () => number): T | undefined => list[Math.min(list.length - 1, Math.floor(random() * list.length))];

/** 0-based offset of 1-based `line`/`column` in `text`. */
function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', offset);
    if (nl < 0) return -1;
    offset = nl + 1;
  }
  return offset + column - 1;
}

const lineAt = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

function parseXml(content: string): Node | null {
  let failed = false;
  try {
    const doc = new (loadXmldom().DOMParser)({ locator: true, onError: (level) => void (level !== 'warning' && (failed = true)) }).parseFromString(content, 'text/xml');
    return failed ? null : doc;
  } catch {
    return null;
  }
}

/** Elements with whether they (or an ancestor) are suppressed by Lint's tools:ignore or a loopgates-ignore comment. */
function elements(doc: Node): Array<{ el: Element; quiet: boolean }> {
  const out: Array<{ el: Element; quiet: boolean }> = [];
  const visit = (n: Node, quiet: boolean) => {
    if (n.nodeType === 1) {
      const el = n as Element;
      const ignore = el.getAttributeNS(TOOLS_NS, 'ignore') ?? '';
      let prev = el.previousSibling;
      while (prev && prev.nodeType === 3 && (prev.nodeValue ?? '').trim() === '') prev = prev.previousSibling;
      const commented = prev?.nodeType === 8 && (prev.nodeValue ?? '').includes('loopgates-ignore');
      const q = quiet || /HardcodedText|\ball\b/u.test(ignore) || commented;
      out.push({ el, quiet: q });
      for (const c of Array.from(el.childNodes)) visit(c, q);
      return;
    }
    for (const c of Array.from(n.childNodes ?? [])) visit(c, quiet);
  };
  visit(doc, false);
  return out;
}

// Elements that are not views (layout plumbing, data binding): a contentDescription there is not a real defect.
const NOT_VIEWS = new Set(['merge', 'include', 'requestFocus', 'data', 'layout', 'variable', 'import', 'tag', 'fragment']);

/** `android:contentDescription="…"` added to a real view element of a layout. */
export const injectContentDescription: MutationOperator = {
  id: 'hardcoded-strings/layout-content-description',
  description: 'adds a hard-coded android:contentDescription to a view of a layout',
  appliesTo: (path) => /(^|\/)res\/layout[^/]*\/[^/]+\.xml$/u.test(path),
  mutate(path, content, random): Mutant | null {
    const doc = parseXml(content);
    if (!doc) return null;
    const sites = elements(doc).filter(({ el, quiet }) => {
      if (quiet || NOT_VIEWS.has(el.localName ?? el.nodeName)) return false;
      if (el.hasAttributeNS(ANDROID_NS, 'contentDescription')) return false;
      return (el.lineNumber ?? 0) > 0;
    });
    const site = pick(sites, random);
    if (!site) return null;
    const { el } = site;
    const prefix = el.lookupPrefix(ANDROID_NS);
    if (!prefix) return null;
    const at = offsetOf(content, el.lineNumber ?? 0, el.columnNumber ?? 0);
    if (at < 0 || content[at] !== '<') return null;
    const insertAt = at + 1 + el.nodeName.length;
    return {
      content: `${content.slice(0, insertAt)} ${prefix}:contentDescription="${INJECTED_TEXT}"${content.slice(insertAt)}`,
      line: el.lineNumber ?? 0,
      rule: 'hardcoded-text',
      description: `added ${prefix}:contentDescription="${INJECTED_TEXT}" to <${el.nodeName}> in ${path}`,
    };
  },
};

/** A `@string/…` reference of a text attribute replaced by its words ("@string/episode_title" -> "Episode title"). */
export const inlineStringReference: MutationOperator = {
  id: 'hardcoded-strings/inline-string-reference',
  description: 'replaces an @string/ reference in a layout, menu or preference XML with literal text',
  appliesTo: (path) => /(^|\/)res\/(layout|menu|xml|navigation)[^/]*\/[^/]+\.xml$/u.test(path),
  mutate(path, content, random): Mutant | null {
    const doc = parseXml(content);
    if (!doc) return null;
    const text = new Set(DEFAULT_ANDROID_ATTRIBUTES.filter((a) => a.startsWith('android:')).map((a) => a.slice('android:'.length)));
    const sites: Array<{ el: Element; name: string; value: string; line: number; column: number }> = [];
    for (const { el, quiet } of elements(doc)) {
      if (quiet) continue;
      for (const attr of Array.from(el.attributes)) {
        if (attr.namespaceURI !== ANDROID_NS || !text.has(attr.localName ?? '')) continue;
        if (!/^@string\/[A-Za-z]/u.test(attr.value)) continue;
        sites.push({ el, name: attr.name, value: attr.value, line: attr.lineNumber ?? 0, column: attr.columnNumber ?? 0 });
      }
    }
    const site = pick(sites, random);
    if (!site) return null;
    const at = offsetOf(content, site.line, site.column);
    const quoteAt = content.slice(at).search(/["']/u);
    if (at < 0 || quoteAt < 0) return null;
    const start = at + quoteAt + 1;
    if (!content.startsWith(site.value, start)) return null;
    const words = site.value.slice('@string/'.length).replace(/[_.]+/gu, ' ').trim();
    const literal = `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
    return {
      content: `${content.slice(0, start)}${literal}${content.slice(start + site.value.length)}`,
      line: lineAt(content, start),
      rule: 'hardcoded-text',
      description: `replaced ${site.name}="${site.value}" with "${literal}" on <${site.el.nodeName}> in ${path}`,
    };
  },
};

type Lang = 'kotlin' | 'java' | 'swift';

interface Token {
  text: string;
  start: number;
}

/**
 * Significant tokens of Kotlin, Java or Swift source: identifiers and single punctuation characters, with comments,
 * string and character literals (including `${…}` / `\(…)` interpolations and `"""` blocks) skipped whole.
 */
export function lex(src: string, lang: Lang): Token[] {
  const out: Token[] = [];
  let i = 0;
  const nestedComments = lang !== 'java';
  const skipBlockComment = () => {
    let depth = 0;
    while (i < src.length) {
      if (src.startsWith('/*', i)) {
        depth++;
        i += 2;
      } else if (src.startsWith('*/', i)) {
        i += 2;
        if (--depth === 0 || !nestedComments) return;
      } else i++;
    }
  };
  // Code inside an interpolation, up to its closing bracket.
  const skipCode = (close: string) => {
    let depth = 0;
    while (i < src.length) {
      const c = src[i]!;
      if (c === '"' || (c === "'" && lang !== 'swift')) skipString();
      else if (src.startsWith('//', i)) i = src.indexOf('\n', i) < 0 ? src.length : src.indexOf('\n', i);
      else if (src.startsWith('/*', i)) skipBlockComment();
      else if (c === '(' || c === '{') {
        depth++;
        i++;
      } else if (c === ')' || c === '}') {
        i++;
        if (depth-- === 0 && c === close) return;
      } else i++;
    }
  };
  const skipString = () => {
    const quote = src[i]!;
    const triple = quote === '"' && src.startsWith('"""', i);
    i += triple ? 3 : 1;
    while (i < src.length) {
      const c = src[i]!;
      if (triple ? src.startsWith('"""', i) : c === quote) {
        i += triple ? 3 : 1;
        while (triple && src[i] === '"') i++;
        return;
      }
      if (!triple && c === '\n' && lang !== 'kotlin') return;
      if (c === '\\') {
        if (lang === 'swift' && src[i + 1] === '(') {
          i += 2;
          skipCode(')');
          continue;
        }
        i += 2;
        continue;
      }
      if (lang === 'kotlin' && c === '$' && src[i + 1] === '{') {
        i += 2;
        skipCode('}');
        continue;
      }
      i++;
    }
  };
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/u.test(c)) i++;
    else if (src.startsWith('//', i)) {
      const nl = src.indexOf('\n', i);
      i = nl < 0 ? src.length : nl;
    } else if (src.startsWith('/*', i)) skipBlockComment();
    else if (c === '"' || (c === "'" && lang !== 'swift')) skipString();
    else if (lang === 'swift' && c === '#' && /^#+"/u.test(src.slice(i, i + 8))) {
      // Raw string #"…"#: ends at a quote followed by as many #.
      const hashes = /^#+/u.exec(src.slice(i))![0];
      const end = src.indexOf(`"${hashes}`, i + hashes.length + 1);
      i = end < 0 ? src.length : end + 1 + hashes.length;
    } else if (/[\p{L}_$]/u.test(c)) {
      const m = /^[\p{L}\p{N}_$]+/u.exec(src.slice(i, i + 200))!;
      out.push({ text: m[0], start: i });
      i += m[0].length;
    } else {
      out.push({ text: c, start: i });
      i++;
    }
  }
  return out;
}

const DECLARATIONS = new Set(['fun', 'func', 'val', 'var', 'let', 'class', 'object', 'interface', 'struct', 'enum', 'protocol', 'extension', 'init']);

/** Offsets just after the `{` that opens a function body (block bodies only), with the function keyword's token. */
function functionBodies(tokens: readonly Token[], keyword: 'fun' | 'func'): Array<{ open: number; fnStart: number }> {
  const out: Array<{ open: number; fnStart: number }> = [];
  for (let t = 0; t < tokens.length; t++) {
    if (tokens[t]!.text !== keyword) continue;
    if (tokens[t + 1]?.text === 'interface') continue;
    let depth = 0;
    for (let u = t + 1; u < tokens.length; u++) {
      const x = tokens[u]!.text;
      if (x === '(' || x === '[' || x === '<') depth++;
      else if (x === ')' || x === ']' || (x === '>' && tokens[u - 1]?.text !== '-')) depth = Math.max(0, depth - 1);
      else if (depth === 0 && (x === '=' || x === '}' || DECLARATIONS.has(x))) break;
      else if (depth === 0 && x === '{') {
        out.push({ open: tokens[u]!.start + 1, fnStart: tokens[t]!.start });
        break;
      }
    }
  }
  return out;
}

/**
 * Offset ranges ([`{`, `}`]) of Kotlin preview code, as kotlin.ts skips it: bodies of functions annotated `@Preview`
 * or a multipreview annotation (a simple name starting with `Preview` or ending in `Preview`/`Previews`), and classes
 * implementing `PreviewParameterProvider`.
 */
function kotlinPreviewRanges(content: string, tokens: readonly Token[]): Array<[number, number]> {
  const closeAfter = (openOffset: number): number => {
    let depth = 0;
    for (const t of tokens) {
      if (t.start < openOffset) continue;
      if (t.text === '{') depth++;
      else if (t.text === '}' && --depth === 0) return t.start;
    }
    return content.length;
  };
  const out: Array<[number, number]> = [];
  for (const b of functionBodies(tokens, 'fun')) {
    const before = content.slice(Math.max(0, b.fnStart - 200), b.fnStart);
    if (/@(?:[\w.]+\.)?(?:Preview\w*|\w*Previews?)\b[^{}]*$/u.test(before)) out.push([b.open - 1, closeAfter(b.open - 1)]);
  }
  for (const m of content.matchAll(/\bclass\b[^{]*?PreviewParameterProvider\b[^{]*\{/gu)) {
    const open = m.index! + m[0].length - 1;
    out.push([open, closeAfter(open)]);
  }
  return out;
}

function indentAt(content: string, offset: number): string {
  const lineStart = content.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/u.exec(content.slice(lineStart))![0];
}

/** Insert `statement` on a new line right after the `{` at `open`, indented one level deeper than `from`. */
function insertStatement(content: string, open: number, from: number, statement: string): { content: string; line: number } {
  const indent = `${indentAt(content, from)}    `;
  return { content: `${content.slice(0, open)}\n${indent}${statement}${content.slice(open)}`, line: lineAt(content, open) + 1 };
}

/** `Text("…")` in a @Composable function body, else `Toast.makeText(context, "…", …)` in any function body. */
export const injectComposeText: MutationOperator = {
  id: 'hardcoded-strings/kotlin-text',
  description: 'adds Text("…") to a @Composable function (or Toast.makeText(…, "…", …) to a function) of a Kotlin file',
  appliesTo: (path) => path.endsWith('.kt'),
  mutate(path, content, random): Mutant | null {
    const tokens = lex(content, 'kotlin');
    // Not in preview code, which the gate skips (kotlin.ts): a mutant there would survive for the right reason.
    const previews = kotlinPreviewRanges(content, tokens);
    const bodies = functionBodies(tokens, 'fun').filter((b) => !previews.some(([from, to]) => b.open > from && b.open <= to));
    const composable = bodies.filter((b) => /@Composable\b[^{}]*$/u.test(content.slice(Math.max(0, b.fnStart - 200), b.fnStart)));
    const site = pick(composable.length > 0 ? composable : bodies, random);
    if (!site) return null;
    const statement = composable.length > 0 ? `Text("${INJECTED_TEXT}")` : `Toast.makeText(context, "${INJECTED_TEXT}", Toast.LENGTH_SHORT).show()`;
    const m = insertStatement(content, site.open, site.fnStart, statement);
    return { ...m, rule: 'hardcoded-text', description: `inserted ${statement} in ${path}` };
  },
};

const JAVA_NOT_METHODS = new Set(['if', 'for', 'while', 'switch', 'catch', 'synchronized', 'try', 'return', 'new']);

/** `textView.setText("…");` at the start of a Java method or constructor body. */
export const injectJavaSetText: MutationOperator = {
  id: 'hardcoded-strings/java-set-text',
  description: 'adds textView.setText("…") to a method of a Java file',
  appliesTo: (path) => path.endsWith('.java'),
  mutate(path, content, random): Mutant | null {
    const tokens = lex(content, 'java');
    const sites: Array<{ open: number; from: number }> = [];
    for (let t = 0; t < tokens.length; t++) {
      if (tokens[t]!.text !== '{') continue;
      let u = t - 1;
      // Skip a `throws A, B.C` clause.
      const throwsAt = (() => {
        for (let k = u; k >= 0 && k > u - 20; k--) {
          if (tokens[k]!.text === ')') return -1;
          if (tokens[k]!.text === 'throws') return k;
        }
        return -1;
      })();
      if (throwsAt >= 0) u = throwsAt - 1;
      if (tokens[u]?.text !== ')') continue;
      let depth = 0;
      let k = u;
      for (; k >= 0; k--) {
        if (tokens[k]!.text === ')') depth++;
        else if (tokens[k]!.text === '(' && --depth === 0) break;
      }
      const name = tokens[k - 1];
      if (!name || !/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(name.text) || JAVA_NOT_METHODS.has(name.text)) continue;
      if (tokens[k - 2]?.text === 'new' || tokens[k - 2]?.text === '.' || tokens[k - 2]?.text === '@') continue;
      sites.push({ open: tokens[t]!.start + 1, from: name.start });
    }
    const site = pick(sites, random);
    if (!site) return null;
    const statement = `textView.setText("${INJECTED_TEXT}");`;
    const m = insertStatement(content, site.open, site.from, statement);
    return { ...m, rule: 'hardcoded-text', description: `inserted ${statement} in ${path}` };
  },
};

/** `Text(verbatim: "…")` in a SwiftUI `body`, else `label.text = "…"` in a function body. */
export const injectSwiftText: MutationOperator = {
  id: 'hardcoded-strings/swift-text',
  description: 'adds Text(verbatim: "…") to a SwiftUI body (or label.text = "…" to a function) of a Swift file',
  appliesTo: (path) => path.endsWith('.swift'),
  mutate(path, content, random): Mutant | null {
    const tokens = lex(content, 'swift');
    const bodies: Array<{ open: number; from: number }> = [];
    for (let t = 0; t + 5 < tokens.length; t++) {
      const w = tokens.slice(t, t + 6).map((x) => x.text);
      if (w[0] === 'var' && w[1] === 'body' && w[2] === ':' && w[3] === 'some' && w[4] === 'View' && w[5] === '{') bodies.push({ open: tokens[t + 5]!.start + 1, from: tokens[t]!.start });
    }
    const funcs = functionBodies(tokens, 'func').map((b) => ({ open: b.open, from: b.fnStart }));
    const site = pick(bodies.length > 0 ? bodies : funcs, random);
    if (!site) return null;
    const statement = bodies.length > 0 ? `Text(verbatim: "${INJECTED_TEXT}")` : `label.text = "${INJECTED_TEXT}"`;
    const m = insertStatement(content, site.open, site.from, statement);
    return { ...m, rule: 'hardcoded-text', description: `inserted ${statement} in ${path}` };
  },
};

/**
 * `accessibilityLabel="…"` (React Native) or `aria-label="…"` (DOM elements) added to a JSX opening tag. A tag is
 * `<Name` preceded by `(`, `>`, `{`, `}`, `?`, `:`, `=`, `,`, `&`, `|`, `[` or `return` (so generics such as
 * `useState<T>` are not taken) and followed by whitespace, `>` or `/`.
 */
export const injectJsxLabel: MutationOperator = {
  id: 'hardcoded-strings/jsx-accessibility-label',
  description: 'adds a hard-coded accessibilityLabel / aria-label to a JSX element',
  appliesTo: (path) => /\.(tsx|jsx|js)$/u.test(path),
  mutate(path, content, random): Mutant | null {
    const sites: Array<{ at: number; name: string }> = [];
    const re = /<([A-Za-z][\w.]*)(?=[\s>/])/gu;
    for (let m = re.exec(content); m; m = re.exec(content)) {
      const before = content.slice(Math.max(0, m.index - 40), m.index).trimEnd();
      if (!/(?:[(>{}?:=,&|[]|\breturn)$/u.test(before)) continue;
      const after = content.slice(m.index + m[0].length, m.index + m[0].length + 12);
      if (/^\s+extends\b/u.test(after)) continue;
      const lineStart = content.lastIndexOf('\n', m.index - 1) + 1;
      const linePrefix = content.slice(lineStart, m.index).trim();
      if (linePrefix.startsWith('//') || linePrefix.startsWith('*') || linePrefix.startsWith('/*')) continue;
      sites.push({ at: m.index + m[0].length, name: m[1]! });
    }
    const site = pick(sites, random);
    if (!site) return null;
    const attr = /^[a-z]/u.test(site.name) ? 'aria-label' : 'accessibilityLabel';
    return {
      content: `${content.slice(0, site.at)} ${attr}="${INJECTED_TEXT}"${content.slice(site.at)}`,
      line: lineAt(content, site.at),
      rule: 'hardcoded-text',
      description: `added ${attr}="${INJECTED_TEXT}" to <${site.name}> in ${path}`,
    };
  },
};

/** Whether `at` is on a line that starts, after indentation, a `//` or block comment (no mutant goes there). */
function inCommentLine(content: string, at: number): boolean {
  const lineStart = content.lastIndexOf('\n', at - 1) + 1;
  const prefix = content.slice(lineStart, at).trim();
  return prefix.startsWith('//') || prefix.startsWith('*') || prefix.startsWith('/*');
}

/**
 * Whether `at` sits inside an element whose text children the gate does not read as copy (jsx.ts excludedText:
 * `<code>`, `<pre>`, `<Trans>`…): more such opening tags than closing ones before it. A cheap over-approximation
 * (a mutant there would survive for the right reason).
 */
function insideNonCopy(content: string, at: number): boolean {
  const before = content.slice(0, at);
  return [...DOM_NON_COPY_ELEMENTS, ...TRANSLATION_COMPONENTS].some((name) => (before.match(new RegExp(`<${name}(?=[\\s>/])`, 'gu'))?.length ?? 0) > (before.match(new RegExp(`</${name}\\s*>`, 'gu'))?.length ?? 0));
}

/** What the gate knows of the web catalogs (catalog-lookup.ts): whether any base catalog holds keys to check against. */
export interface WebCatalogFacts {
  webCatalogs: number;
}

// An i18next translate call with one literal key and nothing else (`t('a.b')`, `i18n.t("a.b")`): no default text, so
// a key no catalog holds is an error (users see the key), not a warning. Not a member of anything but a plain chain.
const T_CALL = /(?<![\w$.])((?:[A-Za-z_$][\w$]*\.)*t)\(\s*(['"])([^'"\\\n]+)\2\s*\)/gu;

/**
 * A literal i18next key mistyped (`t('checkout.cta')` -> `t('checkout.cta_typo')`): no base catalog holds it, so the
 * gate must report `missing-catalog-key` at the call (fresh-user-3 F14). Only where the gate checks keys: the
 * repository has a web base catalog (facts); else keys are counted, not judged, and there is no place.
 */
export const mistypeCatalogKey: MutationOperator<WebCatalogFacts> = {
  id: 'hardcoded-strings/mistype-catalog-key',
  description: "mistypes the literal key of a t('…') call in a JS/TS file, so no catalog holds it",
  // Plain .ts/.mts/.cts too (the gate reads their t() keys), not a declaration file.
  appliesTo: (path) => /\.(tsx|jsx|js|ts|mts|cts)$/u.test(path) && !/\.d\.[mc]?ts$/iu.test(path),
  facts: async (ctx: GateContext<any>) => ({ webCatalogs: (await (await import('./catalog-lookup.js')).loadLookup(ctx.ws)).webCatalogs.length }),
  mutate(path, content, random, facts): Mutant | null {
    if (!facts || facts.webCatalogs === 0) return null;
    const sites = [...content.matchAll(T_CALL)].filter((m) => !inCommentLine(content, m.index));
    const m = pick(sites, random);
    if (!m) return null;
    const keyAt = m.index + m[0].indexOf(m[2]!) + 1;
    const key = m[3]!;
    const typo = `${key}_typo`;
    return {
      content: `${content.slice(0, keyAt)}${typo}${content.slice(keyAt + key.length)}`,
      line: lineAt(content, keyAt),
      rule: 'missing-catalog-key',
      description: `mistyped ${m[1]}('${key}') as ${m[1]}('${typo}') in ${path}`,
    };
  },
};

// A JSX child expression that is only a translate call, between tags (lines apart too): `>{t('save')}<`,
// `>\n  {i18n.t("a", { n })}\n</`. Not after an arrow's `=>`.
const T_CHILD = /(?<=(?<!=)>\s*)\{\s*(?:[A-Za-z_$][\w$]*\.)*t\((?:[^(){}]|\{[^{}]*\}|\([^()]*\))*\)\s*\}(?=\s*<)/gu;

/**
 * A `t()` call's text moved into a literal JSX child (`<Button>{t('save')}</Button>` -> `<Button>Hello from
 * loopgates</Button>`): the text child of an element or component is UI text, `hardcoded-text` (fresh-user-3 F14).
 * Not inside `<code>`, `<pre>`, `<Trans>` and the other elements whose children the gate does not read as copy.
 */
export const inlineJsxChildText: MutationOperator = {
  id: 'hardcoded-strings/jsx-child-text',
  description: "replaces a {t('…')} child of a JSX element with literal text",
  appliesTo: (path) => /\.(tsx|jsx|js)$/u.test(path),
  mutate(path, content, random): Mutant | null {
    const sites = [...content.matchAll(T_CHILD)].filter((m) => !inCommentLine(content, m.index) && !insideNonCopy(content, m.index));
    const m = pick(sites, random);
    if (!m) return null;
    return {
      content: `${content.slice(0, m.index)}${INJECTED_TEXT}${content.slice(m.index + m[0].length)}`,
      line: lineAt(content, m.index),
      rule: 'hardcoded-text',
      description: `replaced ${m[0].replace(/\s+/gu, ' ')} with the literal child "${INJECTED_TEXT}" in ${path}`,
    };
  },
};

/** Every operator of the gate. */
export const hardcodedStringsMutations: readonly MutationOperator[] = [
  injectContentDescription,
  inlineStringReference,
  injectComposeText,
  injectJavaSetText,
  injectSwiftText,
  injectJsxLabel,
  mistypeCatalogKey,
  inlineJsxChildText,
];
