// Locale names of catalog paths (Android resource qualifiers, Apple .lproj folders, gettext/ARB file names) turned
// into BCP 47 tags, and the CLDR plural categories each locale requires, from the pinned `make-plural` package
// (CLDR data, github.com/eemeli/make-plural) rather than whatever ICU the running Node ships.
import * as cldr from 'make-plural/pluralCategories';
import examples from 'make-plural/examples.json' with { type: 'json' };
import type { PluralCategory } from './model.js';

/** Legacy ISO 639 codes Android and Java still write (Locale keeps them for compatibility): `iw`, `in`, `ji`. */
const LEGACY: Record<string, string> = { iw: 'he', in: 'id', ji: 'yi', jw: 'jv', mo: 'ro' };

/** Pre-ISO `.lproj` names Xcode still accepts (developer.apple.com, "Language and Locale IDs"). */
const APPLE_NAMES: Record<string, string> = {
  english: 'en', french: 'fr', german: 'de', japanese: 'ja', spanish: 'es', italian: 'it', dutch: 'nl',
};

const TAG = /^[a-z]{2,3}(?:-[A-Z][a-z]{3})?(?:-(?:[A-Z]{2}|\d{3}))?$/;

/**
 * Normalise a locale written in any catalog convention to a BCP 47 tag:
 * `pt_BR`, `pt-rBR` (Android), `b+sr+Latn` (Android BCP 47 form), `zh-hans`, `iw` -> `pt-BR`, `pt-BR`, `sr-Latn`,
 * `zh-Hans`, `he`. Returns null when `raw` does not look like a locale at all (so `values-night` or `app.json` are
 * not taken for catalogs). Whether CLDR knows the language is a separate question: see `pluralRules`.
 */
export function normaliseLocale(raw: string): string | null {
  let s = raw.trim();
  if (Object.hasOwn(APPLE_NAMES, s.toLowerCase())) return APPLE_NAMES[s.toLowerCase()]!;
  if (s.startsWith('b+')) s = s.slice(2).replace(/\+/g, '-');
  s = s.replace(/_/g, '-');
  const parts = s.split('-').filter(Boolean);
  if (parts.length === 0) return null;
  const out: string[] = [];
  const lang = parts[0]!.toLowerCase();
  if (!/^[a-z]{2,3}$/.test(lang)) return null;
  out.push(Object.hasOwn(LEGACY, lang) ? LEGACY[lang]! : canonicalLanguage(lang));
  for (const p of parts.slice(1)) {
    if (/^r[A-Z]{2}$/.test(p)) out.push(p.slice(1));
    else if (/^[A-Za-z]{4}$/.test(p)) out.push(p[0]!.toUpperCase() + p.slice(1).toLowerCase());
    else if (/^[A-Za-z]{2}$/.test(p) || /^\d{3}$/.test(p)) out.push(p.toUpperCase());
    else return null;
  }
  const tag = out.join('-');
  return TAG.test(tag) ? tag : null;
}

/** ISO 639-2 three-letter codes with a two-letter equivalent (`srp` -> `sr`), via the CLDR alias data in Intl. */
function canonicalLanguage(lang: string): string {
  if (lang.length !== 3) return lang;
  try {
    return Intl.getCanonicalLocales(lang)[0] ?? lang;
  } catch {
    return lang;
  }
}

/** How strictly plural categories are required (gate option `plurals`). */
export type PluralPolicy = 'integers' | 'cldr' | 'off';

/** What the gate knows of a locale's plural rules. */
export interface PluralRules {
  /** The CLDR locale whose rules apply (`pt_PT` for pt-PT, `sr` for sr-Latn), or null when CLDR has none. */
  cldrLocale: string | null;
  /** Every CLDR cardinal category of the locale. */
  categories: PluralCategory[];
  /**
   * Categories a translation must give under `policy`: `cldr` every cardinal category; `integers` `other` plus
   * each category some integer count below 1,000,000 selects (CLDR's own examples; this leaves out e.g. French
   * `many`, reached only by exact millions, and Czech `many`, reached only by decimals); `off` none.
   */
  required: PluralCategory[];
  /**
   * `required` for a plural only ever read with an integer count (Android `<plurals>`: getQuantityString takes an
   * int): under `integers`, the categories some integer count below 1,000,000 selects (make-plural's CLDR examples),
   * so `other` is left out where no integer selects it: pl, ru, uk, be (one/few/many cover every integer; `other` is
   * only for fractions). The data decides, not a list: lt/cs/sk `other` has integers (0, 10-20...) and stays required.
   * `cldr` and `off`: as `required`.
   */
  integerRequired: PluralCategory[];
  /**
   * The same for ordinals (ICU `selectordinal`, i18next `key_ordinal_<category>`): every CLDR ordinal category, and
   * those required under `policy` (CLDR gives only integer examples for ordinals, so `integers` and `cldr` agree).
   */
  ordinal: { categories: PluralCategory[]; required: PluralCategory[] };
  /** `pseudo` when the tag is a configured pseudo-locale and the base locale's rules were used. */
  source: 'cldr' | 'pseudo';
}

type Examples = Record<string, { cardinal?: Record<string, string[]>; ordinal?: Record<string, string[]> }>;
const EX = examples as unknown as Examples;
const CATS = cldr as unknown as Record<string, { cardinal: PluralCategory[]; ordinal: PluralCategory[] } | undefined>;

function cldrKey(tag: string): string | null {
  const parts = tag.split('-');
  const lang = parts[0]!;
  const region = parts.find((p) => /^[A-Z]{2}$/.test(p));
  if (region && CATS[`${lang}_${region}`]) return `${lang}_${region}`;
  if (CATS[lang]) return lang;
  return null;
}

/**
 * The plural rules of `tag` (a normalised BCP 47 tag). Returns null when CLDR has no rules for its language and it
 * is not a pseudo-locale: callers report that as `unknown-locale`, never fall back to English silently.
 * Pseudo-locales (`pseudo`, matched by tag or language, e.g. `lol-US`, `tlh-AA`, `qps-ploc`, `en-XA`, `ar-XB`):
 * Android's `en-XA`/`ar-XB` keep their language's rules; others take `baseLocale`'s rules.
 */
export function pluralRules(
  tag: string,
  policy: PluralPolicy,
  pseudo: readonly string[] = [],
  baseLocale = 'en',
): PluralRules | null {
  const lang = tag.split('-')[0]!;
  const isPseudo = pseudo.some((p) => p === tag || p === lang);
  let key = cldrKey(tag);
  let source: PluralRules['source'] = 'cldr';
  if (isPseudo) {
    const region = tag.split('-')[1];
    if (!(key && (region === 'XA' || region === 'XB'))) key = cldrKey(baseLocale);
    source = 'pseudo';
  }
  if (!key) return null;
  const requiredOf = (type: 'cardinal' | 'ordinal'): { categories: PluralCategory[]; required: PluralCategory[]; integerRequired: PluralCategory[] } => {
    const categories = [...CATS[key]![type]];
    if (policy === 'off') return { categories, required: [], integerRequired: [] };
    if (policy === 'cldr') return { categories, required: categories, integerRequired: categories };
    const ex = EX[key]?.[type] ?? EX[lang]?.[type] ?? {};
    const byIntegers = categories.filter((c) => (ex[c] ?? []).some((n) => /^\d+$/.test(n) && Number(n) < 1_000_000));
    return { categories, required: categories.filter((c) => c === 'other' || byIntegers.includes(c)), integerRequired: byIntegers };
  };
  const { categories, required, integerRequired } = requiredOf('cardinal');
  const o = requiredOf('ordinal');
  return { cldrLocale: key, categories, required, integerRequired, ordinal: { categories: o.categories, required: o.required }, source };
}

/**
 * Whether exact selectors (`=1`, `=0`) cover plural `category` of `rules`' locale: every integer example CLDR gives
 * for the category (make-plural examples, below 1,000,000) has an exact selector. German `one` is only 1, so `=1`
 * covers it; Russian `one` is 1, 21, 31… and is not covered by `=1`. `type` picks cardinal (default) or ordinal examples.
 */
export function coveredByExact(rules: PluralRules, category: PluralCategory, exact: ReadonlySet<number>, type: 'cardinal' | 'ordinal' = 'cardinal'): boolean {
  if (!rules.cldrLocale || exact.size === 0) return false;
  const ex = EX[rules.cldrLocale]?.[type] ?? EX[rules.cldrLocale.split('_')[0]!]?.[type] ?? {};
  const ints = (ex[category] ?? []).filter((n) => /^\d+$/.test(n)).map(Number).filter((n) => n < 1_000_000);
  return ints.length > 0 && ints.every((n) => exact.has(n)) && !(ex[category] ?? []).some((n) => n.includes('…'));
}

/** Whether `s` is a CLDR plural category name. */
export function isPluralCategory(s: string): s is PluralCategory {
  return s === 'zero' || s === 'one' || s === 'two' || s === 'few' || s === 'many' || s === 'other';
}
