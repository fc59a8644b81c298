// hardcoded-strings over the real l10n corpus (../shared/corpus/l10n, read-only), in --all mode on the folder: exact
// findings and counts, so any change of behaviour shows. The corpus holds resource XML and catalogs only (no source
// code); Kotlin/Java/Swift/JSX behaviour is covered by the unit tests' fixtures.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import { treeWorkspace } from '../../core/snapshot.js';
import { configSchema, hardcodedStringsGate, selectInputs } from '../../gates/hardcoded-strings/index.js';

const CORPUS = join(import.meta.dirname, '../../../shared/corpus/l10n');

async function runOn(project: string, config: unknown = {}) {
  const ws = await treeWorkspace(join(CORPUS, project), 'all');
  const result = await runGate({ gate: hardcodedStringsGate, config: configSchema.parse(config), timeoutMs: 60_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache' });
  return { ws, result };
}

const ABOUT = 'ui/preferences/src/main/res/xml/preferences_about.xml';

describe('hardcoded-strings on the l10n corpus', () => {
  it('AntennaPod: reads its 117 layouts, 28 menus and 22 preference screens', async () => {
    const ws = await treeWorkspace(join(CORPUS, 'AntennaPod__AntennaPod'), 'all');
    const inputs = selectInputs(await ws.targets(), configSchema.parse({}));
    const count = (re: RegExp) => inputs.filter((p) => re.test(p)).length;
    expect(count(/\/res\/layout[^/]*\//)).toBe(117);
    expect(count(/\/res\/menu[^/]*\//)).toBe(28);
    expect(count(/\/res\/xml[^/]*\//)).toBe(22);
    expect(inputs).toHaveLength(167);
  });

  it('AntennaPod: only the two letter-bearing literals outside tools: are reported (88 tools:text are not)', async () => {
    const { result: r } = await runOn('AntennaPod__AntennaPod');
    expect(r.verdict).toBe('fail');
    expect(r.counts).toEqual({ files: 167, items: 2, filtered: 0, suppressed: 0, findings: 2 });
    expect(r.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.rule}`)).toEqual([`${ABOUT}:11:29 hardcoded-text`, `${ABOUT}:20:29 hardcoded-text`]);
    expect(r.findings.map((f) => f.message)).toEqual([
      'hard-coded text "1.7.2 (asd8qs)" in android:summary; move it to the string catalog',
      'hard-coded text "www.antennapod.org/privacy" in android:summary; move it to the string catalog',
    ]);
    expect(r.notes).toEqual([]);
  });

  it('AntennaPod: an allow-list for version strings and URLs passes it, counted as filtered', async () => {
    const { result: r } = await runOn('AntennaPod__AntennaPod', { allow: ['^\\d+(\\.\\d+)+ \\(\\w+\\)$', '^(https?://)?[\\w.-]+\\.[a-z]{2,}(/\\S*)?$'] });
    expect(r.verdict).toBe('pass');
    expect(r.counts).toEqual({ files: 167, items: 2, filtered: 2, suppressed: 0, findings: 0 });
    expect(r.notes).toEqual(['the allow-list (/^\\d+(\\.\\d+)+ \\(\\w+\\)$/, /^(https?://)?[\\w.-]+\\.[a-z]{2,}(/\\S*)?$/) removed every candidate (2 of 2) between its entries']);
  });

  it('AntennaPod: a catch-all allow entry is named as blinding the gate', async () => {
    const { result: r } = await runOn('AntennaPod__AntennaPod', { allow: ['.'] });
    expect(r.verdict).toBe('pass');
    expect(r.notes).toEqual(['allow-list entry /./ matches every candidate (2 of 2): the gate saw no text it could judge']);
  });

  for (const project of ['Dimillian__IceCubesApp', 'mastodon__mastodon-ios', 'lichess-org__mobile', 'Chia-Network__chia-blockchain-gui']) {
    it(`${project}: no layout or source file to read, so --all is vacuous, not a pass`, async () => {
      const { result: r } = await runOn(project);
      expect(r.verdict).toBe('vacuous');
      expect(r.counts.files).toBe(0);
    });
  }
});
