// `loopgates mutate` on an i18next v4 catalog with suffixed plural keys (fresh-user-4 F8): lossless-cut's
// locales/*/translation.json write `"key_one": "…", "key_other": "…"`, and drop-plural-category found no place there
// in 36 files, though the gate reports a dropped `_other`. Now it drops one required category's member from a
// translation (keeping the file JSON), and the mutant is killed by plural-missing-category. Real gates, real git.
import { describe, expect, it } from 'vitest';
import { makeMutateVerb } from '../../commands/selftest.js';
import { callVerb } from '../helpers/cli.js';
import { treeAndIndexDigest, withGitRepo } from '../helpers/git-repo.js';

const FILES: Record<string, string> = {
  'loopgates.yaml': 'version: 1\n',
  'locales/en/translation.json': '{\n  "title": "Segments",\n  "segments_one": "{{count}} segment",\n  "segments_other": "{{count}} segments"\n}\n',
  'locales/de/translation.json': '{\n  "title": "Segmente",\n  "segments_one": "{{count}} Segment",\n  "segments_other": "{{count}} Segmente"\n}\n',
};

describe('mutate on i18next suffixed plural keys', () => {
  it('drop-plural-category drops a required _one/_other member of a translation, and the gate kills it', async () => {
    await withGitRepo(FILES, async (repo) => {
      repo.git('add', '-A');
      repo.git('commit', '-q', '--no-verify', '-m', 'catalogs');
      const before = treeAndIndexDigest(repo.dir);
      const r = await callVerb(makeMutateVerb(), ['--gate', 'string-parity', '--all-inputs', '--format', 'json'], repo);
      const report = JSON.parse(r.stdout);
      const files = report.files as Record<string, { mutants: Array<{ mutatorName: string; status: string; statusReason: string; description?: string; location: { start: { line: number } } }> }>;
      const drops = Object.entries(files).flatMap(([p, f]) => f.mutants.filter((m) => m.mutatorName === 'string-parity/string-parity/drop-plural-category').map((m) => `${p}:${m.location.start.line} ${m.status}`));
      // One mutant, in de's plural `segments` (reported where the plural starts, line 3); never the base.
      expect(drops).toEqual(['locales/de/translation.json:3 Killed']);
      expect(r.code, r.stderr).toBe(0);
      const sp = report.loopgates.gates.find((g: { gate: string }) => g.gate === 'string-parity');
      expect(sp.notExercised).not.toContain('plural-missing-category');
      expect(treeAndIndexDigest(repo.dir)).toBe(before);
    });
  }, 300_000);
});
