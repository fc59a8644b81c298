// A key written twice in one JSON object of a catalog (fresh-user-6 G8: mattermost-mobile de.json `"about.date"` twice):
// JSON.parse (i18next, react-intl, Flutter's json.decode) keeps the last, so the first translation is silently lost.
// Reported as `duplicate-key` (the gate's rule for a message key defined twice in one catalog, as gettext's is), once
// per file at the first repeated key's line, as Android's duplicate-resource and gettext's duplicate-key are.
import { describe, expect, it } from 'vitest';
import { memoryWorkspace } from '../../core/workspace.js';
import { runGate } from '../../core/runner.js';
import type { GateResult } from '../../core/types.js';
import { stringParityGate } from '../../gates/string-parity/index.js';

const config = (extra: Record<string, unknown> = {}) => stringParityGate.configSchema.parse(extra);
const run = (files: Record<string, string>, extra: Record<string, unknown> = {}): Promise<GateResult> =>
  runGate({ gate: stringParityGate, config: config(extra), timeoutMs: 10_000 }, { ws: memoryWorkspace({ files, mode: 'all' }), cacheRoot: '/tmp/loopgates-test-cache' });
const lines = (r: GateResult) => r.findings.map((f) => `${f.file}:${f.line} ${f.rule}/${f.severity}`).sort();

const EN = '{\n  "about.date": "Build Date:",\n  "about.title": "About {appTitle}"\n}\n';

describe('duplicate keys in JSON catalogs', () => {
  it('react-intl JSON: a second "about.date" in de.json is duplicate-key at its line, naming the first', async () => {
    const de = '{\n  "about.date": "Build-Datum:",\n  "about.date": "Datum:",\n  "about.title": "Über {appTitle}"\n}\n';
    const r = await run({ 'assets/base/i18n/en.json': EN, 'assets/base/i18n/de.json': de }, { jsonFormat: 'icu' });
    expect(lines(r)).toEqual(['assets/base/i18n/de.json:3 duplicate-key/error']);
    expect(r.findings[0]!.message).toBe('de: 1 duplicate key (`about.date`); JSON.parse keeps only the last of each, so the earlier value is silently lost');
    expect(r.findings[0]!.column).toBe(3);
  });

  it('no duplicates: no finding', async () => {
    const de = '{\n  "about.date": "Build-Datum:",\n  "about.title": "Über {appTitle}"\n}\n';
    const r = await run({ 'assets/base/i18n/en.json': EN, 'assets/base/i18n/de.json': de }, { jsonFormat: 'icu' });
    expect(lines(r)).toEqual([]);
  });

  it('i18next nested: a repeated object drops every key of the first; the base too', async () => {
    const en = '{\n  "about": {\n    "date": "Build Date:"\n  },\n  "about": {\n    "title": "About"\n  }\n}\n';
    const de = '{\n  "about": {\n    "date": "Build-Datum:",\n    "title": "Über"\n  }\n}\n';
    const r = await run({ 'public/locales/en/common.json': en, 'public/locales/de/common.json': de }, { jsonFormat: 'i18next' });
    expect(lines(r)).toContain('public/locales/en/common.json:5 duplicate-key/error');
    expect(r.findings.find((f) => f.rule === 'duplicate-key')!.message).toContain('(`about`)');
  });

  it('ARB and .xcstrings: a repeated key is duplicate-key too', async () => {
    const arb = await run({ 'lib/l10n/app_en.arb': '{\n  "hello": "Hello",\n  "bye": "Bye"\n}\n', 'lib/l10n/app_de.arb': '{\n  "hello": "Hallo",\n  "hello": "Servus",\n  "bye": "Tschüss"\n}\n' });
    expect(lines(arb)).toEqual(['lib/l10n/app_de.arb:3 duplicate-key/error']);
    const unit = (v: string) => `{ "stringUnit" : { "state" : "translated", "value" : "${v}" } }`;
    const xc = `{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "Hello" : {\n      "localizations" : {\n        "de" : ${unit('Hallo')},\n        "de" : ${unit('Servus')}\n      }\n    }\n  },\n  "version" : "1.0"\n}\n`;
    const r = await run({ 'App/Localizable.xcstrings': xc });
    expect(lines(r)).toEqual(['App/Localizable.xcstrings:7 duplicate-key/error']);
  });
});
