// hardcoded-strings over the real l10n corpus (../shared/corpus/l10n or LOOPGATES_CORPUS, read-only), in --all mode
// on the folder: exact findings and counts, so any change of behaviour shows. The corpus holds resource XML and
// catalogs only (no source code); Kotlin/Java/Swift/JSX behaviour is covered by the unit tests' fixtures, and SwiftUI
// key lookup by a small in-memory view judged against the real Apple catalogs of mastodon-ios and IceCubesApp.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import { treeWorkspace } from '../../core/snapshot.js';
import { memoryWorkspace } from '../../core/workspace.js';
import { configSchema, hardcodedStringsGate, selectInputs } from '../../gates/hardcoded-strings/index.js';
import { l10nProject } from '../helpers/corpus.js';


async function runOn(project: string, config: unknown = {}) {
  const ws = await treeWorkspace(l10nProject(project), 'all');
  const result = await runGate({ gate: hardcodedStringsGate, config: configSchema.parse(config), timeoutMs: 60_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache' });
  return { ws, result };
}

const ABOUT = 'ui/preferences/src/main/res/xml/preferences_about.xml';

// Every @string/@array name the corpus's layouts, menus and preference screens use is defined in its values files,
// but for three that androidx / Material define (appbar_scrolling_view_behavior...): no finding, three counted.
const ANTENNAPOD_REFERENCES = [
  "608 Android resource references (R.string.x, @string/x) were looked up in the repository's res/values*/ files",
  "3 references name resources no module defines, resolved against merged resources (XML, or a transitive R class) where a library may define them: not reported",
];

describe('hardcoded-strings on the l10n corpus', () => {
  it('AntennaPod: reads its 117 layouts, 28 menus and 22 preference screens', async () => {
    const ws = await treeWorkspace(l10nProject('AntennaPod__AntennaPod'), 'all');
    const inputs = selectInputs(await ws.targets(), configSchema.parse({}));
    const count = (re: RegExp) => inputs.filter((p) => re.test(p)).length;
    expect(count(/\/res\/layout[^/]*\//)).toBe(117);
    expect(count(/\/res\/menu[^/]*\//)).toBe(28);
    expect(count(/\/res\/xml[^/]*\//)).toBe(22);
    expect(inputs).toHaveLength(167);
  });

  it('AntennaPod: of the two letter-bearing literals outside tools: (88 tools:text are not read), the version is reported and the URL filtered', async () => {
    const { result: r } = await runOn('AntennaPod__AntennaPod');
    expect(r.verdict).toBe('fail');
    expect(r.counts).toEqual({ files: 167, items: 2, filtered: 1, suppressed: 0, findings: 1 });
    expect(r.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.rule}`)).toEqual([`${ABOUT}:11:29 hardcoded-text`]);
    expect(r.findings.map((f) => f.message)).toEqual(['hard-coded text "1.7.2 (asd8qs)" in android:summary; move it to the string catalog']);
    // "www.antennapod.org/privacy" (:20:29) is a URL, the same in every language.
    expect(r.notes).toEqual(['1 literal is only a URL, an e-mail address or a domain name (the same in every language): not judged', ...ANTENNAPOD_REFERENCES]);
  });

  it('AntennaPod: an allow-list for version strings and URLs passes it, counted as filtered', async () => {
    const { result: r } = await runOn('AntennaPod__AntennaPod', { allow: ['^\\d+(\\.\\d+)+ \\(\\w+\\)$', '^(https?://)?[\\w.-]+\\.[a-z]{2,}(/\\S*)?$'] });
    expect(r.verdict).toBe('pass');
    expect(r.counts).toEqual({ files: 167, items: 2, filtered: 2, suppressed: 0, findings: 0 });
    expect(r.notes).toEqual([...ANTENNAPOD_REFERENCES, 'the allow-list (/^\\d+(\\.\\d+)+ \\(\\w+\\)$/, /^(https?://)?[\\w.-]+\\.[a-z]{2,}(/\\S*)?$/) removed every candidate (2 of 2) between its entries']);
  });

  it('AntennaPod: a catch-all allow entry is named as blinding the gate', async () => {
    const { result: r } = await runOn('AntennaPod__AntennaPod', { allow: ['.'] });
    expect(r.verdict).toBe('pass');
    expect(r.notes).toEqual([...ANTENNAPOD_REFERENCES, 'allow-list entry /./ matches every candidate (2 of 2): the gate saw no text it could judge']);
  });

  // The corpus has no Swift source: a SwiftUI view is added in memory beside a project's real catalogs, each key
  // checked by hand in those files (Base/en .strings, .stringsdict, Localizable.xcstrings).
  async function swiftOn(project: string, lines: string[]) {
    const dir = l10nProject(project);
    const files: Record<string, Buffer | string> = {};
    const read = (rel: string): void => {
      for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
        const path = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) read(path);
        else if (e.isFile()) files[path] = readFileSync(join(dir, path));
      }
    };
    read('');
    const swift = 'App/Views/CorpusView.swift';
    files[swift] = `import SwiftUI\nstruct CorpusView: View {\n  var body: some View {\n${lines.map((l) => `    ${l}\n`).join('')}  }\n}\n`;
    const ws = memoryWorkspace({ files, targets: [swift] });
    const r = await runGate({ gate: hardcodedStringsGate, config: configSchema.parse({}), timeoutMs: 60_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache' });
    return r.findings.map((f) => `${f.line}:${f.column} ${f.message.replace(/, so it shows as written.*$/u, '')}`);
  }

  it('mastodon-ios catalogs: a SwiftUI key passes only in the table it is looked up in', async () => {
    const found = await swiftOn('mastodon__mastodon-ios', [
      'Text("Common.Alerts.BoostAPost.Boost")', // Base.lproj/Localizable.strings
      'Text("a11y.plural.count.input_limit_remains")', // Base.lproj/Localizable.stringsdict: the same table
      'Text("3d6HSO", tableName: "WidgetExtension")', // en.lproj/WidgetExtension.strings
      'Text("NSCameraUsageDescription")', // only Mastodon/Resources/Base.lproj/infoPlist.strings
      'Text("Common.Alerts.BoostAPost.Boost", tableName: "Intents")', // Intents.strings/.stringsdict hold ids such as 16wxgf
    ]);
    expect(found).toEqual([
      '7:10 Text() key "NSCameraUsageDescription" is not in table `Localizable` (Localizable.strings / Localizable.stringsdict / Localizable.xcstrings), the only table it is looked up in at run time (SwiftUI\'s default when no tableName: is given); table `infoPlist` has it but is not searched',
      '8:10 Text() key "Common.Alerts.BoostAPost.Boost" is not in table `Intents` (Intents.strings / Intents.stringsdict / Intents.xcstrings), the only table it is looked up in at run time; table `Localizable` has it but is not searched',
    ]);
  });

  it('IceCubesApp catalogs: Localizable.xcstrings is table Localizable, InfoPlist.strings table InfoPlist', async () => {
    const found = await swiftOn('Dimillian__IceCubesApp', [
      'Text("settings.about.title")', // Localizable.xcstrings
      'Text("CFBundleDisplayName", tableName: "InfoPlist")', // IceCubesActionExtension/en.lproj/InfoPlist.strings
      'Text("CFBundleDisplayName")',
      'Text("settings.about.title", tableName: "Settings")',
    ]);
    expect(found).toEqual([
      '6:10 Text() key "CFBundleDisplayName" is not in table `Localizable` (Localizable.strings / Localizable.stringsdict / Localizable.xcstrings), the only table it is looked up in at run time (SwiftUI\'s default when no tableName: is given); table `InfoPlist` has it but is not searched',
      '7:10 Text() key "settings.about.title" is not in table `Settings` (Settings.strings / Settings.stringsdict / Settings.xcstrings: the app has none of them), the only table it is looked up in at run time; table `Localizable` has it but is not searched',
    ]);
  });

  for (const project of ['Dimillian__IceCubesApp', 'mastodon__mastodon-ios', 'lichess-org__mobile', 'Chia-Network__chia-blockchain-gui']) {
    it(`${project}: no layout or source file to read, so --all is vacuous, not a pass`, async () => {
      const { result: r } = await runOn(project);
      expect(r.verdict).toBe('vacuous');
      expect(r.counts.files).toBe(0);
    });
  }
});
