// hardcoded-strings: the judging half of the gate (run()), loaded on demand by index.ts so a commit that stages
// nothing this gate reads never loads the parsers (web-tree-sitter grammars, saxes). A commit's few small files are
// parsed on the calling thread; past THREAD_BUDGET_CHARS of text, one worker thread per run parses (extract.ts) and
// the run's signal terminates it. Catalogs, allow-list, suppressions and findings are decided here either way.
import { fingerprint } from '../../core/finding.js';
import type { GateContext, GateOutput } from '../../core/types.js';
import type { AndroidResources } from './android-resources.js';
import type { CatalogLookup, Platform, Suggestion } from './catalog-lookup.js';
import { GATE_ID, languageOf, RULES, type HardcodedStringsConfig, type Language } from './index.js';
import { openExtractor, type ExtractOptions, type Extractor } from './extract.js';
import { removedEveryNote } from '../../core/inputs.js';
import { inRanges, isPlaceholderReason, MIN_REASON_WORDS, type Directive } from '../../core/suppression.js';
import { DEFAULT_TABLE, UNKNOWN_SLOT, type AndroidReference, type Candidate, type Extraction, type KeyReference } from './model.js';

const PLATFORM: Readonly<Record<Language, Platform>> = {
  'android-xml': 'android',
  kotlin: 'android',
  java: 'android',
  swift: 'apple',
  tsx: 'web',
  typescript: 'web',
  javascript: 'web',
};

/** How a suggested key is written at the finding's place: `@string/x` in XML, `R.string.x` in code, else the key. */
function spell(s: Suggestion, language: Language): string {
  if (s.platform === 'android') return language === 'android-xml' ? `@string/${s.key}` : `R.string.${s.key}`;
  return `key ${JSON.stringify(s.key)}`;
}

/** A literal in a message, cut after 77 code points (not UTF-16 units: a cut inside an emoji kept half a pair). */
const quote = (s: string) => {
  const chars = [...s];
  return JSON.stringify(chars.length > 80 ? `${chars.slice(0, 77).join('')}...` : s);
};

/**
 * A run of more parsed files than this (more than a commit's worth) starts with the worker at once (see below).
 * Grammars run on V8's baseline WebAssembly code only (tree-sitter.ts). Measured with the Kotlin grammar (4 MB of
 * WebAssembly) on 30 KB files, optimising vs. baseline: 1 file 1,212 -> 459 ms of CPU, 20 files 2,437 -> 1,660 ms,
 * 200 files 12,190 -> 14,661 ms.
 */
const QUICK_START_MAX_FILES = 64;

/**
 * A run parses on the calling thread while the text it has parsed there stays within this many characters; the file
 * that would pass it, and every file after it, go to one worker thread (extract.ts), which the run's signal
 * terminates. A run of more files than QUICK_START_MAX_FILES starts with the worker (it would pass the budget anyway,
 * and the grammars then load once). Why a budget: a worker costs ~60 ms of wall time and ~80 ms of CPU to start here,
 * plus a second load of its grammars, on every run (a one-file commit, each self-test case); parse time grows with
 * the text (generated Kotlin: ~2.5 s per MB on V8's baseline tier, 7.8 s per MB for the 12 MB file that held a run
 * 94 s against a 60 s bound), so 128 K characters hold the calling thread about a second at worst.
 */
const THREAD_BUDGET_CHARS = 128 * 1024;

/** Files read (and posted to the worker) ahead of the one being judged: bounds the texts held in memory. */
const LOOKAHEAD_FILES = 4;

/** Judge `inputs`; exported for tests that hold a lookup of their own. */
export async function judge(
  ctx: Pick<GateContext<HardcodedStringsConfig>, 'ws' | 'config' | 'signal'>,
  inputs: readonly string[],
  loadCatalogs: () => Promise<CatalogLookup> = async () => (await import('./catalog-lookup.js')).loadLookup(ctx.ws),
  loadAndroid: () => Promise<AndroidResources> = async () => (await import('./android-resources.js')).loadAndroidResources(ctx.ws),
): Promise<GateOutput> {
  // Catalogs are read only when a literal survives the allow-list and suppressions: most commits have none.
  let lookupPromise: Promise<CatalogLookup> | undefined;
  const lookup = () => (lookupPromise ??= loadCatalogs());
  let androidPromise: Promise<AndroidResources> | undefined;
  const android = () => (androidPromise ??= loadAndroid());
  // Android references: looked up; naming a library's (or an unknown) R class; absent but perhaps a library's.
  const refs = { looked: 0, unchecked: 0, library: 0, maybeLibrary: 0 };
  const { config } = ctx;
  const allow = config.allow.map((source) => ({ source, re: new RegExp(source, 'u'), removed: 0 }));
  const jobs: Array<{ file: string; language: Language }> = [];
  for (const file of inputs) {
    const language = languageOf(file);
    if (language) jobs.push({ file, language });
  }
  const findings: GateOutput['findings'] = [];
  const notes: string[] = [];
  /** Counts of what was read that no verdict depends on (GateOutput.info). */
  const info: string[] = [];
  let files = 0;
  let candidates = 0;
  let filtered = 0;
  let suppressed = 0;
  // Staged: text only a tools:ignore the commit adds keeps from a finding (GateOutput.waived; the hook refuses it).
  const waived: string[] = [];
  // Catalog keys asked for by literal: looked up, or not (no web catalog); computed keys are only counted.
  // Brand and product names: listed in `names`, or a one-word alt/title naming its own element (jsx.ts ownNames).
  const names = new Set(config.names);
  let byNames = 0;
  let addresses = 0;
  let ownNames = 0;
  let keysLooked = 0;
  let keysUnchecked = 0;
  let computedKeys = 0;
  const languages = new Set<Language>();
  if (inputs.length > 0 && ctx.signal.aborted) throw new Error('aborted');
  const options = { attributes: config.attributes, textComponents: config.textComponents, honorLintIgnore: config.honorLintIgnore };
  const settings = { signal: ctx.signal };
  let thread: Extractor | undefined;
  let worker: Extractor | undefined;
  let threadChars = 0;
  // Called in input order (reads are chained), so which files go where depends on the inputs only.
  const extractorFor = (chars: number): Extractor => {
    if (!worker && jobs.length <= QUICK_START_MAX_FILES && threadChars + chars <= THREAD_BUDGET_CHARS) {
      threadChars += chars;
      return (thread ??= openExtractor(options, { ...settings, inThread: true }));
    }
    return (worker ??= openExtractor(options, settings));
  };
  try {
    const started: Array<Promise<Extraction> | undefined> = [];
    let reads: Promise<unknown> = Promise.resolve();
    const start = (i: number) => {
      const { file, language } = jobs[i]!;
      const text = reads.then(() => ctx.ws.readText(file));
      reads = text.catch(() => undefined);
      const p = text.then((t) => {
        const source = t.replace(/^\uFEFF/u, '');
        return extractorFor(source.length).extract(language, source);
      });
      // Awaited in order below; until then a rejection must not count as unhandled.
      p.catch(() => undefined);
      started[i] = p;
    };
    for (let i = 0; i < jobs.length; i++) {
      if (ctx.signal.aborted) throw new Error('aborted');
      for (let k = started.length; k < Math.min(jobs.length, i + LOOKAHEAD_FILES); k++) start(k);
      const { file, language } = jobs[i]!;
      const ex = await started[i]!;
      started[i] = undefined;
      files++;
      languages.add(language);
      if (ex.fatal) {
        findings.push({ rule: RULES.unparsable, file, line: ex.fatal.line, column: ex.fatal.column, severity: 'error', message: `cannot parse ${file}: ${ex.fatal.message}; no literal in it was judged` });
        continue;
      }
      const first = ex.syntaxErrors[0];
      if (first) notes.push(`${file}:${first.line}:${first.column}: ${ex.syntaxErrors.length} syntax error(s) recovered; literals inside them may be missed`);
      for (const d of ex.directives) {
        if (d.reason !== undefined && !isPlaceholderReason(d.reason)) continue;
        findings.push({
          rule: RULES.suppressionWithoutReason,
          file,
          line: d.line,
          column: d.column,
          severity: 'error',
          message:
            d.reason === undefined
              ? `loopgates-ignore hardcoded-strings needs a reason after the colon ("loopgates-ignore hardcoded-strings: <why>"); without one it suppresses nothing`
              : `loopgates-ignore hardcoded-strings: "${d.reason}" is a placeholder, not a reason (a reason is ${MIN_REASON_WORDS} words or more, not "fix later"); it suppresses nothing. fix: say why the text stays as it is, in two words or more (loopgates-ignore hardcoded-strings: brand name)`,
          // Not the line: an old directive keeps its identity when lines above it move (identical ones are told apart by count).
          fingerprint: fingerprint(GATE_ID, RULES.suppressionWithoutReason, file, 'directive'),
        });
      }
      const valid = ex.directives.filter((d) => d.reason !== undefined && !isPlaceholderReason(d.reason));
      if (valid.length && ctx.ws.before) {
        // One that covers no literal, key or resource reference is misplaced (a blank line before the call, above the
        // root element): "added" would read as if it took effect.
        const covered = [...ex.candidates, ...(ex.keyReferences ?? []), ...(ex.androidReferences ?? [])].map((c) => c.line);
        for (const d of await addedDirectives(ctx.ws, file, valid)) {
          const what = `(loopgates-ignore ${GATE_ID}: ${d.reason})`;
          if (covered.some((l) => inRanges(l, d.ranges))) notes.push(`${file}:${d.line}: suppression added ${what}`);
          else notes.push(`${file}:${d.line}: suppression covers nothing ${what}: it applies only to ${d.ranges.length === 1 ? 'its own line' : language === 'android-xml' ? 'the start tag of the element right after it' : 'its own line and the statement or line right after it'}; move it above the text it is for`);
        }
      }
      let lintSuppressed: Candidate[] | undefined;
      for (const c of ex.candidates) {
        candidates++;
        if (names.has(c.literal.trim())) {
          filtered++;
          byNames++;
          continue;
        }
        if (c.ownName) {
          filtered++;
          ownNames++;
          continue;
        }
        // Every entry is tried (not only the first that matches) so an entry that matches everything is named.
        let allowed = false;
        for (const a of allow) {
          if (a.re.test(c.literal)) {
            a.removed++;
            allowed = true;
          }
        }
        if (allowed) {
          filtered++;
          continue;
        }
        // After the allow-list, so an entry that matches everything is still named as such.
        if (isAddress(c.literal)) {
          filtered++;
          addresses++;
          continue;
        }
        if (c.suppressedBy || valid.some((d) => inRanges(c.line, d.ranges))) {
          suppressed++;
          if (c.suppressedAt && ctx.ws.before) (lintSuppressed ??= []).push(c);
          continue;
        }
        const f = judgeCandidate(file, language, c, await lookup());
        if (f) findings.push(f);
      }
      if (lintSuppressed) waived.push(...(await addedLintIgnores(ctx.ws, file, ex, lintSuppressed, options)));
      computedKeys += ex.computedKeys ?? 0;
      for (const k of ex.keyReferences ?? []) {
        if (valid.some((d) => inRanges(k.line, d.ranges))) {
          suppressed++;
          continue;
        }
        const l = await lookup();
        if (l.webCatalogs.length === 0) {
          keysUnchecked++;
          continue;
        }
        keysLooked++;
        if (l.hasWebKey(k.key, ex.keyPrefix === true)) continue;
        findings.push(missingWebKey(file, k, l));
      }
      for (const r of ex.androidReferences ?? []) {
        if (valid.some((d) => inRanges(r.line, d.ranges))) {
          suppressed++;
          continue;
        }
        const res = await android();
        if (res.files === 0) {
          refs.unchecked++;
          continue;
        }
        const xml = r.rPackage === undefined;
        if (r.rPackage !== undefined && !res.ownsPackage(r.rPackage)) {
          refs.library++;
          continue;
        }
        refs.looked++;
        if (await res.defines(r.type, r.name)) continue;
        // Only a module's own non-transitive R proves a name no module defines cannot exist; XML and transitive R
        // classes also hold every library's resources, so there only a near miss of a defined name is reported.
        const strict = !xml && res.nonTransitive && !(r.type === 'string' && res.dynamicResValue);
        const near = await res.near(r.type, r.name);
        if (!strict && near === undefined) {
          refs.maybeLibrary++;
          continue;
        }
        findings.push(missingAndroidResource(file, r, near));
      }
    }
  } finally {
    // Not awaited: the result does not wait for the thread to wind down (a terminated thread stops at once).
    void thread?.close();
    void worker?.close();
  }
  const computed = computedKeys === 0 ? '' : `; ${computedKeys} computed ${computedKeys === 1 ? 'key' : 'keys'} (t(\`…\${}\`), t(variable)) ${computedKeys === 1 ? 'was' : 'were'} not`;
  if (byNames > 0) notes.push(`${byNames} ${byNames === 1 ? 'literal is a name' : 'literals are names'} listed in gates.${GATE_ID}.names, not judged`);
  if (addresses > 0) notes.push(`${addresses} ${addresses === 1 ? 'literal is' : 'literals are'} only a URL, an e-mail address or a domain name (the same in every language): not judged`);
  if (ownNames > 0) notes.push(`${ownNames} one-word alt/title/aria-label ${ownNames === 1 ? 'value names its' : 'values name their'} own element (src, icon, href): read as brand or product names, not judged`);
  if (keysLooked > 0) info.push(`${keysLooked} catalog ${keysLooked === 1 ? 'key' : 'keys'} the code asks for ${keysLooked === 1 ? 'was' : 'were'} looked up${computed}`);
  if (keysUnchecked > 0) notes.push(`no i18next or FormatJS catalog in the repository: ${keysUnchecked} catalog ${keysUnchecked === 1 ? 'key' : 'keys'} the code asks for ${keysUnchecked === 1 ? 'was' : 'were'} not looked up${computed}`);
  const n = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
  if (refs.looked > 0) notes.push(`${n(refs.looked, 'Android resource reference (R.string.x, @string/x) was', 'Android resource references (R.string.x, @string/x) were')} looked up in the repository's res/values*/ files`);
  if (refs.library > 0) notes.push(`${n(refs.library, 'reference names', 'references name')} the R class of a library or of a package no module declares (namespace, manifest package): not looked up`);
  if (refs.maybeLibrary > 0) notes.push(`${n(refs.maybeLibrary, 'reference names a resource', 'references name resources')} no module defines, resolved against merged resources (XML, or a transitive R class) where a library may define ${refs.maybeLibrary === 1 ? 'it' : 'them'}: not reported`);
  if (refs.unchecked > 0) notes.push(`no Android res/values*/ file in the repository: ${n(refs.unchecked, 'resource reference was', 'resource references were')} not looked up`);
  for (const a of allow) {
    if (candidates > 0 && a.removed === candidates) notes.push(`allow-list entry /${a.source}/ matches every candidate (${a.removed} of ${candidates}): the gate saw no text it could judge`);
  }
  const blind = removedEveryNote(`the allow-list (${allow.map((a) => `/${a.source}/`).join(', ')})`, 'candidate', filtered, candidates, ' between its entries');
  if (blind && !allow.some((a) => a.removed === candidates)) notes.push(blind);
  const emptyLists: Array<[boolean, string]> = [
    [languages.has('android-xml') && config.attributes.android.length === 0, 'attributes.android'],
    [languages.has('kotlin') && config.attributes.kotlin.length === 0, 'attributes.kotlin'],
    [languages.has('swift') && config.attributes.swift.length === 0, 'attributes.swift'],
    [(languages.has('tsx') || languages.has('javascript')) && config.attributes.jsx.length === 0, 'attributes.jsx'],
    [(languages.has('tsx') || languages.has('javascript')) && config.textComponents.length === 0, 'textComponents'],
  ];
  for (const [empty, key] of emptyLists) if (empty) notes.push(`gates.${GATE_ID}.${key} is empty: that filter removes every candidate of its kind`);
  return { findings, counts: { files, items: candidates, filtered, suppressed }, itemUnit: 'strings', notes, ...(info.length ? { info } : {}), ...(waived.length ? { waived } : {}) };
}

/**
 * Of `suppressed` (candidates of the staged `file` a Lint `tools:ignore` covers), those whose suppressing element the
 * staged file names more often than HEAD's (Extraction.lintIgnores): `file:line "text", by the
 * tools:ignore="HardcodedText" it adds`. A HEAD side that does not parse holds none.
 */
async function addedLintIgnores(ws: GateContext<unknown>['ws'], file: string, ex: Extraction, suppressed: readonly Candidate[], options: ExtractOptions): Promise<string[]> {
  const old = await ws.before!(file);
  const had = new Map<string, number>();
  if (old !== undefined) {
    const { extractSource } = await import('./extract.js');
    for (const n of (await extractSource('android-xml', old.toString('utf8').replace(/^\uFEFF/u, ''), options)).lintIgnores ?? []) had.set(n, (had.get(n) ?? 0) + 1);
  }
  const has = new Map<string, number>();
  for (const n of ex.lintIgnores ?? []) has.set(n, (has.get(n) ?? 0) + 1);
  const short = (t: string) => (t.length > 60 ? `${t.slice(0, 57)}…` : t);
  return suppressed.filter((c) => (has.get(c.suppressedAt!) ?? 0) > (had.get(c.suppressedAt!) ?? 0)).map((c) => `${file}:${c.line} ${JSON.stringify(short(c.literal.trim()))}, by the tools:ignore="HardcodedText" it adds`);
}

const URL_SHAPE = /^(?:[a-z][a-z0-9+.-]*:\/\/|www\.)\S+$/iu;
const EMAIL = /^(?:mailto:)?[^\s@]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,24}$/iu;
/**
 * Top-level domains a bare domain name must end in to count as one: common generic ones and country codes. Not any
 * letters: a dotted key (`settings.about.title`, a SwiftUI key) has the shape of a domain too.
 */
const TLD = 'com|org|net|edu|gov|mil|int|io|app|dev|co|me|info|biz|xyz|ai|tv|fm|ly|gg|to|sh|so|cc|social|online|site|tech|cloud|email|page|blog|news|us|uk|de|fr|eu|ca|au|nz|jp|cn|kr|ru|ua|nl|be|ch|at|se|no|dk|fi|is|es|pt|it|pl|cz|sk|hu|ro|gr|tr|il|br|ar|mx|cl|in|id|sg|hk|tw|za';
// Lowercase labels: "antennapod.org/privacy", not "Mr.Smith", "v1.2" or "e.g.".
const DOMAIN = new RegExp(`^(?:[a-z0-9-]+\\.)+(?:${TLD})(?:/\\S*)?$`, 'u');
const DOMAIN_SUFFIX = new RegExp(`^\\.(?:${TLD})$`, 'u');

/**
 * Whether a literal (trimmed) is only a URL (`https://…`, `www.…`), an e-mail address (`mailto:` optional), a
 * domain name with an optional path (`antennapod.org/privacy`) or a domain suffix (`.com`): shown the same in every
 * language, never translated. Text around one (`Visit example.org`) is text.
 */
export function isAddress(literal: string): boolean {
  const t = literal.trim();
  return URL_SHAPE.test(t) || EMAIL.test(t) || DOMAIN.test(t) || DOMAIN_SUFFIX.test(t);
}

/**
 * The message of a `missing-catalog-key` finding. Without any Apple catalog, or with an unknown table (a `tableName:`
 * that is not a literal), it says what it said before tables were told apart; else it names the table searched, its
 * file names, whether the app has any of them, and the tables that hold the key but are not searched.
 */
/** For a SwiftUI key with UNKNOWN_SLOT: what the mark stands for, so the key added is the one SwiftUI builds. */
function unknownSlots(key: string): string {
  if (!key.includes(UNKNOWN_SLOT)) return '';
  return ` (${UNKNOWN_SLOT} marks a \\(…) whose type this file does not show: SwiftUI writes %lld for an Int, %llu for a UInt, %lf for a Double, %@ for a String or a format:, and no such key is in the table)`;
}

/** A key of the table with the same text and other specifiers: the value's type, not the catalog, is what differs. */
function likeKeys(key: string, table: string, lookup: CatalogLookup): string {
  const like = lookup.appleKeysLike(key, table);
  if (like.length === 0) return '';
  const shown = like.slice(0, 2).map(quote).join(', ') + (like.length > 2 ? ` and ${like.length - 2} more` : '');
  return `; table \`${table}\` has ${shown}: the same text with other specifiers, so the value passed has another type than the key was made for`;
}

function missingKeyMessage(context: string, key: string, table: string | undefined, lookup: CatalogLookup): string {
  const after = ', so it shows as written in every locale';
  if (!lookup.hasAppleCatalog || table === undefined) {
    const where = lookup.hasAppleCatalog ? 'no string catalog (.xcstrings / .strings) of the app holds it' : 'the app has no string catalog (.xcstrings / .strings)';
    return `${context} key ${quote(key)} is looked up at run time but ${where}${after}; add it to the catalog${unknownSlots(key)}`;
  }
  const names = `${table}.strings / ${table}.stringsdict / ${table}.xcstrings${lookup.hasAppleTable(table) ? '' : ': the app has none of them'}`;
  const why = table === DEFAULT_TABLE ? " (SwiftUI's default when no tableName: is given)" : '';
  const others = lookup.appleTablesWith(key).filter((t) => t !== table);
  const shown = others.slice(0, 3).map((t) => `\`${t}\``).join(', ') + (others.length > 3 ? ` and ${others.length - 3} more` : '');
  const elsewhere = others.length === 0 ? '' : `; ${others.length === 1 ? 'table' : 'tables'} ${shown} ${others.length === 1 ? 'has' : 'have'} it but ${others.length === 1 ? 'is' : 'are'} not searched`;
  return `${context} key ${quote(key)} is not in table \`${table}\` (${names}), the only table it is looked up in at run time${why}${elsewhere}${after}; add it to table \`${table}\`${unknownSlots(key)}${likeKeys(key, table, lookup)}`;
}

/**
 * A web catalog key no base catalog resolves: an error when users see the key itself (i18next returns the key,
 * react-intl the id), a warning when the call gives a default (every locale shows that text).
 */
function missingWebKey(file: string, k: KeyReference, lookup: CatalogLookup): GateOutput['findings'][number] {
  const catalogs = lookup.webCatalogs.filter((c) => lookup.serves(c, file));
  const shownOf = (list: readonly string[], of = false) =>
    list.slice(0, 3).map((c) => (of ? `${c}, of ${lookup.packageOf(c)}` : c)).join(of ? '; ' : ', ') + (list.length > 3 ? ` and ${list.length - 3} more` : '');
  const after = k.hasDefault ? 'so every locale shows its default text' : 'so users see the key itself';
  // A workspace no catalog serves (an Expo app beside a Next.js one): the fix is a catalog of its own, not the sibling's.
  const message = catalogs.length
    ? `${k.context} key ${quote(k.key)} is in no base catalog of the app (${shownOf(catalogs)}), ${after}; add it to ${catalogs.length === 1 ? catalogs[0]! : 'the base catalog'}`
    : `${k.context} key ${quote(k.key)} is in no base catalog of the repository (${shownOf(lookup.webCatalogs, true)}), ${after}; add it to a string catalog of ${lookup.packageOf(file)} (it has none)`;
  return {
    rule: RULES.missingKey,
    file,
    line: k.line,
    column: k.column,
    severity: k.hasDefault ? 'warning' : 'error',
    message,
    fingerprint: fingerprint(GATE_ID, RULES.missingKey, file, `${k.context}\0${k.key}`),
  };
}

/**
 * An Android text resource no module of the repository defines: the build fails (an unresolved R field, aapt2's
 * "resource not found"). `near`: the defined name one or two edits away.
 */
function missingAndroidResource(file: string, r: AndroidReference, near: string | undefined): GateOutput['findings'][number] {
  const element = r.type === 'string' ? '<string>' : r.type === 'plurals' ? '<plurals>' : '<string-array>';
  const hint = near === undefined ? `; add a ${element} named ${quote(r.name)} to the module's res/values/ catalog` : `; did you mean ${quote(near)}, which a module defines?`;
  return {
    rule: RULES.missingKey,
    file,
    line: r.line,
    column: r.column,
    severity: 'error',
    message: `${r.context} is a ${r.type} resource no module of the repository defines (no res/values*/ ${element} of that name, no resValue), so the build fails${hint}`,
    fingerprint: fingerprint(GATE_ID, RULES.missingKey, file, `${r.context}\0${r.name}`),
  };
}

/** Where a web file's text belongs: "the string catalog", or, for a package no web catalog serves, a catalog of its own. */
function catalogFor(file: string, language: Language, lookup: CatalogLookup): string {
  const pkg = lookup.packageOf(file);
  if (PLATFORM[language] !== 'web' || pkg === '' || lookup.webCatalogs.length === 0 || lookup.webCatalogs.some((c) => lookup.serves(c, file))) return 'the string catalog';
  const others = lookup.webCatalogs;
  const owners = [...new Set(others.map((c) => lookup.packageOf(c)))];
  const whose = others.length === 1 ? `${others[0]!} belongs to ${owners[0]!}` : `the repository's catalogs belong to ${owners.join(', ')}`;
  return `a string catalog of ${pkg} (it has none: ${whose})`;
}

function judgeCandidate(file: string, language: Language, c: Candidate, lookup: CatalogLookup): GateOutput['findings'][number] | undefined {
  if (c.lookupKey !== undefined) {
    if (lookup.hasAppleKey(c.lookupKey, c.lookupTable)) return undefined;
    // Xcode extracts commented keys into the String Catalog of their table when it builds: not built yet, not hard-coded.
    const table = c.lookupTable;
    const catalog = c.commented && table !== undefined ? lookup.xcstringsOf(table) : undefined;
    if (catalog !== undefined) {
      return {
        rule: RULES.missingKey,
        file,
        line: c.line,
        column: c.column,
        severity: 'warning',
        message: `${c.context} key ${quote(c.lookupKey)} is not in \`${table}.xcstrings\` yet: Xcode adds a String Catalog's keys when it builds the app (its comment: becomes the translator note); build once and commit ${catalog}`,
        fingerprint: fingerprint(GATE_ID, RULES.missingKey, file, `${c.context}\0${c.literal}`),
      };
    }
    return {
      rule: RULES.missingKey,
      file,
      line: c.line,
      column: c.column,
      severity: 'error',
      message: missingKeyMessage(c.context, c.lookupKey, c.lookupTable, lookup),
      fingerprint: fingerprint(GATE_ID, RULES.missingKey, file, `${c.context}\0${c.literal}`),
    };
  }
  // Web components that translate their props (`<List.Item title='Autoplay_gifs'>`) are handed keys, not text.
  if (PLATFORM[language] === 'web' && lookup.isKeyOnly(c.literal, 'web')) return undefined;
  const s = lookup.suggest(c.literal, PLATFORM[language], file);
  const instead = s ? `; the base catalog ${s.catalog} already has it: use ${spell(s, language)}` : `; move it to ${catalogFor(file, language, lookup)}`;
  return {
    rule: RULES.hardcodedText,
    file,
    line: c.line,
    column: c.column,
    severity: 'error',
    message: `hard-coded text ${quote(c.literal)} in ${c.context}${instead}`,
    fingerprint: fingerprint(GATE_ID, RULES.hardcodedText, file, `${c.context}\0${c.literal}`),
  };
}

/**
 * Of `valid` (the staged file's directives), those the staged change adds: every one in a file HEAD does not hold, else
 * those whose line (trimmed) HEAD's file does not hold as often (a multiset: an old directive that moved is not new).
 * Named in the verdict, as a bypass is: a suppression is a decision a reviewer should see in the commit that makes it.
 */
async function addedDirectives(ws: GateContext<unknown>['ws'], file: string, valid: readonly Directive[]): Promise<Directive[]> {
  const before = await ws.before!(file);
  const lines = (await ws.readText(file)).split(/\r?\n/u);
  const had = new Map<string, number>();
  if (before !== undefined) {
    for (const l of before.toString('utf8').split(/\r?\n/u)) {
      const key = l.trim();
      if (key.includes('loopgates-ignore')) had.set(key, (had.get(key) ?? 0) + 1);
    }
  }
  const out: Directive[] = [];
  for (const d of valid) {
    const key = (lines[d.line - 1] ?? '').trim();
    const n = had.get(key) ?? 0;
    if (n > 0) had.set(key, n - 1);
    else out.push(d);
  }
  return out;
}
