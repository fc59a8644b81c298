// Shared shapes of the string-parity gate: catalog formats, catalog files and the parsed entries every parser yields.
// Formats: Android resources (developer.android.com/guide/topics/resources/string-resource), Apple .strings /
// .stringsdict / .xcstrings (developer.apple.com/documentation/xcode/localization), i18next JSON (i18next.com),
// FormatJS/ICU JSON (formatjs.github.io), gettext .po (gnu.org/software/gettext/manual), Flutter .arb (github.com/google/app-resource-bundle).

import type { GettextFormat } from './placeholders/gettext.js';
import type { MarkupTag } from './placeholders/markup.js';

/** Every catalog format the gate reads. */
export type CatalogFormat =
  | 'android-xml'
  | 'apple-strings'
  | 'apple-stringsdict'
  | 'xcstrings'
  | 'i18next-json'
  | 'icu-json'
  | 'gettext-po'
  | 'arb';

/**
 * Placeholder grammar a value is written in: printf (Android: java.util.Formatter; Apple: String Format Specifiers),
 * ICU MessageFormat (`icu`; `icu-arb` is Flutter's ICU where `'` is literal unless l10n.yaml `use-escaping: true`),
 * i18next `{{var}}`, or none.
 */
export type Grammar = 'printf-java' | 'printf-apple' | 'icu' | 'icu-arb' | 'i18next' | 'none';

/** CLDR plural categories (unicode.org/reports/tr35/tr35-numbers.html#Language_Plural_Rules). */
export type PluralCategory = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
export const PLURAL_CATEGORIES: readonly PluralCategory[] = ['zero', 'one', 'two', 'few', 'many', 'other'];

/** One text of an entry at its place in the file. Lines and columns are 1-based. */
export interface Variant {
  /** The text as the app sees it (escapes resolved). */
  text: string;
  /** The text as written in the file, when the format has escapes that matter (Android apostrophes). */
  raw?: string;
  /** Markup elements the parser read around the text (Android styled text `<b>`, `<xliff:g>`); absent when none. */
  markup?: MarkupTag[];
  line: number;
  column: number;
}

/** A set of plural variants keyed by selector: a CLDR category or an exact selector such as `=0` or `zero`. */
export type PluralVariants = Record<string, Variant>;

/**
 * A substitution variable of an Apple plural rule: `.stringsdict` `NSStringFormatSpecTypeKey` variables and
 * `.xcstrings` `substitutions`. `spec` is the printf conversion the count is read with (`lld`, `d`, `@`).
 */
export interface PluralVariable {
  spec: string;
  /** `.xcstrings` `argNum` (1-based) when given. */
  argNum?: number;
  plurals: PluralVariants;
  line: number;
  column: number;
}

/**
 * One key of a catalog in one locale.
 * - `kind` `string`: `value` is the text.
 * - `kind` `plural`: `plurals` holds the variants; `value` is the `other` variant (else the first).
 * - `kind` `array` (Android `string-array`): `items` holds the items; `value` the items joined by newlines.
 * - Apple `%#@var@` formats: `value` is the format, `variables` its plural rules.
 * - `.xcstrings` device variations: `devices` (iphone, ipad, mac, other...).
 * `line`/`column` (1-based) point at the entry's key or element in the file.
 */
export interface CatalogEntry {
  key: string;
  kind: 'string' | 'plural' | 'array';
  value: string;
  /** `value` as written (escapes unresolved), when it differs in a way a check needs. */
  raw?: string;
  /** Markup elements around `value` that the parser read (Android styled text); absent when none. */
  markup?: MarkupTag[];
  line: number;
  column: number;
  /** 1-based line/column of the value itself when it sits elsewhere than the key (e.g. `.xcstrings`). */
  valueLine?: number;
  valueColumn?: number;
  grammar: Grammar;
  plurals?: PluralVariants;
  /** An ordinal plural (i18next `key_ordinal_<category>`): CLDR's ordinal rules apply to `plurals`, not the cardinal ones. */
  ordinal?: true;
  /**
   * A translated gettext plural (`msgid_plural`, `plurals` keyed `0`, `1`, … by msgstr index): the `nplurals` of the
   * file's `Plural-Forms` header, the number of forms msgfmt -c requires.
   */
  pluralForms?: number;
  items?: Variant[];
  variables?: Record<string, PluralVariable>;
  devices?: Record<string, Variant>;
  /** false for Android `translatable="false"`, `.xcstrings` `shouldTranslate: false`. Default true. */
  translatable: boolean;
  /** Android: the Lint issue ids `tools:ignore` names on the element or its `<resources>` (lowercased); absent when none. */
  lintIgnore?: readonly string[];
  /**
   * Review state: `.xcstrings` `stringUnit.state` (`translated`, `needs_review`, `new`, `stale`), `fuzzy` for a gettext
   * `#, fuzzy` entry. Absent when the format has none.
   */
  state?: string;
  /** `.xcstrings` `extractionState` of the key (`manual`, `stale`, `extracted_with_value`...), on every locale's entry. */
  extractionState?: string;
  /** Translator comment or description when the format carries one (`.xcstrings` comment, ARB `@key.description`). */
  comment?: string;
  /**
   * A translated gettext message with format flags: what msgfmt -c --check-format compares (msgstr[j] against msgid or
   * msgid_plural, in each flag's grammar). `often`: pluralDistribution of the file's Plural-Forms. Lines 1-based.
   */
  gettext?: { formats: GettextFormat[]; unchecked: string[]; msgid: string; msgidPlural?: string; msgstr: string[]; lines: number[]; often: boolean[] | null };
  /** ARB `@key.placeholders` names declared in the metadata (template only). */
  declaredPlaceholders?: string[];
}

/** A problem met while parsing (the file or one entry cannot be read as the format says). Lines 1-based. */
export interface ParseProblem {
  /** `duplicate-key`: a gettext message, or a name in one JSON object (ARB, i18next, ICU, .xcstrings), defined twice (warning); `duplicate-resource`: an Android resource (type and name) defined twice in one values file (error: aapt2 fails the build). */
  rule: 'unparsable' | 'android-unescaped-apostrophe' | 'duplicate-key' | 'duplicate-resource';
  message: string;
  line: number;
  column: number;
  severity: 'error' | 'warning';
  /** The key concerned, when known. */
  key?: string;
}

/** The entries of one locale read from one file. `entries` keeps file order; keys are unique (last wins). */
export interface LocaleCatalog {
  /** Normalised BCP 47 tag (`pt-BR`, `sr-Latn`, `zh-Hans`); the base locale's tag for `Base.lproj`. */
  locale: string;
  entries: CatalogEntry[];
  byKey: Map<string, CatalogEntry>;
}

/** One parsed catalog file: every locale it holds (one for most formats, all for `.xcstrings`) and its problems. */
export interface LoadedCatalog {
  path: string;
  format: CatalogFormat;
  locales: LocaleCatalog[];
  problems: ParseProblem[];
  /** gettext `Plural-Forms` nplurals, when the header gives it. */
  nplurals?: number;
}

/**
 * Build a LocaleCatalog from entries in file order (later duplicates win, as Android and Apple do at run time).
 * `byKey` is built on first read (an enumerable getter, so spreads, structured clones and equality see a plain
 * field): a translation is judged by walking its `entries` against the base's index, so most translations' maps
 * were never read (building them was ~35 ms of a 2.3 s main-thread profile of the whole l10n corpus). `entries` must not
 * change once `byKey` has been read.
 */
export function localeCatalog(locale: string, entries: CatalogEntry[]): LocaleCatalog {
  let byKey: Map<string, CatalogEntry> | undefined;
  return {
    locale,
    entries,
    get byKey(): Map<string, CatalogEntry> {
      if (!byKey) {
        byKey = new Map();
        for (const e of entries) byKey.set(e.key, e);
      }
      return byKey;
    },
  };
}

/**
 * 1-based line and column of `offset` in `text`, using a precomputed line-start table: O(1) when offsets come in
 * order (the line of the previous call, or the one after it, is tried first), else a binary search (O(log n)).
 */
export function lineIndex(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const last = starts.length - 1;
  let hint = 0;
  return (offset: number) => {
    let lo: number;
    if (offset >= starts[hint]! && (hint === last || offset < starts[hint + 1]!)) lo = hint;
    else if (hint < last && offset >= starts[hint + 1]! && (hint + 1 === last || offset < starts[hint + 2]!)) lo = hint + 1;
    else {
      lo = 0;
      let hi = last;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid]! <= offset) lo = mid;
        else hi = mid - 1;
      }
    }
    hint = lo;
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  };
}
