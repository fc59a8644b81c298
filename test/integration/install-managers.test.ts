// install next to other hook managers (real husky 9 from node_modules, an existing .git/hooks/pre-commit, lefthook,
// simple-git-hooks, pre-commit, core.hooksPath) and `uninstall` restoring the previous state byte for byte.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { treeAndIndexDigest } from '../helpers/git-repo.js';
import { repoRoot } from '../helpers/setup-env.js';
import { assertBuilt, dirDigest, fakeAwsKeyId, head, withSandbox, type Sandbox } from './install-support.js';

beforeAll(assertBuilt);

const APP = { 'src/App.kt': 'fun main() = println("hi")\n', 'README.md': '# app\n' };

/** Everything install may touch: working tree + index, the hooks dir, install's git-dir record, the local git config. */
function fullState(s: Sandbox): string {
  return [
    treeAndIndexDigest(s.repo.dir),
    dirDigest(join(s.repo.dir, '.git/hooks')),
    existsSync(join(s.repo.dir, '.git/loopgates')) ? 'record' : 'no-record',
    readFileSync(join(s.repo.dir, '.git/config'), 'utf8'),
  ].join('\n');
}

function stageAndCommit(s: Sandbox, path: string, content: string, env: Record<string, string | undefined> = {}) {
  s.repo.write(path, content);
  s.repo.git('add', '--', path);
  const before = head(s);
  const r = s.gitRun(['commit', '-m', `add ${path}`], env);
  return { ...r, landed: head(s) !== before };
}

describe('husky 9 already installed', () => {
  it('integrates into .husky/pre-commit: both run, husky failing still refuses, uninstall restores the file', async () => {
    await withSandbox({ ...APP, 'package.json': '{\n  "name": "app",\n  "private": true\n}\n' }, async (s) => {
      const { spawnSync } = await import('node:child_process');
      const h = spawnSync(process.execPath, [join(repoRoot, 'node_modules/husky/bin.js')], { cwd: s.repo.dir, env: s.env, encoding: 'utf8' });
      expect(h.status).toBe(0);
      expect(s.repo.git('config', 'core.hooksPath').trim()).toBe('.husky/_');
      const marker = join(s.base, 'husky-ran');
      const huskyHook = `[ -f "${join(s.base, 'husky-fail')}" ] && exit 7\necho husky-ran >> "${marker}"\n`;
      s.repo.write('.husky/pre-commit', huskyHook);
      s.repo.git('add', '.husky/pre-commit');
      s.repo.git('commit', '-q', '--no-verify', '-m', 'husky');
      const hooksBefore = dirDigest(join(s.repo.dir, '.git/hooks'));

      const r = await s.cli(['install']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/added the loopgates block in \.husky\/pre-commit \(husky 9\)/);
      expect(r.stdout).toMatch(/proven: /);
      expect(existsSync(join(s.repo.dir, '.git/hooks/pre-commit'))).toBe(false);
      expect(s.repo.read('.husky/pre-commit').startsWith(huskyHook)).toBe(true);
      // husky 9 runs it with `sh -e`: the tracked file keeps its mode (no mode change to commit).
      expect(statSync(join(s.repo.dir, '.husky/pre-commit')).mode & 0o777).toBe(0o644);

      const ok = stageAndCommit(s, 'notes.txt', 'clean\n');
      expect(ok.status).toBe(0);
      expect(ok.landed).toBe(true);
      expect(readFileSync(marker, 'utf8')).toMatch(/husky-ran/);
      expect(ok.output).toMatch(/loopgates 0\.1\.0/);

      const key = fakeAwsKeyId();
      const bad = stageAndCommit(s, 'k.txt', `aws_access_key_id = ${key}\n`);
      expect(bad.landed).toBe(false);
      expect(bad.output).toMatch(/k\.txt:1/);
      expect(bad.output).not.toContain(key);
      s.repo.git('rm', '-q', '--cached', 'k.txt');

      writeFileSync(join(s.base, 'husky-fail'), '');
      const huskyFails = stageAndCommit(s, 'notes2.txt', 'clean\n');
      expect(huskyFails.landed).toBe(false);
      expect(huskyFails.output).toMatch(/husky - pre-commit script failed \(code 7\)/);
      s.repo.git('rm', '-q', '--cached', 'notes2.txt');

      const u = await s.cli(['uninstall']);
      expect(u.code).toBe(0);
      expect(s.repo.read('.husky/pre-commit')).toBe(huskyHook);
      // Everything install wrote is gone again (the commits above only added notes.txt).
      for (const p of ['.loopgates', 'loopgates.yaml', '.gitattributes']) expect(existsSync(join(s.repo.dir, p))).toBe(false);
      // Only the run history of those commits is left, moved out of the tree (git no longer ignores .loopgates/).
      expect(readdirSync(join(s.repo.dir, '.git/loopgates'))).toEqual(['ledger.jsonl']);
      expect(dirDigest(join(s.repo.dir, '.git/hooks'))).toBe(hooksBefore);
    });
  });

  it('husky configured but not active in this clone: block in .husky/pre-commit and a shim until husky is active', async () => {
    await withSandbox({ ...APP, '.husky/pre-commit': 'npm test\n' }, async (s) => {
      const r = await s.cli(['install', '--no-proof']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/added the loopgates block in \.husky\/pre-commit/);
      expect(r.stdout).toMatch(/placed the shim .*\.git\/hooks\/pre-commit/);
      expect(r.stdout).toMatch(/note: husky is configured/);
      expect((await s.cli(['uninstall'])).code).toBe(0);
      expect(s.repo.read('.husky/pre-commit')).toBe('npm test\n');
    });
  });

  // The note named core.hooksPath "unset" whatever it was (closing note of issue 17): it says the value git has.
  it('husky configured, core.hooksPath set elsewhere in the repository: the note names the value, not "unset"', async () => {
    await withSandbox({ ...APP, '.husky/pre-commit': 'npm test\n', '.githooks/post-merge': 'true\n' }, async (s) => {
      s.repo.git('config', 'core.hooksPath', '.githooks');
      const r = await s.cli(['install', '--no-proof']);
      expect(r.stdout).not.toMatch(/core\.hooksPath unset/);
      expect(r.stdout).toMatch(/note: husky is configured \(\.husky\/\) but not active in this clone \(core\.hooksPath is \.githooks, not \.husky\/_\)/);
      expect(r.code).toBe(0);
    });
  });
});

describe('an existing .git/hooks/pre-commit', () => {
  const previous = (marker: string, flag: string) => `#!/bin/sh\n# my own hook\necho previous-ran >> "${marker}"\n[ -f "${flag}" ] && exit 5\nexit 0\n`;

  it('is kept, chained (its failure still refuses), and restored byte for byte by uninstall', async () => {
    await withSandbox(APP, async (s) => {
      const marker = join(s.base, 'previous-ran');
      const flag = join(s.base, 'previous-fail');
      const hook = join(s.repo.dir, '.git/hooks/pre-commit');
      writeFileSync(hook, previous(marker, flag), { mode: 0o751 });
      const hooksBefore = dirDigest(join(s.repo.dir, '.git/hooks'));

      const r = await s.cli(['install']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/backed up the existing hook to .*pre-commit\.loopgates-previous/);
      expect(r.stdout).toMatch(/runs pre-commit\.loopgates-previous first/);
      expect(readFileSync(join(s.repo.dir, '.git/hooks/pre-commit.loopgates-previous'), 'utf8')).toBe(previous(marker, flag));

      const ok = stageAndCommit(s, 'notes.txt', 'clean\n');
      expect(ok.status).toBe(0);
      expect(readFileSync(marker, 'utf8')).toMatch(/previous-ran/);
      expect(ok.output).toMatch(/loopgates 0\.1\.0/);

      writeFileSync(flag, '');
      const refused = stageAndCommit(s, 'notes2.txt', 'clean\n');
      expect(refused.landed).toBe(false);
      expect(refused.status).toBe(1);
      // git says 1 for any refusing hook; the last line names the hook that refused and its own code (fresh-user-4 F5).
      const lastLine = refused.output.trimEnd().split('\n').at(-1);
      expect(lastLine).toBe('loopgates: the previous pre-commit hook (.git/hooks/pre-commit.loopgates-previous) refused the commit (exit 5)');

      const u = await s.cli(['uninstall']);
      expect(u.stderr).toBe('');
      expect(u.code).toBe(0);
      expect(readFileSync(hook, 'utf8')).toBe(previous(marker, flag));
      expect(statSync(hook).mode & 0o777).toBe(0o751);
      expect(existsSync(join(s.repo.dir, '.git/hooks/pre-commit.loopgates-previous'))).toBe(false);
      expect(dirDigest(join(s.repo.dir, '.git/hooks'))).toBe(hooksBefore);
      // Only the run history of those commits is left, moved out of the tree (git no longer ignores .loopgates/).
      expect(readdirSync(join(s.repo.dir, '.git/loopgates'))).toEqual(['ledger.jsonl']);
      expect(existsSync(join(s.repo.dir, '.loopgates'))).toBe(false);
    });
  });

  it('a hook generated by pre-commit (the Python tool) is chained the same way', async () => {
    await withSandbox({ ...APP, '.pre-commit-config.yaml': 'repos: []\n' }, async (s) => {
      writeFileSync(join(s.repo.dir, '.git/hooks/pre-commit'), '#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\nexit 0\n', { mode: 0o755 });
      const r = await s.cli(['install', '--no-proof']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/kept the existing pre-commit at .*pre-commit\.loopgates-previous; it runs first/);
    });
  });
});

describe('uninstall', () => {
  it('restores every file byte for byte: package.json, .gitattributes without a final newline, the local config', async () => {
    const pkg = '{\n\t"name": "app",\n\t"scripts": {\n\t\t"prepare": "husky"\n\t},\n\t"devDependencies": {\n\t\t"loopgates": "*"\n\t}\n}';
    await withSandbox({ ...APP, 'package.json': pkg, '.gitattributes': '*.png binary' }, async (s) => {
      const before = fullState(s);
      const r = await s.cli(['install', '--no-proof']);
      expect(r.code).toBe(0);
      const after = JSON.parse(s.repo.read('package.json')) as { scripts: { prepare: string } };
      expect(after.scripts.prepare).toMatch(/^husky && node -e /);
      expect(s.repo.read('package.json')).toMatch(/^\t"name"/m);
      expect(s.repo.read('.gitattributes')).toBe('*.png binary\n.loopgates/hooks/* text eol=lf\n');
      expect(fullState(s)).not.toBe(before);
      const u = await s.cli(['uninstall']);
      expect(u.code).toBe(0);
      expect(s.repo.read('package.json')).toBe(pkg);
      expect(s.repo.read('.gitattributes')).toBe('*.png binary');
      expect(fullState(s)).toBe(before);
      expect((await s.cli(['uninstall'])).stdout).toMatch(/not installed here/);
    });
  });

  it('keeps the user’s later edits to package.json and removes only the prepare script', async () => {
    const pkg = '{\n  "name": "app",\n  "devDependencies": {\n    "loopgates": "*"\n  }\n}\n';
    await withSandbox({ ...APP, 'package.json': pkg }, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      const edited = JSON.parse(s.repo.read('package.json')) as Record<string, unknown>;
      edited.description = 'edited after install';
      writeFileSync(join(s.repo.dir, 'package.json'), `${JSON.stringify(edited, null, 2)}\n`);
      const u = await s.cli(['uninstall']);
      expect(u.code).toBe(0);
      expect(u.stdout).toMatch(/unpatched package\.json/);
      expect(JSON.parse(s.repo.read('package.json'))).toEqual({ name: 'app', devDependencies: { loopgates: '*' }, description: 'edited after install' });
    });
  });

  it('once the team files are committed, removes only what is local to this clone and names the git rm for the rest (fresh-user F11)', async () => {
    const pkg = '{\n  "name": "app",\n  "devDependencies": {\n    "loopgates": "*"\n  }\n}\n';
    await withSandbox({ ...APP, 'package.json': pkg, '.gitattributes': '*.png binary\n' }, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      s.repo.git('add', '-A');
      s.repo.git('commit', '-q', '--no-verify', '-m', 'loopgates for the team');
      const tracked = s.repo.git('ls-files').trim().split('\n');
      for (const p of ['loopgates.yaml', '.loopgates/hooks/pre-commit', '.loopgates/.gitignore', '.gitattributes', 'package.json']) expect(tracked).toContain(p);
      const before = treeAndIndexDigest(s.repo.dir);
      const u = await s.cli(['uninstall']);
      expect(u.stderr).toBe('');
      expect(u.code).toBe(0);
      // Nothing committed is deleted or changed: the working tree and the index are as they were.
      expect(treeAndIndexDigest(s.repo.dir)).toBe(before);
      expect(s.gitRun(['status', '--porcelain', '--untracked-files=all']).output).toBe('');
      // What is local to this clone is gone: the shim git runs, the install record, the caches.
      expect(existsSync(join(s.repo.dir, '.git/hooks/pre-commit'))).toBe(false);
      expect(existsSync(join(s.repo.dir, '.git/loopgates/install.json'))).toBe(false);
      expect(existsSync(join(s.repo.dir, '.git/loopgates/cache'))).toBe(false);
      expect(u.stdout).toContain('kept loopgates.yaml (tracked: a file of the team');
      expect(u.stdout).toContain('git rm -q -- .loopgates/.gitignore .loopgates/hooks/pre-commit loopgates.yaml');
      expect(u.stdout).toMatch(/\.gitattributes: remove the line "\.loopgates\/hooks\/\* text eol=lf"/);
      expect(u.stdout).toMatch(/package\.json: remove the loopgates part of scripts\.prepare/);
      expect(u.stdout).toContain('package.json: remove the loopgates part of scripts.prepare and run `npm uninstall loopgates` (until then, `npm install` runs prepare and puts the hook back in every clone, this one included)');
      expect(u.stdout).toMatch(/loopgates uninstalled from this clone/);
      // doctor says what is true now: no hook in this clone, the team files present, and the one command.
      const d = await s.cli(['doctor']);
      expect(d.code).not.toBe(0);
      expect(d.stdout + d.stderr).toMatch(/not installed in this clone/);
      expect(d.stdout + d.stderr).toContain('loopgates install');
      expect(d.stdout + d.stderr).not.toMatch(/completed its proof/);
    });
  });

  it('leaves an edited loopgates.yaml in place and says so (exit 2)', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      writeFileSync(join(s.repo.dir, 'loopgates.yaml'), `${s.repo.read('loopgates.yaml')}# mine\n`);
      const u = await s.cli(['uninstall']);
      expect(u.code).toBe(2);
      expect(u.stderr).toMatch(/loopgates\.yaml was edited since install; left as it is/);
      expect(existsSync(join(s.repo.dir, 'loopgates.yaml'))).toBe(true);
      expect(existsSync(join(s.repo.dir, '.git/hooks/pre-commit'))).toBe(false);
      const forced = await s.cli(['uninstall', '--force']);
      expect(forced.code).toBe(0);
      expect(existsSync(join(s.repo.dir, 'loopgates.yaml'))).toBe(false);
    });
  });
});

describe('the husky block says how it goes (fresh G6)', () => {
  it('committed, uninstall keeps it as its comment says; deleting it as the comment says gives back husky\'s file', async () => {
    await withSandbox({ ...APP, 'package.json': '{\n  "name": "app",\n  "private": true\n}\n' }, async (s) => {
      const { spawnSync } = await import('node:child_process');
      expect(spawnSync(process.execPath, [join(repoRoot, 'node_modules/husky/bin.js')], { cwd: s.repo.dir, env: s.env, encoding: 'utf8' }).status).toBe(0);
      const huskyHook = 'echo husky-ran\n';
      s.repo.write('.husky/pre-commit', huskyHook);
      s.repo.git('add', '.husky/pre-commit');
      s.repo.git('commit', '-q', '--no-verify', '-m', 'husky');
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      const lines = s.repo.read('.husky/pre-commit').split('\n');
      const begin = lines.findIndex((l) => l.startsWith('# >>> loopgates'));
      expect(lines[begin]).toBe(
        '# >>> loopgates: runs the stored hook .loopgates/hooks/pre-commit. To remove it, delete this block down to its closing line; `loopgates uninstall` does that only where it placed the block and only while this file is not committed',
      );
      s.repo.git('add', '-A');
      s.repo.git('commit', '-q', '--no-verify', '-m', 'loopgates for the team');
      const u = await s.cli(['uninstall']);
      expect(u.code).toBe(0);
      // Committed: the team's file, left as it is (as the comment says), and the step printed for it.
      expect(s.repo.read('.husky/pre-commit').split('\n')).toEqual(lines);
      expect(u.stdout).toContain('  .husky/pre-commit: remove the block between the loopgates markers');
      // What the comment says to do, done literally: from its line through the end marker.
      const end = lines.indexOf('# <<< loopgates');
      expect(end).toBeGreaterThan(begin);
      expect([...lines.slice(0, begin), ...lines.slice(end + 1)].join('\n')).toBe(huskyHook);
    });
  });
});

describe('managers install refuses next to (changing nothing)', () => {
  it('a global core.hooksPath', async () => {
    await withSandbox(APP, async (s) => {
      const shared = join(s.base, 'shared-hooks');
      mkdirSync(shared);
      s.repo.git('config', '--global', 'core.hooksPath', shared);
      const before = fullState(s);
      const r = await s.cli(['install']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/refused, nothing was changed: core\.hooksPath is set in your global git config/);
      expect(r.stderr).toMatch(/fix: either add these lines to .*shared-hooks\/pre-commit/);
      expect(fullState(s)).toBe(before);
      expect(existsSync(join(shared, 'pre-commit'))).toBe(false);
    });
  });

  // The inactive-husky branch placed a shim into any hooks dir, so it wrote into a folder outside the repository and
  // the install record refused to name it: "internal error: loopgates install wrote …/pre-commit, outside …".
  it('an inactive .husky/ beside a local core.hooksPath outside the repository: the shared-folder refusal, until that hook runs the stored hook', async () => {
    await withSandbox({ ...APP, '.husky/pre-commit': 'npm test\n' }, async (s) => {
      const shared = join(s.base, 'shared-hooks');
      mkdirSync(shared);
      s.repo.git('config', 'core.hooksPath', shared);
      const before = fullState(s);
      for (const argv of [['install'], ['install', '--no-proof']]) {
        const r = await s.cli(argv);
        expect(r.stderr).not.toMatch(/internal error/);
        expect(r.stderr).toMatch(/refused, nothing was changed: core\.hooksPath is set for this repository to .*shared-hooks, outside the repository: other repositories may share that directory/);
        expect(r.stderr).toMatch(/fix: add these lines to .*shared-hooks\/pre-commit/);
        expect(r.code).toBe(2);
        expect(fullState(s)).toBe(before);
        expect(readdirSync(shared)).toEqual([]);
      }
      // The fix it names works: with those lines in the shared hook, install places the husky block and proves nothing
      // about the shared folder it did not write.
      writeFileSync(join(shared, 'pre-commit'), '#!/bin/sh\n[ -f .loopgates/hooks/pre-commit ] && exec sh .loopgates/hooks/pre-commit\n', { mode: 0o755 });
      const ok = await s.cli(['install', '--no-proof']);
      expect(ok.stderr).toBe('');
      expect(ok.code).toBe(0);
      expect(ok.stdout).toMatch(/added the loopgates block in \.husky\/pre-commit \(husky\)/);
      expect(ok.stdout).toMatch(/core\.hooksPath=.*shared-hooks runs the stored hook/);
      expect(readdirSync(shared)).toEqual(['pre-commit']);
      expect((await s.cli(['doctor'])).code).toBe(0);
    });
  });

  it('lefthook, until its config runs the stored hook', async () => {
    await withSandbox({ ...APP, 'lefthook.yml': 'pre-commit:\n  commands:\n    lint:\n      run: echo lint\n' }, async (s) => {
      const before = fullState(s);
      const r = await s.cli(['install']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/lefthook manages this repository's hooks \(lefthook\.yml\)/);
      expect(r.stderr).toMatch(/run: sh \.loopgates\/hooks\/pre-commit/);
      expect(fullState(s)).toBe(before);
      s.repo.write('lefthook.yml', 'pre-commit:\n  commands:\n    loopgates:\n      run: sh .loopgates/hooks/pre-commit\n');
      const ok = await s.cli(['install', '--no-proof']);
      expect(ok.code).toBe(0);
      expect(ok.stdout).toMatch(/lefthook runs the stored hook/);
    });
  });

  it('simple-git-hooks', async () => {
    await withSandbox({ ...APP, 'package.json': '{"name":"a","simple-git-hooks":{"pre-commit":"npx lint-staged"}}\n' }, async (s) => {
      const before = fullState(s);
      const r = await s.cli(['install']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/simple-git-hooks manages this repository's hooks/);
      expect(fullState(s)).toBe(before);
    });
  });

  it('a local core.hooksPath inside the repository gets the block in its tracked pre-commit', async () => {
    await withSandbox({ ...APP, '.githooks/pre-commit': '#!/bin/sh\necho mine\n' }, async (s) => {
      s.repo.git('config', 'core.hooksPath', '.githooks');
      const r = await s.cli(['install', '--no-proof']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/added the loopgates block in \.githooks\/pre-commit \(core\.hooksPath=\.githooks\)/);
      expect(s.repo.read('.githooks/pre-commit')).toMatch(/^#!\/bin\/sh\necho mine\n# >>> loopgates/);
      expect((await s.cli(['uninstall'])).code).toBe(0);
      expect(s.repo.read('.githooks/pre-commit')).toBe('#!/bin/sh\necho mine\n');
    });
  });
});
