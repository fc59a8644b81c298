import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'gates/**/*.test.ts'],
    // Guards against hangs, not speed checks: install tests prove hooks in scratch clones and pay a cold self-test
    // run (20-60 s on a loaded 2-core machine), so a tight bound made them flaky.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    setupFiles: ['test/helpers/setup-env.ts'],
  },
});
