// `loopgates mutate` on a small React + i18next repository (fresh-user-3 F14): the rules a web app's defects hit have
// operators of their own, each killed on the user's files and named in the report: string-parity/markup-tag (a tag
// dropped or doubled in a translation: markup-mismatch), hardcoded-strings/mistype-catalog-key (a literal t('…') key no
// catalog holds: missing-catalog-key) and hardcoded-strings/jsx-child-text (a t() call's text moved into a literal JSX
// child: hardcoded-text). The summary names every refusing rule no mutant exercised, so "every mutant killed" is said
// only of what ran. Real gates, a real git repository; the working tree and index stay byte-identical.
import { describe, expect, it } from 'vitest';
import type { CommandIO } from '../../core/command.js';
import { makeMutateVerb } from '../../commands/selftest.js';
import { treeAndIndexDigest, withGitRepo } from '../helpers/git-repo.js';

const FILES: Record<string, string> = {
  'loopgates.yaml': 'version: 1\n',
  'public/locales/en/translation.json': '{\n  "move": "Move to <em>{{ location }}</em>",\n  "skip": "Skip to <0>content</0>",\n  "save": "Save",\n  "title": "Documents"\n}\n',
  'public/locales/de/translation.json': '{\n  "move": "Nach <em>{{ location }}</em> verschieben",\n  "skip": "Zum <0>Inhalt</0> springen",\n  "save": "Speichern",\n  "title": "Dokumente"\n}\n',
  'app/components/Toolbar.tsx': [
    'import { useTranslation } from "react-i18next";',
    '',
    'export function Toolbar({ onSave }: { onSave: () => void }) {',
    '  const { t } = useTranslation();',
    '  return (',
    '    <div className="toolbar">',
    '      <h1>{t("title")}</h1>',
    '      <Button onClick={onSave}>{t("save")}</Button>',
    '    </div>',
    '  );',
    '}',
    '',
  ].join('\n'),
};

async function mutate(dir: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CommandIO = { cwd: dir, env: process.env, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false, signal: new AbortController().signal };
  const code = await makeMutateVerb().run(['--gate', 'string-parity', '--gate', 'hardcoded-strings', '--all-inputs', ...args], io);
  return { code, stdout, stderr };
}

describe('mutate on a React/i18next repository', () => {
  it('has an operator for markup-mismatch, missing-catalog-key and JSX child text, each killed and in the report; unexercised rules are named', async () => {
    await withGitRepo(FILES, async (repo) => {
      repo.git('add', '-A');
      repo.git('commit', '-q', '--no-verify', '-m', 'web app');
      const before = treeAndIndexDigest(repo.dir);
      const json = await mutate(repo.dir, ['--format', 'json']);
      const report = JSON.parse(json.stdout);
      const mutants = Object.values(report.files as Record<string, { mutants: Array<{ mutatorName: string; status: string; statusReason: string; location: { start: { line: number } } }> }>).flatMap((f) => f.mutants);
      const of = (op: string) => mutants.filter((m) => m.mutatorName === op).map((m) => `${m.location.start.line} ${m.status}`);
      // One mutant per operator and file: in de's "move" (line 2, <em>) or "skip" (line 3, <0>); at t("title") (line 7)
      // or t("save") (line 8).
      expect(of('string-parity/string-parity/markup-tag')).toHaveLength(1);
      expect(['2 Killed', '3 Killed']).toContain(of('string-parity/string-parity/markup-tag')[0]);
      for (const op of ['mistype-catalog-key', 'jsx-child-text']) {
        expect(of(`hardcoded-strings/hardcoded-strings/${op}`)).toHaveLength(1);
        expect(['7 Killed', '8 Killed']).toContain(of(`hardcoded-strings/hardcoded-strings/${op}`)[0]);
      }
      expect(mutants.filter((m) => m.status !== 'Killed').map((m) => `${m.mutatorName}: ${m.statusReason}`)).toEqual([]);
      expect(json.code, json.stderr).toBe(0);
      const sp = report.loopgates.gates.find((g: { gate: string }) => g.gate === 'string-parity');
      const hs = report.loopgates.gates.find((g: { gate: string }) => g.gate === 'hardcoded-strings');
      expect(sp.notExercised).not.toContain('markup-mismatch');
      expect(sp.notExercised).toContain('icu-syntax');
      expect(sp.notExercised).toContain('plural-missing-category');
      expect(hs.notExercised).toEqual(['suppression-without-reason', 'unparsable']);

      const text = await mutate(repo.dir, []);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/^string-parity +string-parity\/markup-tag +1 +0 +0 +0 +0/m);
      expect(text.stdout).toMatch(/^hardcoded-strings +hardcoded-strings\/mistype-catalog-key +1 +0 +0 +0 +0/m);
      expect(text.stdout).toMatch(/^hardcoded-strings +hardcoded-strings\/jsx-child-text +1 +0 +0 +0 +0/m);
      expect(text.stdout).toContain('hardcoded-strings: not exercised in this repository: suppression-without-reason, unparsable (no operator made a mutant for these rules: nothing here proves the gate goes red on them)');
      expect(text.stdout).toMatch(/^string-parity: not exercised in this repository: .*icu-syntax.*plural-missing-category/m);
      expect(text.stdout).toMatch(/^every mutant killed: the gates go red on these defects in your files; \d+ rules of the gates not exercised here \(listed above\)$/m);
      expect(treeAndIndexDigest(repo.dir)).toBe(before);
    });
  }, 300_000);
});
