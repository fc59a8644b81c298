// core/tools.ts runTool: exit codes and output whatever the exit code, stdin input, environment, ENOENT as a
// missing tool, and the bounds (timeout, abort) that kill a process and say so. Real processes (sh, node).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolMissingError } from '../../core/errors.js';
import { installHints, OUTPUT_GRACE_MS, runTool } from '../../core/tools.js';

const cwd = process.cwd();

/** Live (not zombie) processes whose process group is `pgid`, as `ps` lists them. */
function liveInGroup(pgid: number): string[] {
  return execFileSync('ps', ['-eo', 'pid=,pgid=,stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => Number(f[1]) === pgid && !(f[2] ?? '').startsWith('Z'))
    .map((f) => f.join(' '));
}

/** Whether process `pid` is alive (not a zombie). */
function alive(pid: number): boolean {
  return execFileSync('ps', ['-eo', 'pid=,stat='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .some((f) => Number(f[0]) === pid && !(f[1] ?? '').startsWith('Z'));
}

describe('runTool', () => {
  it('returns exit code, stdout and stderr byte-exact (no newline stripped) for zero and non-zero exits', async () => {
    const ok = await runTool('sh', ['-c', 'printf "out\\n\\n"; printf "err" >&2'], { cwd, timeoutMs: 10_000 });
    expect(ok).toMatchObject({ exitCode: 0, stdout: 'out\n\n', stderr: 'err', timedOut: false });
    const bad = await runTool('sh', ['-c', 'echo nope >&2; exit 42'], { cwd, timeoutMs: 10_000 });
    expect(bad).toMatchObject({ exitCode: 42, stdout: '', stderr: 'nope\n', timedOut: false });
    expect(bad.durationMs).toBeGreaterThan(0);
  });

  it('passes arguments as an array (no shell) and runs in cwd', async () => {
    const r = await runTool('node', ['-e', 'process.stdout.write(JSON.stringify([process.cwd(), ...process.argv.slice(1)]))', '$HOME; echo x', '-x y'], { cwd: '/', timeoutMs: 10_000 });
    expect(JSON.parse(r.stdout)).toEqual(['/', '$HOME; echo x', '-x y']);
  });

  it('writes input to stdin; without input stdin is closed', async () => {
    const r = await runTool('sh', ['-c', 'cat; echo .'], { cwd, timeoutMs: 10_000, input: Buffer.from('a\0b') });
    expect(r.stdout).toBe('a\0b.\n');
    const none = await runTool('sh', ['-c', 'cat; echo done'], { cwd, timeoutMs: 10_000 });
    expect(none.stdout).toBe('done\n');
  });

  it('extends process.env by default, replaces it with extendEnv false, and unsets keys given as undefined', async () => {
    process.env.LOOPGATES_TOOLS_TEST = 'inherited';
    try {
      const show = ['-c', 'printf "%s|%s" "${LOOPGATES_TOOLS_TEST-unset}" "${EXTRA-unset}"'];
      expect((await runTool('sh', show, { cwd, timeoutMs: 10_000, env: { EXTRA: 'x' } })).stdout).toBe('inherited|x');
      expect((await runTool('sh', show, { cwd, timeoutMs: 10_000, env: { LOOPGATES_TOOLS_TEST: undefined } })).stdout).toBe('unset|unset');
      expect((await runTool('/bin/sh', show, { cwd, timeoutMs: 10_000, env: { EXTRA: 'y' }, extendEnv: false })).stdout).toBe('unset|y');
    } finally {
      delete process.env.LOOPGATES_TOOLS_TEST;
    }
  });

  it('throws ToolMissingError with the install hint when the binary does not exist', async () => {
    const err = await runTool('gitleaks-definitely-not-here', ['--help'], { cwd, timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolMissingError);
    const hinted = await runTool('/nonexistent/dir/gitleaks', [], { cwd, timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(hinted).toBeInstanceOf(ToolMissingError);
    expect((hinted as ToolMissingError).fix).toMatch(/LOOPGATES_GITLEAKS/);
  });

  it('kills a process past timeoutMs (SIGTERM) and reports timedOut with a null exit code', async () => {
    const t0 = performance.now();
    const r = await runTool('sleep', ['30'], { cwd, timeoutMs: 200 });
    expect(r).toMatchObject({ exitCode: null, timedOut: true });
    expect(performance.now() - t0).toBeLessThan(5_000);
  });

  it('follows SIGTERM with SIGKILL when the process ignores it', async () => {
    const t0 = performance.now();
    // The bound leaves node time to install its SIGTERM handler; SIGKILL then follows 2000 ms after SIGTERM.
    const r = await runTool('node', ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'], { cwd, timeoutMs: 1500 });
    expect(r).toMatchObject({ exitCode: null, timedOut: true });
    expect(performance.now() - t0).toBeGreaterThan(3_400);
    expect(performance.now() - t0).toBeLessThan(12_000);
  });

  it('a timed-out tool dies with its whole process group: a background grandchild, even one ignoring SIGTERM, is gone when runTool returns', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopgates-tools-'));
    try {
      // The tool records its pid ($$: the group leader when it has a group of its own) and its two grandchildren's.
      const script = 'echo $$ > leader; sleep 300 & echo $! > plain; (trap "" TERM; while :; do sleep 1; done) & echo $! > stubborn; wait';
      const r = await runTool('sh', ['-c', script], { cwd: dir, timeoutMs: 1000 });
      expect(r).toMatchObject({ exitCode: null, timedOut: true });
      const [leader, plain, stubborn] = ['leader', 'plain', 'stubborn'].map((f) => Number(readFileSync(join(dir, f), 'utf8').trim()));
      expect(liveInGroup(leader!)).toEqual([]);
      expect(alive(plain!)).toBe(false);
      expect(alive(stubborn!)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('does not wait for a grandchild that keeps the output open once the bound is past', async () => {
    const t0 = performance.now();
    const r = await runTool('sh', ['-c', 'echo started; sleep 30 & wait'], { cwd, timeoutMs: 300 });
    expect(r).toMatchObject({ exitCode: null, timedOut: true, stdout: 'started\n' });
    expect(performance.now() - t0).toBeLessThan(10_000);
  });

  it('a tool that exits while a background grandchild keeps its output open ends with its exit code, not at the bound', async () => {
    const t0 = performance.now();
    const r = await runTool('sh', ['-c', 'echo hi; sleep 30 & exit 3'], { cwd, timeoutMs: 8_000 });
    expect(r).toMatchObject({ exitCode: 3, timedOut: false, stdout: 'hi\n' });
    expect(r.stderr).toBe(`sh exited; its output was still held open by a process it left running, not waited for past ${OUTPUT_GRACE_MS} ms\n`);
    expect(performance.now() - t0).toBeLessThan(7_000);
  });

  it('kills the process when the signal aborts, also when it was aborted before the call', async () => {
    const c = new AbortController();
    setTimeout(() => c.abort(new Error('stop')), 200);
    const r = await runTool('sleep', ['30'], { cwd, timeoutMs: 60_000, signal: c.signal });
    expect(r).toMatchObject({ exitCode: null, timedOut: false });
    const done = new AbortController();
    done.abort();
    const t0 = performance.now();
    expect((await runTool('sleep', ['30'], { cwd, timeoutMs: 60_000, signal: done.signal })).exitCode).toBeNull();
    expect(performance.now() - t0).toBeLessThan(5_000);
  });
});

describe('installHints', () => {
  // Debian ships gitleaks from 13 (trixie) on, Ubuntu from 24.04 on: on Debian 12 (bookworm) `apt-get install
  // gitleaks` finds no package (checked with apt-cache on a bookworm machine).
  it('gives the gitleaks install that works on each system, and LOOPGATES_GITLEAKS', () => {
    const hint = installHints.gitleaks ?? '';
    expect(hint).toContain('Debian 13+ / Ubuntu 24.04+: apt-get install gitleaks');
    expect(hint).toContain('macOS: brew install gitleaks');
    expect(hint).toContain('https://github.com/gitleaks/gitleaks/releases');
    expect(hint).toContain('LOOPGATES_GITLEAKS=/path/to/gitleaks');
    expect(hint).not.toMatch(/Debian\/Ubuntu: apt-get/);
  });
});
