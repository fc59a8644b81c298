// npm run bench: every benchmark in turn. Each prints its own medians and ratios.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
let failed = 0;
for (const b of ['hook.mjs', 'l10n.mjs', 'mutate.mjs', 'selftest-cache.mjs', 'retry.mjs', 'maestro.mjs', 'tap.mjs']) {
  console.log(`\n### bench/${b}`);
  const r = spawnSync('node', [join(here, b)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
