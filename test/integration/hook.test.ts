// `loopgates hook pre-commit` called by a real git commit (a minimal hook written here; commands/install.ts builds the real
// one). `git commit -a` and `git commit -- <path>` run the hook with a temporary index named by GIT_INDEX_FILE: the
// hook must judge that index, not .git/index. A command gate (a node script over the materialised staged files)
// stands in for a scanner; every built-in gate is disabled so the test judges only the core.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isolatedGitEnv, treeAndIndexDigest, withGitRepo } from '../helpers/git-repo.js';
import type { TempRepo } from '../helpers/git-repo.js';
import { BAD } from './run-toys.js';

const repoRoot = resolve(import.meta.dirname, '..', '..');
const bin = join(repoRoot, 'bin', 'loopgates.js');

// Exit 1 and print the path of every file (under the scratch dir the command gate runs in) that holds the word.
const script = `const fs=require('fs'),p=require('path');let bad=0;const w=d=>{for(const e of fs.readdirSync(d,{withFileTypes:true})){const f=p.join(d,e.name);if(e.isDirectory())w(f);else if(fs.readFileSync(f,'utf8').includes(process.argv[1])){console.log(f);bad=1}}};w('.');process.exit(bad)`;

/**
 * loopgates.yaml for these tests: every built-in gate of the *built* CLI disabled (asked from `explain`, so a dist/
 * built from a different registry than the sources cannot skew it), plus the command gate `no-bad`.
 */
let config = '';
function makeConfig(builtinIds: readonly string[]): string {
  return [
    'version: 1',
    builtinIds.length ? 'gates:' : 'gates: {}',
    ...builtinIds.flatMap((id) => [`  ${id}:`, '    enabled: false']),
    'commands:',
    '  - id: no-bad',
    `    command: ["node", "-e", ${JSON.stringify(script)}, "${BAD}"]`,
    '    loop: {runs: "node script", reads: "staged *.txt", ends: "one pass", asks: never}',
    '    files: ["**/*.txt"]',
    '    selfTest: {waived: "core test fixture"}',
  ].join('\n');
}

function installTestHook(repo: TempRepo): void {
  repo.write('.git/hooks/pre-commit', `#!/bin/sh\nnode "${bin}" hook pre-commit\n`);
  chmodSync(join(repo.dir, '.git', 'hooks', 'pre-commit'), 0o755);
}

/** `git commit` that may be refused: returns exit status and output instead of throwing. */
function commit(repo: TempRepo, ...args: string[]) {
  return commitIn(repo, repo.dir, ...args);
}

function commitIn(repo: TempRepo, cwd: string, ...args: string[]) {
  const home = join(repo.dir, '..', 'home');
  const r = spawnSync('git', ['commit', '-q', '-m', 'test', ...args], { cwd, env: { ...process.env, ...isolatedGitEnv(home) }, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const committed = (repo: TempRepo, path: string) => repo.git('show', `HEAD:${path}`);

/**
 * The staged entries and the working tree. A plain `git commit` itself rewrites .git/index before running the hook
 * (refresh, cache-tree), so raw index bytes cannot tell whether the hook wrote; the entries can.
 */
const state = (repo: TempRepo) => `${repo.git('ls-files', '-s', '-z')}\n${['a.txt', 'b.txt', 'loopgates.yaml'].map((p) => readFileSync(join(repo.dir, p), 'utf8')).join('\0')}`;

describe('hook pre-commit through real git commits', () => {
  beforeAll(() => {
    if (!existsSync(join(repoRoot, 'dist', 'commands', 'hook.js'))) throw new Error('run npm run build first');
    const listed = spawnSync('node', [bin, 'explain', '--all', '--format', 'json'], { cwd: tmpdir(), encoding: 'utf8', env: { ...process.env, GIT_CEILING_DIRECTORIES: tmpdir() } });
    const ids = (JSON.parse(listed.stdout) as { gates: Array<{ id: string; source: string }> }).gates.filter((g) => g.source === 'builtin').map((g) => g.id);
    config = makeConfig(ids);
  });

  const base = async (fn: (repo: TempRepo) => void) =>
    withGitRepo({ 'loopgates.yaml': config, 'a.txt': 'a\n', 'b.txt': 'b\n' }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'base', '--no-verify');
      installTestHook(repo);
      fn(repo);
    });

  it('plain commit: a staged defect is refused (index untouched), a clean one lands', async () => {
    await base((repo) => {
      repo.write('a.txt', `a ${BAD}\n`);
      repo.git('add', '--', 'a.txt');
      const before = state(repo);
      const refused = commit(repo);
      expect(refused.status).toBe(1);
      expect(refused.out).toMatch(/no-bad\s+fail/);
      expect(refused.out).toContain('1 fail — refused: a gate failed (exit 1)');
      expect(state(repo)).toBe(before);
      repo.write('a.txt', 'a clean\n');
      repo.git('add', '--', 'a.txt');
      expect(commit(repo).status).toBe(0);
      expect(committed(repo, 'a.txt')).toBe('a clean\n');
    });
  });

  it('a committed loopgates.yaml with an unstaged edit refuses (exit 2): the commit is judged by the staged config', async () => {
    await base((repo) => {
      // The edit would switch the only gate off for a commit that does not contain that edit.
      repo.write('loopgates.yaml', config.replace('files: ["**/*.txt"]', 'files: ["**/*.none"]'));
      repo.write('a.txt', `a ${BAD}\n`);
      repo.git('add', '--', 'a.txt');
      const before = state(repo);
      const refused = commit(repo);
      expect(refused.out).toContain('loopgates.yaml differs from the staged one');
      expect(refused.out).toContain('git add loopgates.yaml');
      // git reports any hook failure as exit 1; the hook itself exits 2 (broken, not a finding).
      expect(refused.status).toBe(1);
      expect(refused.out).not.toMatch(/no-bad\s+fail/);
      expect(spawnSync('node', [bin, 'hook', 'pre-commit'], { cwd: repo.dir, encoding: 'utf8' }).status).toBe(2);
      expect(state(repo)).toBe(before);
      // Staged with the commit, the config is part of what is committed, and it is what judges: it takes every file
      // from the gate, which is switching it off by another key, so the commit must say so (fresh-user-6 G2).
      repo.git('add', '--', 'loopgates.yaml');
      const narrowed = commit(repo);
      expect(narrowed.out).toContain("this commit keeps no-bad enabled in loopgates.yaml but takes from it 2 files it reads under HEAD's loopgates.yaml (a.txt, b.txt)");
      expect(narrowed.status).toBe(1);
      const home = join(repo.dir, '..', 'home');
      const env = { ...process.env, ...isolatedGitEnv(home), LOOPGATES_ALLOW_DISABLE: 'no-bad' };
      expect(spawnSync('git', ['commit', '-q', '-m', 'test'], { cwd: repo.dir, env, encoding: 'utf8' }).status).toBe(0);
    });
  });

  it('a disabled gate is named on every run', async () => {
    await base((repo) => {
      repo.write('a.txt', 'a clean\n');
      repo.git('add', '--', 'a.txt');
      const landed = commit(repo);
      expect(landed.status).toBe(0);
      expect(landed.out).toMatch(/secrets is disabled in loopgates.yaml \(gates.secrets.enabled: false\): it did not run/);
    });
  });

  it('git commit -a: judges the temporary index holding the unstaged change', async () => {
    await base((repo) => {
      // Nothing staged in .git/index; the defect exists only in the working tree, which -a stages.
      repo.write('b.txt', `b ${BAD}\n`);
      const before = treeAndIndexDigest(repo.dir);
      const refused = commit(repo, '-a');
      expect(refused.status).toBe(1);
      expect(refused.out).toMatch(/no-bad\s+fail\s+scanned 1 file/);
      expect(treeAndIndexDigest(repo.dir)).toBe(before);
      repo.write('b.txt', 'b fixed\n');
      expect(commit(repo, '-a').status).toBe(0);
      expect(committed(repo, 'b.txt')).toBe('b fixed\n');
    });
  });

  it('git commit -- <path>: judges only that path\'s working-tree content, not other staged files', async () => {
    await base((repo) => {
      // A defect staged in a.txt is not part of `git commit -- b.txt`...
      repo.write('a.txt', `a ${BAD}\n`);
      repo.git('add', '--', 'a.txt');
      repo.write('b.txt', 'b partial commit\n');
      const landed = commit(repo, '--', 'b.txt');
      expect(landed.out).not.toMatch(/no-bad\s+fail/);
      expect(landed.status).toBe(0);
      expect(committed(repo, 'b.txt')).toBe('b partial commit\n');
      expect(committed(repo, 'a.txt')).toBe('a\n');
      // ...and a defect in the working tree of the named path, never staged, is.
      repo.write('b.txt', `b ${BAD}\n`);
      const before = treeAndIndexDigest(repo.dir);
      const refused = commit(repo, '--', 'b.txt');
      expect(refused.status).toBe(1);
      expect(treeAndIndexDigest(repo.dir)).toBe(before);
    });
  });

  it('linked worktree, from a subdirectory: git sets GIT_DIR and GIT_INDEX_FILE; -a and -- path are judged right', async () => {
    await base((repo) => {
      const wt = join(repo.dir, '..', 'wt');
      repo.git('worktree', 'add', '-q', '-b', 'side', wt);
      mkdirSync(join(wt, 'sub'));
      writeFileSync(join(wt, 'sub', 'c.txt'), 'c\n');
      repo.git('-C', wt, 'add', '--', 'sub/c.txt');
      expect(commitIn(repo, join(wt, 'sub')).status).toBe(0);
      writeFileSync(join(wt, 'sub', 'c.txt'), `c ${BAD}\n`);
      const refused = commitIn(repo, join(wt, 'sub'), '-a');
      expect(refused.status).toBe(1);
      expect(refused.out).toMatch(/no-bad\s+fail\s+scanned 1 file/);
      const refusedPath = commitIn(repo, join(wt, 'sub'), '--', 'c.txt');
      expect(refusedPath.status).toBe(1);
      writeFileSync(join(wt, 'sub', 'c.txt'), 'c fixed\n');
      expect(commitIn(repo, join(wt, 'sub'), '--', 'c.txt').status).toBe(0);
      expect(repo.git('-C', wt, 'show', 'HEAD:sub/c.txt')).toBe('c fixed\n');
    });
  });

  it('an invalid loopgates.yaml refuses the commit with exit 2 and the line', async () => {
    await base((repo) => {
      repo.write('loopgates.yaml', `${config}\nunknown: 1\n`);
      repo.write('a.txt', 'a2\n');
      repo.git('add', '--', 'a.txt');
      const before = state(repo);
      const r = commit(repo);
      // git reports any hook failure as exit 1; the hook's own 2 shows in its message.
      expect(r.status).toBe(1);
      expect(r.out).toMatch(/loopgates\.yaml:\d+ {2}unknown: unknown key 'unknown'/);
      expect(state(repo)).toBe(before);
      expect(repo.git('rev-list', '--count', 'HEAD')).toBe('1\n');
      const direct = spawnSync('node', [bin, 'hook', 'pre-commit'], { cwd: repo.dir, encoding: 'utf8' });
      expect(direct.status).toBe(2);
      expect(direct.stderr).toContain('(1 problem)');
      expect(readFileSync(join(repo.dir, 'a.txt'), 'utf8')).toBe('a2\n');
    });
  });
});
