// doctor and install judge the file git would run for pre-commit (core.hooksPath resolved from the work tree's top,
// as git resolves it), not only the file loopgates wrote: husky 9's runner .husky/_ is git-ignored, so `git clean -xfd`
// removes it and a linked worktree (`git worktree add`) never has it; git then finds no hook and every commit lands
// unchecked (F6, F7). Real husky 9 from node_modules, real git, real commits.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { treeAndIndexDigest } from '../helpers/git-repo.js';
import { repoRoot } from '../helpers/setup-env.js';
import { assertBuilt, dirDigest, fakeAwsKeyId, head, withSandbox, type Sandbox } from './install-support.js';

beforeAll(assertBuilt);

const APP = { 'src/App.kt': 'fun main() = println("hi")\n', 'README.md': '# app\n', 'package.json': '{\n  "name": "app",\n  "private": true\n}\n' };

/** husky's own set-up (what `npx husky` and its "prepare" script run), in `cwd`. */
function husky(s: Sandbox, cwd: string): void {
  const h = spawnSync(process.execPath, [join(repoRoot, 'node_modules/husky/bin.js')], { cwd, env: s.env, encoding: 'utf8' });
  expect(h.status, h.stderr).toBe(0);
}

/** husky 9 active, .husky/pre-commit committed, loopgates installed into it and its files committed. */
async function huskyInstalled(s: Sandbox): Promise<void> {
  husky(s, s.repo.dir);
  s.repo.write('.husky/pre-commit', 'echo husky-ran\n');
  s.repo.git('add', '.husky/pre-commit');
  s.repo.git('commit', '-q', '--no-verify', '-m', 'husky');
  const r = await s.cli(['install', '--no-proof']);
  expect(r.code, r.stderr).toBe(0);
  s.repo.git('add', '-A');
  s.repo.git('commit', '-q', '--no-verify', '-m', 'loopgates');
  expect((await s.cli(['doctor'])).code).toBe(0);
}

/** A commit staging a credential, through whatever hook git runs in `cwd`; whether it landed. */
function canaryLands(s: Sandbox, cwd: string): boolean {
  const file = join(cwd, 'k.txt');
  spawnSync('sh', ['-c', 'printf "%s\\n" "$1" > "$2"', 'sh', `aws_access_key_id = ${fakeAwsKeyId()}`, file]);
  s.gitRun(['add', 'k.txt'], {}, cwd);
  const before = head(s, cwd);
  s.gitRun(['commit', '-q', '-m', 'canary'], {}, cwd);
  return head(s, cwd) !== before;
}

describe("husky 9's runner .husky/_ removed (git clean -xfd)", () => {
  it('doctor names the missing runner (git runs no hook) with the fix; after the fix it is healthy and commits are judged', async () => {
    await withSandbox(APP, async (s) => {
      await huskyInstalled(s);
      expect(s.gitRun(['clean', '-xfdq']).status).toBe(0);
      expect(existsSync(join(s.repo.dir, '.husky/_'))).toBe(false);
      // The state is real: git finds no pre-commit hook, so a credential lands unchecked.
      expect(canaryLands(s, s.repo.dir)).toBe(true);
      s.repo.git('reset', '-q', '--hard', 'HEAD~1');

      const d = await s.cli(['doctor']);
      expect(d.stdout).toMatch(/PROBLEM {2}\.husky\/_\/pre-commit is missing \(husky 9's runner; \.husky\/_ is git-ignored: git clean -xfd removes it\): git finds no pre-commit hook in core\.hooksPath \(\.husky\/_\), so every commit lands unchecked\n {9}fix: npx husky {3}\(run in .*repo: husky writes \.husky\/_ again; its "prepare": "husky" script does the same on npm install\)/);
      expect(d.stdout).not.toMatch(/ok {7}git will run the hook/);
      expect(d.stdout).not.toMatch(/^healthy$/m);
      expect(d.code).toBe(2);

      husky(s, s.repo.dir);
      const again = await s.cli(['doctor']);
      expect(again.stdout).toMatch(/ok {7}git will run the hook: \.husky\/pre-commit \(husky 9\)/);
      expect(again.code).toBe(0);
      expect(canaryLands(s, s.repo.dir)).toBe(false);
    });
  });

  it("a runner that no longer runs husky's h, or an h gone, is named too", async () => {
    await withSandbox(APP, async (s) => {
      await huskyInstalled(s);
      s.repo.write('.husky/_/pre-commit', '#!/usr/bin/env sh\nexit 0\n');
      const d = await s.cli(['doctor']);
      expect(d.stdout).toMatch(/PROBLEM {2}\.husky\/_\/pre-commit does not run husky's runner \.husky\/_\/h: git never reaches \.husky\/pre-commit, so every commit lands unchecked/);
      expect(d.code).toBe(2);
      husky(s, s.repo.dir);
      spawnSync('rm', ['-f', join(s.repo.dir, '.husky/_/h')]);
      const noH = await s.cli(['doctor']);
      expect(noH.stdout).toMatch(/PROBLEM {2}\.husky\/_\/h is missing \(husky 9's runner/);
      expect(noH.code).toBe(2);
    });
  });

  it('install refuses in that state and leaves everything as it was', async () => {
    await withSandbox(APP, async (s) => {
      husky(s, s.repo.dir);
      s.repo.write('.husky/pre-commit', 'echo husky-ran\n');
      s.repo.git('add', '.husky/pre-commit');
      s.repo.git('commit', '-q', '--no-verify', '-m', 'husky');
      expect(s.gitRun(['clean', '-xfdq']).status).toBe(0);
      const before = [treeAndIndexDigest(s.repo.dir), dirDigest(join(s.repo.dir, '.git/hooks')), readFileSync(join(s.repo.dir, '.git/config'), 'utf8')].join('\n');
      for (const argv of [['install', '--no-proof'], ['install']]) {
        const r = await s.cli(argv);
        expect(r.stderr).toMatch(/loopgates install: \.husky\/_\/pre-commit is missing \(husky 9's runner/);
        expect(r.stderr).toMatch(/rolled back: nothing install wrote is left/);
        expect(r.stdout).not.toMatch(/git will run the hook/);
        expect(r.code).toBe(2);
        expect([treeAndIndexDigest(s.repo.dir), dirDigest(join(s.repo.dir, '.git/hooks')), readFileSync(join(s.repo.dir, '.git/config'), 'utf8')].join('\n')).toBe(before);
        expect(existsSync(join(s.repo.dir, '.git/loopgates'))).toBe(false);
      }
    });
  });
});

describe('a linked worktree (git worktree add) with the relative core.hooksPath=.husky/_', () => {
  it("doctor and install there judge the worktree's own .husky/_ (absent: husky never ran there); after husky runs there, healthy", async () => {
    await withSandbox(APP, async (s) => {
      await huskyInstalled(s);
      const wt = join(s.base, 'linked');
      expect(s.gitRun(['worktree', 'add', '-q', wt]).status).toBe(0);
      expect(existsSync(join(wt, '.husky/pre-commit'))).toBe(true);
      expect(existsSync(join(wt, '.husky/_'))).toBe(false);
      // The state is real: in the linked worktree git finds no hook in <worktree>/.husky/_.
      expect(canaryLands(s, wt)).toBe(true);
      s.gitRun(['reset', '-q', '--hard', 'HEAD~1'], {}, wt);

      const d = await s.cli(['doctor'], {}, wt);
      expect(d.stdout).toMatch(/info {5}hooks dir: .*linked\/\.husky\/_/);
      expect(d.stdout).toMatch(/PROBLEM {2}\.husky\/_\/pre-commit is missing \(husky 9's runner; \.husky\/_ is git-ignored: a linked worktree \(git worktree add\) starts without it\): git finds no pre-commit hook in core\.hooksPath \(\.husky\/_\), so every commit lands unchecked\n {9}fix: npx husky {3}\(run in .*linked: /);
      expect(d.code).toBe(2);
      // The main worktree is unaffected: its own .husky/_ is there.
      expect((await s.cli(['doctor'])).code).toBe(0);

      const i = await s.cli(['install', '--no-proof'], {}, wt);
      expect(i.stderr).toMatch(/loopgates install: \.husky\/_\/pre-commit is missing \(husky 9's runner; \.husky\/_ is git-ignored: a linked worktree/);
      expect(i.code).toBe(2);

      husky(s, wt);
      const again = await s.cli(['doctor'], {}, wt);
      expect(again.stdout).toMatch(/ok {7}git will run the hook: \.husky\/pre-commit \(husky 9\)/);
      expect(again.code).toBe(0);
      expect(canaryLands(s, wt)).toBe(false);
    });
  });

  it('a runner present but not executable in the worktree is named: git skips it', async () => {
    await withSandbox(APP, async (s) => {
      await huskyInstalled(s);
      const wt = join(s.base, 'linked');
      expect(s.gitRun(['worktree', 'add', '-q', wt]).status).toBe(0);
      husky(s, wt);
      spawnSync('chmod', ['-x', join(wt, '.husky/_/pre-commit')]);
      const d = await s.cli(['doctor'], {}, wt);
      expect(d.stdout).toMatch(/PROBLEM {2}\.husky\/_\/pre-commit is not executable: git skips it, so every commit lands unchecked\n {9}fix: chmod \+x .*linked\/\.husky\/_\/pre-commit/);
      expect(d.code).toBe(2);
    });
  });
});

describe('HUSKY=0: husky skips every hook without a word, loopgates included', () => {
  it('in the environment: the commit lands unchecked, and doctor names it', async () => {
    await withSandbox(APP, async (s) => {
      await huskyInstalled(s);
      const file = join(s.repo.dir, 'k.txt');
      writeFileSync(file, `aws_access_key_id = ${fakeAwsKeyId()}\n`);
      s.repo.git('add', 'k.txt');
      const before = head(s);
      s.gitRun(['commit', '-q', '-m', 'canary'], { HUSKY: '0' });
      expect(head(s)).not.toBe(before);
      s.repo.git('reset', '-q', '--hard', 'HEAD~1');
      const d = await s.cli(['doctor'], { HUSKY: '0' });
      expect(d.stdout).toMatch(/PROBLEM {2}HUSKY=0 is set in this environment: husky runs no hooks, ours included, so every commit lands unchecked \(husky says nothing\)\n {9}fix: unset HUSKY/);
      expect(d.code).toBe(2);
    });
  });

  // husky 9's h sources ~/.config/husky/init.sh before it reads HUSKY: a line there skips every hook for this user,
  // and doctor, whose own environment has no HUSKY, said healthy.
  it("in husky's init.sh (~/.config/husky/init.sh): doctor and install name the file and line; without it, healthy", async () => {
    await withSandbox(APP, async (s) => {
      await huskyInstalled(s);
      const init = join(s.home, '.config', 'husky', 'init.sh');
      mkdirSync(dirname(init), { recursive: true });
      writeFileSync(init, '# nvm for GUI clients\nexport HUSKY=0\n');
      expect(canaryLands(s, s.repo.dir)).toBe(true);
      s.repo.git('reset', '-q', '--hard', 'HEAD~1');
      const d = await s.cli(['doctor']);
      expect(d.stdout).toMatch(/PROBLEM {2}.*\/\.config\/husky\/init\.sh:2 sets HUSKY=0 \(husky 9 sources it before every hook\): husky runs no hooks, ours included, so every commit lands unchecked \(husky says nothing\)\n {9}fix: remove that line from .*init\.sh {3}\(to skip the hooks for one command: HUSKY=0 git commit …\)/);
      expect(d.code).toBe(2);
      const i = await s.cli(['install', '--no-proof']);
      expect(i.stderr).toMatch(/loopgates install: .*init\.sh:2 sets HUSKY=0/);
      expect(i.code).toBe(2);
      writeFileSync(init, '# nvm for GUI clients\n');
      expect((await s.cli(['doctor'])).code).toBe(0);
      expect(canaryLands(s, s.repo.dir)).toBe(false);
    });
  });
});
