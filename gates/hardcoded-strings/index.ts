// hardcoded-strings: user-visible text written as a literal instead of read from the app's string catalog, in
// Android resource XML (@xmldom/xmldom), Kotlin/Compose, Java, Swift (UIKit, SwiftUI) and React Native JSX
// (web-tree-sitter with the tree-sitter-wasms grammars). Spec: issue 3 "hardcoded-strings"; README.md beside this file.
import picomatch from 'picomatch';
import { z } from 'zod';
import { fingerprint } from '../../core/finding.js';
import type { Gate, GateContext, GateOutput } from '../../core/types.js';
import { DEFAULT_ANDROID_ATTRIBUTES, extractAndroidXml } from './android-xml.js';
import { loadLookup, type CatalogLookup, type Platform, type Suggestion } from './catalog-lookup.js';
import { extractJava } from './java.js';
import { DEFAULT_JSX_ATTRIBUTES, DEFAULT_TEXT_COMPONENTS, extractJsx } from './jsx.js';
import { DEFAULT_KOTLIN_NAMES, extractKotlin } from './kotlin.js';
import { inRanges, type Candidate, type Extraction } from './model.js';
import { hardcodedStringsMutations } from './mutations.js';
import { hardcodedStringsSelfTest } from './selftest.js';
import { DEFAULT_SWIFT_PROPERTIES, extractSwift } from './swift.js';

export const GATE_ID = 'hardcoded-strings';

/** Rule ids of the findings this gate reports. */
export const RULES = {
  /** A literal at a text-bearing position (always hard-coded: XML attribute, setText, Text(verbatim:), JSX text). */
  hardcodedText: 'hardcoded-text',
  /** A SwiftUI LocalizedStringKey literal that no catalog of the app holds: it renders as written in every locale. */
  missingKey: 'missing-catalog-key',
  /** A `loopgates-ignore hardcoded-strings` comment without a reason: void, and itself a finding. */
  suppressionWithoutReason: 'suppression-without-reason',
  /** An input file that could not be parsed (malformed XML): the gate cannot prove it looked. */
  unparsable: 'unparsable',
} as const;

/** Files each extractor reads by default. Resource XML outside these folders (values/, drawable/) holds no UI text. */
export const DEFAULT_INCLUDE: readonly string[] = [
  '**/res/layout*/*.xml',
  '**/res/menu*/*.xml',
  '**/res/xml*/*.xml',
  '**/res/navigation*/*.xml',
  '**/AndroidManifest.xml',
  '**/*.kt',
  '**/*.java',
  '**/*.swift',
  '**/*.tsx',
  '**/*.jsx',
  '**/*.js',
];

/** Tests, previews, generated and vendored code: literals there are not shipped to users. */
export const DEFAULT_EXCLUDE: readonly string[] = [
  '**/node_modules/**',
  '**/build/**',
  '**/dist/**',
  '**/.gradle/**',
  '**/Pods/**',
  '**/DerivedData/**',
  '**/src/test*/**',
  '**/src/androidTest*/**',
  '**/*Tests/**',
  '**/__tests__/**',
  '**/*.test.*',
  '**/*.spec.*',
  '**/*.stories.*',
  '**/*.config.js',
  '**/*.min.js',
];

const regex = z.string().superRefine((s, ctx) => {
  try {
    new RegExp(s, 'u');
  } catch (e) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `not a valid regular expression: ${e instanceof Error ? e.message : String(e)}` });
  }
});

/** The gate's section of loopgates.yaml. `configSchema.parse({})` gives the defaults. */
export const configSchema = z
  .object({
    include: z.array(z.string().min(1)).default([...DEFAULT_INCLUDE]).describe('Globs of the files judged (picomatch, repository-relative).'),
    exclude: z.array(z.string().min(1)).default([...DEFAULT_EXCLUDE]).describe('Globs of paths never judged (tests, generated code).'),
    allow: z
      .array(regex)
      .default([])
      .describe('Regular expressions (JavaScript, `u` flag) of literals that are not text to translate; searched in the literal, anchor with ^…$ for a whole match.'),
    attributes: z
      .object({
        android: z.array(z.string().min(1)).default([...DEFAULT_ANDROID_ATTRIBUTES]).describe('Android XML attributes that hold text (`android:text`, `app:title`).'),
        kotlin: z.array(z.string().min(1)).default([...DEFAULT_KOTLIN_NAMES]).describe('Kotlin named arguments and assigned properties that hold text.'),
        swift: z.array(z.string().min(1)).default([...DEFAULT_SWIFT_PROPERTIES]).describe('UIKit properties whose assignment holds text (`label.text = …`).'),
        jsx: z.array(z.string().min(1)).default([...DEFAULT_JSX_ATTRIBUTES]).describe('JSX props that hold text.'),
      })
      .strict()
      .default({})
      .describe('Override the text-bearing attribute lists per language.'),
    textComponents: z.array(z.string().min(1)).default([...DEFAULT_TEXT_COMPONENTS]).describe('JSX components whose children are text.'),
    honorLintIgnore: z.boolean().default(true).describe('Count Android Lint `tools:ignore="HardcodedText"` as a suppression.'),
  })
  .strict();

export type HardcodedStringsConfig = z.infer<typeof configSchema>;

type Language = 'android-xml' | 'kotlin' | 'java' | 'swift' | 'tsx' | 'javascript';

/** Which extractor reads `path`, by extension; undefined when none does. */
export function languageOf(path: string): Language | undefined {
  const dot = path.lastIndexOf('.');
  switch (dot < 0 ? '' : path.slice(dot + 1).toLowerCase()) {
    case 'xml':
      return 'android-xml';
    case 'kt':
      return 'kotlin';
    case 'java':
      return 'java';
    case 'swift':
      return 'swift';
    case 'tsx':
      return 'tsx';
    case 'jsx':
    case 'js':
      return 'javascript';
    default:
      return undefined;
  }
}

const PLATFORM: Readonly<Record<Language, Platform>> = {
  'android-xml': 'android',
  kotlin: 'android',
  java: 'android',
  swift: 'apple',
  tsx: 'web',
  javascript: 'web',
};

function extract(language: Language, source: string, config: HardcodedStringsConfig): Promise<Extraction> | Extraction {
  switch (language) {
    case 'android-xml':
      return extractAndroidXml(source, { attributes: config.attributes.android, honorLintIgnore: config.honorLintIgnore });
    case 'kotlin':
      return extractKotlin(source, config.attributes.kotlin);
    case 'java':
      return extractJava(source);
    case 'swift':
      return extractSwift(source, config.attributes.swift);
    case 'tsx':
    case 'javascript':
      return extractJsx(source, language, config.attributes.jsx, config.textComponents);
  }
}

/** How a suggested key is written at the finding's place: `@string/x` in XML, `R.string.x` in code, else the key. */
function spell(s: Suggestion, language: Language): string {
  if (s.platform === 'android') return language === 'android-xml' ? `@string/${s.key}` : `R.string.${s.key}`;
  return `key ${JSON.stringify(s.key)}`;
}

const quote = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 77)}...` : s);

/** Select the gate's inputs from `targets`: included, not excluded, read by an extractor. */
export function selectInputs(targets: readonly string[], config: HardcodedStringsConfig): string[] {
  const inc = picomatch(config.include, { dot: true });
  const exc = config.exclude.length > 0 ? picomatch(config.exclude, { dot: true }) : () => false;
  return targets.filter((p) => inc(p) && !exc(p) && languageOf(p) !== undefined);
}

/** Judge `inputs`; exported for tests that hold a lookup of their own. */
export async function judge(
  ctx: Pick<GateContext<HardcodedStringsConfig>, 'ws' | 'config' | 'signal'>,
  inputs: readonly string[],
  loadCatalogs: () => Promise<CatalogLookup> = () => loadLookup(ctx.ws),
): Promise<GateOutput> {
  // Catalogs are read only when a literal survives the allow-list and suppressions: most commits have none.
  let lookupPromise: Promise<CatalogLookup> | undefined;
  const lookup = () => (lookupPromise ??= loadCatalogs());
  const { config } = ctx;
  const allow = config.allow.map((source) => ({ source, re: new RegExp(source, 'u'), removed: 0 }));
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

/** The gate (DESIGN.md "A gate is one object"). */
export const hardcodedStringsGate: Gate<HardcodedStringsConfig> = {
  id: GATE_ID,
  title: 'Hard-coded user-visible strings',
  loop: {
    runs: 'parses Android layout/menu/preference XML, Kotlin, Java, Swift and JSX files and finds user-visible text written as literals',
    reads: 'the staged (or all) files matched by include/exclude, and the app\'s string catalogs for suggested keys and SwiftUI key lookup',
    ends: 'one pass over the inputs; passes when no literal outside the allow-list and inline suppressions remains',
    asks: 'never',
  },
  configSchema,
  inputs: async (ctx) => selectInputs(await ctx.ws.targets(), ctx.config),
  run: async (ctx, inputs) => judge(ctx, inputs),
  selfTest: hardcodedStringsSelfTest,
  mutations: hardcodedStringsMutations,
};

export default hardcodedStringsGate;
