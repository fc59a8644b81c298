// Messages that pointed the wrong way (issue 14, item 14): a read-only .git gave "internal error: EACCES" with a stack
// trace in install/uninstall; core.hooksPath="" left doctor saying the install completed its proof while suggesting
// `loopgates install`, which failed again ("The empty string is not a valid path"). Each must name the cause and the
// one command that fixes it. Real git, the built CLI as a child process for the permission case.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOOPGATES_RE, repoRoot } from '../helpers/setup-env.js';
import { assertBuilt, dirDigest, withSandbox, type Sandbox } from './install-support.js';

const bin = join(repoRoot, 'bin', 'loopgates.js');
const files = { 'notes.txt': 'x\n' };

/**
 * Run the built CLI so that file permissions apply: as `nobody` through setpriv when the tests run as root (root
 * writes anywhere), as the test user otherwise. Null when neither is possible here.
 */
function asUnprivileged(s: Sandbox, argv: string[]): { status: number | null; out: string } | null {
  const env = { ...s.env, HOME: s.home };
  const root = process.getuid?.() === 0;
  if (root && spawnSync('setpriv', ['--version']).status !== 0) return null;
  const cmd = root ? ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups', 'node', bin, ...argv] : ['node', bin, ...argv];
  const r = spawnSync(cmd[0]!, cmd.slice(1), { cwd: s.repo.dir, env, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** Give the sandbox to `nobody` when running as root (so setpriv's child can read it and own it). */
function handOver(s: Sandbox): void {
  if (process.getuid?.() !== 0) return;
  chmodSync(s.base, 0o755);
  spawnSync('chown', ['-R', 'nobody:nogroup', s.repo.dir, s.home]);
  chownSync(s.base, 65534, 65534);
}

describe('install, uninstall and doctor say the cause and the one fix', () => {
  beforeAll(assertBuilt);

  it('a read-only .git: install and uninstall name the folder and the chmod that fixes it, no internal error, nothing written', async () => {
    await withSandbox(files, async (s) => {
      handOver(s);
      const probe = asUnprivileged(s, ['--version']);
      if (probe === null || probe.status !== 0) throw new Error(`cannot run the CLI unprivileged here: ${probe?.out ?? 'no setpriv'}`);
      const gitDir = join(s.repo.dir, '.git');
      spawnSync('chmod', ['-R', 'a-w', gitDir]);
      try {
        const before = dirDigest(s.repo.dir);
        const r = asUnprivileged(s, ['install', '--no-proof'])!;
        expect(r.out).not.toContain('internal error');
        expect(r.out).not.toMatch(/\n\s+at /);
        expect(r.out).toContain(`cannot write ${join(gitDir, 'loopgates')}: permission denied (${gitDir} is not writable for this user)`);
        expect(r.out).toContain(`fix: chmod -R u+w '${gitDir}'`);
        expect(r.status).toBe(2);
        expect(dirDigest(s.repo.dir)).toBe(before);
        // Installed while writable, then .git turned read-only: uninstall says the same.
        spawnSync('chmod', ['-R', 'u+w', gitDir]);
        expect(asUnprivileged(s, ['install', '--no-proof'])!.status).toBe(0);
        spawnSync('chmod', ['-R', 'a-w', gitDir]);
        const u = asUnprivileged(s, ['uninstall'])!;
        expect(u.out).not.toContain('internal error');
        expect(u.out).toContain(`(${gitDir} is not writable for this user)`);
        expect(u.out).toContain(`fix: chmod -R u+w '${gitDir}'`);
        expect(u.status).toBe(2);
      } finally {
        spawnSync('chmod', ['-R', 'u+w', gitDir]);
      }
    });
  });

  it('core.hooksPath="": install refuses before writing, doctor names the empty hooksPath and the git config --unset that fixes it', async () => {
    await withSandbox(files, async (s) => {
      s.repo.git('config', 'core.hooksPath', '');
      const before = dirDigest(s.repo.dir);
      const i = await s.cli(['install', '--no-proof']);
      expect(i.code).toBe(2);
      expect(i.stderr).toContain('core.hooksPath is set to the empty string in your local git config: git then runs no hook in this repository');
      expect(i.stderr).toContain('fix: git config --local --unset core.hooksPath');
      expect(i.stderr).not.toContain('rolled back');
      expect(dirDigest(s.repo.dir)).toBe(before);
      const d = await s.cli(['doctor']);
      expect(d.code).toBe(2);
      expect(d.stdout).not.toContain('install completed its proof');
      expect(d.stdout).toContain('PROBLEM  core.hooksPath is set to the empty string in your local git config');
      expect(d.stdout).toContain('fix: git config --local --unset core.hooksPath');
      expect(d.stdout + d.stderr).not.toContain('The empty string is not a valid path\n  fix: check the repository');
      // The one command, then install works.
      s.repo.git('config', '--local', '--unset', 'core.hooksPath');
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      expect(existsSync(join(s.repo.dir, '.git', 'hooks', 'pre-commit'))).toBe(true);
    });
  });

  it('core.hooksPath="": run names the cause and the fix instead of a bare git failure', async () => {
    await withSandbox(files, async (s) => {
      s.repo.git('config', 'core.hooksPath', '');
      const r = await s.cli(['run', '--all']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('core.hooksPath is set to the empty string in your local git config');
      expect(r.stderr).toContain('fix: git config --local --unset core.hooksPath');
    });
  });
});

describe('doctor says whether the last install proved the hook', () => {
  // doctor said "ok       install completed its proof" after install --no-proof (and after --from-prepare): the
  // record only said an install completed.
  it('after --no-proof or --from-prepare: the proof was skipped, and how to run it; after a proven install: completed its proof', async () => {
    await withSandbox({ ...files, 'package.json': '{\n  "name": "app",\n  "private": true\n}\n' }, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      const d = await s.cli(['doctor']);
      expect(d.stdout).not.toContain('install completed its proof');
      expect(d.stdout).toMatch(new RegExp(String.raw`^info {5}install completed without its proof \(${LOOPGATES_RE} install --no-proof\): the hook is placed \(checked below\) but no commit has shown it refuses a credential; to prove it: ${LOOPGATES_RE} install$`, 'm'));
      expect(d.code).toBe(0);

      const proven = await s.cli(['install']);
      expect(proven.stdout).toMatch(/proven: /);
      expect(proven.code).toBe(0);
      expect((await s.cli(['doctor'])).stdout).toMatch(/^ok {7}install completed its proof$/m);
      // Run again with nothing to place, --no-proof leaves the proof of what is placed standing.
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      expect((await s.cli(['doctor'])).stdout).toMatch(/^ok {7}install completed its proof$/m);

      // A fresh placement from package.json's prepare script (the shim gone, as in a new clone): not proven here.
      rmSync(join(s.repo.dir, '.git/hooks/pre-commit'));
      expect((await s.cli(['install', '--from-prepare'])).code).toBe(0);
      const p = await s.cli(['doctor']);
      expect(p.stdout).not.toContain('install completed its proof');
      expect(p.stdout).toMatch(new RegExp(String.raw`^info {5}install placed the hook from package\.json's "prepare" script \(${LOOPGATES_RE} install --from-prepare\), without its proof; to prove it: ${LOOPGATES_RE} install$`, 'm'));
      expect(p.code).toBe(0);
    });
  });
});

describe('install says what is left to do, before it does work that cannot help (fresh-user findings)', () => {
  beforeAll(assertBuilt);

  it('"next: commit the hook" names only what differs from HEAD, and is not said once everything is committed', async () => {
    await withSandbox(files, async (s) => {
      const first = await s.cli(['install', '--no-proof']);
      expect(first.code).toBe(0);
      expect(first.stdout).toContain('next: commit the hook so every clone runs it: git add .loopgates .gitattributes loopgates.yaml\n');
      s.repo.git('add', '.loopgates', '.gitattributes', 'loopgates.yaml');
      s.repo.git('commit', '-q', '--no-verify', '-m', 'loopgates');
      // A clone (or a second install) where the stored hook is already committed: nothing to add.
      const again = await s.cli(['install', '--no-proof']);
      expect(again.code).toBe(0);
      expect(again.stdout).not.toContain('next: commit');
      expect(again.stdout).toContain('committed already: .loopgates .gitattributes loopgates.yaml match HEAD (nothing to add)\n');
      // One of them changed since: only that one is named.
      s.repo.write('loopgates.yaml', `${readFileSync(join(s.repo.dir, 'loopgates.yaml'), 'utf8')}# edited\n`);
      const edited = await s.cli(['install', '--no-proof']);
      expect(edited.stdout).toContain('next: commit the hook so every clone runs it: git add loopgates.yaml\n');
    });
  });

  it('a missing gitleaks is refused before anything is written or proven (was: the proof ran first, ~30 s under load; fresh-user F2)', async () => {
    await withSandbox(files, async (s) => {
      const path = (s.env.PATH ?? '').split(':').filter((d) => !existsSync(join(d, 'gitleaks'))).join(':');
      const before = dirDigest(s.repo.dir);
      const r = await s.cli(['install'], { PATH: path });
      expect(r.code).toBe(2);
      expect(r.stdout).not.toContain('proving:');
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(new RegExp(String.raw`^loopgates install: refused, nothing was changed: gitleaks was not found on PATH \(the secrets gate runs it on every commit, and install's proof needs it\)\n {2}fix: .*gitleaks.*, then: ${LOOPGATES_RE} install\n$`));
      expect(dirDigest(s.repo.dir)).toBe(before);
      // --no-proof places the hook without it (doctor and every commit still name the missing scanner).
      expect((await s.cli(['install', '--no-proof'], { PATH: path })).code).toBe(0);
    });
  });

  it('a repository without node_modules/loopgates gets no $schema path into node_modules (fresh-user F3: a native Android repository)', async () => {
    await withSandbox({ ...files, 'app/build.gradle.kts': 'plugins { id("com.android.application") }\n' }, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      const yaml = readFileSync(join(s.repo.dir, 'loopgates.yaml'), 'utf8');
      expect(yaml).not.toContain('node_modules');
      expect(yaml).not.toContain('$schema');
      expect(yaml.split('\n')[0]).toBe('# loopgates.yaml: the gates that guard every commit of this repository (written by loopgates install).');
    });
  });

  it('in a bare repository every verb names the bare repository and a fix that applies there (was "git init", "run --all"; fresh-user F9)', async () => {
    await withSandbox(files, async (s) => {
      const bare = join(s.base, 'bare.git');
      s.repo.git('clone', '-q', '--bare', s.repo.dir, bare);
      const says = `${bare} is inside a git directory (a bare repository or .git), not a work tree`;
      const fix = 'fix: run it in a clone or worktree of the repository (git worktree add ../checkout HEAD), or in the project folder';
      for (const argv of [['install'], ['doctor'], ['uninstall'], ['run'], ['run', '--all']]) {
        const r = await s.cli(argv, {}, bare);
        expect([argv.join(' '), r.code]).toEqual([argv.join(' '), 2]);
        expect(r.stderr).toContain(says);
        expect(r.stderr).toContain(fix);
        expect(r.stderr).not.toContain('git init');
        expect(r.stderr).not.toMatch(/check a folder with: .*loopgates(\.js)? run --all/);
      }
    });
  });
});
