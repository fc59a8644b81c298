// The parity checks: one translation's entries against the base's, per placeholder grammar (printf, ICU, i18next),
// plural categories against CLDR (locale.ts), and catalog policy (missing, extra, empty, needs review).
import type { CatalogEntry, Grammar, LocaleCatalog, PluralVariable, PluralVariants, Variant } from './model.js';
import * as cardinals from 'make-plural/cardinals';
import { coveredByExact, isPluralCategory, type PluralRules } from './locale.js';
import { argTypes, isFormatString, parsePrintf, type PrintfResult, type PrintfSpec } from './placeholders/printf.js';
import { icuErrorText, parseIcu, type IcuResult } from './placeholders/icu.js';
import { parseI18next } from './placeholders/i18next.js';
import { markupDifference, markupInTranslation, tagsInText, type MarkupTag } from './placeholders/markup.js';
import { checkGettextMessage } from './placeholders/gettext.js';
import type { RuleId } from './defaults.js';

export { RULES, type RuleId } from './defaults.js';

/** A finding before the gate's severity policy is applied. Lines/columns 1-based. */
export interface RawFinding {
  rule: RuleId;
  line: number;
  column: number;
  message: string;
}

/** What the checks know of the translation being judged. */
export interface PairContext {
  locale: string;
  baseLocale: string;
  /** Plural rules of `locale`, or null when unknown (plural categories are then not checked). */
  rules: PluralRules | null;
  /**
   * Plural rules of `baseLocale`. An i18next base family lacking a category these require (linkwarden's plain key
   * `by_author_and_other`, no `_one`) is no complete plural: a translation is judged against the categories the base has.
   */
  baseRules?: PluralRules | null;
  /**
   * Flutter gen-l10n (ARB): `=0`, `=1`, `=2` fill Intl.pluralLogic's `zero`, `one`, `two` arguments, which then also
   * serve those CLDR categories (flutter/packages/flutter_tools/lib/src/localizations/gen_l10n.dart `pluralCases`).
   */
  flutterPlurals?: boolean;
  /**
   * Which `<tags>` are placeholders: `all` (FormatJS rich text: a tag without a value throws), `numeric` (Lingui's
   * `<0>` component slots), `none` (Flutter, where `<br>` is plain text). Default `all`.
   */
  tags?: 'all' | 'numeric' | 'none';
  /**
   * FormatJS / react-intl JSON: an empty message is missing at run time (react-intl falls back to the default message,
   * the base text), so an empty translation is reported as a missing key, not as one that dropped every placeholder.
   */
  emptyIsMissing?: boolean;
  /**
   * Compare markup outside ICU (which compares its own tags): react-i18next `<Trans>` slots in i18next JSON, HTML in
   * Apple `.strings` / `.xcstrings`, Android styled text. Off for gettext PO and ARB.
   */
  markup?: boolean;
  /**
   * Android `<plurals>`: the count is always an int (Resources.getQuantityString(int id, int quantity)), so a plural
   * must give the categories integers select (PluralRules.integerRequired): `other` is not required where no
   * integer selects it (Localazy writes pl/ru/uk/be plurals without it).
   */
  intCounts?: boolean;
}

const pos = (e: CatalogEntry) => ({ line: e.valueLine ?? e.line, column: e.valueColumn ?? e.column });

/** What a check returns when it finds nothing: one shared frozen array (most entries find nothing). */
const NONE: readonly RawFinding[] = Object.freeze([]);

/** `int`: only integer counts reach the rules (printf); `num`: any JavaScript number (ICU, i18next). */
type CountSampling = 'int' | 'num';
// By plural function: make-plural shares one function among the locales whose rules are the same (en, de, nl, sv...),
// and the forms depend only on the function and the sampling.
const countFormsMemo = new Map<(n: number) => string, Partial<Record<CountSampling, ReadonlyMap<string, string[]>>>>();
const COUNT_FORMS = ['few', 'many', 'other'];
const UNKNOWN_COUNT_FORMS: ReadonlyMap<string, string[]> = new Map(COUNT_FORMS.map((c) => [c, []]));
let samples: { int: number[]; num: number[] } | undefined;
/**
 * Which plural forms of a translation must show what the base's `other` form shows: `few`, `many` and `other`, the
 * categories that (unlike `zero`, `one`, `two` and exact `=N`, which may word their number: "Eine Stunde") are
 * chosen for many different counts, so a text without the number reads the same for all of them. Per locale
 * (`rules.cldrLocale`, CLDR rules of the pinned make-plural), such a form is one that at least two sample counts
 * select: integers 0-299 and 1-5 million, plus for `num` (ICU, i18next: any JavaScript number) 0.1-30.5. `int` is
 * printf (Android getQuantityString takes an int; Apple plural rules are read with an integer spec), where Polish,
 * Russian or Czech forms that only decimals select are never shown. Welsh `few` (only 3) and `many` (only 6) are
 * thereby lenient. Returns category -> its first three sample counts; unknown rules: `few`, `many`, `other` with no
 * samples.
 */
function countForms(rules: PluralRules | null, sampling: CountSampling): ReadonlyMap<string, string[]> {
  // Asked for every plural form of every entry: answered from the rules object (one per judged locale) when it can.
  const held = rules ? countFormsByRules.get(rules) : undefined;
  const hit = held?.[sampling];
  if (hit) return hit;
  const forms = countFormsOf(rules, sampling);
  if (rules) {
    if (held) held[sampling] = forms;
    else countFormsByRules.set(rules, { [sampling]: forms });
  }
  return forms;
}

const countFormsByRules = new WeakMap<PluralRules, Partial<Record<CountSampling, ReadonlyMap<string, string[]>>>>();

/** countForms, computed (memoized by plural function and sampling). */
function countFormsOf(rules: PluralRules | null, sampling: CountSampling): ReadonlyMap<string, string[]> {
  const key = rules?.cldrLocale;
  const fn = key ? (cardinals as unknown as Record<string, ((n: number) => string) | undefined>)[key] ?? (cardinals as unknown as Record<string, ((n: number) => string) | undefined>)[key.split('_')[0]!] : undefined;
  if (!key || !fn) return UNKNOWN_COUNT_FORMS;
  let memo = countFormsMemo.get(fn);
  let forms = memo?.[sampling];
  if (forms) return forms;
  if (!samples) {
    // CLDR cardinal rules test n, n % 10, n % 100 and n % 1000000 (the millions of fr/es/it/pt/ca `many`): 0-299 and
    // five millions give every category of every make-plural locale the same forms and first samples as 0-1200 did
    // (checked on all 448 function x sampling pairs), at a quarter of the calls.
    const ints = [...Array.from({ length: 300 }, (_, i) => i), 1e6, 2e6, 3e6, 4e6, 5e6];
    const decimals = Array.from({ length: 31 }, (_, i) => [i + 0.1, i + 0.5]).flat();
    samples = { int: ints, num: [...ints, ...decimals] };
  }
  const hits = new Map<string, number[]>();
  for (const n of samples[sampling]) {
    const c = fn(n);
    if (!COUNT_FORMS.includes(c)) continue;
    const list = hits.get(c) ?? [];
    list.push(n);
    hits.set(c, list);
  }
  forms = new Map([...hits].filter(([, ns]) => ns.length >= 2).map(([c, ns]) => [c, ns.slice(0, 3).map(String)]));
  if (!memo) countFormsMemo.set(fn, (memo = {}));
  memo[sampling] = forms;
  return forms;
}

/** `for counts such as 0, 2, 3` (the form's first sample counts), or `for many counts` when the rules are unknown. */
function countsPhrase(examples: string[]): string {
  return examples.length ? `for counts such as ${examples.join(', ')}` : 'for many different counts';
}

// Base texts are compared with every locale: parse each once (keyed by text, one map per grammar so that the key is
// the text itself, whose hash V8 keeps; bounded by the base size).
const printfJavaCache = new Map<string, PrintfResult>();
const printfAppleCache = new Map<string, PrintfResult>();
const icuQuotesCache = new Map<string, IcuResult>();
const icuArbCache = new Map<string, IcuResult>();
// Shared by every text with no `%`; never mutated (results are only read here).
const NO_PRINTF: PrintfResult = { specs: [], invalid: [], hasEscapedPercent: false };

function printfOf(text: string, grammar: Grammar): PrintfResult | null {
  if (grammar !== 'printf-java' && grammar !== 'printf-apple') return null;
  if (!text.includes('%')) return NO_PRINTF;
  const cache = grammar === 'printf-java' ? printfJavaCache : printfAppleCache;
  let r = cache.get(text);
  if (!r) {
    r = parsePrintf(text, grammar === 'printf-java' ? 'java' : 'apple');
    if (cache.size > 50_000) cache.clear();
    cache.set(text, r);
  }
  return r;
}

/** A translation's printf text: parsed each time (translations rarely repeat, so a cache would only churn). */
function printfOfTranslation(text: string, grammar: Grammar): PrintfResult {
  if (!text.includes('%')) return NO_PRINTF;
  return parsePrintf(text, grammar === 'printf-java' ? 'java' : 'apple');
}

function icuOf(text: string, quotes: boolean): IcuResult {
  const cache = quotes ? icuQuotesCache : icuArbCache;
  let r = cache.get(text);
  if (!r) {
    r = parseIcu(text, quotes);
    if (cache.size > 50_000) cache.clear();
    cache.set(text, r);
  }
  return r;
}

const argTypesCache = new WeakMap<PrintfResult, Map<number, Set<string>>>();
/** argTypes of a base result, computed once per result (base results are shared by every locale). */
function baseArgTypes(r: PrintfResult): Map<number, Set<string>> {
  let t = argTypesCache.get(r);
  if (!t) argTypesCache.set(r, (t = argTypes(r)));
  return t;
}

/** What the printf checks need of a base entry, derived once per entry and shared by every locale compared with it. */
interface PrintfBase {
  // The inputs it was derived from: an entry changed since (tests may reuse objects) is derived again.
  value: string;
  grammar: Grammar;
  plurals: PluralVariants | undefined;
  variables: CatalogEntry['variables'];
  main: PrintfResult;
  variants: PrintfResult[];
  /** The main text and the plural variants together (the count is passed to every variant). */
  union: PrintfResult;
  /** `variables` when it has any. */
  vars: Record<string, PluralVariable> | undefined;
  /** `main` with the arguments its `%#@var@` references consume (only with `vars`). */
  varMain: PrintfResult | undefined;
  /** `varMain` plus every variable variant (only with `vars`). */
  varUnion: PrintfResult | undefined;
  /** Whether the union or a variant is a format string. */
  pluralFormat: boolean;
  /** The specifiers of the base's `other` form (its plural `other` variant, else its main text when it has no plurals). */
  otherSpecs: PrintfSpec[];
  /** Per variable (only with `vars`): the specifiers of its `other` variant. */
  varOtherSpecs: Record<string, PrintfSpec[]> | undefined;
}

const printfBases = new WeakMap<CatalogEntry, PrintfBase>();

function printfBase(base: CatalogEntry, grammar: Grammar): PrintfBase {
  const hit = printfBases.get(base);
  if (hit && hit.value === base.value && hit.grammar === grammar && hit.plurals === base.plurals && hit.variables === base.variables) return hit;
  const main = printfOf(base.value, grammar)!;
  const variants = base.plurals ? Object.values(base.plurals).map((v) => printfOf(v.text, grammar)!) : [];
  const union = mergePrintf([main, ...variants]);
  const vars = base.variables && Object.keys(base.variables).length ? base.variables : undefined;
  let varMain: PrintfResult | undefined;
  let varUnion: PrintfResult | undefined;
  if (vars) {
    varMain = withVariableTypes(main, vars);
    varUnion = mergePrintf([varMain, ...Object.values(vars).flatMap((v) => Object.values(v.plurals).map((x) => printfOf(x.text, grammar)!))]);
  }
  // A base plural without `other` (its own plural-missing-category) still shows what its forms show: a translation's
  // count forms are judged against their specifiers together, not against nothing (which hid their errors).
  const formsSpecs = (p: PluralVariants) => (p.other ? printfOf(p.other.text, grammar)!.specs : mergePrintf(Object.values(p).map((v) => printfOf(v.text, grammar)!)).specs);
  const otherSpecs = base.plurals ? formsSpecs(base.plurals) : base.kind === 'string' ? main.specs : [];
  const varOtherSpecs = vars ? Object.fromEntries(Object.entries(vars).map(([n, v]) => [n, formsSpecs(v.plurals)])) : undefined;
  const r: PrintfBase = { value: base.value, grammar, plurals: base.plurals, variables: base.variables, main, variants, union, vars, varMain, varUnion, pluralFormat: isFormatString(union) || variants.some(isFormatString), otherSpecs, varOtherSpecs };
  printfBases.set(base, r);
  return r;
}

/** Java `%s` reads any argument through toString(), so it is compatible with every base type; Apple is strict. */
function compatible(base: Set<string>, tr: Set<string>, grammar: Grammar): string | null {
  for (const t of tr) {
    if (base.has(t)) continue;
    if (grammar === 'printf-java' && t === 'string') continue;
    return t;
  }
  return null;
}

/**
 * What a plural form of a translation must show (see countForms): the specifiers of the base's `other` form whose
 * arguments the translation does not show elsewhere (its main text, beside a `%#@var@`), and the form's sample counts.
 */
interface CountNeed {
  specs: PrintfSpec[];
  examples: string[];
}

/**
 * Compare a translated printf text with its base. `strict`: the argument sets must be equal (a plain string);
 * otherwise (a plural variant, which may leave the count out) the translation's arguments must be a subset of
 * `base`. `need` (a `few`/`many`/`other` form): the arguments of `need.specs` must be read too, since that form is
 * shown for many counts. Returns findings at `at`. Texts with invalid specifiers report only those.
 */
function comparePrintf(trText: string, base: PrintfResult, grammar: Grammar, at: { line: number; column: number }, key: string, ctx: PairContext, strict: boolean, what: string, trVars?: Record<string, { spec: string; argNum?: number }>, need?: CountNeed): RawFinding[] {
  const parsed = printfOfTranslation(trText, grammar);
  // Variable names are local to each locale's entry; what must agree is the argument each one consumes and its type.
  const tr = trVars ? withVariableTypes(parsed, trVars) : parsed;
  if (tr.invalid.length) {
    return tr.invalid.map((inv) => ({ rule: 'invalid-specifier', ...at, message: `${ctx.locale} \`${key}\`${what}: invalid format specifier: ${inv.reason}` }));
  }
  const out: RawFinding[] = [];
  const bt = baseArgTypes(base);
  const tt = argTypes(tr);
  const missing = [...bt.keys()].filter((a) => !tt.has(a));
  const extra = [...tt.keys()].filter((a) => !bt.has(a));
  const fmt = (r: PrintfResult) => r.specs.map((s) => s.text).join(' ') || 'none';
  // Arguments of the base's `other` form this count form leaves out (first specifier of each, in base order).
  const dropped = need && !strict ? need.specs.filter((s, i) => !tt.has(s.arg) && need.specs.findIndex((x) => x.arg === s.arg) === i) : [];
  if (extra.length || (strict && missing.length) || dropped.length) {
    const parts: string[] = [];
    if (extra.length) parts.push(`argument${extra.length > 1 ? 's' : ''} ${extra.map((a) => `#${a}`).join(', ')} not in the base (crashes or prints garbage when formatted)`);
    if (strict && missing.length) parts.push(`argument${missing.length > 1 ? 's' : ''} ${missing.map((a) => `#${a}`).join(', ')} of the base missing`);
    if (dropped.length) parts.push(`drops ${dropped.map((d) => `${d.text} (argument #${d.arg})`).join(', ')}, which the base's other form shows: this form is used ${countsPhrase(need!.examples)}, and users would read it without ${dropped.length > 1 ? 'those values' : 'that value'}`);
    out.push({ rule: 'placeholder-mismatch', ...at, message: `${ctx.locale} \`${key}\`${what}: ${parts.join('; ')}: base has ${fmt(base)}, translation has ${fmt(tr)}` });
  }
  for (const [arg, types] of tt) {
    const b = bt.get(arg);
    if (!b) continue;
    const bad = compatible(b, types, grammar);
    if (bad) out.push({ rule: 'placeholder-mismatch', ...at, message: `${ctx.locale} \`${key}\`${what}: argument #${arg} is read as ${bad} but the base reads it as ${[...b].join('/')}: base has ${fmt(base)}, translation has ${fmt(tr)}` });
  }
  return out;
}

/** `main` plus, for each `%#@name@` it holds, the argument that variable consumes, typed by its spec (`lld`). */
function withVariableTypes(main: PrintfResult, vars: Record<string, { spec: string; argNum?: number }>): PrintfResult {
  const extra = main.specs.flatMap((s) => {
    if (s.type !== 'variable') return [];
    const v = vars[s.text.slice(s.text.indexOf('#@') + 2, -1)];
    const t = v?.spec ? parsePrintf(`%${v.spec.replace(/^%/, '')}`, 'apple').specs[0]?.type : undefined;
    return t ? [{ ...s, arg: v?.argNum ?? s.arg, type: t }] : [];
  });
  return { ...main, specs: [...main.specs, ...extra] };
}

/**
 * The specifiers of several texts (a plural's forms) as one result; a specifier that several forms repeat (the same
 * text reading the same argument) is kept once, so messages say `base has %d`, not `%d %d %d`. Argument types and
 * format-string-ness do not depend on repeats.
 */
function mergePrintf(results: PrintfResult[]): PrintfResult {
  const seen = new Set<string>();
  const specs = results.flatMap((r) => r.specs).filter((x) => {
    const k = `${x.arg}\0${x.text}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return { specs, invalid: [], hasEscapedPercent: results.some((r) => r.hasEscapedPercent) };
}

/** The categories of `ctx.rules` (cardinal, or ordinal: ICU selectordinal, i18next `_ordinal_`) that `plurals` lacks. */
function requiredMissing(plurals: PluralVariants, ctx: PairContext, ordinal = false): string[] {
  const rules = ctx.rules;
  if (!rules) return [];
  // gettext forms are numbered by the file's Plural-Forms (gettextFormsFinding), not named by CLDR.
  for (const k in plurals) if (/^\d+$/.test(k)) return [];
  const exact = new Set(Object.keys(plurals).filter((k) => /^=\d+$/.test(k)).map((k) => Number(k.slice(1))));
  const required = ordinal ? rules.ordinal.required : ctx.intCounts ? rules.integerRequired : rules.required;
  return required.filter((c) => !(c in plurals) && !coveredByExact(rules, c, exact, ordinal ? 'ordinal' : 'cardinal'));
}

/**
 * A base plural whose only category is `other` (besides `=N`): one text for every count on purpose (lichess
 * `{count, plural, other{{count} played}}`, mastodon-ios's empty `names` variable); every plural runtime falls back to
 * `other`, so it lacks nothing. A base with `one` but not `other` is what breaks (getQuantityString throws).
 */
function onlyOther(categories: readonly string[]): boolean {
  const named = categories.filter((c) => !/^=\d+$/.test(c));
  return named.length === 1 && named[0] === 'other';
}

/** `.xcstrings` device variations keyed `<device>.<category>` (`iphone.one`), grouped per device; plain devices left out. */
function pluralsByDevice(devices: Readonly<Record<string, Variant>>): Map<string, PluralVariants> {
  const byDevice = new Map<string, PluralVariants>();
  for (const [dev, v] of Object.entries(devices)) {
    const dot = dev.indexOf('.');
    if (dot === -1) continue;
    let forms = byDevice.get(dev.slice(0, dot));
    if (!forms) byDevice.set(dev.slice(0, dot), (forms = {}));
    forms[dev.slice(dot + 1)] = v;
  }
  return byDevice;
}

/**
 * The base's own plurals against the base locale's CLDR categories (`ctx.rules` are the base locale's): an English
 * default `<plurals>` with only `one` makes getQuantityString(…, 2) throw on an English device, as a translation's
 * would on its locale's. Android `<plurals>`, `.xcstrings` plural variations (and each device's), `.stringsdict`
 * plural variables, ICU plural/selectordinal arguments (whose parser requires only `other`). A base plural of `other`
 * alone lacks nothing (onlyOther). Not i18next: a key's `_one`/`_two`/`_other` suffix is also an ordinary word there
 * (`step_one`, linkwarden's `by_author_and_other`), so a lone suffix is no evidence of a plural. Not gettext: its
 * forms are numbered by the file's Plural-Forms, and a base (`.pot`, source-language `.po`) without msgstr shows its
 * msgid/msgid_plural. Pure.
 */
export function basePluralFindings(e: CatalogEntry, ctx: PairContext): readonly RawFinding[] {
  if (!ctx.rules || e.grammar === 'i18next' || e.gettext) return NONE;
  const out: RawFinding[] = [];
  const missing = (forms: PluralVariants, ordinal = false) => (onlyOther(Object.keys(forms)) ? [] : requiredMissing(forms, ctx, ordinal));
  if (e.kind === 'plural' && e.plurals) {
    const miss = missing(e.plurals);
    if (miss.length) out.push(pluralFinding(e.key, miss, ctx, { line: e.line, column: e.column }));
  }
  for (const [name, v] of Object.entries(e.variables ?? {})) {
    const miss = missing(v.plurals);
    if (miss.length) out.push(pluralFinding(e.key, miss, ctx, { line: v.line, column: v.column }, ` %#@${name}@`));
  }
  if (e.devices) {
    for (const [device, forms] of pluralsByDevice(e.devices)) {
      const miss = missing(forms);
      const first = Object.values(forms)[0]!;
      if (miss.length) out.push(pluralFinding(e.key, miss, ctx, { line: first.line, column: first.column }, ` [${device}]`));
    }
  }
  if ((e.grammar === 'icu' || e.grammar === 'icu-arb') && e.value.includes('{')) {
    const r = icuOf(e.value, e.grammar === 'icu');
    const FLUTTER: Record<string, string> = { '=0': 'zero', '=1': 'one', '=2': 'two' };
    if (r.ok) for (const a of r.args) {
      if (a.kind !== 'plural' && a.kind !== 'selectordinal') continue;
      const ordinal = a.kind === 'selectordinal';
      const have = Object.fromEntries(a.options.map((o) => [ctx.flutterPlurals && !ordinal ? (Object.hasOwn(FLUTTER, o) ? FLUTTER[o]! : o) : o, { text: '', line: 0, column: 0 }]));
      const miss = missing(have, ordinal);
      if (miss.length) out.push(pluralFinding(e.key, miss, ctx, pos(e), ` {${a.name}}`, ordinal));
    }
  }
  return out.length ? out : NONE;
}

function pluralFinding(key: string, missing: string[], ctx: PairContext, at: { line: number; column: number }, what = '', ordinal = false): RawFinding {
  const of = ctx.rules?.cldrLocale ?? ctx.locale;
  return {
    rule: 'plural-missing-category',
    ...at,
    message: ordinal
      ? `${ctx.locale} \`${key}\`${what}: ordinal plural lacks ${missing.join(', ')}, which CLDR requires for ordinals in ${of} (${ctx.rules?.ordinal.required.join(', ')})`
      : `${ctx.locale} \`${key}\`${what}: plural lacks ${missing.join(', ')}, which CLDR requires for ${of} (${(ctx.intCounts ? ctx.rules?.integerRequired : ctx.rules?.required)?.join(', ')}${ctx.intCounts ? ': the categories integer counts select' : ''})`,
  };
}

function compareIcu(tr: CatalogEntry, base: CatalogEntry, ctx: PairContext): readonly RawFinding[] {
  const quotes = tr.grammar !== 'icu-arb';
  const b = icuOf(base.value, base.grammar !== 'icu-arb');
  if (!/[{}<']/.test(tr.value) && b.ok && b.args.length === 0 && b.tags.length === 0) return NONE;
  const t = parseIcu(tr.value, quotes);
  if (!t.ok) return [{ rule: 'icu-syntax', ...pos(tr), message: `${ctx.locale} \`${tr.key}\`: ICU syntax error ${icuErrorText(t.error!, tr.value)}` }];
  if (!b.ok || sameSimpleShape(t, b, ctx.tags ?? 'all')) return NONE;
  return icuDiff(t, b, tr.key, ctx, pos(tr));
}

/**
 * Whether icuDiff would find nothing because the translation reads exactly the base's arguments: the same simple
 * arguments in the same order (so the same names, and kinds with no options to check) and, unless tags are plain
 * text, the same tags in the same order. The common case, decided without the sets icuDiff builds.
 */
function sameSimpleShape(t: IcuResult, b: IcuResult, mode: 'all' | 'numeric' | 'none'): boolean {
  const ta = t.args;
  const ba = b.args;
  if (ta.length !== ba.length) return false;
  for (let i = 0; i < ta.length; i++) {
    const x = ta[i]!;
    const y = ba[i]!;
    if (x.kind !== 'simple' || y.kind !== 'simple' || x.name !== y.name) return false;
  }
  if (mode === 'none') return true;
  const tt = t.tags;
  const bt = b.tags;
  if (tt.length !== bt.length) return false;
  for (let i = 0; i < tt.length; i++) if (tt[i] !== bt[i]) return false;
  return true;
}

function icuDiff(t: IcuResult, b: IcuResult, key: string, ctx: PairContext, at: { line: number; column: number }): RawFinding[] {
  const out: RawFinding[] = [];
  const names = (r: IcuResult) => new Set(r.args.map((a) => a.name));
  const bn = names(b);
  const tn = names(t);
  const extra = [...tn].filter((n) => !bn.has(n));
  const missing = [...bn].filter((n) => !tn.has(n));
  if (extra.length || missing.length) {
    const parts: string[] = [];
    if (extra.length) parts.push(`${extra.map((n) => `{${n}}`).join(', ')} not in the base`);
    if (missing.length) parts.push(`${missing.map((n) => `{${n}}`).join(', ')} of the base missing`);
    out.push({ rule: 'placeholder-mismatch', ...at, message: `${ctx.locale} \`${key}\`: ICU arguments differ (renamed, quoted or dropped?): ${parts.join('; ')}` });
  }
  const kinds = new Map<string, Set<string>>();
  for (const a of b.args) kinds.set(a.name, (kinds.get(a.name) ?? new Set()).add(a.kind));
  const reported = new Set<string>();
  for (const a of t.args) {
    const bk = kinds.get(a.name);
    if (!bk) continue;
    // `{count}` inside or instead of a plural shows the number the base's plural chooses by: ICU formats it as it is
    // (the base writes `#`, this translation `{count}`; ja `{count}件` needs no plural). Not so for a select (its value
    // is a keyword such as `male`), nor a plural over what the base shows as a plain value.
    if (!bk.has(a.kind) && !(a.kind === 'simple' && (bk.has('plural') || bk.has('selectordinal')))) {
      if (!reported.has(a.name)) out.push({ rule: 'placeholder-mismatch', ...at, message: `${ctx.locale} \`${key}\`: {${a.name}} is used as a ${a.kind} argument but the base uses it as ${[...bk].join('/')}` });
      reported.add(a.name);
      continue;
    }
    if (a.kind === 'select') {
      const baseOpts = new Set(b.args.filter((x) => x.name === a.name).flatMap((x) => x.options));
      const foreign = a.options.filter((o) => !baseOpts.has(o));
      if (foreign.length) out.push({ rule: 'icu-keyword', ...at, message: `${ctx.locale} \`${key}\`: select {${a.name}} has keyword${foreign.length > 1 ? 's' : ''} ${foreign.join(', ')} that the base does not (translated keywords never match)` });
    } else if (a.kind === 'plural' || a.kind === 'selectordinal') {
      const foreign = a.options.filter((o) => !isPluralCategory(o) && !/^=\d+$/.test(o));
      if (foreign.length) out.push({ rule: 'icu-keyword', ...at, message: `${ctx.locale} \`${key}\`: ${a.kind} {${a.name}} has keyword${foreign.length > 1 ? 's' : ''} ${foreign.join(', ')}, not CLDR plural categories (translated keywords never match)` });
      const FLUTTER: Record<string, string> = { '=0': 'zero', '=1': 'one', '=2': 'two' };
      const ordinal = a.kind === 'selectordinal';
      const have = Object.fromEntries(a.options.map((o) => [ctx.flutterPlurals && !ordinal ? (Object.hasOwn(FLUTTER, o) ? FLUTTER[o]! : o) : o, { text: '', line: 0, column: 0 }]));
      const miss = requiredMissing(have, ctx, ordinal);
      if (miss.length) out.push(pluralFinding(key, miss, ctx, at, ` {${a.name}}`, ordinal));
    }
  }
  // Empty options (`one {}`) the base fills: empty-value in their own words, not "drops {n}" (icuCountForms skips them).
  for (const a of t.args) {
    if (!a.empty) continue;
    const bArgs = b.args.filter((x) => x.name === a.name && x.kind === a.kind);
    if (!bArgs.length) continue;
    for (const o of a.empty) {
      if (bArgs.every((x) => x.empty?.includes(o) || (!x.options.includes(o) && x.empty?.includes('other')))) continue;
      const examples = a.kind === 'plural' ? countForms(ctx.rules, 'num').get(o) : undefined;
      out.push({ rule: 'empty-value', ...at, message: `${ctx.locale} \`${key}\` {${a.name}, ${a.kind}} option ${o} is empty while the base has text (users see a blank${examples ? ` ${countsPhrase(examples)}` : a.kind === 'select' ? ` when {${a.name}} is ${o}` : ` when the count selects ${o}`})` });
    }
  }
  out.push(...icuCountForms(t, b, key, ctx, at));
  const mode = ctx.tags ?? 'all';
  const tagKey = (r: IcuResult) => [...r.tags].filter((x) => mode === 'all' || /^<\/?\d+\/?>$/.test(x)).sort().join(' ');
  if (mode !== 'none' && tagKey(t) !== tagKey(b)) out.push({ rule: 'placeholder-mismatch', ...at, message: `${ctx.locale} \`${key}\`: tags differ: base ${b.tags.join(' ') || 'none'}, translation ${t.tags.join(' ') || 'none'}` });
  return out;
}

/**
 * ICU plurals (`{n, plural, … other{…}}`) of the translation whose count forms (countForms, any number: `few`, `many`,
 * `other`) leave out an argument that the base's `other` option shows (`#` or `{n}` shows the count; in a base with
 * the plural more than once, what every `other` of it shows). An argument the translation shows beside the plural
 * (`{n} {n, plural, one{Partie} other{Partien}}`) counts as shown. `zero`, `one`, `two` and `=N` options may word
 * their number. One finding per option, at the entry's value (formatjs locations are not kept).
 */
function icuCountForms(t: IcuResult, b: IcuResult, key: string, ctx: PairContext, at: { line: number; column: number }): RawFinding[] {
  let need: Map<string, Set<string>> | undefined;
  for (const a of b.args) {
    const i = a.kind === 'plural' && a.shown ? a.options.indexOf('other') : -1;
    if (i === -1) continue;
    need ??= new Map();
    const shown = new Set(a.shown![i]);
    const prev = need.get(a.name);
    need.set(a.name, prev ? new Set([...prev].filter((n) => shown.has(n))) : shown);
  }
  if (!need) return [];
  const out: RawFinding[] = [];
  const forms = countForms(ctx.rules, 'num');
  for (const a of t.args) {
    const req = a.kind === 'plural' && a.shown ? need.get(a.name) : undefined;
    if (!req?.size) continue;
    const around = new Set(a.alongside);
    a.options.forEach((o, i) => {
      const examples = forms.get(o);
      if (!examples || a.empty?.includes(o)) return;
      const shown = new Set(a.shown![i]);
      const dropped = [...req].filter((n) => !shown.has(n) && !around.has(n));
      if (!dropped.length) return;
      const names = dropped.map((n) => (n === a.name ? `{${n}} (\`#\`)` : `{${n}}`)).join(', ');
      out.push({ rule: 'placeholder-mismatch', ...at, message: `${ctx.locale} \`${key}\` {${a.name}, plural} [${o}]: drops ${names}, which the base's other option shows: this option is used ${countsPhrase(examples)}, and users would read it without ${dropped.length > 1 ? 'those values' : 'that value'}` });
    });
  }
  return out;
}

/** What an i18next count form (`_few`, `_many`, `_other`) must show: the base's other form's `{{names}}`, and its sample counts. */
interface I18nextNeed {
  names: string[];
  examples: string[];
}

function compareI18next(trText: string, baseTexts: string[], key: string, ctx: PairContext, at: { line: number; column: number }, strict: boolean, what = '', need?: I18nextNeed): RawFinding[] {
  const b = new Set(baseTexts.flatMap((t) => parseI18next(t).map((p) => p.name)));
  const t = new Set(parseI18next(trText).map((p) => p.name));
  const extra = [...t].filter((n) => !b.has(n) && n !== 'count');
  const missing = strict ? [...b].filter((n) => !t.has(n)) : [];
  const dropped = need && !strict ? need.names.filter((n) => !t.has(n)) : [];
  if (!extra.length && !missing.length && !dropped.length) return [];
  const parts: string[] = [];
  if (extra.length) parts.push(`${extra.map((n) => (n.startsWith('$t(') ? n : `{{${n}}}`)).join(', ')} not in the base`);
  if (missing.length) parts.push(`${missing.map((n) => (n.startsWith('$t(') ? n : `{{${n}}}`)).join(', ')} of the base missing`);
  if (dropped.length) parts.push(`drops ${dropped.map((n) => `{{${n}}}`).join(', ')}, which the base's _other form shows: this form is used ${countsPhrase(need!.examples)}, and users would read it without ${dropped.length > 1 ? 'those values' : 'that value'}`);
  return [{ rule: 'placeholder-mismatch', ...at, message: `${ctx.locale} \`${key}\`${what}: interpolations differ: ${parts.join('; ')}` }];
}

/**
 * Empty forms of a translation that has text elsewhere (an empty `<item quantity="other"/>`, `.stringsdict` /
 * `.xcstrings` variation, i18next `_few: ""`, array item or device variant) while the base's form of that kind has
 * text: `empty-value`, one per form, in its own words (users see a blank for those counts). Such forms are left out of
 * the placeholder comparisons, which would say "drops %1$d" of a form that holds nothing. ICU options: icuEmptyOptions.
 */
function emptyForms(tr: CatalogEntry, base: CatalogEntry, ctx: PairContext): RawFinding[] {
  const out: RawFinding[] = [];
  const filled = (p: PluralVariants | undefined) => p !== undefined && Object.values(p).some((x) => x.text !== '');
  const forms = countForms(ctx.rules, 'int');
  const say = (v: Variant, what: string, sel?: string) => {
    const examples = sel ? forms.get(sel) : undefined;
    out.push({ rule: 'empty-value', line: v.line, column: v.column, message: `${ctx.locale} \`${tr.key}\`${what} is empty while the base has text (users see a blank${sel ? (examples ? ` ${countsPhrase(examples)}` : ` when the count selects ${sel}`) : ''})` });
  };
  // Each form kind against the base's own: a base variable whose forms are all empty (mastodon-ios `%#@names@`) makes
  // empty translated forms of it no defect.
  if (tr.plurals && filled(base.plurals)) for (const [sel, v] of Object.entries(tr.plurals)) if (v.text === '' && !/^\d+$/.test(sel)) say(v, ` plural form ${sel}`, sel);
  const bVars = base.variables ?? {};
  const bNames = Object.keys(bVars);
  for (const [name, tv] of Object.entries(tr.variables ?? {})) {
    const bv = bVars[name] ?? (bNames.length === 1 && Object.keys(tr.variables!).length === 1 ? bVars[bNames[0]!] : undefined);
    if (!filled(bv?.plurals)) continue;
    for (const [sel, v] of Object.entries(tv.plurals)) if (v.text === '') say(v, ` %#@${name}@ plural form ${sel}`, sel);
  }
  for (const [dev, v] of Object.entries(tr.devices ?? {})) if (v.text === '' && (base.devices?.[dev]?.text || (!base.devices?.[dev] && textsState(base) === 2))) say(v, ` [${dev}]`, dev.includes('.') ? dev.slice(dev.indexOf('.') + 1) : undefined);
  tr.items?.forEach((v, n) => {
    if (v.text === '' && base.items?.[n]?.text) say(v, ` item ${n + 1}`);
  });
  return out;
}

/**
 * The texts of an entry (the value of a `string`, plural variants, array items, device variants): 0 when it has
 * none, 1 when all are empty, 2 when one has text.
 */
function textsState(e: CatalogEntry): 0 | 1 | 2 {
  let any = false;
  if (e.kind === 'string') {
    if (e.value !== '') return 2;
    any = true;
  }
  if (e.plurals) {
    for (const v of Object.values(e.plurals)) {
      if (v.text !== '') return 2;
      any = true;
    }
  }
  if (e.devices) {
    for (const v of Object.values(e.devices)) {
      if (v.text !== '') return 2;
      any = true;
    }
  }
  if (e.items) {
    for (const v of e.items) {
      if (v.text !== '') return 2;
      any = true;
    }
  }
  return any ? 1 : 0;
}

const NO_ARGS: ReadonlySet<number> = new Set();

/** The arguments a translation's `%#@var@` format reads itself (its other specifiers), shown whatever a variable picks. */
function mainArgs(text: string, grammar: Grammar): ReadonlySet<number> {
  const specs = printfOfTranslation(text, grammar).specs.filter((x) => x.type !== 'variable');
  return specs.length ? new Set(specs.map((x) => x.arg)) : NO_ARGS;
}

/**
 * The CountNeed of plural form `sel` (printf: integer counts): undefined when `sel` is not a count form of the locale
 * (countForms) or the base's other form shows nothing the translation does not show elsewhere (`shownElsewhere`).
 */
function countNeed(baseOther: PrintfSpec[], sel: string, ctx: PairContext, shownElsewhere: ReadonlySet<number>): CountNeed | undefined {
  if (!baseOther.length) return undefined;
  const examples = countForms(ctx.rules, 'int').get(sel);
  if (!examples) return undefined;
  const specs = baseOther.filter((x) => x.type !== 'variable' && !shownElsewhere.has(x.arg));
  return specs.length ? { specs, examples } : undefined;
}

const ANDROID_ELEMENT: Record<CatalogEntry['kind'], string> = { string: '<string>', plural: '<plurals>', array: '<string-array>' };
const ANDROID_GETTER: Record<CatalogEntry['kind'], string> = { string: 'getString', plural: 'getQuantityString', array: 'getStringArray' };

/**
 * Whether two entries of different kinds come from Android values files, where a kind is a resource type and a key of
 * the wrong type is not found at run time. Only the Android parser yields `printf-java`, `array` entries and `string`
 * entries with `raw` (see parsers/android.ts); i18next and `.xcstrings` may legitimately turn a base string into a
 * translated plural.
 */
function isAndroidPair(tr: CatalogEntry, base: CatalogEntry): boolean {
  const android = (e: CatalogEntry) => e.grammar === 'printf-java' || e.kind === 'array' || (e.kind === 'string' && e.raw !== undefined);
  return android(tr) || android(base);
}

/**
 * Check one translated entry against its base entry: placeholders per grammar, plural categories, empty value,
 * review state. Pure; cost linear in the entry's text.
 * - Android entries of different kinds (`<plurals>` in the base, `<string>` here; `<string-array>`): only
 *   `kind-mismatch`: Android looks resources up by type and name, so the translation is a resource of another type that
 *   the app's getQuantityString / getStringArray / getString never reads (users of the locale see the base text).
 * - printf strings whose base holds no `%`: `placeholder-added` (a warning by default) when the translation holds
 *   valid specifiers (parsePrintf's notion: `100%`, `%%` and `formatted="false"` texts are not reported).
 */
export function compareEntry(tr: CatalogEntry, base: CatalogEntry, ctx: PairContext): readonly RawFinding[] {
  const forms = tr.pluralForms !== undefined && tr.plurals ? gettextFormsFinding(tr, tr.pluralForms, ctx.locale) : undefined;
  const rest = compareEntryParts(tr, base, ctx);
  const markup = ctx.markup ? markupFindings(tr, base, ctx) : NONE;
  const items = tr.kind === 'array' && base.kind === 'array' ? arrayCountFinding(tr, base, ctx) : undefined;
  return forms || items || markup.length ? [...(forms ? [forms] : []), ...(items ? [items] : []), ...rest, ...markup] : rest;
}

/**
 * An Android `<string-array>` with another number of `<item>`s than the base's (Android Lint InconsistentArrays):
 * fewer, and getStringArray(…)[n] throws for the locale's users; more, and they see entries the base has not.
 */
function arrayCountFinding(tr: CatalogEntry, base: CatalogEntry, ctx: PairContext): RawFinding | undefined {
  const n = tr.items?.length ?? 0;
  const b = base.items?.length ?? 0;
  if (n === b) return undefined;
  const counted = `${n} <item>${n === 1 ? '' : 's'} where the base has ${b}`;
  const why = n < b
    ? `getStringArray(R.array.${tr.key})[${n}] throws ArrayIndexOutOfBoundsException for ${ctx.locale} users`
    : `${ctx.locale} users see ${n - b} entr${n - b === 1 ? 'y' : 'ies'} the base has not, and arrays read alongside it by index no longer line up`;
  return { rule: 'array-item-count', ...pos(tr), message: `${ctx.locale} \`${tr.key}\`: ${counted}: ${why} (Android Lint: InconsistentArrays)` };
}

/**
 * The tags of one text: the elements its parser read (Android) and those written in it. A translation's written tags
 * are read against its base's (`base`): a name no formatting tag and absent from the base is text (markup.ts).
 */
function tagsOfText(text: string, elements: readonly MarkupTag[] | undefined, base?: readonly MarkupTag[]): MarkupTag[] {
  const written = base ? markupInTranslation(text, base) : tagsInText(text);
  return elements ? [...elements, ...written] : written;
}

/**
 * `markup-mismatch` for each text of `tr` whose tags differ from its base text's (markup.ts markupDifference): the
 * string against the base string, each plural form against the base's same form (else its other form), each array
 * item against the base's item. Empty texts are empty-value's, review states needs-review's; ICU is compareIcu's. Pure.
 */
function markupFindings(tr: CatalogEntry, base: CatalogEntry, ctx: PairContext): readonly RawFinding[] {
  if (base.grammar === 'icu' || base.grammar === 'icu-arb' || tr.state === 'fuzzy' || !tr.translatable) return NONE;
  const anyTag = (e: CatalogEntry) => e.markup !== undefined || e.value.includes('<') || (e.plurals !== undefined && Object.values(e.plurals).some((v) => v.markup || v.text.includes('<'))) || (e.items?.some((v) => v.markup || v.text.includes('<')) ?? false);
  if (!anyTag(tr) && !anyTag(base)) return NONE;
  const out: RawFinding[] = [];
  const judge = (text: string, el: readonly MarkupTag[] | undefined, bText: string, bEl: readonly MarkupTag[] | undefined, at: { line: number; column: number }, what: string) => {
    if (text === '' || bText === '') return;
    const bTags = tagsOfText(bText, bEl);
    const diff = markupDifference(tagsOfText(text, el, bTags), bTags);
    if (diff) out.push({ rule: 'markup-mismatch', ...at, message: `${ctx.locale} \`${tr.key}\`${what}: markup differs: ${diff} (users see the tags as text, or lose the styling, link or component they mark)` });
  };
  if (tr.kind === 'string' && base.kind === 'string') judge(tr.value, tr.markup, base.value, base.markup, pos(tr), '');
  else if (tr.plurals && (base.plurals || base.kind === 'string')) {
    for (const [sel, v] of Object.entries(tr.plurals)) {
      const b = base.plurals?.[sel] ?? base.plurals?.other;
      if (b) judge(v.text, v.markup, b.text, b.markup, v, ` [${sel}]`);
      else if (base.kind === 'string') judge(v.text, v.markup, base.value, base.markup, v, ` [${sel}]`);
    }
  } else if (tr.items && base.items) {
    tr.items.forEach((item, n) => {
      const b = base.items![n];
      if (b) judge(item.text, item.markup, b.text, b.markup, item, ` [item ${n + 1}]`);
    });
  }
  return out;
}

/**
 * A gettext plural with fewer non-empty msgstr forms than its file's Plural-Forms `nplurals` (msgfmt -c: "nplurals = N
 * … but some messages have only M plural forms"), else undefined. gnu.org/software/gettext/manual/html_node/Plural-forms.html
 */
function gettextFormsFinding(tr: CatalogEntry, nplurals: number, locale: string): RawFinding | undefined {
  const given = Object.entries(tr.plurals!).filter(([k, v]) => /^\d+$/.test(k) && Number(k) < nplurals && v.text !== '').length;
  if (given >= nplurals) return undefined;
  const last = Object.keys(tr.plurals!).filter((k) => /^\d+$/.test(k)).length - 1;
  return {
    rule: 'plural-missing-category',
    ...pos(tr),
    message: `${locale} \`${tr.key}\`: ${given} plural form${given === 1 ? '' : 's'} (msgstr[0] to msgstr[${last}]) but the file's Plural-Forms says nplurals=${nplurals}: msgfmt -c refuses it, and counts of the missing form show the msgid`,
  };
}

function compareEntryParts(tr: CatalogEntry, base: CatalogEntry, ctx: PairContext): readonly RawFinding[] {
  if (tr.kind !== base.kind && isAndroidPair(tr, base)) {
    return [{ rule: 'kind-mismatch', ...pos(tr), message: `${ctx.locale} \`${tr.key}\` is a ${ANDROID_ELEMENT[tr.kind]} here but a ${ANDROID_ELEMENT[base.kind]} in the base: Android looks resources up by type, so ${ANDROID_GETTER[base.kind]} never reads this translation and ${ctx.locale} users see the base text` }];
  }
  const grammar = base.grammar;
  const review = tr.state === 'needs_review' || tr.state === 'fuzzy' || tr.state === 'new';
  const emptied = textsState(tr) === 1 && textsState(base) === 2;
  // ICU (ARB, Lingui PO, FormatJS JSON): the ICU findings come after these two, so with neither they are the result.
  if (!review && !emptied) {
    if (grammar === 'icu' || grammar === 'icu-arb') return compareIcu(tr, base, ctx);
    // Without those two, a base with no placeholder grammar has nothing to check, and neither has a plain printf
    // string (no `%` on either side, no plural variables, items or device variants: none of the printf branches
    // below can find anything). Most Android, Apple and gettext entries are such: they are answered without the
    // findings array and position object the general path allocates for each entry.
    if (grammar === 'none') return NONE;
    if ((grammar === 'printf-java' || grammar === 'printf-apple') && tr.kind === 'string' && base.kind === 'string' && !tr.variables && !base.variables && !tr.items && !tr.devices && !tr.value.includes('%') && !base.value.includes('%')) return NONE;
  }
  const out: RawFinding[] = [];
  const at = pos(tr);
  if (review) {
    out.push({ rule: 'needs-review', ...at, message: `${ctx.locale} \`${tr.key}\` is marked ${tr.state}: not yet confirmed by a translator` });
    // A `#, fuzzy` gettext message is never shown (msgfmt leaves it out of the compiled catalog, gettext shows the
    // msgid): its placeholders cannot reach a user, so only the review state is reported.
    if (tr.state === 'fuzzy') return out;
  }
  if (emptied && ctx.emptyIsMissing && tr.kind === 'string') {
    out.push({ rule: 'missing-key', ...at, message: `${ctx.locale} \`${tr.key}\` is empty: react-intl treats an empty message as missing and shows the default (base) message, so ${ctx.locale} users read the base text` });
    return out;
  }
  if (emptied) {
    out.push({ rule: 'empty-value', ...at, message: `${ctx.locale} \`${tr.key}\` is empty while the base has text (users see a blank)` });
  } else out.push(...emptyForms(tr, base, ctx));
  if (grammar === 'printf-java' || grammar === 'printf-apple') {
    // `formatted="false"` on the translation alone: it is never formatted only when the code passes no arguments,
    // i.e. when the base takes none; otherwise getString(id, args) formats it like the base (Android's String.format).
    if (tr.grammar === 'none' && !isFormatString(printfOf(base.kind === 'plural' ? (base.plurals?.other?.text ?? base.value) : base.value, grammar)!)) return out;
    const bVars = base.variables && Object.keys(base.variables).length ? base.variables : undefined;
    const tVars = tr.variables && Object.keys(tr.variables).length ? tr.variables : undefined;
    // Base format args: a plural's variants together (the count is passed to every variant), derived once per base
    // entry. A string against a string base without variables needs only the base's own specifiers (printfOf is
    // cached by text), so it skips the per-entry lookup (most entries that reach here are such).
    const pb = bVars || tVars || tr.kind !== 'string' || base.kind !== 'string' ? printfBase(base, grammar) : undefined;
    const baseMain = pb ? pb.main : printfOf(base.value, grammar)!;
    const baseUnion = pb?.union;
    if (bVars) {
      // Apple plural substitution: `%#@name@` consumes an argument read as the variable's spec, and the variants
      // read the others. The union is what the caller passes.
      const union = pb!.varUnion!;
      if (tVars) {
        out.push(...comparePrintf(tr.value, pb!.varMain!, grammar, at, tr.key, ctx, true, '', tVars));
        // Variable names are local to each locale: a translation's variable is the base's of the same name, or the
        // base's only one when both have one.
        const bNames = Object.keys(bVars);
        const single = bNames.length === 1 && Object.keys(tVars).length === 1 ? bNames[0] : undefined;
        const shownByMain = mainArgs(tr.value, grammar);
        for (const [name, tv] of Object.entries(tVars)) {
          const baseOther = pb!.varOtherSpecs![name] ?? (single !== undefined ? pb!.varOtherSpecs![single] : undefined) ?? [];
          for (const [sel, v] of Object.entries(tv.plurals)) if (v.text !== '') out.push(...comparePrintf(v.text, union, grammar, v, tr.key, ctx, false, ` %#@${name}@ [${sel}]`, undefined, countNeed(baseOther, sel, ctx, shownByMain)));
          const miss = requiredMissing(tv.plurals, ctx);
          if (miss.length) out.push(pluralFinding(tr.key, miss, ctx, { line: tv.line, column: tv.column }, ` %#@${name}@`));
        }
      } else if (tr.kind === 'string') {
        // A language with one plural form may collapse the plural into one string (Korean, Japanese): shown for every
        // count, so it must show what the base's other form shows: its format's own specifiers (a `%#@var@` only
        // selects the variant; IceCubesApp's `%#@followers@` shows `%2$@`) and each variable's other variant.
        const baseOther = [...pb!.main.specs.filter((x) => x.type !== 'variable'), ...Object.values(pb!.varOtherSpecs!).flat()];
        out.push(...comparePrintf(tr.value, union, grammar, at, tr.key, ctx, false, '', undefined, countNeed(baseOther, 'other', ctx, new Set())));
      }
    } else if (tVars) {
      // Plurals only in the translation: their texts must read nothing the base does not pass, and their count forms
      // must show what the base's other form (or plain text) shows.
      const shownByMain = mainArgs(tr.value, grammar);
      for (const [name, tv] of Object.entries(tVars)) {
        for (const [sel, v] of Object.entries(tv.plurals)) if (v.text !== '') out.push(...comparePrintf(v.text, baseUnion!, grammar, v, tr.key, ctx, false, ` %#@${name}@ [${sel}]`, undefined, countNeed(pb!.otherSpecs, sel, ctx, shownByMain)));
      }
    } else if (tr.kind === 'string' && base.kind === 'plural' && pb!.pluralFormat) {
      // `.xcstrings`: a language with one plural form may give one string for a plural (Android: kind-mismatch above).
      // Shown for every count, it must show what the base's other variant shows.
      out.push(...comparePrintf(tr.value, baseUnion!, grammar, at, tr.key, ctx, false, '', undefined, countNeed(pb!.otherSpecs, 'other', ctx, NO_ARGS)));
    } else if (tr.kind === 'string' && base.kind === 'string' && isFormatString(baseMain)) {
      out.push(...comparePrintf(tr.value, baseMain, grammar, at, tr.key, ctx, true, ''));
    } else if (tr.kind === 'string' && base.kind === 'string' && !base.value.includes('%')) {
      // A base with no `%` at all is no format string: the code may call getString / NSLocalizedString without
      // arguments, so a specifier the translation adds shows literally. Android Lint's StringFormatCount warns (the
      // code may pass arguments the base ignores). A base holding a literal `%` (`100%`) is skipped: its
      // translations' `%` are literal too.
      const added = printfOfTranslation(tr.value, grammar).specs;
      if (added.length) out.push({ rule: 'placeholder-added', ...at, message: `${ctx.locale} \`${tr.key}\`: adds ${added.map((x) => x.text).join(' ')} but the base has no placeholder (users see ${added.length > 1 ? 'them' : 'it'} literally unless the code passes arguments)` });
    }
    if (tr.kind === 'plural' && tr.plurals) {
      if (pb!.pluralFormat) {
        for (const [sel, v] of Object.entries(tr.plurals)) if (v.text !== '' || emptied) out.push(...comparePrintf(v.text, baseUnion!, grammar, v, tr.key, ctx, false, ` [${sel}]`, undefined, countNeed(pb!.otherSpecs, sel, ctx, NO_ARGS)));
      }
      const miss = requiredMissing(tr.plurals, ctx);
      if (miss.length && base.plurals) out.push(pluralFinding(tr.key, miss, ctx, { line: tr.line, column: tr.column }));
    }
    if (tr.items && base.items) {
      tr.items.forEach((item, n) => {
        const b = base.items![n];
        if (!b) return;
        const br = printfOf(b.text, grammar)!;
        if (isFormatString(br)) out.push(...comparePrintf(item.text, br, grammar, item, tr.key, ctx, true, ` [item ${n + 1}]`));
      });
    }
    if (tr.devices) {
      for (const [dev, v] of Object.entries(tr.devices)) {
        const b = base.devices?.[dev] ?? base.devices?.[dev.replace(/^[^.]+/, 'other')];
        const br = printfOf(b?.text ?? base.value, grammar)!;
        // A device's plural variant (`iphone.other`): its count forms show what the base's other form of that device
        // (else of the `other` device, else the base's plural or text) shows.
        const dot = dev.indexOf('.');
        const need = dot === -1 ? undefined : countNeed(printfOf(base.devices?.[`${dev.slice(0, dot)}.other`]?.text ?? base.devices?.['other.other']?.text ?? base.plurals?.other?.text ?? base.value, grammar)!.specs, dev.slice(dot + 1), ctx, NO_ARGS);
        if (isFormatString(br) && v.text !== '') out.push(...comparePrintf(v.text, br, grammar, v, tr.key, ctx, dot === -1, ` [${dev}]`, undefined, need));
      }
      // Each device's plural (`iphone.one`, `iphone.other`…) must give the categories the locale requires, as a plural
      // without devices must, when the base is a plural.
      if (base.plurals !== undefined || Object.keys(base.devices ?? {}).some((k) => k.includes('.'))) {
        for (const [device, forms] of pluralsByDevice(tr.devices)) {
          const miss = requiredMissing(forms, ctx);
          const first = Object.values(forms)[0]!;
          if (miss.length) out.push(pluralFinding(tr.key, miss, ctx, { line: first.line, column: first.column }, ` [${device}]`));
        }
      }
    }
    return out;
  }
  if (grammar === 'icu' || grammar === 'icu-arb') {
    out.push(...compareIcu(tr, base, ctx));
    return out;
  }
  if (grammar === 'i18next') {
    if (tr.kind === 'plural' && tr.plurals) {
      const baseTexts = Object.values(base.plurals ?? {}).map((v) => v.text).concat(base.kind === 'string' ? [base.value] : []);
      // Count forms show the base's other form (or its plain text); ordinal plurals (`_ordinal_other`) are not judged.
      const other = tr.ordinal ? undefined : base.plurals ? base.plurals.other?.text : base.value;
      const names = other === undefined ? [] : [...new Set(parseI18next(other).map((p) => p.name).filter((n) => !n.startsWith('$t(')))];
      const forms = countForms(ctx.rules, 'num');
      for (const [sel, v] of Object.entries(tr.plurals)) {
        if (v.text === '' && !emptied) continue;
        const examples = names.length ? forms.get(sel) : undefined;
        out.push(...compareI18next(v.text, baseTexts, tr.key, ctx, v, false, ` [${sel}]`, examples ? { names, examples } : undefined));
      }
      let miss = requiredMissing(tr.plurals, ctx, tr.ordinal === true);
      if (miss.length && base.plurals && ctx.baseRules && requiredMissing(base.plurals, { ...ctx, rules: ctx.baseRules }, tr.ordinal === true).length) {
        const has = base.plurals;
        miss = miss.filter((c) => c in has);
      }
      if (miss.length) out.push(pluralFinding(tr.key, miss, ctx, { line: tr.line, column: tr.column }, '', tr.ordinal === true));
    } else if (!emptied) {
      // An empty value has its empty-value finding; "{{appName}} of the base missing" beside it misleads.
      out.push(...compareI18next(tr.value, [base.value], tr.key, ctx, at, true));
    }
  }
  return out;
}

/**
 * A gettext message's format problems, as msgfmt -c --check-format finds them (placeholders/gettext.ts): each msgstr
 * against its msgid (msgid_plural for plural forms) in the grammar of each `#, X-format` flag. Findings at the
 * msgstr's line: `invalid-specifier` (the msgstr is not a valid format string while the msgid is) or
 * `placeholder-mismatch`. A `#, fuzzy` message is left out: msgfmt never compiles it and gettext never shows it (its
 * needs-review warning says so). Pure.
 */
export function gettextFindings(e: CatalogEntry, locale: string): RawFinding[] {
  const g = e.gettext;
  if (!g || e.state === 'fuzzy' || !g.formats.length) return [];
  const problems = checkGettextMessage(g.formats, g.msgid, g.msgidPlural, g.msgstr, g.often);
  return problems.map((p) => {
    const which = g.msgidPlural !== undefined ? ` msgstr[${p.index}]` : '';
    const against = g.msgidPlural !== undefined ? 'msgid_plural' : 'msgid';
    return {
      rule: p.kind === 'invalid' ? 'invalid-specifier' : 'placeholder-mismatch',
      line: g.lines[p.index] ?? e.valueLine ?? e.line,
      column: 1,
      message: p.kind === 'invalid'
        ? `${locale} \`${e.key}\`${which}: not a valid ${p.format}-format string, unlike its ${against} (${p.reason}); msgfmt -c refuses the catalog`
        : `${locale} \`${e.key}\`${which}: ${p.format}-format placeholders differ from its ${against}: ${p.reason}; msgfmt -c refuses the catalog`,
    };
  });
}

/**
 * Check a base entry on its own: invalid printf specifiers in a format string, ICU syntax. A base that is not a
 * format string may hold a literal `%` (it is never formatted), so only format strings are checked.
 */
export function checkBaseEntry(e: CatalogEntry, locale: string): RawFinding[] {
  const out: RawFinding[] = e.gettext ? gettextFindings(e, locale) : [];
  const at = pos(e);
  if (e.grammar === 'printf-java' || e.grammar === 'printf-apple') {
    const texts: Array<[string, Variant | null]> = [[e.value, null], ...Object.entries(e.plurals ?? {}).map(([, v]) => [v.text, v] as [string, Variant])];
    for (const [text, v] of texts) {
      const r = printfOf(text, e.grammar)!;
      if (r.specs.length && r.invalid.length) {
        for (const inv of r.invalid) out.push({ rule: 'invalid-specifier', ...(v ?? at), message: `${locale} \`${e.key}\`: invalid format specifier in the base: ${inv.reason}` });
      }
    }
  } else if (e.grammar === 'icu' || e.grammar === 'icu-arb') {
    const r = icuOf(e.value, e.grammar === 'icu');
    if (!r.ok) out.push({ rule: 'icu-syntax', ...at, message: `${locale} \`${e.key}\`: ICU syntax error in the base: ${icuErrorText(r.error!, e.value)}` });
  }
  return out;
}

/**
 * Keys of `base` (translatable ones) that `tr` lacks, in base order, each once: a key the base defines twice (a
 * duplicate resource) is listed at its first entry.
 */
export function missingKeys(base: LocaleCatalog, tr: LocaleCatalog): CatalogEntry[] {
  const out: CatalogEntry[] = [];
  const have = tr.byKey;
  if (base.entries.length === base.byKey.size) {
    for (const e of base.entries) if (e.translatable && !have.has(e.key)) out.push(e);
    return out;
  }
  const listed = new Set<string>();
  for (const e of base.entries) {
    if (!e.translatable || have.has(e.key) || listed.has(e.key)) continue;
    listed.add(e.key);
    out.push(e);
  }
  return out;
}
