// Shared set-up for the install integration tests: a temp repository (test/helpers/git-repo.ts) with an isolated HOME,
// the CLI run in-process (cli.ts main) with that environment, and commits made by real git through the real hooks.
import { spawn as spawnChild, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { main } from '../../cli.js';
import { isolatedGitEnv, treeAndIndexDigest, withGitRepo, type TempRepo } from '../helpers/git-repo.js';
import { repoRoot } from '../helpers/setup-env.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Sandbox {
  repo: TempRepo;
  /** The temp dir holding repo/ and home/; scratch space for markers outside the repository. */
  base: string;
  home: string;
  env: Record<string, string>;
  /** `loopgates <argv>` in-process, in the repository, with `env` (plus `extraEnv`). */
  cli(argv: string[], extraEnv?: Record<string, string | undefined>, cwd?: string): Promise<CliResult>;
  /** `git <args>` through real git and the real hooks; never throws. */
  gitRun(args: string[], extraEnv?: Record<string, string | undefined>, cwd?: string): { status: number; output: string };
}

/** The repository's CLI must be built: the hook runs dist/loopgates.cjs (the bundle), the tests import dist/ too. */
export function assertBuilt(): void {
  for (const f of ['cli.js', 'loopgates.cjs']) if (!existsSync(join(repoRoot, 'dist', f))) throw new Error(`dist/${f} is missing: run \`npm run build\` before these tests`);
}

function cleanEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('GIT_') && !k.startsWith('LOOPGATES_') && k !== 'HUSKY') env[k] = v;
  return { ...env, ...isolatedGitEnv(home) };
}

/** A temp repository with `files` committed as the first commit (when any), and the sandbox around it. */
export async function withSandbox<T>(files: Record<string, string | Buffer>, fn: (s: Sandbox) => Promise<T>, commitFirst = true): Promise<T> {
  return withGitRepo(files, async (repo) => {
    const base = dirname(repo.dir);
    const home = join(base, 'home');
    const env = cleanEnv(home);
    if (commitFirst && Object.keys(files).length > 0) {
      repo.git('add', '-A');
      repo.git('commit', '-q', '-m', 'baseline');
    }
    const sandbox: Sandbox = {
      repo,
      base,
      home,
      env,
      async cli(argv, extraEnv = {}, cwd = repo.dir) {
        let stdout = '';
        let stderr = '';
        const merged: Record<string, string | undefined> = { ...env, ...extraEnv };
        const code = await main(argv, {
          cwd,
          env: merged,
          stdout: (t) => void (stdout += t),
          stderr: (t) => void (stderr += t),
          isTTY: false,
          signal: new AbortController().signal,
        });
        return { code, stdout, stderr };
      },
      gitRun(args, extraEnv = {}, cwd = repo.dir) {
        const e: Record<string, string> = { ...env };
        for (const [k, v] of Object.entries(extraEnv)) {
          if (v === undefined) delete e[k];
          else e[k] = v;
        }
        const r = spawnSync('git', args, { cwd, env: e, encoding: 'utf8' });
        return { status: r.status ?? -1, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
      },
    };
    return fn(sandbox);
  });
}

/** An AWS access key id shape, random each call (gitleaks rule aws-access-token); assembled so none is committed. */
/**
 * The word a native install's hook names in its fix lines (hooks/cli-word, fresh6 F10): `node` and the CLI install
 * recorded (this checkout's bin/loopgates.js), sh-quoted when it must be; as a RegExp source.
 */
export function recordedWordPattern(): string {
  const bin = join(repoRoot, 'bin', 'loopgates.js');
  const word = /^[A-Za-z0-9@%+=:,./_-]+$/.test(bin) ? `node ${bin}` : `node '${bin.replaceAll("'", "'\\''")}'`;
  return word.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

export function fakeAwsKeyId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let s = ['A', 'K', 'I', 'A'].join('');
  for (const b of randomBytes(16)) s += alphabet[b % alphabet.length];
  return s;
}

/** A digest of a directory's files (names, modes, bytes), recursively; '' for a missing directory. */
export function dirDigest(dir: string): string {
  if (!existsSync(dir)) return '';
  const h = createHash('sha256');
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const st = statSync(join(dir, r));
      if (st.isDirectory()) walk(r);
      else h.update(`${r}\0${st.mode}\0`).update(readFileSync(join(dir, r)));
    }
  };
  walk('');
  return h.digest('hex');
}

/**
 * Like test/helpers treeAndIndexDigest (working tree outside .git, with modes, plus the index bytes), but without
 * node_modules (may link to this package) and .loopgates/ledger.jsonl: the ledger is the one file a run is meant to
 * append to (git-ignored, DESIGN.md "ledger").
 */
export function treeIndexDigestExceptLedger(dir: string): string {
  return treeAndIndexDigest(dir, ['node_modules', '.loopgates/ledger.jsonl']);
}

/**
 * `git commit` rewrites the index once (stat refresh, cache-tree) before any hook runs. Let it do that through a
 * hook that only refuses, so a digest taken afterwards sees only what our hook might write.
 */
export function letGitRefreshIndex(s: Sandbox, cwd: string = s.repo.dir): void {
  const refuser = join(s.base, 'refusing-hooks');
  mkdirSync(refuser, { recursive: true });
  writeFileSync(join(refuser, 'pre-commit'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
  s.gitRun(['-c', `core.hooksPath=${refuser}`, 'commit', '-q', '-m', 'warm-up'], {}, cwd);
}

/** HEAD's commit id, or '' before the first commit. */
export function head(s: Sandbox, cwd?: string): string {
  const r = s.gitRun(['rev-parse', '--verify', '--quiet', 'HEAD'], {}, cwd);
  return r.status === 0 ? r.output.trim() : '';
}

/**
 * `git <args>` in the sandbox's repository through the real hooks, without blocking the test worker (a commit that
 * starts node takes seconds on a loaded machine; a synchronous wait starves vitest's worker RPC). `extraEnv` values
 * of undefined remove the variable. Never rejects.
 */
export function gitThroughHooks(s: Sandbox, args: string[], extraEnv: Record<string, string | undefined>): Promise<{ status: number; output: string }> {
  const env: Record<string, string> = { ...s.env };
  for (const [k, v] of Object.entries(extraEnv)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return new Promise((resolve) => {
    const child = spawnChild('git', args, { cwd: s.repo.dir, env });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ status: code ?? -1, output }));
  });
}
