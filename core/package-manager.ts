// Which JavaScript package manager a repository uses, and its words: install's messages (commands/install.ts) and the
// command a printed fix starts loopgates with (core/cli-word.ts) both read it from here. Reads files only; imports
// only node: modules (cli-word loads it on every commit).
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';

/** A JavaScript package manager and the commands loopgates' messages give for it. */
export interface PackageManager {
  name: 'npm' | 'yarn' | 'pnpm' | 'bun';
  /** What decided it: `packageManager field`, `yarn.lock`, … or `default`. */
  source: string;
  /** The lockfile it writes (bun: `bun.lock`, or `bun.lockb` when that is the one present). */
  lockfile: string;
  /** Installs the dependencies of a fresh clone. */
  install: string;
  /** Adds `spec` as a dev dependency. */
  addDev: (spec: string) => string;
  /** Runs the project's local bin `bin` (node_modules/.bin). */
  runBin: (bin: string) => string;
  /** Removes the dependency `name` (from package.json and the lockfile). */
  remove: (name: string) => string;
  /**
   * Whether its install runs the project's own `prepare` script: npm, pnpm, bun and yarn 1 do; yarn 2 and later run
   * none (yarnpkg.com/advanced/lifecycle-scripts lists no `prepare`).
   */
  runsPrepare: boolean;
}

const LOCKFILES: ReadonlyArray<[PackageManager['name'], string]> = [['pnpm', 'pnpm-lock.yaml'], ['yarn', 'yarn.lock'], ['bun', 'bun.lock'], ['bun', 'bun.lockb'], ['npm', 'package-lock.json'], ['npm', 'npm-shrinkwrap.json']];

/**
 * The repository's package manager: package.json's `packageManager` field (Corepack, `yarn@4.1.0`), else the lockfile
 * present (pnpm-lock.yaml, yarn.lock, bun.lock/bun.lockb, package-lock.json), else npm. `npm i -D` in a yarn 4
 * repository rewrote yarn.lock and created package-lock.json (a fresh user's finding), so install names the manager's
 * own commands. Reads files only.
 */
export function detectPackageManager(pkg: Record<string, unknown> | null, top: string): PackageManager {
  const of = (name: PackageManager['name'], source: string): PackageManager => {
    const lockfile = name === 'bun' ? (existsSync(join(top, 'bun.lockb')) && !existsSync(join(top, 'bun.lock')) ? 'bun.lockb' : 'bun.lock') : name === 'npm' ? 'package-lock.json' : name === 'yarn' ? 'yarn.lock' : 'pnpm-lock.yaml';
    const install = `${name} install`;
    const addDev = (spec: string) => (name === 'npm' ? `npm i -D ${spec}` : name === 'bun' ? `bun add -d ${spec}` : `${name} add -D ${spec}`);
    const runBin = (bin: string) => (name === 'pnpm' ? `pnpm exec ${bin}` : name === 'yarn' ? `yarn ${bin}` : name === 'bun' ? `bunx ${bin}` : `npx ${bin}`);
    const remove = (dep: string) => (name === 'npm' ? `npm uninstall ${dep}` : `${name} remove ${dep}`);
    return { name, source, lockfile, install, addDev, runBin, remove, runsPrepare: name !== 'yarn' || !berry() };
  };
  const field = typeof pkg?.packageManager === 'string' ? /^(npm|yarn|pnpm|bun)@(\d+)?/.exec(pkg.packageManager) : null;
  // yarn 2+: the packageManager field's major version, else the lockfile's `__metadata:` block (yarn 1's has none).
  const berry = () => (field?.[1] === 'yarn' && field[2] !== undefined ? Number(field[2]) >= 2 : /^__metadata:/m.test(head(join(top, 'yarn.lock'))));
  if (field) return of(field[1] as PackageManager['name'], `packageManager: ${String(pkg!.packageManager)}`);
  for (const [name, file] of LOCKFILES) if (existsSync(join(top, file))) return of(name, file);
  return of('npm', 'default (no packageManager field, no lockfile)');
}

/** The first KiB of `path` as text ('' when it cannot be read): a lockfile's header, without reading megabytes. */
function head(path: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(1024);
    return buf.toString('utf8', 0, readSync(fd, buf, 0, buf.length, 0));
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Lockfiles of other managers beside `pm`'s own (a `package-lock.json` that `npm i` wrote into a yarn repository). */
export function strayLockfiles(pm: PackageManager, top: string): string[] {
  return [...new Set(LOCKFILES.filter(([name, file]) => name !== pm.name && existsSync(join(top, file))).map(([, file]) => file))];
}
