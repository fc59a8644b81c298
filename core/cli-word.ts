// The word a printed fix uses to start loopgates: `loopgates` only when the user's shell can run it (fresh-user-4 F6:
// with loopgates a local devDependency, `loopgates install` answered "command not found").
import { existsSync, readFileSync, statSync } from 'node:fs';
import { delimiter, dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shellWord } from './messages.js';
import { detectPackageManager } from './package-manager.js';
import { VERB_NAMES } from './verbs.js';

type Env = Readonly<Record<string, string | undefined>>;

// In command position only: at the start, after a backtick or parenthesis, or after ": " (`run: loopgates doctor`);
// prose ("when loopgates install ran") is left as written. Only `loopgates <verb>` is a command to rewrite (not
// "loopgates is not installed", nor the label of a verb's own message, "loopgates install: proof failed").
const COMMAND = new RegExp(`(^|[\\n\`(]|: )loopgates (?=(?:${VERB_NAMES.join('|')})(?![\\w:-]))`, 'g');

/**
 * An executable `name` in PATH's folders, or null; absolute. A relative folder is looked up from `cwd`, as the shell
 * does: husky 9 runs a hook with `node_modules/.bin` first on PATH, relative (fresh-user F2).
 */
function onPath(name: string, cwd: string, env: Env): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = resolve(cwd, dir, name);
    try {
      const st = statSync(p);
      if (st.isFile() && (st.mode & 0o111) !== 0) return p;
    } catch {
      /* not here */
    }
  }
  return null;
}

/** The nearest folder at or above `cwd` whose node_modules/.bin holds loopgates (where npx would find it), or null. */
function localInstall(cwd: string): string | null {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', '.bin', 'loopgates'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/** How the project's package manager runs a local bin (core/package-manager.ts, as install detects it). */
function runnerOf(top: string): string {
  let pkg: Record<string, unknown> | null = null;
  try {
    pkg = JSON.parse(readFileSync(join(top, 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    /* no package.json, or one that does not parse: the lockfiles decide */
  }
  return detectPackageManager(pkg, top).runBin('loopgates');
}

/** This CLI's bin/loopgates.js (above dist/ in the package, or above the source tree). */
function ownBin(): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const dir of [join(here, '..', '..'), join(here, '..')]) {
    try {
      if ((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name === 'loopgates' && existsSync(join(dir, 'bin', 'loopgates.js'))) return join(dir, 'bin', 'loopgates.js');
    } catch {
      /* try the next */
    }
  }
  return null;
}

/**
 * The command that starts loopgates from `cwd` with `env`'s PATH: `loopgates` when PATH has one outside a
 * node_modules/.bin (a hook's PATH may hold the project's own, which the user's shell lacks); the package manager's
 * runner (`npx loopgates`, `pnpm exec loopgates`, `yarn loopgates`, `bunx loopgates`) when the project installed it;
 * else `node <this CLI's bin/loopgates.js>`.
 */
export function cliWord(cwd: string, env: Env): string {
  const hit = onPath('loopgates', cwd, env);
  if (hit && !hit.includes(`${sep}node_modules${sep}.bin${sep}`)) return 'loopgates';
  const top = localInstall(cwd);
  if (top) return runnerOf(top);
  const bin = ownBin();
  if (!bin) return 'loopgates';
  return `node ${shellWord(bin)}`;
}

/** `text` with each leading, backticked or quoted `loopgates <verb>` started by `word` instead (asked only when one is there). */
export function runnable(text: string, word: string | (() => string)): string {
  COMMAND.lastIndex = 0;
  if (!COMMAND.test(text)) return text;
  const w = typeof word === 'string' ? word : word();
  return w === 'loopgates' ? text : text.replace(COMMAND, (_, before: string) => `${before}${w} `);
}

/** A lazily computed cliWord: most runs print no fix and never look at PATH. */
export function cliWordFor(cwd: string, env: Env): () => string {
  let word: string | undefined;
  return () => (word ??= cliWord(cwd, env));
}
