// string-parity/markup-tag (fresh-user-3 F14): a tag pair dropped (or, outside XML, a closing tag doubled) in a
// translation whose base has that markup must be killed as markup-mismatch at the string's line. Fixtures in the shape
// of outline's i18next catalogs (react-i18next <Trans>), an Apple .strings with HTML and an Android styled string.
import { describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import { memoryWorkspace } from '../../core/workspace.js';
import { seededRandom } from '../../mutations/random.js';
import { stringParityGate } from '../../gates/string-parity/index.js';
import { markupTag } from '../../gates/string-parity/mutations.js';
import { stringParityFacts } from '../../gates/string-parity/mutation-facts.js';

const config = stringParityGate.configSchema.parse({});
const ctxOf = (files: Record<string, string>) => ({ ws: memoryWorkspace({ files, mode: 'all' }), config, signal: new AbortController().signal, runTool: (() => { throw new Error('no tools'); }) as never, cacheDir: '/tmp/loopgates-test-cache/sp-markup', log: () => {} });
const judge = (files: Record<string, string>, path: string) =>
  runGate({ gate: stringParityGate, config, timeoutMs: 30_000 }, { ws: memoryWorkspace({ files, targets: [path] }), cacheRoot: '/tmp/loopgates-test-cache' });

/** Every mutant seeds 1..n make of `path`, each judged: the descriptions and whether each was killed at its line. */
async function mutants(files: Record<string, string>, path: string, n = 24): Promise<Map<string, string>> {
  const facts = await stringParityFacts(ctxOf(files), path);
  const out = new Map<string, string>();
  for (let seed = 1; seed <= n; seed++) {
    const m = markupTag.mutate(path, files[path]!, seededRandom(seed), facts);
    if (!m) continue;
    if (out.has(m.description)) continue;
    const r = await judge({ ...files, [path]: m.content }, path);
    const at = r.findings.filter((f) => f.severity === 'error' && f.file === path).map((f) => `${f.line} ${f.rule}`);
    out.set(m.description, at.join(', ') === `${m.line} markup-mismatch` ? `killed at ${m.line}` : `NOT killed: ${at.join(', ')}`);
  }
  return out;
}

describe('string-parity/markup-tag', () => {
  it('i18next: drops <em>…</em> or <0>…</0>, or doubles their closing tags; each killed at its line', async () => {
    const files = {
      'shared/i18n/locales/en_US/translation.json': '{\n  "Move to <em>{{ location }}</em>": "Move to <em>{{ location }}</em>",\n  "skip": "Skip to <0>content</0>",\n  "plain": "Plain"\n}\n',
      'shared/i18n/locales/de_DE/translation.json': '{\n  "Move to <em>{{ location }}</em>": "Nach <em>{{ location }}</em> verschieben",\n  "skip": "Zum <0>Inhalt</0> springen",\n  "plain": "Schlicht"\n}\n',
    };
    const path = 'shared/i18n/locales/de_DE/translation.json';
    expect((await judge(files, path)).verdict).toBe('pass');
    expect(Object.fromEntries(await mutants(files, path, 40))).toEqual({
      'dropped the tag pair <em>…</em> in de-DE `Move to <em>{{ location }}</em>`': 'killed at 2',
      'doubled </em> in de-DE `Move to <em>{{ location }}</em>`': 'killed at 2',
      'dropped the tag pair <0>…</0> in de-DE `skip`': 'killed at 3',
      'doubled </0> in de-DE `skip`': 'killed at 3',
    });
  });

  it('Apple .strings with HTML in the value: <b> pair, doubled </b>, <br/>', async () => {
    const files = {
      'App/en.lproj/Localizable.strings': '"terms" = "Read the <b>terms</b><br/>first";\n',
      'App/de.lproj/Localizable.strings': '"terms" = "Lies zuerst die <b>Bedingungen</b><br/>";\n',
    };
    const path = 'App/de.lproj/Localizable.strings';
    expect((await judge(files, path)).verdict).toBe('pass');
    expect(Object.fromEntries(await mutants(files, path, 40))).toEqual({
      'dropped the tag pair <b>…</b> in de `terms`': 'killed at 1',
      'doubled </b> in de `terms`': 'killed at 1',
      'dropped <br/> in de `terms`': 'killed at 1',
    });
  });

  it('Android styled text: drops the <b> element pair (XML stays valid; no doubled close tag there)', async () => {
    const files = {
      'app/src/main/res/values/strings.xml': '<resources>\n    <string name="sync_hint">Tap <b>Sync</b> to refresh</string>\n    <string name="plain">Plain</string>\n</resources>\n',
      'app/src/main/res/values-de/strings.xml': '<resources>\n    <string name="sync_hint">Tippe auf <b>Sync</b>, um zu aktualisieren</string>\n    <string name="plain">Schlicht</string>\n</resources>\n',
    };
    const path = 'app/src/main/res/values-de/strings.xml';
    expect((await judge(files, path)).verdict).toBe('pass');
    expect(Object.fromEntries(await mutants(files, path))).toEqual({ 'dropped the tag pair <b>…</b> in de `sync_hint`': 'killed at 2' });
  });

  it('no place in a base, in a string whose base has no markup, or in gettext / ARB', async () => {
    const files = { 'locales/en/common.json': '{\n  "a": "Move to <em>x</em>"\n}\n', 'locales/de/common.json': '{\n  "a": "Nach <em>x</em>"\n}\n' };
    expect(markupTag.mutate('locales/en/common.json', files['locales/en/common.json'], seededRandom(1), await stringParityFacts(ctxOf(files), 'locales/en/common.json'))).toBeNull();
    const bare = { 'locales/en/common.json': '{\n  "a": "Move"\n}\n', 'locales/de/common.json': '{\n  "a": "Nach <em>x</em>"\n}\n' };
    expect(markupTag.mutate('locales/de/common.json', bare['locales/de/common.json'], seededRandom(1), await stringParityFacts(ctxOf(bare), 'locales/de/common.json'))).toBeNull();
    expect(markupTag.appliesTo('po/de.po')).toBe(false);
    expect(markupTag.appliesTo('lib/l10n/app_de.arb')).toBe(false);
  });
});
