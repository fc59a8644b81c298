// A staged deletion of an Android default (res/values/strings.xml) leaves the translations of its res folder without
// defaults: on a device in any other locale getString throws Resources.NotFoundException. The commit that only deletes
// it stages nothing string-parity could read, so before this it was a skip and the commit was allowed.
import { describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import { headSideOf } from '../../core/head-side.js';
import { indexWorkspace } from '../../core/snapshot.js';
import type { GateResult, Workspace } from '../../core/types.js';
import { memoryWorkspace } from '../../core/workspace.js';
import { stringParityGate } from '../../gates/string-parity/index.js';
import { withGitRepo } from '../helpers/git-repo.js';

const xml = (...entries: string[]) => `<resources>\n${entries.map((e) => `    ${e}\n`).join('')}</resources>\n`;
const BASE = 'app/src/main/res/values/strings.xml';
const COLORS = 'app/src/main/res/values/colors.xml';
const DE = 'app/src/main/res/values-de/strings.xml';
const FR = 'app/src/main/res/values-fr/strings.xml';
const files = {
  [BASE]: xml('<string name="play">Play %1$s</string>', '<string name="share">Share</string>'),
  [COLORS]: xml('<color name="accent">#ff0000</color>'),
  [DE]: xml('<string name="play">Abspielen %1$s</string>', '<string name="share">Teilen</string>'),
  // A pre-existing warning (a stale key) that a deletion of the base does not cause: not reported by it.
  [FR]: xml('<string name="play">Lire %1$s</string>', '<string name="gone">Parti</string>'),
  'README.md': '# app\n',
};

const run = (ws: Workspace): Promise<GateResult> =>
  runGate({ gate: stringParityGate, config: stringParityGate.configSchema.parse({}), timeoutMs: 30_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache' });
const lines = (r: GateResult) => r.findings.map((f) => `${f.file}:${f.line} ${f.rule}/${f.severity}`);
const without = (path: string) => Object.fromEntries(Object.entries(files).filter(([p]) => p !== path));
/** string-parity on the index of a repository that committed `initial`, then wrote and staged `staged`. */
const afterCommit = (initial: Record<string, string>, staged: Record<string, string>): Promise<GateResult> =>
  withGitRepo(initial, async (repo) => {
    repo.git('add', '--', '.');
    repo.git('commit', '-q', '-m', 'app');
    for (const [p, c] of Object.entries(staged)) repo.write(p, c);
    repo.git('add', '--', ...Object.keys(staged));
    return run(await indexWorkspace(repo.dir, {}));
  });

describe('string-parity: staged deletions', () => {
  it('red: deleting values/strings.xml alone fails with missing-default in every translation of the res folder', async () => {
    const r = await run(memoryWorkspace({ files: without(BASE), targets: [], deleted: [BASE] }));
    expect(r.verdict).toBe('fail');
    expect(r.counts.files).toBe(2);
    expect(lines(r)).toEqual([`${DE}:1 missing-default/error`, `${FR}:1 missing-default/error`]);
    expect(r.findings[0]!.message).toBe(
      `de: 2 keys have no default in app/src/main/res/values/ (\`play\`, \`share\`): on a device in any other locale getString throws Resources.NotFoundException (caused by the staged deletion of ${BASE}; ${DE} is not staged)`,
    );
  });

  it('red: the same through the git index (git rm of the base, nothing else staged)', async () => {
    await withGitRepo(files, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'app');
      repo.git('rm', '-q', '--', BASE);
      const ws = await indexWorkspace(repo.dir, {});
      expect(await ws.targets()).toEqual([]);
      expect(await ws.deletions?.()).toEqual([BASE]);
      const r = await run(ws);
      expect([r.verdict, ...lines(r)]).toEqual(['fail', `${DE}:1 missing-default/error`, `${FR}:1 missing-default/error`]);
    });
  });

  it('green: deleting a values file that defines no string of a translation reports nothing (the stale fr key is not the commit\'s doing)', async () => {
    const r = await run(memoryWorkspace({ files: without(COLORS), targets: [], deleted: [COLORS], before: { [COLORS]: files[COLORS] } }));
    expect([r.verdict, r.counts.files, ...lines(r)]).toEqual(['skip', 0]);
    // The same through the git index (git rm of colors.xml).
    await withGitRepo(files, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'app');
      repo.git('rm', '-q', '--', COLORS);
      const g = await run(await indexWorkspace(repo.dir, {}));
      expect([g.verdict, ...lines(g)]).toEqual(['skip']);
    });
  });

  it('red: with the deleted file\'s HEAD side unknown, fr\'s key without a default is reported: the gate cannot tell the deletion did not define it', async () => {
    const r = await run(memoryWorkspace({ files: without(COLORS), targets: [], deleted: [COLORS] }));
    expect([r.verdict, r.counts.files, ...lines(r)]).toEqual(['fail', 2, `${FR}:1 missing-default/error`]);
    expect(r.findings[0]!.members).toEqual(['gone']);
  });

  it('green: deleting a translation pulls nothing (Android falls back to values/)', async () => {
    const r = await run(memoryWorkspace({ files: without(DE), targets: [], deleted: [DE] }));
    expect([r.verdict, r.counts.files]).toEqual(['skip', 0]);
  });

  it('with the HEAD side known, a deletion is blamed only for the keys it held: a stale key of a translation is not its doing', async () => {
    const r = await run(memoryWorkspace({ files: without(BASE), targets: [], deleted: [BASE], before: { [BASE]: files[BASE] } }));
    expect([r.verdict, ...lines(r)]).toEqual(['fail', `${DE}:1 missing-default/error`, `${FR}:1 missing-default/error`]);
    expect(r.findings[1]!.message).toMatch(/^fr: 1 key has no default in app\/src\/main\/res\/values\/ \(`play`\)/);
  });

  it('green: git mv of the base to another file name of values/ loses no default (Android merges values/*.xml)', async () => {
    await withGitRepo(files, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'app');
      repo.git('mv', '--', BASE, 'app/src/main/res/values/strings_main.xml');
      const ws = await indexWorkspace(repo.dir, {});
      expect(await ws.deletions?.()).toEqual([BASE]);
      expect((await ws.before?.(BASE))?.toString('utf8')).toBe(files[BASE]);
      const r = await run(ws);
      expect([r.verdict, ...lines(r).filter((l) => !l.includes('warning'))]).toEqual(['pass']);
      // The translations' group (values*/strings.xml) has no base of that name now, but they are still compared.
      expect(r.notes).toContain('catalog app/src/main/res/values*/strings.xml: no base file of that name (2 files); its keys are compared with the other files of the default values folder, and a key none of them defines has no default');
    });
  });

  it('red: renaming a key in the base only (translations keep the old name) is missing-default in each, not a stale-key warning', async () => {
    const r = await afterCommit(files, { [BASE]: files[BASE].replace('name="play"', 'name="play_now"') });
    expect(r.verdict).toBe('fail');
    expect(lines(r)).toEqual([
      `${BASE}:2 missing-key/warning`,
      `${BASE}:3 missing-key/warning`,
      `${DE}:1 missing-default/error`,
      `${FR}:1 missing-default/error`,
    ]);
    // fr's `gone` had no default before the commit: fr is not staged, so only what the commit took away is its doing.
    expect(r.findings[3]!.members).toEqual(['play']);
    expect(r.findings[2]!.message).toBe(
      `de: 1 key has no default in app/src/main/res/values/ (\`play\`): on a device in any other locale getString throws Resources.NotFoundException (caused by the staged change to the base ${BASE}; ${DE} is not staged)`,
    );
  });

  it('green: a base change that removes no key reports no missing-default', async () => {
    const r = await afterCommit(files, { [BASE]: files[BASE].replace('>Share<', '>Share…<') });
    // (fr lacks `share`, a warning of the base as staged; fr's `gone` was without a default before the commit, and fr,
    // not staged, is judged only for what the commit takes away.)
    expect([r.verdict, ...lines(r)]).toEqual(['pass', `${BASE}:3 missing-key/warning`]);
  });

  it('red: removing a key from another values/ file (values/misc.xml) while a translation of strings.xml still defines it is missing-default', async () => {
    const MISC = 'app/src/main/res/values/misc.xml';
    const withMisc = { ...files, [MISC]: xml('<string name="extra">Extra</string>'), [DE]: files[DE].replace('</resources>', '    <string name="extra">Mehr</string>\n</resources>') };
    const r = await afterCommit(withMisc, { [MISC]: xml('<string name="other">Other</string>') });
    expect([r.verdict, ...lines(r)]).toEqual(['fail', `${DE}:1 missing-default/error`]);
    expect(r.findings[0]!.message).toBe(
      `de: 1 key has no default in app/src/main/res/values/ (\`extra\`): on a device in any other locale getString throws Resources.NotFoundException (caused by the staged change to ${MISC}; ${DE} is not staged)`,
    );
  });

  it('green: git mv of a translation to another file name of its folder keeps its key without a default pre-existing (staged: introduced), as an edit in place does', async () => {
    await withGitRepo(files, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'app');
      repo.git('mv', '--', FR, 'app/src/main/res/values-fr/strings_fr.xml');
      const ws = await indexWorkspace(repo.dir, {});
      // One rule in every mode: `gone` has no default (an error)…
      const all = await run(ws);
      expect([all.verdict, ...lines(all)]).toEqual(['fail', 'app/src/main/res/values-fr/strings_fr.xml:1 missing-default/error']);
      expect(all.findings[0]!.message).toBe('fr: 1 key has no default in app/src/main/res/values/ (`gone`): on a device in any other locale getString throws Resources.NotFoundException');
      // …and HEAD had it at the file's old name, so the commit (judged as the hook does) is not refused for it.
      const r = await runGate({ gate: stringParityGate, config: stringParityGate.configSchema.parse({}), timeoutMs: 30_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache', head: headSideOf(ws, '/tmp/loopgates-test-cache')! });
      expect([r.verdict, ...lines(r)]).toEqual(['pass']);
      expect(r.staged?.preExisting).toEqual({ errors: 1, warnings: 0, files: ['app/src/main/res/values-fr/strings_fr.xml'] });
    });
  });

  it('a staged translation beside a deleted base is judged whole, once', async () => {
    const r = await run(memoryWorkspace({ files: { ...without(BASE), [DE]: files[DE].replace('Teilen', 'Teilen %2$d') }, targets: [DE], deleted: [BASE] }));
    expect(lines(r)).toEqual([`${DE}:1 missing-default/error`, `${FR}:1 missing-default/error`]);
    expect(r.findings[0]!.message).not.toContain('caused by');
  });
});

// Outside Android: a staged deletion of a base catalog (en.json, en.lproj/*.strings, app_en.arb, a Lingui en.po) that
// leaves its translations behind left them with no base; the commit stages nothing string-parity reads, so it was a
// skip and the commit was allowed.
describe('string-parity: staged deletions of other formats\' bases (missing-base)', () => {
  const other = {
    'web/locales/en.json': '{ "hello": "Hello {{name}}", "bye": "Bye" }\n',
    'web/locales/de.json': '{ "hello": "Hallo {{name}}", "bye": "Tschüss" }\n',
    'web/locales/fr.json': '{ "hello": "Bonjour {{name}}" }\n',
    'ios/App/en.lproj/Localizable.strings': '"hello" = "Hello %@";\n',
    'ios/App/de.lproj/Localizable.strings': '"hello" = "Hallo %@";\n',
    'po/messages.pot': 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Hello"\nmsgstr ""\n',
    'po/de.po': 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: de\\n"\n\nmsgid "Hello"\nmsgstr "Hallo"\n',
    'README.md': '# app\n',
  };
  /** string-parity on the index after committing `other`, then `git rm` of `removed` and `git mv` of `moved`. */
  const afterRemoving = (removed: string[], moved: Array<[string, string]> = [], config: object = {}): Promise<GateResult> =>
    withGitRepo(other, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'app');
      if (removed.length) repo.git('rm', '-q', '--', ...removed);
      for (const [from, to] of moved) repo.git('mv', '--', from, to);
      return runGate({ gate: stringParityGate, config: stringParityGate.configSchema.parse(config), timeoutMs: 30_000 }, { ws: await indexWorkspace(repo.dir, {}), cacheRoot: '/tmp/loopgates-test-cache' });
    });

  it('red: git rm of en.json alone is missing-base (error) in each translation left behind', async () => {
    const r = await afterRemoving(['web/locales/en.json']);
    expect([r.verdict, r.counts.files, ...lines(r)]).toEqual(['fail', 2, 'web/locales/de.json:1 missing-base/error', 'web/locales/fr.json:1 missing-base/error']);
    expect(r.findings[0]!.message).toBe(
      'de: the staged deletion of web/locales/en.json leaves this translation without its base catalog (en): the app has no en text for its keys; restore the base (git restore --staged --worktree -- web/locales/en.json) or delete its translations in the same commit (caused by the staged deletion of web/locales/en.json; web/locales/de.json is not staged)',
    );
  });

  it('red: git rm of en.lproj/Localizable.strings alone is missing-base in de.lproj', async () => {
    const r = await afterRemoving(['ios/App/en.lproj/Localizable.strings']);
    expect([r.verdict, ...lines(r)]).toEqual(['fail', 'ios/App/de.lproj/Localizable.strings:1 missing-base/error']);
  });

  it('red: a staged edit of a translation beside its deleted base is missing-base too, without "not staged"', async () => {
    const r = await withGitRepo(other, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'app');
      repo.git('rm', '-q', '--', 'web/locales/en.json', 'ios/App/en.lproj/Localizable.strings');
      repo.write('web/locales/de.json', '{ "hello": "Hallo {{name}}!", "bye": "Tschüss" }\n');
      repo.write('ios/App/de.lproj/Localizable.strings', '"hello" = "Hallo %@!";\n');
      repo.git('add', '--', 'web/locales/de.json', 'ios/App/de.lproj/Localizable.strings');
      return run(await indexWorkspace(repo.dir, {}));
    });
    expect([r.verdict, r.counts.files, ...lines(r)]).toEqual([
      'fail',
      3,
      'ios/App/de.lproj/Localizable.strings:1 missing-base/error',
      'web/locales/de.json:1 missing-base/error',
      'web/locales/fr.json:1 missing-base/error',
    ]);
    expect(r.findings[1]!.message).not.toContain('not staged');
    expect(r.findings[2]!.message).toContain('web/locales/fr.json is not staged');
  });

  it('green: deleting a whole catalog (base and translations), a translation, or a gettext template orphans nothing', async () => {
    const whole = await afterRemoving(['web/locales/en.json', 'web/locales/de.json', 'web/locales/fr.json']);
    expect([whole.verdict, whole.counts.files, ...lines(whole)]).toEqual(['skip', 0]);
    const translation = await afterRemoving(['web/locales/de.json']);
    expect([translation.verdict, ...lines(translation)]).toEqual(['skip']);
    const pot = await afterRemoving(['po/messages.pot']);
    expect([pot.verdict, ...lines(pot)]).toEqual(['skip']);
  });

  it('green: git mv of the base to a name that is still the base (en.json -> en-US.json) orphans nothing', async () => {
    const r = await afterRemoving([], [['web/locales/en.json', 'web/locales/en-US.json']]);
    expect(lines(r).filter((l) => l.includes('missing-base'))).toEqual([]);
    expect(r.verdict).toBe('pass');
  });

  it('rules: {missing-base: warning} lets the commit through with the warning', async () => {
    const r = await afterRemoving(['web/locales/en.json'], [], { rules: { 'missing-base': 'warning' } });
    expect([r.verdict, ...lines(r)]).toEqual(['pass', 'web/locales/de.json:1 missing-base/warning', 'web/locales/fr.json:1 missing-base/warning']);
  });
});
