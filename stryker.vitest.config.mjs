// The vitest config Stryker runs (stryker.config.mjs): unit tests only. Integration tests spawn git, gitleaks and the
// built CLI, far too slow to repeat for each mutant; they still run in `npm test`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    setupFiles: ['test/helpers/setup-env.ts'],
  },
});
