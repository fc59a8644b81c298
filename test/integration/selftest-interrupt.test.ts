// Ctrl-C during a commit's cold self-test: the commit is refused (exit 2) and the report names the interrupt as the
// cause, not a gate's missing red case ("DECORATION") whose red cases simply never ran. Nothing of it is cached.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandIO } from '../../core/command.js';
import { makeHookVerb } from '../../commands/hook.js';
import type { Gate } from '../../core/types.js';
import { makeSelftestVerb, selfTestPreflight } from '../../commands/selftest.js';
import { runSelfTests } from '../../mutations/selftest.js';
import { goodGate, neverGate, settings } from '../unit/mutations-toys.js';
import { withGitRepo } from '../helpers/git-repo.js';
import { LOOPGATES } from '../helpers/setup-env.js';

/** `goodGate` as `id` that aborts `controller` (as cli.ts does on SIGINT) while its green case runs. */
function abortingDuringGreen(id: string, controller: AbortController, base: Gate<any> = goodGate): Gate<any> {
  return {
    ...base,
    id,
    run: async (ctx, inputs) => {
      const r = await base.run(ctx, inputs);
      if ((await ctx.ws.readText(inputs[0]!)) === 'fine\n') controller.abort(new Error('SIGINT'));
      return r;
    },
  };
}

function ioFor(dir: string, controller: AbortController) {
  const out = { stdout: '', stderr: '' };
  const io: CommandIO = {
    cwd: dir,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
    stdout: (t) => void (out.stdout += t),
    stderr: (t) => void (out.stderr += t),
    isTTY: false,
    signal: controller.signal,
  };
  return { io, out };
}

describe('a self-test interrupted by a signal', () => {
  it('hook pre-commit: exit 2, the gate was interrupted after 0 of 2 cases (its green case ended after the abort; not DECORATION), later gates too, nothing cached', async () => {
    const controller = new AbortController();
    const first = abortingDuringGreen('string-parity-toy', controller);
    const second: Gate<any> = { ...goodGate, id: 'later-toy' };
    const hook = makeHookVerb({ gates: [first, second] }, [selfTestPreflight]);
    await withGitRepo({ 'loopgates.yaml': 'version: 1\n', 'notes.txt': 'fine\n' }, async (repo) => {
      repo.git('add', 'notes.txt');
      const { io, out } = ioFor(repo.dir, controller);
      const code = await hook.run(['pre-commit'], io);
      expect(code).toBe(2);
      expect(out.stdout).not.toContain('DECORATION');
      expect(out.stdout).not.toContain('no red case');
      // The green case finished, but after the abort: it does not count as done.
      expect(out.stdout).toContain(
        'self-test of gate string-parity-toy was interrupted (SIGINT) after 0 of 2 cases: the rest did not run, so the gate is not proven and the commit is refused',
      );
      expect(out.stdout).toContain('self-test of gate later-toy was interrupted (SIGINT) after 0 of 2 cases');
      expect(out.stdout).toContain(`fix: run it again and let it finish (commit again: the self-test runs again on a cold cache; or: ${LOOPGATES} selftest --gate string-parity-toy)`);
      expect(out.stdout).toContain('the run was interrupted (SIGINT)');
      // The summary is true about the exit codes: the hook's 2, and git commit's 130 (fresh-user-3 F15).
      expect(out.stdout.trimEnd().split('\n').at(-1)).toBe('2 error — interrupted (SIGINT): commit refused, nothing was judged to the end (the hook exits 2; git commit, interrupted too, exits 130)');
      const cacheFile = join(repo.dir, '.git', 'loopgates', 'cache', 'selftest.json');
      const cached = existsSync(cacheFile) ? Object.keys((JSON.parse(readFileSync(cacheFile, 'utf8')) as { gates: object }).gates) : [];
      expect(cached).toEqual([]);
    });
  });

  it('runSelfTests: cases that finished before the abort count; a gate cut short is UNPROVEN with interrupted {done, total}', async () => {
    const controller = new AbortController();
    // The abort comes after the first gate's two cases, during the second gate's green case.
    const r = await runSelfTests([settings(goodGate), settings(abortingDuringGreen('cut', controller))], { cacheRoot: join(process.cwd(), 'unused-cache'), signal: controller.signal });
    expect(r.gates.map((g) => [g.gate, g.proof, g.interrupted ?? null])).toEqual([
      ['good', 'PROVEN', null],
      ['cut', 'UNPROVEN', { done: 0, total: 2, why: 'SIGINT' }],
    ]);
    expect(r.executed).toBe(3);
    expect(r.ok).toBe(false);
  });

  it('a case that went wrong before the interrupt is still named', async () => {
    const controller = new AbortController();
    const blindThenAbort: Gate<any> = {
      ...neverGate,
      id: 'blind-then-abort',
      selfTest: async () => [...(await goodGate.selfTest()).reverse(), { name: 'third', kind: 'green', files: { 'c.txt': 'fine\n' } }],
      run: async (ctx, inputs) => {
        const r = await neverGate.run(ctx, inputs);
        if (inputs[0] === 'a.txt' && (await ctx.ws.readText('a.txt')) === 'fine\n') controller.abort(new Error('SIGTERM'));
        return r;
      },
    };
    const hook = makeHookVerb({ gates: [blindThenAbort] }, [selfTestPreflight]);
    await withGitRepo({ 'loopgates.yaml': 'version: 1\n', 'notes.txt': 'fine\n' }, async (repo) => {
      repo.git('add', 'notes.txt');
      const { io, out } = ioFor(repo.dir, controller);
      expect(await hook.run(['pre-commit'], io)).toBe(2);
      expect(out.stdout).toContain(
        "self-test of gate blind-then-abort was interrupted (SIGTERM) after 1 of 3 cases: the rest did not run, so the gate is not proven and the commit is refused; before that, case 'BAD on line 2 is reported' missed:",
      );
    });
  });

  it('loopgates selftest: the text report says interrupted, not "no red case"', async () => {
    const controller = new AbortController();
    const verb = makeSelftestVerb({ gates: [abortingDuringGreen('cut', controller)] });
    await withGitRepo({ 'loopgates.yaml': 'version: 1\n' }, async (repo) => {
      const { io, out } = ioFor(repo.dir, controller);
      expect(await verb.run([], io)).toBe(2);
      expect(out.stdout).toContain('cut  UNPROVEN  1 case: 1 clean');
      expect(out.stdout).toContain('  interrupted (SIGINT) after 0 of 2 cases: the rest did not run, so it is not proven');
      expect(out.stdout).not.toContain('no red case');
    });
  });
});
