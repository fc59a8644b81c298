// hardcoded-strings: the judging half of the gate (run()), loaded on demand by index.ts so a commit that stages
// nothing this gate reads never loads the parsers (web-tree-sitter grammars, saxes).
import { fingerprint } from '../../core/finding.js';
import type { GateContext, GateOutput } from '../../core/types.js';
import type { CatalogLookup, Platform, Suggestion } from './catalog-lookup.js';
import { GATE_ID, languageOf, RULES, type HardcodedStringsConfig, type Language } from './index.js';
import { inRanges, type Candidate, type Extraction } from './model.js';

const PLATFORM: Readonly<Record<Language, Platform>> = {
  'android-xml': 'android',
  kotlin: 'android',
  java: 'android',
  swift: 'apple',
  tsx: 'web',
  javascript: 'web',
};

/**
 * Extract the candidates of `source` with the extractor of `language`, whose module (and parser: saxes for XML,
 * web-tree-sitter and one grammar for source files) loads on first use: a commit staging only Kotlin files never
 * loads saxes, one staging only layouts never starts tree-sitter.
 */
async function extract(language: Language, source: string, config: HardcodedStringsConfig): Promise<Extraction> {
  switch (language) {
    case 'android-xml':
      return (await import('./android-xml.js')).extractAndroidXml(source, { attributes: config.attributes.android, honorLintIgnore: config.honorLintIgnore });
    case 'kotlin':
      return (await import('./kotlin.js')).extractKotlin(source, config.attributes.kotlin);
    case 'java':
      return (await import('./java.js')).extractJava(source);
    case 'swift':
      return (await import('./swift.js')).extractSwift(source, config.attributes.swift);
    case 'tsx':
    case 'javascript':
      return (await import('./jsx.js')).extractJsx(source, language, config.attributes.jsx, config.textComponents);
  }
}

/** How a suggested key is written at the finding's place: `@string/x` in XML, `R.string.x` in code, else the key. */
function spell(s: Suggestion, language: Language): string {
  if (s.platform === 'android') return language === 'android-xml' ? `@string/${s.key}` : `R.string.${s.key}`;
  return `key ${JSON.stringify(s.key)}`;
}

const quote = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 77)}...` : s);

/**
 * Up to this many source files (a commit's worth), the grammars run on V8's baseline WebAssembly code only
 * (tree-sitter.ts preferQuickStart). Measured with the Kotlin grammar (4 MB of WebAssembly) on 30 KB files: 1 file
 * 1,212 -> 459 ms of CPU, 20 files 2,437 -> 1,660 ms, 200 files 12,190 -> 14,661 ms (there optimising pays).
 */
const QUICK_START_MAX_FILES = 64;

/** Judge `inputs`; exported for tests that hold a lookup of their own. */
export async function judge(
  ctx: Pick<GateContext<HardcodedStringsConfig>, 'ws' | 'config' | 'signal'>,
  inputs: readonly string[],
  loadCatalogs: () => Promise<CatalogLookup> = async () => (await import('./catalog-lookup.js')).loadLookup(ctx.ws),
): Promise<GateOutput> {
  // Catalogs are read only when a literal survives the allow-list and suppressions: most commits have none.
  let lookupPromise: Promise<CatalogLookup> | undefined;
  const lookup = () => (lookupPromise ??= loadCatalogs());
  const { config } = ctx;
  const allow = config.allow.map((source) => ({ source, re: new RegExp(source, 'u'), removed: 0 }));
  const parsed = inputs.filter((f) => { const l = languageOf(f); return l !== undefined && l !== 'android-xml'; }).length;
  if (parsed > 0 && parsed <= QUICK_START_MAX_FILES) (await import('./tree-sitter.js')).preferQuickStart();
  const findings: GateOutput['findings'] = [];
  const notes: string[] = [];
  let files = 0;
  let candidates = 0;
  let filtered = 0;
  let suppressed = 0;
  const languages = new Set<Language>();
  for (const file of inputs) {
    if (ctx.signal.aborted) throw new Error('aborted');
    const language = languageOf(file);
    if (!language) continue;
    const source = (await ctx.ws.readText(file)).replace(/^\uFEFF/u, '');
    const ex = await extract(language, source, config);
    files++;
    languages.add(language);
    if (ex.fatal) {
      findings.push({ rule: RULES.unparsable, file, line: ex.fatal.line, column: ex.fatal.column, severity: 'error', message: `cannot parse ${file}: ${ex.fatal.message}; no literal in it was judged` });
      continue;
    }
    const first = ex.syntaxErrors[0];
    if (first) notes.push(`${file}:${first.line}:${first.column}: ${ex.syntaxErrors.length} syntax error(s) recovered; literals inside them may be missed`);
    for (const d of ex.directives) {
      if (d.reason !== undefined) continue;
      findings.push({
        rule: RULES.suppressionWithoutReason,
        file,
        line: d.line,
        column: d.column,
        severity: 'error',
        message: `loopgates-ignore hardcoded-strings needs a reason after the colon ("loopgates-ignore hardcoded-strings: <why>"); without one it suppresses nothing`,
        fingerprint: fingerprint(GATE_ID, RULES.suppressionWithoutReason, file, `${d.line}`),
      });
    }
    const valid = ex.directives.filter((d) => d.reason !== undefined);
    for (const c of ex.candidates) {
      candidates++;
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
      if (c.suppressedBy || valid.some((d) => inRanges(c.line, d.ranges))) {
        suppressed++;
        continue;
      }
      const f = judgeCandidate(file, language, c, await lookup());
      if (f) findings.push(f);
    }
  }
  for (const a of allow) {
    if (candidates > 0 && a.removed === candidates) notes.push(`allow-list entry /${a.source}/ matches every candidate (${a.removed} of ${candidates}): the gate saw no text it could judge`);
  }
  if (candidates > 0 && filtered === candidates && !allow.some((a) => a.removed === candidates)) {
    notes.push(`the allow-list (${allow.map((a) => `/${a.source}/`).join(', ')}) removed every candidate (${filtered} of ${candidates}) between its entries`);
  }
  const emptyLists: Array<[boolean, string]> = [
    [languages.has('android-xml') && config.attributes.android.length === 0, 'attributes.android'],
    [languages.has('kotlin') && config.attributes.kotlin.length === 0, 'attributes.kotlin'],
    [languages.has('swift') && config.attributes.swift.length === 0, 'attributes.swift'],
    [(languages.has('tsx') || languages.has('javascript')) && config.attributes.jsx.length === 0, 'attributes.jsx'],
    [(languages.has('tsx') || languages.has('javascript')) && config.textComponents.length === 0, 'textComponents'],
  ];
  for (const [empty, key] of emptyLists) if (empty) notes.push(`gates.${GATE_ID}.${key} is empty: that filter removes every candidate of its kind`);
  return { findings, counts: { files, items: candidates, filtered, suppressed }, itemUnit: 'strings', notes };
}

function judgeCandidate(file: string, language: Language, c: Candidate, lookup: CatalogLookup): GateOutput['findings'][number] | undefined {
  if (c.lookupKey !== undefined) {
    if (lookup.hasAppleKey(c.lookupKey)) return undefined;
    const where = lookup.hasAppleCatalog ? 'no string catalog (.xcstrings / .strings) of the app holds it' : 'the app has no string catalog (.xcstrings / .strings)';
    return {
      rule: RULES.missingKey,
      file,
      line: c.line,
      column: c.column,
      severity: 'error',
      message: `${c.context} key ${quote(c.lookupKey)} is looked up at run time but ${where}, so it shows as written in every locale; add it to the catalog`,
      fingerprint: fingerprint(GATE_ID, RULES.missingKey, file, `${c.context}\0${c.literal}`),
    };
  }
  const s = lookup.suggest(c.literal, PLATFORM[language]);
  const instead = s ? `; the base catalog ${s.catalog} already has it: use ${spell(s, language)}` : '; move it to the string catalog';
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
