// gettext format flags other than c-format were never compared (issue 15, item 1): a `#, python-brace-format` msgstr
// that drops `{0}`, a `#, python-format` `%s` -> `%d`, passed. Now every flag msgfmt checks is judged in its own grammar
// (placeholders/gettext.ts, ported from GNU gettext's format-*.c), and msgfmt -c --check-format is the oracle: on
// PO files in the shape of real ones (lutris, gaphor, GNOME Calculator, KDE, Qt, PHP, JavaScript, C# catalogs) and
// fast-check mutants of their messages, both must give the same verdict per message.
import { describe, expect, it } from 'vitest';
import { memoryWorkspace } from '../../core/workspace.js';
import { runGate } from '../../core/runner.js';
import type { GateResult } from '../../core/types.js';
import { stringParityGate } from '../../gates/string-parity/index.js';
import { compilePlural, pluralDistribution } from '../../gates/string-parity/placeholders/gettext.js';
import { differential, mutantsFile, poFile } from '../helpers/msgfmt-differential.js';

const run = (files: Record<string, string>): Promise<GateResult> =>
  runGate({ gate: stringParityGate, config: stringParityGate.configSchema.parse({}), timeoutMs: 10_000 }, { ws: memoryWorkspace({ files, mode: 'all' }), cacheRoot: '/tmp/loopgates-test-cache' });
const lines = (r: GateResult) => r.findings.map((f) => `${f.file}:${f.line} ${f.rule}/${f.severity}`);
const header = (lang: string, forms = 'nplurals=2; plural=(n != 1);') => `msgid ""\nmsgstr ""\n"Language: ${lang}\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: ${forms}\\n"\n\n`;

describe('gettext format flags in the gate (a GTK/Python app\'s po/ folder, no .pot committed)', () => {
  // Lines: 7 `#:`, 8 flag, 9 msgid, 10 msgstr; 12 flag, 13 msgid, 14 msgstr.
  const de = (brace: string, printf: string) => `${header('de')}#: lutris/gui/dialogs/__init__.py:412\n#, python-brace-format\nmsgid "Failed to install {0}"\nmsgstr "${brace}"\n\n#, python-format\nmsgid "Removing %s"\nmsgstr "${printf}"\n`;
  it('red: python-brace-format dropping {0} and python-format %s -> %d are errors at their msgstr lines (both passed before)', async () => {
    const r = await run({ 'po/de.po': de('Installation fehlgeschlagen', 'Entferne %d') });
    expect([r.verdict, ...lines(r)]).toEqual(['fail', 'po/de.po:10 placeholder-mismatch/error', 'po/de.po:14 placeholder-mismatch/error']);
    expect(r.findings[0]!.message).toBe('de `Failed to install {0}`: python-brace-format placeholders differ from its msgid: {0} of the msgid is missing; msgfmt -c refuses the catalog');
    expect(r.findings[1]!.message).toBe('de `Removing %s`: python-format placeholders differ from its msgid: the format specifications for argument 1 are not the same; msgfmt -c refuses the catalog');
  });
  it('red: {0} -> {1}, an added {name}, a dropped %s, an invalid %(name) are each refused', async () => {
    for (const [brace, printf, want] of [
      ['Installation von {1} fehlgeschlagen', 'Entferne %s', [10]],
      ['{name}: Installation von {0} fehlgeschlagen', 'Entferne', [10, 14]],
      ['Installation von {0} fehlgeschlagen', 'Entferne %(name)', [14]],
    ] as const) {
      const r = await run({ 'po/de.po': de(brace, printf) });
      expect(lines(r)).toEqual(want.map((l) => `po/de.po:${l} ${l === 14 && printf.includes('%(') ? 'invalid-specifier' : 'placeholder-mismatch'}/error`));
    }
  });
  it('green: the same messages translated with their placeholders pass, and so does a no-python-format literal %', async () => {
    const r = await run({ 'po/de.po': de('Installation von {0} fehlgeschlagen', 'Entferne %s') + '\n#, no-python-format\nmsgid "100% done"\nmsgstr "100% fertig"\n' });
    expect([r.verdict, ...lines(r)]).toEqual(['pass']);
  });
  it('red: with a .pot base too, the message is judged against its own msgid (c-format, relaxed for the Russian "one" form only)', async () => {
    const RU = 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);';
    const pot = `${header('')}#, c-format\nmsgid "%d second"\nmsgid_plural "%d seconds"\nmsgstr[0] ""\nmsgstr[1] ""\n`;
    const ru = (a: string, b: string, c: string) => `${header('ru', RU)}#, c-format\nmsgid "%d second"\nmsgid_plural "%d seconds"\nmsgstr[0] "${a}"\nmsgstr[1] "${b}"\nmsgstr[2] "${c}"\n`;
    // Form 0 is chosen for 1, 21, 31…: at least 5 counts in 0..1000, so strict like the others.
    const bad = await run({ 'po/calc.pot': pot, 'po/ru.po': ru('секунда', '%d секунды', '%d секунд') });
    expect(lines(bad)).toEqual(['po/ru.po:10 placeholder-mismatch/error']);
    const ok = await run({ 'po/calc.pot': pot, 'po/ru.po': ru('%d секунда', '%d секунды', '%d секунд') });
    expect([ok.verdict, ...lines(ok)]).toEqual(['pass']);
    // German: form 0 only for n = 1, so it may word its number ("Eine Sekunde"), as msgfmt allows.
    const de1 = `${header('de')}#, c-format\nmsgid "%d second"\nmsgid_plural "%d seconds"\nmsgstr[0] "Eine Sekunde"\nmsgstr[1] "%d Sekunden"\n`;
    const g = await run({ 'po/calc.pot': pot, 'po/de.po': de1 });
    expect([g.verdict, ...lines(g)]).toEqual(['pass']);
  });
});

describe('gettext @modifier catalog names (GNOME Calculator po/sr@latin.po, be@latin.po, ca@valencia.po)', () => {
  it('red: sr@latin.po is locale sr-Latn, not its folder `po` (was unknown-locale `po`); its format errors are found', async () => {
    const po = `${header('sr@latin', 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);')}#, c-format\nmsgid "Exchange rates updated %s ago"\nmsgstr "Kursevi ažurirani pre"\n`;
    const r = await run({ 'po/sr@latin.po': po, 'po/ca@valencia.po': `${header('ca@valencia')}#, c-format\nmsgid "%d second"\nmsgstr "%d segon"\n` });
    expect([r.verdict, ...lines(r)]).toEqual(['fail', 'po/sr@latin.po:9 placeholder-mismatch/error']);
    expect(r.findings[0]!.message).toMatch(/^sr-Latn `Exchange rates updated %s ago`: c-format placeholders differ/);
  });
});

// Item 11: msgfmt never compiles a `#, fuzzy` message and gettext never shows it: its placeholders are not judged, it
// stays a needs-review warning.
describe('#, fuzzy messages', () => {
  it('red before: a fuzzy message whose msgstr drops %s was an error; now only needs-review (warning), as msgfmt -c passes it', async () => {
    const po = `${header('de')}#, fuzzy, python-format\nmsgid "Removing %s"\nmsgstr "Entferne"\n`;
    const r = await run({ 'po/de.po': po, 'po/en.po': `${header('en')}#, python-format\nmsgid "Removing %s"\nmsgstr "Removing %s"\n` });
    expect([r.verdict, ...lines(r)]).toEqual(['pass', 'po/de.po:9 needs-review/warning']);
    expect(differential(po)).toMatchObject({ judged: 0, disagreements: [] });
  });
  it('red before: a fuzzy Lingui (ICU) message with a renamed argument was an ICU placeholder error; now needs-review only', async () => {
    const linguirc = JSON.stringify({ sourceLocale: 'en', locales: ['en', 'de'], catalogs: [{ path: 'src/locales/{locale}/messages' }] });
    const en = `${header('en')}msgid "Hello {name}"\nmsgstr "Hello {name}"\n`;
    const de = `${header('de')}#, fuzzy\nmsgid "Hello {name}"\nmsgstr "Hallo {nom}"\n`;
    const r = await run({ '.linguirc': linguirc, 'src/locales/en/messages.po': en, 'src/locales/de/messages.po': de });
    expect([r.verdict, ...lines(r)]).toEqual(['pass', 'src/locales/de/messages.po:9 needs-review/warning']);
  });
});

describe('Plural-Forms distribution (msgl-check.c: a form chosen for >= 5 of n = 0..1000 is judged strictly)', () => {
  it('evaluates the C expressions of real headers', () => {
    expect(pluralDistribution('Plural-Forms: nplurals=2; plural=(n != 1);')).toEqual([false, true]);
    expect(pluralDistribution('Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);')).toEqual([true, true, true]);
    expect(pluralDistribution('Plural-Forms: nplurals=1; plural=0;')).toEqual([true]);
    expect(pluralDistribution('Plural-Forms: nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5;')).toEqual([false, false, false, true, true, true]);
    expect(pluralDistribution(undefined)).toEqual([false, true]);
    expect(compilePlural('n %% 2')).toBeNull();
    expect(compilePlural('n / 0')!(3)).toBeNull();
  });
});

// PO files in the shape of real catalogs of each format (messages and flags as xgettext writes them).
const SHAPES: Record<string, { forms?: string; messages: Array<{ flags: string[]; msgid: string; msgidPlural?: string; msgstr: string[] }> }> = {
  'python (lutris)': {
    messages: [
      { flags: ['python-format'], msgid: 'Removing %s', msgstr: ['Entferne %s'] },
      { flags: ['python-format'], msgid: '%(name)s is not installed (%(count)d files)', msgstr: ['%(name)s ist nicht installiert (%(count)d Dateien)'] },
      { flags: ['python-format'], msgid: '%d%% downloaded', msgstr: ['%d%% heruntergeladen'] },
      { flags: ['python-brace-format'], msgid: 'Failed to install {0}', msgstr: ['Installation von {0} fehlgeschlagen'] },
      { flags: ['python-brace-format'], msgid: '{name} requires {count:d} GB', msgstr: ['{name} benötigt {count:d} GB'] },
      { flags: ['python-brace-format'], msgid: 'Game {game.name} in {dirs[0]}', msgstr: ['Spiel {game.name} in {dirs[0]}'] },
      { flags: ['python-format'], msgid: '%d game', msgidPlural: '%d games', msgstr: ['%d Spiel', '%d Spiele'] },
    ],
  },
  'c (GNOME Calculator)': {
    forms: 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);',
    messages: [
      { flags: ['c-format'], msgid: 'Exchange rates updated %s ago', msgstr: ['Курсы обновлены %s назад'] },
      { flags: ['c-format'], msgid: '%1$s of %2$lu', msgstr: ['%2$lu: %1$s'] },
      { flags: ['c-format'], msgid: '%.*f%%', msgstr: ['%.*f %%'] },
      { flags: ['c-format'], msgid: 'Size: %<PRIu64> bytes', msgstr: ['Размер: %<PRIu64> байт'] },
      { flags: ['c-format'], msgid: '%d second', msgidPlural: '%d seconds', msgstr: ['%d секунда', '%d секунды', '%d секунд'] },
      { flags: ['c-format'], msgid: 'Error: %m', msgstr: ['Ошибка: %m'] },
    ],
  },
  'objc / javascript / php / csharp': {
    messages: [
      { flags: ['objc-format'], msgid: 'Shared by %@', msgstr: ['Geteilt von %@'] },
      { flags: ['javascript-format'], msgid: 'Hello %s, you have %d new messages', msgstr: ['Hallo %s, du hast %d neue Nachrichten'] },
      { flags: ['javascript-format'], msgid: '%2$s by %1$s', msgstr: ['%1$s: %2$s'] },
      { flags: ['php-format'], msgid: 'Posted on %1$s at %2$s', msgstr: ['Veröffentlicht am %1$s um %2$s'] },
      { flags: ['php-format'], msgid: '%s comment', msgidPlural: '%s comments', msgstr: ['%s Kommentar', '%s Kommentare'] },
      { flags: ['csharp-format'], msgid: '{0} of {1} items', msgstr: ['{0} von {1} Elementen'] },
      { flags: ['csharp-format'], msgid: 'Total: {0:N2} {{EUR}}', msgstr: ['Summe: {0:N2} {{EUR}}'] },
    ],
  },
  'qt / kde / perl-brace': {
    messages: [
      { flags: ['qt-format'], msgid: 'Could not open %1: %2', msgstr: ['Konnte %1 nicht öffnen: %2'] },
      { flags: ['qt-format'], msgid: '%L1 MB free', msgstr: ['%L1 MB frei'] },
      { flags: ['kde-format'], msgid: 'Copying %1 to %2', msgstr: ['Kopiere %1 nach %2'] },
      { flags: ['kde-format'], msgid: 'One file', msgidPlural: '%1 files', msgstr: ['Eine Datei', '%1 Dateien'] },
      { flags: ['perl-brace-format'], msgid: 'Welcome, {user}! {count} new', msgstr: ['Willkommen, {user}! {count} neu'] },
    ],
  },
};

describe('msgfmt -c --check-format as the oracle', () => {
  for (const [name, shape] of Object.entries(SHAPES)) {
    it(`${name}: the same verdict as msgfmt on every message and on 400 fast-check mutants`, () => {
      const text = poFile(`Language: de\nContent-Type: text/plain; charset=UTF-8\nPlural-Forms: ${shape.forms ?? 'nplurals=2; plural=(n != 1);'}`, shape.messages);
      const asIs = differential(text);
      expect(asIs).toMatchObject({ judged: shape.messages.length, masked: 0, bothError: 0, disagreements: [] });
      const m = differential(mutantsFile(text, 400, 15));
      expect(m.disagreements).toEqual([]);
      // Not vacuous: many mutants are format errors for both, many are fine for both.
      expect(m.bothError).toBeGreaterThan(100);
      expect(m.bothFine).toBeGreaterThan(20);
    });
  }
});
