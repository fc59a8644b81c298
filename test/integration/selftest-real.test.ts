// `loopgates selftest` and `mutate` with the real built-in gates in real temp repositories, including seed case (4):
// a scanner that exits 0 without scanning is `error` (never caught, never killed).
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandIO, Verb } from '../../core/command.js';
import { makeHookVerb } from '../../commands/hook.js';
import { makeRunVerb } from '../../commands/run.js';
import { builtinGates } from '../../gates/registry.js';
import { onPath } from '../../mutations/cache.js';
import { makeMutateVerb, makeSelftestVerb } from '../../commands/selftest.js';
import { goodGate } from '../unit/mutations-toys.js';
import { treeAndIndexDigest, withGitRepo, type TempRepo } from '../helpers/git-repo.js';

async function call(verb: Verb, args: string[], repo: TempRepo, env: Record<string, string | undefined> = process.env) {
  let stdout = '';
  let stderr = '';
  const io: CommandIO = { cwd: repo.dir, env, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false, signal: new AbortController().signal };
  return { code: await verb.run(args, io), stdout, stderr };
}

const savedGitleaks = process.env.LOOPGATES_GITLEAKS;
afterEach(() => {
  if (savedGitleaks === undefined) delete process.env.LOOPGATES_GITLEAKS;
  else process.env.LOOPGATES_GITLEAKS = savedGitleaks;
});

describe('selftest with the built-in gates', () => {
  it('every built-in gate is PROVEN, and the verb exits 0', async () => {
    await withGitRepo({ 'README.md': '# app\n' }, async (repo) => {
      const before = treeAndIndexDigest(repo.dir);
      const r = await call(makeSelftestVerb(), [], repo);
      for (const g of builtinGates) expect(r.stdout).toMatch(new RegExp(`^${g.id} {2}PROVEN {2}\\d+ cases: `, 'm'));
      expect(r.stdout).toMatch(new RegExp(`${builtinGates.length} gates, \\d+ cases executed: ${builtinGates.length} PROVEN`));
      expect(r.code).toBe(0);
      expect(treeAndIndexDigest(repo.dir)).toBe(before);
    });
  });

  it('before a commit, a self-test that errors for a missing scanner names how to install the scanner, not a re-run', async () => {
    process.env.LOOPGATES_GITLEAKS = join(tmpdir(), 'loopgates-no-such-dir', 'gitleaks');
    await withGitRepo({ 'src/Config.kt': 'val x = 1\n' }, async (repo) => {
      repo.git('add', '-A');
      const r = await call(makeHookVerb(), ['pre-commit'], repo, { ...process.env });
      expect(r.code).toBe(2);
      // Every case of the secrets self-test errored for the same cause: the hook says it once, as the gate's own error
      // (commands/hook.ts sayToolErrorsOnce), with the install fix.
      expect(r.stdout.match(/which does not exist or is not a file/g)).toHaveLength(1);
      expect(r.stdout).toMatch(/^secrets +error .*gitleaks: LOOPGATES_GITLEAKS names .*, which does not exist or is not a file \(PATH is not searched while LOOPGATES_GITLEAKS is set\)$/m);
      expect(r.stdout).toMatch(/fix: .*install gitleaks/);
      expect(r.stdout).not.toMatch(/loopgates(\.js)? selftest --gate secrets/);
    });
  });

  it('seed case (4): a gitleaks that exits 0 without scanning makes every secrets case error, not caught', async () => {
    const real = onPath('gitleaks', process.env);
    expect(real).toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), 'loopgates-fake-gitleaks-'));
    try {
      // Answers the help probe like the real binary, then "scans" nothing and exits 0.
      const fake = join(dir, 'gitleaks');
      writeFileSync(fake, `#!/bin/sh\ncase "$*" in *help*|"") "${real}" "$@"; exit $? ;; esac\nexit 0\n`);
      chmodSync(fake, 0o755);
      process.env.LOOPGATES_GITLEAKS = fake;
      await withGitRepo({ 'src/Config.kt': 'val x = 1\n' }, async (repo) => {
        const st = await call(makeSelftestVerb(), ['--gate', 'secrets'], repo);
        expect(st.stdout).toMatch(/^secrets {2}UNPROVEN/m);
        expect(st.stdout).not.toMatch(/^ {2}(caught|missed) /m);
        expect(st.stdout).toMatch(/^ {2}error {3}red /m);
        expect(st.code).toBe(2);
        repo.git('add', '-A');
        const mu = await call(makeMutateVerb(), ['--gate', 'secrets', '--sample', '1'], repo);
        expect(mu.stdout).toMatch(/secrets\s+secrets\/inject-credential\s+0\s+0\s+0\s+1\s+0/);
        expect(mu.code).toBe(1);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('--all mode and allowEmpty', () => {
  it('a gate with zero inputs is vacuous (exit 2) in run --all, skipped with allowEmpty, and mutate agrees', async () => {
    const deps = { gates: [goodGate] };
    await withGitRepo({ 'loopgates.yaml': 'version: 1\ngates:\n  good:\n    include: ["**/*.nomatch"]\n', 'a.txt': 'fine\n' }, async (repo) => {
      const run = await call(makeRunVerb(deps), ['--all'], repo);
      expect(run.code).toBe(2);
      expect(run.stdout).toMatch(/vacuous/);
      const mu = await call(makeMutateVerb(deps), [], repo);
      expect(mu.code).toBe(1);
      expect(mu.stdout).toMatch(/no-coverage {2}good\/inject-bad {2}a\.txt:\d+ .*the gate never read a\.txt/);
      repo.write('loopgates.yaml', 'version: 1\ngates:\n  good:\n    include: ["**/*.nomatch"]\n    allowEmpty: "no text files yet"\n');
      const ok = await call(makeRunVerb(deps), ['--all'], repo);
      expect(ok.code).toBe(0);
      const mu2 = await call(makeMutateVerb(deps), [], repo);
      expect(mu2.stdout).toContain('no inputs; allowed by allowEmpty: no text files yet');
    });
  });
});
