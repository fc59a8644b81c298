// `loopgates retry` end to end: the built CLI (bin/loopgates.js -> dist/) in real temp git repositories, running real
// sh scripts that fail once, fail twice, hang, ignore SIGTERM or leave a background grandchild. No mocked spawn.
// After every outcome the process table is listed (ps) and the attempt's process group must hold no live process.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOOPGATES, repoRoot } from '../helpers/setup-env.js';
import { withGitRepo, type TempRepo } from '../helpers/git-repo.js';
import { spawnCli, type SpawnedRun } from '../helpers/spawn-cli.js';

const bin = join(repoRoot, 'bin', 'loopgates.js');

type Run = SpawnedRun;
const cli = spawnCli;

/** Live (not zombie) processes of process group `pgid`, from the process table. */
function liveInGroup(pgid: number): string[] {
  const table = execFileSync('ps', ['-eo', 'pid=,pgid=,stat=,args='], { encoding: 'utf8' });
  return table
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => Number(f[1]) === pgid && !(f[2] ?? '').startsWith('Z'))
    .map((f) => f.join(' '));
}

/** A script that counts its runs in `runs` and records its process group (its own pid: the group leader) in `pgid`. */
const script = (body: string) => `echo $$ > pgid\nn=$(( $(cat runs 2>/dev/null || echo 0) + 1 ))\necho $n > runs\n${body}\n`;
const DAEMON = 'Gradle build daemon disappeared unexpectedly (it may have been killed or may have crashed)';

async function inRepo<T>(scripts: Record<string, string>, fn: (repo: TempRepo) => Promise<T>, yaml = 'version: 1\n'): Promise<T> {
  const files: Record<string, string> = { 'loopgates.yaml': yaml, '.gitignore': 'runs\npgid\nnum\ngrandchild\ncleanups\n*.xml\n' };
  for (const [k, v] of Object.entries(scripts)) files[k] = script(v);
  return withGitRepo(files, async (repo) => {
    repo.git('add', '-A');
    repo.git('commit', '-q', '--no-verify', '-m', 'init');
    return fn(repo);
  });
}

const runs = (repo: TempRepo) => Number(readFileSync(join(repo.dir, 'runs'), 'utf8').trim());
const pgidOf = (repo: TempRepo) => Number(readFileSync(join(repo.dir, 'pgid'), 'utf8').trim());

describe('loopgates retry: outcomes', () => {
  it('FLAKY: a known flake once, then a pass, exits 0 after exactly 2 attempts; --fail-on-flaky exits 1', async () => {
    await inRepo({ 'flaky.sh': `if [ "$n" = 1 ]; then echo '${DAEMON}' >&2; exit 1; fi\necho built` }, async (repo) => {
      const r = await cli(repo, ['retry', '--task', 't1', '--', 'sh', 'flaky.sh']);
      expect(r.code).toBe(0);
      expect(runs(repo)).toBe(2);
      expect(r.stderr).toContain('TRY 1 FAIL exit 1');
      expect(r.stderr).toContain('TRY 2 PASS');
      expect(r.stderr).toContain('FLAKY(gradle-daemon-disappeared) 2/2');
      expect(r.stderr).toContain(`last lines of attempt 1:\n    ${DAEMON}`);
      expect(r.stdout).toBe('built\n');
      expect(liveInGroup(pgidOf(repo))).toEqual([]);
      writeFileSync(join(repo.dir, 'runs'), '0\n');
      const strict = await cli(repo, ['retry', '--fail-on-flaky', '--task', 't2', '--', 'sh', 'flaky.sh']);
      expect(strict.code).toBe(1);
      expect(strict.stderr).toContain('FLAKY(gradle-daemon-disappeared) 2/2');
      expect(runs(repo)).toBe(2);
    });
  });

  it('FAILED-AFTER-RETRY: the known flake twice exits 1 after 2 attempts', async () => {
    await inRepo({ 'twice.sh': `echo '${DAEMON}' >&2; exit 1` }, async (repo) => {
      const r = await cli(repo, ['retry', '--task', 't', '--', 'sh', 'twice.sh']);
      expect(r.code).toBe(1);
      expect(runs(repo)).toBe(2);
      expect(r.stderr).toContain('FAILED-AFTER-RETRY(gradle-daemon-disappeared) 2/2');
      expect(liveInGroup(pgidOf(repo))).toEqual([]);
    });
  });

  it('FAILED: a message no signature knows is final after exactly one attempt', async () => {
    const compile = 'e: file:///app/src/main/java/Main.kt:3:5 Unresolved reference: foo';
    await inRepo({ 'broken.sh': `echo '${compile}' >&2; exit 1` }, async (repo) => {
      const r = await cli(repo, ['retry', '--max', '3', '--task', 't', '--', 'sh', 'broken.sh']);
      expect(r.code).toBe(1);
      expect(runs(repo)).toBe(1);
      expect(r.stderr).toContain('loopgates retry: FAILED after 1 attempt (up to 4 allowed) — no known flake signature matched: the change is to blame (command exit 1)');
      expect(r.stderr).toContain(`    ${compile}`);
    });
  });

  it('ASK-HUMAN(<id>): a human blocker stops at once (one attempt), exit 3, and says what a person must do', async () => {
    const sdk = 'SDK location not found. Define location with sdk.dir in the local.properties file or with an ANDROID_HOME environment variable.';
    await inRepo({ 'sdk.sh': `echo '${sdk}' >&2; exit 1` }, async (repo) => {
      const r = await cli(repo, ['retry', '--task', 't', '--', 'sh', 'sdk.sh']);
      expect(r.code).toBe(3);
      expect(runs(repo)).toBe(1);
      expect(r.stderr).toContain('ASK-HUMAN(android-sdk-missing) after 1 attempt (up to 2 allowed)');
      expect(r.stderr).toContain('a person must: install the Android SDK and set ANDROID_HOME');
    });
  });

  it('TIMEOUT: a hanging command and its background grandchild are both gone', async () => {
    await inRepo({ 'hang.sh': 'sleep 300 &\necho $! > grandchild\nsleep 300' }, async (repo) => {
      const r = await cli(repo, ['retry', '--timeout', '1s', '--task', 't', '--', 'sh', 'hang.sh']);
      expect(r.code).toBe(1);
      expect(runs(repo)).toBe(1);
      expect(r.stderr).toContain('TRY 1 TIMEOUT timed out after');
      expect(r.stderr).toContain('TIMEOUT after 1 attempt (up to 2 allowed)');
      const grandchild = Number(readFileSync(join(repo.dir, 'grandchild'), 'utf8'));
      expect(grandchild).toBeGreaterThan(0);
      expect(liveInGroup(pgidOf(repo))).toEqual([]);
    });
  });

  it('TIMEOUT: a command that ignores SIGTERM is ended by SIGKILL', async () => {
    await inRepo({ 'stubborn.sh': "trap '' TERM\nsleep 300 &\nwait" }, async (repo) => {
      const r = await cli(repo, ['retry', '--timeout', '500ms', '--task', 't', '--', 'sh', 'stubborn.sh']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('TIMEOUT after 1 attempt (up to 2 allowed)');
      expect(liveInGroup(pgidOf(repo))).toEqual([]);
    });
  });

  it('PASSED: a background process the command left running is ended with the attempt', async () => {
    await inRepo({ 'leaves.sh': 'sleep 300 &\necho $! > grandchild\necho done' }, async (repo) => {
      const r = await cli(repo, ['retry', '--task', 't', '--', 'sh', 'leaves.sh']);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('loopgates retry: PASSED on attempt 1 (up to 2 allowed) (command exit 0)');
      expect(liveInGroup(pgidOf(repo))).toEqual([]);
    });
  });

  it('Ctrl-C: SIGINT to loopgates is passed to the group and ends the loop with 130, one attempt', async () => {
    await inRepo({ 'long.sh': `echo '${DAEMON}' >&2\nsleep 300 &\nwait` }, async (repo) => {
      const child = spawn(process.execPath, [bin, 'retry', '--task', 't', '--', 'sh', 'long.sh'], { cwd: repo.dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (b) => (stderr += b));
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (stderr.includes('daemon disappeared')) (clearInterval(poll), resolve());
        }, 20);
      });
      const pgid = pgidOf(repo);
      child.kill('SIGINT');
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(130);
      expect(stderr).toContain('TRY 1 STOPPED by SIGINT');
      expect(stderr).toContain('INTERRUPTED after 1 attempt (up to 2 allowed)');
      expect(runs(repo)).toBe(1);
      expect(liveInGroup(pgid)).toEqual([]);
    });
  });

  it('refuses --max over 3, a missing command, and a command that does not exist', async () => {
    await inRepo({}, async (repo) => {
      const four = await cli(repo, ['retry', '--max', '4', '--', 'true']);
      expect(four.code).toBe(2);
      expect(four.stderr).toContain('--max 4 is more than 3 retries');
      const none = await cli(repo, ['retry']);
      expect(none.code).toBe(2);
      const missing = await cli(repo, ['retry', '--', 'no-such-tool-xyz']);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('no-such-tool-xyz was not found on PATH');
    });
  });

  it('--on-retry runs the cleanup between attempts; a failing cleanup stops the loop (exit 2); --rule narrows the signatures', async () => {
    await inRepo({ 'flaky.sh': `if [ "$n" = 1 ]; then echo '${DAEMON}' >&2; exit 1; fi\necho built` }, async (repo) => {
      // Not through script(): the cleanup must not count as a run of the command.
      repo.write('stop.sh', 'echo stopped >> cleanups\n');
      const r = await cli(repo, ['retry', '--on-retry', 'sh stop.sh', '--delay', '100ms', '--task', 'a', '--', 'sh', 'flaky.sh']);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('cleanup before attempt 2: sh stop.sh');
      expect(readFileSync(join(repo.dir, 'cleanups'), 'utf8')).toBe('stopped\n');
      expect(runs(repo)).toBe(2);
      writeFileSync(join(repo.dir, 'runs'), '0\n');
      const broken = await cli(repo, ['retry', '--on-retry', 'sh no-such-cleanup.sh', '--task', 'b', '--', 'sh', 'flaky.sh']);
      expect(broken.code).toBe(2);
      expect(broken.stderr).toMatch(/WARNING: the cleanup between attempts \(sh no-such-cleanup\.sh\) failed \(exit \d+\): no further attempt/);
      expect(runs(repo)).toBe(1);
      writeFileSync(join(repo.dir, 'runs'), '0\n');
      const narrowed = await cli(repo, ['retry', '--rule', 'adb-device-offline', '--task', 'c', '--', 'sh', 'flaky.sh']);
      expect(narrowed.code).toBe(1);
      expect(narrowed.stderr).toContain('loopgates retry: FAILED after 1 attempt (up to 2 allowed) — no known flake signature matched: the change is to blame');
      expect(runs(repo)).toBe(1);
      const unknown = await cli(repo, ['retry', '--rule', 'no-such-rule', '--', 'true']);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('unknown flake signature no-such-rule');
    });
  });

  it("passes a command's own --help through instead of printing retry's", async () => {
    await inRepo({ 'help.sh': 'echo "got $1"' }, async (repo) => {
      const r = await cli(repo, ['retry', '--', 'sh', 'help.sh', '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('got --help\n');
    });
  });
});

/** Run the CLI with its stdout and stderr on the given fds (a file, /dev/null), as a shell's `> log 2>&1` does. */
function cliOnFds(repo: TempRepo, args: string[], out: number, err: number | 'pipe'): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: repo.dir, env: { ...process.env, HOME: join(repo.dir, '..', 'home'), GIT_CONFIG_NOSYSTEM: '1' }, stdio: ['ignore', out, err] });
    child.stderr?.resume();
    child.on('close', (code) => resolve(code));
  });
}

describe('loopgates retry: where the output goes (the command writes to a file or /dev/null itself)', () => {
  const flaky = `if [ "$n" = 1 ]; then echo 'compiling'; echo '${DAEMON}'; exit 1; fi\necho built`;

  it('stdout and stderr a regular file (> log 2>&1): the file holds both attempts in order, the flake on stdout is still named', async () => {
    await inRepo({ 'flaky.sh': flaky }, async (repo) => {
      const log = join(repo.dir, '..', 'retry.log');
      const fd = openSync(log, 'w');
      const code = await cliOnFds(repo, ['retry', '--task', 'f', '--junit', join(repo.dir, '..', 'f.xml'), '--', 'sh', 'flaky.sh'], fd, fd);
      closeSync(fd);
      expect(code).toBe(0);
      expect(runs(repo)).toBe(2);
      const text = readFileSync(log, 'utf8');
      expect(text.indexOf(`compiling\n${DAEMON}\n`)).toBeGreaterThanOrEqual(0);
      expect(text.indexOf('built\n')).toBeGreaterThan(text.indexOf(DAEMON));
      expect(text).toContain('FLAKY(gradle-daemon-disappeared) 2/2');
      expect(text).toContain(`last lines of attempt 1:\n    compiling\n    ${DAEMON}`);
      expect(readFileSync(join(repo.dir, '..', 'f.xml'), 'utf8')).toContain('<flakyFailure');
    });
  });

  it('stdout a regular file, stderr a pipe: the flake read back from the file is named', async () => {
    await inRepo({ 'flaky.sh': flaky }, async (repo) => {
      const log = join(repo.dir, '..', 'out.log');
      const fd = openSync(log, 'w');
      const code = await cliOnFds(repo, ['retry', '--task', 'g', '--junit', join(repo.dir, '..', 'g.xml'), '--', 'sh', 'flaky.sh'], fd, 'pipe');
      closeSync(fd);
      expect(code).toBe(0);
      expect(runs(repo)).toBe(2);
      expect(readFileSync(log, 'utf8')).toBe(`compiling\n${DAEMON}\nbuilt\n`);
      expect(readFileSync(join(repo.dir, '..', 'g.xml'), 'utf8')).toContain('<flakyFailure');
    });
  });

  it('stdout and stderr /dev/null: nothing is written on, the flake is still named (JUnit)', async () => {
    await inRepo({ 'flaky.sh': flaky }, async (repo) => {
      const fd = openSync('/dev/null', 'w');
      const code = await cliOnFds(repo, ['retry', '--task', 'h', '--junit', join(repo.dir, '..', 'h.xml'), '--', 'sh', 'flaky.sh'], fd, fd);
      closeSync(fd);
      expect(code).toBe(0);
      expect(runs(repo)).toBe(2);
      const junit = readFileSync(join(repo.dir, '..', 'h.xml'), 'utf8');
      expect(junit).toContain('<flakyFailure');
      expect(junit).toContain('gradle-daemon-disappeared');
    });
  });
});

describe('loopgates retry: the anti-loop breaker reads the ledger', () => {
  it('the same fingerprint across three separate runs: exit 3 on the third, with the evidence', async () => {
    // Paths and numbers differ each run; the fingerprint strips them, so it is the same cause.
    await inRepo({ 'same.sh': `echo "Build failed in $n.$n s at /tmp/x9$n/app/Main.kt" >&2; exit 1` }, async (repo) => {
      const codes: Array<number | null> = [];
      let last: Run | undefined;
      for (let i = 0; i < 3; i++) {
        last = await cli(repo, ['retry', '--task', 'feature-x', '--', 'sh', 'same.sh']);
        codes.push(last.code);
      }
      expect(codes).toEqual([1, 1, 3]);
      expect(runs(repo)).toBe(3);
      expect(last!.stderr).toContain('ASK-HUMAN(same-cause) after 1 attempt (up to 2 allowed)');
      expect(last!.stderr).toContain('evidence (the same failure fingerprint 3 times in a row):');
      const evidence = last!.stderr.split('\n').filter((l) => /^\s+\d{4}-\d{2}-\d{2}T.*exit 1 {2}fingerprint [0-9a-f]{16}/.test(l));
      expect(evidence).toHaveLength(3);
      expect(new Set(evidence.map((l) => /fingerprint ([0-9a-f]{16})/.exec(l)![1])).size).toBe(1);
      expect(last!.stderr).toContain('Build failed in 3.3 s at /tmp/x93/app/Main.kt');
      expect(last!.stderr).toContain(`: ${LOOPGATES} retry --reset --task feature-x`);
      // The ledger holds hashes and codes, never the output text.
      const ledger = readFileSync(join(repo.dir, '.git', 'loopgates', 'ledger.jsonl'), 'utf8');
      expect(ledger).not.toContain('Build failed');
      expect(ledger.trim().split('\n')).toHaveLength(3);
    });
  });

  it('six mixed failures for one task: exit 3 (task-budget) on the sixth', async () => {
    await inRepo({ 'mixed.sh': 'case $n in 1) echo "error: one";; 2) echo "fatal: two";; 3) echo "cannot three";; 4) echo "unable four";; 5) echo "denied five";; *) echo "refused six";; esac >&2\nexit 1' }, async (repo) => {
      const codes: Array<number | null> = [];
      let last: Run | undefined;
      for (let i = 0; i < 6; i++) {
        last = await cli(repo, ['retry', '--task', 'budget', '--', 'sh', 'mixed.sh']);
        codes.push(last.code);
      }
      expect(codes).toEqual([1, 1, 1, 1, 1, 3]);
      expect(last!.stderr).toContain('ASK-HUMAN(task-budget) after 1 attempt (up to 2 allowed)');
      expect(last!.stderr).toContain("evidence (6 failures for task 'budget'):");
    });
  });

  it('a pass in between resets the same-cause count; --reset clears it on purpose', async () => {
    await inRepo({ 'sometimes.sh': 'if [ "$(cat pass 2>/dev/null)" = yes ]; then echo ok; exit 0; fi\necho "error: the same" >&2; exit 1' }, async (repo) => {
      const go = () => cli(repo, ['retry', '--task', 'reset-me', '--', 'sh', 'sometimes.sh']);
      expect((await go()).code).toBe(1);
      expect((await go()).code).toBe(1);
      writeFileSync(join(repo.dir, 'pass'), 'yes');
      expect((await go()).code).toBe(0);
      writeFileSync(join(repo.dir, 'pass'), 'no');
      expect((await go()).code).toBe(1);
      expect((await go()).code).toBe(1);
      const reset = await cli(repo, ['retry', '--reset', '--task', 'reset-me']);
      expect(reset.code).toBe(0);
      expect(reset.stdout).toContain("reset task 'reset-me': 4 failed attempt(s) no longer count");
      expect((await go()).code).toBe(1);
      expect((await go()).code).toBe(1);
      expect((await go()).code).toBe(3);
    });
  });

  it('the ledger is shared by every worktree: two failures in one worktree and one in another are 3 in a row', async () => {
    await inRepo({ 'wt.sh': 'echo "error: shared cause" >&2; exit 1' }, async (repo) => {
      const other = join(repo.dir, '..', 'other-worktree');
      repo.git('worktree', 'add', '-q', other);
      expect((await cli(repo, ['retry', '--task', 'shared', '--', 'sh', 'wt.sh'])).code).toBe(1);
      expect((await cli(repo, ['retry', '--task', 'shared', '--', 'sh', 'wt.sh'], other)).code).toBe(1);
      const third = await cli(repo, ['retry', '--task', 'shared', '--', 'sh', 'wt.sh'], other);
      expect(third.code).toBe(3);
      expect(third.stderr).toContain('ASK-HUMAN(same-cause)');
      // One ledger, in the main worktree's git dir: all three attempts are there.
      expect(readFileSync(join(repo.dir, '.git', 'loopgates', 'ledger.jsonl'), 'utf8').trim().split('\n')).toHaveLength(3);
      expect(existsSync(join(repo.dir, '.git', 'worktrees', 'other-worktree', 'loopgates'))).toBe(false);
    });
  });

  it('the default task is the current branch', async () => {
    await inRepo({ 'b.sh': 'echo "error: on a branch" >&2; exit 1' }, async (repo) => {
      repo.git('checkout', '-q', '-b', 'agent/fix-login');
      const r = await cli(repo, ['retry', '--format', 'json', '--', 'sh', 'b.sh']);
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout).task).toBe('agent/fix-login');
    });
  });
});

describe('loopgates retry: reports', () => {
  it('--format json is one document with every attempt; --junit writes <flakyFailure>', async () => {
    await inRepo({ 'flaky.sh': `if [ "$n" = 1 ]; then echo "adb: device 'emulator-5554' not found" >&2; exit 1; fi\necho installed` }, async (repo) => {
      const junit = join(repo.dir, 'report.xml');
      const r = await cli(repo, ['retry', '--format', 'json', '--junit', junit, '--task', 't', '--', 'sh', 'flaky.sh']);
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.stdout);
      expect(doc).toMatchObject({ verb: 'retry', outcome: 'FLAKY', label: 'FLAKY(adb-device-not-found) 2/2', exitCode: 0, commandExitCode: 0, signature: 'adb-device-not-found' });
      expect(doc.attempts.map((a: { verdict: string; exitCode: number }) => [a.verdict, a.exitCode])).toEqual([['fail', 1], ['pass', 0]]);
      expect(doc.attempts[0].forgiven).toBe(true);
      // The command's stdout went to stderr, so stdout is only the document.
      expect(r.stderr).toContain('installed');
      const xml = readFileSync(junit, 'utf8');
      expect(xml).toContain('<flakyFailure message="attempt 1: exit 1; known flake adb-device-not-found');
      expect(xml).not.toContain('<failure');
      expect(xml).toContain('tests="1" failures="0" errors="0"');
    });
  });

  it('--junit on a failure after a retry: <failure> then <rerunFailure>', async () => {
    await inRepo({ 'twice.sh': `echo '${DAEMON}' >&2; exit 1` }, async (repo) => {
      const junit = join(repo.dir, 'report.xml');
      const r = await cli(repo, ['retry', '--junit', junit, '--task', 't', '--', 'sh', 'twice.sh']);
      expect(r.code).toBe(1);
      const xml = readFileSync(junit, 'utf8');
      expect(xml).toMatch(/<failure message="attempt 1: exit 1; known flake gradle-daemon-disappeared[^"]*" type="FAILED-AFTER-RETRY\(gradle-daemon-disappeared\) 2\/2">/);
      expect(xml).toContain('<rerunFailure message="attempt 2: exit 1');
    });
  });

  it('--list prints every signature with its source and the ledger counts', async () => {
    await inRepo({ 'flaky.sh': `if [ "$n" = 1 ]; then echo '${DAEMON}' >&2; exit 1; fi` }, async (repo) => {
      const first = await cli(repo, ['retry', '--task', 't', '--', 'sh', 'flaky.sh']);
      expect(first.code, first.stderr).toBe(0);
      const r = await cli(repo, ['retry', '--list']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('flake      gradle-daemon-disappeared\n');
      expect(r.stdout).toContain('source: https://github.com/gradle/gradle/issues/9371');
      expect(r.stdout).toContain('ledger: seen 1 time(s), forgiven 1 time(s) in the last 24 h');
      expect(r.stdout).toContain('ask-human  disk-full');
    });
  });
});

describe('loopgates retry: the signatures prove themselves; explain; command gates', () => {
  const ownSignature = (match: string, sample: string) =>
    [
      'version: 1',
      'retry:',
      '  signatures:',
      '    - id: our-emulator-flake',
      '      description: our emulator script loses the device now and then',
      `      match: ['${match}']`,
      '      source: https://example.invalid/our-ci-log',
      '      samples:',
      `        match: ['${sample}']`,
      "        nearMiss: ['emu: started']",
      '  bounds: {forgiven: {count: 1}}',
      '',
    ].join('\n');

  it('selftest proves every signature; a repository signature whose sample stopped matching is DECORATION, exit 1', async () => {
    await inRepo({}, async (repo) => {
      const good = await cli(repo, ['selftest']);
      expect(good.code).toBe(0);
      expect(good.stdout).toContain('  17 signatures: 17 PROVEN');
      expect(good.stdout).toContain('retry signatures passed');
      writeFileSync(join(repo.dir, 'loopgates.yaml'), ownSignature('emu: lost the device', 'emu: device lost'));
      const bad = await cli(repo, ['selftest']);
      expect(bad.code).toBe(1);
      // The gates still prove themselves: the exit 1 is the signature's.
      expect(bad.stdout).toContain('self-test passed');
      expect(bad.stdout).toContain('  DECORATION flake our-emulator-flake (loopgates.yaml)\n             does not match its real line "emu: device lost"');
      expect(bad.stdout).toContain('retry signatures FAILED');
      // retry itself refuses to trust it (exit 2), before running anything.
      const r = await cli(repo, ['retry', '--', 'true']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('flake signature our-emulator-flake (loopgates.yaml retry:) is DECORATION');
    });
  });

  it("match: '.*' in loopgates.yaml is refused at load (exit 2) with its line", async () => {
    await inRepo({}, async (repo) => {
      writeFileSync(join(repo.dir, 'loopgates.yaml'), ownSignature('.*', 'emu: lost the device'));
      const r = await cli(repo, ['retry', '--', 'true']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('loopgates.yaml:6  retry.signatures[0].match: signature our-emulator-flake is NOISY: matches its near-miss "emu: started"');
    }, 'version: 1\n');
  });

  it('a flake forgiven more often than the bound still passes, and says loudly that it is a bug to fix', async () => {
    await inRepo({ 'emu.sh': 'if [ $(( n % 2 )) = 1 ]; then echo "emu: lost the device" >&2; exit 1; fi\necho ok' }, async (repo) => {
      writeFileSync(join(repo.dir, 'loopgates.yaml'), ownSignature('emu: lost the device', 'emu: lost the device'));
      const first = await cli(repo, ['retry', '--task', 't', '--', 'sh', 'emu.sh']);
      expect(first.code).toBe(0);
      expect(first.stderr).not.toContain('WARNING');
      const second = await cli(repo, ['retry', '--task', 't', '--', 'sh', 'emu.sh']);
      expect(second.code).toBe(0);
      expect(second.stderr).toContain('FLAKY(our-emulator-flake) 2/2');
      expect(second.stderr).toContain('WARNING: flake our-emulator-flake was forgiven 2 times in the last 24 h (bound 1): it is a bug to fix, not noise');
    });
  });

  it("explain prints retry's four answers with the bounds in force", async () => {
    await inRepo({}, async (repo) => {
      writeFileSync(join(repo.dir, 'loopgates.yaml'), 'version: 1\nretry:\n  bounds: {sameCause: 2, taskFailures: 5}\n');
      const r = await cli(repo, ['explain']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('retry — loopgates retry -- <command>');
      expect(r.stdout).toContain('the same failure fingerprint 2 times in a row for one command and task: ASK-HUMAN(same-cause)');
      expect(r.stdout).toContain('  bound  --max 1 retry by default (at most 3); same cause 2x in a row; 5 failures per task in 24 h');
      const j = JSON.parse((await cli(repo, ['explain', '--format', 'json'])).stdout) as { loops: Array<{ id: string; bounds: { sameCause: number } }> };
      expect(j.loops.filter((l) => l.id === 'retry').map((l) => l.bounds.sameCause)).toEqual([2]);
    });
  });

  it('a command gate with retry: is re-run on its known flake and its FLAKY outcome shows in the report', async () => {
    const yaml = [
      'version: 1',
      'gates: {secrets: {enabled: false}, hardcoded-strings: {enabled: false}, string-parity: {enabled: false}}',
      'commands:',
      '  - id: device-tests',
      '    command: [sh, gate.sh]',
      '    loop: {runs: the device tests, reads: src/**, ends: one pass; exit 0 passes, asks: never}',
      "    files: ['src/**']",
      '    selfTest: {waived: needs a device}',
      '    retry: {signatures: [adb-device-offline]}',
      '',
    ].join('\n');
    await inRepo({ 'gate.sh': 'if [ "$n" = 1 ]; then echo "adb: device offline" >&2; exit 1; fi\necho ok' }, async (repo) => {
      writeFileSync(join(repo.dir, 'src.txt'), '');
      repo.write('src/a.txt', 'a\n');
      const r = await cli(repo, ['run', '--all', '--gate', 'device-tests']);
      expect(r.stdout + r.stderr).toContain('TRY 1 FAIL exit 1: known flake adb-device-offline, retrying');
      expect(r.stdout + r.stderr).toContain('FLAKY(adb-device-offline) 2/2');
      expect(r.code).toBe(0);
      expect(runs(repo)).toBe(2);
      // Both attempts are in the shared ledger, as `loopgates retry` writes them.
      const lines = retryLines(repo);
      expect(lines.map((l) => [l.attempt, l.verdict, l.signature ?? null, l.forgiven ?? false])).toEqual([
        [1, 'fail', 'adb-device-offline', true],
        [2, 'pass', null, false],
      ]);
      expect(lines.every((l) => l.kind === 'retry' && l.gate === 'retry' && l.task === 'main' && l.cmd === lines[0]!.cmd && l.run === lines[0]!.run)).toBe(true);
      expect(typeof lines[0]!.fingerprint).toBe('string');
    }, yaml);
  });

  it("a command gate's failed attempts count in the anti-loop bounds: two hook-side failures, then loopgates retry of the same command is the third same cause (ASK-HUMAN, exit 3)", async () => {
    const yaml = [
      'version: 1',
      'gates: {secrets: {enabled: false}, hardcoded-strings: {enabled: false}, string-parity: {enabled: false}}',
      'commands:',
      '  - id: unit-tests',
      '    command: [sh, gate.sh]',
      '    loop: {runs: the unit tests, reads: src/**, ends: one pass; exit 0 passes, asks: never}',
      "    files: ['src/**']",
      '    selfTest: {waived: a scratch script}',
      '    retry: {signatures: [adb-device-offline]}',
      'retry: {bounds: {sameCause: 3}}',
      '',
    ].join('\n');
    const compile = 'e: file:///app/src/main/java/Main.kt:3:5 Unresolved reference: foo';
    await inRepo({ 'gate.sh': `echo '${compile}' >&2; exit 1` }, async (repo) => {
      repo.write('src/a.txt', 'a\n');
      for (let i = 0; i < 2; i++) expect((await cli(repo, ['run', '--all', '--gate', 'unit-tests'])).code).toBe(1);
      expect(retryLines(repo).map((l) => l.verdict)).toEqual(['fail', 'fail']);
      const r = await cli(repo, ['retry', '--', 'sh', 'gate.sh']);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('ASK-HUMAN(same-cause)');
      expect(runs(repo)).toBe(3);
    }, yaml);
  });
});

/** The retry lines of the repository's shared ledger (scripts/retry/memory.ts sharedLedgerPath). */
function retryLines(repo: TempRepo): Array<Record<string, any>> {
  const at = [join(repo.dir, '.loopgates', 'ledger.jsonl'), join(repo.dir, '.git', 'loopgates', 'ledger.jsonl')].find((p) => existsSync(p));
  if (!at) return [];
  return readFileSync(at, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>)
    .filter((e) => e.kind === 'retry');
}
