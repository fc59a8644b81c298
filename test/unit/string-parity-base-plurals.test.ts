// The base catalog's own plurals judged against the base locale's CLDR categories (fresh-user-6 G15): on an English
// device getQuantityString(R.plurals.x, 2, 2) throws Resources.NotFoundException when the default <plurals> has only
// `one`. A translation's checks must not lean on the broken base either: its count forms still show what the base's
// forms show. Files in the shape of FossifyOrg/Notes (values/strings.xml, values-sk/strings.xml).
import { describe, expect, it } from 'vitest';
import { memoryWorkspace } from '../../core/workspace.js';
import { runGate } from '../../core/runner.js';
import type { GateResult } from '../../core/types.js';
import { stringParityGate } from '../../gates/string-parity/index.js';

const config = (extra: Record<string, unknown> = {}) => stringParityGate.configSchema.parse(extra);
const run = (files: Record<string, string>, extra: Record<string, unknown> = {}): Promise<GateResult> =>
  runGate({ gate: stringParityGate, config: config(extra), timeoutMs: 10_000 }, { ws: memoryWorkspace({ files, mode: 'all' }), cacheRoot: '/tmp/loopgates-test-cache' });
const lines = (r: GateResult) => r.findings.map((f) => `${f.file}:${f.line} ${f.rule}/${f.severity}`).sort();

const android = (items: Record<string, string>, about = 'About') => `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="app_about">${about}</string>
    <plurals name="num_checked_items">
${Object.entries(items).map(([q, t]) => `        <item quantity="${q}">${t}</item>`).join('\n')}
    </plurals>
</resources>
`;
const EN = { one: '%d checked item', other: '%d checked items' };
const SK_OK = { one: '%d zaškrtnutá položka', few: '%d zaškrtnuté položky', other: '%d zaškrtnutých položiek' };
// Notes' real sk plural: the count is dropped from every form.
const SK_DROPS = { one: 'zaškrtnutá položka', few: 'zaškrtnuté položky', other: 'zaškrtnutých položiek' };

describe('base plurals against the base locale\'s CLDR categories', () => {
  it('Android: the default <plurals> with only `one` is plural-missing-category at its line', async () => {
    const r = await run({ 'app/src/main/res/values/strings.xml': android({ one: EN.one }), 'app/src/main/res/values-sk/strings.xml': android(SK_OK, 'O aplikácii') });
    expect(lines(r)).toEqual(['app/src/main/res/values/strings.xml:4 plural-missing-category/error']);
    expect(r.verdict).toBe('fail');
    expect(r.findings[0]!.message).toBe('en `num_checked_items`: plural lacks other, which CLDR requires for en (one, other: the categories integer counts select)');
  });

  it('Android: a complete base plural gives no finding', async () => {
    const r = await run({ 'app/src/main/res/values/strings.xml': android(EN), 'app/src/main/res/values-sk/strings.xml': android(SK_OK, 'O aplikácii') });
    expect(lines(r)).toEqual([]);
    expect(r.verdict).toBe('pass');
  });

  it('Android: with the base alone judged (run --files values/strings.xml) it is still found', async () => {
    const r = await run({ 'app/src/main/res/values/strings.xml': android({ one: EN.one }) });
    expect(lines(r)).toEqual(['app/src/main/res/values/strings.xml:4 plural-missing-category/error']);
  });

  it('Android: a translation\'s dropped counts stay reported when the base lost `other`', async () => {
    const complete = await run({ 'app/src/main/res/values/strings.xml': android(EN), 'app/src/main/res/values-sk/strings.xml': android(SK_DROPS, 'O aplikácii') });
    expect(lines(complete)).toEqual(['app/src/main/res/values-sk/strings.xml:6 placeholder-mismatch/error', 'app/src/main/res/values-sk/strings.xml:7 placeholder-mismatch/error']);
    const broken = await run({ 'app/src/main/res/values/strings.xml': android({ one: EN.one }), 'app/src/main/res/values-sk/strings.xml': android(SK_DROPS, 'O aplikácii') });
    expect(lines(broken)).toEqual([
      'app/src/main/res/values-sk/strings.xml:6 placeholder-mismatch/error',
      'app/src/main/res/values-sk/strings.xml:7 placeholder-mismatch/error',
      'app/src/main/res/values/strings.xml:4 plural-missing-category/error',
    ]);
  });

  it('Android: a Russian base (baseLocale: ru) needs few and many as well', async () => {
    const r = await run({ 'app/src/main/res/values/strings.xml': android({ one: '%d элемент', other: '%d элемента' }) }, { baseLocale: 'ru' });
    expect(lines(r)).toEqual(['app/src/main/res/values/strings.xml:4 plural-missing-category/error']);
    expect(r.findings[0]!.message).toContain('plural lacks few, many');
  });

  it('.stringsdict: the base\'s plural variable with only `one` is plural-missing-category at the variable\'s key', async () => {
    const dict = (forms: Record<string, string>) => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>files</key>
  <dict>
    <key>NSStringLocalizedFormatKey</key>
    <string>%#@n@</string>
    <key>n</key>
    <dict>
      <key>NSStringFormatSpecTypeKey</key>
      <string>NSStringPluralRuleType</string>
      <key>NSStringFormatValueTypeKey</key>
      <string>ld</string>
${Object.entries(forms).map(([q, t]) => `      <key>${q}</key>\n      <string>${t}</string>`).join('\n')}
    </dict>
  </dict>
</dict>
</plist>
`;
    const r = await run({ 'App/en.lproj/Localizable.stringsdict': dict({ one: '%ld file' }), 'App/de.lproj/Localizable.stringsdict': dict({ one: '%ld Datei', other: '%ld Dateien' }) });
    expect(lines(r)).toEqual(['App/en.lproj/Localizable.stringsdict:9 plural-missing-category/error']);
    const ok = await run({ 'App/en.lproj/Localizable.stringsdict': dict({ one: '%ld file', other: '%ld files' }), 'App/de.lproj/Localizable.stringsdict': dict({ one: '%ld Datei', other: '%ld Dateien' }) });
    expect(lines(ok)).toEqual([]);
  });

  it('ICU JSON: a Polish base plural without few/many is plural-missing-category (the ICU parser itself asks only for other)', async () => {
    const r = await run({ 'lang/pl.json': '{\n  "members": "{n, plural, one {# członek} other {# członków}}"\n}\n', 'lang/en.json': '{\n  "members": "{n, plural, one {# member} other {# members}}"\n}\n' }, { baseLocale: 'pl', jsonFormat: 'icu' });
    expect(lines(r)).toEqual(['lang/pl.json:2 plural-missing-category/error']);
  });

  it('.xcstrings: the source language\'s plural variation with only `one` is plural-missing-category at its localization', async () => {
    const xc = (en: string) => `{
  "sourceLanguage" : "en",
  "strings" : {
    "files %lld" : {
      "localizations" : {
        "de" : {
          "variations" : {
            "plural" : {
              "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld Datei" } },
              "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld Dateien" } }
            }
          }
        },
        "en" : {
          "variations" : {
            "plural" : {
${en}
            }
          }
        }
      }
    }
  },
  "version" : "1.0"
}
`;
    const one = '              "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld file" } }';
    const r = await run({ 'App/Localizable.xcstrings': xc(one) });
    expect(lines(r)).toEqual(['App/Localizable.xcstrings:14 plural-missing-category/error']);
    expect(r.findings[0]!.message).toBe('en `files %lld`: plural lacks other, which CLDR requires for en (one, other)');
    const ok = await run({ 'App/Localizable.xcstrings': xc(`${one},\n              "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld files" } }`) });
    expect(lines(ok)).toEqual([]);
  });

  it('a base plural of `other` alone is one text for every count, no finding (lichess ARB, Android)', async () => {
    const arb = await run({ 'lib/l10n/app_en.arb': '{\n  "puzzleNbPlayed": "{count, plural, other{{count} played}}",\n  "@puzzleNbPlayed": {"placeholders": {"count": {"type": "int"}}}\n}\n', 'lib/l10n/app_de.arb': '{\n  "puzzleNbPlayed": "{count, plural, =1{{count} gespielt} other{{count} gespielt}}"\n}\n' });
    expect(lines(arb)).toEqual([]);
    const xml = await run({ 'app/src/main/res/values/strings.xml': android({ other: EN.other }) });
    expect(lines(xml)).toEqual([]);
  });
});
