// `loopgates mutate` on catalogs for the string-parity rules of a catalog's own resources, which no operator
// exercised (examples/notes-app: "16 rules not exercised", android-unescaped-apostrophe and duplicate-resource among
// them): each operator's mutant in a translation is killed by its own rule at its line, the base is never mutated,
// and the rule leaves the "not exercised" list. Real gates, real git.
import { describe, expect, it } from 'vitest';
import { makeMutateVerb } from '../../commands/selftest.js';
import { callVerb } from '../helpers/cli.js';
import { treeAndIndexDigest, withGitRepo } from '../helpers/git-repo.js';

const ANDROID: Record<string, string> = {
  'loopgates.yaml': 'version: 1\n',
  'app/src/main/res/values/strings.xml': '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="app_name" translatable="false">Notes</string>\n    <string name="dont_stop">"Don\'t" stop</string>\n    <string name="note_saved">Saved %1$s</string>\n</resources>\n',
  'app/src/main/res/values-de/strings.xml': '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="dont_stop">"Nicht" stoppen</string>\n    <string name="note_saved">Gespeichert: %1$s</string>\n</resources>\n',
};

type Report = { files: Record<string, { mutants: Array<{ mutatorName: string; status: string; statusReason: string; location: { start: { line: number } } }> }>; loopgates: { gates: Array<{ gate: string; notExercised?: string[] }> } };

/** `mutate --gate string-parity --all-inputs` in a repository of `files`: `path:line status rule` of `op`'s mutants. */
async function mutantsOf(files: Record<string, string>, op: string): Promise<{ list: string[]; notExercised: string[]; code: number; stderr: string }> {
  let out!: { list: string[]; notExercised: string[]; code: number; stderr: string };
  await withGitRepo(files, async (repo) => {
    repo.git('add', '-A');
    repo.git('commit', '-q', '--no-verify', '-m', 'catalogs');
    const before = treeAndIndexDigest(repo.dir);
    const r = await callVerb(makeMutateVerb(), ['--gate', 'string-parity', '--all-inputs', '--format', 'json'], repo);
    const report = JSON.parse(r.stdout) as Report;
    const list = Object.entries(report.files).flatMap(([p, f]) => f.mutants.filter((m) => m.mutatorName === `string-parity/${op}`).map((m) => `${p}:${m.location.start.line} ${m.status} ${/\(rule ([\w-]+)\)/.exec(m.statusReason)?.[1] ?? m.statusReason}`));
    const sp = report.loopgates.gates.find((g) => g.gate === 'string-parity')!;
    expect(treeAndIndexDigest(repo.dir)).toBe(before);
    out = { list, notExercised: sp.notExercised ?? [], code: r.code, stderr: r.stderr };
  });
  return out;
}

describe('mutate: operators for a catalog resource defect', () => {
  it("android-unescaped-apostrophe writes a bare ' into a translated <string>, and the gate kills it", async () => {
    const r = await mutantsOf(ANDROID, 'string-parity/android-unescaped-apostrophe');
    // The one plain string of de (`"Nicht" stoppen` is quoted: a ' there is kept); never the base.
    expect(r.list).toEqual(['app/src/main/res/values-de/strings.xml:4 Killed android-unescaped-apostrophe']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.notExercised).not.toContain('android-unescaped-apostrophe');
  }, 300_000);

  it('duplicate-resource defines a translated <string> a second time in its values file, and the gate kills it', async () => {
    const r = await mutantsOf(ANDROID, 'string-parity/duplicate-resource');
    // One mutant in de, at the copy (the line after dont_stop's or note_saved's); never the base.
    expect(r.list).toEqual([expect.stringMatching(/^app\/src\/main\/res\/values-de\/strings\.xml:[45] Killed duplicate-resource$/)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.notExercised).not.toContain('duplicate-resource');
  }, 300_000);

  it('empty-value empties a translation where the config makes the rule refuse, and the gate kills it', async () => {
    const refusing = 'version: 1\ngates:\n  string-parity:\n    rules:\n      empty-value: error\n';
    const r = await mutantsOf({ ...ANDROID, 'loopgates.yaml': refusing, 'locales/en/common.json': '{\n  "title": "Notes of {{name}}"\n}\n', 'locales/de/common.json': '{\n  "title": "Notizen von {{name}}"\n}\n' }, 'string-parity/empty-value');
    // de `dont_stop` (not `note_saved`: its base's %1$s would be reported missing too) and the i18next `title`.
    expect(r.list).toEqual(['app/src/main/res/values-de/strings.xml:3 Killed empty-value', 'locales/de/common.json:2 Killed empty-value']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.notExercised).not.toContain('empty-value');
    // Under the defaults empty-value only warns: no mutant (it would stay green), and it is no refusing rule to list.
    const d = await mutantsOf(ANDROID, 'string-parity/empty-value');
    expect(d.list).toEqual([]);
    expect(d.notExercised).not.toContain('empty-value');
  }, 300_000);
});
