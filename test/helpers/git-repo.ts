// withGitRepo(files, fn): a temporary git repository for integration tests (after lint-staged's helper).
// Every git call goes through execFile with argument arrays; the repo lives under the OS temp dir and is removed after.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A temp repository: `dir` is its top level; `git(...args)` runs git there and returns stdout. */
export interface TempRepo {
  dir: string;
  git(...args: string[]): string;
  write(path: string, content: string | Buffer): void;
  read(path: string): string;
}

/** Environment that isolates git from the user's global config (no hooksPath, no signing, fixed identity). */
export function isolatedGitEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Loop Gates',
    GIT_AUTHOR_EMAIL: 'test@loopgates.invalid',
    GIT_COMMITTER_NAME: 'Loop Gates',
    GIT_COMMITTER_EMAIL: 'test@loopgates.invalid',
  };
}

/**
 * Create a repo with `files` written (not staged, not committed), run `fn`, remove the repo.
 * HOME points into the temp dir so the user's global git config cannot leak in.
 */
export async function withGitRepo<T>(files: Record<string, string | Buffer>, fn: (repo: TempRepo) => Promise<T> | T): Promise<T> {
  const base = mkdtempSync(join(tmpdir(), 'loopgates-test-'));
  const home = join(base, 'home');
  const dir = join(base, 'repo');
  mkdirSync(home, { recursive: true });
  mkdirSync(dir, { recursive: true });
  const env = { ...process.env, ...isolatedGitEnv(home) };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  git('init', '-q', '-b', 'main');
  const write = (path: string, content: string | Buffer) => {
    const abs = join(dir, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  };
  for (const [p, c] of Object.entries(files)) write(p, c);
  try {
    return await fn({ dir, git, write, read: (p) => readFileSync(join(dir, p), 'utf8') });
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/**
 * A digest of the working tree (every file outside .git, with its mode) and of the index file: tests compare it
 * before and after a run to prove loopgates wrote nothing (DESIGN.md "lose nothing"). `exclude` lists repository-relative
 * paths left out besides .git (e.g. node_modules, or .loopgates/ledger.jsonl: the one file a run appends to).
 */
export function treeAndIndexDigest(dir: string, exclude: readonly string[] = []): string {
  const skip = new Set(['.git', ...exclude]);
  const h = createHash('sha256');
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      if (skip.has(r)) continue;
      const st = lstatSync(join(dir, r));
      // A symbolic link is its target path (it may dangle), as git stores it; links are not followed.
      if (st.isSymbolicLink()) h.update(`${r}\0link\0${readlinkSync(join(dir, r))}`);
      else if (st.isDirectory()) walk(r);
      else h.update(`${r}\0${st.mode}\0`).update(readFileSync(join(dir, r)));
    }
  };
  walk('');
  const index = join(dir, '.git', 'index');
  try {
    h.update('index\0').update(readFileSync(index));
  } catch {
    h.update('no-index');
  }
  return h.digest('hex');
}
