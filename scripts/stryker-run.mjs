// `npm run test:mutation`: Stryker on loopgates itself, then the post-step (scripts/stryker-check.mjs) that fails on
// zero mutants or a NaN score. Arguments are passed to `stryker run` (e.g. --mutate mutations/outcomes.ts).
// Why a wrapper: unit tests read the corpus at <repo>/../shared; in Stryker's sandbox (<repo>/.stryker-tmp/sandbox-*)
// that is <repo>/.stryker-tmp/shared, so a symlink is placed there. Stryker's own temp-dir cleaning is off
// (stryker.config.mjs) so nothing ever deletes through that link; this script removes only the sandbox-* dirs.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tmp = join(root, '.stryker-tmp');
const shared = resolve(root, '..', 'shared');
mkdirSync(tmp, { recursive: true });
const link = join(tmp, 'shared');
let hasLink = false;
try {
  hasLink = lstatSync(link).isSymbolicLink();
} catch {
  /* absent */
}
if (!hasLink && existsSync(shared)) symlinkSync(shared, link, 'dir');

const stryker = join(root, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');
const run = spawnSync(process.execPath, [stryker, 'run', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
for (const name of readdirSync(tmp)) if (name.startsWith('sandbox-')) rmSync(join(tmp, name), { recursive: true, force: true });
if (run.status !== 0) {
  console.error(`stryker run exited ${run.status ?? run.signal}`);
  process.exit(run.status ?? 2);
}
const check = spawnSync(process.execPath, [join(root, 'scripts', 'stryker-check.mjs')], { cwd: root, stdio: 'inherit' });
process.exit(check.status ?? 2);
