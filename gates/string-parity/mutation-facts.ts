// What the string-parity gate's own reading of a catalog says about each line of a translation, for its mutation
// operators (mutations.ts): which translated texts have a base entry the gate compares them with, how strictly, and
// which plural categories the locale's CLDR rules (locale.ts, the same `pluralRules` the checks use) require under
// the gate's config. Policy data only: it never runs the checks, so an operator cannot learn from it where the
// checks happen to fire. Loaded on demand (it loads the parsers), by `loopgates mutate` only.
import type { GateContext } from '../../core/types.js';
import { discoverCatalogs, loadCatalog, type DiscoveryOptions } from './catalogs.js';
import type { StringParityConfig } from './config.js';
import { RULES, type RuleId } from './defaults.js';
import { coveredByExact, pluralRules, type PluralRules } from './locale.js';
import type { CatalogEntry, PluralCategory } from './model.js';
import { isFormatString, parsePrintf } from './placeholders/printf.js';
import { parseIcu } from './placeholders/icu.js';
import { tagsInText, type MarkupTag } from './placeholders/markup.js';

/** One line of a translation that holds translated text the gate judges against a base entry. Lines are 1-based. */
export interface LineFact {
  key: string;
  locale: string;
  grammar: CatalogEntry['grammar'];
  /** 1-based column where the translated text starts on this line (a placeholder left of it is in the key). */
  column: number;
  /** The translated text as the app sees it (escapes resolved). */
  text: string;
  /**
   * The gate compares this text's arguments with the base both ways (a plain string, an array item, an Apple format
   * holding `%#@var@`), so a deleted argument is a defect. False for plural and device variants, which may leave the
   * count out: only an argument the base does not pass, or a retyped one, is a defect there.
   */
  exact: boolean;
  /** The base text(s) this line is compared with hold placeholders (printf specifiers, ICU or i18next arguments). */
  baseHasArgs: boolean;
  /** A plural variant's selector (`one`, `few`, `=1`), when the line is one. */
  selector?: string;
  /**
   * Plural categories whose absence from this line's plural the gate must report: the locale's required categories
   * (gate option `plurals`) that no exact selector of the plural covers; empty when the gate does not check this
   * plural's categories (no base plural, unknown locale, `plurals: off`).
   */
  required: PluralCategory[];
  /** Where the gate reports a missing category of this line's plural (the `<plurals>` element, the Apple variable). */
  pluralLine?: number;
  /** ICU lines: base arguments used as `plural`, and the categories a plural of them must keep given its selectors. */
  icuPlurals?: { args: ReadonlySet<string>; required: (selectors: readonly string[]) => PluralCategory[] };
}

/**
 * A line where a translated plain string starts whose base string has markup the gate compares (checks.ts
 * markupFindings: not ICU, gettext or ARB): the tags of the base, balanced, by name. 1-based column of the text.
 */
export interface MarkupLineFact {
  key: string;
  locale: string;
  column: number;
  /** Lower-case names of the base's tags (`em`, `b`, `xliff:g`, `0`). */
  names: ReadonlySet<string>;
}

/**
 * A translated plain string (`<string>`, a JSON/ARB/`.strings` value) whose base entry is a translatable string: where
 * its entry starts (Android: the element's `<`) and where its value starts (JSON, ARB, `.strings`: the opening `"`).
 */
export interface StringFact {
  key: string;
  locale: string;
  line: number;
  column: number;
  valueLine?: number;
  valueColumn?: number;
  /** The translation's text (escapes resolved) and whether the base's text is non-empty. */
  text: string;
  baseHasText: boolean;
}

/** The facts of one catalog file. `isBase`: the file is its group's base (a template); translations only are mutated. */
export interface StringParityFacts {
  catalog: boolean;
  isBase: boolean;
  lines: ReadonlyMap<number, LineFact>;
  /** Lines of translated strings whose base has markup, by line (absent: none). */
  markupLines?: ReadonlyMap<number, MarkupLineFact>;
  /** The group's format (`android-xml`, `i18next-json`, `icu-json`, `arb`, `apple-strings`…), for a catalog. */
  format?: string;
  /** Translated plain strings with a translatable base string, in file order (absent: none). */
  strings?: readonly StringFact[];
  /** Rules that refuse a commit under the gate's config (error severity, index.ts refusingRules). */
  refusing?: ReadonlySet<string>;
}

const NONE: StringParityFacts = { catalog: false, isBase: false, lines: new Map() };

/** Whether every close tag closes the innermost open one and none stays open (as markup.ts judges a base). */
function balancedTags(tags: readonly MarkupTag[]): boolean {
  const stack: string[] = [];
  for (const t of tags) {
    if (t.kind === 'open') stack.push(t.name);
    else if (t.kind === 'close' && stack.pop() !== t.name) return false;
  }
  return stack.length === 0;
}

function discoveryOptions(c: StringParityConfig): DiscoveryOptions {
  // As the gate discovers (index.ts): every path, so a group keeps its base whatever the include/exclude filters say.
  return { include: [], exclude: [], jsonFormat: c.jsonFormat, ...(c.developmentLanguage ? { developmentLanguage: c.developmentLanguage } : {}), ...(c.baseLocale ? { baseLocale: c.baseLocale } : {}) };
}

const FLUTTER_EXACT: Record<string, PluralCategory> = { '=0': 'zero', '=1': 'one', '=2': 'two' };

/** Categories of `rules.required` that a plural with these selectors must keep (as checks.ts `requiredMissing` asks). */
function mustKeep(rules: PluralRules | null, selectors: readonly string[], flutter: boolean, intCounts = false): PluralCategory[] {
  if (!rules) return [];
  // gen-l10n fills `zero`/`one`/`two` from `=0`/`=1`/`=2`, so those exact selectors stand for the categories.
  const have = selectors.map((s) => (flutter ? (Object.hasOwn(FLUTTER_EXACT, s) ? FLUTTER_EXACT[s]! : s) : s));
  const exact = new Set(have.filter((s) => /^=\d+$/.test(s)).map((s) => Number(s.slice(1))));
  const stands = new Set(flutter ? selectors.map((s) => (Object.hasOwn(FLUTTER_EXACT, s) ? FLUTTER_EXACT[s] : undefined)).filter((c): c is PluralCategory => !!c) : []);
  return (intCounts ? rules.integerRequired : rules.required).filter((c) => !stands.has(c) && !coveredByExact(rules, c, exact));
}

/** The printf family of gettext formats, whose specifiers mutations.ts PRINTF finds; the brace family, ICU_ARG's `{name}`. */
const GETTEXT_PRINTF = new Set(['c', 'objc', 'python', 'javascript', 'php']);
const GETTEXT_BRACE = new Set(['python-brace', 'csharp', 'perl-brace']);

/**
 * Facts of a PO translation's messages with format flags: each is judged against its own msgid (gettextFindings), so
 * a translated, non-fuzzy, single-form message whose msgid reads arguments is a place for a deleted placeholder.
 */
function gettextFacts(loaded: Awaited<ReturnType<typeof loadCatalog>>): Map<number, LineFact> {
  const lines = new Map<number, LineFact>();
  for (const tr of loaded.locales) {
    for (const e of tr.entries) {
      const g = e.gettext;
      if (!g || e.state === 'fuzzy' || g.msgidPlural !== undefined || e.kind !== 'string') continue;
      const printf = g.formats.some((f) => GETTEXT_PRINTF.has(f));
      const brace = g.formats.some((f) => GETTEXT_BRACE.has(f));
      if (printf === brace) continue;
      const line = g.lines[0] ?? e.valueLine ?? e.line;
      const baseHasArgs = printf ? /%(?:\d+\$)?[sdif]/.test(g.msgid) : /\{[A-Za-z_0-9]+\}/.test(g.msgid);
      if (!lines.has(line)) lines.set(line, { key: e.key, locale: tr.locale, grammar: printf ? 'printf-apple' : 'icu', column: 1, text: e.value, exact: true, baseHasArgs, required: [] });
    }
  }
  return lines;
}

/**
 * The facts of `path` as the gate configured by `ctx.config` reads it in `ctx.ws` (discovery, base, locale, plural
 * rules). A path discovery does not hold as a catalog gives `catalog: false` and no lines.
 */
export async function stringParityFacts(ctx: GateContext<StringParityConfig>, path: string): Promise<StringParityFacts> {
  const config = ctx.config;
  const set = await discoverCatalogs(ctx.ws, discoveryOptions(config));
  const hit = set.byPath.get(path);
  if (!hit) return NONE;
  const { group, file } = hit;
  if (group.format === 'gettext-po' && !file.isBase) {
    const own = gettextFacts(await loadCatalog(ctx.ws, file));
    if (!group.base || own.size) return { catalog: true, isBase: false, lines: own };
  }
  // An Android translation also takes its keys from the other default files of its folder (Localazy's
  // values/localazy.xml + values-de/translations.xml has no same-name base): the judge compares with those, so
  // they are the base here too.
  const siblings = group.format === 'android-xml' && !file.isBase ? await (await import('./judge-files.js')).androidSiblingBases(ctx.ws, set, group) : undefined;
  if (!group.base && !siblings?.size) return { catalog: true, isBase: file.isBase, lines: new Map() };
  const loaded = await loadCatalog(ctx.ws, file);
  const baseLoaded = !group.base ? undefined : group.base.path === path ? loaded : await loadCatalog(ctx.ws, group.base);
  const base = baseLoaded ? (baseLoaded.locales.find((l) => l.locale === group.baseLocale) ?? baseLoaded.locales[0]) : undefined;
  const lines = new Map<number, LineFact>();
  if (!base && !siblings?.size) return { catalog: true, isBase: file.isBase, lines };
  const baseEntry = (key: string) => base?.byKey.get(key) ?? siblings?.get(key)?.entry;
  const translations = group.format === 'xcstrings' ? loaded.locales.filter((l) => l !== base) : file.isBase ? [] : loaded.locales;
  const flutter = group.format === 'arb';
  const markupLines = new Map<number, MarkupLineFact>();
  const strings: StringFact[] = [];
  const comparesMarkup = group.format !== 'gettext-po' && group.format !== 'arb';
  for (const tr of translations) {
    const rules = pluralRules(config.localeAliases[tr.locale] ?? tr.locale, config.plurals, config.pseudoLocales, group.baseLocale);
    for (const e of tr.entries) {
      const b = baseEntry(e.key);
      // A stale key (not in the base) or an untranslatable one is reported as such, never compared: no place here.
      if (!b || !b.translatable) continue;
      if (comparesMarkup && e.kind === 'string' && b.kind === 'string' && e.translatable && e.state !== 'fuzzy' && b.grammar !== 'icu' && b.grammar !== 'icu-arb' && e.value !== '') {
        const tags = [...(b.markup ?? []), ...tagsInText(b.value)];
        if (tags.length && balancedTags(tags)) {
          const line = e.valueLine ?? e.line;
          if (!markupLines.has(line)) markupLines.set(line, { key: e.key, locale: tr.locale, column: e.valueColumn ?? e.column, names: new Set(tags.map((t) => t.name)) });
        }
      }
      if (e.kind === 'string' && b.kind === 'string' && e.translatable && e.state !== 'fuzzy') {
        strings.push({ key: e.key, locale: tr.locale, line: e.line, column: e.column, ...(e.valueLine !== undefined ? { valueLine: e.valueLine, valueColumn: e.valueColumn ?? 1 } : {}), text: e.value, baseHasText: b.value !== '' });
      }
      if (e.grammar === 'none') continue;
      const add = (at: { line: number; column: number; text?: string }, fact: Omit<LineFact, 'key' | 'locale' | 'grammar' | 'column' | 'text'>) => {
        if (!lines.has(at.line)) lines.set(at.line, { key: e.key, locale: tr.locale, grammar: b.grammar, column: at.column, text: at.text ?? e.value, ...fact });
      };
      if (b.grammar === 'printf-java' || b.grammar === 'printf-apple') {
        const dialect = b.grammar === 'printf-java' ? 'java' : 'apple';
        const fmt = (t: string) => isFormatString(parsePrintf(t, dialect));
        const baseVariants = Object.values(b.plurals ?? {});
        const bVars = b.variables && Object.keys(b.variables).length ? b.variables : undefined;
        const tVars = e.variables && Object.keys(e.variables).length ? e.variables : undefined;
        const unionArgs = fmt(b.value) || baseVariants.some((v) => fmt(v.text)) || Object.values(bVars ?? {}).some((v) => Object.values(v.plurals).some((x) => fmt(x.text)));
        const main = { line: e.valueLine ?? e.line, column: e.valueColumn ?? e.column, text: e.value };
        // Variants first: in .xcstrings a plural's value line is its first variant's line.
        if (tVars) {
          for (const tv of Object.values(tVars)) {
            const required = bVars ? mustKeep(rules, Object.keys(tv.plurals), false) : [];
            for (const [sel, v] of Object.entries(tv.plurals)) add(v, { exact: false, baseHasArgs: unionArgs || !!bVars, selector: sel, required, pluralLine: tv.line });
          }
          if (bVars) add(main, { exact: true, baseHasArgs: true, required: [] });
        } else if (e.kind === 'plural' && e.plurals) {
          // Android's count is an int (checks.ts PairContext intCounts).
          const required = b.plurals ? mustKeep(rules, Object.keys(e.plurals), false, group.format === 'android-xml') : [];
          for (const [sel, v] of Object.entries(e.plurals)) add(v, { exact: false, baseHasArgs: unionArgs, selector: sel, required, pluralLine: e.line });
        } else if (e.kind === 'string' && bVars) {
          add(main, { exact: false, baseHasArgs: true, required: [] });
        } else if (e.kind === 'string' && b.kind === 'string' && fmt(b.value)) {
          add(main, { exact: true, baseHasArgs: true, required: [] });
        }
        if (e.items && b.items) {
          e.items.forEach((item, n) => {
            const bi = b.items![n];
            if (bi && fmt(bi.text)) add(item, { exact: true, baseHasArgs: true, required: [] });
          });
        }
      } else if (b.grammar === 'icu' || b.grammar === 'icu-arb') {
        const parsed = parseIcu(b.value, b.grammar !== 'icu-arb');
        const args = new Set(parsed.ok ? parsed.args.filter((a) => a.kind === 'plural').map((a) => a.name) : []);
        add({ line: e.valueLine ?? e.line, column: e.valueColumn ?? e.column }, {
          exact: true,
          baseHasArgs: parsed.ok && parsed.args.length > 0,
          required: [],
          icuPlurals: { args, required: (selectors) => mustKeep(rules, selectors, flutter) },
        });
      } else if (b.grammar === 'i18next') {
        if (e.kind === 'plural' && e.plurals) {
          const required = mustKeep(rules, Object.keys(e.plurals), false);
          for (const [sel, v] of Object.entries(e.plurals)) add(v, { exact: false, baseHasArgs: true, selector: sel, required, pluralLine: e.line });
        } else add({ line: e.valueLine ?? e.line, column: e.valueColumn ?? e.column }, { exact: true, baseHasArgs: /\{\{/.test(b.value), required: [] });
      }
    }
  }
  const refusing = new Set((Object.keys(RULES) as RuleId[]).filter((r) => (config.rules[r] ?? RULES[r]) === 'error'));
  return { catalog: true, isBase: file.isBase, lines, ...(markupLines.size ? { markupLines } : {}), format: group.format, ...(strings.length ? { strings } : {}), refusing };
}
