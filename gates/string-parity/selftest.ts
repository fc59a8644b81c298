// Shipped self-test cases of string-parity (DESIGN.md "self-test"): per format one clean green input and red inputs
// with one injected defect each, expecting a finding of the named rule at the injected line.
import type { SelfTestCase } from '../../core/types.js';

/** 1-based line of the first line of `content` containing `needle`; throws when absent (a broken case is a bug). */
export function lineOf(content: string, needle: string): number {
  const i = content.split('\n').findIndex((l) => l.includes(needle));
  if (i === -1) throw new Error(`self-test case: ${JSON.stringify(needle)} not found`);
  return i + 1;
}

const A = 'app/src/main/res';
const androidBase = `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="app_name" translatable="false">Podcatcher</string>
    <string name="download_done">Downloaded %1$s</string>
    <string name="greeting">Hello %s, you have %2$d new episodes</string>
    <string name="dont_stop">Don\\'t stop</string>
    <plurals name="num_episodes">
        <item quantity="one">%d episode</item>
        <item quantity="other">%d episodes</item>
    </plurals>
</resources>
`;
const androidDe = `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="download_done">%1$s heruntergeladen</string>
    <string name="greeting">Hallo %s, du hast %2$d neue Folgen</string>
    <string name="dont_stop">"Don't" stoppen</string>
    <plurals name="num_episodes">
        <item quantity="one">%d Folge</item>
        <item quantity="other">%d Folgen</item>
    </plurals>
</resources>
`;
const androidPl = `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="download_done">Pobrano %1$s</string>
    <string name="greeting">Witaj %s, masz %2$d nowych odcinków</string>
    <string name="dont_stop">Nie przestawaj</string>
    <plurals name="num_episodes">
        <item quantity="one">%d odcinek</item>
        <item quantity="few">%d odcinki</item>
        <item quantity="many">%d odcinków</item>
        <item quantity="other">%d odcinka</item>
    </plurals>
</resources>
`;

const L = 'App/Resources';
const stringsBase = `/* Notification: someone liked a post */
"notification.liked" = "%@ liked your post";
"notification.count" = "%lld new notifications";
"title" = "Home";
`;
const stringsDe = `/* Notification: someone liked a post */
"notification.liked" = "%@ gefällt dein Beitrag";
"notification.count" = "%lld neue Mitteilungen";
"title" = "Start";
`;
const stringsdict = (cats: Record<string, string>) => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>files.count</key>
	<dict>
		<key>NSStringLocalizedFormatKey</key>
		<string>%#@files@</string>
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

const xcstrings = (ca: string) => `{
  "sourceLanguage" : "en",
  "strings" : {
    "account.posts %lld" : {
      "localizations" : {
        "ca" : {
          "stringUnit" : {
            "state" : "translated",
            "value" : "${ca}"
          }
        },
        "en" : {
          "stringUnit" : {
            "state" : "translated",
            "value" : "%lld posts"
          }
        }
      }
    },
    "Hello" : {
      "localizations" : {
        "ca" : {
          "stringUnit" : {
            "state" : "translated",
            "value" : "Hola"
          }
        }
      }
    }
  },
  "version" : "1.0"
}
`;

const arbEn = `{
  "@@locale": "en",
  "gamesPlayed": "{count, plural, =1{1 game} other{{count} games}}",
  "@gamesPlayed": {
    "placeholders": {
      "count": { "type": "int" }
    }
  },
  "goodEvening": "Good evening, {param}",
  "dontWorry": "Don't worry"
}
`;
const arbDe = (games: string, evening: string) => `{
  "@@locale": "de",
  "gamesPlayed": "${games}",
  "goodEvening": "${evening}",
  "dontWorry": "Keine Sorge, it's fine"
}
`;

const i18nEn = `{
  "welcome": "Welcome, {{name}}!",
  "inbox": {
    "messages_one": "{{count}} message",
    "messages_other": "{{count}} messages"
  }
}
`;
const i18nPl = (welcome: string, plural: string) => `{
  "welcome": "${welcome}",
  "inbox": {
${plural}
  }
}
`;
const plAll = `    "messages_one": "{{count}} wiadomość",
    "messages_few": "{{count}} wiadomości",
    "messages_many": "{{count}} wiadomości",
    "messages_other": "{{count}} wiadomości"`;

const icuEn = `{
  "cart.items": "{count, plural, one {# item} other {# items}}",
  "profile.pronoun": "{gender, select, male {his} female {her} other {their}} profile"
}
`;
const icuFr = (items: string, pronoun: string) => `{
  "cart.items": "${items}",
  "profile.pronoun": "${pronoun}"
}
`;

const poHeader = (lang: string, plural: string) => `msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: ${lang}\\n"
"Plural-Forms: ${plural}\\n"
"X-Generator: @lingui/cli\\n"
`;
const poEn = `${poHeader('en', 'nplurals=2; plural=(n != 1);')}
#: src/Wallet.tsx:10
msgid "Send {amount} XCH"
msgstr "Send {amount} XCH"

#: src/Amount.tsx:87
msgid "{0, plural, one {mojo} other {mojos}}"
msgstr "{0, plural, one {mojo} other {mojos}}"
`;
const poDe = (send: string) => `${poHeader('de_DE', 'nplurals=2; plural=(n != 1);')}
#: src/Wallet.tsx:10
msgid "Send {amount} XCH"
msgstr "${send}"

#: src/Amount.tsx:87
msgid "{0, plural, one {mojo} other {mojos}}"
msgstr "{0, plural, one {Mojo} other {Mojos}}"
`;
const linguirc = `{ "locales": ["en", "de"], "sourceLocale": "en", "format": "po", "catalogs": [{ "path": "<rootDir>/src/locales/{locale}/messages" }] }\n`;

/** Every case of the gate. Each red case changes exactly one thing from its format's green case. */
export function stringParitySelfTest(): SelfTestCase[] {
  const cases: SelfTestCase[] = [];
  const red = (name: string, files: Record<string, string>, file: string, needle: string, rule: string, targets?: string[]) => {
    cases.push({ name, kind: 'red', files, ...(targets ? { targets } : {}), expect: { file, line: lineOf(files[file]!, needle), rule } });
  };

  // Android strings.xml
  const android = { [`${A}/values/strings.xml`]: androidBase, [`${A}/values-de/strings.xml`]: androidDe, [`${A}/values-pl/strings.xml`]: androidPl };
  cases.push({ name: 'android: clean base, de and pl translations', kind: 'green', files: android });
  const de = `${A}/values-de/strings.xml`;
  const pl = `${A}/values-pl/strings.xml`;
  red('android: %1$s deleted from a translation', { ...android, [de]: androidDe.replace('%1$s heruntergeladen', 'heruntergeladen') }, de, 'download_done', 'placeholder-mismatch');
  red('android: %s changed to %d', { ...android, [de]: androidDe.replace('Hallo %s', 'Hallo %d') }, de, 'greeting', 'placeholder-mismatch');
  red('android: trailing %', { ...android, [de]: androidDe.replace('%1$s heruntergeladen', '%1$s heruntergeladen %') }, de, 'download_done', 'invalid-specifier');
  red('android: unescaped apostrophe', { ...android, [de]: androidDe.replace('"Don\'t" stoppen', "Don't stoppen") }, de, 'dont_stop', 'android-unescaped-apostrophe');
  red('android: plural other drops %d', { ...android, [de]: androidDe.replace('<item quantity="other">%d Folgen</item>', '<item quantity="other">Folgen</item>') }, de, 'quantity="other">Folgen', 'placeholder-mismatch');
  red('android: few/many dropped from a Polish plural', { ...android, [pl]: androidPl.replace(/\n\s*<item quantity="(few|many)">[^<]*<\/item>/g, '') }, pl, 'num_episodes', 'plural-missing-category');
  // empty-value warns by default; a team may make it refuse (`rules:`), and then an emptied translation is red.
  const emptyRefuses = { rules: { 'empty-value': 'error' } };
  cases.push({ name: 'android: clean de and pl, empty-value an error', kind: 'green', files: android, config: emptyRefuses });
  const emptied = { ...android, [de]: androidDe.replace('"Don\'t" stoppen', '') };
  cases.push({ name: 'android: a translation emptied, empty-value an error', kind: 'red', files: emptied, config: emptyRefuses, expect: { file: de, line: lineOf(emptied[de]!, 'dont_stop'), rule: 'empty-value' } });
  red('android: translatable="false" key translated', { ...android, [de]: androidDe.replace('<resources>', '<resources>\n    <string name="app_name">Podfänger</string>') }, de, 'name="app_name"', 'untranslatable-translated');

  // Apple .strings (UTF-8) and .stringsdict
  const apple = { [`${L}/Base.lproj/Localizable.strings`]: stringsBase, [`${L}/de.lproj/Localizable.strings`]: stringsDe };
  cases.push({ name: '.strings: clean Base and de', kind: 'green', files: apple });
  const sde = `${L}/de.lproj/Localizable.strings`;
  red('.strings: an added %@', { ...apple, [sde]: stringsDe.replace('"%@ gefällt dein Beitrag"', '"%@ gefällt %@ dein Beitrag"') }, sde, 'notification.liked', 'placeholder-mismatch');
  red('.strings: %lld changed to %@', { ...apple, [sde]: stringsDe.replace('%lld neue', '%@ neue') }, sde, 'notification.count', 'placeholder-mismatch');
  red('.strings: unterminated string', { ...apple, [sde]: stringsDe.replace('"Start";', '"Start;') }, sde, '"title"', 'unparsable');
  const dict = {
    [`${L}/Base.lproj/Localizable.stringsdict`]: stringsdict({ one: '%ld file', other: '%ld files' }),
    [`${L}/pl.lproj/Localizable.stringsdict`]: stringsdict({ one: '%ld plik', few: '%ld pliki', many: '%ld plików', other: '%ld pliku' }),
  };
  cases.push({ name: '.stringsdict: clean Base and pl', kind: 'green', files: dict });
  const dpl = `${L}/pl.lproj/Localizable.stringsdict`;
  red('.stringsdict: few/many dropped from a Polish plural', { ...dict, [dpl]: stringsdict({ one: '%ld plik', other: '%ld pliku' }) }, dpl, '<key>files</key>', 'plural-missing-category');

  // .xcstrings
  const xc = 'App/Localizable.xcstrings';
  cases.push({ name: '.xcstrings: clean en and ca', kind: 'green', files: { [xc]: xcstrings('%lld publicacions') } });
  red('.xcstrings: `% p` invalid specifier (the IceCubesApp defect)', { [xc]: xcstrings('% publicacions') }, xc, '% publicacions', 'invalid-specifier');

  // Flutter .arb
  const arb = { 'l10n.yaml': 'arb-dir: lib/l10n\ntemplate-arb-file: app_en.arb\n', 'lib/l10n/app_en.arb': arbEn, 'lib/l10n/app_de.arb': arbDe('{count, plural, =1{1 Partie} other{{count} Partien}}', 'Guten Abend, {param}') };
  cases.push({ name: 'arb: clean template and de (apostrophes literal without use-escaping)', kind: 'green', files: arb });
  red('arb: {count} renamed', { ...arb, 'lib/l10n/app_de.arb': arbDe('{anzahl, plural, =1{1 Partie} other{{anzahl} Partien}}', 'Guten Abend, {param}') }, 'lib/l10n/app_de.arb', 'gamesPlayed', 'placeholder-mismatch');
  red('arb: a quoted ICU argument under use-escaping: true', { ...arb, 'l10n.yaml': 'arb-dir: lib/l10n\ntemplate-arb-file: app_en.arb\nuse-escaping: true\n', 'lib/l10n/app_en.arb': arbEn.replace("Don't worry", "Don''t worry"), 'lib/l10n/app_de.arb': arbDe('{count, plural, =1{1 Partie} other{{count} Partien}}', "Guten Abend, '{param}'").replace("it's fine", "it''s fine") }, 'lib/l10n/app_de.arb', 'goodEvening', 'placeholder-mismatch');

  // i18next JSON
  const i18n = { 'public/locales/en/common.json': i18nEn, 'public/locales/pl/common.json': i18nPl('Witaj, {{name}}!', plAll) };
  cases.push({ name: 'i18next: clean en and pl', kind: 'green', files: i18n });
  // react-i18next <Trans> markup (outline's shape): the translation keeps the base's tags.
  const trans = { 'public/locales/en/editor.json': '{\n  "move": "Move to <em>{{location}}</em>"\n}\n', 'public/locales/pl/editor.json': '{\n  "move": "Przenieś do <em>{{location}}</em>"\n}\n' };
  cases.push({ name: 'i18next: <Trans> tags kept in pl', kind: 'green', files: trans });
  red('i18next: <em> dropped from a <Trans> string', { ...trans, 'public/locales/pl/editor.json': '{\n  "move": "Przenieś do {{location}}"\n}\n' }, 'public/locales/pl/editor.json', '"move"', 'markup-mismatch');
  red('i18next: {{name}} renamed', { ...i18n, 'public/locales/pl/common.json': i18nPl('Witaj, {{imie}}!', plAll) }, 'public/locales/pl/common.json', '"welcome"', 'placeholder-mismatch');
  red('i18next: few/many dropped from a Polish plural', { ...i18n, 'public/locales/pl/common.json': i18nPl('Witaj, {{name}}!', plAll.split('\n').filter((l) => !/_few|_many/.test(l)).join('\n')) }, 'public/locales/pl/common.json', 'messages_one', 'plural-missing-category');

  // FormatJS / ICU JSON
  const icu = { 'src/lang/en.json': icuEn, 'src/lang/fr.json': icuFr('{count, plural, one {# article} other {# articles}}', '{gender, select, male {son} female {son} other {leur}} profil') };
  cases.push({ name: 'icu json: clean en and fr', kind: 'green', files: icu });
  red('icu json: a translated select keyword', { ...icu, 'src/lang/fr.json': icuFr('{count, plural, one {# article} other {# articles}}', '{gender, select, masculin {son} female {son} other {leur}} profil') }, 'src/lang/fr.json', 'profile.pronoun', 'icu-keyword');
  red('icu json: ICU syntax error', { ...icu, 'src/lang/fr.json': icuFr('{count, plural, one {# article} other {# articles}', '{gender, select, male {son} female {son} other {leur}} profil') }, 'src/lang/fr.json', 'cart.items', 'icu-syntax');

  // gettext .po (Lingui)
  const po = { '.linguirc': linguirc, 'src/locales/en/messages.po': poEn, 'src/locales/de/messages.po': poDe('{amount} XCH senden') };
  cases.push({ name: 'po (Lingui): clean en and de', kind: 'green', files: po });
  red('po (Lingui): {amount} renamed', { ...po, 'src/locales/de/messages.po': poDe('{betrag} XCH senden') }, 'src/locales/de/messages.po', 'msgstr "{betrag}', 'placeholder-mismatch');

  return cases;
}
