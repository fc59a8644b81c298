// The base catalog from the project's own declaration (issue 15, item 2): an Xcode project whose developmentRegion is
// en-US keeps its base in en-US.lproj (the gate fell back to syntax checks), a web app whose i18next fallbackLng is
// en-US keeps it in en_US/ (the gate silently took en_GB/, hiding missing keys). Declarations are read first; a guess
// among file names is said on every run. Shapes: Xcode 14 project.pbxproj (PBXProject section), open-webui's
// src/lib/i18n/index.ts (`fallbackLng: { default: ['en-US'] }`) and i18next-parser.config.ts.
import { describe, expect, it } from 'vitest';
import { memoryWorkspace } from '../../core/workspace.js';
import { runGate } from '../../core/runner.js';
import type { GateResult } from '../../core/types.js';
import { discoverCatalogs } from '../../gates/string-parity/catalogs.js';
import { stringParityGate } from '../../gates/string-parity/index.js';

const run = (files: Record<string, string>, config: unknown = {}): Promise<GateResult> =>
  runGate({ gate: stringParityGate, config: stringParityGate.configSchema.parse(config), timeoutMs: 10_000 }, { ws: memoryWorkspace({ files, mode: 'all' }), cacheRoot: '/tmp/loopgates-test-cache' });
const lines = (r: GateResult) => r.findings.map((f) => `${f.file}:${f.line} ${f.rule}/${f.severity}`);

const pbxproj = (region: string) =>
  [
    '// !$*UTF8*$!',
    '{',
    '\tobjects = {',
    '/* Begin PBXProject section */',
    '\t\tA1B2C3D4E5F60718293A4B5C /* Project object */ = {',
    '\t\t\tisa = PBXProject;',
    '\t\t\tbuildConfigurationList = A1B2C3D4E5F60718293A4B5D /* Build configuration list for PBXProject "SeasonApp" */;',
    '\t\t\tcompatibilityVersion = "Xcode 14.0";',
    `\t\t\tdevelopmentRegion = ${region};`,
    '\t\t\thasScannedForEncodings = 0;',
    '\t\t\tknownRegions = (',
    '\t\t\t\t"en-US",',
    '\t\t\t\tde,',
    '\t\t\t);',
    '\t\t};',
    '/* End PBXProject section */',
    '\t};',
    '}',
    '',
  ].join('\n');
const strings = (...pairs: Array<[string, string]>) => pairs.map(([k, v]) => `"${k}" = "${v}";\n`).join('');

describe('Apple: the base table from project.pbxproj developmentRegion', () => {
  const files = (region: string, deGreeting: string) => ({
    'SeasonApp.xcodeproj/project.pbxproj': pbxproj(region),
    'SeasonApp/en-US.lproj/Localizable.strings': strings(['greeting', 'Hello, %@'], ['episodes', '%d episodes']),
    'SeasonApp/de.lproj/Localizable.strings': strings(['greeting', deGreeting], ['episodes', '%d Folgen']),
  });
  it('red: developmentRegion = "en-US" makes en-US.lproj the base; a German greeting without %@ is an error (was syntax checks only)', async () => {
    const r = await run(files('"en-US"', 'Hallo'));
    expect([r.verdict, ...lines(r)]).toEqual(['fail', 'SeasonApp/de.lproj/Localizable.strings:1 placeholder-mismatch/error']);
    const set = await discoverCatalogs(memoryWorkspace({ files: files('"en-US"', 'Hallo'), mode: 'all' }), {});
    expect(set.groups.map((g) => [g.base?.path, g.baseLocale, g.baseSource])).toEqual([['SeasonApp/en-US.lproj/Localizable.strings', 'en-US', 'SeasonApp.xcodeproj/project.pbxproj developmentRegion']]);
    // A declaration that matched is no guess: nothing to say.
    expect(r.notes.filter((n) => /base|developmentRegion/.test(n))).toEqual([]);
  });
  it('red: unquoted developmentRegion = en-US (Xcode 15 writes both) is read the same', async () => {
    expect(lines(await run(files('en-US', 'Hallo')))).toEqual(['SeasonApp/de.lproj/Localizable.strings:1 placeholder-mismatch/error']);
  });
  it('green: the translated table passes against the declared base', async () => {
    const r = await run(files('"en-US"', 'Hallo, %@'));
    expect([r.verdict, ...lines(r)]).toEqual(['pass']);
  });
  it('red: without a pbxproj, en-US.lproj is still the base, and every run says it was guessed', async () => {
    const f = files('"en-US"', 'Hallo');
    delete (f as Record<string, string>)['SeasonApp.xcodeproj/project.pbxproj'];
    const r = await run(f);
    expect(lines(r)).toEqual(['SeasonApp/de.lproj/Localizable.strings:1 placeholder-mismatch/error']);
    expect(r.notes).toContain(
      'SeasonApp/*.lproj/localizable.strings: base en-US guessed: nothing declares the source language and no catalog of SeasonApp/*.lproj/localizable.strings is en; en-US is the only en catalog; if the keys are written in another locale, set gates.string-parity.baseLocale',
    );
  });
  it('a Base.lproj stays the base; developmentRegion names its locale', async () => {
    const set = await discoverCatalogs(
      memoryWorkspace({ mode: 'all', files: { 'App.xcodeproj/project.pbxproj': pbxproj('"pt-BR"'), 'App/Base.lproj/Main.strings': strings(['a', 'Olá']), 'App/en.lproj/Main.strings': strings(['a', 'Hi']) } }),
      {},
    );
    expect(set.groups.map((g) => [g.base?.path, g.baseLocale, g.baseSource])).toEqual([['App/Base.lproj/Main.strings', 'pt-BR', 'Base.lproj']]);
  });
});

const json = (o: Record<string, string>) => `${JSON.stringify(o, null, '\t')}\n`;

describe('i18next JSON: the base from fallbackLng / i18next-parser, never a silent en_GB', () => {
  const catalogs = {
    'package.json': '{ "name": "web", "private": true }\n',
    'public/locales/en_GB/translation.json': json({ 'Move to': 'Move to {{location}}' }),
    'public/locales/en_US/translation.json': json({ 'Move to': 'Move to {{location}}', 'Archive chat': 'Archive chat' }),
    'public/locales/de/translation.json': json({ 'Move to': 'Verschieben nach {{location}}' }),
  };
  const init = "import i18next from 'i18next';\n\nexport const initI18n = (defaultLocale?: string) => {\n\ti18next.init({\n\t\tdebug: false,\n\t\tfallbackLng: {\n\t\t\tdefault: ['en-US']\n\t\t},\n\t\tns: 'translation',\n\t\treturnEmptyString: false\n\t});\n};\n";
  it('red: fallbackLng { default: [\'en-US\'] } makes en_US/ the base: de and en_GB lack a key (was en_GB/ as base: 0 findings)', async () => {
    const files = { ...catalogs, 'src/lib/i18n/index.ts': init };
    const r = await run(files);
    expect(lines(r)).toEqual(['public/locales/de/translation.json:1 missing-key/warning', 'public/locales/en_GB/translation.json:1 missing-key/warning']);
    const set = await discoverCatalogs(memoryWorkspace({ files, mode: 'all' }), {});
    expect(set.groups.map((g) => [g.base?.path, g.baseSource])).toEqual([['public/locales/en_US/translation.json', 'src/lib/i18n/index.ts fallbackLng']]);
  });
  it('red: i18next-parser.config.ts resetDefaultValueLocale: \'en-US\' is read the same', async () => {
    const r = await run({ ...catalogs, 'i18next-parser.config.ts': "export default {\n\tdefaultValue: '',\n\tlocales: ['en-GB', 'en-US', 'de'],\n\toutput: 'public/locales/$LOCALE/$NAMESPACE.json',\n\tresetDefaultValueLocale: 'en-US'\n};\n" });
    expect(lines(r)).toEqual(['public/locales/de/translation.json:1 missing-key/warning', 'public/locales/en_GB/translation.json:1 missing-key/warning']);
  });
  it('red: outline\'s shape: `fallbackLng: lng` (code, not a declaration) and i18next-parser `output` naming en_US/translation.json: en_US/ is the base, no guess', async () => {
    const files = {
      ...catalogs,
      'app/utils/i18n.ts': 'export function initI18n(lng: string) {\n  i18n.use(backend).use(initReactI18next).init({\n      lng,\n      fallbackLng: lng,\n      keySeparator: false,\n  });\n}\n',
      'i18next-parser.config.js': 'module.exports = {\n  defaultNamespace: "translation",\n  keySeparator: false,\n  output: "public/locales/en_US/translation.json",\n};\n',
    };
    const r = await run(files);
    expect(lines(r)).toEqual(['public/locales/de/translation.json:1 missing-key/warning', 'public/locales/en_GB/translation.json:1 missing-key/warning']);
    const set = await discoverCatalogs(memoryWorkspace({ files, mode: 'all' }), {});
    expect(set.groups.map((g) => g.baseSource)).toEqual(['i18next-parser.config.js output']);
    expect(set.notes).toEqual([]);
  });
  it('red: with nothing declared, two English folders: en_US is chosen as en\'s likely region, and the run says so', async () => {
    const r = await run(catalogs);
    expect(lines(r)).toEqual(['public/locales/de/translation.json:1 missing-key/warning', 'public/locales/en_GB/translation.json:1 missing-key/warning']);
    expect(r.notes).toContain(
      'public/locales/*/translation.json: base en-US guessed: nothing declares the source language and no catalog of public/locales/*/translation.json is en; en-US is chosen over en-GB as the likely region of en; if the keys are written in another locale, set gates.string-parity.baseLocale',
    );
  });
  it('green: a declared base that exists is no guess (no note), and gates.string-parity.baseLocale still wins', async () => {
    const r = await run({ ...catalogs, 'src/i18n.ts': "i18n.use(initReactI18next).init({ fallbackLng: 'en-US' });\n" });
    expect(r.notes.filter((n) => n.includes('base'))).toEqual([]);
    const forced = await run({ ...catalogs, 'src/i18n.ts': "i18n.use(initReactI18next).init({ fallbackLng: 'en-US' });\n" }, { baseLocale: 'en-GB' });
    expect(lines(forced)).toEqual(['public/locales/en_US/translation.json:3 extra-key/warning']);
  });
  it('green: en.json with no declaration is the base by name, nothing said', async () => {
    const r = await run({ 'src/locales/en.json': json({ a: 'Hi {{name}}' }), 'src/locales/de.json': json({ a: 'Hallo {{name}}' }) });
    expect([r.verdict, ...lines(r), ...r.notes.filter((n) => n.includes('base'))]).toEqual(['pass']);
  });
});
