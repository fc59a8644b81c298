// Kotlin / Jetpack Compose extractor, on fwcd/tree-sitter-kotlin (the grammar shipped in tree-sitter-wasms).
// Text-bearing positions follow Android's APIs: Compose `Text`, `Modifier.semantics { contentDescription = … }`,
// `Toast.makeText`, `TextView.setText`, AlertDialog.Builder setters, Material 3 composables' named parameters.
import { DEFAULT_KOTLIN_NAMES } from './defaults.js';
import { hasLetter, sortCandidates, type Candidate, type Extraction } from './model.js';
import { collectDirectives, decodeCEscapes, decodeLiteral, pos, syntaxErrors, walk, withTree, type LiteralSpec, type SyntaxNode } from './tree-sitter.js';

export { DEFAULT_KOTLIN_NAMES } from './defaults.js';

/** Calls whose positional argument at the given index (or named argument `text`/`message`) is user text. */
export const KOTLIN_CALLS: Readonly<Record<string, number>> = {
  Text: 0,
  makeText: 1, // Toast.makeText(context, text, duration)
  make: 1, // Snackbar.make(view, text, duration)
  setText: 0,
  setTitle: 0,
  setSubtitle: 0,
  setContentDescription: 0,
  setHint: 0,
  setMessage: 0,
  setError: 0,
  setTooltipText: 0,
  setPositiveButton: 0,
  setNegativeButton: 0,
  setNeutralButton: 0,
  showSnackbar: 0,
};


/**
 * Compose animation APIs take a `label` that names the animation in Android Studio's inspector, never shown to
 * users (androidx.compose.animation.core: animate*AsState, updateTransition, rememberInfiniteTransition...).
 */
const TOOLING_LABEL = /^(animate[A-Z]\w*|updateTransition|rememberTransition|rememberInfiniteTransition|createChildTransition|Crossfade|AnimatedContent|AnimatedVisibility)$/u;

const LITERAL: LiteralSpec = {
  text: new Set(['string_content']),
  escape: new Set(['escape_sequence', 'character_escape_seq']),
  interpolation: new Set(['interpolated_expression', 'interpolated_identifier']),
  decodeEscapes: decodeCEscapes,
};

// Expressions whose value is one of their string-literal operands: concatenation, parentheses, branches.
const PASS_THROUGH = new Set([
  'additive_expression',
  'parenthesized_expression',
  'if_expression',
  'control_structure_body',
  'elvis_expression',
  'when_expression',
  'when_entry',
  'statements',
]);

/** String literals an expression can evaluate to without a call: `"a"`, `"a" + b`, `if (c) "a" else "b"`. */
function literalsIn(expr: SyntaxNode, out: SyntaxNode[] = []): SyntaxNode[] {
  if (expr.type === 'string_literal' || expr.type === 'line_string_literal' || expr.type === 'multi_line_string_literal') out.push(expr);
  else if (PASS_THROUGH.has(expr.type)) for (const c of expr.namedChildren) literalsIn(c, out);
  return out;
}

/** Last identifier of a callee or assignment target: `Text`, `Toast.makeText` -> makeText, `binding.title.text` -> text. */
function lastName(node: SyntaxNode | null): string | undefined {
  if (!node) return undefined;
  if (node.type === 'simple_identifier') return node.text;
  if (node.type === 'navigation_expression' || node.type === 'directly_assignable_expression') {
    const last = node.lastNamedChild;
    if (!last) return undefined;
    if (last.type === 'navigation_suffix') return last.lastNamedChild?.type === 'simple_identifier' ? last.lastNamedChild.text : undefined;
    return lastName(last);
  }
  return undefined;
}

/** Extract Kotlin candidates and directives from one file's source. */
export async function extractKotlin(source: string, names: readonly string[] = DEFAULT_KOTLIN_NAMES): Promise<Extraction> {
  const named = new Set(names);
  return withTree('kotlin', source, (root) => {
    const candidates: Candidate[] = [];
    const seen = new Set<number>();
    const add = (lit: SyntaxNode, context: string) => {
      if (seen.has(lit.startIndex)) return;
      const d = decodeLiteral(lit, LITERAL);
      if (!hasLetter(d.plain)) return;
      seen.add(lit.startIndex);
      candidates.push({ ...pos(lit), literal: d.display, context });
    };
    walk(root, (n) => {
      if (n.type === 'call_expression') {
        const callee = lastName(n.firstNamedChild);
        const args = n.namedChildren.find((c) => c.type === 'call_suffix')?.namedChildren.find((c) => c.type === 'value_arguments');
        if (!callee || !args) return;
        const index = KOTLIN_CALLS[callee];
        let position = 0;
        for (const arg of args.namedChildren) {
          if (arg.type !== 'value_argument') continue;
          const isNamed = arg.children.some((c) => !c.isNamed && c.type === '=');
          const value = arg.lastNamedChild;
          if (!value) continue;
          if (isNamed) {
            const label = arg.firstNamedChild?.text ?? '';
            if (label === 'label' && TOOLING_LABEL.test(callee)) continue;
            if (named.has(label) || (index !== undefined && label === 'text')) for (const l of literalsIn(value)) add(l, `${callee}(${label} = …)`);
          } else {
            if (index === position) for (const l of literalsIn(value)) add(l, `${callee}()`);
            position++;
          }
        }
      } else if (n.type === 'assignment') {
        const target = n.namedChildren.find((c) => c.type === 'directly_assignable_expression');
        const name = lastName(target ?? null);
        const value = n.lastNamedChild;
        if (name && named.has(name) && value && value !== target) for (const l of literalsIn(value)) add(l, `${name} = …`);
      }
    });
    const directives = collectDirectives(root, source, {
      comments: new Set(['line_comment', 'multiline_comment', 'comment']),
      containers: new Set(['statements']),
    });
    return { candidates: sortCandidates(candidates), directives, syntaxErrors: syntaxErrors(root) };
  });
}
