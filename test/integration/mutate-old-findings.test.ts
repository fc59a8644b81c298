// `loopgates mutate` where the only catalog already has old findings (fresh-user-6 G13, IceCubesApp: one
// Localizable.xcstrings with 42 old errors): the mutant judged as a commit is (split against the unmutated file) and
// killed there proves the gate; the gate's verdict, the table and the totals say so. Real gates, real git.
import { describe, expect, it } from 'vitest';
import { makeMutateVerb } from '../../commands/selftest.js';
import { callVerb } from '../helpers/cli.js';
import { treeAndIndexDigest, withGitRepo } from '../helpers/git-repo.js';

const unit = (state: string, value: string) => ({ stringUnit: { state, value } });
// de `status.count %lld` drops the base's %lld: an old placeholder-mismatch error. `greeting %@` is fine and mutable.
const CATALOG = JSON.stringify(
  {
    sourceLanguage: 'en',
    strings: {
      'greeting %@': { localizations: { en: unit('translated', 'Hello %@'), de: unit('translated', 'Hallo %@') } },
      'followers %lld': {
        localizations: {
          en: { variations: { plural: { one: unit('translated', '%lld follower'), other: unit('translated', '%lld followers') } } },
          de: { variations: { plural: { one: unit('translated', '%lld Follower'), other: unit('translated', '%lld Follower') } } },
        },
      },
      'status.count %lld': { localizations: { en: unit('translated', '%lld posts'), de: unit('translated', 'Beiträge') } },
    },
    version: '1.0',
  },
  null,
  2,
) + '\n';

type Report = { files: Record<string, { mutants: Array<{ mutatorName: string; status: string; location: { start: { line: number } } }> }>; loopgates: { ok: boolean; totals: Record<string, number>; gates: Array<{ gate: string; problem?: { detail: string }; notExercised?: string[]; oldFindings?: { outcome: string; line: number } }> } };

describe('mutate: a catalog already red without the mutation', () => {
  it('a mutant killed where old findings sit proves the gate, and the totals count it', async () => {
    await withGitRepo({ 'loopgates.yaml': 'version: 1\n', 'App/Localizable.xcstrings': CATALOG }, async (repo) => {
      repo.git('add', '-A');
      repo.git('commit', '-q', '--no-verify', '-m', 'catalog');
      const before = treeAndIndexDigest(repo.dir);
      for (const extra of [[], ['--all-inputs']]) {
        const r = await callVerb(makeMutateVerb(), ['--gate', 'string-parity', ...extra, '--format', 'json'], repo);
        const report = JSON.parse(r.stdout) as Report;
        const sp = report.loopgates.gates.find((g) => g.gate === 'string-parity')!;
        const list = Object.entries(report.files).flatMap(([p, f]) => f.mutants.map((m) => `${p}:${m.location.start.line} ${m.mutatorName} ${m.status}`));
        expect(sp.oldFindings?.outcome, extra.join()).toBe('killed');
        // Once per operator: each operator's mutant judged where old findings sit is the run's mutant (the plural one
        // at the plural's line), so plural-missing-category is exercised though the only catalog is red.
        expect(list.map((l) => l.replace(/:\d+ /, ' ')).sort(), extra.join()).toEqual(['change-specifier-type', 'delete-placeholder', 'drop-plural-category'].map((o) => `App/Localizable.xcstrings string-parity/string-parity/${o} Killed`));
        expect(list, extra.join()).toContainEqual(expect.stringMatching(new RegExp(`^App/Localizable\\.xcstrings:${sp.oldFindings!.line} `)));
        expect(sp.notExercised, extra.join()).not.toContain('plural-missing-category');
        expect(sp.problem, extra.join()).toBeUndefined();
        expect(report.loopgates.totals.killed, extra.join()).toBe(3);
        expect(report.loopgates.ok, extra.join()).toBe(true);
        expect(r.code, r.stderr).toBe(0);
      }
      const text = await callVerb(makeMutateVerb(), ['--gate', 'string-parity'], repo);
      expect(text.stdout).toMatch(/string-parity: a mutant where old findings sit \(App\/Localizable\.xcstrings:\d+, .*\): killed: introduced at/);
      expect(text.stdout).toMatch(/: 3 mutants, 3 killed, 0 survived/);
      expect(text.stdout).not.toMatch(/noisy|could not be proven/);
      expect(text.code).toBe(0);
      expect(treeAndIndexDigest(repo.dir)).toBe(before);
    });
  }, 300_000);
});
