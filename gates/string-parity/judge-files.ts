// string-parity: judging catalog files against their group's base (the checks of checks.ts, the severities of the
// config, the fingerprints). Loaded by judge.ts on the calling thread and by shard-worker.ts in worker threads, so it
// imports only what judging needs (no zod, no mutation operators, no index.ts).
import { fingerprint } from '../../core/finding.js';
import type { GateOutput, Severity, Workspace } from '../../core/types.js';
import { baseLocaleCatalog, type CatalogFile, type CatalogGroup, type CatalogSet, groupShapes, loadCatalog, releaseCatalog } from './catalogs.js';
import { basePluralFindings, checkBaseEntry, compareEntry, gettextFindings, missingKeys, RULES, type PairContext, type RawFinding, type RuleId } from './checks.js';
import type { StringParityConfig } from './config.js';
import { pluralRules } from './locale.js';
import type { CatalogEntry, LocaleCatalog } from './model.js';

const GATE = 'string-parity'; // index.ts GATE (not imported: index.ts loads zod and the mutation operators)

type Out = GateOutput['findings'][number];

/** Problems summarised once per file: rule, what one is, its consequence, fingerprint subject. */
const DUPLICATE_SUMMARIES = [
  ['duplicate-key', 'duplicate message definition', 'msgfmt refuses such a file and readers keep only one of each', 'duplicates'],
  ['duplicate-resource', 'duplicate resource definition', 'aapt2 fails the build ("duplicate value for resource") and only one of each would be kept', 'duplicate-resources'],
] as const;

/**
 * A base catalog's keys, indexed once per base and shared by every locale judged against it, so that one lookup per
 * translated entry finds its base entry and marks its key present (missing keys are then read off the marks, not
 * looked up again per locale as missingKeys does).
 */
interface BaseKeys {
  /** Key -> its index `i` (in `byKey` order). */
  index: Map<string, number>;
  /** `last[i]`: the entry `byKey` holds for key `i` (the last of that key). */
  last: CatalogEntry[];
  /** What missingKeys lists when a translation has no key: each key's first translatable entry, in base order. */
  listed: CatalogEntry[];
  /** `slot[i]`: key `i`'s position in `listed`, or -1 when the key has no translatable entry. */
  slot: Int32Array;
  /** Keys whose `byKey` entry is translatable (the `of N base keys` of missing-key). */
  total: number;
}

const baseKeysMemo = new WeakMap<LocaleCatalog, BaseKeys>();

/** The BaseKeys of `base`, built once per catalog object (parsed catalogs are never mutated). */
function baseKeysOf(base: LocaleCatalog): BaseKeys {
  let k = baseKeysMemo.get(base);
  if (k) return k;
  const index = new Map<string, number>();
  const last: CatalogEntry[] = [];
  let total = 0;
  for (const [key, e] of base.byKey) {
    index.set(key, last.length);
    last.push(e);
    if (e.translatable) total++;
  }
  const slot = new Int32Array(last.length).fill(-1);
  const listed: CatalogEntry[] = [];
  for (const e of base.entries) {
    if (!e.translatable) continue;
    const i = index.get(e.key);
    if (i === undefined || slot[i] !== -1) continue;
    slot[i] = listed.length;
    listed.push(e);
  }
  k = { index, last, listed, slot, total };
  baseKeysMemo.set(base, k);
  return k;
}

/** The values folders an Android group id stands for: its id up to the last `/` (`res/values-land*` and a slash). */
export function androidFolderOf(groupId: string): string {
  return groupId.slice(0, groupId.lastIndexOf('/') + 1);
}

/**
 * The folders whose base files hold an Android group's defaults: its own (`res/values*` + `/`) and, for a group
 * with other qualifiers (`res/values-land*` + `/`, whose `values-land/` discovery never takes for a base), the
 * unqualified one: `values-de-land/` falls back to `values/`.
 */
export function androidDefaultFolders(groupId: string): string[] {
  const own = androidFolderOf(groupId);
  const plain = own.replace(/\/values-[^/]*\*\/$/, '/values*/').replace(/^values-[^/]*\*\/$/, 'values*/');
  return plain === own ? [own] : [own, plain];
}

const siblingMemo = new WeakMap<CatalogSet, Map<string, Promise<Map<string, { entry: CatalogEntry; path: string }>>>>();

/**
 * The defaults an Android group's translations take their keys from besides (or, without one, instead of) its own
 * base: Android merges every file of a values folder, so a key of `values-de/translations.xml` may be defined in
 * `values/localazy.xml` (Localazy's layout). The base entries of the group's sibling bases (same res folder and
 * qualifiers, other file names; then the unqualified `values/`), by key, with the file defining each. Memoised per
 * catalog set and group. Used by the judge and by the mutation sites (mutation-facts.ts). Throws what `ws.read` throws.
 */
export function androidSiblingBases(ws: Workspace, set: CatalogSet, group: CatalogGroup): Promise<Map<string, { entry: CatalogEntry; path: string }>> {
  let perSet = siblingMemo.get(set);
  if (!perSet) siblingMemo.set(set, (perSet = new Map()));
  let p = perSet.get(group.id);
  if (!p) {
    p = (async () => {
      const byKey = new Map<string, { entry: CatalogEntry; path: string }>();
      for (const folder of androidDefaultFolders(group.id)) {
        for (const g of set.groups) {
          if (g === group || g.format !== 'android-xml' || !g.base || androidFolderOf(g.id) !== folder) continue;
          const cat = baseLocaleCatalog(g, await loadCatalog(ws, g.base));
          for (const e of cat?.entries ?? []) if (!byKey.has(e.key)) byKey.set(e.key, { entry: e, path: g.base.path });
        }
      }
      return byKey;
    })();
    perSet.set(group.id, p);
  }
  return p;
}

/**
 * An entry's texts as the fingerprint of its findings takes them: the value, plural variants, array items,
 * substitution variables and device variations, without positions (a finding keeps its identity when lines move,
 * and loses it when the text it is about changes).
 */
export function entryText(e: CatalogEntry): string {
  const parts = [e.raw ?? e.value];
  const variants = (v: Record<string, { text: string; raw?: string }> | undefined) => {
    if (v) for (const k of Object.keys(v).sort()) parts.push(`${k}=${v[k]!.raw ?? v[k]!.text}`);
  };
  variants(e.plurals);
  for (const it of e.items ?? []) parts.push(it.raw ?? it.text);
  for (const name of Object.keys(e.variables ?? {}).sort()) {
    parts.push(`@${name}:${e.variables![name]!.spec}`);
    variants(e.variables![name]!.plurals);
  }
  for (const d of Object.keys(e.devices ?? {}).sort()) parts.push(`device ${d}=${e.devices![d]!.raw ?? e.devices![d]!.text}`);
  return parts.join('\u0001');
}

/** One shard of a run: the catalog files to judge, in the run's order, and what judging them needs to know. */
export interface JudgeJob {
  config: StringParityConfig;
  /** The run's mode is `staged`. */
  staged: boolean;
  /** The staged paths (`ws.targets()`) in a staged run, else null. */
  stagedPaths: readonly string[] | null;
  /**
   * Staged: unstaged Android translations pulled in because the commit takes defaults away from their res folder
   * (catalogs.ts `pulledByLostDefaults`), each with the cause (`the staged deletion of …`). They are judged for
   * `missing-default` only: their other findings are not the commit's doing.
   */
  defaultsPulledBy?: Readonly<Record<string, string>>;
  /**
   * Staged: keys the commit takes away from Android defaults (catalogs.ts `lostAndroidDefaults`), by res folder; null
   * for a folder whose HEAD side is unknown. A translation that still defines a lost key is reported as missing-default.
   */
  lostDefaults?: Readonly<Record<string, Readonly<Record<string, string>> | null>>;
  /** Repository-relative catalog files to judge (after include/exclude), in order. */
  inputs: readonly string[];
}

/** What `judgeFiles` found: `perInput[i]` holds the findings reported in `job.inputs[i]` (every finding of a file is). */
export interface JudgeResult {
  perInput: Out[][];
  files: number;
  items: number;
  /**
   * Android `<plurals>` translations without `other` in a locale where no integer count selects it (PairContext
   * intCounts), by locale: not findings; judge.ts says it once in a note.
   */
  intOnlyOther: Record<string, number>;
  /**
   * Staged: keys of staged Android translations that a `tools:ignore` kept from missing-default (1-based `line`, the
   * Lint `id` that did). judge.ts keeps those whose attribute HEAD's element lacks: the commit's own waiver.
   */
  lintIgnored?: LintIgnored[];
}

/** A translation key `tools:ignore="<id>"` keeps from missing-default, at `path`:`line`. */
export interface LintIgnored {
  path: string;
  line: number;
  key: string;
  id: string;
}

/**
 * Judge `job.inputs` against the groups of `set`, reading through `ws` (in a worker thread: a memory workspace of the
 * shard's files). Throws `Error('aborted')` when `signal` aborts between files, and what `ws.read` throws.
 */
export async function judgeFiles(ws: Workspace, set: CatalogSet, job: JudgeJob, signal?: AbortSignal): Promise<JudgeResult> {
  const { config, staged } = job;
  let items = 0;
  let current: Out[] = [];
  const perInput: Out[][] = [];
  const severityOf = (rule: RuleId): Severity | 'off' => config.rules[rule] ?? RULES[rule];
  // `members`: what a summary finding stands for (keys a locale lacks, locales a key is missing in), so a staged commit's
  // summary counts as introduced when it names one HEAD's did not (core/introduced.ts).
  const emitRaw = (file: string, f: RawFinding, subject: string, members?: readonly string[]) => {
    const sev = severityOf(f.rule);
    if (sev === 'off') return;
    current.push({ rule: f.rule, file, line: f.line, column: f.column, message: f.message, severity: sev, fingerprint: fingerprint(GATE, f.rule, file, subject), ...(members ? { members } : {}) });
  };
  const emit = emitRaw;
  const baseOf = async (group: CatalogGroup): Promise<LocaleCatalog | undefined> => (group.base ? baseLocaleCatalog(group, await loadCatalog(ws, group.base)) : undefined);
  const rulesFor = (locale: string, group: CatalogGroup) => {
    const alias = config.localeAliases[locale];
    return pluralRules(alias ?? locale, config.plurals, config.pseudoLocales, group.baseLocale);
  };
  const unknownReported = new Set<string>();
  const intOnlyOther: Record<string, number> = {};
  const stagedPaths = job.stagedPaths ? new Set(job.stagedPaths) : null;
  const lintIgnored: LintIgnored[] = [];

  // `pulledBy`: the staged base that made this unstaged translation an input. Its own problems (syntax, unknown
  // locale, keys it lacks, which the base already reports) are not the commit's doing, so only parity is judged.
  const androidSiblings = (group: CatalogGroup) => androidSiblingBases(ws, set, group);

  const judgeLocale = (
    file: CatalogFile,
    group: CatalogGroup,
    tr: LocaleCatalog,
    base: LocaleCatalog | undefined,
    headerLine: number,
    pulledBy?: string,
    siblings?: ReadonlyMap<string, { entry: CatalogEntry; path: string }>,
    only?: RuleId,
  ) => {
    // `pulledBy`: what made this unstaged file an input (`the staged change to the base …`).
    const emit = pulledBy
      ? (path: string, f: RawFinding, subject: string, members?: readonly string[]) => {
          if (f.rule === 'unknown-locale' || f.rule === 'missing-key' || (only && f.rule !== only)) return;
          emitRaw(path, { ...f, message: `${f.message} (caused by ${pulledBy}; ${path} is not staged)` }, subject, members);
        }
      : emitRaw;
    const rules = rulesFor(tr.locale, group);
    if (!rules && !unknownReported.has(`${file.path}\0${tr.locale}`)) {
      unknownReported.add(`${file.path}\0${tr.locale}`);
      emit(file.path, { rule: 'unknown-locale', line: headerLine, column: 1, message: `locale \`${tr.locale}\` has no CLDR plural rules (make-plural ${'7.5'}): plural categories not checked; add it to gates.string-parity.localeAliases or pseudoLocales` }, tr.locale);
    }
    const ctxPair = { locale: tr.locale, baseLocale: group.baseLocale, rules, baseRules: group.format === 'i18next-json' ? rulesFor(group.baseLocale, group) : null, flutterPlurals: group.format === 'arb', tags: group.format === 'arb' ? ('none' as const) : group.format === 'gettext-po' ? ('numeric' as const) : ('all' as const), emptyIsMissing: group.format === 'icu-json', markup: group.format !== 'gettext-po' && group.format !== 'arb', intCounts: group.format === 'android-xml' };
    const otherByIntegers = !rules || rules.integerRequired.includes('other') || !rules.required.includes('other');
    // Android keys with no default anywhere in values/ (the base deleted, or never written): R.string.x exists, so
    // on a device in any other locale getString throws Resources.NotFoundException (Android Lint: MissingDefaultResource).
    const noDefault: string[] = [];
    // Plural messages byte-identical to the base's (translation platforms copy the source into untranslated keys) that
    // lack this locale's categories: untranslated, reported once per file, not as plural errors of a language they are
    // not written in.
    const copies: string[] = [];
    // Keys this commit took away from the res folder's defaults (null/undefined: unknown, or not a staged run).
    const androidTr = group.format === 'android-xml' && !file.isBase;
    const lost = androidTr && job.lostDefaults ? job.lostDefaults[groupShapes(file.path)[0]!] : undefined;
    const defaultsFolder = androidDefaultFolders(group.id).at(-1)!.replace(/\*\/$/, '/');
    // The base's keys this translation has (`present[slot]`), as missingKeys(base, tr) would find them.
    const keys = base ? baseKeysOf(base) : undefined;
    const present = keys ? new Uint8Array(keys.listed.length) : undefined;
    let found = 0;
    for (const e of tr.entries) {
      items++;
      const i = keys?.index.get(e.key);
      let b: CatalogEntry | undefined;
      if (i !== undefined) {
        b = keys!.last[i]!;
        const at = keys!.slot[i]!;
        if (at !== -1 && present![at] === 0) {
          present![at] = 1;
          found++;
        }
      } else b = siblings?.get(e.key)?.entry;
      if (!b && androidTr) {
        // One rule in every mode, with or without a base file of the same name: a key no values/*.xml of the res
        // folder defines has no default. An unstaged translation pulled in by the commit: only the keys the commit
        // took away (its other ones were without a default before; HEAD's side already has them).
        const ignoredBy = lintIgnoreOf(e);
        if (ignoredBy && !pulledBy && stagedPaths?.has(file.path)) lintIgnored.push({ path: file.path, line: e.line, key: e.key, id: ignoredBy });
        if (ignoredBy && !pulledBy) emit(file.path, { rule: 'extra-key', line: e.line, column: e.column, message: `${tr.locale} \`${e.key}\` is not defined in any file of ${defaultsFolder} (tools:ignore="${ignoredBy}": not judged as missing-default)` }, `${tr.locale}\0${e.key}`);
        else if (!pulledBy || lost === null || lost?.[e.key] !== undefined) noDefault.push(e.key);
        if (base) continue;
      }
      if (e.gettext && (base || b)) {
        // Judged on its own, as msgfmt does: the message's msgid is its source text, whatever the base file says.
        const raw = gettextFindings(e, tr.locale);
        for (let k = 0; k < raw.length; k++) emit(file.path, raw[k]!, `${tr.locale}\0${e.key}\0${raw[k]!.message}`);
      }
      if (!base && !b) {
        const raw = checkBaseEntry(e, tr.locale);
        for (let k = 0; k < raw.length; k++) emit(file.path, raw[k]!, `${tr.locale}\0${e.key}\0${raw[k]!.message}\0${entryText(e)}`);
        // Apple `.strings` whose keys are the source text (NSLocalizedString without a base table: `"%@ reposted" =
        // "%@ teilte";`): the key is what the code formats, so a key holding a specifier is the translation's base.
        if (group.format === 'apple-strings' && e.kind === 'string' && e.key.includes('%') && e.grammar === 'printf-apple') {
          const keyBase: CatalogEntry = { key: e.key, kind: 'string', value: e.key, line: e.line, column: e.column, grammar: 'printf-apple', translatable: true };
          const cmp = compareEntry(e, keyBase, ctxPair).filter((f) => f.rule === 'placeholder-mismatch' || f.rule === 'invalid-specifier');
          for (let k = 0; k < cmp.length; k++) emit(file.path, { ...cmp[k]!, message: `${cmp[k]!.message} (the key is the source text: no base table holds it)` }, `${tr.locale}\0${e.key}\0${cmp[k]!.message}\0${entryText(e)}`);
        }
        continue;
      }
      if (!b) {
        emit(file.path, { rule: 'extra-key', line: e.line, column: e.column, message: `${tr.locale} \`${e.key}\` is not in the base catalog ${group.base?.path} (stale or misspelt key)` }, `${tr.locale}\0${e.key}`);
        continue;
      }
      if (!b.translatable) {
        emit(file.path, { rule: 'untranslatable-translated', line: e.line, column: e.column, message: `${tr.locale} \`${e.key}\` is marked translatable="false" in the base but translated here (the translation overrides the fixed value)` }, `${tr.locale}\0${e.key}`);
        continue;
      }
      // Indexed, not for-of: most entries get compareEntry's shared frozen empty array, whose for-of V8 does not
      // optimise (an iterator and a result object per entry: ~15 MB of garbage over the whole l10n corpus).
      let raw = compareEntry(e, b, ctxPair);
      if (!otherByIntegers && ctxPair.intCounts && e.kind === 'plural' && e.plurals && b.plurals && !('other' in e.plurals)) intOnlyOther[tr.locale] = (intOnlyOther[tr.locale] ?? 0) + 1;
      // A copy in another language that lacks the locale's categories: one untranslated-copy per file instead.
      if (raw.length && raw.some((f) => f.rule === 'plural-missing-category') && tr.locale.split('-')[0] !== group.baseLocale.split('-')[0] && isPluralCopy(e, b)) {
        copies.push(e.key);
        raw = raw.filter((f) => f.rule !== 'plural-missing-category');
      }
      // The translation's text is part of what the finding is about: an error whose text the commit rewrote is the commit's.
      for (let k = 0; k < raw.length; k++) emit(file.path, raw[k]!, `${tr.locale}\0${e.key}\0${raw[k]!.message}\0${entryText(e)}`);
    }
    if (copies.length) {
      const shown = copies.slice(0, 5).map((k) => `\`${k}\``).join(', ');
      emit(file.path, { rule: 'untranslated-copy', line: headerLine, column: 1, message: `${tr.locale}: ${copies.length} plural message${copies.length === 1 ? ' is' : 's are'} byte-identical to the base (${shown}${copies.length > 5 ? ', …' : ''}): untranslated copies of the source, shown to ${tr.locale} users in the base language, which lack ${tr.locale}'s plural categories; judged as plurals once translated` }, `${tr.locale}\0copies`, copies);
    }
    if (noDefault.length) {
      const shown = noDefault.slice(0, 5).map((k) => `\`${k}\``).join(', ');
      emit(file.path, { rule: 'missing-default', line: headerLine, column: 1, message: `${tr.locale}: ${noDefault.length} key${noDefault.length === 1 ? ' has' : 's have'} no default in ${defaultsFolder} (${shown}${noDefault.length > 5 ? ', …' : ''}): on a device in any other locale getString throws Resources.NotFoundException` }, `${tr.locale}\0no-default`, noDefault);
    }
    if (keys) {
      // missingKeys(base, tr): the listed keys not present. Unique keys: a base that defines a key twice (Chia's PO)
      // counts it once, as missingKeys does.
      const missing = keys.listed.length - found;
      const total = keys.total;
      const coverage = total ? ((total - missing) / total) * 100 : 100;
      const wantMissing = (missing && !(staged && file.isBase)) || coverage < config.minCoverage;
      const lacked: string[] = [];
      if (wantMissing) for (let s = 0; s < present!.length; s++) if (present![s] === 0) lacked.push(keys.listed[s]!.key);
      if (missing && !(staged && file.isBase)) {
        const first = lacked.slice(0, 5).map((k) => `\`${k}\``);
        emit(file.path, { rule: 'missing-key', line: headerLine, column: 1, message: `${tr.locale} lacks ${missing} of ${total} base keys: ${first.join(', ')}${missing > 5 ? ', …' : ''}` }, `${tr.locale}\0missing`, lacked);
      }
      if (coverage < config.minCoverage) {
        emit(file.path, { rule: 'coverage-below-floor', line: headerLine, column: 1, message: `${tr.locale} translates ${coverage.toFixed(1)}% of ${total} base keys, under the floor of ${config.minCoverage}%` }, `${tr.locale}\0coverage`, lacked);
      }
    }
  };

  let files = 0;
  for (const path of job.inputs) {
    if (signal?.aborted) throw new Error('aborted');
    perInput.push((current = []));
    const hit = set.byPath.get(path);
    if (!hit) continue;
    const { group, file } = hit;
    files++;
    const loaded = await loadCatalog(ws, file);
    const pulledBy = stagedPaths && !stagedPaths.has(path) && group.base && stagedPaths.has(group.base.path) ? group.base.path : undefined;
    if (pulledBy && !file.isBase) {
      const siblings = group.format === 'android-xml' ? await androidSiblings(group) : undefined;
      for (const tr of loaded.locales) judgeLocale(file, group, tr, await baseOf(group), 1, `the staged change to the base ${pulledBy}`, siblings);
      continue;
    }
    const cause = stagedPaths && !stagedPaths.has(path) && !file.isBase ? job.defaultsPulledBy?.[path] : undefined;
    if (cause) {
      const siblings = group.format === 'android-xml' ? await androidSiblings(group) : undefined;
      for (const tr of loaded.locales) judgeLocale(file, group, tr, await baseOf(group), 1, cause, siblings, 'missing-default');
      continue;
    }
    // Duplicate definitions: one finding per file and rule (Lingui catalogs can hold dozens), at the first duplicate.
    for (const [rule, poWhat, poWhy, subject] of DUPLICATE_SUMMARIES) {
      const dups = loaded.problems.filter((p) => p.rule === rule);
      if (!dups.length) continue;
      const d0 = dups[0]!;
      // JSON catalogs (ARB, i18next, ICU, .xcstrings): a name repeated in an object; JSON.parse keeps the last.
      const json = rule === 'duplicate-key' && group.format !== 'gettext-po';
      const what = json ? 'duplicate key' : poWhat;
      const why = json ? 'JSON.parse keeps only the last of each, so the earlier value is silently lost' : poWhy;
      const keys = dups.slice(0, 5).map((p) => `\`${p.key}\``).join(', ');
      emit(path, { rule, line: d0.line, column: d0.column, message: `${file.locale || group.baseLocale}: ${dups.length} ${what}${dups.length === 1 ? '' : 's'} (${keys}${dups.length > 5 ? ', …' : ''}); ${why}` }, subject, dups.map((p) => p.key ?? ''));
    }
    for (const p of loaded.problems) {
      if (p.rule === 'duplicate-key' || p.rule === 'duplicate-resource') continue;
      const f: RawFinding = { rule: p.rule, line: p.line, column: p.column, message: `${file.locale || group.baseLocale}${p.key ? ` \`${p.key}\`` : ''}: ${p.message}` };
      emit(path, f, `${p.key ?? ''}\0${p.message}`);
    }
    const baseLoaded = group.base ? (group.base.path === path ? loaded : await loadCatalog(ws, group.base)) : undefined;
    const baseCat = baseLoaded ? baseLocaleCatalog(group, baseLoaded) : undefined;
    if (file.isBase && baseCat) {
      // The base's plurals against its own locale's CLDR categories, as a translation's are against its locale's.
      const baseCtx: PairContext = { locale: baseCat.locale, baseLocale: baseCat.locale, rules: rulesFor(baseCat.locale, group), flutterPlurals: group.format === 'arb', intCounts: group.format === 'android-xml' };
      for (const e of baseCat.entries) {
        items++;
        const raw = checkBaseEntry(e, baseCat.locale);
        for (let k = 0; k < raw.length; k++) emit(path, raw[k]!, `${baseCat.locale}\0${e.key}\0${raw[k]!.message}\0${entryText(e)}`);
        const plural = e.translatable ? basePluralFindings(e, baseCtx) : [];
        for (let k = 0; k < plural.length; k++) emit(path, plural[k]!, `${baseCat.locale}\0${e.key}\0${plural[k]!.message}\0${entryText(e)}`);
        if (e.extractionState === 'stale') {
          emit(path, { rule: 'extra-key', line: e.line, column: e.column, message: `\`${e.key}\` is marked stale: no longer found in the source code` }, `stale\0${e.key}`);
        }
        if (group.format === 'xcstrings' && !e.translatable) {
          const translatedIn = loaded.locales.filter((l) => l !== baseCat && l.byKey.has(e.key)).map((l) => l.locale);
          if (translatedIn.length) emit(path, { rule: 'untranslatable-translated', line: e.line, column: e.column, message: `\`${e.key}\` has shouldTranslate: false but is translated in ${translatedIn.join(', ')}` }, `untranslatable\0${e.key}`);
        }
      }
      // A staged base: which locales lack each of its keys (a new key lacks them all). A String Catalog holds its
      // translations itself, so the locales counted are the file's other ones (its per-locale summaries are not
      // judged staged: the file is the base). HEAD's side is judged the same way, so only a gap the commit makes (a
      // new key, a translation taken away) is introduced.
      if (staged) {
        const xc = group.format === 'xcstrings';
        const others: LocaleCatalog[] = xc ? loaded.locales.filter((l) => l !== baseCat) : [];
        if (!xc) for (const other of group.files) if (other.path !== path) others.push(...(await loadCatalog(ws, other)).locales);
        const lacking = new Map<string, string[]>();
        for (const loc of others) for (const e of missingKeys(baseCat, loc)) lacking.set(e.key, [...(lacking.get(e.key) ?? []), loc.locale]);
        const n = xc ? others.length : group.files.length - 1;
        const what = xc ? 'locale' : 'locale file';
        for (const [key, locales] of lacking) {
          const e = baseCat.byKey.get(key)!;
          emit(path, { rule: 'missing-key', line: e.line, column: e.column, message: `\`${key}\` is missing in ${locales.length} of ${n} ${what}${n === 1 ? '' : 's'}: ${locales.slice(0, 12).join(', ')}${locales.length > 12 ? ', …' : ''}` }, `lacking\0${key}`, locales);
        }
      }
    }
    // Translations held by this file: all non-source locales of an .xcstrings, or the file's own locale.
    const translations = group.format === 'xcstrings' ? loaded.locales.filter((l) => l !== baseCat) : file.isBase ? [] : loaded.locales;
    const siblings = group.format === 'android-xml' && translations.length ? await androidSiblings(group) : undefined;
    for (const tr of translations) {
      const header = group.format === 'xcstrings' ? (tr.entries[0]?.line ?? 1) : 1;
      judgeLocale(file, group, tr, baseCat, header, undefined, siblings);
    }
    // Outside a staged run a judged translation is needed by nothing else of the run: let it go (bases stay).
    if (!staged && !file.isBase) await releaseCatalog(ws, file);
  }
  return { perInput, files, items, intOnlyOther, ...(lintIgnored.length ? { lintIgnored } : {}) };
}

/**
 * The `tools:ignore` id under which Android Lint stays silent about translation `e` having no default, or undefined:
 * Lint reports a `<string>` or `<string-array>` without one as ExtraTranslation and a `<plurals>` as
 * MissingDefaultResource (TranslationDetector.reportExtraResource), each suppressed by its own id or `all`.
 */
export function lintIgnoreOf(e: CatalogEntry): string | undefined {
  if (!e.lintIgnore) return undefined;
  const id = e.kind === 'plural' ? 'MissingDefaultResource' : 'ExtraTranslation';
  const lower = id.toLowerCase();
  for (const x of e.lintIgnore) if (x === 'all' || x === lower || x === `androidlint${lower}`) return x === 'all' ? 'all' : id;
  return undefined;
}

/**
 * Whether translation `e` is a byte-identical copy of its base entry `b` and holds a plural (plural forms, Apple plural
 * variables, or an ICU plural in its text): the text a translation platform writes for a key nobody translated.
 */
function isPluralCopy(e: CatalogEntry, b: CatalogEntry): boolean {
  if (e.kind !== b.kind || e.value !== b.value) return false;
  const texts = (p: Record<string, { text: string }> | undefined) => (p ? Object.entries(p).map(([k, v]) => `${k}\0${v.text}`).sort().join('\u0001') : '');
  if (texts(e.plurals) !== texts(b.plurals)) return false;
  const vars = (x: CatalogEntry) => Object.entries(x.variables ?? {}).map(([n, v]) => `${n}\0${texts(v.plurals)}`).sort().join('\u0002');
  if (vars(e) !== vars(b)) return false;
  return e.kind === 'plural' || (e.variables !== undefined && Object.keys(e.variables).length > 0) || /\{\s*[\w.]+\s*,\s*plural\s*,/.test(e.value);
}
