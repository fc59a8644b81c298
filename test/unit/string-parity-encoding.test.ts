// A catalog that is not valid text was judged as if it were (issue 15, fail closed): only Android values XML was
// decoded with a fatal UTF-8 decoder; JSON (i18next, react-intl), ARB, .xcstrings, .strings, .stringsdict and PO
// files declaring UTF-8 were decoded leniently, so a byte that is no UTF-8 became U+FFFD and the file passed. Now
// every format goes through one decoding step (gates/string-parity/encoding.ts): UTF-8, fatal; a UTF-8 BOM dropped;
// UTF-16 with a BOM for the Apple formats (Apple's tools write UTF-16 .strings); PO files in their declared charset.
import { describe, expect, it } from 'vitest';
import { memoryWorkspace } from '../../core/workspace.js';
import { runGate } from '../../core/runner.js';
import type { GateResult } from '../../core/types.js';
import { stringParityGate } from '../../gates/string-parity/index.js';

const run = (files: Record<string, string | Buffer>): Promise<GateResult> =>
  runGate({ gate: stringParityGate, config: stringParityGate.configSchema.parse({}), timeoutMs: 10_000 }, { ws: memoryWorkspace({ files, mode: 'all' }), cacheRoot: '/tmp/loopgates-test-cache' });
const lines = (r: GateResult) => r.findings.map((f) => `${f.file}:${f.line} ${f.rule}/${f.severity}`);
/** `text` as UTF-8 with the byte 0xFF (never part of a UTF-8 sequence) where it says `<FF>`. */
const withFF = (text: string): Buffer => Buffer.concat(text.split('<FF>').flatMap((part, i) => (i ? [Buffer.from([0xff]), Buffer.from(part)] : [Buffer.from(part)])));
const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);

const plist = (one: string, other: string) => `<?xml version="1.0" encoding="UTF-8"?>
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
const unit = (v: string) => ({ stringUnit: { state: 'translated', value: v } });
const xcstrings = (de: string) => JSON.stringify({ sourceLanguage: 'en', version: '1.0', strings: { 'greeting %@': { localizations: { en: unit('Hello %@'), de: unit(de) } } } }, null, 2);
const po = (charset: string, msgstr: string) => `msgid ""\nmsgstr ""\n"Language: de\\n"\n"Content-Type: text/plain; charset=${charset}\\n"\n\n#, c-format\nmsgid "Hello %s"\nmsgstr "${msgstr}"\n`;

/** Each format: the files of a small project, with the translation's text (placeholders intact) where `@T@` is. */
const FORMATS: Array<{ name: string; file: string; line: number; files: (t: (s: string) => string | Buffer) => Record<string, string | Buffer>; text: string }> = [
  { name: 'i18next JSON', file: 'locales/de/translation.json', line: 2, text: 'Hallo {{name}}', files: (t) => ({ 'locales/en/translation.json': '{\n  "greeting": "Hello {{name}}"\n}\n', 'locales/de/translation.json': t('{\n  "greeting": "@T@"\n}\n') }) },
  { name: 'react-intl JSON', file: 'lang/de.json', line: 3, text: 'Hallo {name}', files: (t) => ({ 'lang/en.json': '{\n  "app.title": "Inbox",\n  "app.greeting": "Hello {name}"\n}\n', 'lang/de.json': t('{\n  "app.title": "Posteingang",\n  "app.greeting": "@T@"\n}\n') }) },
  { name: 'Flutter ARB', file: 'lib/l10n/app_de.arb', line: 3, text: 'Hallo {name}', files: (t) => ({ 'l10n.yaml': 'arb-dir: lib/l10n\ntemplate-arb-file: app_en.arb\n', 'lib/l10n/app_en.arb': '{\n  "@@locale": "en",\n  "greeting": "Hello {name}",\n  "@greeting": {"placeholders": {"name": {"type": "String"}}}\n}\n', 'lib/l10n/app_de.arb': t('{\n  "@@locale": "de",\n  "greeting": "@T@"\n}\n') }) },
  { name: '.xcstrings', file: 'App/Localizable.xcstrings', line: 16, text: 'Hallo %@', files: (t) => ({ 'App/Localizable.xcstrings': t(xcstrings('@T@')) }) },
  { name: '.strings', file: 'App/de.lproj/Localizable.strings', line: 2, text: 'Hallo %@', files: (t) => ({ 'App/en.lproj/Localizable.strings': '/* Greeting */\n"greeting" = "Hello %@";\n', 'App/de.lproj/Localizable.strings': t('/* Greeting */\n"greeting" = "@T@";\n') }) },
  { name: '.stringsdict', file: 'App/de.lproj/Localizable.stringsdict', line: 18, text: '%ld Beiträge', files: (t) => ({ 'App/en.lproj/Localizable.stringsdict': plist('1 post', '%ld posts'), 'App/de.lproj/Localizable.stringsdict': t(plist('1 Beitrag', '@T@')) }) },
  { name: 'PO (charset=UTF-8)', file: 'po/de.po', line: 8, text: 'Hallo %s', files: (t) => ({ 'po/messages.pot': po('CHARSET', ''), 'po/de.po': t(po('UTF-8', '@T@')) }) },
];

describe('string-parity: a catalog whose bytes are not valid UTF-8', () => {
  for (const f of FORMATS) {
    it(`red: ${f.name} with one byte 0xFF in a translation fails with unparsable at the byte's line`, async () => {
      const r = await run(f.files((s) => withFF(s.replace('@T@', `${f.text}<FF>`))));
      expect([r.verdict, ...lines(r)]).toEqual(['fail', `${f.file}:${f.line} unparsable/error`]);
      expect(r.findings[0]!.message).toMatch(new RegExp(`not valid UTF-8: the byte 0xFF at line ${f.line}, column \\d+ is no UTF-8 sequence`));
      expect(r.findings[0]!.message).toMatch(/save the file as UTF-8/);
    });
    it(`green: the same ${f.name} saved as UTF-8 passes, and so does it with a UTF-8 BOM`, async () => {
      for (const bom of ['', '\uFEFF']) {
        const r = await run(f.files((s) => Buffer.from(bom + s.replace('@T@', f.text))));
        expect([r.verdict, ...lines(r)]).toEqual(['pass']);
      }
    });
  }

  it('red: a JSON catalog saved as UTF-16 is named as such, not as a JSON syntax error', async () => {
    const r = await run({ 'locales/en/translation.json': '{\n  "greeting": "Hello {{name}}"\n}\n', 'locales/de/translation.json': utf16le('{\n  "greeting": "Hallo {{name}}"\n}\n') });
    expect([r.verdict, ...lines(r)]).toEqual(['fail', 'locales/de/translation.json:1 unparsable/error']);
    expect(r.findings[0]!.message).toMatch(/UTF-16LE \(it starts with a UTF-16LE byte order mark\).*save the file as UTF-8/);
  });

  it('green: a PO file in the charset its header declares (ISO-8859-1) is read in that charset', async () => {
    const r = await run({ 'po/messages.pot': po('CHARSET', ''), 'po/de.po': Buffer.from(po('ISO-8859-1', 'Grüße %s'), 'latin1') });
    expect([r.verdict, ...lines(r)]).toEqual(['pass']);
  });
});

describe('string-parity: Apple .strings in UTF-16 (what Apple\'s tools write)', () => {
  const base = '/* Items */\n"items" = "%d items";\n';
  for (const [name, enc] of [['UTF-16LE', utf16le], ['UTF-16BE', utf16be]] as const) {
    it(`red: a ${name} .strings with a BOM whose translation drops %d is placeholder-mismatch at its line`, async () => {
      const r = await run({ 'App/en.lproj/Localizable.strings': base, 'App/de.lproj/Localizable.strings': enc('/* Items */\n"items" = "Artikel";\n') });
      expect([r.verdict, ...lines(r)]).toEqual(['fail', 'App/de.lproj/Localizable.strings:2 placeholder-mismatch/error']);
    });
    it(`green: the ${name} twin that keeps %d passes`, async () => {
      const r = await run({ 'App/en.lproj/Localizable.strings': base, 'App/de.lproj/Localizable.strings': enc('/* Items */\n"items" = "%d Artikel";\n') });
      expect([r.verdict, ...lines(r)]).toEqual(['pass']);
    });
  }

  it('red: a UTF-16 .strings with an unpaired surrogate is not valid UTF-16: unparsable at its line', async () => {
    const r = await run({ 'App/en.lproj/Localizable.strings': base, 'App/de.lproj/Localizable.strings': utf16le('/* Items */\n"items" = "%d Artikel \ud800";\n') });
    expect([r.verdict, ...lines(r)]).toEqual(['fail', 'App/de.lproj/Localizable.strings:2 unparsable/error']);
    expect(r.findings[0]!.message).toMatch(/not valid UTF-16LE: an unpaired surrogate \(0xD800\) at line 2, column 23/);
  });
});
