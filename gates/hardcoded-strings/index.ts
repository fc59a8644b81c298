// hardcoded-strings: user-visible text written as a literal instead of read from the app's string catalog, in
// Android resource XML (saxes), Kotlin/Compose, Java, Swift (UIKit, SwiftUI) and React Native JSX
// (web-tree-sitter with the tree-sitter-wasms grammars). Spec: issue 3 "hardcoded-strings"; README.md beside this file.
// This module is what every commit loads: metadata, config schema, input selection and the (parser-free) mutation
// operators. The extractors (web-tree-sitter, saxes) load in run() from judge.ts; the cases in selfTest().
import { z } from 'zod';
import { lazySchema } from '../../core/lazy-schema.js';
import { anyCaseExtension } from '../../core/hook-plan.js';
import { outputFolderExcludes } from '../../core/exclude.js';
import { selectInputs as selectByGlobs } from '../../core/inputs.js';
import type { Gate } from '../../core/types.js';
import {
  DEFAULT_ANDROID_ATTRIBUTES,
  DEFAULT_JSX_ATTRIBUTES,
  DEFAULT_KOTLIN_NAMES,
  DEFAULT_SWIFT_PROPERTIES,
  DEFAULT_TEXT_COMPONENTS,
} from './defaults.js';
import { hardcodedStringsMutations } from './mutations.js';

export { GATE_ID } from './defaults.js';
import { GATE_ID } from './defaults.js';

/** Rule ids of the findings this gate reports. */
export const RULES = {
  /** A literal at a text-bearing position (always hard-coded: XML attribute, setText, Text(verbatim:), JSX text). */
  hardcodedText: 'hardcoded-text',
  /**
   * A catalog key the code asks for that no catalog of the app holds: a SwiftUI LocalizedStringKey literal (renders as
   * written in every locale), an i18next `t('…')` / `<Trans i18nKey>` or react-intl `id` (shows the key itself), an
   * Android `R.string.x` / `@string/x` no module defines (the build fails).
   */
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
  '**/*.ts',
  '**/*.mts',
  '**/*.cts',
  '**/*.jsx',
  '**/*.js',
];

/** Tests, previews, generated and vendored code: literals there are not shipped to users. */
export const DEFAULT_EXCLUDE: readonly string[] = [
  // Build output, not below src/ (a package com.acme.build is source); the rest hold wherever they are.
  ...outputFolderExcludes('build', 'dist', 'Pods', 'DerivedData'),
  '**/node_modules/**',
  '**/.gradle/**',
  // Gradle test source sets (test, testDebug, testFixtures, androidTest...), not src/testimonials/ or src/testflight/.
  '**/src/test/**',
  '**/src/test[A-Z]*/**',
  '**/src/androidTest/**',
  '**/src/androidTest[A-Z]*/**',
  // Xcode test targets at the top (AppTests/, AppUITests/) and SwiftPM's Tests/; not a feature folder deeper down
  // (src/features/ABTests/).
  '*Tests/**',
  '*/*Tests/**',
  'Tests/**',
  '**/__tests__/**',
  '**/*.test.*',
  '**/*.spec.*',
  '**/*.stories.*',
  '**/*.story.*',
  '**/*.config.js',
  '**/*.min.js',
];

const regex = () =>
  z.string().superRefine((s, ctx) => {
    try {
      new RegExp(s, 'u');
    } catch (e) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `not a valid regular expression: ${e instanceof Error ? e.message : String(e)}` });
    }
  });

/** The gate's section of loopgates.yaml. `configSchema.parse({})` gives the defaults. */
export const configSchema = lazySchema(() =>
  z
    .object({
      include: z.array(z.string().min(1)).default([...DEFAULT_INCLUDE]).describe('Globs of the files judged (picomatch, repository-relative).'),
      exclude: z.array(z.string().min(1)).default([...DEFAULT_EXCLUDE]).describe('Globs of paths never judged (tests, generated code); an entry starting with `!` takes back what an earlier one excluded (the last match decides).'),
      allow: z
        .array(regex())
        .default([])
        .describe('Regular expressions (JavaScript, `u` flag) of literals that are not text to translate; searched in the literal, anchor with ^…$ for a whole match.'),
      names: z
        .array(z.string().min(1))
        .default([])
        .describe('Brand and product names shown as written in every language ("Spotify", "GitLab"): a literal equal to one (trimmed, case included) is not text to translate.'),
      attributes: z
        .object({
          android: z.array(z.string().min(1)).default([...DEFAULT_ANDROID_ATTRIBUTES]).describe('Android XML attributes that hold text (`android:text`, `app:title`).'),
          kotlin: z.array(z.string().min(1)).default([...DEFAULT_KOTLIN_NAMES]).describe('Kotlin named arguments and assigned properties that hold text.'),
          swift: z.array(z.string().min(1)).default([...DEFAULT_SWIFT_PROPERTIES]).describe('UIKit and AppKit properties whose assignment holds text (`label.text = …`, `alert.messageText = …`).'),
          jsx: z.array(z.string().min(1)).default([...DEFAULT_JSX_ATTRIBUTES]).describe('JSX props that hold text.'),
        })
        .strict()
        .default({})
        .describe('Override the text-bearing attribute lists per language.'),
      textComponents: z.array(z.string().min(1)).default([...DEFAULT_TEXT_COMPONENTS]).describe('JSX components whose children are text.'),
      honorLintIgnore: z.boolean().default(true).describe('Count Android Lint `tools:ignore="HardcodedText"` as a suppression.'),
    })
    .strict(),
);

export type HardcodedStringsConfig = z.infer<typeof configSchema>;

/** The extractor that reads a file. */
export type Language = 'android-xml' | 'kotlin' | 'java' | 'swift' | 'tsx' | 'typescript' | 'javascript';

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
    // Plain TypeScript holds toasts and alerts (`Alert.alert("…")` in a store); a declaration file (.d.ts) runs nothing.
    case 'ts':
    case 'mts':
    case 'cts':
      return /\.d\.[mc]?ts$/iu.test(path) ? undefined : 'typescript';
    case 'jsx':
    case 'js':
      return 'javascript';
    default:
      return undefined;
  }
}

/**
 * One ordinary path per language the gate reads (Android layout, Kotlin, Java, Swift, TSX, JSX): an `exclude` entry
 * matching all of them leaves the gate nothing it could ever read.
 */
export const PROBE_PATHS: readonly string[] = [
  'app/src/main/res/layout/activity_main.xml',
  'app/src/main/java/com/example/app/MainActivity.kt',
  'app/src/main/java/com/example/app/MainActivity.java',
  'App/Sources/App/ContentView.swift',
  'src/components/App.tsx',
  'src/components/App.jsx',
];

/**
 * Select the gate's inputs from `targets`: included, not excluded, read by an extractor (core/inputs.ts). An
 * `exclude` entry that matches every PROBE_PATHS path and every candidate (such as `**`) blinds the gate: LoopgatesError
 * (verdict error, commit refused) naming the entry, instead of a quiet skip.
 */
export function selectInputs(targets: readonly string[], config: HardcodedStringsConfig): string[] {
  return selectByGlobs(targets, {
    gate: GATE_ID,
    include: config.include,
    exclude: config.exclude,
    reads: (p) => languageOf(p) !== undefined,
    probePaths: PROBE_PATHS,
    probeWhat: 'layouts, Kotlin, Java, Swift, JSX',
    blindTo: 'a hard-coded string',
  });
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
  inputs: async (ctx) => {
    const own = selectInputs(await ctx.ws.targets(), ctx.config);
    // A commit that removes catalog keys is judged at the code still asking for them (removed-keys.ts).
    const { removedKeys, filesReferencing } = await import('./removed-keys.js');
    const removed = await removedKeys(ctx.ws);
    if (removed.android.size === 0 && removed.web.size === 0 && removed.apple.size === 0) return own;
    const mine = new Set(own);
    const others = selectInputs(await ctx.ws.allPaths(), ctx.config).filter((p) => !mine.has(p));
    return [...own, ...(await filesReferencing(ctx.ws, others, removed))].sort();
  },
  selects: (config) => (JSON.stringify(config.include) === JSON.stringify(DEFAULT_INCLUDE) ? [] : [{ key: 'include', globs: config.include }]),
  // languageOf's extensions, any case: include/exclude only narrow them.
  // JSON, .strings, .stringsdict, .xcstrings: catalogs whose removed keys code still asks for (removed-keys.ts);
  // values XML is already `*.xml`.
  stagedPatterns: () => ['xml', 'kt', 'java', 'swift', 'tsx', 'ts', 'mts', 'cts', 'jsx', 'js', 'json', 'strings', 'stringsdict', 'xcstrings'].map(anyCaseExtension),
  deletedPatterns: () => ['xml', 'json', 'strings', 'stringsdict', 'xcstrings'].map(anyCaseExtension),
  run: async (ctx, inputs) => (await import('./judge.js')).judge(ctx, inputs),
  selfTest: async () => (await import('./selftest.js')).hardcodedStringsSelfTest(),
  mutations: hardcodedStringsMutations,
  // Each can be an error finding (missing-catalog-key is a warning only where the call gives a default text).
  refusingRules: () => Object.values(RULES),
  filters: { candidates: ['allow', 'names'], inputs: ['exclude'], includes: ['include'] },
  // Catalogs are read from the whole snapshot (ws.allPaths()), whatever the inputs are.
  findingsPerFile: true,
};

export default hardcodedStringsGate;
