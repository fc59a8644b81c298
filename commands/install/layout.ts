// Where git looks for hooks in this repository, and which other hook managers are here. Sources: githooks(5)
// (core.hooksPath; hooks run from the top of the working tree), git-rev-parse(1) (--git-path, --git-common-dir),
// husky 9 (core.hooksPath=.husky/_, user scripts in .husky/<hook>), husky 8 (core.hooksPath=.husky), lefthook
// (lefthook.yml and variants), pre-commit.com (.pre-commit-config.yaml; its hook keeps a foreign hook as
// pre-commit.legacy and runs it), simple-git-hooks (package.json "simple-git-hooks" or .simple-git-hooks.*).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { git, gitText } from '../../core/git.js';
import { LoopgatesError } from '../../core/errors.js';
import { detectPackageManager } from '../../core/package-manager.js';

/** Where the stored hook lives, repository-relative. */
export const STORED_HOOK = '.loopgates/hooks/pre-commit';
/** Name of the backup of a foreign hook that our shim chains (next to the shim, in an untracked hooks dir). */
export const PREVIOUS_HOOK = 'pre-commit.loopgates-previous';
/** Marker on the first lines of our shim. */
export const SHIM_MARKER = '# loopgates-shim 1';
/** Markers of the block we insert into a tracked hook file (husky, a committed hooks dir). */
export const BLOCK_BEGIN = '# >>> loopgates';
export const BLOCK_END = '# <<< loopgates';

/** The facts about one repository install and doctor work from. All paths absolute. */
export interface RepoLayout {
  top: string;
  gitDir: string;
  commonDir: string;
  /** The directory git runs hooks from (`git rev-parse --git-path hooks`: core.hooksPath or <common>/hooks). */
  hooksDir: string;
  /** core.hooksPath by scope, as configured (null when unset there). */
  hooksPath: { local: string | null; global: string | null; system: string | null };
}

/** The hook managers found, and the hook file git would run today. */
export interface Managers {
  /** husky: `.husky/` exists; `active` when core.hooksPath points at .husky or .husky/_. */
  husky: { active: boolean; version: 8 | 9 } | null;
  /** lefthook config file name, when present. */
  lefthook: string | null;
  /** pre-commit (Python) config present. */
  preCommit: boolean;
  /** simple-git-hooks config present (package.json key or config file). */
  simpleGitHooks: string | null;
  /** <hooksDir>/pre-commit today: absent, ours, or foreign (with the tool that generated it when recognisable). */
  hook: { kind: 'none' } | { kind: 'ours' } | { kind: 'foreign'; generator: string | null; executable: boolean };
}

const okAnswer = [1];

/** The repository's layout from git. Throws LoopgatesError when `cwd` is not inside a working tree. */
export async function repoLayout(cwd: string, env: Readonly<Record<string, string | undefined>>): Promise<RepoLayout | null> {
  const inside = await git(['rev-parse', '--is-inside-work-tree'], { cwd, env, okExitCodes: [128] }).catch(() => null);
  if (!inside || inside.exitCode !== 0 || inside.stdout.toString().trim() !== 'true') return null;
  const top = await gitText(['rev-parse', '--show-toplevel'], { cwd, env });
  const [gitDirRaw, commonRaw, hooksRaw] = (await gitText(['rev-parse', '--git-dir', '--git-common-dir', '--git-path', 'hooks'], { cwd: top, env })).split('\n');
  if (gitDirRaw === undefined || commonRaw === undefined || hooksRaw === undefined) throw new LoopgatesError('git rev-parse gave too few answers', 'upgrade git');
  const get = async (scope: string) => {
    const r = await git(['config', `--${scope}`, '--get', 'core.hooksPath'], { cwd: top, env, okExitCodes: okAnswer });
    return r.exitCode === 0 ? r.stdout.toString('utf8').trim() : null;
  };
  return {
    top,
    gitDir: resolve(top, gitDirRaw),
    commonDir: resolve(top, commonRaw),
    hooksDir: resolve(top, hooksRaw),
    hooksPath: { local: await get('local'), global: await get('global'), system: await get('system') },
  };
}

/**
 * The git config scope whose core.hooksPath is in force when that value is the empty string, else null. git then
 * runs no hook at all (git 2.39: neither <top>/pre-commit nor .git/hooks/pre-commit), and `git rev-parse
 * --path-format=absolute --git-path hooks` fails with "The empty string is not a valid path".
 */
export function emptyHooksPathScope(layout: Pick<RepoLayout, 'hooksPath'>): 'local' | 'global' | 'system' | null {
  const scope = (['local', 'global', 'system'] as const).find((s) => layout.hooksPath[s] !== null);
  return scope !== undefined && layout.hooksPath[scope] === '' ? scope : null;
}

/** Whether `child` is `parent` or inside it. */
export function isInside(child: string, parent: string): boolean {
  const r = relative(parent, child);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r) && r.split(sep)[0] !== '..');
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The package.json at the top level, parsed, or null when absent. Throws LoopgatesError when it does not parse. */
export function readPackageJson(top: string): Record<string, unknown> | null {
  const text = readText(join(top, 'package.json'));
  if (text === null) return null;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (err) {
    throw new LoopgatesError(`package.json does not parse: ${(err as Error).message}`, 'fix package.json, then run: loopgates install');
  }
}

/** Whether package.json lists loopgates as a dependency (then the hook takes it from node_modules). */
export function listsLoopgates(pkg: Record<string, unknown> | null): boolean {
  if (!pkg) return false;
  return ['dependencies', 'devDependencies', 'optionalDependencies'].some((k) => {
    const deps = pkg[k];
    return typeof deps === 'object' && deps !== null && 'loopgates' in deps;
  });
}

/**
 * Repository-relative files a fresh clone's install needs for a loopgates dependency given as a local file
 * (`"loopgates": "file:loopgates-0.1.0.tgz"` or a folder inside the repository): that file, and the package
 * manager's lockfile (detectPackageManager) when it exists. Empty for a registry or URL spec, or one outside the repository.
 */
export function localLoopgatesFiles(pkg: Record<string, unknown> | null, top: string): string[] {
  if (!pkg) return [];
  for (const k of ['dependencies', 'devDependencies', 'optionalDependencies']) {
    const deps = pkg[k] as Record<string, unknown> | undefined;
    const spec = typeof deps === 'object' && deps !== null ? deps.loopgates : undefined;
    if (typeof spec !== 'string' || !spec.startsWith('file:')) continue;
    const rel = relative(top, resolve(top, spec.slice('file:'.length)));
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return [];
    const lock = detectPackageManager(pkg, top).lockfile;
    return [rel.split(sep).join('/'), ...(existsSync(join(top, lock)) ? [lock] : [])];
  }
  return [];
}

/** Detect the hook managers of `layout`'s repository. Reads files only. */
export function detectManagers(layout: RepoLayout): Managers {
  const { top, hooksDir } = layout;
  const huskyDir = join(top, '.husky');
  let husky: Managers['husky'] = null;
  if (existsSync(huskyDir) && statSync(huskyDir).isDirectory()) {
    const active = hooksDir === huskyDir || hooksDir === join(huskyDir, '_');
    const v8 = existsSync(join(huskyDir, '_', 'husky.sh')) && !existsSync(join(huskyDir, '_', 'h'));
    // core.hooksPath says which husky set it (8: .husky, 9: .husky/_), whatever is left in .husky/_ (husky 9 keeps a
    // husky.sh stub there; with its h removed, the files alone would read as husky 8).
    husky = { active, version: hooksDir === huskyDir ? 8 : hooksDir === join(huskyDir, '_') ? 9 : v8 ? 8 : 9 };
  }
  const lefthook = ['lefthook.yml', '.lefthook.yml', 'lefthook.yaml', '.lefthook.yaml', 'lefthook.toml', '.lefthook.toml', 'lefthook.json', '.lefthook.json'].find((f) =>
    existsSync(join(top, f)),
  );
  let simpleGitHooks: string | null = ['.simple-git-hooks.cjs', '.simple-git-hooks.js', '.simple-git-hooks.mjs', '.simple-git-hooks.json', 'simple-git-hooks.cjs', 'simple-git-hooks.js', 'simple-git-hooks.json'].find((f) => existsSync(join(top, f))) ?? null;
  if (!simpleGitHooks) {
    try {
      const pkg = readPackageJson(top);
      if (pkg && 'simple-git-hooks' in pkg) simpleGitHooks = 'package.json';
    } catch {
      /* reported by install when it needs package.json */
    }
  }
  const hookPath = join(hooksDir, 'pre-commit');
  const text = readText(hookPath);
  let hook: Managers['hook'] = { kind: 'none' };
  if (text !== null) {
    if (text.includes(SHIM_MARKER)) hook = { kind: 'ours' };
    else {
      const generator = /File generated by pre-commit|pre-commit\.com/.test(text)
        ? 'pre-commit'
        : /lefthook/i.test(text)
          ? 'lefthook'
          : /husky/i.test(text)
            ? 'husky'
            : /simple-git-hooks/.test(text)
              ? 'simple-git-hooks'
              : null;
      hook = { kind: 'foreign', generator, executable: process.platform === 'win32' || (statSync(hookPath).mode & 0o111) !== 0 };
    }
  }
  return { husky, lefthook: lefthook ?? null, preCommit: existsSync(join(top, '.pre-commit-config.yaml')), simpleGitHooks, hook };
}

/** Whether a manager's config already runs our stored hook (then the manager is the placement). */
export function configRunsStoredHook(top: string, file: string): boolean {
  // resolve, not join: `file` may be absolute (a hook in a core.hooksPath outside the repository).
  return (readText(resolve(top, file)) ?? '').includes(STORED_HOOK);
}
