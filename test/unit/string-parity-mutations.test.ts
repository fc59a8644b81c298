import { describe, expect, it } from 'vitest';
import { treeWorkspace } from '../../core/snapshot.js';
import { memoryWorkspace, overlayWorkspace } from '../../core/workspace.js';
import { runGate } from '../../core/runner.js';
import { runTool } from '../../core/tools.js';
import type { GateContext, MutationOperator, Workspace } from '../../core/types.js';
import { stringParityGate } from '../../gates/string-parity/index.js';
import type { StringParityFacts } from '../../gates/string-parity/mutation-facts.js';
import { l10nCorpus } from '../helpers/corpus.js';

const config = stringParityGate.configSchema.parse({});
const ctxOf = (ws: Workspace, c: unknown = config): GateContext<any> => ({ ws, config: c, signal: new AbortController().signal, runTool, cacheDir: '/tmp/loopgates-test-cache', log: () => {} });
const op = (id: string) => stringParityGate.mutations.find((m) => m.id === id)! as MutationOperator<StringParityFacts>;
const factsOf = (o: MutationOperator<StringParityFacts>, ws: Workspace, path: string, c?: unknown) => o.facts!(ctxOf(ws, c), path);

const seeded = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};

const cases: Array<[string, string, string]> = [
  ['string-parity/delete-placeholder', 'AntennaPod__AntennaPod', 'ui/i18n/src/main/res/values-de/strings.xml'],
  ['string-parity/change-specifier-type', 'AntennaPod__AntennaPod', 'ui/i18n/src/main/res/values-de/strings.xml'],
  ['string-parity/drop-plural-category', 'AntennaPod__AntennaPod', 'ui/i18n/src/main/res/values-pl/strings.xml'],
  ['string-parity/delete-placeholder', 'mastodon__mastodon-ios', 'MastodonSDK/Sources/MastodonLocalization/Resources/de.lproj/Localizable.strings'],
  ['string-parity/change-specifier-type', 'mastodon__mastodon-ios', 'MastodonSDK/Sources/MastodonLocalization/Resources/de.lproj/Localizable.strings'],
  ['string-parity/delete-placeholder', 'lichess-org__mobile', 'lib/l10n/app_de.arb'],
  ['string-parity/drop-plural-category', 'lichess-org__mobile', 'lib/l10n/app_pl.arb'],
  ['string-parity/drop-plural-category', 'Dimillian__IceCubesApp', 'IceCubesApp/Resources/Localization/Localizable.xcstrings'],
];

describe('string-parity mutation operators on real translations', () => {
  for (const [id, project, path] of cases) {
    it(`${id} on ${project} ${path} is killed at the mutant's line`, async () => {
      const o = op(id);
      expect(o.appliesTo(path)).toBe(true);
      const ws = await treeWorkspace(`${l10nCorpus}/${project}`, 'all');
      const content = await ws.readText(path);
      const facts = await factsOf(o, ws, path);
      const killedAt: number[] = [];
      for (const seed of [1, 2, 3]) {
        const m = o.mutate(path, content, seeded(seed), facts);
        expect(m).not.toBeNull();
        expect(m!.content).not.toBe(content);
        const over = overlayWorkspace(ws, new Map([[path, m!.content]]), [path]);
        const r = await runGate({ gate: stringParityGate, config, timeoutMs: 60_000 }, { ws: over, cacheRoot: '/tmp/loopgates-test-cache' });
        expect(r.verdict, m!.description).toBe('fail');
        expect(r.findings.filter((f) => f.severity === 'error').map((f) => `${f.file}:${f.line}`), m!.description).toContain(`${path}:${m!.line}`);
        killedAt.push(m!.line);
      }
      expect(killedAt.length).toBe(3);
    });
  }
});

// Survivors of `mutate --all-inputs` on the corpus: each was a place where the gate's documented policy calls nothing a
// defect, so the operator must not choose it (the gate was right every time; see the README "Mutation operators").
describe('string-parity operators choose only places the gate must call a defect', () => {
  const seeds = Array.from({ length: 25 }, (_, i) => i + 1);
  const mutantsOf = async (id: string, project: string, path: string, c?: unknown) => {
    const ws = await treeWorkspace(`${l10nCorpus}/${project}`, 'all');
    const o = op(id);
    const facts = await factsOf(o, ws, path, c);
    const content = await ws.readText(path);
    return { facts, content, mutants: seeds.map((s) => o.mutate(path, content, seeded(s), facts)) };
  };

  it('drop-plural-category leaves Spanish `many` (exact millions only) unless plurals: cldr requires it', async () => {
    const path = 'ui/i18n/src/main/res/values-es/strings.xml';
    const byDefault = await mutantsOf('string-parity/drop-plural-category', 'AntennaPod__AntennaPod', path);
    expect(byDefault.mutants.every((m) => m !== null)).toBe(true);
    expect(byDefault.mutants.map((m) => m!.description).filter((d) => /category many /.test(d))).toEqual([]);
    const manyLines = [...byDefault.facts.lines.values()].filter((f) => f.selector === 'many');
    expect(manyLines.length).toBe(34);
    expect(manyLines.every((f) => !f.required.includes('many'))).toBe(true);
    const cldr = await mutantsOf('string-parity/drop-plural-category', 'AntennaPod__AntennaPod', path, stringParityGate.configSchema.parse({ plurals: 'cldr' }));
    expect([...cldr.facts.lines.values()].filter((f) => f.selector === 'many').every((f) => f.required.includes('many'))).toBe(true);
    const off = await mutantsOf('string-parity/drop-plural-category', 'AntennaPod__AntennaPod', path, stringParityGate.configSchema.parse({ plurals: 'off' }));
    expect(off.mutants.every((m) => m === null)).toBe(true);
  });

  it('drop-plural-category leaves Hebrew `many` (not a CLDR category of he) and `=1`/`=2`-covered plurals in ARB', async () => {
    // he requires one, two, other; lichess writes `=1{…} =2{…} many{…} other{…}`, and gen-l10n takes =1/=2 for one/two.
    const r = await mutantsOf('string-parity/drop-plural-category', 'lichess-org__mobile', 'lib/l10n/app_he.arb');
    expect(r.content).toMatch(/=1\{.*=2\{.*many\{/);
    expect(r.mutants.every((m) => m === null)).toBe(true);
    const pl = await mutantsOf('string-parity/drop-plural-category', 'lichess-org__mobile', 'lib/l10n/app_pl.arb');
    expect(pl.mutants.every((m) => m !== null && /category (one|few|many) /.test(m.description))).toBe(true);
  });

  it('change-specifier-type leaves a stale Slovenian key that the base does not hold (reported as extra-key)', async () => {
    const path = 'ui/i18n/src/main/res/values-sl/strings.xml';
    const r = await mutantsOf('string-parity/change-specifier-type', 'AntennaPod__AntennaPod', path);
    expect(r.content.split('\n')[378]).toContain('name="pref_feed_skip_ending_toast">Preskočenih zadnjih %d sekund<');
    expect(r.facts.lines.get(379)).toBeUndefined();
    expect(r.mutants.every((m) => m !== null && m.line !== 379)).toBe(true);
  });

  it('no operator mutates a template (lichess app_en.arb) ', async () => {
    for (const id of ['string-parity/delete-placeholder', 'string-parity/drop-plural-category']) {
      const r = await mutantsOf(id, 'lichess-org__mobile', 'lib/l10n/app_en.arb');
      expect(r.facts.isBase).toBe(true);
      expect(r.mutants.every((m) => m === null), id).toBe(true);
    }
  });

  it('delete-placeholder never deletes from a .stringsdict or .xcstrings plural variant (the count may be left out there)', async () => {
    const cases: Array<[string, string]> = [
      ['mastodon__mastodon-ios', 'MastodonSDK/Sources/MastodonLocalization/Resources/zh-Hans.lproj/Localizable.stringsdict'],
      ['Dimillian__IceCubesApp', 'IceCubesApp/Resources/Localization/Localizable.xcstrings'],
    ];
    for (const [project, path] of cases) {
      const r = await mutantsOf('string-parity/delete-placeholder', project, path);
      // The file has variant lines with placeholders that the operator could have picked.
      expect([...r.facts.lines.values()].some((f) => f.selector && /%/.test(f.text)), path).toBe(true);
      for (const m of r.mutants) {
        expect(m, path).not.toBeNull();
        const f = r.facts.lines.get(m!.line)!;
        expect(f.exact && f.selector === undefined, `${path}:${m!.line} ${m!.description}`).toBe(true);
      }
    }
  });

  it('change-specifier-type leaves texts that mix %1$@ with an unnumbered %ld (mastodon-ios kab)', async () => {
    const r = await mutantsOf('string-parity/change-specifier-type', 'mastodon__mastodon-ios', 'MastodonSDK/Sources/MastodonLocalization/Resources/kab.lproj/Localizable.stringsdict');
    expect(r.content.split('\n')[92]).toContain('%1$@, akked %ld');
    expect(r.mutants.every((m) => m !== null && m.line !== 93)).toBe(true);
  });

  it('delete-placeholder leaves a PO value that is only the placeholder, and an ICU option body `one {mojo}` (Chia)', async () => {
    const ar = await mutantsOf('string-parity/delete-placeholder', 'Chia-Network__chia-blockchain-gui', 'packages/gui/src/locales/ar-SA/messages.po');
    expect(ar.content.split('\n')[3718]).toBe('msgstr "{headerHash}"');
    expect(ar.mutants.every((m) => m !== null && m.line !== 3719)).toBe(true);
    const ws = memoryWorkspace({
      files: {
        'src/locales/en/messages.po': 'msgid ""\nmsgstr ""\n"Language: en\\n"\n\nmsgid "{0, plural, one {mojo} other {mojos}}"\nmsgstr "{0, plural, one {mojo} other {mojos}}"\n\nmsgid "Hi {name}"\nmsgstr "Hi {name}"\n',
        'src/locales/fa/messages.po': 'msgid ""\nmsgstr ""\n"Language: fa\\n"\n\nmsgid "{0, plural, one {mojo} other {mojos}}"\nmsgstr "{0, plural, one {mojo} other {mojos}}"\n\nmsgid "Hi {name}"\nmsgstr "Salam {name}"\n',
        '.linguirc': '{"sourceLocale": "en", "locales": ["en", "fa"]}',
      },
      mode: 'all',
    });
    const o = op('string-parity/delete-placeholder');
    const path = 'src/locales/fa/messages.po';
    const facts = await factsOf(o, ws, path);
    expect(facts.catalog).toBe(true);
    for (const s of seeds) expect(o.mutate(path, await ws.readText(path), seeded(s), facts)?.description).toBe('deleted {name} from fa `Hi {name}`');
  });

  it('delete-placeholder finds places in the Localazy layout (values/localazy.xml + values-de/translations.xml, no same-name base), killed (F6a: 0 sites)', async () => {
    const res = 'libraries/ui-strings/src/main/res';
    const xml = (...e: string[]) => `<?xml version="1.0" encoding="utf-8"?>\n<resources>\n${e.map((x) => `  ${x}\n`).join('')}</resources>\n`;
    const path = `${res}/values-de/translations.xml`;
    const ws = memoryWorkspace({
      files: {
        [`${res}/values/localazy.xml`]: xml('<string name="a11y_delete">Delete</string>', '<string name="common_sending_to">Sending to %1$s</string>'),
        [path]: xml('<string name="a11y_delete">Löschen</string>', '<string name="common_sending_to">Senden an %1$s</string>'),
        [`${res}/values-fr/translations.xml`]: xml('<string name="common_sending_to">Envoi à %1$s</string>'),
      },
      mode: 'all',
    });
    const o = op('string-parity/delete-placeholder');
    expect(o.appliesTo(path)).toBe(true);
    const facts = await factsOf(o, ws, path);
    expect([...facts.lines.keys()]).toEqual([4]);
    const m = o.mutate(path, await ws.readText(path), seeded(1), facts)!;
    expect(m.line).toBe(4);
    const r = await runGate({ gate: stringParityGate, config, timeoutMs: 10_000 }, { ws: overlayWorkspace(ws, new Map([[path, m.content]]), [path]), cacheRoot: '/tmp/loopgates-test-cache' });
    expect(r.findings.filter((f) => f.severity === 'error').map((f) => `${f.file}:${f.line} ${f.rule}`)).toEqual([`${path}:4 placeholder-mismatch`]);
  });

  it('delete-placeholder finds places in a gettext po/ folder with format flags and no .pot (each message judged against its msgid), killed', async () => {
    const h = (l: string) => `msgid ""\nmsgstr ""\n"Language: ${l}\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n`;
    const path = 'po/de.po';
    const ws = memoryWorkspace({
      files: {
        [path]: `${h('de')}#, python-format\nmsgid "Removing %s"\nmsgstr "Entferne %s"\n\n#, fuzzy, python-format\nmsgid "Moving %s"\nmsgstr "Verschiebe %s"\n\n#, no-python-format\nmsgid "100%"\nmsgstr "100%"\n`,
        'po/fr.po': `${h('fr')}#, python-format\nmsgid "Removing %s"\nmsgstr "Suppression de %s"\n`,
      },
      mode: 'all',
    });
    const o = op('string-parity/delete-placeholder');
    const facts = await factsOf(o, ws, path);
    expect([...facts.lines.keys()]).toEqual([8]);
    const m = o.mutate(path, await ws.readText(path), seeded(1), facts)!;
    expect([m.line, m.description]).toEqual([8, 'deleted %s from de `Removing %s`']);
    const r = await runGate({ gate: stringParityGate, config, timeoutMs: 10_000 }, { ws: overlayWorkspace(ws, new Map([[path, m.content]]), [path]), cacheRoot: '/tmp/loopgates-test-cache' });
    expect(r.findings.filter((f) => f.rule === 'placeholder-mismatch').map((f) => `${f.file}:${f.line}`)).toEqual(['po/de.po:8']);
  });
});

// fresh-user-6 G13: an .xcstrings plural (`variations.plural`) had "no place" for drop-plural-category, though
// dropping a de `one` by hand is refused by the gate.
describe('drop-plural-category in a String Catalog', () => {
  const unit = (value: string) => ({ stringUnit: { state: 'translated', value } });
  const catalog = JSON.stringify(
    {
      sourceLanguage: 'en',
      strings: {
        'followers %lld': {
          localizations: {
            en: { variations: { plural: { one: unit('%lld follower'), other: unit('%lld followers') } } },
            de: { variations: { plural: { one: unit('%lld Follower'), other: unit('%lld Follower') } } },
          },
        },
        title: { localizations: { en: unit('Title'), de: unit('Titel') } },
      },
      version: '1.0',
    },
    null,
    2,
  ).replace(/": /g, '" : ') + '\n';
  const path = 'App/Localizable.xcstrings';

  it('drops a de variant (either member, the file stays JSON) and the gate reports exactly that plural-missing-category', async () => {
    const o = op('string-parity/drop-plural-category');
    const ws = memoryWorkspace({ mode: 'all', files: { [path]: catalog } });
    const facts = await factsOf(o, ws, path);
    const seen = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const m = o.mutate(path, catalog, seeded(seed), facts);
      expect(m).not.toBeNull();
      expect(() => JSON.parse(m!.content)).not.toThrow();
      const de = (JSON.parse(m!.content) as any).strings['followers %lld'].localizations;
      expect(Object.keys(de.en.variations.plural)).toEqual(['one', 'other']);
      expect(Object.keys(de.de.variations.plural)).toHaveLength(1);
      seen.add(m!.description);
      const over = overlayWorkspace(ws, new Map([[path, m!.content]]), [path]);
      const r = await runGate({ gate: stringParityGate, config, timeoutMs: 60_000 }, { ws: over, cacheRoot: '/tmp/loopgates-test-cache' });
      expect(r.findings.filter((f) => f.severity === 'error').map((f) => `${f.file}:${f.line} ${f.rule}`), m!.description).toEqual([`${path}:${m!.line} plural-missing-category`]);
    }
    expect([...seen].sort()).toEqual(['dropped plural category one from de `followers %lld`', 'dropped plural category other from de `followers %lld`']);
  });
});
