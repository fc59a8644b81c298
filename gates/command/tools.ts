// The repository's own tools for command gates: node_modules/.bin on PATH (as `npm run` puts it, docs.npmjs.com
// "scripts": "npm run adds node_modules/.bin to the PATH"), and node_modules reachable from the scratch directory a
// command runs in, so `npm run lint` -> `eslint .` finds the same eslint (and its plugins) under `git commit` as in
// the user's shell.
import { existsSync, statSync, symlinkSync } from 'node:fs';
import { basename, delimiter, dirname, join, resolve } from 'node:path';

/** Commands that run a package.json script (`npm run x`, `npm test`, `yarn x`, `pnpm x`, `bun run x`, `npx x`). */
const PACKAGE_RUNNERS = /^(npm|npx|pnpm|yarn|bun)(\.cmd|\.exe)?$/i;

/** Whether argv[0] is a package manager, which reads package.json's `scripts` (and the files they name). */
export function isPackageRunner(file: string): boolean {
  return PACKAGE_RUNNERS.test(basename(file));
}

/** Every whitespace-separated token of a package.json's `scripts` values that looks like a file path, sorted. */
export function scriptTokens(packageJson: string): string[] {
  try {
    const scripts = (JSON.parse(packageJson) as { scripts?: Record<string, unknown> }).scripts ?? {};
    return [...new Set(Object.values(scripts).flatMap((v) => (typeof v === 'string' ? v.split(/\s+/) : [])).filter((t) => /^[\w./-]+\.\w+$/.test(t)))].sort();
  } catch {
    return [];
  }
}

const isDir = (p: string): boolean => statSync(p, { throwIfNoEntry: false })?.isDirectory() === true;

/**
 * `<dir>/node_modules/.bin` for `root` and each folder above it that has one, nearest first: the folders npm itself
 * puts on PATH for a script, so a workspace package also finds the tools hoisted to the monorepo's root.
 */
export function localBinDirs(root: string): string[] {
  const out: string[] = [];
  for (let dir = resolve(root); ; dir = dirname(dir)) {
    const bin = join(dir, 'node_modules', '.bin');
    if (isDir(bin)) out.push(bin);
    if (dirname(dir) === dir) return out;
  }
}

/** The name of PATH in `env` (`Path` on Windows shells), `PATH` when absent. */
function pathKey(env: Readonly<Record<string, string | undefined>>): string {
  return Object.keys(env).find((k) => k.toUpperCase() === 'PATH') ?? 'PATH';
}

/**
 * The environment entries that give a command the repository's tools: PATH = the local bin folders of `root`
 * (localBinDirs) ahead of the PATH the user had (`env`'s, which the hook inherits from git).
 */
export function toolPathEnv(root: string, env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const key = pathKey(env);
  const had = env[key] ?? '';
  return { [key]: [...localBinDirs(root), ...(had ? [had] : [])].join(delimiter) };
}

/**
 * Link `<root>/<d>/node_modules` into `<scratch>/<d>/node_modules` for the top level and every folder `d` holding one
 * of `paths` (repository-relative, already written to `scratch`), so a tool, its plugins and the files it loads
 * (a test file importing a dependency) resolve the repository's packages from the scratch copy. Node resolves a
 * package through its real path, so the link is followed once. Returns the links made. A folder whose node_modules
 * is itself among `paths` (tracked) is left as written.
 */
export function linkNodeModules(root: string, scratch: string, paths: readonly string[]): string[] {
  const dirs = new Set<string>(['.']);
  for (const p of paths) for (let d = dirname(p); d !== '.' && d !== '/' && !dirs.has(d); d = dirname(d)) dirs.add(d);
  const made: string[] = [];
  for (const d of [...dirs].sort()) {
    if (d.split('/').includes('node_modules')) continue;
    const real = join(root, d, 'node_modules');
    const link = join(scratch, d, 'node_modules');
    if (!isDir(real) || existsSync(link)) continue;
    if (!isDir(join(scratch, d))) continue;
    symlinkSync(real, link, process.platform === 'win32' ? 'junction' : 'dir');
    made.push(d === '.' ? 'node_modules' : `${d}/node_modules`);
  }
  return made;
}
