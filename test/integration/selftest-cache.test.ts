// The self-test step before every commit, through the real hook verb in real temp repositories: cached per gate under
// <git common dir>/loopgates/cache, only the affected gates re-run on a miss, a red self-test refuses (exit 2).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandIO, Verb } from '../../core/command.js';
import { makeHookVerb } from '../../commands/hook.js';
import type { Gate } from '../../core/types.js';
import { selfTestPreflight } from '../../commands/selftest.js';
import { goodGate, neverGate } from '../unit/mutations-toys.js';
import { treeAndIndexDigest, withGitRepo, type TempRepo } from '../helpers/git-repo.js';
import { LOOPGATES } from '../helpers/setup-env.js';

async function call(verb: Verb, args: string[], repo: TempRepo) {
  let stdout = '';
  let stderr = '';
  const io: CommandIO = {
    cwd: repo.dir,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    isTTY: false,
    signal: new AbortController().signal,
  };
  return { code: await verb.run(args, io), stdout, stderr };
}

/** A gate whose selfTest() calls are counted, so a cache hit is observable. */
function counted(gate: Gate<any>, id: string): { gate: Gate<any>; calls: () => number } {
  let n = 0;
  return {
    gate: { ...gate, id, selfTest: () => (n++, gate.selfTest()) },
    calls: () => n,
  };
}

describe('self-tests before every commit', () => {
  it('runs on a miss, hits the cache after, re-runs only the gate whose config changed', async () => {
    const a = counted(goodGate, 'alpha');
    const b = counted(goodGate, 'beta');
    const hook = makeHookVerb({ gates: [a.gate, b.gate] }, [selfTestPreflight]);
    await withGitRepo({ 'loopgates.yaml': 'version: 1\n', 'notes.txt': 'fine\n' }, async (repo) => {
      repo.git('add', 'notes.txt');
      const first = await call(hook, ['pre-commit'], repo);
      expect(first.code).toBe(0);
      expect([a.calls(), b.calls()]).toEqual([1, 1]);
      const cacheFile = join(repo.dir, '.git', 'loopgates', 'cache', 'selftest.json');
      expect(Object.keys(JSON.parse(readFileSync(cacheFile, 'utf8')).gates).sort()).toEqual(['alpha', 'beta']);

      const before = treeAndIndexDigest(repo.dir);
      expect((await call(hook, ['pre-commit'], repo)).code).toBe(0);
      expect([a.calls(), b.calls()]).toEqual([1, 1]);
      expect(treeAndIndexDigest(repo.dir)).toBe(before);

      writeFileSync(join(repo.dir, 'loopgates.yaml'), 'version: 1\ngates:\n  beta:\n    allow: ["^#"]\n');
      expect((await call(hook, ['pre-commit'], repo)).code).toBe(0);
      expect([a.calls(), b.calls()]).toEqual([1, 2]);
    });
  });

  it('a red self-test refuses the commit with exit 2, naming the gate and the case, and is not cached', async () => {
    const blind = counted(neverGate, 'blind-scanner');
    const hook = makeHookVerb({ gates: [goodGate, blind.gate] }, [selfTestPreflight]);
    await withGitRepo({ 'loopgates.yaml': 'version: 1\n', 'notes.txt': 'BAD\n' }, async (repo) => {
      repo.git('add', 'notes.txt');
      const r = await call(hook, ['pre-commit'], repo);
      expect(r.code).toBe(2);
      expect(r.stdout).toContain("self-test of gate blind-scanner is UNPROVEN: case 'BAD on line 2 is reported' missed");
      expect(r.stdout).toContain(`${LOOPGATES} selftest --gate blind-scanner`);
      // The gates still judge the commit (issue 14, item 9): the staged BAD line is `good`'s finding, reported
      // beside the unproven self-test; the exit stays 2.
      expect(r.stdout).toMatch(/good\s+fail/);
      expect(r.stdout).toMatch(/notes\.txt:1/);
      expect((await call(hook, ['pre-commit'], repo)).code).toBe(2);
      expect(blind.calls()).toBe(2);
      const cache = JSON.parse(readFileSync(join(repo.dir, '.git', 'loopgates', 'cache', 'selftest.json'), 'utf8'));
      expect(Object.keys(cache.gates)).toEqual(['good']);
    });
  });

  it('bypassed gates are not self-tested', async () => {
    const blind = counted(neverGate, 'blind-scanner');
    const hook = makeHookVerb({ gates: [goodGate, blind.gate] }, [selfTestPreflight]);
    await withGitRepo({ 'loopgates.yaml': 'version: 1\n', 'notes.txt': 'fine\n' }, async (repo) => {
      repo.git('add', 'notes.txt');
      let stdout = '';
      const io: CommandIO = { cwd: repo.dir, env: { ...process.env, LOOPGATES_SKIP: 'blind-scanner' }, stdout: (t) => void (stdout += t), stderr: () => {}, isTTY: false, signal: new AbortController().signal };
      expect(await hook.run(['pre-commit'], io)).toBe(0);
      expect(blind.calls()).toBe(0);
      expect(existsSync(join(repo.dir, '.git', 'loopgates', 'cache', 'selftest.json'))).toBe(true);
    });
  });

  it('a configuration whose only gate is a waived command gate lets the commit through, printing the waiver', async () => {
    const yaml = ['version: 1', 'commands:', '  - id: lint-strings', '    command: [sh, -c, "exit 0"]', '    loop: {runs: a, reads: b, ends: c, asks: never}', '    files: ["**/*.txt"]', '    selfTest: {waived: "tested by its own CI job"}', ''].join('\n');
    const hook = makeHookVerb({ gates: [] }, [selfTestPreflight]);
    await withGitRepo({ 'loopgates.yaml': yaml, 'notes.txt': 'fine\n' }, async (repo) => {
      repo.git('add', 'notes.txt');
      const r = await call(hook, ['pre-commit'], repo);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('self-test waived: tested by its own CI job');
    });
  });
});
