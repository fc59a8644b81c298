// A plural translation whose count forms (`few`, `many`, `other`: chosen for many different counts) leave out an
// argument that the base's `other` form shows: every count then reads the same text without its number. Found by a
// new user as false greens (AntennaPod de `episode_cleanup_hours_after_listening`, lichess de ARB, IceCubesApp de
// `.xcstrings`, i18next `items_other`). `zero`, `one`, `two` and exact `=N` forms may still word their number.
import { describe, expect, it } from 'vitest';
import { memoryWorkspace } from '../../core/workspace.js';
import { runGate } from '../../core/runner.js';
import type { GateResult } from '../../core/types.js';
import { stringParityGate } from '../../gates/string-parity/index.js';
import { parseIcu } from '../../gates/string-parity/placeholders/icu.js';

const run = (files: Record<string, string>): Promise<GateResult> =>
  runGate({ gate: stringParityGate, config: stringParityGate.configSchema.parse({}), timeoutMs: 10_000 }, { ws: memoryWorkspace({ files, mode: 'all' }), cacheRoot: '/tmp/loopgates-test-cache' });
const errors = (r: GateResult) => r.findings.filter((f) => f.severity === 'error').map((f) => `${f.file}:${f.line}:${f.column} ${f.rule}`);
const messages = (r: GateResult) => r.findings.filter((f) => f.severity === 'error').map((f) => f.message);

describe('Android <plurals>', () => {
  const xml = (...entries: string[]) => `<resources>\n${entries.map((e) => `    ${e}\n`).join('')}</resources>\n`;
  const plurals = (name: string, items: Record<string, string>) => `<plurals name="${name}">\n${Object.entries(items).map(([q, t]) => `        <item quantity="${q}">${t}</item>\n`).join('')}    </plurals>`;
  const base = xml(plurals('hours', { one: '%d hour after finishing', other: '%d hours after finishing' }), plurals('in_feed', { one: '%1$d episode in %2$s', other: '%1$d episodes in %2$s' }));
  const files = (de: string, extra: Record<string, string> = {}) => ({ 'res/values/strings.xml': base, 'res/values-de/strings.xml': de, ...extra });
  const deOk = xml(plurals('hours', { one: 'Eine Stunde nach dem Anhören', other: '%d Stunden nach dem Anhören' }), plurals('in_feed', { one: 'Eine Folge in %2$s', other: '%1$d Folgen in %2$s' }));

  it('red: %d removed from both items (the AntennaPod case) is one error at the other item', async () => {
    const de = xml(plurals('hours', { one: 'Stunde nach dem Anhören', other: 'Stunden nach dem Anhören' }), plurals('in_feed', { one: 'Eine Folge in %2$s', other: '%1$d Folgen in %2$s' }));
    const r = await run(files(de));
    expect(r.verdict).toBe('fail');
    expect(errors(r)).toEqual(['res/values-de/strings.xml:4:9 placeholder-mismatch']);
    expect(messages(r)).toEqual([
      "de `hours` [other]: drops %d (argument #1), which the base's other form shows: this form is used for counts such as 0, 2, 3, and users would read it without that value: base has %d, translation has none",
    ]);
  });
  it('red: the count dropped from other while %2$s stays', async () => {
    const r = await run(files(xml(plurals('hours', { one: '%d Stunde', other: '%d Stunden' }), plurals('in_feed', { one: '%1$d Folge in %2$s', other: 'Folgen in %2$s' }))));
    expect(errors(r)).toEqual(['res/values-de/strings.xml:8:9 placeholder-mismatch']);
    expect(messages(r)[0]).toMatch(/^de `in_feed` \[other\]: drops %1\$d \(argument #1\), which the base's other form shows/);
  });
  it('red: Polish few and many without %d (each shown for many integers) are one error each', async () => {
    const pl = xml(plurals('hours', { one: 'godzina', few: 'godziny', many: 'godzin', other: '%d godziny' }), plurals('in_feed', { one: '%1$d odcinek w %2$s', few: '%1$d odcinki w %2$s', many: '%1$d odcinków w %2$s', other: '%1$d odcinka w %2$s' }));
    const r = await run(files(deOk, { 'res/values-pl/strings.xml': pl }));
    expect(errors(r)).toEqual(['res/values-pl/strings.xml:4:9 placeholder-mismatch', 'res/values-pl/strings.xml:5:9 placeholder-mismatch']);
    expect(messages(r)[0]).toMatch(/^pl `hours` \[few\]: drops %d \(argument #1\).* used for counts such as 2, 3, 4,/);
    expect(messages(r)[1]).toMatch(/^pl `hours` \[many\]: drops %d \(argument #1\).* used for counts such as 0, 5, 6,/);
  });
  it('green: `one` that words its number ("Eine Stunde", no %d) passes, as before', async () => {
    const r = await run(files(deOk));
    expect(r.findings).toEqual([]);
    expect(r.verdict).toBe('pass');
  });
  it('green: a base whose other form shows no number asks nothing of the translation', async () => {
    const b = xml(plurals('hours', { one: 'An hour', other: 'Some hours' }));
    const r = await run({ 'res/values/strings.xml': b, 'res/values-de/strings.xml': xml(plurals('hours', { one: 'Eine Stunde', other: 'Einige Stunden' })) });
    expect(r.findings).toEqual([]);
  });
  it('green: Polish other, which only decimals select, never shows on Android (getQuantityString takes an int); Welsh few is only 3', async () => {
    const pl = xml(plurals('hours', { one: '%d godzina', few: '%d godziny', many: '%d godzin', other: 'godziny' }), plurals('in_feed', { one: '%1$d odcinek w %2$s', few: '%1$d odcinki w %2$s', many: '%1$d odcinków w %2$s', other: '%1$d odcinka w %2$s' }));
    const cy = xml(plurals('hours', { zero: 'dim awr', one: 'awr', two: 'dwy awr', few: 'tair awr', many: 'chwe awr', other: '%d awr' }), plurals('in_feed', { zero: '%1$d yn %2$s', one: '%1$d yn %2$s', two: '%1$d yn %2$s', few: '%1$d yn %2$s', many: '%1$d yn %2$s', other: '%1$d yn %2$s' }));
    const r = await run(files(deOk, { 'res/values-pl/strings.xml': pl, 'res/values-cy/strings.xml': cy }));
    expect(errors(r)).toEqual([]);
  });
});

describe('.xcstrings plural variations and substitutions', () => {
  const unit = (v: string) => `{ "stringUnit" : { "state" : "translated", "value" : "${v}" } }`;
  const pluralLoc = (one: string, other: string) => `{\n          "variations" : {\n            "plural" : {\n              "one" : ${unit(one)},\n              "other" : ${unit(other)}\n            }\n          }\n        }`;
  const xc = (de: string) => `{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "unread %lld" : {\n      "localizations" : {\n        "de" : ${de},\n        "en" : ${pluralLoc('%lld new post', '%lld new posts')}\n      }\n    }\n  },\n  "version" : "1.0"\n}\n`;
  const sub = (one: string, other: string) =>
    `{\n          "stringUnit" : { "state" : "translated", "value" : "%#@posts@" },\n          "substitutions" : {\n            "posts" : {\n              "argNum" : 1,\n              "formatSpecifier" : "lld",\n              "variations" : {\n                "plural" : {\n                  "one" : ${unit(one)},\n                  "other" : ${unit(other)}\n                }\n              }\n            }\n          }\n        }`;
  const xcSub = (de: string) => `{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "posts" : {\n      "localizations" : {\n        "de" : ${de},\n        "en" : ${sub('%arg post', '%arg posts')}\n      }\n    }\n  },\n  "version" : "1.0\"\n}\n`;

  it('red: de other `neue Beiträge` (the IceCubesApp case) is an error at the other variation', async () => {
    const r = await run({ 'App/Localizable.xcstrings': xc(pluralLoc('%lld neuer Beitrag', 'neue Beiträge')) });
    expect(errors(r)).toEqual(['App/Localizable.xcstrings:10:78 placeholder-mismatch']);
    expect(messages(r)[0]).toMatch(/^de `unread %lld` \[other\]: drops %lld \(argument #1\), which the base's other form shows/);
  });
  it('red: a substitution whose other variant drops %arg', async () => {
    const r = await run({ 'App/Localizable.xcstrings': xcSub(sub('Ein Beitrag', 'Beiträge')) });
    expect(errors(r)).toEqual(['App/Localizable.xcstrings:15:82 placeholder-mismatch']);
    expect(messages(r)[0]).toMatch(/^de `posts` %#@posts@ \[other\]: drops %1\$lld \(argument #1\), which the base's other form shows/);
  });
  it('green: `one` without the number, `other` with it', async () => {
    expect((await run({ 'App/Localizable.xcstrings': xc(pluralLoc('Ein neuer Beitrag', '%lld neue Beiträge')) })).findings).toEqual([]);
    expect((await run({ 'App/Localizable.xcstrings': xcSub(sub('Ein Beitrag', '%arg Beiträge')) })).findings).toEqual([]);
  });
  // IceCubesApp `account.label.followers %lld %@`: `%#@followers@` selects the variant by argument #1, whose other
  // variant shows `%2$@` (the count formatted by the app). Korean collapses the plural into one string.
  const followers = (ko: string) => `{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "followers %lld %@" : {\n      "localizations" : {\n        "en" : ${sub('%2$@ follower', '%2$@ followers')},\n        "ko" : ${unit(ko)}\n      }\n    }\n  },\n  "version" : "1.0"\n}\n`;
  it('green: a Korean string for a substitution plural that shows what the base other variant shows (`팔로워 %2$@명`)', async () => {
    expect((await run({ 'App/Localizable.xcstrings': followers('팔로워 %2$@명') })).findings).toEqual([]);
  });
  it('red and green: a Korean string for a plural-variations base (IceCubesApp `timeline-new-posts %lld` is `%lld개 새 글`)', async () => {
    const ko = (v: string) => xc(pluralLoc('%lld neuer Beitrag', '%lld neue Beiträge')).replace('"de" : ', `"ko" : ${unit(v)},\n        "de" : `);
    expect((await run({ 'App/Localizable.xcstrings': ko('%lld개 새 글') })).findings).toEqual([]);
    const r = await run({ 'App/Localizable.xcstrings': ko('새 글') });
    expect(errors(r)).toEqual(['App/Localizable.xcstrings:6:69 placeholder-mismatch']);
    expect(messages(r)[0]).toMatch(/^ko `unread %lld`: drops %lld \(argument #1\), which the base's other form shows: this form is used for counts such as 0, 1, 2/);
  });
  it('red: that Korean string without `%2$@`', async () => {
    const r = await run({ 'App/Localizable.xcstrings': followers('팔로워') });
    expect(errors(r)).toEqual(['App/Localizable.xcstrings:21:69 placeholder-mismatch']);
    expect(messages(r)[0]).toMatch(/^ko `followers %lld %@`: drops %2\$@ \(argument #2\), which the base's other form shows/);
  });
});

describe('.stringsdict variables', () => {
  const dict = (cats: Record<string, string>, format = '%#@files@') => `<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0">
<dict>
	<key>files.count</key>
	<dict>
		<key>NSStringLocalizedFormatKey</key>
		<string>${format}</string>
		<key>files</key>
		<dict>
			<key>NSStringFormatSpecTypeKey</key>
			<string>NSStringPluralRuleType</string>
			<key>NSStringFormatValueTypeKey</key>
			<string>ld</string>
${Object.entries(cats).map(([c, t]) => `			<key>${c}</key>\n			<string>${t}</string>`).join('\n')}
		</dict>
	</dict>
</dict>
</plist>
`;
  const base = { 'App/en.lproj/Localizable.stringsdict': dict({ one: '%ld file', other: '%ld files' }) };

  it('red: de other `Dateien` is an error at its <string>', async () => {
    const r = await run({ ...base, 'App/de.lproj/Localizable.stringsdict': dict({ one: 'Eine Datei', other: 'Dateien' }) });
    expect(errors(r)).toEqual(['App/de.lproj/Localizable.stringsdict:17:4 placeholder-mismatch']);
    expect(messages(r)[0]).toMatch(/^de `files.count` %#@files@ \[other\]: drops %ld \(argument #1\)/);
  });
  it('green: `one` without the number; a count the format shows beside the variable (`%ld %#@files@`)', async () => {
    expect((await run({ ...base, 'App/de.lproj/Localizable.stringsdict': dict({ one: 'Eine Datei', other: '%ld Dateien' }) })).findings).toEqual([]);
    const r = await run({ ...base, 'App/de.lproj/Localizable.stringsdict': dict({ one: 'Datei', other: 'Dateien' }, '%1$ld %#@files@') });
    expect(errors(r)).toEqual([]);
  });
});

describe('ICU plurals (ARB, ICU JSON, Lingui PO)', () => {
  const l10n = { 'l10n.yaml': 'arb-dir: lib/l10n\ntemplate-arb-file: app_en.arb\n' };
  const arb = (locale: string, text: string) => `{\n  "@@locale": "${locale}",\n  "since": "${text}"\n}\n`;
  const arbFiles = (de: string) => ({ ...l10n, 'lib/l10n/app_en.arb': arb('en', '{count, plural, =1{Member for {count} month} other{Member for {count} months}}'), 'lib/l10n/app_de.arb': arb('de', de) });

  it('red: {count} removed from both branches (the lichess case) is one error at the value', async () => {
    const r = await run(arbFiles('{count, plural, =1{Mitglied seit  Monat} other{Mitglied seit  Monaten}}'));
    expect(errors(r)).toEqual(['lib/l10n/app_de.arb:3:12 placeholder-mismatch']);
    expect(messages(r)).toEqual([
      "de `since` {count, plural} [other]: drops {count} (`#`), which the base's other option shows: this option is used for counts such as 0, 2, 3, and users would read it without that value",
    ]);
  });
  it('red: ICU JSON fr other without # ; Polish few and many without #', async () => {
    const en = '{\n  "items": "{count, plural, one {# item} other {# items}}"\n}\n';
    const r = await run({
      'src/lang/en.json': en,
      'src/lang/fr.json': '{\n  "items": "{count, plural, one {un article} other {articles}}"\n}\n',
      'src/lang/pl.json': '{\n  "items": "{count, plural, one {jeden} few {przedmioty} many {przedmiotów} other {# przedmiotu}}"\n}\n',
    });
    expect(errors(r)).toEqual(['src/lang/fr.json:2:12 placeholder-mismatch', 'src/lang/pl.json:2:12 placeholder-mismatch', 'src/lang/pl.json:2:12 placeholder-mismatch']);
    expect(messages(r).map((m) => m.split(':')[0])).toEqual(['fr `items` {count, plural} [other]', 'pl `items` {count, plural} [few]', 'pl `items` {count, plural} [many]']);
  });
  it('red: Lingui PO other that drops {0}', async () => {
    const po = (lang: string, msgstr: string) => `msgid ""\nmsgstr ""\n"Language: ${lang}\\n"\n\nmsgid "{0, plural, one {# coin} other {# coins}}"\nmsgstr "${msgstr}"\n`;
    const r = await run({ '.linguirc': '{ "locales": ["en", "de"], "sourceLocale": "en", "format": "po" }\n', 'src/locales/en/messages.po': po('en', '{0, plural, one {# coin} other {# coins}}'), 'src/locales/de/messages.po': po('de', '{0, plural, one {eine Münze} other {Münzen}}') });
    expect(errors(r)).toEqual(['src/locales/de/messages.po:6:1 placeholder-mismatch']);
  });
  it('green: =1 and one word their number; # or {count} in other; the count shown beside the plural', async () => {
    expect((await run(arbFiles('{count, plural, =1{Mitglied seit einem Monat} other{Mitglied seit {count} Monaten}}'))).findings).toEqual([]);
    expect((await run(arbFiles('{count, plural, =1{Mitglied seit einem Monat} other{Mitglied seit # Monaten}}'))).findings).toEqual([]);
    expect((await run(arbFiles('Mitglied seit {count} {count, plural, =1{Monat} other{Monaten}}'))).findings).toEqual([]);
  });
  it('green: the base shows the count as `#`, the translation as {count} inside the plural, or (ja) as {count} with no plural', async () => {
    // A second fresh user's false red: "{count} is used as a simple argument but the base uses it as plural".
    const en = '{\n  "files": "{count, plural, one {# file} other {# files}}"\n}\n';
    const r = await run({
      'src/lang/en.json': en,
      'src/lang/de.json': '{\n  "files": "{count, plural, one {Eine Datei} other {{count} Dateien}}"\n}\n',
      'src/lang/ja.json': '{\n  "files": "{count}件のファイル"\n}\n',
    });
    expect(r.findings).toEqual([]);
    expect((await run({ ...l10n, 'lib/l10n/app_en.arb': arb('en', '{count, plural, one{# file} other{# files}}'), 'lib/l10n/app_de.arb': arb('de', '{count, plural, one{Eine Datei} other{{count} Dateien}}') })).findings).toEqual([]);
  });
  it('red: a select keyword printed as a value ({gender} where the base selects on it) stays a mismatch', async () => {
    const r = await run({
      'src/lang/en.json': '{\n  "who": "{gender, select, male {He replied} other {They replied}}"\n}\n',
      'src/lang/de.json': '{\n  "who": "{gender} hat geantwortet"\n}\n',
    });
    expect(messages(r)).toEqual(['de `who`: {gender} is used as a simple argument but the base uses it as select']);
  });
  it('green: a base other that shows no count, and select `other` (no count form), ask nothing', async () => {
    const r = await run({
      'src/lang/en.json': '{\n  "coins": "{n, plural, one {coin} other {coins}}",\n  "who": "{g, select, male {He has {n}} other {They have {n}}}"\n}\n',
      'src/lang/de.json': '{\n  "coins": "{n, plural, one {Münze} other {Münzen}}",\n  "who": "{g, select, male {Er hat {n}} other {Sie haben {n}}}"\n}\n',
    });
    expect(r.findings).toEqual([]);
  });
  it('parseIcu: what each plural option shows and what is shown beside it', () => {
    const [name, plural] = parseIcu('{name}: {n, plural, one{# x} other{{g, select, m{# y} other{{n} z}}}}', true).args;
    expect(name).toMatchObject({ name: 'name', kind: 'simple' });
    // `#` inside a nested select is literal (ICU MessagePattern, formatjs); the select's own selector is not shown.
    expect(plural).toMatchObject({ name: 'n', kind: 'plural', options: ['one', 'other'], shown: [['n'], ['n']], alongside: ['name'] });
    expect(parseIcu('{n, plural, other{{g, select, m{# y} other{z}}}}', true).args[0]).toMatchObject({ shown: [[]], alongside: [] });
  });
});

describe('i18next', () => {
  const en = '{\n  "items_one": "{{count}} item",\n  "items_other": "{{count}} items"\n}\n';
  it('red: `items_other: Einträge` is an error at its value', async () => {
    const r = await run({ 'locales/en/common.json': en, 'locales/de/common.json': '{\n  "items_one": "Ein Eintrag",\n  "items_other": "Einträge"\n}\n' });
    expect(errors(r)).toEqual(['locales/de/common.json:3:18 placeholder-mismatch']);
    expect(messages(r)).toEqual([
      "de `items` [other]: interpolations differ: drops {{count}}, which the base's _other form shows: this form is used for counts such as 0, 2, 3, and users would read it without that value",
    ]);
  });
  it('red: a translated plural of a string base whose _other drops {{count}}', async () => {
    const r = await run({ 'locales/en/common.json': '{\n  "items": "{{count}} items"\n}\n', 'locales/de/common.json': '{\n  "items_one": "Ein Eintrag",\n  "items_other": "Einträge"\n}\n' });
    expect(errors(r)).toEqual(['locales/de/common.json:3:18 placeholder-mismatch']);
  });
  it('green: `items_one: Ein Eintrag` and `items_other: {{count}} Einträge`', async () => {
    const r = await run({ 'locales/en/common.json': en, 'locales/de/common.json': '{\n  "items_one": "Ein Eintrag",\n  "items_other": "{{count}} Einträge"\n}\n' });
    expect(r.findings).toEqual([]);
  });
});
