// The hardcoded-strings gate's default lists and XML namespaces, apart from the extractors so that loading the gate
// (its config schema, its mutation operators) does not load a parser. Sources are named beside each list.

/** The gate's id: config key, finding.gate, and the id its suppression comments name. */
export const GATE_ID = 'hardcoded-strings';

/** Text-bearing attributes, canonical prefixes (`android:` for the platform namespace, `app:` for res-auto). */
export const DEFAULT_ANDROID_ATTRIBUTES: readonly string[] = [
  'android:text',
  'android:contentDescription',
  'android:hint',
  'android:title',
  'android:titleCondensed',
  'android:summary',
  'android:summaryOn',
  'android:summaryOff',
  'android:label',
  'android:description',
  'android:tooltipText',
  'android:dialogTitle',
  'android:dialogMessage',
  'android:positiveButtonText',
  'android:negativeButtonText',
  'android:textOn',
  'android:textOff',
  'android:queryHint',
  'android:prompt',
  'android:subtitle',
  'android:shortcutShortLabel',
  'android:shortcutLongLabel',
  'android:shortcutDisabledMessage',
  'app:title',
  'app:subtitle',
  'app:summary',
  'app:contentDescription',
  'app:tooltipText',
  'app:queryHint',
  'app:helperText',
  'app:placeholderText',
  'app:prefixText',
  'app:suffixText',
  'app:hintText',
];

/** The Android platform namespace (`android:` attributes) and the design-time `tools:` namespace. */
export const ANDROID_NS = 'http://schemas.android.com/apk/res/android';
export const TOOLS_NS = 'http://schemas.android.com/tools';

/**
 * Props whose literal value is user text. Config `attributes.jsx` replaces the list. An entry `*Suffix` matches any
 * longer prop name ending in it (`*Text`: `submitText`, `savingText`, `emptyText`): design systems name their text
 * props so (Outline's `<ConfirmationDialog submitText>`, MUI's `helperText`, antd's `okText` / `cancelText`). Whole
 * names come from HTML (`alt`, `title`, `placeholder`, `label` of `<option>` / `<track>`), WAI-ARIA, React Native
 * accessibility, and the props component libraries take for text (`label`, `message`, `description`, `tooltip`…).
 * Not text, and matched by no entry: `className`, `style`, `type`, `key`, `id`, `name`, `value`, `href`, `variant`.
 */
export const DEFAULT_JSX_ATTRIBUTES: readonly string[] = [
  'accessibilityLabel',
  'accessibilityHint',
  'aria-label',
  'aria-description',
  'aria-placeholder',
  'aria-valuetext',
  'placeholder',
  'title',
  'alt',
  'label',
  'message',
  'description',
  'caption',
  'heading',
  'subtitle',
  'tooltip',
  'hint',
  'text',
  '*Text',
  '*Label',
  '*Title',
  '*Message',
  '*Placeholder',
  '*Description',
  '*Tooltip',
  '*Caption',
  '*Heading',
];

/**
 * Components whose message props (MESSAGE_PROPS) are a message's source, key or translator note, never hard-coded UI
 * text (`<FormattedMessage id="…" defaultMessage="…" description="…">` of react-intl, react-i18next / Lingui `<Trans>`,
 * Lingui's `<Plural>` / `<SelectOrdinal>`). Their other text props (`accessibilityLabel`, `title`, `aria-label`) are
 * read as on any element. Matched by the last segment of the name. An element with a `defaultMessage` prop is one
 * too, whatever its name (an app's own wrapper, Mattermost's `<FormattedText id defaultMessage>`), and its `id` is a
 * catalog key.
 */
export const MESSAGE_COMPONENTS: readonly string[] = ['Trans', 'FormattedMessage', 'FormattedHTMLMessage', 'FormattedPlural', 'Plural', 'SelectOrdinal'];

/**
 * The message props of MESSAGE_COMPONENTS: react-intl's `id`, `defaultMessage`, `description`, `values`, `tagName`;
 * react-i18next `<Trans>`'s `i18nKey`, `defaults`, `values`, `components`, `ns`, `count`, `context`, `tOptions`;
 * Lingui's `id`, `message`, `comment`, `context`, `render` and the plural forms (CLDR categories `zero`…`other`, and
 * `_0`, `_male` exact forms, matched by their `_`). Their values are a message, its key or a note for translators.
 */
export const MESSAGE_PROPS: readonly string[] = [
  'id',
  'defaultMessage',
  'description',
  'values',
  'tagName',
  'i18nKey',
  'defaults',
  'components',
  'ns',
  'count',
  'context',
  'tOptions',
  'message',
  'comment',
  'render',
  'zero',
  'one',
  'two',
  'few',
  'many',
  'other',
];

/** Components whose children are user text. Config `textComponents` replaces the list. */
export const DEFAULT_TEXT_COMPONENTS: readonly string[] = ['Text'];

/**
 * Intrinsic DOM elements whose text is not UI copy (HTML Living Standard: `script` and `style` hold code and CSS;
 * `code`, `pre`, `kbd`, `samp` and `var` mark computer code, keyboard input, program output and variables, which a
 * translator leaves as written). Text anywhere inside one of them, nested elements included, is never a candidate.
 * `title` is not here: a document `<title>` (React 19 hoists it) and an SVG `<title>` are read by users and screen
 * readers, as the `title` attribute is. Not configurable.
 */
export const DOM_NON_COPY_ELEMENTS: readonly string[] = ['script', 'style', 'code', 'pre', 'kbd', 'samp', 'var'];

/**
 * i18n components whose children are the message itself, with its markup (react-i18next and Lingui `<Trans>`,
 * matched by the last segment of the name, so `<i18n.Trans>` counts): text of DOM elements inside them is never a
 * candidate. A component of `textComponents` inside them is read as before. Not configurable.
 */
export const TRANSLATION_COMPONENTS: readonly string[] = ['Trans'];

/**
 * Named arguments and assignment targets that carry user text in Compose and the View system
 * (`Icon(contentDescription = …)`, `semantics { contentDescription = … }`, `showSnackbar(message = …, actionLabel = …)`,
 * `Modifier.clickable(onClickLabel = …)`, `textView.text = …`). Config `attributes.kotlin` replaces the list.
 * `message` and `label` as named arguments are read only in calls that are UI by name (kotlin.ts CALL_SCOPED_NAMES):
 * loggers, exceptions and analytics take the same names.
 */
export const DEFAULT_KOTLIN_NAMES: readonly string[] = [
  'text',
  'contentDescription',
  'stateDescription',
  'title',
  'subtitle',
  'label',
  'placeholder',
  'hint',
  'queryHint',
  'message',
  'actionLabel',
  'onClickLabel',
  'onLongClickLabel',
  'tooltipText',
  'supportingText',
  'confirmText',
  'dismissText',
];

/**
 * UIKit and AppKit property assignments that carry user text (`label.text = "…"`, `alert.messageText = "…"`). Config
 * `attributes.swift` replaces it. AppKit: NSControl `stringValue`, NSAlert `messageText` / `informativeText`,
 * NSTextField `placeholderString`, NSView `toolTip`, NSButton `alternateTitle`, NSToolbarItem `paletteLabel`; NSWindow,
 * NSButton, NSMenuItem and NSBox `title`, NSSavePanel `prompt` are already here. Not `label` or `message`: other code
 * assigns identifiers to them (iina's `PlayerCore.label = "\(counter)"`).
 */
export const DEFAULT_SWIFT_PROPERTIES: readonly string[] = [
  'text',
  'accessibilityLabel',
  'accessibilityHint',
  'accessibilityValue',
  'placeholder',
  'title',
  'prompt',
  'stringValue',
  'messageText',
  'informativeText',
  'placeholderString',
  'toolTip',
  'alternateTitle',
  'paletteLabel',
];
