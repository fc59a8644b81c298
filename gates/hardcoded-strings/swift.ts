// Swift extractor (UIKit, AppKit and SwiftUI), on alex-pinkus/tree-sitter-swift. SwiftUI initialisers that take a
// `LocalizedStringKey` (Text, Button, Label, Toggle, .navigationTitle, .accessibilityLabel …) look the literal up in
// the app's string catalogs at run time (Apple: "Preparing views for localization"), in one string table
// (`tableName:`, default `Localizable`), so they are candidates with a lookup key and table; `Text(verbatim:)`, UIKit
// `.text =` / `.accessibilityLabel =` / `setTitle(_:for:)` and UIAlertController titles, AppKit labels, buttons,
// menu items, alerts and `.stringValue =` are plain `String`s and always hard-coded.
import { DEFAULT_SWIFT_PROPERTIES, GATE_ID } from './defaults.js';
import { DEFAULT_TABLE, hasLetter, sortCandidates, UNKNOWN_SLOT, type Candidate, type Extraction } from './model.js';
import { collectDirectives, decodeCEscapes, decodeLiteral, pos, syntaxErrors, walk, withTree, type LiteralSpec, type SyntaxNode } from '../../core/tree-sitter.js';

export { DEFAULT_SWIFT_PROPERTIES } from './defaults.js';

/** SwiftUI views and modifiers whose first unlabeled argument is a `LocalizedStringKey`. */
export const SWIFTUI_KEY_CALLS: ReadonlySet<string> = new Set([
  'Text',
  'Button',
  'Label',
  'Toggle',
  'TextField',
  'SecureField',
  'Section',
  'Link',
  'Picker',
  'NavigationLink',
  'Menu',
  'Stepper',
  'LabeledContent',
  'ProgressView',
  'navigationTitle',
  'accessibilityLabel',
  'accessibilityHint',
  'accessibilityValue',
  'help',
  'alert',
  'confirmationDialog',
]);

/**
 * UIKit and AppKit calls whose arguments are user text: name -> the arguments (`_0`: the first unlabeled one; else
 * the label) and, for a method name other code uses too, a label the call must also have (`setLabel(_:forSegment:)`).
 * AppKit (developer.apple.com/documentation/appkit): NSTextField init(labelWithString:) / (wrappingLabelWithString:) /
 * (string:); NSButton init(title:target:action:) / (checkboxWithTitle:…) / (radioButtonWithTitle:…) and
 * (title:image:target:action:); NSComboButton init(title:menu:target:action:); NSMenuItem init(title:action:
 * keyEquivalent:) and NSMenu init(title:); NSMenu addItem(withTitle:action:keyEquivalent:) / insertItem(withTitle:…
 * at:), NSPopUpButton addItem(withTitle:) / insertItem(withTitle:at:); NSAlert addButton(withTitle:);
 * NSPopUpButton addItems(withTitles:) (each literal of the array); NSSegmentedControl setLabel(_:forSegment:) /
 * setToolTip(_:forSegment:); NSAccessibility setAccessibilityLabel(_:) / setAccessibilityTitle(_:) /
 * setAccessibilityHelp(_:) (VoiceOver reads them; not setAccessibilityIdentifier). Never read: `keyEquivalent:` (a key, not
 * text), `action:` selectors, identifiers (NSUserInterfaceItemIdentifier(rawValue:)), notification and nib names.
 */
const UIKIT_CALLS: Readonly<Record<string, { args: readonly string[]; requires?: string }>> = {
  setTitle: { args: ['_0'] },
  UIAlertController: { args: ['title', 'message'] },
  UIAlertAction: { args: ['title'] },
  UIBarButtonItem: { args: ['title'] },
  UIAction: { args: ['title'] },
  NSTextField: { args: ['labelWithString', 'wrappingLabelWithString', 'string'] },
  NSButton: { args: ['title', 'checkboxWithTitle', 'radioButtonWithTitle'] },
  NSComboButton: { args: ['title'] },
  NSMenuItem: { args: ['title'] },
  NSMenu: { args: ['title'] },
  addItem: { args: ['withTitle'] },
  insertItem: { args: ['withTitle'] },
  addButton: { args: ['withTitle'] },
  setLabel: { args: ['_0'], requires: 'forSegment' },
  setToolTip: { args: ['_0'], requires: 'forSegment' },
  addItems: { args: ['withTitles'] },
  setAccessibilityLabel: { args: ['_0'] },
  setAccessibilityTitle: { args: ['_0'] },
  setAccessibilityHelp: { args: ['_0'] },
};

const LITERAL: LiteralSpec = {
  text: new Set(['line_str_text', 'multi_line_str_text']),
  escape: new Set(['str_escaped_char']),
  interpolation: new Set(['interpolated_expression']),
  decodeEscapes: decodeCEscapes,
  interpolationKey: '%@',
};

const STRING_TYPES = new Set(['line_string_literal', 'multi_line_string_literal', 'raw_string_literal']);

/** Literals an expression can evaluate to; `concatenated` marks those inside `+` (a `String`, never a key). */
function literalsIn(expr: SyntaxNode, concatenated = false, out: Array<{ node: SyntaxNode; concatenated: boolean }> = []) {
  if (STRING_TYPES.has(expr.type)) out.push({ node: expr, concatenated });
  else if (expr.type === 'additive_expression') for (const c of expr.namedChildren) literalsIn(c, true, out);
  else if (expr.type === 'ternary_expression' || expr.type === 'tuple_expression' || expr.type === 'parenthesized_expression')
    for (const c of expr.namedChildren) literalsIn(c, concatenated, out);
  return out;
}

/**
 * The argument expression of `LocalizedStringKey("…")` / `LocalizedStringKey(stringLiteral: "…")` when `expr` is such a
 * call (the same catalog lookup as the bare literal), else undefined.
 */
function wrappedKey(expr: SyntaxNode): SyntaxNode | undefined {
  if (expr.type !== 'call_expression' || calleeName(expr.firstNamedChild) !== 'LocalizedStringKey') return undefined;
  const args = expr.namedChildren.find((c) => c.type === 'call_suffix')?.namedChildren.find((c) => c.type === 'value_arguments');
  const first = args?.namedChildren.find((c) => c.type === 'value_argument');
  const label = first?.childForFieldName('name')?.text;
  if (!first || (label !== undefined && label !== 'stringLiteral')) return undefined;
  return first.childForFieldName('value') ?? undefined;
}

/**
 * Whether `node` sits in preview-only code: a `#Preview { … }` macro (Swift 5.9, Xcode 15) or a type conforming to
 * `PreviewProvider`. The grammar shipped in tree-sitter-wasms predates macros: it reads `#Preview` as an ERROR node
 * (its text ends in `#Preview`, after any attributes such as `@available(…)`) followed by the macro's body, a
 * `lambda_literal`, or for `#Preview("Name", traits: …) { … }` a `call_expression` with a trailing closure.
 * Source: developer.apple.com/documentation/swiftui/preview(_:body:), /previewprovider.
 */
function inPreview(node: SyntaxNode): boolean {
  for (let p: SyntaxNode | null = node; p; p = p.parent) {
    if ((p.type === 'lambda_literal' || p.type === 'call_expression') && p.previousSibling?.type === 'ERROR' && /#Preview\s*$/u.test(p.previousSibling.text)) return true;
    if (p.type === 'class_declaration' && p.namedChildren.some((c) => c.type === 'inheritance_specifier' && /(^|\.)PreviewProvider$/u.test(c.text.trim()))) return true;
  }
  return false;
}

/**
 * Whether `node` is text of a loading skeleton: it sits in the receiver of `.redacted(reason: .placeholder)` (SwiftUI
 * draws that text as grey bars, nobody reads it), with no `.unredacted()` between them (which shows it again). A
 * reason that is not the literal `.placeholder` (`isLoading ? .placeholder : []`) is shown some of the time: read.
 * Source: developer.apple.com/documentation/swiftui/view/redacted(reason:), /view/unredacted().
 */
function inRedactedPlaceholder(node: SyntaxNode): boolean {
  for (let p: SyntaxNode | null = node.parent; p; p = p.parent) {
    if (p.type !== 'call_expression') continue;
    const name = calleeName(p.firstNamedChild);
    if (name === 'unredacted') return false;
    if (name !== 'redacted') continue;
    const args = p.namedChildren.find((c) => c.type === 'call_suffix')?.namedChildren.find((c) => c.type === 'value_arguments');
    const reason = args?.namedChildren.find((a) => a.type === 'value_argument' && a.childForFieldName('name')?.text === 'reason');
    if (reason?.childForFieldName('value')?.text.replace(/\s+/gu, '') === '.placeholder') return true;
  }
  return false;
}

/**
 * The table a call's `tableName:` argument names: DEFAULT_TABLE without one, for `nil` and for `""`; the text of a
 * plain string literal; undefined (unknown: not guessed) for anything else: a variable, a call, an interpolated or a
 * raw string (`#"…"#`, which this grammar does not split into text).
 */
function tableOf(args: readonly SyntaxNode[]): string | undefined {
  const arg = args.find((a) => a.childForFieldName('name')?.text === 'tableName');
  if (!arg) return DEFAULT_TABLE;
  const v = arg.childForFieldName('value');
  if (v?.type === 'nil') return DEFAULT_TABLE;
  if (v?.type !== 'line_string_literal' && v?.type !== 'multi_line_string_literal') return undefined;
  const d = decodeLiteral(v, LITERAL);
  if (d.interpolated) return undefined;
  return d.plain === '' ? DEFAULT_TABLE : d.plain;
}

function calleeName(node: SyntaxNode | null): string | undefined {
  if (!node) return undefined;
  if (node.type === 'simple_identifier') return node.text;
  if (node.type === 'navigation_expression') {
    const suffix = node.childForFieldName('suffix') ?? node.lastNamedChild;
    const id = suffix?.childForFieldName('suffix') ?? suffix?.lastNamedChild;
    return id?.type === 'simple_identifier' ? id.text : undefined;
  }
  // `.accessibilityLabel("…")` with an implicit base (`prefix_expression` of `.` and a name).
  if (node.type === 'prefix_expression') return calleeName(node.lastNamedChild);
  // The grammar binds a call tighter to `+` than Swift does: `Text(a) + Text("…")` is parsed as a call of
  // `Text(a) + Text`, whose callee is the right operand.
  if (node.type === 'additive_expression') return calleeName(node.childForFieldName('rhs') ?? node.lastNamedChild);
  return undefined;
}

/**
 * The format specifier SwiftUI's LocalizedStringKey.StringInterpolation writes for a value of each type
 * (`appendInterpolation(_:)` where T: _FormatSpecifiable; `(_: String)`, `(_: Text)`, `(_: Image)`,
 * `(_: AttributedString)` write `%@`). Source: developer.apple.com/documentation/swiftui/localizedstringkey/
 * stringinterpolation. Types not listed (Int32, a model type, an Optional) are not guessed.
 */
const TYPE_SPECIFIERS: Readonly<Record<string, string>> = {
  Int: '%lld',
  Int64: '%lld',
  UInt: '%llu',
  UInt64: '%llu',
  Double: '%lf',
  CGFloat: '%lf',
  Float: '%f',
  String: '%@',
  Text: '%@',
  Image: '%@',
  AttributedString: '%@',
};

/** Calls whose result is a String / Text / Image (`%@`): initialisers, and `x.formatted(…)` (FormatStyle output). */
const STRING_CALLS = new Set(['String', 'Text', 'Image', 'AttributedString', 'formatted']);

/** Specifier of a name or value the file can type: undefined when not known. */
type Specifiers = ReadonlyMap<string, string | null>;

function typeSpecifier(type: SyntaxNode | undefined): string | undefined {
  return type?.type === 'user_type' && Object.hasOwn(TYPE_SPECIFIERS, type.text) ? TYPE_SPECIFIERS[type.text] : undefined;
}

/** The specifier an interpolated expression gets, from its own shape or the file's declarations; undefined: unknown. */
function exprSpecifier(expr: SyntaxNode | null, names: Specifiers): string | undefined {
  if (!expr) return undefined;
  switch (expr.type) {
    case 'integer_literal':
    case 'hex_literal':
    case 'oct_literal':
    case 'bin_literal':
      return '%lld';
    case 'real_literal':
      return '%lf';
    case 'line_string_literal':
    case 'multi_line_string_literal':
    case 'raw_string_literal':
      return '%@';
    case 'simple_identifier':
      return names.get(expr.text) ?? undefined;
    case 'parenthesized_expression':
      return expr.namedChildren.length === 1 ? exprSpecifier(expr.firstNamedChild, names) : undefined;
    case 'navigation_expression': {
      const target = expr.childForFieldName('target') ?? expr.firstNamedChild;
      const member = calleeName(expr);
      // Collection.count is Int; `self.name` is the file's own property.
      if (member === 'count') return '%lld';
      return target?.type === 'self_expression' && member !== undefined ? (names.get(member) ?? undefined) : undefined;
    }
    case 'call_expression': {
      const name = calleeName(expr.firstNamedChild);
      return name !== undefined && STRING_CALLS.has(name) ? '%@' : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * Names the file binds with a specifier its declaration shows (`let count: Int`, `var n = 0`, `func f(n: Int)`); a
 * name bound twice with different or unknown types (a closure's `count in`, `if let count`) maps to null.
 */
function declaredSpecifiers(root: SyntaxNode): Map<string, string | null> {
  const names = new Map<string, string | null>();
  const bind = (name: string | undefined, spec: string | undefined) => {
    if (name === undefined) return;
    const had = names.get(name);
    names.set(name, spec === undefined || (had !== undefined && had !== spec) ? null : spec);
  };
  walk(root, (n) => {
    if (n.type === 'property_declaration') {
      const pattern = n.namedChildren.find((c) => c.type === 'pattern');
      const id = pattern?.namedChildren.length === 1 && pattern.firstNamedChild?.type === 'simple_identifier' ? pattern.firstNamedChild : undefined;
      if (!id) return;
      const annotation = n.namedChildren.find((c) => c.type === 'type_annotation');
      const value = n.childForFieldName('value') ?? (pattern?.nextNamedSibling?.type === 'type_annotation' ? pattern.nextNamedSibling.nextNamedSibling : pattern?.nextNamedSibling);
      bind(id.text, annotation ? typeSpecifier(annotation.namedChildren.find((c) => c.type !== ':') ?? undefined) : exprSpecifier(value ?? null, new Map()));
    } else if (n.type === 'parameter' || n.type === 'lambda_parameter') {
      const ids = n.namedChildren.filter((c) => c.type === 'simple_identifier');
      bind(ids.at(-1)?.text, typeSpecifier(n.namedChildren.find((c) => c.type === 'user_type')));
    } else if (n.type === 'simple_identifier') {
      // Bound by a pattern (`for count in`, `case .a(let count)`, tuples) or `if let count = …`: type not shown.
      const p = n.parent;
      const inDeclaration = p?.type === 'pattern' && p.parent?.type === 'property_declaration' && p.namedChildren.length === 1;
      if ((p?.type === 'pattern' && !inDeclaration) || n.previousNamedSibling?.type === 'value_binding_pattern') bind(n.text, undefined);
    }
  });
  return names;
}

/**
 * The specifier of one `\(…)`: its `interpolated_expression` children are the call's arguments (`count`,
 * `format: .number`). `specifier: "%.1f"` writes that specifier; `format:` (FormatStyle), `formatter:` and Date
 * `style:` write `%@`; other labelled forms and untyped values are UNKNOWN_SLOT.
 */
function slotSpecifier(args: readonly SyntaxNode[], names: Specifiers): string {
  const labelOf = (a: SyntaxNode) => a.namedChildren.find((c) => c.type === 'value_argument_label')?.text;
  const valueOf = (a: SyntaxNode) => a.lastNamedChild;
  const first = args[0];
  if (!first || labelOf(first) !== undefined) return UNKNOWN_SLOT;
  for (const a of args.slice(1)) {
    const label = labelOf(a);
    if (label === 'specifier') {
      const v = valueOf(a);
      if (v?.type !== 'line_string_literal') return UNKNOWN_SLOT;
      const d = decodeLiteral(v, LITERAL);
      return d.interpolated ? UNKNOWN_SLOT : d.plain;
    }
    if (label === 'format' || label === 'formatter' || label === 'style') return '%@';
  }
  return args.length === 1 ? (exprSpecifier(first.firstNamedChild, names) ?? UNKNOWN_SLOT) : UNKNOWN_SLOT;
}

/** The LocalizedStringKey SwiftUI builds from an interpolated literal: its text, each `\(…)` as one specifier. */
function interpolationKey(lit: SyntaxNode, names: Specifiers): string {
  let key = '';
  let args: SyntaxNode[] | undefined;
  for (const c of lit.children) {
    if (!c.isNamed) {
      if (c.type === '\\(') args = [];
      else if (c.type === ')' && args) {
        key += slotSpecifier(args, names);
        args = undefined;
      }
      continue;
    }
    if (args && LITERAL.interpolation.has(c.type)) args.push(c);
    else if (LITERAL.text.has(c.type) || LITERAL.escape.has(c.type)) key += LITERAL.decodeEscapes(c.text);
  }
  return key;
}

/** Extract Swift candidates and directives from one file's source. */
export async function extractSwift(source: string, properties: readonly string[] = DEFAULT_SWIFT_PROPERTIES): Promise<Extraction> {
  const props = new Set(properties);
  return withTree('swift', source, (root) => {
    const candidates: Candidate[] = [];
    const seen = new Set<number>();
    let names: Map<string, string | null> | undefined;
    // `table`: for a key, the table it is looked up in (undefined: unknown); `null` for a plain String.
    const add = (lit: SyntaxNode, context: string, table: string | undefined | null, commented = false) => {
      if (seen.has(lit.startIndex)) return;
      const d = decodeLiteral(lit, LITERAL);
      if (!hasLetter(d.plain) || inPreview(lit) || inRedactedPlaceholder(lit)) return;
      seen.add(lit.startIndex);
      const lookupKey = d.interpolated && lit.type !== 'raw_string_literal' ? interpolationKey(lit, (names ??= declaredSpecifiers(root))) : d.key;
      const key = table === null ? {} : { lookupKey, ...(table === undefined ? {} : { lookupTable: table }), ...(commented ? { commented: true } : {}) };
      candidates.push({ ...pos(lit), literal: d.display, context, ...key });
    };
    walk(root, (n) => {
      if (n.type === 'call_expression') {
        const name = calleeName(n.firstNamedChild);
        if (!name) return;
        const args = n.namedChildren.find((c) => c.type === 'call_suffix')?.namedChildren.find((c) => c.type === 'value_arguments');
        if (!args) return;
        const list = args.namedChildren.filter((c) => c.type === 'value_argument');
        const label = (a: SyntaxNode) => a.childForFieldName('name')?.text;
        const value = (a: SyntaxNode) => a.childForFieldName('value') ?? a.lastNamedChild;
        const first = list[0];
        if (name === 'Text' && first && label(first) === 'verbatim') {
          const v = value(first);
          if (v) for (const l of literalsIn(v)) add(l.node, 'Text(verbatim:)', null);
          return;
        }
        if (SWIFTUI_KEY_CALLS.has(name) && first && label(first) === undefined) {
          const v = value(first);
          if (!v) return;
          const table = tableOf(list);
          const wrapped = wrappedKey(v);
          if (wrapped) {
            // LocalizedStringKey(_ value: String): a literal is the key as written; an interpolated or concatenated
            // argument is a String first, so the key is the text at run time, which no catalog holds.
            for (const l of literalsIn(wrapped)) {
              const plain = l.concatenated || (l.node.type !== 'raw_string_literal' && decodeLiteral(l.node, LITERAL).interpolated);
              add(l.node, `${name}(LocalizedStringKey())`, plain ? null : table, list.some((a) => label(a) === 'comment'));
            }
            return;
          }
          const commented = list.some((a) => label(a) === 'comment');
          for (const l of literalsIn(v)) add(l.node, `${name}()`, l.concatenated ? null : table, commented);
          return;
        }
        const call = Object.hasOwn(UIKIT_CALLS, name) ? UIKIT_CALLS[name] : undefined;
        if (!call || (call.requires !== undefined && !list.some((a) => label(a) === call.requires))) return;
        const wanted = call.args;
        list.forEach((a, i) => {
          const l = label(a);
          if ((l === undefined && i === 0 && wanted.includes('_0')) || (l !== undefined && wanted.includes(l))) {
            const v = value(a);
            // `addItems(withTitles: ["…", "…"])`: each element of an array literal is a title.
            const exprs = v?.type === 'array_literal' ? v.namedChildren : v ? [v] : [];
            for (const x of exprs) for (const lit of literalsIn(x)) add(lit.node, l ? `${name}(${l}:)` : `${name}()`, null);
          }
        });
      } else if (n.type === 'assignment') {
        const target = n.childForFieldName('target');
        const nav = target?.firstNamedChild;
        const name = nav?.type === 'navigation_expression' ? calleeName(nav) : undefined;
        const result = n.childForFieldName('result');
        if (name && props.has(name) && result) for (const l of literalsIn(result)) add(l.node, `.${name} =`, null);
      }
    });
    const directives = collectDirectives(root, source, {
      gate: GATE_ID,
      comments: new Set(['comment', 'multiline_comment']),
      containers: new Set(['statements']),
    });
    return { candidates: sortCandidates(candidates), directives, syntaxErrors: syntaxErrors(root, 20, '"') };
  });
}
