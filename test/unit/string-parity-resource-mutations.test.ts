// string-parity operators for rules of a catalog's own resources (not a placeholder or plural compared with the base):
// an unescaped apostrophe in an Android translation, a second definition of a resource in one values file, a
// translation emptied. Each mutant must leave the file parseable in its format and be killed by exactly its rule at
// its line: the error findings of the mutated file are that one rule at that line, nothing else (no `unparsable`).
// Fixtures in the shape of AntennaPod's and mastodon-android's values-*/strings.xml.
import { describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import { memoryWorkspace } from '../../core/workspace.js';
import type { MutationOperator } from '../../core/types.js';
import { seededRandom } from '../../mutations/random.js';
import { stringParityGate } from '../../gates/string-parity/index.js';
import { stringParityFacts, type StringParityFacts } from '../../gates/string-parity/mutation-facts.js';

const configOf = (rules: Record<string, string> = {}) => stringParityGate.configSchema.parse({ rules });
const ctxOf = (files: Record<string, string>, config = configOf()) => ({ ws: memoryWorkspace({ files, mode: 'all' }), config, signal: new AbortController().signal, runTool: (() => { throw new Error('no tools'); }) as never, cacheDir: '/tmp/loopgates-test-cache/sp-resources', log: () => {} });
const judge = (files: Record<string, string>, path: string, config = configOf()) =>
  runGate({ gate: stringParityGate, config, timeoutMs: 30_000 }, { ws: memoryWorkspace({ files, targets: [path] }), cacheRoot: '/tmp/loopgates-test-cache' });
const op = (id: string) => stringParityGate.mutations.find((m) => m.id === id) as MutationOperator<StringParityFacts> | undefined;

/** Every distinct mutant seeds 1..n make of `path`, each judged: description -> `killed at N` or what was found. */
async function mutants(id: string, files: Record<string, string>, path: string, config = configOf(), n = 24): Promise<Record<string, string>> {
  const o = op(id);
  if (!o) return {};
  const facts = await stringParityFacts(ctxOf(files, config), path);
  const out: Record<string, string> = {};
  for (let seed = 1; seed <= n; seed++) {
    const m = o.mutate(path, files[path]!, seededRandom(seed), facts);
    if (!m || out[m.description]) continue;
    const r = await judge({ ...files, [path]: m.content }, path, config);
    const at = r.findings.filter((f) => f.severity === 'error' && f.file === path).map((f) => `${f.line} ${f.rule}`);
    out[m.description] = at.join(', ') === `${m.line} ${m.rule}` ? `killed at ${m.line}` : `NOT killed: ${at.join(', ')}`;
  }
  return out;
}

const BASE = 'app/src/main/res/values/strings.xml';
const DE = 'app/src/main/res/values-de/strings.xml';
const android = {
  [BASE]: '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="app_name" translatable="false">Notes</string>\n    <string name="action_new_note">New note</string>\n    <string name="dont_stop">"Don\'t" stop</string>\n    <string name="note_saved">Saved %1$s</string>\n    <string name="sync_hint">Tap <b>Sync</b></string>\n</resources>\n',
  // `stale`: a key no default defines (missing-default, an error, unless Lint's tools:ignore says otherwise): kept a
  // warning here so the file is green and the operators must still leave it alone.
  [DE]: '<?xml version="1.0" encoding="utf-8"?>\n<resources xmlns:tools="http://schemas.android.com/tools">\n    <string name="action_new_note">Neue Notiz</string>\n    <!-- <string name="old">Alt</string> -->\n    <string name="dont_stop">"Nicht" stoppen</string>\n    <string name="note_saved">%1$s gespeichert</string>\n    <string name="sync_hint">Tippe auf <b>Sync</b></string>\n    <string name="stale" tools:ignore="ExtraTranslation">Veraltet</string>\n</resources>\n',
};

describe('string-parity/android-unescaped-apostrophe', () => {
  it("writes a bare ' into a translated plain <string> of an Android translation; killed at its line", async () => {
    expect((await judge(android, DE)).verdict).toBe('pass');
    // After a word, never in a placeholder (`%1$s'`); not in the quoted `"Nicht" stoppen` (aapt2 keeps a ' inside
    // "…"), styled text, a comment, a stale key (extra-key) or an untranslatable one.
    expect(await mutants('string-parity/android-unescaped-apostrophe', android, DE)).toEqual({
      "wrote an unescaped ' in de `action_new_note` (Neue')": 'killed at 3',
      "wrote an unescaped ' in de `note_saved` (gespeichert')": 'killed at 6',
    });
  });

  it('no place in a base, outside Android, or where the rule does not refuse', async () => {
    const o = op('string-parity/android-unescaped-apostrophe');
    expect(o).toBeDefined();
    expect(o!.mutate(BASE, android[BASE], seededRandom(1), await stringParityFacts(ctxOf(android), BASE))).toBeNull();
    expect(o!.appliesTo('locales/de/common.json')).toBe(false);
    const off = configOf({ 'android-unescaped-apostrophe': 'warning' });
    expect(o!.mutate(DE, android[DE], seededRandom(1), await stringParityFacts(ctxOf(android, off), DE))).toBeNull();
  });
});

describe('string-parity/duplicate-resource', () => {
  it('defines a translated <string> a second time in its values file, right after it; killed at the copy', async () => {
    // Every translated string with a base string is a place (a quoted or styled one too); never a stale key.
    expect(await mutants('string-parity/duplicate-resource', android, DE)).toEqual({
      'defined de `action_new_note` a second time (a copy of line 3)': 'killed at 4',
      'defined de `dont_stop` a second time (a copy of line 5)': 'killed at 6',
      'defined de `note_saved` a second time (a copy of line 6)': 'killed at 7',
      'defined de `sync_hint` a second time (a copy of line 7)': 'killed at 8',
    });
  });

  it('no place in a base, outside Android, or where the rule does not refuse', async () => {
    const o = op('string-parity/duplicate-resource');
    expect(o).toBeDefined();
    expect(o!.mutate(BASE, android[BASE], seededRandom(1), await stringParityFacts(ctxOf(android), BASE))).toBeNull();
    expect(o!.appliesTo('App/de.lproj/Localizable.strings')).toBe(false);
    const off = configOf({ 'duplicate-resource': 'off' });
    expect(o!.mutate(DE, android[DE], seededRandom(1), await stringParityFacts(ctxOf(android, off), DE))).toBeNull();
  });
});

describe('string-parity/empty-value', () => {
  // empty-value warns by default; a team that makes it an error has the gate refuse an emptied translation.
  const refusing = configOf({ 'empty-value': 'error' });
  const EMPTY = 'string-parity/empty-value';

  it('Android: empties a translated <string> whose base has text; killed at the element', async () => {
    expect((await judge(android, DE, refusing)).verdict).toBe('pass');
    // Not `note_saved` (base `Saved %1$s`): the gate reports the base's %1$s missing from an empty text too.
    expect(await mutants(EMPTY, android, DE, refusing)).toEqual({
      'emptied de `action_new_note`': 'killed at 3',
      'emptied de `dont_stop`': 'killed at 5',
      'emptied de `sync_hint`': 'killed at 7',
    });
  });

  it('i18next JSON, ARB, Apple .strings and .xcstrings: the value becomes "" (the file stays JSON / .strings)', async () => {
    // ARB `title` ({name}) and .strings `saved` (%@) are no place: the gate reports their arguments missing too.
    const cases: Array<[Record<string, string>, string, Record<string, string>]> = [
      [{ 'locales/en/common.json': '{\n  "title": "Notes of {{name}}",\n  "nested": {\n    "save": "Save \\"now\\""\n  }\n}\n', 'locales/de/common.json': '{\n  "title": "Notizen von {{name}}",\n  "nested": {\n    "save": "Jetzt \\"speichern\\""\n  }\n}\n' }, 'locales/de/common.json', { 'emptied de `title`': 'killed at 2', 'emptied de `nested.save`': 'killed at 4' }],
      [{ 'lib/l10n/app_en.arb': '{\n  "@@locale": "en",\n  "title": "Hello {name}",\n  "@title": { "placeholders": { "name": {} } },\n  "bye": "Bye"\n}\n', 'lib/l10n/app_de.arb': '{\n  "@@locale": "de",\n  "title": "Hallo {name}",\n  "bye": "Tschüss"\n}\n' }, 'lib/l10n/app_de.arb', { 'emptied de `bye`': 'killed at 4' }],
      [{ 'App/en.lproj/Localizable.strings': '/* Title */\n"title" = "Title";\n"saved" = "Saved %@";\n', 'App/de.lproj/Localizable.strings': '/* Title */\n"title" = "Titel";\n"saved" =\n  "%@ gespeichert";\n' }, 'App/de.lproj/Localizable.strings', { 'emptied de `title`': 'killed at 2' }],
      [{ 'App/Localizable.xcstrings': `${JSON.stringify({ sourceLanguage: 'en', version: '1.0', strings: { title: { localizations: { en: { stringUnit: { state: 'translated', value: 'Title' } }, de: { stringUnit: { state: 'translated', value: 'Titel' } } } } } }, null, 2)}\n` }, 'App/Localizable.xcstrings', { 'emptied de `title`': 'killed at 16' }],
    ];
    for (const [files, path, want] of cases) {
      expect((await judge(files, path, refusing)).verdict, path).toBe('pass');
      const got = await mutants(EMPTY, files, path, refusing);
      expect(got, path).toEqual(want);
      // The mutant is the defect, not a syntax error: JSON catalogs still parse.
      if (/\.(?:json|arb|xcstrings)$/.test(path)) {
        const m = op(EMPTY)!.mutate(path, files[path]!, seededRandom(1), await stringParityFacts(ctxOf(files, refusing), path))!;
        expect(() => JSON.parse(m.content), path).not.toThrow();
      }
    }
  });

  it('no place where empty is missing (react-intl JSON, PO msgstr ""), in a base, or while the rule only warns', async () => {
    const o = op(EMPTY);
    expect(o).toBeDefined();
    // FormatJS/react-intl shows the default message for "" (missing-key), gettext the msgid for msgstr "".
    const icu = { 'lang/en.json': '{\n  "title": "Title {n}"\n}\n', 'lang/de.json': '{\n  "title": "Titel {n}"\n}\n' };
    expect(o!.mutate('lang/de.json', icu['lang/de.json'], seededRandom(1), await stringParityFacts(ctxOf(icu, refusing), 'lang/de.json'))).toBeNull();
    const po = { 'po/app.pot': 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Title"\nmsgstr ""\n', 'po/de.po': 'msgid ""\nmsgstr ""\n"Language: de\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "Title"\nmsgstr "Titel"\n' };
    expect(o!.mutate('po/de.po', po['po/de.po'], seededRandom(1), await stringParityFacts(ctxOf(po, refusing), 'po/de.po'))).toBeNull();
    expect(o!.mutate(BASE, android[BASE], seededRandom(1), await stringParityFacts(ctxOf(android, refusing), BASE))).toBeNull();
    expect(o!.mutate(DE, android[DE], seededRandom(1), await stringParityFacts(ctxOf(android), DE))).toBeNull();
  });
});

describe('a U+2028 in an Android translation (mastodon-android values-sq-rAL)', () => {
  it('each operator changes the string it names and reports the line git shows, though the parser counts one more', async () => {
    // The gate's XML reader counts U+2028 as a line end (as xmldom did), so after one its entry lines run a line
    // ahead of the file's. The operators find their element by name and report its line in the file.
    const files = { ...android, [DE]: android[DE].replace('Neue Notiz', 'Neue\u2028Notiz') };
    const refusing = configOf({ 'empty-value': 'error' });
    const facts = await stringParityFacts(ctxOf(files, refusing), DE);
    const lines = files[DE].split('\n');
    for (const id of ['string-parity/android-unescaped-apostrophe', 'string-parity/duplicate-resource', 'string-parity/empty-value']) {
      for (let seed = 1; seed <= 12; seed++) {
        const m = op(id)!.mutate(DE, files[DE], seededRandom(seed), facts)!;
        const key = /`([^`]+)`/.exec(m.description)![1]!;
        const at = m.content.split('\n')[m.line - 1]!;
        // The mutant's line holds the element it names, changed (or, for a duplicate, its copy: one line more).
        expect(at, `${id} ${m.description}`).toContain(`name="${key}"`);
        if (id.endsWith('duplicate-resource')) expect(m.content.split('\n').length, m.description).toBe(lines.length + 1);
        else expect(at, m.description).not.toBe(lines[m.line - 1]);
      }
    }
  });
});
