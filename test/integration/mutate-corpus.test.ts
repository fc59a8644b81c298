// `loopgates mutate` with the real built-in gates on real corpus projects (../shared/corpus/l10n or LOOPGATES_CORPUS,
// see its MANIFEST): every operator that finds a file to mutate must be killed, and the working tree and index stay
// byte-identical.
import { cpSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CommandIO } from '../../core/command.js';
import { builtinGates } from '../../gates/registry.js';
import { makeMutateVerb } from '../../commands/selftest.js';
import { l10nProject } from '../helpers/corpus.js';
import { treeAndIndexDigest, withGitRepo } from '../helpers/git-repo.js';

/** Per project, the loopgates.yaml a team would write: data-only corpora hold no layouts or sources to judge. */
const configs: Record<string, string> = {
  AntennaPod__AntennaPod: 'version: 1\ngates:\n  maestro-flows:\n    allowEmpty: "l10n corpus: no Maestro flows"\n',
  'mastodon__mastodon-ios': 'version: 1\ngates:\n  hardcoded-strings:\n    allowEmpty: "catalogs only: the Swift sources are not in this corpus"\n  maestro-flows:\n    allowEmpty: "l10n corpus: no Maestro flows"\n',
  'lichess-org__mobile': 'version: 1\ngates:\n  hardcoded-strings:\n    allowEmpty: "ARB catalogs only: the Dart sources are not in this corpus"\n  maestro-flows:\n    allowEmpty: "l10n corpus: no Maestro flows"\n',
};
// Every project must be there: a missing one fails here (naming LOOPGATES_CORPUS), it is never filtered out.
const projects = Object.keys(configs);
for (const p of projects) l10nProject(p);

interface ElementsMutant {
  mutatorName: string;
  status: string;
  statusReason: string;
  location: { start: { line: number } };
}

describe.each(projects)('mutate on the %s corpus', (project) => {
  it('kills every mutant of every operator that applies, with the default seed and a second seed', async () => {
    await withGitRepo({}, async (repo) => {
      cpSync(l10nProject(project), repo.dir, { recursive: true });
      repo.write('loopgates.yaml', configs[project]!);
      repo.git('add', '-A');
      repo.git('commit', '-q', '--no-verify', '-m', 'corpus');
      const before = treeAndIndexDigest(repo.dir);
      for (const seed of [undefined, '7']) {
        let stdout = '';
        let stderr = '';
        const io: CommandIO = { cwd: repo.dir, env: process.env, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false, signal: new AbortController().signal };
        const code = await makeMutateVerb().run(['--format', 'json', ...(seed ? ['--seed', seed] : [])], io);
        const report = JSON.parse(stdout);
        const mutants: ElementsMutant[] = Object.values(report.files as Record<string, { mutants: ElementsMutant[] }>).flatMap((f) => f.mutants);
        const notKilled = mutants.filter((m) => m.status !== 'Killed').map((m) => `${m.mutatorName} ${m.status}: ${m.statusReason}`);
        expect(notKilled, stderr).toEqual([]);
        expect(code).toBe(0);
        expect(report.loopgates.ok).toBe(true);
        // Every operator either made mutants (all killed above) or found no file here it can mutate; markup-tag may
        // find no place where no base string has markup (AntennaPod, lichess ARB), and then mutate names
        // markup-mismatch as not exercised rather than claiming it; empty-value none where its rule only warns.
        for (const g of report.loopgates.gates) {
          expect(g.problem, `${g.gate}`).toBeUndefined();
          if (g.skipped) continue;
          for (const o of g.operators) {
            if (o.mutants !== 0) continue;
            if (o.operator === 'string-parity/markup-tag' && /^no place for this defect in \d+ candidate files?$/.test(o.note)) expect(g.notExercised).toContain('markup-mismatch');
            // empty-value only warns under these configs: its operator makes no mutant (one would stay green), and
            // mutate does not list it as a refusing rule left unexercised.
            else if (o.operator === 'string-parity/empty-value' && /^no place for this defect in \d+ candidate files?$/.test(o.note)) expect(g.notExercised).not.toContain('empty-value');
            else expect(o.note, `${g.gate}/${o.operator}`).toBe('no file in this repository that it can mutate');
          }
          expect(g.operators.some((o: { mutants: number }) => o.mutants > 0), `${g.gate} made no mutant`).toBe(true);
        }
        expect(report.loopgates.gates.map((g: { gate: string }) => g.gate)).toEqual(builtinGates.map((g) => g.id));
      }
      expect(treeAndIndexDigest(repo.dir)).toBe(before);
    });
  }, 240_000);
});

describe('seed cases with the real hardcoded-strings gate on AntennaPod', () => {
  const run = async (yaml: string, args: string[]) =>
    withGitRepo({}, async (repo) => {
      cpSync(l10nProject('AntennaPod__AntennaPod'), repo.dir, { recursive: true });
      repo.write('loopgates.yaml', yaml);
      repo.git('add', '-A');
      let stdout = '';
      const io: CommandIO = { cwd: repo.dir, env: process.env, stdout: (t) => void (stdout += t), stderr: () => {}, isTTY: false, signal: new AbortController().signal };
      return { code: await makeMutateVerb().run(args, io), stdout };
    });

  it('(1) an allow-list regex that matches everything: survived, naming the entry', async () => {
    const r = await run('version: 1\ngates:\n  hardcoded-strings:\n    allow: ["^https?://", ".*"]\n', ['--gate', 'hardcoded-strings', '--sample', '1']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/survived {2}hardcoded-strings\/hardcoded-strings\/layout-content-description {2}\S+\.xml:\d+ .*swallowed by gates\.hardcoded-strings\.allow\[1\] = "\.\*" \(killed once that entry is removed\)/);
  }, 240_000);

  it('(2) an include glob that matches no file: no-coverage for every operator with files to mutate', async () => {
    const r = await run('version: 1\ngates:\n  hardcoded-strings:\n    include: ["**/*.nomatch"]\n', ['--gate', 'hardcoded-strings', '--sample', '1']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/hardcoded-strings\s+hardcoded-strings\/layout-content-description\s+0\s+0\s+1\s+0\s+0/);
    expect(r.stdout).toMatch(/no-coverage .*the gate never read .*include: \["\*\*\/\*\.nomatch"\]/);
  }, 240_000);
});
