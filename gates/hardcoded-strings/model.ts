// The shapes every hardcoded-strings extractor returns. Suppression comments (`loopgates-ignore hardcoded-strings:
// <reason>`) are core/suppression.ts's.
import type { Directive } from '../../core/suppression.js';

/**
 * One user-visible literal found at a text-bearing position (a `contentDescription`, a `Text(…)` argument...).
 * Extractors emit only literals that carry at least one letter outside interpolations (see `hasLetter`).
 */
export interface Candidate {
  /** 1-based line of the literal's first character (the opening quote in source, the value in XML). */
  line: number;
  /** 1-based column, UTF-16 code units, of the same character. */
  column: number;
  /** The literal as the user reads it: escapes decoded, interpolations kept as written (`${name}`, `\(name)`). */
  literal: string;
  /** Where it sits, for the message: `android:contentDescription`, `Text()`, `setText()`, `<Text> child`. */
  context: string;
  /**
   * Set for SwiftUI `LocalizedStringKey` positions (`Text("…")`, `Button("…")`, `.accessibilityLabel("…")`): the
   * literal is a catalog key, each interpolation written as the specifier SwiftUI gives its value's type (`%lld` for
   * an Int, `%@` for a String or a `format:`), UNKNOWN_SLOT where the file does not show the type. Such a candidate is a finding only when the string table
   * it is looked up in (`lookupTable`) does not hold the key.
   */
  lookupKey?: string;
  /**
   * With `lookupKey`: the string table searched at run time, a table being every `<table>.strings`, `.stringsdict`
   * and `.xcstrings` of that base name. `Localizable` when the call names none (or `tableName: nil`), else the text
   * of a literal `tableName: "…"`. Absent when `tableName:` is not a literal (a variable, an interpolation): the
   * table is unknown and then any table holding the key counts. Source: developer.apple.com/documentation/swiftui/
   * text/init(_:tablename:bundle:comment:) ("If nil, use the table in the Localizable.strings file").
   */
  lookupTable?: string;
  /**
   * With `lookupKey`: the call passes a translator `comment:` (`Text("Theme", comment: "…")`). Xcode's build extracts
   * such keys into the app's String Catalog, so a key missing from an `.xcstrings` table is a catalog not yet built.
   */
  commented?: boolean;
  /**
   * Set for a one-word `alt` / `title` / `aria-label` that names its own element: the stem of its `src` / `href` file,
   * its link's host, or its icon component (`<Img src="/images/spotify.png" alt="Spotify">`): a brand or product name.
   */
  ownName?: boolean;
  /** Set when the extractor already knows a suppression with a reason (Android Lint's `tools:ignore`). */
  suppressedBy?: string;
  /** With a Lint `suppressedBy`: the element whose `tools:ignore` it is (Extraction.lintIgnores names the same way). */
  suppressedAt?: string;
}

/**
 * The string table SwiftUI searches when a call names none, and for `tableName: nil` or `""` (Apple,
 * Text.init(_:tableName:bundle:comment:): "If nil, use the table in the Localizable.strings file"; Bundle
 * localizedString(forKey:value:table:): "If tableName is nil or is an empty string, the method attempts to use the
 * table in Localizable.strings").
 */
export const DEFAULT_TABLE = 'Localizable';

/**
 * A catalog key the code asks for by literal: i18next `t('checkout.cta')` / `<Trans i18nKey="…">`, react-intl
 * `<FormattedMessage id="…">` / `formatMessage({ id: '…' })`. Judged against the app's web base catalogs: a key none
 * holds shows the key itself (or, with a default, the default text in every locale).
 */
export interface KeyReference {
  /** 1-based line and UTF-16 column of the key literal's opening quote. */
  line: number;
  column: number;
  key: string;
  /** The call or component, for the message: `t()`, `<Trans i18nKey>`, `<FormattedMessage id>`, `formatMessage()`. */
  context: string;
  /** Whether the call gives text to show when the key is missing (a default value, `defaultMessage`, Trans children). */
  hasDefault: boolean;
}

/** The Android resource types a reference can name that hold text: `<string>`, `<plurals>`, `<string-array>` (R.array). */
export type AndroidResourceType = 'string' | 'plurals' | 'array';

/**
 * An Android text resource named by literal: `R.string.checkout_cta` / `R.plurals.x` / `R.array.x` in Kotlin or
 * Java (`stringResource(…)`, `getString(…)`, any use), `@string/x` / `@array/x` in resource XML outside `tools:`.
 * Platform resources (`android.R.string.x`, `@android:string/x`) are never references.
 */
export interface AndroidReference {
  /** 1-based line and UTF-16 column: the first character of `R…` in code, the value's opening quote in XML. */
  line: number;
  column: number;
  type: AndroidResourceType;
  name: string;
  /**
   * Code: the package of the R class named (a qualified `a.b.R`, an `import a.b.R [as X]`, else the file's own
   * package); `''` when it cannot be told (a wildcard import could supply R). Absent in XML, which resolves names
   * against the merged resources of the app and every library it uses.
   */
  rPackage?: string;
  /** How it is written, for the message: `R.string.x`, `@string/x in android:text`. */
  context: string;
}

/** What one extractor read from one file. */
export interface Extraction {
  candidates: Candidate[];
  /** Catalog keys asked for by literal (web extractors only). */
  keyReferences?: KeyReference[];
  /** Android text resources named by literal (Android extractors only). */
  androidReferences?: AndroidReference[];
  /** Translation calls whose key is computed (`t(name)`, `` t(`a.${b}`) ``): counted, not guessed. */
  computedKeys?: number;
  /**
   * Whether the file sets an i18next `keyPrefix` (`useTranslation(ns, { keyPrefix })`): its `t('x')` may mean
   * `<prefix>.x`, so a key also resolves when some catalog key ends in `.x`.
   */
  keyPrefix?: boolean;
  directives: Directive[];
  /**
   * Android XML: each element whose `tools:ignore` names HardcodedText (or `all`), as its local name and `android:id`
   * (`TextView#@+id/promo`, `LinearLayout`), in document order; absent when none. A commit adds one when the staged
   * file names an element more often than HEAD's.
   */
  lintIgnores?: string[];
  /** Syntax errors the parser recovered from (tree-sitter ERROR/MISSING nodes); literals inside may be missed. */
  syntaxErrors: Array<{ line: number; column: number }>;
  /** Set when the file could not be parsed at all (malformed XML): the gate reports it as a finding. */
  fatal?: { line: number; column: number; message: string };
}

// Flags: printf's `-+ #0`, POSIX `'` (grouping), java.util.Formatter's `,` (grouping) and `(` (negatives in parentheses).
const SPECIFIER = /%(?:%|(?:\d+\$)?[-+ #0',(]*\d*(?:\.\d+)?(?:hh|h|ll|l|q|L|z|t|j)?[@dDiuUxXoOfFeEgGcCsSpaA])/gu;

/**
 * Whether `text` has a letter (Unicode general category L) outside printf specifiers: "30", "·", "⬤", "00:00",
 * "%d", "%1$s / %2$s" are not user text to translate.
 */
export function hasLetter(text: string): boolean {
  return /\p{L}/u.test(text.replace(SPECIFIER, ''));
}

/** Candidates in source order (tree walks meet an outer call before the literals of its receiver). */
export function sortCandidates(list: Candidate[]): Candidate[] {
  return list.sort((a, b) => a.line - b.line || a.column - b.column);
}

/**
 * In a SwiftUI `lookupKey`: a `\(…)` whose value's type the file does not show, so its specifier (`%lld`, `%@`, `%lf`…)
 * is not known; any specifier fills it when the key is looked up (`keyMatcher`).
 */
export const UNKNOWN_SLOT = '%?';

/**
 * Whether a catalog key is the key SwiftUI builds for `lookupKey`: the same text and, slot by slot, the same specifier
 * (a positional `%1$@` counts as `%@`); an UNKNOWN_SLOT matches any specifier.
 */
export function keyMatcher(lookupKey: string): (catalogKey: string) => boolean {
  const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
  const any = SPECIFIER.source;
  const re = new RegExp(`^${lookupKey.split(UNKNOWN_SLOT).map(escape).join(`(?:${any})`)}$`, 'u');
  return (catalogKey) => re.test(catalogKey.replace(SPECIFIER, (m) => m.replace(/^%\d+\$/u, '%')));
}

/**
 * Printf specifiers of Apple and Android catalogs (`%@`, `%1$s`, `%lld`, `%.2f`) folded to `%@`, so the SwiftUI key
 * `"Hello \(name)"` (written `Hello %@`) matches a catalog key `Hello %lld` or `Hello %1$@`. `%%` stays.
 * Source: String Format Specifiers, Apple "String Programming Guide"; java.util.Formatter.
 */
export function foldSpecifiers(text: string): string {
  return text.split(UNKNOWN_SLOT).join('%@').replace(SPECIFIER, (m) => (m === '%%' ? '%%' : '%@'));
}
