// Gate-level behaviour of hardcoded-strings: counts in every verdict, allow-list and suppression accounting, the
// blind-filter notes, suggestions from the base catalog, exclusions and unparsable inputs.
import { commandGateKind } from '../../gates/command/index.js';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../core/config.js';
import { ConfigError } from '../../core/errors.js';
import { runGate } from '../../core/runner.js';
import { memoryWorkspace } from '../../core/workspace.js';
import { configSchema, hardcodedStringsGate, selectInputs } from '../../gates/hardcoded-strings/index.js';

const LAYOUT = `<?xml version="1.0" encoding="utf-8"?>
<LinearLayout xmlns:android="http://schemas.android.com/apk/res/android"
    xmlns:tools="http://schemas.android.com/tools">
    <ImageButton android:contentDescription="Play" />
    <TextView android:text="Episode 12" tools:text="Sample" />
    <!-- loopgates-ignore hardcoded-strings: version string shown as is -->
    <TextView android:text="v1.0 beta" />
    <TextView android:text="OK" tools:ignore="HardcodedText" />
    <TextView android:text="@string/title" />
</LinearLayout>
`;
const STRINGS = `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="play_label">Play</string>
    <string name="title">Title</string>
</resources>
`;

async function run(files: Record<string, string>, config: unknown = {}, targets?: string[], mode: 'staged' | 'all' = 'staged') {
  const ws = memoryWorkspace({ files, mode, ...(targets ? { targets } : {}) });
  return runGate({ gate: hardcodedStringsGate, config: configSchema.parse(config), timeoutMs: 30_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache' });
}

describe('hardcoded-strings gate', () => {
  it('defaults come from the schema and are accepted by loopgates.yaml loading', () => {
    const d = configSchema.parse({});
    expect(d.allow).toEqual([]);
    expect(d.attributes.android).toContain('android:contentDescription');
    expect(d.exclude).toContain('**/src/test/**');
    expect(() => configSchema.parse({ allow: ['('] })).toThrow(/not a valid regular expression/);
    expect(() => configSchema.parse({ nope: 1 })).toThrow();
    expect(() => configSchema.parse({ attributes: { android: [], jsx: ['title'], typo: [] } })).toThrow();
  });

  it('default excludes: test source sets, Xcode/SwiftPM test targets and stories, not folders that only start like them', async () => {
    const d = configSchema.parse({});
    const excluded = ['app/src/test/java/A.kt', 'app/src/testDebug/A.kt', 'app/src/testFixtures/A.kt', 'app/src/androidTest/A.kt', 'app/src/androidTestDebug/A.kt', 'AppTests/X.swift', 'App/AppUITests/X.swift', 'Tests/FooTests/X.swift', 'src/Latest.story.tsx', 'src/Latest.stories.tsx', 'src/__tests__/a.tsx', 'src/a.test.tsx'];
    const judged = ['src/testimonials/Screen.tsx', 'src/features/ABTests/Screen.tsx', 'app/src/testflight/Screen.tsx', 'app/src/main/java/Test.kt'];
    expect(selectInputs([...excluded, ...judged], d)).toEqual(judged);
    // Red before: src/test*/ and *Tests/ took these for tests, so the literal in them was never judged.
    const r = await run({ 'src/testimonials/Screen.tsx': 'export const S = () => <Text>Visible words</Text>;\n' });
    expect(r.verdict).toBe('fail');
    expect(r.findings.map((f) => `${f.file}:${f.line}`)).toEqual(['src/testimonials/Screen.tsx:1']);
  });

  it('is configured from loopgates.yaml, and a bad allow entry is a config error with its line', () => {
    const yaml = 'version: 1\ngates:\n  hardcoded-strings:\n    allow:\n      - "^v\\\\d+"\n    exclude: ["**/debug/**"]\n';
    const g = parseConfig(yaml, 'loopgates.yaml', { gates: [hardcodedStringsGate], commands: commandGateKind }).find((x) => x.gate.id === 'hardcoded-strings')!;
    expect(g.settings.config).toMatchObject({ allow: ['^v\\d+'], exclude: ['**/debug/**'] });
    let err: unknown;
    try {
      parseConfig('version: 1\ngates:\n  hardcoded-strings:\n    allow:\n      - "("\n', 'loopgates.yaml', { gates: [hardcodedStringsGate], commands: commandGateKind });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems.map((p) => `${p.line} ${p.path}`)).toEqual(['5 gates.hardcoded-strings.allow[0]']);
  });

  it('reports candidates, suppressed and findings, with the key to use from the base catalog', async () => {
    const layout = 'app/src/main/res/layout/player.xml';
    const r = await run({ [layout]: LAYOUT, 'app/src/main/res/values/strings.xml': STRINGS }, {}, [layout]);
    expect(r.verdict).toBe('fail');
    expect(r.itemUnit).toBe('strings');
    expect(r.counts).toEqual({ files: 1, items: 4, filtered: 0, suppressed: 2, findings: 2 });
    expect(r.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.rule}`)).toEqual([`${layout}:4:45 hardcoded-text`, `${layout}:5:28 hardcoded-text`]);
    expect(r.findings[0]!.message).toBe(
      'hard-coded text "Play" in android:contentDescription; the base catalog app/src/main/res/values/strings.xml already has it: use @string/play_label',
    );
    expect(r.findings[1]!.message).toBe('hard-coded text "Episode 12" in android:text; move it to the string catalog');
    // The layout's @string/title is defined in values/strings.xml.
    expect(r.notes).toEqual(["1 Android resource reference (R.string.x, @string/x) was looked up in the repository's res/values*/ files"]);
  });

  it('fails on an escaped reference (the app shows "@string/nope" as text) and passes the same layout unescaped', async () => {
    const layout = 'app/src/main/res/layout/escaped.xml';
    const body = (v: string) => `<LinearLayout xmlns:android="http://schemas.android.com/apk/res/android"\n    xmlns:app="http://schemas.android.com/apk/res-auto">\n    <TextView android:text="${v}@string/title" android:hint="${v}?attr/hint" />\n    <Toolbar app:title="${v}@string/title" />\n</LinearLayout>\n`;
    const red = await run({ [layout]: body('\\'), 'app/src/main/res/values/strings.xml': STRINGS }, {}, [layout]);
    expect(red.verdict).toBe('fail');
    expect(red.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.rule}`)).toEqual([
      `${layout}:3:28 hardcoded-text`,
      `${layout}:3:58 hardcoded-text`,
      `${layout}:4:24 hardcoded-text`,
    ]);
    expect(red.findings.map((f) => f.message.split(';')[0])).toEqual([
      'hard-coded text "\\\\@string/title" in android:text',
      'hard-coded text "\\\\?attr/hint" in android:hint',
      'hard-coded text "\\\\@string/title" in app:title',
    ]);
    const green = await run({ [layout]: body(''), 'app/src/main/res/values/strings.xml': STRINGS }, {}, [layout]);
    expect(green.verdict).toBe('pass');
    expect(green.counts).toMatchObject({ files: 1, items: 0, findings: 0 });
  });

  it('suggests R.string in Kotlin for a literal that is a base value', async () => {
    const kt = 'app/src/main/java/a/Player.kt';
    const r = await run({ [kt]: 'fun bind(v: View) {\n    v.contentDescription = "Play"\n}\n', 'app/src/main/res/values/strings.xml': STRINGS }, {}, [kt]);
    expect(r.findings.map((f) => `${f.line}:${f.column} ${f.message}`)).toEqual([
      '2:28 hard-coded text "Play" in contentDescription = …; the base catalog app/src/main/res/values/strings.xml already has it: use R.string.play_label',
    ]);
  });

  it('counts allow-listed literals as filtered and names an allow entry that removed every candidate', async () => {
    const layout = 'res/layout/a.xml';
    const partial = await run({ [layout]: LAYOUT }, { allow: ['^Episode \\d+$'] });
    expect(partial.counts).toMatchObject({ items: 4, filtered: 1, suppressed: 2, findings: 1 });
    expect(partial.notes).toEqual(['no Android res/values*/ file in the repository: 1 resource reference was not looked up']);
    const blind = await run({ [layout]: LAYOUT }, { allow: ['^Episode', '.*'] });
    expect(blind.verdict).toBe('pass');
    expect(blind.counts).toMatchObject({ files: 1, items: 4, filtered: 4, suppressed: 0, findings: 0 });
    expect(blind.notes).toEqual(['no Android res/values*/ file in the repository: 1 resource reference was not looked up', 'allow-list entry /.*/ matches every candidate (4 of 4): the gate saw no text it could judge']);
    const between = await run({ [layout]: LAYOUT }, { allow: ['^Episode', '^(Play|OK)$', 'beta'] });
    expect(between.counts).toMatchObject({ items: 4, filtered: 4, findings: 0 });
    expect(between.notes).toEqual(['no Android res/values*/ file in the repository: 1 resource reference was not looked up', 'the allow-list (/^Episode/, /^(Play|OK)$/, /beta/) removed every candidate (4 of 4) between its entries']);
  });

  it('names a single allow entry that matches everything', async () => {
    const r = await run({ 'res/layout/a.xml': LAYOUT }, { allow: ['[\\s\\S]*'] });
    expect(r.verdict).toBe('pass');
    expect(r.counts).toMatchObject({ items: 4, filtered: 4, findings: 0 });
    expect(r.notes).toEqual(['no Android res/values*/ file in the repository: 1 resource reference was not looked up', 'allow-list entry /[\\s\\S]*/ matches every candidate (4 of 4): the gate saw no text it could judge']);
  });

  it('notes an attribute list emptied by config', async () => {
    const r = await run({ 'res/layout/a.xml': LAYOUT }, { attributes: { android: [] } });
    expect(r.verdict).toBe('pass');
    expect(r.counts).toMatchObject({ files: 1, items: 0 });
    expect(r.notes).toEqual(['no Android res/values*/ file in the repository: 1 resource reference was not looked up', 'gates.hardcoded-strings.attributes.android is empty: that filter removes every candidate of its kind']);
  });

  it('selects inputs by include/exclude and extension', () => {
    const d = configSchema.parse({});
    expect(
      selectInputs(
        [
          'app/src/main/res/layout/a.xml',
          'app/src/main/res/values/strings.xml',
          'app/src/main/res/drawable/x.xml',
          'app/src/main/AndroidManifest.xml',
          'app/src/test/java/A.kt',
          'app/src/main/java/A.kt',
          'App/AppTests/ATests.swift',
          'App/A.swift',
          'node_modules/x/index.js',
          'src/A.test.tsx',
          'src/A.tsx',
          'README.md',
        ],
        d,
      ),
    ).toEqual(['app/src/main/res/layout/a.xml', 'app/src/main/AndroidManifest.xml', 'app/src/main/java/A.kt', 'App/A.swift', 'src/A.tsx']);
    expect(selectInputs(['src/A.tsx'], configSchema.parse({ exclude: ['src/**'] }))).toEqual([]);
  });

  it('skips a commit that stages nothing it reads; a blanket exclude is an error naming it, staged and --all', async () => {
    expect((await run({ 'README.md': 'x' })).verdict).toBe('skip');
    // Was vacuous in --all and a quiet skip in the hook (a fresh user's `exclude: ["**"]` let a hard-coded "Play" in).
    const blanket = 'gates.hardcoded-strings.exclude[1] "**" excludes every file this gate could read (layouts, Kotlin, Java, Swift, JSX): it can never find a hard-coded string';
    for (const mode of ['staged', 'all'] as const) {
      const r = await run({ 'src/A.tsx': '<Text>Hi</Text>' }, { exclude: ['**/generated/**', '**'] }, undefined, mode);
      expect([r.verdict, r.error?.message, r.error?.fix]).toEqual(['error', blanket, 'narrow gates.hardcoded-strings.exclude[1] in loopgates.yaml, or turn the gate off out loud: gates.hardcoded-strings.enabled: false']);
    }
    // A narrow exclude that happens to cover this commit's files is a skip, not an error (tests only, generated code).
    const tests = await run({ 'app/src/test/java/ATest.kt': 'val s = Text("Hi")\n' });
    expect(tests.verdict).toBe('skip');
    expect((await run({ 'src/A.tsx': '<Text>Hi</Text>' }, { exclude: ['src/**'] })).verdict).toBe('skip');
  });

  it('fails on malformed XML instead of passing blind', async () => {
    const r = await run({ 'res/layout/bad.xml': '<LinearLayout>\n  <TextView>\n</LinearLayout>\n' });
    expect(r.verdict).toBe('fail');
    expect(r.findings.map((f) => f.rule)).toEqual(['unparsable']);
    expect(r.counts.files).toBe(1);
  });

  it('notes a source file with syntax errors and still judges the rest', async () => {
    const r = await run({ 'src/A.tsx': 'export const A = () => <Text>Hello</Text>;\nconst = = ;\n' });
    expect(r.findings.map((f) => `${f.line}:${f.column}`)).toEqual(['1:30']);
    expect(r.notes).toHaveLength(1);
    expect(r.notes[0]).toMatch(/^src\/A\.tsx:2:\d+: \d+ syntax error\(s\) recovered/);
  });

  it('reports a reasonless suppression and does not let it suppress', async () => {
    const r = await run({ 'src/A.tsx': 'export const A = () => (\n  <View>\n    {/* loopgates-ignore hardcoded-strings */}\n    <Text>Hello</Text>\n  </View>\n);\n' });
    expect(r.findings.map((f) => `${f.line} ${f.rule}`)).toEqual(['3 suppression-without-reason', '4 hardcoded-text']);
    expect(r.counts).toMatchObject({ items: 1, suppressed: 0, findings: 2 });
  });

  it('judges SwiftUI keys against .strings catalogs too, with specifiers folded', async () => {
    const swift = 'App/V.swift';
    const files = {
      [swift]: 'struct V: View {\n  var body: some View {\n    Text("welcome.title")\n    Text("Hello \\(name)")\n    Text("Missing key")\n  }\n}\n',
      'App/Base.lproj/Localizable.strings': '"welcome.title" = "Welcome";\n"Hello %@" = "Hello %@";\n',
      'App/de.lproj/Localizable.strings': '"welcome.title" = "Willkommen";\n"Hello %@" = "Hallo %@";\n',
    };
    const r = await run(files, {}, [swift]);
    expect(r.findings.map((f) => `${f.line}:${f.column} ${f.rule}`)).toEqual(['5:10 missing-catalog-key']);
    expect(r.counts).toMatchObject({ items: 3, findings: 1 });
  });

  describe('SwiftUI keys are looked up in their own string table', () => {
    // Apple, Text.init(_:tableName:bundle:comment:): "tableName: The name of the string table to search. If nil, use the
    // table in the Localizable.strings file"; a table is every <table>.strings / .stringsdict / .xcstrings of that name.
    const swift = 'App/SettingsView.swift';
    const view = (...lines: string[]) => `import SwiftUI\nstruct SettingsView: View {\n  let table: String\n  var body: some View {\n${lines.map((l) => `    ${l}\n`).join('')}  }\n}\n`;
    const STRINGSDICT = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>%lld songs</key>
  <dict>
    <key>NSStringLocalizedFormatKey</key>
    <string>%#@songs@</string>
    <key>songs</key>
    <dict>
      <key>NSStringFormatSpecTypeKey</key>
      <string>NSStringPluralRuleType</string>
      <key>NSStringFormatValueTypeKey</key>
      <string>lld</string>
      <key>one</key>
      <string>%lld song</string>
      <key>other</key>
      <string>%lld songs</string>
    </dict>
  </dict>
</dict>
</plist>
`;
    const xcstrings = (...keys: string[]) =>
      JSON.stringify({ sourceLanguage: 'en', version: '1.0', strings: Object.fromEntries(keys.map((k) => [k, { localizations: { en: { stringUnit: { state: 'translated', value: k } } } }])) });
    const catalogs = {
      'App/Base.lproj/Localizable.strings': '"Settings" = "Settings";\n',
      'App/de.lproj/Localizable.strings': '"Settings" = "Einstellungen";\n',
      'App/Base.lproj/InfoPlist.strings': '"Launch" = "Launch";\n',
      'App/Base.lproj/Preferences.strings': '"Sound" = "Sound";\n',
      'App/Base.lproj/Preferences.stringsdict': STRINGSDICT,
      'App/Resources/Widgets.xcstrings': xcstrings('Widget title'),
    };

    it('red: a key held only by another table is missing from the table searched, at the literal', async () => {
      const files = {
        [swift]: view(
          'Text("Settings", tableName: "Preferences")',
          'Text("Launch")',
          'Text(LocalizedStringKey("Sound"))',
          'Text(LocalizedStringKey("Settings"), tableName: "Widgets")',
          'Text("Widget title", tableName: "Widget")',
          'Text("Launch", tableName: "infoPlist")',
        ),
        ...catalogs,
      };
      const r = await run(files, {}, [swift]);
      expect(r.verdict).toBe('fail');
      expect(r.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.rule}`)).toEqual([
        `${swift}:5:10 missing-catalog-key`,
        `${swift}:6:10 missing-catalog-key`,
        `${swift}:7:29 missing-catalog-key`,
        `${swift}:8:29 missing-catalog-key`,
        `${swift}:9:10 missing-catalog-key`,
        // Table names are matched with their case (CFBundleCopyLocalizedString: "The case of the string must match
        // that of the file name, even on file systems … that are not case sensitive").
        `${swift}:10:10 missing-catalog-key`,
      ]);
      expect(r.findings.map((f) => f.message)).toEqual([
        'Text() key "Settings" is not in table `Preferences` (Preferences.strings / Preferences.stringsdict / Preferences.xcstrings), the only table it is looked up in at run time; table `Localizable` has it but is not searched, so it shows as written in every locale; add it to table `Preferences`',
        'Text() key "Launch" is not in table `Localizable` (Localizable.strings / Localizable.stringsdict / Localizable.xcstrings), the only table it is looked up in at run time (SwiftUI\'s default when no tableName: is given); table `InfoPlist` has it but is not searched, so it shows as written in every locale; add it to table `Localizable`',
        'Text(LocalizedStringKey()) key "Sound" is not in table `Localizable` (Localizable.strings / Localizable.stringsdict / Localizable.xcstrings), the only table it is looked up in at run time (SwiftUI\'s default when no tableName: is given); table `Preferences` has it but is not searched, so it shows as written in every locale; add it to table `Localizable`',
        'Text(LocalizedStringKey()) key "Settings" is not in table `Widgets` (Widgets.strings / Widgets.stringsdict / Widgets.xcstrings), the only table it is looked up in at run time; table `Localizable` has it but is not searched, so it shows as written in every locale; add it to table `Widgets`',
        'Text() key "Widget title" is not in table `Widget` (Widget.strings / Widget.stringsdict / Widget.xcstrings: the app has none of them), the only table it is looked up in at run time; table `Widgets` has it but is not searched, so it shows as written in every locale; add it to table `Widget`',
        'Text() key "Launch" is not in table `infoPlist` (infoPlist.strings / infoPlist.stringsdict / infoPlist.xcstrings: the app has none of them), the only table it is looked up in at run time; table `InfoPlist` has it but is not searched, so it shows as written in every locale; add it to table `infoPlist`',
      ]);
      expect(r.counts).toMatchObject({ files: 1, items: 6, findings: 6 });
    });

    it('green: a key in the table searched passes, .strings and .stringsdict of one name being one table', async () => {
      const files = {
        [swift]: view(
          'Text("Settings")',
          'Text("Settings", tableName: nil)',
          'Text("Settings", tableName: "Localizable")',
          'Text("Sound", tableName: "Preferences")',
          'Text("\\(count) songs", tableName: "Preferences")',
          'Text(LocalizedStringKey("Widget title"), tableName: "Widgets")',
          'Image(systemName: "play").accessibilityLabel(Text("Launch", tableName: "InfoPlist"))',
        ),
        ...catalogs,
      };
      const r = await run(files, {}, [swift]);
      expect(r.findings).toEqual([]);
      expect(r.verdict).toBe('pass');
      expect(r.counts).toMatchObject({ files: 1, items: 7, findings: 0 });
    });

    it('a tableName: that is not a literal is not guessed: any table holding the key passes, none fails as before', async () => {
      const files = { [swift]: view('Text("Launch", tableName: table)', 'Text("Nowhere", tableName: table)'), ...catalogs };
      const r = await run(files, {}, [swift]);
      expect(r.findings.map((f) => `${f.line}:${f.column} ${f.rule} ${f.message}`)).toEqual([
        '6:10 missing-catalog-key Text() key "Nowhere" is looked up at run time but no string catalog (.xcstrings / .strings) of the app holds it, so it shows as written in every locale; add it to the catalog',
      ]);
      expect(r.counts).toMatchObject({ items: 2, findings: 1 });
    });

    it('an app with no Apple catalog: every key is missing, whatever its table, with the message of before', async () => {
      const r = await run({ [swift]: view('Text("Settings", tableName: "Preferences")', 'Text(LocalizedStringKey("Sound"))') }, {}, [swift]);
      expect(r.findings.map((f) => `${f.line}:${f.column} ${f.message}`)).toEqual([
        '5:10 Text() key "Settings" is looked up at run time but the app has no string catalog (.xcstrings / .strings), so it shows as written in every locale; add it to the catalog',
        '6:29 Text(LocalizedStringKey()) key "Sound" is looked up at run time but the app has no string catalog (.xcstrings / .strings), so it shows as written in every locale; add it to the catalog',
      ]);
    });
  });

  it('a long literal is cut on a character, never inside an emoji\'s surrogate pair (fresh6 F-NIT-1)', async () => {
    // 76 letters, then U+1F4A5 (two UTF-16 units at 76 and 77): a cut at 77 units kept half of it.
    const at77 = `${'a'.repeat(76)}💥 and more words after it`;
    const atEnd = 'Crash the app 💥';
    const kt = `package a\n\n@Composable\nfun S() {\n    Text("${at77}")\n    Text("${atEnd}")\n}\n`;
    const r = await run({ 'app/src/main/java/a/S.kt': kt }, {}, undefined, 'all');
    expect(r.findings.map((f) => f.message)).toEqual([
      `hard-coded text "${'a'.repeat(76)}💥..." in Text(); move it to the string catalog`,
      'hard-coded text "Crash the app 💥" in Text(); move it to the string catalog',
    ]);
  });
});
