// Kotlin / Jetpack Compose extractor, on fwcd/tree-sitter-kotlin (the grammar shipped in tree-sitter-wasms).
// Text-bearing positions follow Android's APIs: Compose `Text`, `Modifier.semantics { contentDescription = … }`,
// `Toast.makeText`, `TextView.setText`, AlertDialog.Builder and Notification.Builder setters, Material 3 composables'
// named parameters. Compose preview code (`@Preview` functions, PreviewParameterProviders) never ships and is not read.
import { DEFAULT_KOTLIN_NAMES, GATE_ID } from './defaults.js';
import { addImport, codeReference, type RScope } from './android-references.js';
import { hasLetter, sortCandidates, type AndroidReference, type Candidate, type Extraction } from './model.js';
import { collectDirectives, decodeCEscapes, decodeLiteral, pos, syntaxErrors, walk, withTree, type LiteralSpec, type SyntaxNode } from '../../core/tree-sitter.js';

export { DEFAULT_KOTLIN_NAMES } from './defaults.js';

/** Calls whose positional argument at the given index (or named argument `text`) is user text. */
export const KOTLIN_CALLS: Readonly<Record<string, number>> = {
  Text: 0,
  // androidx.compose.foundation.text: Material's Text draws through BasicText; ClickableText (deprecated, still
  // shipped) shows its AnnotatedString.
  BasicText: 0,
  ClickableText: 0,
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
  // Notification.Builder / NotificationCompat.Builder and their styles: shown in the shade and on the lock screen.
  setContentTitle: 0,
  setContentText: 0,
  setSubText: 0,
  setTicker: 0,
  setBigContentTitle: 0,
  setSummaryText: 0,
  bigText: 0,
  // NotificationCompat.Builder.addAction(icon, title, intent); IntentFilter.addAction(action) has no second argument.
  addAction: 1,
  // RemoteViews (app widgets, custom notifications): setTextViewText(viewId, text). Its setContentDescription(viewId,
  // text) and commons' RemoteViews.setText(id, text) have the id first: see viewIdFirst.
  setTextViewText: 1,
  setQueryHint: 0, // SearchView
  setSummary: 0, // Preference
  setSummaryOn: 0, // TwoStatePreference
  setSummaryOff: 0,
  setDialogTitle: 0, // DialogPreference
  setDialogMessage: 0,
  setHelperText: 0, // TextInputLayout
  setPlaceholderText: 0,
  setTextOn: 0, // Switch, ToggleButton
  setTextOff: 0,
  setNegativeButtonText: 0, // BiometricPrompt.PromptInfo.Builder
};

/**
 * Setters of KOTLIN_CALLS that Kotlin also exposes as properties (a Java getter/setter pair): `tv.error = "…"` is
 * `tv.setError("…")`, so the assignment is read as the call is, whatever `attributes.kotlin` holds. Assignments only:
 * as named arguments these names belong to any data class (`state.copy(error = "network")`). The others (`text`,
 * `title`, `hint`, `message`...) are in DEFAULT_KOTLIN_NAMES.
 */
const SETTER_PROPERTIES: ReadonlySet<string> = new Set([
  'error', // TextView / EditText / TextInputLayout setError: the message under the field
  'helperText', // TextInputLayout
  'placeholderText',
  'summary', // Preference
  'summaryOn', // TwoStatePreference
  'summaryOff',
  'dialogTitle', // DialogPreference
  'dialogMessage',
  'textOn', // Switch, ToggleButton
  'textOff',
]);

/**
 * A view id at the text position: RemoteViews' setters take the view's id first (`setContentDescription(viewId, text)`,
 * Fossify commons' `RemoteViews.setText(R.id.title, text)`), so the text is the next argument. An id is `R.id.x`
 * (`android.R.id.x`) or a name ending in `Id` / `ID` (`viewId`, `widgetTextId`).
 */
export function viewIdFirst(argText: string): boolean {
  return /(?:^|\.)(?:R\s*\.\s*id\s*\.\s*\w+|\w*(?:Id|ID)|id)$/u.test(argText.trim());
}

/**
 * android.view.Menu's add / addSubMenu: `add(title)` and `add(groupId, itemId, order, title)` show `title` as the
 * item's label. Read only on a receiver named like a menu (`menu`, `popup.menu`, `subMenu`, `getMenu()`): `add` is
 * every collection's method. Index of the title by argument count, or undefined.
 */
export function menuTitleIndex(callee: string, receiver: string | undefined, count: number): number | undefined {
  if ((callee !== 'add' && callee !== 'addSubMenu') || !receiver || !/(?:^|\.)\w*menu(?:\(\))?$/iu.test(receiver.replace(/\s+/gu, ''))) return undefined;
  return count === 1 ? 0 : count === 4 ? 3 : undefined;
}

/**
 * Positional toast/snackbar helpers, as the JSX side reads `toast("…")` / `enqueueSnackbar("…")`: Fossify and
 * Simple-Mobile-Tools commons show user text with `toast(String)`, `showErrorToast(String)`; apps write
 * `showUndoSnackbar("…")`. Their first positional argument is UI text.
 */
const TOAST_HELPER = /^(toast|show\w*Toast|show\w*Snackbar|enqueueSnackbar)$/u;

/** Index of the positional argument of a call to `callee` that is UI text in `table`, or toast helpers' first. */
export function textArgumentIndex(table: Readonly<Record<string, number>>, callee: string): number | undefined {
  return Object.hasOwn(table, callee) ? table[callee] : TOAST_HELPER.test(callee) ? 0 : undefined;
}

/**
 * Compose animation APIs take a `label` that names the animation in Android Studio's inspector, never shown to
 * users (androidx.compose.animation.core: animate*AsState, updateTransition, rememberInfiniteTransition...).
 */
const TOOLING_LABEL = /^(animate[A-Z]\w*|updateTransition|rememberTransition|rememberInfiniteTransition|createChildTransition|Crossfade|AnimatedContent|AnimatedVisibility)$/u;

/**
 * Annotations that mark a Compose preview: `@Preview` itself and multipreview annotations, which by convention are
 * named `Preview…` (androidx's `@PreviewLightDark`, `@PreviewScreenSizes`, `@PreviewFontScale`) or `…Preview(s)`
 * (`@DevicePreviews`, `@ThemePreview`). Matched on the simple name; a qualified `@androidx….Preview` counts.
 * Source: developer.android.com/develop/ui/compose/tooling/previews ("Multipreview annotations").
 */
const PREVIEW_ANNOTATION = /^Preview|Previews?$/u;

/** `PreviewParameterProvider` and androidx's `CollectionPreviewParameterProvider`: sample data for previews. */
const PREVIEW_PROVIDER = /PreviewParameterProvider$/u;

/** Simple name of a `user_type` (`Preview`, `androidx.compose.ui.tooling.preview.Preview` -> Preview). */
function typeName(userType: SyntaxNode | null | undefined): string | undefined {
  return userType?.type === 'user_type' ? userType.namedChildren.filter((c) => c.type === 'type_identifier').at(-1)?.text : undefined;
}

/** Whether a function declaration carries a preview annotation (`@Preview`, `@Preview(…)`, a multipreview). */
function isPreviewFunction(fn: SyntaxNode): boolean {
  const modifiers = fn.namedChildren.find((c) => c.type === 'modifiers');
  return (modifiers?.namedChildren ?? []).some((a) => {
    if (a.type !== 'annotation') return false;
    const t = a.namedChildren.find((c) => c.type === 'user_type' || c.type === 'constructor_invocation');
    const name = typeName(t?.type === 'constructor_invocation' ? t.namedChildren.find((c) => c.type === 'user_type') : t);
    return name !== undefined && PREVIEW_ANNOTATION.test(name);
  });
}

/** Whether a class declaration implements `PreviewParameterProvider<T>` (its values feed previews only). */
function isPreviewProvider(cls: SyntaxNode): boolean {
  return cls.namedChildren.some((c) => {
    if (c.type !== 'delegation_specifier') return false;
    const t = c.namedChildren.find((d) => d.type === 'user_type' || d.type === 'constructor_invocation');
    const name = typeName(t?.type === 'constructor_invocation' ? t.namedChildren.find((d) => d.type === 'user_type') : t);
    return name !== undefined && PREVIEW_PROVIDER.test(name);
  });
}

/** Whether `node` sits inside preview-only code: a preview function or a `PreviewParameterProvider` class. */
function inPreview(node: SyntaxNode): boolean {
  for (let p = node.parent; p; p = p.parent) {
    if (p.type === 'function_declaration' && isPreviewFunction(p)) return true;
    if (p.type === 'class_declaration' && isPreviewProvider(p)) return true;
  }
  return false;
}

/**
 * `message` and `label` are UI text in Compose components (`Snackbar(message = …)`, `NavigationBarItem(label = …)`)
 * and UI helpers (`showSnackbar(message = …)`), but loggers, exceptions and analytics take the same names
 * (`Napier.i(message = …)`, `IllegalStateException(message = …)`, `analytics.log(label = …)`). They are read only
 * where the callee is a component or class by Compose naming (its simple name starts with an uppercase letter) and
 * is no exception type, or a lowercase UI helper by its name (below). Other names of `attributes.kotlin` are read in
 * every call.
 */
const CALL_SCOPED_NAMES = new Set(['message', 'label']);

/** Lowercase callees that show their `message` / `label`: `showSnackbar`, `showToast`, `showDialog`, `toast`, `alert`... */
const UI_HELPER = /^show|toast|snackbar|dialog|alert|tooltip|notif/iu;

/** Exception constructors by name (`IllegalStateException`, `ApiException`, `Throwable`); a thrown call is one too. */
const EXCEPTION_TYPE = /(Exception|Throwable)$/u;

/** Whether a named `message` / `label` argument of the call `call` to `callee` is UI text (see CALL_SCOPED_NAMES). */
function scopedNameIsText(call: SyntaxNode, callee: string): boolean {
  if (/^\p{Lu}/u.test(callee)) {
    const thrown = call.parent?.type === 'jump_expression' && call.parent.firstChild?.type === 'throw';
    return !thrown && !EXCEPTION_TYPE.test(callee);
  }
  return UI_HELPER.test(callee);
}

/**
 * Compose's AnnotatedString is only ever rendered (`Text(AnnotatedString)`, `ClickableText`, notifications' styled
 * text), so its text is UI text: the first argument of `AnnotatedString("…")` and `AnnotatedString.Builder("…")`, and
 * what `append` adds inside `buildAnnotatedString { … }` or `AnnotatedString.Builder().apply { … }`. `append` is read
 * only as the builder's own call (bare, or on `this`) and only where the nearest enclosing lambda is the builder's or
 * one that keeps its receiver: its span blocks (`withStyle`, `withLink`, `withAnnotation`, `withBulletList`,
 * `withBullet`) and the stdlib lambdas without a receiver below. Any other lambda may bring its own `append`
 * (`buildString`, `StringBuilder().apply`), so it ends the search: `sb.append("…")` and StringBuilder text are not read.
 */
const SPAN_BLOCKS = new Set(['withStyle', 'withLink', 'withAnnotation', 'withBulletList', 'withBullet']);
const KEEPS_RECEIVER = new Set(['let', 'also', 'forEach', 'forEachIndexed', 'onEach', 'repeat', 'takeIf', 'takeUnless']);

/** The call a lambda is passed to as its trailing lambda: `withStyle(s) { … }` -> withStyle; with its receiver text. */
function lambdaOwner(lambda: SyntaxNode): { name: string | undefined; receiver: string | undefined } | undefined {
  const ann = lambda.parent;
  const call = ann?.type === 'annotated_lambda' && ann.parent?.type === 'call_suffix' ? ann.parent.parent : null;
  if (call?.type !== 'call_expression') return undefined;
  // `withStyle(style) { … }` parses as a call of the call `withStyle(style)`.
  let fn = call.firstNamedChild;
  if (fn?.type === 'call_expression') fn = fn.firstNamedChild;
  const receiver = fn?.type === 'navigation_expression' ? fn.firstNamedChild?.text.replace(/\s+/gu, '') : undefined;
  return { name: lastName(fn ?? null), receiver };
}

/** Whether a receiver type is `AnnotatedString.Builder` (qualified or not). */
function isAnnotatedBuilderType(t: SyntaxNode | undefined): boolean {
  const names = t?.namedChildren.filter((c) => c.type === 'type_identifier').map((c) => c.text) ?? [];
  return names.at(-1) === 'Builder' && names.at(-2) === 'AnnotatedString';
}

/** The AnnotatedString builder the `append` call `call` adds to, as the finding names it, or undefined (SPAN_BLOCKS). */
function annotatedBuilderOf(call: SyntaxNode): string | undefined {
  const fn = call.firstNamedChild;
  const bare = fn?.type === 'simple_identifier' || (fn?.type === 'navigation_expression' && fn.firstNamedChild?.type === 'this_expression' && fn.firstNamedChild.text === 'this');
  if (!bare) return undefined;
  for (let p = call.parent; p; p = p.parent) {
    // An extension of the builder (`fun AnnotatedString.Builder.appendBold(…) { append(…) }`) has it as `this`.
    if (p.type === 'function_declaration') return isAnnotatedBuilderType(p.namedChildren.find((c) => c.type === 'user_type')) ? 'an AnnotatedString.Builder extension' : undefined;
    if (p.type === 'class_body' || p.type === 'anonymous_function') return undefined;
    if (p.type !== 'lambda_literal') continue;
    const owner = lambdaOwner(p);
    if (!owner?.name) return undefined;
    if (owner.name === 'buildAnnotatedString') return 'buildAnnotatedString';
    if ((owner.name === 'apply' || owner.name === 'run') && owner.receiver !== undefined && /^(?:[\w.]*\.)?AnnotatedString\.Builder\(/u.test(owner.receiver)) return `AnnotatedString.Builder().${owner.name}`;
    if (!SPAN_BLOCKS.has(owner.name) && !KEEPS_RECEIVER.has(owner.name)) return undefined;
  }
  return undefined;
}

/**
 * The text argument of an AnnotatedString constructor or builder `append`: its index, the callee as the finding names
 * it and where the call is (`append() in buildAnnotatedString`).
 */
function annotatedTextArgument(call: SyntaxNode, callee: string, receiver: string | undefined): { index: number; shown: string; where: string } | undefined {
  if (callee === 'AnnotatedString' && (receiver === undefined || /(?:^|\.)text$/u.test(receiver))) return { index: 0, shown: 'AnnotatedString', where: '' };
  if (callee === 'Builder' && receiver !== undefined && /(?:^|\.)AnnotatedString$/u.test(receiver.replace(/\s+/gu, ''))) return { index: 0, shown: 'AnnotatedString.Builder', where: '' };
  const builder = callee === 'append' ? annotatedBuilderOf(call) : undefined;
  return builder ? { index: 0, shown: 'append', where: ` in ${builder}` } : undefined;
}

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

/**
 * Receivers whose static `format` returns its format string filled in: java.lang.String (`String.format` in Kotlin
 * is kotlin.text's String.Companion.format, the same signatures) and java.text.MessageFormat.
 */
export const FORMAT_CLASSES = new Set(['String', 'java.lang.String', 'kotlin.String', 'MessageFormat', 'java.text.MessageFormat']);

/**
 * Index of the format string among a static format call's arguments: `String.format(Locale.US, fmt, …)` and
 * `String.format(locale, fmt, …)` take a Locale first (java.lang.String.format(Locale, String, Object...)); so does
 * AntennaPod's `String.format(getEchoLanguage(), "%d", …)`, whose Locale has another name. A first argument that holds
 * no literal is skipped when there is a second: whether it is a Locale or a format read elsewhere
 * (`String.format(getString(R.string.size), "MB")`), the second argument's words reach the text.
 */
export function formatArgumentIndex(args: readonly SyntaxNode[], hasLiteral: (e: SyntaxNode) => boolean): number {
  return args.length > 1 && (/locale/iu.test(args[0]!.text) || !hasLiteral(args[0]!)) ? 1 : 0;
}

/**
 * The expression a format call shows as text: the format string of `String.format(fmt, …)`,
 * `String.format(Locale.US, fmt, …)`, `MessageFormat.format(fmt, …)`, or the receiver of `"…".format(…)`. Like
 * concatenation, the literal's words reach the sink; a format from `getString(…)` holds no literal and adds nothing.
 */
function formatString(call: SyntaxNode): SyntaxNode | undefined {
  const callee = call.firstNamedChild;
  if (callee?.type !== 'navigation_expression' || lastName(callee) !== 'format') return undefined;
  const receiver = callee.firstNamedChild;
  if (!receiver) return undefined;
  if (!FORMAT_CLASSES.has(receiver.text.replace(/\s+/gu, ''))) return receiver;
  const args = (call.namedChildren.find((c) => c.type === 'call_suffix')?.namedChildren.find((c) => c.type === 'value_arguments')?.namedChildren ?? [])
    .filter((a) => a.type === 'value_argument' && !a.children.some((c) => !c.isNamed && c.type === '='));
  return args[formatArgumentIndex(args, (a) => a.lastNamedChild !== null && literalsIn(a.lastNamedChild).length > 0)]?.lastNamedChild ?? undefined;
}

/**
 * kotlin.text String methods that return their receiver's words, recased or with whitespace or a margin removed:
 * `Text("Delete".uppercase())` and `Text("""…""".trimIndent())` show the literal's text (fresh6 F12).
 */
const TEXT_PRESERVING = new Set(['trimIndent', 'trimMargin', 'trim', 'trimStart', 'trimEnd', 'uppercase', 'lowercase', 'capitalize', 'decapitalize', 'replaceFirstChar', 'toUpperCase', 'toLowerCase']);

/** The receiver of a text-preserving String call (`"…".uppercase()`, `"…".replaceFirstChar { … }`), or undefined. */
function preservedText(call: SyntaxNode): SyntaxNode | undefined {
  const callee = call.firstNamedChild;
  if (callee?.type !== 'navigation_expression' || !TEXT_PRESERVING.has(lastName(callee) ?? '')) return undefined;
  return callee.firstNamedChild ?? undefined;
}

/**
 * String literals an expression can evaluate to: `"a"`, `"a" + b`, `if (c) "a" else "b"`, the format string of a
 * format call (`String.format("%d notes", n)`, `"%d notes".format(n)`) and the receiver of a text-preserving call.
 */
function literalsIn(expr: SyntaxNode, out: SyntaxNode[] = []): SyntaxNode[] {
  if (expr.type === 'string_literal' || expr.type === 'line_string_literal' || expr.type === 'multi_line_string_literal') out.push(expr);
  else if (PASS_THROUGH.has(expr.type)) for (const c of expr.namedChildren) literalsIn(c, out);
  else if (expr.type === 'call_expression') {
    const f = formatString(expr) ?? preservedText(expr);
    if (f) literalsIn(f, out);
  }
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

/**
 * A local `val` bound to a literal and shown (`val label = "…"; Text(label)`, fresh6 F2) is read as the literal in
 * the text position would be, at the literal, when every use of the name after it in its block is a text position:
 * a name also logged, compared, passed elsewhere or interpolated (`"$label"`) may be a key or a tag, so it is not
 * read. Lexical and same-function only: the nearest `val` of that name in an enclosing block of the same function
 * body (or lambda); never a `var`, a member or top-level property, a parameter, or a name a nested declaration
 * shadows in between.
 */
function localValOf(use: SyntaxNode): { decl: SyntaxNode; value: SyntaxNode; block: SyntaxNode } | undefined {
  const name = use.text;
  let child: SyntaxNode = use;
  for (let p = use.parent; p; child = p, p = p.parent) {
    if (p.type === 'function_declaration' || p.type === 'class_body' || p.type === 'source_file') return undefined;
    if (p.type === 'lambda_literal' && p.namedChildren.some((c) => c.type === 'lambda_parameters' && c.text.split(/[\s,:()]+/u).includes(name))) return undefined;
    if (p.type !== 'statements') continue;
    // The last declaration of `name` in this block before the statement holding the use.
    let found: SyntaxNode | undefined;
    for (const st of p.namedChildren) {
      if (st.startIndex >= child.startIndex) break;
      if (st.type === 'property_declaration' && st.namedChildren.find((c) => c.type === 'variable_declaration')?.firstNamedChild?.text === name) found = st;
    }
    if (!found) continue;
    const isVal = found.children.some((c) => c.type === 'binding_pattern_kind' && c.text === 'val');
    const value = found.lastNamedChild;
    if (!isVal || !value || value.type === 'variable_declaration') return undefined;
    return { decl: found, value, block: p };
  }
  return undefined;
}

/** Whether `n` reads the local named `name`: not a member access (`x.label`), a named argument's name or a declaration. */
function readsName(n: SyntaxNode, name: string): boolean {
  if ((n.type !== 'simple_identifier' && n.type !== 'interpolated_identifier') || n.text !== name) return false;
  const p = n.parent;
  if (p?.type === 'navigation_suffix' || p?.type === 'variable_declaration') return false;
  if (p?.type === 'value_argument' && p.firstNamedChild?.id === n.id && p.children.some((c) => !c.isNamed && c.type === '=')) return false;
  return true;
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
      if (!hasLetter(d.plain) || inPreview(lit)) return;
      seen.add(lit.startIndex);
      candidates.push({ ...pos(lit), literal: d.display, context });
    };
    // Names at text positions (`Text(label)`), resolved to a local val after the walk (localValOf).
    const shownNames: { node: SyntaxNode; context: string }[] = [];
    const read = (value: SyntaxNode, context: string) => {
      for (const l of literalsIn(value)) add(l, context);
      if (value.type === 'simple_identifier') shownNames.push({ node: value, context });
    };
    const scope: RScope = { package: '', imports: new Map(), wildcard: false };
    const references: AndroidReference[] = [];
    walk(root, (n) => {
      if (n.type === 'package_header') {
        scope.package = n.namedChildren.find((c) => c.type === 'identifier')?.text.replace(/\s+/gu, '') ?? '';
      } else if (n.type === 'import_header') {
        const path = n.namedChildren.find((c) => c.type === 'identifier')?.text.replace(/\s+/gu, '') ?? '';
        const alias = n.namedChildren.find((c) => c.type === 'import_alias')?.namedChildren.find((c) => c.type === 'type_identifier')?.text;
        addImport(scope, path, alias, n.namedChildren.some((c) => c.type === 'wildcard_import'));
      } else if (n.type === 'navigation_expression' && n.parent?.type !== 'navigation_expression') {
        // The outermost chain only (`R.string.x.length` holds `R.string.x`): scan it and its receivers.
        for (let e: SyntaxNode | null = n; e?.type === 'navigation_expression'; e = e.firstNamedChild) {
          const r = codeReference(e.text, scope);
          if (r) {
            // Previews too: a name no module defines fails their compilation like any other code's.
            references.push({ ...pos(e), ...r, context: e.text.replace(/\s+/gu, '') });
            break;
          }
        }
      }
      if (n.type === 'call_expression') {
        const callee = lastName(n.firstNamedChild);
        const args = n.namedChildren.find((c) => c.type === 'call_suffix')?.namedChildren.find((c) => c.type === 'value_arguments');
        if (!callee || !args) return;
        const isNamed = (arg: SyntaxNode) => arg.children.some((c) => !c.isNamed && c.type === '=');
        const positional = args.namedChildren.filter((a) => a.type === 'value_argument' && !isNamed(a) && a.lastNamedChild).map((a) => a.lastNamedChild!);
        const fn = n.firstNamedChild;
        const receiver = fn?.type === 'navigation_expression' ? fn.firstNamedChild?.text : undefined;
        const annotated = annotatedTextArgument(n, callee, receiver);
        let index = menuTitleIndex(callee, receiver, positional.length) ?? textArgumentIndex(KOTLIN_CALLS, callee) ?? annotated?.index;
        const shown = annotated?.shown ?? callee;
        const where = annotated?.where ?? '';
        if (index !== undefined && positional[index] && literalsIn(positional[index]!).length === 0 && viewIdFirst(positional[index]!.text)) index++;
        for (const arg of args.namedChildren) {
          if (arg.type !== 'value_argument' || !isNamed(arg)) continue;
          const value = arg.lastNamedChild;
          if (!value) continue;
          const label = arg.firstNamedChild?.text ?? '';
          if (label === 'label' && TOOLING_LABEL.test(callee)) continue;
          if (CALL_SCOPED_NAMES.has(label) && !scopedNameIsText(n, callee)) continue;
          if (named.has(label) || (index !== undefined && label === 'text')) read(value, `${shown}(${label} = …)${where}`);
        }
        const value = index === undefined ? undefined : positional[index];
        if (value) read(value, `${shown}()${where}`);
      } else if (n.type === 'assignment') {
        const target = n.namedChildren.find((c) => c.type === 'directly_assignable_expression');
        const name = lastName(target ?? null);
        const value = n.lastNamedChild;
        if (name && (named.has(name) || SETTER_PROPERTIES.has(name)) && value && value !== target) read(value, `${name} = …`);
      }
    });
    const shownAt = new Set(shownNames.map((u) => u.node.id));
    const done = new Set<number>();
    for (const u of shownNames) {
      const local = localValOf(u.node);
      if (!local || done.has(local.decl.id)) continue;
      done.add(local.decl.id);
      const name = u.node.text;
      const uses: SyntaxNode[] = [];
      walk(local.block, (m) => {
        if (m.startIndex > local.decl.endIndex && readsName(m, name)) uses.push(m);
      });
      if (uses.every((m) => shownAt.has(m.id))) for (const l of literalsIn(local.value)) add(l, `${u.context} via val ${name}`);
    }
    const directives = collectDirectives(root, source, {
      gate: GATE_ID,
      comments: new Set(['line_comment', 'multiline_comment', 'comment']),
      containers: new Set(['statements']),
    });
    return { candidates: sortCandidates(candidates), androidReferences: references, directives, syntaxErrors: syntaxErrors(root, 20, '"') };
  });
}
