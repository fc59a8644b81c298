// `loopgates install` interrupted, through the built CLI in a real child process: SIGINT / SIGTERM at a chosen step
// (LOOPGATES_TEST_INSTALL_PAUSE, test only) or during the real proof rolls back everything install wrote (working tree,
// index, .git/hooks, .git/loopgates, .git/config byte-identical) and exits 130 / 143 saying so; a SIGKILL, which no
// rollback survives, leaves a journal that doctor and the hook report with the fix `loopgates install`, which works.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { treeAndIndexDigest } from '../helpers/git-repo.js';
import { LOOPGATES, LOOPGATES_RE, repoRoot } from '../helpers/setup-env.js';
import { assertBuilt, dirDigest, letGitRefreshIndex, withSandbox, type Sandbox } from './install-support.js';

beforeAll(assertBuilt);

const APP = { 'src/App.kt': 'fun main() = println("hi")\n', 'README.md': '# app\n' };
const cli = join(repoRoot, 'bin', 'loopgates.js');

/** Everything install may touch: working tree + index, the hooks dir, .git/loopgates, the local config. */
function fullState(dir: string): string {
  return [treeAndIndexDigest(dir), dirDigest(join(dir, '.git/hooks')), dirDigest(join(dir, '.git/loopgates')), readFileSync(join(dir, '.git/config'), 'utf8')].join('\n');
}

interface Child {
  /** Process id of the install. */
  pid: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * `loopgates install` as a child process in `s`'s repository (TMPDIR `tmp`); once its output matches `when`, it is sent
 * `sig`. Rejects when `when` never showed before the process ended.
 */
function installAndSignal(s: Sandbox, tmp: string, env: Record<string, string>, when: RegExp, sig: NodeJS.Signals, meanwhile?: (pid: number) => Promise<void>): Promise<Child> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'install'], { cwd: s.repo.dir, env: { ...s.env, ...env, TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let sent = false;
    const look = () => {
      if (!sent && when.test(stdout + stderr)) {
        sent = true;
        if (!meanwhile) child.kill(sig);
        else void meanwhile(child.pid!).finally(() => child.kill(sig));
      }
    };
    child.stdout.on('data', (b) => ((stdout += b), look()));
    child.stderr.on('data', (b) => ((stderr += b), look()));
    child.on('close', (code, signal) => (sent ? resolve({ pid: child.pid!, code, signal, stdout, stderr }) : reject(new Error(`never saw ${when}:\n${stdout}${stderr}`))));
  });
}

async function withTmp<T>(fn: (tmp: string) => Promise<T>): Promise<T> {
  const tmp = mkdtempSync(join(tmpdir(), 'lg-interrupt-tmp-'));
  try {
    return await fn(tmp);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const scratchIn = (tmp: string) => readdirSync(tmp).filter((n) => n.startsWith('loopgates-'));

describe('install interrupted by SIGINT / SIGTERM rolls back', () => {
  it('SIGINT after every file and the shim are written (step placed): exit 130, nothing kept, byte-identical', async () => {
    await withSandbox(APP, async (s) => {
      await withTmp(async (tmp) => {
        const before = fullState(s.repo.dir);
        const r = await installAndSignal(s, tmp, { LOOPGATES_TEST_INSTALL_PAUSE: 'placed' }, /paused at placed/, 'SIGINT');
        expect(r.stdout).toContain('placed the shim');
        expect(r.code).toBe(130);
        expect(r.stderr).toContain('loopgates install: interrupted (SIGINT): rolled back: nothing install wrote is kept (the repository is as it was before this install)');
        expect(r.stderr).toMatch(new RegExp(String.raw`^ {2}fix: ${LOOPGATES_RE} install {3}\(and let it finish`, 'm'));
        expect(fullState(s.repo.dir)).toBe(before);
        expect(existsSync(join(s.repo.dir, '.git/loopgates'))).toBe(false);
      });
    });
  });

  it('SIGTERM after only the stored hook is written: exit 143, byte-identical', async () => {
    await withSandbox(APP, async (s) => {
      await withTmp(async (tmp) => {
        const before = fullState(s.repo.dir);
        const r = await installAndSignal(s, tmp, { LOOPGATES_TEST_INSTALL_PAUSE: 'wrote-hook' }, /paused at wrote-hook/, 'SIGTERM');
        expect(r.code).toBe(143);
        expect(r.stderr).toContain('interrupted (SIGTERM): rolled back: nothing install wrote is kept');
        expect(fullState(s.repo.dir)).toBe(before);
      });
    });
  });

  it('SIGINT during the real proof (the clean commit in the scratch clone): exit 130, byte-identical, no scratch clone left', async () => {
    await withSandbox(APP, async (s) => {
      await withTmp(async (tmp) => {
        const before = fullState(s.repo.dir);
        const r = await installAndSignal(s, tmp, {}, /proving: clean commit/, 'SIGINT');
        expect(r.code).toBe(130);
        expect(r.stdout).not.toContain('proven:');
        expect(r.stderr).toContain('interrupted (SIGINT): rolled back: nothing install wrote is kept');
        expect(fullState(s.repo.dir)).toBe(before);
        expect(scratchIn(tmp)).toEqual([]);
        // Nothing reports an install: doctor finds no hook and no unfinished install.
        const d = await s.cli(['doctor']);
        expect(d.code).toBe(2);
        expect(d.stdout).toContain('ok       no unfinished install (none recorded in this repository)');
        expect(d.stdout).toContain('PROBLEM  .loopgates/hooks/pre-commit is missing');
      });
    });
  }, 120_000);

  it('Ctrl-C in the first second (git rev-parse killed by the same SIGINT): exit 130 saying so, not exit 2 (fresh-user F8)', async () => {
    await withSandbox(APP, async (s) => {
      await withTmp(async (tmp) => {
        // A terminal's Ctrl-C reaches the whole foreground process group: node and the git it is waiting for. This
        // git sends it to both for its first rev-parse, as the terminal would, and dies of it.
        const bin = join(tmp, 'bin');
        mkdirSync(bin);
        const real = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8', env: s.env }).stdout.trim();
        const mark = join(tmp, 'interrupted-once');
        writeFileSync(join(bin, 'git'), `#!/bin/sh\ncase "$*" in *rev-parse*) if [ ! -e '${mark}' ]; then : > '${mark}'; kill -INT "$PPID"; kill -INT $$; fi ;; esac\nexec '${real}' "$@"\n`, { mode: 0o755 });
        const before = fullState(s.repo.dir);
        const r = await new Promise<Child>((resolve) => {
          const child = spawn(process.execPath, [cli, 'install'], { cwd: s.repo.dir, env: { ...s.env, PATH: `${bin}:${s.env.PATH ?? ''}`, TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'pipe'] });
          let stdout = '';
          let stderr = '';
          child.stdout.on('data', (b) => (stdout += b));
          child.stderr.on('data', (b) => (stderr += b));
          child.on('close', (code, signal) => resolve({ pid: child.pid!, code, signal, stdout, stderr }));
        });
        expect(existsSync(mark)).toBe(true);
        expect(r.stderr).not.toContain('killed by SIGINT');
        expect(r.stderr).toContain('loopgates install: interrupted (SIGINT) before it changed anything: the repository is as it was');
        expect(r.stderr).toMatch(new RegExp(String.raw`^ {2}fix: ${LOOPGATES_RE} install$`, 'm'));
        expect(r.code).toBe(130);
        expect(fullState(s.repo.dir)).toBe(before);
      });
    });
  });
});

describe('doctor while an install runs', () => {
  it('names the install as still running, by its pid; the install, interrupted, still rolls back', async () => {
    await withSandbox(APP, async (s) => {
      await withTmp(async (tmp) => {
        const before = fullState(s.repo.dir);
        let doctor: Awaited<ReturnType<Sandbox['cli']>> | undefined;
        const r = await installAndSignal(s, tmp, { LOOPGATES_TEST_INSTALL_PAUSE: 'placed' }, /paused at placed/, 'SIGINT', async () => {
          doctor = await s.cli(['doctor']);
        });
        expect(doctor!.stdout).toMatch(new RegExp(`PROBLEM {2}loopgates install \\(pid ${r.pid}, started \\S+; still running\\) has not finished proving the hook yet`));
        expect(doctor!.stdout).not.toContain('is gone');
        expect(doctor!.code).toBe(2);
        expect(r.code).toBe(130);
        expect(fullState(s.repo.dir)).toBe(before);
      });
    });
  });
});

describe('install killed hard (SIGKILL): no rollback can run', () => {
  it('doctor and the hook report the unfinished install with the fix `loopgates install`, and that fix works', async () => {
    await withSandbox(APP, async (s) => {
      await withTmp(async (tmp) => {
        // git commit rewrites the index once before any hook runs: let it, so the digest sees only install's changes.
        letGitRefreshIndex(s);
        const before = fullState(s.repo.dir);
        const r = await installAndSignal(s, tmp, { LOOPGATES_TEST_INSTALL_PAUSE: 'placed' }, /paused at placed/, 'SIGKILL');
        expect(r.signal).toBe('SIGKILL');
        // The half-install is there (this is what a SIGKILL leaves) ...
        expect(existsSync(join(s.repo.dir, '.git/hooks/pre-commit'))).toBe(true);
        expect(existsSync(join(s.repo.dir, '.git/loopgates/install.pending.json'))).toBe(true);
        // ... and doctor does not call it healthy.
        const d = await s.cli(['doctor']);
        expect(d.code).toBe(2);
        // It says the process is gone, not only its pid (fresh-user nit: a dead pid was named as if it might run).
        expect(d.stdout).toMatch(new RegExp(`PROBLEM {2}loopgates install \\(pid ${r.pid}, started \\S+; process ${r.pid} is gone: the install was interrupted\\) before its proof passed: what it placed is unproven`));
        expect(d.stdout).toContain(`         fix: ${LOOPGATES} install   (undoes the unfinished install, then installs and proves the hook; or: ${LOOPGATES} uninstall)`);
        expect(d.stdout).not.toMatch(/^healthy$/m);
        // The hook refuses a commit with the same cause and fix.
        const c = s.gitRun(['commit', '-q', '--allow-empty', '-m', 'after a killed install']);
        expect(c.status).not.toBe(0);
        expect(c.output).toMatch(new RegExp(`loopgates hook: loopgates install \\(pid ${r.pid}, started \\S+; process ${r.pid} is gone: the install was interrupted\\) before its proof passed: .*: commit refused`));
        expect(c.output).toContain(`fix: ${LOOPGATES} install`);

        // The fix it names: install undoes the unfinished run, then installs and proves the hook.
        const again = await s.cli(['install']);
        expect(again.stderr).toBe('');
        expect(again.code).toBe(0);
        expect(again.stdout).toMatch(/^an earlier loopgates install \(pid \d+, started \S+\) never completed its proof: undid what it wrote first$/m);
        expect(again.stdout).toContain('  removed .loopgates/hooks/pre-commit');
        expect(again.stdout).toMatch(/proven: /);
        expect(existsSync(join(s.repo.dir, '.git/loopgates/install.pending.json'))).toBe(false);
        expect((await s.cli(['doctor'])).code).toBe(0);
        // And uninstall afterwards gets back to the bytes before the killed install.
        expect((await s.cli(['uninstall'])).code).toBe(0);
        expect(fullState(s.repo.dir)).toBe(before);
      });
    });
  }, 180_000);

  it('uninstall after a SIGKILL undoes the unfinished install from its journal: byte-identical', async () => {
    await withSandbox(APP, async (s) => {
      await withTmp(async (tmp) => {
        const before = fullState(s.repo.dir);
        const r = await installAndSignal(s, tmp, { LOOPGATES_TEST_INSTALL_PAUSE: 'config' }, /paused at config/, 'SIGKILL');
        expect(r.signal).toBe('SIGKILL');
        expect(existsSync(join(s.repo.dir, '.loopgates/hooks/pre-commit'))).toBe(true);
        const u = await s.cli(['uninstall']);
        expect(u.stderr).toBe('');
        expect(u.code).toBe(0);
        expect(u.stdout).toContain('loopgates uninstalled: everything the unfinished install wrote is restored');
        expect(fullState(s.repo.dir)).toBe(before);
      });
    });
  });
});
