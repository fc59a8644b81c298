// Empty plural forms passed (issue 15, item 4): an empty `<item quantity="other"/>`, an ICU/ARB `one {}`, an empty
// `.xcstrings` / `.stringsdict` variation gave 0 findings, or a misleading "drops %d". Now each is `empty-value`, at
// the form, in its own words; a plain empty string keeps its one finding. Shapes from AntennaPod, lichess, IceCubesApp
// and mastodon-ios (../shared/corpus/l10n).
import { describe, expect, it } from 'vitest';
import { memoryWorkspace } from '../../core/workspace.js';
import { runGate } from '../../core/runner.js';
import type { GateResult } from '../../core/types.js';
import { stringParityGate } from '../../gates/string-parity/index.js';

const run = (files: Record<string, string>): Promise<GateResult> =>
  runGate({ gate: stringParityGate, config: stringParityGate.configSchema.parse({}), timeoutMs: 10_000 }, { ws: memoryWorkspace({ files, mode: 'all' }), cacheRoot: '/tmp/loopgates-test-cache' });
const lines = (r: GateResult) => r.findings.map((f) => `${f.file}:${f.line} ${f.rule}/${f.severity}`);
const xml = (...entries: string[]) => `<?xml version="1.0" encoding="utf-8"?>\n<resources>\n${entries.map((e) => `    ${e}\n`).join('')}</resources>\n`;
const plurals = (one: string, other: string) => `<plurals name="total_size_downloaded_podcasts">\n        <item quantity="one">${one}</item>\n        ${other === '' ? '<item quantity="other"/>' : `<item quantity="other">${other}</item>`}\n    </plurals>`;

describe('empty plural forms', () => {
  const base = xml(plurals('Total size of %d episode on the device', 'Total size of %d episodes on the device'));
  it('red: Android <item quantity="other"/> in values-de is empty-value at the item, not "drops %d" (was 0 findings)', async () => {
    const r = await run({ 'res/values/strings.xml': base, 'res/values-de/strings.xml': xml(plurals('Gesamtgröße von %d Episode', '')) });
    expect([r.verdict, ...lines(r)]).toEqual(['pass', 'res/values-de/strings.xml:5 empty-value/warning']);
    expect(r.findings[0]!.message).toBe('de `total_size_downloaded_podcasts` plural form other is empty while the base has text (users see a blank for counts such as 0, 2, 3)');
  });
  it('green: both forms translated pass; an empty plain string keeps its own finding', async () => {
    const ok = await run({ 'res/values/strings.xml': base, 'res/values-de/strings.xml': xml(plurals('Gesamtgröße von %d Episode', 'Gesamtgröße von %d Episoden')) });
    expect([ok.verdict, ...lines(ok)]).toEqual(['pass']);
    const s = await run({ 'res/values/strings.xml': xml('<string name="drawer_open">Open menu</string>'), 'res/values-de/strings.xml': xml('<string name="drawer_open"></string>') });
    expect(lines(s)).toEqual(['res/values-de/strings.xml:3 empty-value/warning']);
  });
  it('red: an ARB option `other{}` (lichess shape) is empty-value, not a dropped {count} error', async () => {
    const en = JSON.stringify({ '@@locale': 'en', activitySolvedNbPuzzles: '{count, plural, =1{Solved {count} training puzzle} other{Solved {count} training puzzles}}', '@activitySolvedNbPuzzles': { placeholders: { count: { type: 'int' } } } }, null, 2);
    const de = JSON.stringify({ '@@locale': 'de', activitySolvedNbPuzzles: '{count, plural, =1{{count} Trainingsaufgabe gelöst} other{}}' }, null, 2);
    const r = await run({ 'l10n.yaml': 'arb-dir: lib/l10n\ntemplate-arb-file: app_en.arb\n', 'lib/l10n/app_en.arb': en, 'lib/l10n/app_de.arb': de });
    expect([r.verdict, ...lines(r)]).toEqual(['pass', 'lib/l10n/app_de.arb:3 empty-value/warning']);
    expect(r.findings[0]!.message).toBe('de `activitySolvedNbPuzzles` {count, plural} option other is empty while the base has text (users see a blank for counts such as 0, 2, 3)');
  });
  it('red: an empty .xcstrings plural variation (IceCubesApp shape) is empty-value at its value', async () => {
    const unit = (v: string) => ({ stringUnit: { state: 'translated', value: v } });
    const cat = (deOther: string) => JSON.stringify({ sourceLanguage: 'en', version: '1.0', strings: { 'accessibility.tabs.timeline.unread-posts.label-%lld': { localizations: { en: { variations: { plural: { one: unit('%lld new post'), other: unit('%lld new posts') } } }, de: { variations: { plural: { one: unit('%lld neuer Beitrag'), other: unit(deOther) } } } } } } }, null, 2);
    const r = await run({ 'App/Localizable.xcstrings': cat('') });
    expect(lines(r)).toEqual([expect.stringMatching(/^App\/Localizable\.xcstrings:\d+ empty-value\/warning$/)]);
    expect(r.findings[0]!.message).toContain('de `accessibility.tabs.timeline.unread-posts.label-%lld` plural form other is empty');
    const ok = await run({ 'App/Localizable.xcstrings': cat('%lld neue Beiträge') });
    expect([ok.verdict, ...lines(ok)]).toEqual(['pass']);
  });
  it('red: an empty .stringsdict variable form (mastodon-ios shape) is empty-value at the form', async () => {
    const dict = (one: string, other: string) => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>plural.count.post</key>
	<dict>
		<key>NSStringLocalizedFormatKey</key>
		<string>%#@post_count@</string>
		<key>post_count</key>
		<dict>
			<key>NSStringFormatSpecTypeKey</key>
			<string>NSStringPluralRuleType</string>
			<key>NSStringFormatValueTypeKey</key>
			<string>ld</string>
			<key>one</key>
			<string>${one}</string>
			<key>other</key>
			<string>${other}</string>
		</dict>
	</dict>
</dict>
</plist>
`;
    const r = await run({ 'App/en.lproj/Localizable.stringsdict': dict('1 post', '%ld posts'), 'App/de.lproj/Localizable.stringsdict': dict('1 Beitrag', '') });
    expect([r.verdict, ...lines(r)]).toEqual(['pass', 'App/de.lproj/Localizable.stringsdict:18 empty-value/warning']);
    expect(r.findings[0]!.message).toBe('de `plural.count.post` %#@post_count@ plural form other is empty while the base has text (users see a blank for counts such as 0, 2, 3)');
  });
});

// Item 14: react-intl treats "" as missing and shows the default message; 331 of 763 errors on one real app's
// catalogs were such empties reported as placeholder errors.
describe('empty FormatJS / react-intl messages', () => {
  const en = JSON.stringify({ 'checkout.total': 'Total: {amount, number, ::currency/EUR}', 'checkout.items': '{count, plural, one {# item} other {# items}}', 'checkout.title': 'Checkout' }, null, 2);
  it('red: an empty de message is one missing-key warning at its line, not placeholder-mismatch errors (was: error)', async () => {
    const de = JSON.stringify({ 'checkout.total': '', 'checkout.items': '{count, plural, one {# Artikel} other {# Artikel}}', 'checkout.title': '' }, null, 2);
    const r = await run({ 'src/lang/en.json': en, 'src/lang/de.json': de });
    expect([r.verdict, ...lines(r)]).toEqual(['pass', 'src/lang/de.json:2 missing-key/warning', 'src/lang/de.json:4 missing-key/warning']);
    expect(r.findings[0]!.message).toBe('de `checkout.total` is empty: react-intl treats an empty message as missing and shows the default (base) message, so de users read the base text');
  });
  it('green: translated messages pass; a dropped argument in a non-empty message stays an error', async () => {
    const ok = JSON.stringify({ 'checkout.total': 'Summe: {amount, number, ::currency/EUR}', 'checkout.items': '{count, plural, one {# Artikel} other {# Artikel}}', 'checkout.title': 'Kasse' }, null, 2);
    expect(lines(await run({ 'src/lang/en.json': en, 'src/lang/de.json': ok }))).toEqual([]);
    const bad = JSON.stringify({ 'checkout.total': 'Summe', 'checkout.items': '{count, plural, one {# Artikel} other {# Artikel}}', 'checkout.title': 'Kasse' }, null, 2);
    expect(lines(await run({ 'src/lang/en.json': en, 'src/lang/de.json': bad }))).toEqual(['src/lang/de.json:2 placeholder-mismatch/error']);
  });
  it('red: an empty i18next value is empty-value only, not also "{{appName}} of the base missing" (outline de_DE shape)', async () => {
    const en = '{\n  "Link your account in {{ appName }} settings to search from Slack": "Link your account in {{ appName }} settings to search from Slack"\n}\n';
    const de = '{\n  "Link your account in {{ appName }} settings to search from Slack": ""\n}\n';
    const r = await run({ 'shared/i18n/locales/en/translation.json': en, 'shared/i18n/locales/de/translation.json': de });
    expect([r.verdict, ...lines(r)]).toEqual(['pass', 'shared/i18n/locales/de/translation.json:2 empty-value/warning']);
  });
});
