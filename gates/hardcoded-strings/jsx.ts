// React Native / React JSX extractor, on tree-sitter-typescript's tsx grammar (.tsx) and tree-sitter-javascript
// (.js, .jsx, .mjs, .cjs). User text: the text children of every element, component and fragment (React renders them
// all; eslint-plugin-i18next's `jsx-text-only` mode reads the same JSXText), outside the DOM elements whose text is
// not UI copy (`<code>`, `<pre>`, `<script>`…) and outside `<Trans>`; the literal values of text props (React Native
// accessibility docs; WAI-ARIA `aria-label`; HTML `alt`, `title`, `placeholder`; `label`, `message`, `*Text`…); and
// the arguments of alert / confirm / toast calls. `testID`, `style`, `key` and `className` are never text.
import { DEFAULT_JSX_ATTRIBUTES, DEFAULT_TEXT_COMPONENTS, DOM_NON_COPY_ELEMENTS, GATE_ID, MESSAGE_COMPONENTS, MESSAGE_PROPS, TRANSLATION_COMPONENTS } from './defaults.js';
import { hasLetter, sortCandidates, type Candidate, type Extraction, type KeyReference } from './model.js';
import { collectDirectives, decodeCEscapes, decodeLiteral, pos, syntaxErrors, walk, withTree, type GrammarName, type LiteralSpec, type SyntaxNode } from '../../core/tree-sitter.js';

export { DEFAULT_JSX_ATTRIBUTES, DEFAULT_TEXT_COMPONENTS } from './defaults.js';

const LITERAL: LiteralSpec = {
  text: new Set(['string_fragment']),
  escape: new Set(['escape_sequence']),
  interpolation: new Set(['template_substitution']),
  decodeEscapes: decodeCEscapes,
};

/**
 * Bare-named calls whose string argument is a message key or a gettext source message, never a literal shown as
 * written: i18next / vue-i18n / react-intl (`t`, `$t`, `formatMessage`, `defineMessage`), gettext and its JS ports
 * (`_`, `__`, `gettext`, `ngettext`, `pgettext`, `npgettext`), and the common `translate` / `localize` / `tr` helpers.
 */
const LOOKUP_FUNCTIONS: ReadonlySet<string> = new Set(['t', '$t', 'formatMessage', 'defineMessage', 'defineMessages', '_', '__', 'gettext', 'ngettext', 'pgettext', 'npgettext', 'translate', 'localize', 'tr', 'i18n']);

/** A literal shaped as an identifier, key or path (`arrow-left`, `some.key`, `@assets/thumb.png`): no capital, no space. */
const KEY_SHAPED = /^[\p{Ll}\p{N}_.:/@#-]*$/u;

/**
 * The literals an expression can render as: both sides of `+`, `||` and `??`, the right side of `&&` (the left one is
 * a condition, rendered only when it is falsy, never as text), the branches of a ternary but not its condition, the
 * contents of parentheses and `{…}`, and the first argument of a plain helper call (below). Comparison operands
 * (`theme === "light"`, `typeof x === "string"`, `"key" in obj`) are values compared with, never shown
 * (eslint-plugin-i18next skips every binary operator but `+`).
 */
function literalsIn(expr: SyntaxNode, out: SyntaxNode[] = []): SyntaxNode[] {
  switch (expr.type) {
    case 'string':
    case 'template_string':
      out.push(expr);
      break;
    case 'parenthesized_expression':
    case 'jsx_expression':
      for (const c of expr.namedChildren) literalsIn(c, out);
      break;
    case 'ternary_expression':
      for (const f of ['consequence', 'alternative']) {
        const c = expr.childForFieldName(f);
        if (c) literalsIn(c, out);
      }
      break;
    case 'call_expression': {
      // A plain helper around on-screen text (`nonBreakingString('Remove member')`, `capitalize(\`${n} members\`)`)
      // shows its first argument's text; a lookup (`t('key')`, gettext's `_('…')`) is not a helper. Only bare callees:
      // methods (`date.format('MMM D')`, `n.toLocaleString('en-US')`) take formats and locales. A key-shaped literal
      // (lowercase, no space: `getIcon('arrow-left')`) is an argument, not text; `require('…')` loads a module.
      const fn = expr.childForFieldName('function');
      if (fn?.type !== 'identifier' || LOOKUP_FUNCTIONS.has(fn.text) || fn.text === 'require') break;
      const first = expr.childForFieldName('arguments')?.namedChildren.find((c) => c.type !== 'comment');
      if (first) for (const l of literalsIn(first)) if (!KEY_SHAPED.test(decodeLiteral(l, LITERAL).plain)) out.push(l);
      break;
    }
    case 'binary_expression': {
      const op = expr.childForFieldName('operator')?.type;
      const sides = op === '+' || op === '||' || op === '??' ? ['left', 'right'] : op === '&&' ? ['right'] : [];
      for (const f of sides) {
        const c = expr.childForFieldName(f);
        if (c) literalsIn(c, out);
      }
      break;
    }
  }
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
    return Object.hasOwn(ENTITIES, ref) ? ENTITIES[ref]! : '';
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
const MESSAGE_PROP_NAMES = new Set(MESSAGE_PROPS);

/** A prop of MESSAGE_PROPS, or a Lingui `<Select>` / `<Plural>` exact form (`_male`, `_0`). */
const isMessageProp = (name: string) => MESSAGE_PROP_NAMES.has(name) || /^_[\p{L}\p{N}_]+$/u.test(name);
const TRANSLATION = new Set(TRANSLATION_COMPONENTS);
const MESSAGE = new Set(MESSAGE_COMPONENTS);

/** The tag of an intrinsic element (`div`, `my-widget`): a plain name starting with a lowercase ASCII letter. */
function intrinsicName(el: SyntaxNode): string | undefined {
  const name = el.childForFieldName('open_tag')?.childForFieldName('name');
  return name?.type === 'identifier' && /^[a-z]/u.test(name.text) ? name.text : undefined;
}

/**
 * Whether the text children of `el` (not a text component) are not UI copy: it or an ancestor element is a non-copy
 * DOM element, or it is or sits inside `<Trans>`, as a child or in a prop (`<Trans components={[<a>link</a>]} />`).
 */
function excludedText(el: SyntaxNode): boolean {
  for (let p: SyntaxNode | null = el; p; p = p.parent) {
    if (p.type === 'jsx_self_closing_element' && TRANSLATION.has(elementName(p) ?? '')) return true;
    if (p.type !== 'jsx_element') continue;
    const intrinsic = intrinsicName(p);
    if (intrinsic !== undefined ? NON_COPY.has(intrinsic) : TRANSLATION.has(elementName(p) ?? '')) return true;
  }
  return false;
}

/** `<Empty>`, `<List.Item>`, `<p>` as written; `<>` for a fragment. */
function writtenName(el: SyntaxNode): string {
  return el.childForFieldName('open_tag')?.childForFieldName('name')?.text ?? '';
}

/**
 * A prop-name matcher for `attributes.jsx`: an entry is a whole name (`label`), or `*` and a suffix that starts a new
 * camelCase word (`*Text` matches `submitText` and `savingText`, not `context`; the suffix alone is not matched).
 */
export function attributeMatcher(entries: readonly string[]): (name: string) => boolean {
  const names = new Set(entries.filter((e) => !e.startsWith('*')));
  const suffixes = entries.filter((e) => e.startsWith('*') && e.length > 1).map((e) => e.slice(1));
  return (name) => names.has(name) || suffixes.some((s) => name.length > s.length && name.endsWith(s));
}

/**
 * Which arguments of a call are UI text, by the callee as written: `alert("…")`, `window.confirm("…")`, toasts of
 * sonner / react-hot-toast / react-toastify / shadcn / Chakra (`toast("…")`, `toast.error("…")`, `toast({ title })`,
 * `toast.promise(p, { loading, success, error })`), notistack `enqueueSnackbar("…")`, React Native
 * `Alert.alert(title, message, [{ text }])` and `ToastAndroid.show("…")`. `positions`: the arguments read (string
 * literals, and in objects or arrays of objects the properties of `keys`).
 */
interface UiCall {
  positions: readonly number[];
  keys: ReadonlySet<string>;
}

const OBJECT_TEXT_KEYS = new Set(['title', 'message', 'description', 'text', 'content', 'label']);
const PROMISE_TEXT_KEYS = new Set(['loading', 'success', 'error']);
const TOAST_TEXT_KEYS = new Set(['text1', 'text2', ...OBJECT_TEXT_KEYS]);
const SHARE_TEXT_KEYS = new Set(['message', 'title', 'dialogTitle', 'subject']);

/**
 * react-navigation screen options shown to the user as text (header, back button, tab and drawer labels and their
 * screen-reader labels). The names but `title` are react-navigation's own, so an object anywhere holding one with a
 * literal value (`export const opts = { headerTitle: '…' }`) is screen options; `title` only in `setOptions(…)`,
 * `options={…}` and `screenOptions={…}`.
 */
const NAVIGATION_OWN_KEYS = new Set(['headerTitle', 'headerBackTitle', 'tabBarLabel', 'drawerLabel', 'tabBarAccessibilityLabel', 'headerBackAccessibilityLabel', 'drawerAccessibilityLabel']);
const NAVIGATION_TEXT_KEYS = new Set(['title', ...NAVIGATION_OWN_KEYS]);

/** The options object of `options={{…}}` or `options={({ route }) => ({…})}`, else undefined. */
function optionsObject(value: SyntaxNode | null | undefined): SyntaxNode | undefined {
  let v = value;
  for (let i = 0; v && i < 4; i++) {
    if (v.type === 'object') return v;
    if (v.type === 'jsx_expression' || v.type === 'parenthesized_expression') v = v.namedChildren.find((c) => c.type !== 'comment');
    else if (v.type === 'arrow_function') v = v.childForFieldName('body');
    else return undefined;
  }
  return undefined;
}

/**
 * The message-showing methods of sonner, react-hot-toast, react-toastify and react-native-toast-notifications. Not any
 * `toast.x`: a Playwright locator named `toast` has `toast.getByTestId("close-toast-button")` (linkwarden e2e).
 */
const TOAST_METHOD = /^toast\.(?:success|error|info|warning|warn|loading|message|show|dark|default|custom|danger|normal)$/u;

function uiCall(callee: string): UiCall | undefined {
  const c = callee.replace(/^window\./u, '');
  if (c === 'alert' || c === 'confirm' || c === 'prompt') return { positions: [0], keys: OBJECT_TEXT_KEYS };
  if (c === 'toast.promise') return { positions: [1], keys: PROMISE_TEXT_KEYS };
  if (c === 'toast' || TOAST_METHOD.test(c) || c === 'enqueueSnackbar') return { positions: [0], keys: OBJECT_TEXT_KEYS };
  if (c === 'Alert.alert' || c === 'Alert.prompt') return { positions: [0, 1, 2], keys: new Set(['text']) };
  // react-native-toast-message `Toast.show({ text1, text2 })`, react-native-simple-toast `Toast.show('…')`.
  if (c === 'Toast.show') return { positions: [0], keys: TOAST_TEXT_KEYS };
  // React Native's share sheet: `Share.share({ message, title }, { dialogTitle, subject })`.
  if (c === 'Share.share') return { positions: [0, 1], keys: SHARE_TEXT_KEYS };
  // react-navigation `navigation.setOptions({ title, headerTitle, tabBarLabel… })`.
  if (c === 'setOptions' || c.endsWith('.setOptions')) return { positions: [0], keys: NAVIGATION_TEXT_KEYS };
  if (c === 'ToastAndroid.show' || c === 'ToastAndroid.showWithGravity' || c === 'ToastAndroid.showWithGravityAndOffset') return { positions: [0], keys: OBJECT_TEXT_KEYS };
  return undefined;
}

/** The literals of one argument of a UI call: itself, or the text properties of an object (or an array of objects). */
function callArgumentLiterals(arg: SyntaxNode, keys: ReadonlySet<string>, out: SyntaxNode[] = []): SyntaxNode[] {
  if (arg.type === 'array') for (const el of arg.namedChildren) callArgumentLiterals(el, keys, out);
  else if (arg.type === 'object') {
    for (const pair of arg.namedChildren) {
      if (pair.type !== 'pair') continue;
      const key = pair.childForFieldName('key');
      const value = pair.childForFieldName('value');
      const name = key?.type === 'string' ? key.text.slice(1, -1) : key?.text;
      if (value && name !== undefined && keys.has(name)) literalsIn(value, out);
    }
  } else literalsIn(arg, out);
  return out;
}

/** i18next's translate function as called: `t(…)`, `i18n.t(…)`, `i18next.t(…)`, `props.t(…)`. */
function isTranslateCall(callee: string): boolean {
  return callee === 't' || /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\.t$/u.test(callee);
}

/** The key of a literal without interpolation (a plain string or a template without `${}`), else undefined. */
function literalKey(node: SyntaxNode): string | undefined {
  if (node.type !== 'string' && node.type !== 'template_string') return undefined;
  const d = decodeLiteral(node, LITERAL);
  return d.interpolated ? undefined : d.plain;
}

/** The value node of property `name` of an object literal, else undefined. */
function propertyOf(obj: SyntaxNode, name: string): SyntaxNode | undefined {
  for (const pair of obj.namedChildren) {
    if (pair.type !== 'pair') continue;
    const key = pair.childForFieldName('key');
    const k = key?.type === 'string' ? key.text.slice(1, -1) : key?.text;
    if (k === name) return pair.childForFieldName('value') ?? undefined;
  }
  return undefined;
}

/** The string value node of JSX attribute `name` on an opening or self-closing element, else undefined. */
function attributeValue(open: SyntaxNode, name: string): SyntaxNode | null | undefined {
  for (const a of open.namedChildren) {
    if (a.type !== 'jsx_attribute' || a.firstNamedChild?.text !== name) continue;
    const v = a.namedChildren[1] ?? null;
    return v?.type === 'jsx_expression' ? (v.firstNamedChild ?? null) : v;
  }
  return undefined;
}

const NAMING_PROPS = new Set(['alt', 'title', 'aria-label']);
const normalName = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/**
 * The names an element gives itself in its other props: the stem of a file in a string value
 * (`/images/spotify.png` -> spotify), the labels of a URL's host (`https://gitlab.com/x` -> gitlab), and the name of
 * a component passed as a prop, less an `Icon` / `Logo` suffix (`icon={<GitLabIcon />}` -> gitlab). Normalised:
 * lowercase letters and digits only.
 */
function ownNames(open: SyntaxNode, except: SyntaxNode): Set<string> {
  const out = new Set<string>();
  for (const a of open.namedChildren) {
    if (a.type !== 'jsx_attribute' || a.startIndex === except.startIndex) continue;
    const v = a.namedChildren[1];
    if (!v) continue;
    if (v.type === 'string') {
      const text = v.text.slice(1, -1);
      const host = /^[a-z]+:\/\/([^/?#]+)/iu.exec(text)?.[1];
      if (host) for (const label of host.split('.').slice(0, -1)) if (label !== 'www') out.add(normalName(label));
      const stem = text.split(/[?#]/u)[0]!.split('/').pop()!.replace(/\.[A-Za-z0-9]+$/u, '');
      if (stem) out.add(normalName(stem));
    } else if (v.type === 'jsx_expression') {
      const el = v.firstNamedChild;
      const name = el?.type === 'jsx_self_closing_element' ? elementName(el) : undefined;
      if (name) out.add(normalName(name.replace(/(?:Icon|Logo)$/u, '')));
    }
  }
  out.delete('');
  return out;
}

/**
 * What a file without JSX must contain for the walk below to find anything: a UI call or translate call by name
 * (`uiCall`, `isTranslateCall`, `formatMessage`), a message descriptor's `defaultMessage`, or a suppression comment.
 */
const TS_MAY_HOLD = /\b(?:toast|alert|confirm|prompt|enqueueSnackbar|formatMessage|ToastAndroid|Toast|Alert|Share|setOptions|defaultMessage|headerTitle|headerBackTitle|tabBarLabel|drawerLabel|tabBarAccessibilityLabel|headerBackAccessibilityLabel|drawerAccessibilityLabel)\b|\bt\s*[(<]|loopgates-ignore/u;

/**
 * Extract JSX candidates and directives from one file's source. `grammar`: `tsx` for .tsx, `typescript` for plain
 * .ts (no JSX: its UI calls and keys only), else `javascript`.
 * `attributes`: prop names whose literal values are text; `textComponents`: components (last name segment) whose
 * children are text. Children of intrinsic DOM elements are read too, as described at the top of this file.
 * Candidates carry 1-based lines and UTF-16 columns of the opening quote or the first character of JSX text.
 */
export async function extractJsx(
  source: string,
  grammar: Extract<GrammarName, 'tsx' | 'typescript' | 'javascript'>,
  attributes: readonly string[] = DEFAULT_JSX_ATTRIBUTES,
  textComponents: readonly string[] = DEFAULT_TEXT_COMPONENTS,
): Promise<Extraction> {
  // Plain .ts holds no JSX: only the calls and objects read below. Most such files have none (mattermost-mobile: 81
  // of 1,637), and parsing the rest held a 60 s bound.
  if (grammar === 'typescript' && !TS_MAY_HOLD.test(source)) return { candidates: [], keyReferences: [], computedKeys: 0, keyPrefix: false, directives: [], syntaxErrors: [] };
  const isTextAttribute = attributeMatcher(attributes);
  const texts = new Set(textComponents);
  return withTree(grammar, source, (root) => {
    const candidates: Candidate[] = [];
    const keyReferences: KeyReference[] = [];
    let computedKeys = 0;
    const keyed = new Set<number>();
    const keyAt = (node: SyntaxNode | null | undefined, context: string, hasDefault: boolean) => {
      const key = node ? literalKey(node) : undefined;
      if (node && keyed.has(node.startIndex)) return;
      if (node) keyed.add(node.startIndex);
      if (node && key !== undefined) keyReferences.push({ ...pos(node), key, context, hasDefault });
      else computedKeys++;
    };
    // A literal is read once, by the first reading that reaches it (`setOptions({ headerTitle })` is also an object).
    const read = new Set<number>();
    const literal = (lit: SyntaxNode, context: string) => {
      if (read.has(lit.startIndex)) return;
      read.add(lit.startIndex);
      const d = decodeLiteral(lit, LITERAL);
      if (hasLetter(d.plain)) candidates.push({ ...pos(lit), literal: d.display, context });
    };
    walk(root, (n) => {
      if (n.type === 'jsx_attribute') {
        const nameNode = n.firstNamedChild;
        const value = n.namedChildren[1];
        if (nameNode && (nameNode.text === 'options' || nameNode.text === 'screenOptions')) {
          // react-navigation `<Stack.Screen options={{ title: '…' }}>` / `<Tab.Navigator screenOptions={…}>`.
          const obj = optionsObject(value);
          if (obj) for (const l of callArgumentLiterals(obj, NAVIGATION_TEXT_KEYS)) literal(l, nameNode.text);
          return;
        }
        if (!nameNode || !value || !isTextAttribute(nameNode.text)) return;
        // A message component's message props are the source message, its key or a translator's note; its other text
        // props (`accessibilityLabel`, `title`, `aria-label`) are read as on any element (fresh-user-6 G6).
        const owner = n.parent;
        if (owner && isMessageProp(nameNode.text) && (MESSAGE.has(elementName(owner) ?? '') || attributeValue(owner, 'defaultMessage') !== undefined)) return;
        const lits = literalsIn(value);
        const one = lits.length === 1 && NAMING_PROPS.has(nameNode.text) && owner ? lits[0] : undefined;
        const word = one ? decodeLiteral(one, LITERAL) : undefined;
        if (one && word && !word.interpolated && /^[\p{L}\p{N}.]+$/u.test(word.plain) && ownNames(owner!, n).has(normalName(word.plain))) {
          candidates.push({ ...pos(one), literal: word.display, context: nameNode.text, ownName: true });
          return;
        }
        for (const l of lits) literal(l, nameNode.text);
      } else if (n.type === 'call_expression') {
        const fn = n.childForFieldName('function');
        const args = n.childForFieldName('arguments')?.namedChildren.filter((c) => c.type !== 'comment') ?? [];
        if (fn && isTranslateCall(fn.text) && args[0]) {
          // t(key, 'Default') and t(key, { defaultValue }) show that text when the key is missing.
          const second = args[1];
          const hasDefault = second !== undefined && (second.type === 'string' || second.type === 'template_string' || (second.type === 'object' && propertyOf(second, 'defaultValue') !== undefined));
          keyAt(args[0], 't()', hasDefault);
          return;
        }
        if (fn && /(?:^|\.)formatMessage$/u.test(fn.text) && args[0]?.type === 'object') {
          keyAt(propertyOf(args[0], 'id'), 'formatMessage()', propertyOf(args[0], 'defaultMessage') !== undefined);
          return;
        }
        const call = fn ? uiCall(fn.text) : undefined;
        if (!fn || !call) return;
        for (const i of call.positions) {
          const arg = args[i];
          if (arg) for (const l of callArgumentLiterals(arg, call.keys)) literal(l, `${fn.text}()`);
        }
      } else if (n.type === 'object') {
        // A react-intl message descriptor held for later (`defineMessages({ a: { id, defaultMessage } })`, Mattermost's
        // `buttonText: { id: '…', defaultMessage: '…' }`): its id is a key, with a default.
        const id = propertyOf(n, 'id');
        if (id && propertyOf(n, 'defaultMessage') !== undefined && literalKey(id) !== undefined) keyAt(id, 'message descriptor', true);
        for (const pair of n.namedChildren) {
          const key = pair.type === 'pair' ? pair.childForFieldName('key') : null;
          const value = pair.childForFieldName('value');
          const name = key?.type === 'string' ? key.text.slice(1, -1) : key?.text;
          // Outside setOptions / options= the object may be something else (Detox page objects keep testIDs under
          // `headerTitle:`): a key-shaped literal is not read there.
          if (value && name !== undefined && NAVIGATION_OWN_KEYS.has(name)) for (const l of literalsIn(value)) if (!KEY_SHAPED.test(decodeLiteral(l, LITERAL).plain)) literal(l, name);
        }
      } else if (n.type === 'jsx_self_closing_element' || n.type === 'jsx_opening_element') {
        const el = n.type === 'jsx_opening_element' ? n.parent : n;
        const component = elementName(n);
        const hasChildren = el?.type === 'jsx_element' && el.namedChildren.some((c) => (c.type === 'jsx_text' && c.text.trim() !== '') || c.type === 'jsx_element' || c.type === 'jsx_expression');
        if (component === 'Trans') {
          const v = attributeValue(n, 'i18nKey');
          if (v !== undefined) keyAt(v, '<Trans i18nKey>', hasChildren || attributeValue(n, 'defaults') !== undefined);
        } else if (component === 'FormattedMessage' || component === 'FormattedHTMLMessage' || attributeValue(n, 'defaultMessage') !== undefined) {
          // react-intl's components, and an app's own wrappers of them (Mattermost's <FormattedText id defaultMessage>).
          const v = attributeValue(n, 'id');
          if (v !== undefined) keyAt(v, `<${component ?? ''} id>`, attributeValue(n, 'defaultMessage') !== undefined);
        }
      } else if (n.type === 'jsx_element') {
        const last = elementName(n);
        let name: string;
        if (last !== undefined && texts.has(last)) name = last;
        else if (excludedText(n)) return;
        else name = writtenName(n);
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
    return {
      candidates: sortCandidates(candidates),
      keyReferences,
      computedKeys,
      keyPrefix: /\bkeyPrefix\b/u.test(source),
      directives,
      syntaxErrors: syntaxErrors(root),
    };
  });
}
