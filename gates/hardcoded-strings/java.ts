// Java (Android View system) extractor, on tree-sitter-java. Text-bearing calls follow the Android SDK:
// TextView.setText / setHint / setError, View.setContentDescription / setTooltipText, Toolbar and Activity setTitle,
// AlertDialog.Builder and Notification.Builder setters, Toast.makeText and Snackbar.make (text is the second argument).
import { GATE_ID } from './defaults.js';
import { addImport, codeReference, type RScope } from './android-references.js';
import { hasLetter, sortCandidates, type AndroidReference, type Candidate, type Extraction } from './model.js';
import { FORMAT_CLASSES, KOTLIN_CALLS, formatArgumentIndex, menuTitleIndex, textArgumentIndex, viewIdFirst } from './kotlin.js';
import { collectDirectives, decodeCEscapes, decodeLiteral, pos, syntaxErrors, walk, withTree, type LiteralSpec, type SyntaxNode } from '../../core/tree-sitter.js';

/** Method name -> index of the argument that is user text. Same Android APIs as Kotlin's call table. */
export const JAVA_CALLS: Readonly<Record<string, number>> = Object.fromEntries(Object.entries(KOTLIN_CALLS).filter(([k]) => !['Text', 'BasicText', 'ClickableText'].includes(k)));

const LITERAL: LiteralSpec = {
  text: new Set(['string_fragment', 'multiline_string_fragment']),
  escape: new Set(['escape_sequence']),
  interpolation: new Set(),
  decodeEscapes: decodeCEscapes,
};

const PASS_THROUGH = new Set(['binary_expression', 'parenthesized_expression', 'ternary_expression']);

/**
 * The expression a format call shows as text: the format string of `String.format(fmt, …)`,
 * `String.format(Locale.US, fmt, …)`, `MessageFormat.format(fmt, …)`, or the receiver of `"…".formatted(…)` (Java 15).
 */
function formatString(call: SyntaxNode): SyntaxNode | undefined {
  const name = call.childForFieldName('name')?.text;
  const object = call.childForFieldName('object');
  if (!object) return undefined;
  if (name === 'formatted') return object;
  if (name !== 'format' || !FORMAT_CLASSES.has(object.text.replace(/\s+/gu, ''))) return undefined;
  const args = call.childForFieldName('arguments')?.namedChildren.filter((c) => c.type !== 'line_comment' && c.type !== 'block_comment') ?? [];
  return args[formatArgumentIndex(args, (a) => literalsIn(a).length > 0)];
}

/** String literals an expression can evaluate to: `"a"`, `"a" + b`, `c ? "a" : "b"`, a format call's format string. */
function literalsIn(expr: SyntaxNode, out: SyntaxNode[] = []): SyntaxNode[] {
  if (expr.type === 'string_literal') out.push(expr);
  else if (PASS_THROUGH.has(expr.type)) for (const c of expr.namedChildren) literalsIn(c, out);
  else if (expr.type === 'method_invocation') {
    const f = formatString(expr);
    if (f) literalsIn(f, out);
  }
  return out;
}

/** Extract Java candidates and directives from one file's source. */
export async function extractJava(source: string): Promise<Extraction> {
  return withTree('java', source, (root) => {
    const candidates: Candidate[] = [];
    const scope: RScope = { package: '', imports: new Map(), wildcard: false };
    const references: AndroidReference[] = [];
    walk(root, (n) => {
      if (n.type === 'package_declaration') {
        scope.package = n.namedChildren.find((c) => c.type === 'scoped_identifier' || c.type === 'identifier')?.text.replace(/\s+/gu, '') ?? '';
        return;
      }
      if (n.type === 'import_declaration') {
        // `import static a.b.R.string.*` brings names, not an R class: not read.
        if (n.children.some((c) => c.type === 'static')) return;
        const path = n.namedChildren.find((c) => c.type === 'scoped_identifier' || c.type === 'identifier')?.text.replace(/\s+/gu, '') ?? '';
        addImport(scope, path, undefined, n.namedChildren.some((c) => c.type === 'asterisk'));
        return;
      }
      if (n.type === 'field_access' && n.parent?.type !== 'field_access') {
        for (let e: SyntaxNode | null = n; e?.type === 'field_access'; e = e.childForFieldName('object')) {
          const r = codeReference(e.text, scope);
          if (r) {
            references.push({ ...pos(e), ...r, context: e.text.replace(/\s+/gu, '') });
            break;
          }
        }
        return;
      }
      if (n.type !== 'method_invocation') return;
      const name = n.childForFieldName('name')?.text;
      const args = n.childForFieldName('arguments')?.namedChildren.filter((c) => c.type !== 'line_comment' && c.type !== 'block_comment') ?? [];
      let index = name === undefined ? undefined : menuTitleIndex(name, n.childForFieldName('object')?.text, args.length) ?? textArgumentIndex(JAVA_CALLS, name);
      if (index === undefined) return;
      // A Kotlin extension called from Java through its file class (`ContextKt.toast(this, "…")`, Kotlin's
      // JvmName default `<File>Kt`) takes the receiver first: the text is one argument later.
      const facade = /(?:^|\.)([A-Z]\w*Kt)$/u.exec(n.childForFieldName('object')?.text.replace(/\s+/gu, '') ?? '')?.[1];
      const viaFacade = facade !== undefined && !Object.hasOwn(JAVA_CALLS, name!);
      if (viaFacade) index++;
      if (args[index] && literalsIn(args[index]!).length === 0 && viewIdFirst(args[index]!.text)) index++;
      const arg = args[index];
      if (!arg) return;
      for (const lit of literalsIn(arg)) {
        const d = decodeLiteral(lit, LITERAL);
        if (hasLetter(d.plain)) candidates.push({ ...pos(lit), literal: d.display, context: viaFacade ? `${facade}.${name}()` : `${name}()` });
      }
    });
    const directives = collectDirectives(root, source, {
      gate: GATE_ID,
      comments: new Set(['line_comment', 'block_comment']),
      containers: new Set(),
    });
    return { candidates: sortCandidates(candidates), androidReferences: references, directives, syntaxErrors: syntaxErrors(root, 20, '"') };
  });
}
