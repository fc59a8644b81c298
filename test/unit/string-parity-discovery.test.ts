// Discovery with a focus (the staged path): only the groups the targets can belong to are built and read, and each
// focused group is exactly the group full discovery builds (checked on every catalog file of the l10n corpus).
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { treeWorkspace } from '../../core/snapshot.js';
import type { Workspace } from '../../core/types.js';
import { memoryWorkspace } from '../../core/workspace.js';
import { discoverCatalogs, groupShapes } from '../../gates/string-parity/catalogs.js';
import { runGate } from '../../core/runner.js';
import { stringParityGate } from '../../gates/string-parity/index.js';
import { l10nCorpus } from '../helpers/corpus.js';

/** `ws` with a log of every path read. */
function counting(ws: Workspace): { ws: Workspace; reads: string[] } {
  const reads: string[] = [];
  return { ws: { ...ws, read: async (p: string) => (reads.push(p), ws.read(p)), readText: async (p: string) => (reads.push(p), ws.readText(p)) }, reads };
}

const str = (k: string, v: string) => `<resources>\n  <string name="${k}">${v}</string>\n</resources>\n`;

describe('string-parity discovery with a focus', () => {
  it('a staged translation reads its base and nothing else: not the other translations, not other modules or formats', async () => {
    const files = {
      'app/src/main/res/values/strings.xml': str('a', 'Play'),
      'app/src/main/res/values-de/strings.xml': str('a', 'Abspielen'),
      'app/src/main/res/values-fr/strings.xml': str('a', 'Jouer'),
      'app/src/main/res/values/colors.xml': '<resources><color name="c">#fff</color></resources>\n',
      'lib/src/main/res/values/strings.xml': str('b', 'Stop'),
      'lib/src/main/res/values-de/strings.xml': str('b', 'Halt'),
      'ios/en.lproj/Localizable.strings': '"a" = "Play";\n',
      'ios/de.lproj/Localizable.strings': '"a" = "Abspielen";\n',
      'web/locales/en.json': '{ "a": "Play" }\n',
    };
    const { ws, reads } = counting(memoryWorkspace({ files, targets: ['app/src/main/res/values-de/strings.xml'] }));
    const set = await discoverCatalogs(ws, { focus: ['app/src/main/res/values-de/strings.xml'] });
    expect(set.groups.map((g) => g.id)).toEqual(['app/src/main/res/values*/strings.xml']);
    expect(set.groups[0]!.files.map((f) => f.path)).toEqual([
      'app/src/main/res/values-de/strings.xml',
      'app/src/main/res/values-fr/strings.xml',
      'app/src/main/res/values/strings.xml',
    ]);
    // Its base, and the other base files of its values folder (colors.xml, read to see it holds no strings).
    expect(reads.sort()).toEqual(['app/src/main/res/values/colors.xml', 'app/src/main/res/values/strings.xml']);
    // Unfocused, the same workspace holds four groups (colors.xml holds no strings: not a catalog).
    expect((await discoverCatalogs(ws, {})).groups.map((g) => g.id)).toEqual([
      'app/src/main/res/values*/strings.xml',
      'ios/*.lproj/localizable.strings',
      'lib/src/main/res/values*/strings.xml',
      'web/locales/*.json',
    ]);
  });

  it('translations of a base without string resources are read one by one, and kept only when they hold strings', async () => {
    const files = {
      'res/values/extra.xml': '<resources><color name="c">#fff</color></resources>\n',
      'res/values-de/extra.xml': str('x', 'nur hier'),
      'res/values-fr/extra.xml': '<resources><dimen name="d">4dp</dimen></resources>\n',
    };
    const { ws, reads } = counting(memoryWorkspace({ files, mode: 'all' }));
    const set = await discoverCatalogs(ws, {});
    expect(set.groups.map((g) => [g.id, g.base, g.files.map((f) => f.path)])).toEqual([['res/values*/extra.xml', null, ['res/values-de/extra.xml']]]);
    expect(reads.sort()).toEqual(['res/values-de/extra.xml', 'res/values-fr/extra.xml', 'res/values/extra.xml']);
  });

  it('on every catalog file of the l10n corpus, the focused group equals the group full discovery builds', async () => {
    let checked = 0;
    for (const project of readdirSync(l10nCorpus).filter((d) => !d.endsWith('.md'))) {
      const ws = await treeWorkspace(`${l10nCorpus}/${project}`, 'all');
      const full = await discoverCatalogs(ws, {});
      for (const g of full.groups) {
        // Any two files of one group share a shape key, so a focus on any of them keeps the whole group.
        const keys = new Set(groupShapes(g.files[0]!.path));
        for (const f of g.files) expect(groupShapes(f.path).some((k) => keys.has(k)), f.path).toBe(true);
        const focused = await discoverCatalogs(ws, { focus: [g.files[g.files.length - 1]!.path] });
        expect(focused.groups.find((x) => x.id === g.id), g.id).toEqual(g);
        checked++;
      }
    }
    // AntennaPod, Chia, IceCubesApp, lichess and mastodon-ios together hold 23 catalog groups.
    expect(checked).toBe(23);
  });
});

describe('string-parity: Android merges a values folder', () => {
  const files = {
    'app/src/main/res/values/strings.xml': str('a', 'Play'),
    'app/src/main/res/values/strings_settings.xml': str('settings_title', 'Settings for %1$s'),
    'app/src/main/res/values-de/strings.xml': '<resources>\n  <string name="a">Abspielen</string>\n  <string name="settings_title">Einstellungen %1$d %3$s</string>\n</resources>\n',
  };
  const run = (mode: 'staged' | 'all') =>
    runGate(
      { gate: stringParityGate, config: stringParityGate.configSchema.parse({}), timeoutMs: 60_000 },
      { ws: memoryWorkspace({ files, mode, ...(mode === 'staged' ? { targets: ['app/src/main/res/values-de/strings.xml'] } : {}) }), cacheRoot: '/tmp/loopgates-test-cache' },
    );
  it.each(['staged', 'all'] as const)('%s: a translation in strings.xml of a key defined in values/strings_settings.xml is compared with it', async (mode) => {
    const r = await run(mode);
    expect(r.verdict).toBe('fail');
    const de = r.findings.filter((f) => f.file === 'app/src/main/res/values-de/strings.xml');
    expect(de.map((f) => `${f.rule}:${f.line}`)).toEqual(expect.arrayContaining(['placeholder-mismatch:3']));
    expect(de.filter((f) => f.rule === 'extra-key')).toEqual([]);
  });
  it('a translation whose keys have no default in values/ (the base deleted) is an error, not a pass', async () => {
    const only = {
      'app/src/main/res/values/colors.xml': '<resources><color name="c">#fff</color></resources>\n',
      'app/src/main/res/values-de/strings.xml': '<resources>\n  <string name="a">Abspielen %1$d %5$s</string>\n</resources>\n',
    };
    const r = await runGate(
      { gate: stringParityGate, config: stringParityGate.configSchema.parse({}), timeoutMs: 60_000 },
      { ws: memoryWorkspace({ files: only, targets: ['app/src/main/res/values-de/strings.xml'] }), cacheRoot: '/tmp/loopgates-test-cache' },
    );
    expect(r.verdict).toBe('fail');
    expect(r.findings.map((f) => `${f.rule}/${f.severity}:${f.line}`)).toEqual(['missing-default/error:1']);
    expect(r.findings[0]!.message).toBe('de: 1 key has no default in app/src/main/res/values/ (`a`): on a device in any other locale getString throws Resources.NotFoundException');
  });
  it('keys defined in a sibling base file have their default', async () => {
    const r = await run('all');
    expect(r.findings.filter((f) => f.rule === 'missing-default')).toEqual([]);
  });
});

describe('string-parity: Android qualifiers other than the locale', () => {
  it('values-de-land/ takes its defaults from values/: known keys are compared, unknown ones have no default', async () => {
    const files = {
      'res/values/strings.xml': str('a', 'Play %1$s'),
      'res/values-de-land/strings.xml': '<resources>\n  <string name="a">Abspielen %1$d</string>\n  <string name="b">Nur hier</string>\n</resources>\n',
    };
    const r = await runGate(
      { gate: stringParityGate, config: stringParityGate.configSchema.parse({}), timeoutMs: 60_000 },
      { ws: memoryWorkspace({ files, mode: 'all' }), cacheRoot: '/tmp/loopgates-test-cache' },
    );
    expect(r.findings.map((f) => `${f.rule}/${f.severity}:${f.line}`).sort()).toEqual(['missing-default/error:1', 'placeholder-mismatch/error:2']);
    expect(r.findings.find((f) => f.rule === 'missing-default')!.message).toBe('de: 1 key has no default in res/values/ (`b`): on a device in any other locale getString throws Resources.NotFoundException');
  });
});

describe('string-parity: JSON flavour', () => {
  const detect = async (files: Record<string, string>) => (await discoverCatalogs(memoryWorkspace({ files, mode: 'all' }), {})).groups.map((g) => g.format);
  it('a base without interpolation takes its flavour from its translations ({{name}} is i18next)', async () => {
    expect(await detect({ 'public/locales/en/common.json': '{"hello":"Hello"}\n', 'public/locales/de/common.json': '{"hello":"Hallo {{name}}"}\n' })).toEqual(['i18next-json']);
  });
  it('a base with an ICU argument stays ICU whatever a translation writes', async () => {
    expect(await detect({ 'locales/en.json': '{"hello":"Hello {name}"}\n', 'locales/de.json': '{"hello":"Hallo {{name}}"}\n' })).toEqual(['icu-json']);
  });
  it('without interpolation anywhere: ICU', async () => {
    expect(await detect({ 'locales/en.json': '{"hello":"Hello"}\n', 'locales/de.json': '{"hello":"Hallo"}\n' })).toEqual(['icu-json']);
  });
});

describe('discovery notes when no file is in the base locale', () => {
  it('Apple tables in de and fr only: the note names the locales and gates.string-parity.baseLocale', async () => {
    const ws = memoryWorkspace({ mode: 'all', files: { 'App/de.lproj/Localizable.strings': '"a" = "A %@";\n', 'App/fr.lproj/Localizable.strings': '"a" = "A %@";\n' } });
    const set = await discoverCatalogs(ws);
    expect(set.notes).toEqual(['catalog App/*.lproj/localizable.strings: no base file found (2 files: de, fr); only their own syntax is checked; if their keys are written in one of these languages, set gates.string-parity.baseLocale']);
  });
  it('i18next folders de and fr only: not read as catalogs, and the note says why and what to set', async () => {
    const ws = memoryWorkspace({ mode: 'all', files: { 'public/locales/de/common.json': '{"a": "A {{n}}"}\n', 'public/locales/fr/common.json': '{"a": "A {{n}}"}\n' } });
    const set = await discoverCatalogs(ws);
    expect(set.groups).toEqual([]);
    expect(set.notes).toEqual(['public/locales/*/common.json: JSON files named by locale (de, fr) but none for the base locale en: not read as catalogs; if they are, set gates.string-parity.baseLocale to the language their keys are written in']);
    expect((await discoverCatalogs(ws, { baseLocale: 'de' })).groups.map((g) => [g.id, g.base?.path])).toEqual([['public/locales/*/common.json', 'public/locales/de/common.json']]);
  });
});
