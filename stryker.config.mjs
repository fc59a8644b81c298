// Stryker on loopgates itself (issue 4): mutation testing of commands/ (but the install verb), core/, gates/ and mutations/ by the unit tests.
// Run: npm run test:mutation (stryker run, then scripts/stryker-check.mjs fails on 0 mutants or a NaN score).
// Pinned to Stryker 9.6 (10.x needs Node 22) and TypeScript 5.9 for the checker. Options:
// https://stryker-mutator.io/docs/stryker-js/configuration/
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'vitest',
  // Unit tests only: integration tests spawn git, gitleaks and the built CLI, far too slow to run once per mutant.
  vitest: { configFile: 'stryker.vitest.config.mjs', related: false },
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  mutate: ['commands/**/*.ts', '!commands/install.ts', 'core/**/*.ts', 'gates/**/*.ts', 'mutations/**/*.ts', '!**/*.test.ts', '!**/*.d.ts'],
  coverageAnalysis: 'perTest',
  ignoreStatic: true,
  // Two cores shared with other jobs: one test runner, one checker.
  concurrency: 1,
  timeoutMS: 20_000,
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  // break: the run fails below this score. high/low only colour the report.
  thresholds: { high: 90, low: 80, break: 60 },
  // The sandbox copies only what the unit tests need: the working tree is shared with other people's scratch files.
  ignorePatterns: [
    '/*',
    '!/commands/',
    '!/core/',
    '!/gates/',
    '!/mutations/',
    '!/test/',
    '!/rules/',
    '!/hooks/',
    '!/scripts/',
    '!/.tools/',
    '!/cli.ts',
    '!/package.json',
    '!/tsconfig.json',
    '!/tsconfig.test.json',
    '!/stryker.vitest.config.mjs',
    '!/vitest.config.ts',
    '!/loopgates.schema.json',
    '!/README.md',
    '!/examples/',
    '!/bin/',
  ],
  tempDirName: '.stryker-tmp',
  // Off: scripts/stryker-run.mjs removes the sandboxes itself, never following its corpus symlink.
  cleanTempDir: false,
};
