// A repository whose git dir is not <top>/.git: GIT_DIR names a bare-initialised git dir and GIT_WORK_TREE a separate
// work tree (dotfiles set-ups, some CI checkouts). install's proof clones from the git dir rev-parse names, and doctor
// reads the index through the same GIT_DIR, so both work there as the hook does (fresh6 F8). Real git, real commits.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, fakeAwsKeyId, withSandbox, type Sandbox } from './install-support.js';

beforeAll(assertBuilt);

/** gd: `git init --bare`; gw: its work tree with one committed file; the GIT_* pair that selects them. */
function separateLayout(s: Sandbox): { gd: string; gw: string; env: Record<string, string> } {
  const gd = join(s.base, 'gd');
  const gw = join(s.base, 'gw');
  expect(s.gitRun(['init', '-q', '--bare', gd], {}, s.base).status).toBe(0);
  mkdirSync(gw);
  const env = { GIT_DIR: gd, GIT_WORK_TREE: gw };
  writeFileSync(join(gw, 'a.txt'), 'hi\n');
  for (const args of [['add', 'a.txt'], ['commit', '-q', '-m', 'init']]) {
    const r = s.gitRun(args, env, gw);
    expect(r.status, r.output).toBe(0);
  }
  return { gd, gw, env };
}

describe('install and doctor with GIT_DIR and GIT_WORK_TREE naming a separate git dir and work tree', () => {
  it('install proves the hook (the clone is made from the git dir); doctor is healthy once its files are committed; a credential is refused', async () => {
    await withSandbox({}, async (s) => {
      const { gd, gw, env } = separateLayout(s);
      const r = await s.cli(['install'], env, gw);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`placed the shim ${join(gd, 'hooks', 'pre-commit')}`);
      expect(r.stdout).toMatch(/proving: clean commit landed/);
      expect(r.stdout).toMatch(/proven: a commit staging a credential is refused and a clean commit lands/);

      for (const args of [['add', '-A'], ['commit', '-q', '-m', 'loopgates']]) expect(s.gitRun(args, env, gw).status).toBe(0);
      const d = await s.cli(['doctor'], env, gw);
      expect(d.stderr).toBe('');
      expect(d.stdout).toMatch(/^healthy$/m);
      expect(d.code).toBe(0);

      writeFileSync(join(gw, 'k.txt'), `aws_access_key_id = ${fakeAwsKeyId()}\n`);
      expect(s.gitRun(['add', 'k.txt'], env, gw).status).toBe(0);
      const c = s.gitRun(['commit', '-q', '-m', 'canary'], env, gw);
      expect(c.status).toBe(1);
      expect(c.output).toContain('k.txt:1');
    }, false);
  });

  it('doctor before install lists what is missing and exits 2 without a git error', async () => {
    await withSandbox({}, async (s) => {
      const { gw, env } = separateLayout(s);
      const d = await s.cli(['doctor'], env, gw);
      expect(d.stderr).toBe('');
      expect(d.stdout).toMatch(/PROBLEM {2}loopgates is not installed in this clone/);
      expect(d.stdout).toMatch(/^\d+ problems$/m);
      expect(d.code).toBe(2);
    }, false);
  });

  it('a GIT_DIR that is not a git dir, and a bare one without GIT_WORK_TREE, are named as the cause, not "git init"', async () => {
    await withSandbox({}, async (s) => {
      const { gd, gw } = separateLayout(s);
      const none = join(s.base, 'nope');
      const bad = await s.cli(['doctor'], { GIT_DIR: none, GIT_WORK_TREE: gw }, gw);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain(`loopgates doctor: GIT_DIR=${none} (from the environment) is not a git dir`);
      expect(bad.stderr).toContain('fix: point GIT_DIR at the repository\'s git dir (git rev-parse --absolute-git-dir in a shell where git works), or unset GIT_DIR');
      expect(bad.stderr).not.toContain('git init');
      const bare = await s.cli(['install'], { GIT_DIR: gd }, gw);
      expect(bare.code).toBe(2);
      expect(bare.stderr).toContain(`loopgates install: GIT_DIR=${gd} (from the environment) names a git dir with no work tree (core.bare=true) and GIT_WORK_TREE is not set`);
      expect(bare.stderr).toContain(`fix: export GIT_WORK_TREE=${gw}   (the work tree of ${gd}; then run the command again)`);
      expect(bare.stderr).not.toContain('git init');
    }, false);
  });
});
