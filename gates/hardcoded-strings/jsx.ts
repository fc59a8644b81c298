// React Native / React JSX extractor, on tree-sitter-typescript's tsx grammar (.tsx) and tree-sitter-javascript
// (.js, .jsx, .mjs, .cjs). User text: the children of text components (React Native `<Text>`), the children of
// intrinsic DOM elements (web React: `<p>`, `<button>`, `<my-widget>`; a lowercase plain name, as the JSX spec and
// React tell intrinsic elements from components) outside the elements whose text is not UI copy (`<code>`, `<pre>`,
// `<script>`…) and outside `<Trans>`, and the literal values of accessibility and text props (React Native
// accessibility docs; WAI-ARIA `aria-label`; HTML `alt`, `title`, `placeholder`). `testID`, `style`, `key` and
// `className` are never text.
import { DEFAULT_JSX_ATTRIBUTES, DEFAULT_TEXT_COMPONENTS, DOM_NON_COPY_ELEMENTS, GATE_ID, TRANSLATION_COMPONENTS } from './defaults.js';
import { hasLetter, sortCandidates, type Candidate, type Extraction } from './model.js';
import { collectDirectives, decodeCEscapes, decodeLiteral, pos, syntaxErrors, walk, withTree, type GrammarName, type LiteralSpec, type SyntaxNode } from '../../core/tree-sitter.js';

export { DEFAULT_JSX_ATTRIBUTES, DEFAULT_TEXT_COMPONENTS } from './defaults.js';

const LITERAL: LiteralSpec = {
  text: new Set(['string_fragment']),
  escape: new Set(['escape_sequence']),
  interpolation: new Set(['template_substitution']),
  decodeEscapes: decodeCEscapes,
};

const PASS_THROUGH = new Set(['binary_expression', 'parenthesized_expression', 'ternary_expression', 'jsx_expression']);

function literalsIn(expr: SyntaxNode, out: SyntaxNode[] = []): SyntaxNode[] {
  if (expr.type === 'string' || expr.type === 'template_string') out.push(expr);
  else if (PASS_THROUGH.has(expr.type)) for (const c of expr.namedChildren) literalsIn(c, out);
  return out;
}

// The HTML named references JSX accepts are the full HTML set; these are the ones text uses. An unknown name decodes
// to nothing, so `&nbsp;` never counts as the letters "nbsp".
const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  middot: '·',
  bull: '•',
  laquo: '«',
  raquo: '»',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
};

/** Decode HTML character references in JSX text (`&amp;`, `&#233;`, `&#xE9;`). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/gu, (_m, ref: string) => {
    if (ref.startsWith('#x')) return String.fromCodePoint(Math.min(parseInt(ref.slice(2), 16), 0x10ffff));
    if (ref.startsWith('#')) return String.fromCodePoint(Math.min(parseInt(ref.slice(1), 10), 0x10ffff));
    return ENTITIES[ref] ?? '';
  });
}

function elementName(el: SyntaxNode): string | undefined {
  const open = el.type === 'jsx_element' ? el.childForFieldName('open_tag') ?? el.firstNamedChild : el;
  const name = open?.childForFieldName('name');
  if (!name) return undefined;
  // `<RN.Text>` and `<Animated.Text>`: the last segment names the component.
  const text = name.text;
  return text.slice(text.lastIndexOf('.') + 1);
}

const NON_COPY = new Set(DOM_NON_COPY_ELEMENTS);
const TRANSLATION = new Set(TRANSLATION_COMPONENTS);

/** The tag of an intrinsic element (`div`, `my-widget`): a plain name starting with a lowercase ASCII letter. */
function intrinsicName(el: SyntaxNode): string | undefined {
  const name = el.childForFieldName('open_tag')?.childForFieldName('name');
  return name?.type === 'identifier' && /^[a-z]/u.test(name.text) ? name.text : undefined;
}

/**
 * Whether DOM text of `el` (an intrinsic element named `tag`) is not UI copy: it or an ancestor element is non-copy,
 * or it sits inside `<Trans>`, as a child or in a prop (`<Trans components={[<a>link</a>]} />`).
 */
function excludedDomText(el: SyntaxNode, tag: string): boolean {
  if (NON_COPY.has(tag)) return true;
  for (let p = el.parent; p; p = p.parent) {
    if (p.type === 'jsx_self_closing_element' && TRANSLATION.has(elementName(p) ?? '')) return true;
    if (p.type !== 'jsx_element') continue;
    const intrinsic = intrinsicName(p);
    if (intrinsic !== undefined ? NON_COPY.has(intrinsic) : TRANSLATION.has(elementName(p) ?? '')) return true;
  }
  return false;
}

/**
 * Extract JSX candidates and directives from one file's source. `grammar`: `tsx` for .tsx, else `javascript`.
 * `attributes`: prop names whose literal values are text; `textComponents`: components (last name segment) whose
 * children are text. Children of intrinsic DOM elements are read too, as described at the top of this file.
 * Candidates carry 1-based lines and UTF-16 columns of the opening quote or the first character of JSX text.
 */
export async function extractJsx(
  source: string,
  grammar: Extract<GrammarName, 'tsx' | 'javascript'>,
  attributes: readonly string[] = DEFAULT_JSX_ATTRIBUTES,
  textComponents: readonly string[] = DEFAULT_TEXT_COMPONENTS,
): Promise<Extraction> {
  const attrs = new Set(attributes);
  const texts = new Set(textComponents);
  return withTree(grammar, source, (root) => {
    const candidates: Candidate[] = [];
    const literal = (lit: SyntaxNode, context: string) => {
      const d = decodeLiteral(lit, LITERAL);
      if (hasLetter(d.plain)) candidates.push({ ...pos(lit), literal: d.display, context });
    };
    walk(root, (n) => {
      if (n.type === 'jsx_attribute') {
        const nameNode = n.firstNamedChild;
        const value = n.namedChildren[1];
        if (!nameNode || !value || !attrs.has(nameNode.text)) return;
        for (const l of literalsIn(value)) literal(l, nameNode.text);
      } else if (n.type === 'jsx_element') {
        let name = elementName(n);
        if (!name) return;
        if (!texts.has(name)) {
          const tag = intrinsicName(n);
          if (tag === undefined || excludedDomText(n, tag)) return;
          name = tag;
        }
        // Runs of adjacent text and character references form one string, as React renders them.
        let run: SyntaxNode[] = [];
        const flush = () => {
          const first = run[0];
          const last = run[run.length - 1];
          run = [];
          if (!first || !last) return;
          const raw = source.slice(first.startIndex, last.endIndex);
          const decoded = decodeEntities(raw).replace(/\s+/gu, ' ').trim();
          if (!hasLetter(decoded)) return;
          const lead = raw.length - raw.trimStart().length;
          const leading = raw.slice(0, lead);
          const breaks = leading.split('\n').length - 1;
          const line = first.startPosition.row + 1 + breaks;
          const column = breaks === 0 ? first.startPosition.column + lead + 1 : lead - leading.lastIndexOf('\n');
          candidates.push({ line, column, literal: decoded, context: `<${name}> child` });
        };
        for (const c of n.namedChildren) {
          if (c.type === 'jsx_text' || c.type === 'html_character_reference') {
            run.push(c);
            continue;
          }
          flush();
          if (c.type === 'jsx_expression') for (const l of literalsIn(c)) literal(l, `<${name}> child`);
        }
        flush();
      }
    });
    const directives = collectDirectives(root, source, {
      gate: GATE_ID,
      comments: new Set(['comment']),
      wrappers: new Set(['jsx_expression']),
      skip: (s) => s.type === 'jsx_text' && s.text.trim() === '',
    });
    return { candidates: sortCandidates(candidates), directives, syntaxErrors: syntaxErrors(root) };
  });
}
