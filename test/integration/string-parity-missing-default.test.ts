// string-parity: an Android translation key that no file of the res folder's values/ defines is missing-default
// (error), in a staged commit and in run --all alike (fresh6 F3). Red before: the commit landed with an extra-key
// warning whenever values/ held any file (or none at all), and run --all said missing-default only when the
// translation's group had no base of its file name, so the two modes disagreed on the same tree. Android Lint reports
// such a key as ExtraTranslation (<string>, <string-array>) or MissingDefaultResource (<plurals>), both fatal, and on
// a device in another locale getString throws Resources.NotFoundException. Real hook, real git, the built CLI.
import { describe, expect, it } from 'vitest';
import { inTempRepo, runVerb } from '../helpers/cli.js';
import { assertBuilt, head, letGitRefreshIndex, type Sandbox } from './install-support.js';

const RES = 'app/src/main/res';
const xml = (...entries: string[]) => `<?xml version="1.0" encoding="utf-8"?>\n<resources xmlns:tools="http://schemas.android.com/tools">\n${entries.map((e) => `    ${e}\n`).join('')}</resources>\n`;
const FR = `${RES}/values-fr/strings.xml`;

/** install, commit `first` (through the hook), then stage `next` and commit it through the real hook. */
async function commitThenStage(s: Sandbox, first: Record<string, string>, next: Record<string, string>) {
  expect((await runVerb(s, ['install', '--no-proof'])).exit).toBe(0);
  for (const [p, c] of Object.entries(first)) s.repo.write(p, c);
  s.repo.git('add', '-A');
  if (Object.keys(first).length) s.repo.git('commit', '-q', '-m', 'first');
  for (const [p, c] of Object.entries(next)) s.repo.write(p, c);
  s.repo.git('add', '-A');
  letGitRefreshIndex(s);
  const before = head(s);
  const commit = s.gitRun(['commit', '-m', 'fr']);
  return { commit, landed: head(s) !== before };
}

/** run --all of string-parity on the tree as it stands: exit code and `file:line rule/severity` of each finding. */
async function runAll(s: Sandbox) {
  const r = await runVerb(s, ['run', '--all', '--gate', 'string-parity', '--format', 'json']);
  const json = JSON.parse(r.stdout) as { results: Array<{ findings: Array<{ file: string; line: number; rule: string; severity: string; message: string }> }> };
  const findings = json.results.flatMap((g) => g.findings);
  return { exit: r.exit, lines: findings.map((f) => `${f.file}:${f.line} ${f.rule}/${f.severity}`), messages: findings.map((f) => f.message) };
}

describe('string-parity: a translation key no values/*.xml defines is missing-default, staged and --all alike', () => {
  it('red: values/ holds an unrelated default (values/strings.xml defines only `b`); the commit adding fr `c` is refused, and run --all agrees', async () => {
    assertBuilt();
    await inTempRepo({ 'README.md': '# app\n' }, async (s) => {
      const { commit, landed } = await commitThenStage(s, { [`${RES}/values/strings.xml`]: xml('<string name="b">Hello</string>') }, { [FR]: xml('<string name="b">Salut</string>', '<string name="c">Nouveau</string>') });
      expect(landed, commit.output).toBe(false);
      expect(commit.status).toBe(1);
      expect(commit.output).toMatch(/^ {2}app\/src\/main\/res\/values-fr\/strings\.xml:1:1 {2}missing-default {2}fr: 1 key has no default in app\/src\/main\/res\/values\/ \(`c`\)/m);
      const all = await runAll(s);
      expect([all.exit, ...all.lines]).toEqual([1, `${FR}:1 missing-default/error`]);
    });
  });

  it('red: no values/ at all; the staged commit is refused as run --all refuses the tree', async () => {
    assertBuilt();
    await inTempRepo({ 'README.md': '# app\n' }, async (s) => {
      const { commit, landed } = await commitThenStage(s, {}, { [FR]: xml('<string name="a">Salut</string>') });
      expect(landed, commit.output).toBe(false);
      expect(commit.output).toMatch(/values-fr\/strings\.xml:1:1 {2}missing-default {2}fr: 1 key has no default in app\/src\/main\/res\/values\/ \(`a`\)/);
      const all = await runAll(s);
      expect([all.exit, ...all.lines]).toEqual([1, `${FR}:1 missing-default/error`]);
    });
  });

  it('red: the folder\'s defaults live in values/misc.xml (not staged, read from the index): fr `c` that none defines is refused; green: fr `b` it defines is not', async () => {
    assertBuilt();
    await inTempRepo({ 'README.md': '# app\n' }, async (s) => {
      const first = { [`${RES}/values/misc.xml`]: xml('<string name="b">Hello</string>') };
      const { commit, landed } = await commitThenStage(s, first, { [FR]: xml('<string name="b">Salut</string>', '<string name="c">Nouveau</string>') });
      expect(landed, commit.output).toBe(false);
      expect(commit.output).toMatch(/values-fr\/strings\.xml:1:1 {2}missing-default {2}fr: 1 key has no default in app\/src\/main\/res\/values\/ \(`c`\)/);
      expect((await runAll(s)).lines).toEqual([`${FR}:1 missing-default/error`]);
      // The working tree's values/misc.xml is not what is judged: the index's is (here the same file, defining `b`).
      s.repo.write(FR, xml('<string name="b">Salut</string>'));
      s.repo.git('add', '-A');
      const before = head(s);
      const ok = s.gitRun(['commit', '-m', 'fr: b only']);
      expect(head(s), ok.output).not.toBe(before);
      const all = await runAll(s);
      expect([all.exit, ...all.lines]).toEqual([0]);
    });
  });

  it('green: a key that was without a default before the commit does not refuse a commit that leaves it alone (staged: introduced); run --all still reports it', async () => {
    assertBuilt();
    await inTempRepo(
      { 'README.md': '# app\n', [`${RES}/values/strings.xml`]: xml('<string name="b">Hello</string>'), [FR]: xml('<string name="b">Salut</string>', '<string name="stale">Vieux</string>') },
      async (s) => {
        expect((await runVerb(s, ['install', '--no-proof'])).exit).toBe(0);
        s.repo.git('add', '-A');
        s.repo.git('commit', '-q', '-m', 'loopgates');
        s.repo.write(FR, xml('<string name="b">Bonjour</string>', '<string name="stale">Vieux</string>'));
        s.repo.git('add', '-A');
        letGitRefreshIndex(s);
        const before = head(s);
        const commit = s.gitRun(['commit', '-m', 'fr: b']);
        expect(head(s), commit.output).not.toBe(before);
        expect((await runAll(s)).lines).toEqual([`${FR}:1 missing-default/error`]);
        // Adding a second key without a default is the commit's doing: refused.
        s.repo.write(FR, xml('<string name="b">Bonjour</string>', '<string name="stale">Vieux</string>', '<string name="typo_key">Oups</string>'));
        s.repo.git('add', '-A');
        const again = s.gitRun(['commit', '-m', 'fr: typo']);
        expect(again.status, again.output).toBe(1);
        expect(again.output).toMatch(/missing-default {2}fr: 2 keys have no default in app\/src\/main\/res\/values\/ \(`stale`, `typo_key`\)/);
      },
    );
  });

  it('tools:ignore as Lint reads it: ExtraTranslation on a <string> (or on <resources>), MissingDefaultResource on a <plurals>, `all`: an extra-key warning; MissingDefaultResource on a <string> still refuses', async () => {
    assertBuilt();
    await inTempRepo({ 'README.md': '# app\n' }, async (s) => {
      const first = { [`${RES}/values/strings.xml`]: xml('<string name="b">Hello</string>') };
      const suppressed = xml(
        '<string name="b">Salut</string>',
        '<string name="x1" tools:ignore="UnusedResources, ExtraTranslation">Un</string>',
        '<plurals name="x2" tools:ignore="MissingDefaultResource"><item quantity="one">%d</item><item quantity="other">%d</item></plurals>',
        '<string-array name="x3" tools:ignore="all"><item>a</item></string-array>',
      );
      // Staged with the keys they hide: the commit's own waiver, refused (below); here acknowledged for this commit.
      expect((await runVerb(s, ['install', '--no-proof'])).exit).toBe(0);
      s.repo.write(`${RES}/values/strings.xml`, first[`${RES}/values/strings.xml`]!);
      s.repo.git('add', '-A');
      s.repo.git('commit', '-q', '-m', 'first');
      s.repo.write(FR, suppressed);
      s.repo.git('add', '-A');
      letGitRefreshIndex(s);
      const commit = s.gitRun(['commit', '-m', 'fr'], { LOOPGATES_ALLOW_DISABLE: 'string-parity' });
      expect(commit.status, commit.output).toBe(0);
      expect(commit.output).toContain('WARNING: this commit narrows string-parity (waives 3 findings of its own (');
      const all = await runAll(s);
      expect([all.exit, ...all.lines]).toEqual([0, `${FR}:4 extra-key/warning`, `${FR}:5 extra-key/warning`, `${FR}:6 extra-key/warning`]);
      expect(all.messages[0]).toBe('fr `x1` is not defined in any file of app/src/main/res/values/ (tools:ignore="ExtraTranslation": not judged as missing-default)');
      // Lint reports a <string> as ExtraTranslation: MissingDefaultResource on it suppresses nothing there, nor here.
      s.repo.write(FR, xml('<string name="b">Salut</string>', '<string name="y" tools:ignore="MissingDefaultResource">Y</string>'));
      s.repo.write(`${RES}/values-de/strings.xml`, xml('<string name="b">Hallo</string>'));
      s.repo.write(`${RES}/values-de/more.xml`, xml('<string name="z">Z</string>').replace('<resources ', '<resources tools:ignore="ExtraTranslation" '));
      s.repo.git('add', '-A');
      const refused = s.gitRun(['commit', '-m', 'fr: y']);
      expect(refused.status, refused.output).toBe(1);
      expect(refused.output).toMatch(/values-fr\/strings\.xml:1:1 {2}missing-default {2}fr: 1 key has no default in app\/src\/main\/res\/values\/ \(`y`\)/);
      expect(refused.output).not.toMatch(/values-de\/more\.xml:\d+:\d+ {2}missing-default/);
      expect((await runAll(s)).lines).toEqual([`${RES}/values-de/more.xml:3 extra-key/warning`, `${FR}:1 missing-default/error`]);
    });
  });

  // A tools:ignore the commit writes hides a key the same commit leaves without a default: the gate narrowed by the
  // commit it judges (as a .gitleaksignore entry staged with its credential). Refused unless acknowledged; one HEAD
  // already holds is honoured, and run --all honours every one.
  it('red: a tools:ignore staged with the key it hides is the commit waiving its own missing-default; one HEAD already has is honoured', async () => {
    assertBuilt();
    await inTempRepo({ 'README.md': '# app\n' }, async (s) => {
      const first = { [`${RES}/values/strings.xml`]: xml('<string name="b">Hello</string>'), [FR]: xml('<string name="b">Salut</string>', '<string name="old" tools:ignore="ExtraTranslation">Vieux</string>') };
      // The attribute added to a key HEAD already had without a default, and a new key under a new file's <resources>.
      const next = {
        [FR]: xml('<string name="b">Salut</string>', '<string name="old" tools:ignore="ExtraTranslation">Vieux !</string>', '<string name="c" tools:ignore="ExtraTranslation">Nouveau</string>'),
        [`${RES}/values-fr/more.xml`]: xml('<string name="z">Z</string>').replace('<resources ', '<resources tools:ignore="all" '),
      };
      expect((await runVerb(s, ['install', '--no-proof'])).exit).toBe(0);
      for (const [p, c] of Object.entries(first)) s.repo.write(p, c);
      s.repo.git('add', '-A');
      expect(s.gitRun(['commit', '-q', '-m', 'first'], { LOOPGATES_ALLOW_DISABLE: 'string-parity' }).status).toBe(0);
      for (const [p, c] of Object.entries(next)) s.repo.write(p, c);
      s.repo.git('add', '-A');
      letGitRefreshIndex(s);
      const before = head(s);
      const commit = s.gitRun(['commit', '-m', 'fr']);
      expect(head(s), commit.output).toBe(before);
      expect(commit.status).toBe(1);
      expect(commit.output).toContain(
        `this commit keeps string-parity enabled but waives 2 findings of its own (${RES}/values-fr/more.xml:3 missing-default \`z\`, by the tools:ignore="all" it adds; ${FR}:5 missing-default \`c\`, by the tools:ignore="ExtraTranslation" it adds)`,
      );
      expect(commit.output).toContain('LOOPGATES_ALLOW_DISABLE=string-parity git commit');
      expect(commit.output).not.toContain('`old`, by');
      // Without the new key the commit lands: `old` keeps the attribute HEAD gave it.
      s.repo.write(FR, xml('<string name="b">Salut</string>', '<string name="old" tools:ignore="ExtraTranslation">Vieux !</string>'));
      s.repo.git('rm', '-q', '-f', `${RES}/values-fr/more.xml`);
      s.repo.git('add', FR);
      const lands = s.gitRun(['commit', '-m', 'fr: old']);
      expect(lands.status, lands.output).toBe(0);
      expect((await runAll(s)).lines).toEqual([`${FR}:4 extra-key/warning`]);
    });
  });
});
