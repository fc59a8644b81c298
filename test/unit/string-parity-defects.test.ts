// False greens of the string-parity gate found by a new user: duplicate Android resources, a placeholder added to a
// translation whose base has none, an Android resource whose kind differs between base and translation.
import { describe, expect, it } from 'vitest';
import { memoryWorkspace } from '../../core/workspace.js';
import { runGate } from '../../core/runner.js';
import type { GateResult } from '../../core/types.js';
import { stringParityGate } from '../../gates/string-parity/index.js';
import { missingKeys } from '../../gates/string-parity/checks.js';
import { parseAndroidXml } from '../../gates/string-parity/parsers/android.js';

const run = (files: Record<string, string>, targets?: string[]): Promise<GateResult> =>
  runGate(
    { gate: stringParityGate, config: stringParityGate.configSchema.parse({}), timeoutMs: 10_000 },
    { ws: targets ? memoryWorkspace({ files, targets }) : memoryWorkspace({ files, mode: 'all' }), cacheRoot: '/tmp/loopgates-test-cache' },
  );
const lines = (r: GateResult) => r.findings.map((f) => `${f.file}:${f.line} ${f.rule}/${f.severity}`);
const xml = (...entries: string[]) => `<resources>\n${entries.map((e) => `    ${e}\n`).join('')}</resources>\n`;

describe('duplicate Android resources (aapt2: "duplicate value for resource")', () => {
  const base = xml('<string name="action_delete">Delete</string>', '<string name="share">Share</string>');
  const de = xml('<string name="action_delete">Löschen</string>', '<string name="share">Teilen</string>');
  const dupBase = xml('<string name="action_delete">Delete</string>', '<string name="share">Share</string>', '<string name="action_delete">Delete forever</string>');

  it('red: a second <string name="action_delete"> in values/strings.xml is one error finding at the duplicate', async () => {
    const r = await run({ 'res/values/strings.xml': dupBase, 'res/values-de/strings.xml': de });
    expect(r.verdict).toBe('fail');
    expect(lines(r)).toEqual(['res/values/strings.xml:4 duplicate-resource/error']);
    expect(r.findings[0]!.message).toBe('en: 1 duplicate resource definition (`action_delete`); aapt2 fails the build ("duplicate value for resource") and only one of each would be kept');
  });
  it('red: the parser reports each duplicate (same name and type) as duplicate-resource, not string vs plurals of one name', () => {
    const c = parseAndroidXml('res/values/strings.xml', xml('<string name="a">A</string>', '<plurals name="a"><item quantity="other">As</item></plurals>', '<string name="a">A2</string>', '<string-array name="l"><item>x</item></string-array>', '<string-array name="l"><item>y</item></string-array>'), 'en');
    expect(c.problems.map((p) => [p.rule, p.key, p.line, p.column, p.severity])).toEqual([
      ['duplicate-resource', 'a', 4, 5, 'error'],
      ['duplicate-resource', 'l', 6, 5, 'error'],
    ]);
    expect(c.problems[0]!.message).toBe('duplicate value for resource string/a (first at line 2); aapt2 fails the build');
  });
  it('red: up to five keys are named, in one finding per file', async () => {
    const keys = ['a', 'b', 'c', 'd', 'e', 'f'];
    const once = keys.map((k) => `<string name="${k}">${k}</string>`);
    const r = await run({ 'res/values-de/strings.xml': xml(...once, ...once), 'res/values/strings.xml': xml(...once) });
    expect(lines(r)).toEqual(['res/values-de/strings.xml:8 duplicate-resource/error']);
    expect(r.findings[0]!.message).toMatch(/^de: 6 duplicate resource definitions \(`a`, `b`, `c`, `d`, `e`, …\)/);
  });
  it('red: a staged base with a duplicate does not name each locale twice in missing-key', async () => {
    const r = await run({ 'res/values/strings.xml': xml('<string name="n">N</string>', '<string name="n">N2</string>'), 'res/values-de/strings.xml': de, 'res/values-fr/strings.xml': de }, ['res/values/strings.xml']);
    const m = r.findings.filter((f) => f.rule === 'missing-key');
    expect(m.map((f) => f.message)).toEqual(['`n` is missing in 2 of 2 locale files: de, fr']);
    const b = parseAndroidXml('b.xml', xml('<string name="n">N</string>', '<string name="n">N2</string>', '<string name="o">O</string>'), 'en').locales[0]!;
    expect(missingKeys(b, parseAndroidXml('t.xml', xml(), 'de').locales[0]!).map((e) => e.key)).toEqual(['n', 'o']);
  });
  it('red: missing-key counts and names what missingKeys gives, on a base whose duplicates differ in translatable', async () => {
    // `n` is untranslatable first and translatable later (listed at its second entry); `t` translatable then not
    // (listed at its first; its byKey entry is not translatable, so it is not among the N base keys).
    const entries = ['<string name="n" translatable="false">N</string>', '<string name="t">T</string>', '<string name="a">A</string>', '<string name="n">N2</string>', '<string name="t" translatable="false">T2</string>', '<string name="b">B</string>'];
    for (const tr of [[], ['a'], ['b', 'a'], ['n', 'b'], ['t', 'a', 'a']]) {
      const files = { 'res/values/strings.xml': xml(...entries), 'res/values-de/strings.xml': xml(...tr.map((k) => `<string name="${k}">x</string>`)) };
      const r = await run(files);
      const want = missingKeys(parseAndroidXml('b.xml', files['res/values/strings.xml'], 'en').locales[0]!, parseAndroidXml('t.xml', files['res/values-de/strings.xml'], 'de').locales[0]!);
      const got = r.findings.filter((f) => f.rule === 'missing-key').map((f) => f.message);
      expect([tr, got]).toEqual([tr, want.length ? [`de lacks ${want.length} of 3 base keys: ${want.map((e) => `\`${e.key}\``).join(', ')}`] : []]);
    }
  });
  it('green: the same files without the duplicate pass', async () => {
    const r = await run({ 'res/values/strings.xml': base, 'res/values-de/strings.xml': de });
    expect(r.verdict).toBe('pass');
    expect(r.findings).toEqual([]);
    expect(parseAndroidXml('x.xml', base, 'en').problems).toEqual([]);
  });
  it('green: the severity can be lowered in the config', async () => {
    const r = await runGate(
      { gate: stringParityGate, config: stringParityGate.configSchema.parse({ rules: { 'duplicate-resource': 'warning', 'placeholder-added': 'off', 'kind-mismatch': 'warning' } }), timeoutMs: 10_000 },
      { ws: memoryWorkspace({ files: { 'res/values/strings.xml': dupBase, 'res/values-de/strings.xml': de }, mode: 'all' }), cacheRoot: '/tmp/loopgates-test-cache' },
    );
    expect(lines(r)).toEqual(['res/values/strings.xml:4 duplicate-resource/warning']);
  });
});

describe('a placeholder added to a translation whose base has none', () => {
  it('red: Android `Löschen %1$s` for `Delete`', async () => {
    const r = await run({ 'res/values/strings.xml': xml('<string name="d">Delete</string>'), 'res/values-de/strings.xml': xml('<string name="d">Löschen %1$s</string>') });
    expect(lines(r)).toEqual(['res/values-de/strings.xml:2 placeholder-added/warning']);
    expect(r.findings[0]!.message).toBe('de `d`: adds %1$s but the base has no placeholder (users see it literally unless the code passes arguments)');
  });
  it('red: Apple .strings `"Teilen %@"` for `"Boost"`', async () => {
    const r = await run({ 'App/en.lproj/Localizable.strings': '"boost" = "Boost";\n', 'App/de.lproj/Localizable.strings': '"boost" = "Teilen %@";\n' });
    expect(lines(r)).toEqual(['App/de.lproj/Localizable.strings:1 placeholder-added/warning']);
    expect(r.findings[0]!.message).toMatch(/^de `boost`: adds %@ but the base has no placeholder/);
  });
  it('red: .xcstrings `Folgen %@` for `Follow`', async () => {
    const loc = (v: string) => `{ "stringUnit" : { "state" : "translated", "value" : "${v}" } }`;
    const xc = `{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "follow" : {\n      "localizations" : {\n        "de" : ${loc('Folgen %@')},\n        "en" : ${loc('Follow')}\n      }\n    }\n  },\n  "version" : "1.0"\n}\n`;
    const r = await run({ 'App/Localizable.xcstrings': xc });
    expect(r.findings.map((f) => `${f.rule}/${f.severity} ${f.line}`)).toEqual(['placeholder-added/warning 6']);
  });
  it('green: `%` that is no specifier, `%%`, formatted="false", and bases with placeholders are unchanged', async () => {
    const r = await run({
      'res/values/strings.xml': xml('<string name="p">Done</string>', '<string name="q">Full</string>', '<string name="r" formatted="false">Rate</string>', '<string name="s">Hi %1$s</string>', '<string name="t">Same</string>'),
      'res/values-de/strings.xml': xml('<string name="p">100%</string>', '<string name="q">100%% voll</string>', '<string name="r" formatted="false">Rate %s</string>', '<string name="s">Hallo %1$s</string>', '<string name="t">Gleich</string>'),
    });
    expect(r.findings).toEqual([]);
    expect(r.verdict).toBe('pass');
  });
});

describe('an Android resource whose kind differs between base and translation', () => {
  const base = xml('<plurals name="x"><item quantity="one">%d item</item><item quantity="other">%d items</item></plurals>', '<string-array name="l"><item>A</item></string-array>', '<string name="s">S</string>');
  it('red (a warning: Android looks resources up by type, so the translation is never read): plurals -> string, string-array -> string, string -> plurals', async () => {
    const de = xml('<string name="x">%d Dinge</string>', '<string name="l">A</string>', '<plurals name="s"><item quantity="one">S</item><item quantity="other">S</item></plurals>');
    const r = await run({ 'res/values/strings.xml': base, 'res/values-de/strings.xml': de });
    expect(lines(r)).toEqual(['res/values-de/strings.xml:2 kind-mismatch/warning', 'res/values-de/strings.xml:3 kind-mismatch/warning', 'res/values-de/strings.xml:4 kind-mismatch/warning']);
    expect(r.findings.map((f) => f.message)).toEqual([
      'de `x` is a <string> here but a <plurals> in the base: Android looks resources up by type, so getQuantityString never reads this translation and de users see the base text',
      'de `l` is a <string> here but a <string-array> in the base: Android looks resources up by type, so getStringArray never reads this translation and de users see the base text',
      'de `s` is a <plurals> here but a <string> in the base: Android looks resources up by type, so getString never reads this translation and de users see the base text',
    ]);
  });
  it('green: the same kinds pass', async () => {
    const de = xml('<plurals name="x"><item quantity="one">%d Ding</item><item quantity="other">%d Dinge</item></plurals>', '<string-array name="l"><item>A</item></string-array>', '<string name="s">S</string>');
    const r = await run({ 'res/values/strings.xml': base, 'res/values-de/strings.xml': de });
    expect(r.findings).toEqual([]);
  });
  it('green: i18next plural in a translation for a string base stays allowed (not Android)', async () => {
    const r = await run({ 'locales/en/common.json': '{"n": "{{count}} things"}', 'locales/de/common.json': '{"n_one": "{{count}} Ding", "n_other": "{{count}} Dinge"}' });
    expect(r.findings.filter((f) => f.rule === 'kind-mismatch')).toEqual([]);
  });
});

// Ordinal plurals (i18next `key_ordinal_<category>`, ICU `selectordinal`) follow CLDR's ordinal rules, not the
// cardinal ones: Polish ordinals have only `other`, English ones one/two/few/other, Welsh zero/one/two/few/many/other.
// Before, i18next ordinals were read as a cardinal plural named `place_ordinal_ordinal` (a correct Polish file was
// an error for lacking one/few/many) and selectordinal categories were never checked.
describe('ordinal plurals (CLDR ordinal rules)', () => {
  const en = '{ "place_ordinal_one": "{{count}}st place", "place_ordinal_two": "{{count}}nd place", "place_ordinal_few": "{{count}}rd place", "place_ordinal_other": "{{count}}th place" }\n';
  it('green: a Polish i18next ordinal with only _ordinal_other passes (was plural-missing-category for one, few, many)', async () => {
    const r = await run({ 'locales/en.json': en, 'locales/pl.json': '{ "place_ordinal_other": "{{count}}. miejsce" }\n' });
    expect([r.verdict, ...lines(r)]).toEqual(['pass']);
  });
  it('red: a Welsh i18next ordinal with only _ordinal_other lacks the ordinal categories CLDR gives cy', async () => {
    const r = await run({ 'locales/en.json': en, 'locales/cy.json': '{ "place_ordinal_other": "{{count}}fed" }\n' });
    expect([r.verdict, ...lines(r)]).toEqual(['fail', 'locales/cy.json:1 plural-missing-category/error']);
    expect(r.findings[0]!.message).toBe('cy `place_ordinal`: ordinal plural lacks zero, one, two, few, many, which CLDR requires for ordinals in cy (zero, one, two, few, many, other)');
  });
  it('red: a Polish i18next ordinal without _ordinal_other lacks other', async () => {
    const r = await run({ 'locales/en.json': en, 'locales/pl.json': '{ "place_ordinal_one": "{{count}}. miejsce" }\n' });
    expect(lines(r)).toEqual(['locales/pl.json:1 plural-missing-category/error']);
    expect(r.findings[0]!.message).toMatch(/^pl `place_ordinal`: ordinal plural lacks other, which CLDR requires for ordinals in pl \(other\)$/);
  });
  it('ICU selectordinal: red for Welsh with only other, green for Polish with only other', async () => {
    const base = '{ "rank": "{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}" }\n';
    const cy = await run({ 'messages/en.json': base, 'messages/cy.json': '{ "rank": "{n, selectordinal, other {#fed}}" }\n' });
    expect(lines(cy)).toEqual(['messages/cy.json:1 plural-missing-category/error']);
    expect(cy.findings[0]!.message).toBe('cy `rank` {n}: ordinal plural lacks zero, one, two, few, many, which CLDR requires for ordinals in cy (zero, one, two, few, many, other)');
    const pl = await run({ 'messages/en.json': base, 'messages/pl.json': '{ "rank": "{n, selectordinal, other {#.}}" }\n' });
    expect([pl.verdict, ...lines(pl)]).toEqual(['pass']);
  });
});

// formatted="false" on a translation alone: getString(id, args) still runs String.format on it whenever the code passes
// arguments, which it does because the base takes them. Before, the attribute on the translation switched its
// placeholder check off (a dropped %2$d and %1$d -> %1$s passed).
describe('formatted="false" on a translation whose base takes arguments', () => {
  const base = xml('<string name="sync_progress">Synced %1$d of %2$d notes</string>', '<string name="done">Done</string>', '<string name="pct" formatted="false">100% sure</string>');
  it('red: the translation is still compared with the base\'s arguments', async () => {
    const de = xml('<string name="sync_progress" formatted="false">%1$s von</string>', '<string name="done">Fertig</string>', '<string name="pct" formatted="false">100 % sicher</string>');
    const r = await run({ 'res/values/strings.xml': base, 'res/values-de/strings.xml': de });
    expect([r.verdict, ...lines(r)]).toEqual(['fail', 'res/values-de/strings.xml:2 placeholder-mismatch/error']);
  });
  it('green: with a base that takes no arguments the translation is never formatted, so a literal % is fine', async () => {
    const de = xml('<string name="sync_progress">%1$d von %2$d Notizen</string>', '<string name="done" formatted="false">100 % fertig</string>', '<string name="pct" formatted="false">100 % sicher</string>');
    const r = await run({ 'res/values/strings.xml': base, 'res/values-de/strings.xml': de });
    expect([r.verdict, ...lines(r)]).toEqual(['pass']);
  });
});

// gettext plurals (msgid_plural, msgstr[n]): the forms are numbered by the file's Plural-Forms, not named by CLDR.
// Before, msgstr[0..n] became categories "0", "1", … checked against CLDR names: a correct German c-format plural was
// refused ("lacks one, other") and a Polish one missing msgstr[2] (nplurals=3; msgfmt -c refuses it) passed.
describe('gettext plural forms (Plural-Forms nplurals)', () => {
  const header = (lang: string, forms: string) => `msgid ""\nmsgstr ""\n"Language: ${lang}\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: ${forms}\\n"\n\n`;
  const entry = (flag: string, ...msgstr: string[]) => `${flag ? `#, ${flag}\n` : ''}msgid "%d file"\nmsgid_plural "%d files"\n${msgstr.map((s, i) => `msgstr[${i}] "${s}"\n`).join('')}`;
  const en = (flag: string) => header('en', 'nplurals=2; plural=(n != 1);') + entry(flag, '%d file', '%d files');
  const PL = 'nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);';
  it('green: a correct German c-format plural passes (was plural-missing-category "lacks one, other")', async () => {
    const r = await run({ 'locales/en/messages.po': en('c-format'), 'locales/de/messages.po': header('de', 'nplurals=2; plural=(n != 1);') + entry('c-format', '%d Datei', '%d Dateien') });
    expect([r.verdict, ...lines(r)]).toEqual(['pass']);
  });
  it('red: a Polish plural with 2 forms where its Plural-Forms says nplurals=3 (msgfmt -c refuses it), with or without c-format', async () => {
    for (const flag of ['', 'c-format']) {
      const r = await run({ 'locales/en/messages.po': en(flag), 'locales/pl/messages.po': header('pl', PL) + entry(flag, '%d plik', '%d pliki') });
      // At msgstr[0]: line 9, or 10 below the `#, c-format` flag.
      expect([r.verdict, ...lines(r)]).toEqual(['fail', `locales/pl/messages.po:${flag ? 10 : 9} plural-missing-category/error`]);
      expect(r.findings[0]!.message).toBe('pl `%d file`: 2 plural forms (msgstr[0] to msgstr[1]) but the file\'s Plural-Forms says nplurals=3: msgfmt -c refuses it, and counts of the missing form show the msgid');
    }
  });
  it('a c-format plural form with a placeholder the base lacks is still placeholder-mismatch; all three forms pass', async () => {
    const ok = await run({ 'locales/en/messages.po': en('c-format'), 'locales/pl/messages.po': header('pl', PL) + entry('c-format', '%d plik', '%d pliki', '%d plików') });
    expect([ok.verdict, ...lines(ok)]).toEqual(['pass']);
    const bad = await run({ 'locales/en/messages.po': en('c-format'), 'locales/pl/messages.po': header('pl', PL) + entry('c-format', '%d plik', '%d pliki', '%d plików %s') });
    expect(lines(bad)).toEqual(['locales/pl/messages.po:12 placeholder-mismatch/error']);
  });
});

// .xcstrings plural variations under device variations (`iphone` / `other` device, each with its own plural): each
// device's plural must give the categories the locale requires. Before, the device layer hid a German plural without
// `other` (the same plural without devices was refused).
describe('.xcstrings plurals inside device variations', () => {
  const unit = (value: string) => ({ stringUnit: { state: 'translated', value } });
  const catalog = (deOther: Record<string, unknown>) =>
    `${JSON.stringify(
      {
        sourceLanguage: 'en',
        version: '1.0',
        strings: {
          '%lld notes': {
            localizations: {
              en: { variations: { plural: { one: unit('%lld note'), other: unit('%lld notes') } } },
              de: { variations: { device: { iphone: { variations: { plural: { one: unit('%lld Notiz'), other: unit('%lld Notizen') } } }, other: { variations: { plural: deOther } } } } },
            },
          },
        },
      },
      null,
      2,
    )}\n`;
  it('red: a device whose plural lacks other is plural-missing-category, naming the device', async () => {
    const r = await run({ 'ios/Localizable.xcstrings': catalog({ one: unit('%lld Notiz') }) });
    expect([r.verdict, ...lines(r).map((l) => l.replace(/:\d+ /, ' '))]).toEqual(['fail', 'ios/Localizable.xcstrings plural-missing-category/error']);
    expect(r.findings[0]!.message).toBe('de `%lld notes` [other]: plural lacks other, which CLDR requires for de (one, other)');
  });
  it('green: every device giving one and other passes', async () => {
    const r = await run({ 'ios/Localizable.xcstrings': catalog({ one: unit('%lld Notiz'), other: unit('%lld Notizen') }) });
    expect([r.verdict, ...lines(r)]).toEqual(['pass']);
  });
});

// Issue 15, item 3: Apple .strings whose keys are the English text (NSLocalizedString without a base table) were only
// syntax-checked: a translation dropping the key's %@ passed. The key is then the base of its placeholders.
describe('.strings keys that are the source text (no base table)', () => {
  const de = (v: string) => `/* Shown under a boosted post */\n"%@ reposted" = "${v}";\n"Settings" = "Einstellungen";\n`;
  it('red: de.lproj "%@ reposted" = "teilte" drops the key\'s %@ (was: pass)', async () => {
    const r = await run({ 'App/de.lproj/Localizable.strings': de('teilte'), 'App/fr.lproj/Localizable.strings': de('%@ a partagé') });
    expect([r.verdict, ...lines(r).filter((l) => !l.includes('warning'))]).toEqual(['fail', 'App/de.lproj/Localizable.strings:2 placeholder-mismatch/error']);
    expect(r.findings.find((f) => f.rule === 'placeholder-mismatch')!.message).toMatch(/the key is the source text: no base table holds it\)$/);
  });
  it('green: "%@ teilte" and a key without specifiers pass', async () => {
    const r = await run({ 'App/de.lproj/Localizable.strings': de('%@ teilte'), 'App/fr.lproj/Localizable.strings': de('%@ a partagé') });
    expect([r.verdict, ...lines(r).filter((l) => !l.includes('warning'))]).toEqual(['pass']);
  });
});

// linkwarden en/common.json holds "by_author_and_other" (a plain key that happens to end in _other) and no
// "by_author_and_one": the base "family" lacks one itself, so each translation lacking one was blamed (fresh-user-3 F1).
describe('i18next plural family whose base lacks a category its own locale requires', () => {
  const en = '{\n  "by_author_and_other": "By {{author}} and {{count}} other.",\n  "by_author_and_others": "By {{author}} and {{count}} others."\n}\n';
  it('green: a translation is not blamed for a category the base family lacks too (was plural-missing-category de lacks one)', async () => {
    const de = '{\n  "by_author_and_other": "Von {{author}} und {{count}} weiteren Person.",\n  "by_author_and_others": "Von {{author}} und {{count}} weiteren."\n}\n';
    const r = await run({ 'public/locales/en/common.json': en, 'public/locales/de/common.json': de, 'public/locales/pl/common.json': de });
    expect(r.findings.filter((f) => f.rule === 'plural-missing-category').map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([]);
  });
  it('red: with a complete base family, a Polish translation lacking few and many stays an error', async () => {
    const full = '{ "files_one": "{{count}} file", "files_other": "{{count}} files" }\n';
    const r = await run({ 'public/locales/en/common.json': full, 'public/locales/pl/common.json': '{ "files_one": "{{count}} plik", "files_other": "{{count}} pliki" }\n' });
    expect(lines(r)).toEqual(['public/locales/pl/common.json:1 plural-missing-category/error']);
    expect(r.findings[0]!.message).toMatch(/^pl `files`: plural lacks few, many/);
  });
  it('red: an incomplete base family still requires of a translation the categories the base has (other)', async () => {
    const r = await run({ 'public/locales/en/common.json': en, 'public/locales/de/common.json': '{ "by_author_and_one": "Von {{author}} und {{count}} weiteren Person.", "by_author_and_others": "x" }\n' });
    expect(r.findings.filter((f) => f.rule === 'plural-missing-category').map((f) => f.message)).toEqual(['de `by_author_and`: plural lacks other, which CLDR requires for de (one, other)']);
  });
});
