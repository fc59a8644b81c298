// The pre-commit hook when a gate's tool is missing: its self-test cases all fail the same way, and the hook says the
// cause once, with its fix, as `loopgates run` does, instead of once per case. Real gates, real temp repositories,
// gitleaks taken off PATH (resolveGitleaks reads process.env).
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeHookVerb, makeRunVerb } from '../../commands/index.js';
import { withGitRepo } from '../helpers/git-repo.js';
import { localGitleaksDir } from '../helpers/setup-env.js';
import { goodGate, neverGate } from '../unit/mutations-toys.js';
import { runVerbIn } from './run-toys.js';

const count = (text: string, part: string) => text.split(part).length - 1;

describe('hook pre-commit with gitleaks missing', () => {
  const saved = { PATH: process.env.PATH, LOOPGATES_GITLEAKS: process.env.LOOPGATES_GITLEAKS };
  beforeEach(() => {
    process.env.PATH = (saved.PATH ?? '').split(delimiter).filter((d) => d !== localGitleaksDir && !existsSync(join(d, 'gitleaks'))).join(delimiter);
    delete process.env.LOOPGATES_GITLEAKS;
  });
  afterEach(() => {
    process.env.PATH = saved.PATH;
    if (saved.LOOPGATES_GITLEAKS === undefined) delete process.env.LOOPGATES_GITLEAKS;
    else process.env.LOOPGATES_GITLEAKS = saved.LOOPGATES_GITLEAKS;
  });

  it('says "gitleaks was not found" once, with its fix, exactly as run does (exit 2)', async () => {
    await withGitRepo({ 'loopgates.yaml': 'version: 1\n', 'A.kt': 'val a = 1\n' }, async (repo) => {
      repo.git('add', '--', '.');
      const hook = await runVerbIn(makeHookVerb(), repo.dir, ['pre-commit']);
      const run = await runVerbIn(makeRunVerb(), repo.dir, []);
      expect(hook.code).toBe(2);
      expect(run.code).toBe(2);
      expect(count(hook.stdout, 'gitleaks was not found on PATH')).toBe(1);
      expect(count(hook.stdout, 'fix: ')).toBe(1);
      // This checkout has the README set-up's copy: the fix names it (fresh-user-3 F9).
      expect(count(hook.stdout, 'fix: this loopgates checkout already has gitleaks')).toBe(1);
      expect(hook.stdout).not.toContain('self-test of gate secrets');
      // The name column is as wide as the longest gate id of the report: the hook reports only the refused gate.
      const line = (out: string) => out.split('\n').find((l) => l.startsWith('secrets'))?.replace(/ +/g, ' ');
      expect(line(hook.stdout)).toBe(line(run.stdout));
      expect(line(hook.stdout)).toBe('secrets error scanned 0 files, 0 findings — gitleaks was not found on PATH');
    });
  }, 120_000);
});

describe('hook pre-commit self-test refusals that are not a gate that cannot run', () => {
  it('a red case the gate missed still refuses with the self-test result (exit 2), and the commit is still judged', async () => {
    await withGitRepo({ 'loopgates.yaml': 'version: 1\n', 'notes.txt': 'BAD\n' }, async (repo) => {
      repo.git('add', 'notes.txt');
      const r = await runVerbIn(makeHookVerb({ gates: [goodGate, neverGate] }), repo.dir, ['pre-commit']);
      expect(r.code).toBe(2);
      expect(r.stdout).toContain("self-test of gate never is UNPROVEN: case 'BAD on line 2 is reported' missed");
      // Issue 14, item 9: the commit's own findings are reported whatever the self-test says.
      expect(r.stdout).toMatch(/notes\.txt:1/);
    });
  });
});
