// Android `<plurals>` in locales where no integer count selects `other` (CLDR: pl, ru, uk, be, where one/few/many
// cover every integer and `other` is for fractions only). Localazy writes such plurals without `other` (element-x-
// android: 177 of 188 string-parity findings), and getQuantityString(int, int) never selects it there, so a missing
// `other` is no error (a note counts them once per run); a missing few/many stays one. Which locales: make-plural's
// CLDR examples, not a list (lt/cs `other` is selected by integers 0, 10–20…, so it stays required). Files in the
// shape of element-x-android's Localazy layout (values/localazy.xml + values-xx/translations.xml).
import { describe, expect, it } from 'vitest';
import { memoryWorkspace } from '../../core/workspace.js';
import { runGate } from '../../core/runner.js';
import type { GateResult } from '../../core/types.js';
import { stringParityGate } from '../../gates/string-parity/index.js';
import { pluralRules } from '../../gates/string-parity/locale.js';
import { dropPluralCategory } from '../../gates/string-parity/mutations.js';
import { stringParityFacts } from '../../gates/string-parity/mutation-facts.js';

const config = (extra: Record<string, unknown> = {}) => stringParityGate.configSchema.parse(extra);
const run = (files: Record<string, string>, extra: Record<string, unknown> = {}): Promise<GateResult> =>
  runGate({ gate: stringParityGate, config: config(extra), timeoutMs: 10_000 }, { ws: memoryWorkspace({ files, mode: 'all' }), cacheRoot: '/tmp/loopgates-test-cache' });
const lines = (r: GateResult) => r.findings.map((f) => `${f.file}:${f.line} ${f.rule}/${f.severity}`);

const BASE = `<?xml version="1.0" encoding="utf-8"?>
<resources>
  <plurals name="common_member_count">
    <item quantity="one">"%1$d member"</item>
    <item quantity="other">"%1$d members"</item>
  </plurals>
  <string name="common_about">"About"</string>
</resources>
`;
const plural = (items: Record<string, string>) => `<?xml version="1.0" encoding="utf-8"?>
<resources>
  <plurals name="common_member_count">
${Object.entries(items).map(([q, t]) => `    <item quantity="${q}">"${t}"</item>`).join('\n')}
  </plurals>
  <string name="common_about">"O nas"</string>
</resources>
`;
const PL = { one: '%1$d członek', few: '%1$d członków', many: '%1$d członków' };
const RU = { one: '%1$d участник', few: '%1$d участника', many: '%1$d участников' };

describe('Android plurals without other where integers never select it', () => {
  it('CLDR data decides which locales: integers select every category but other in pl/ru/uk/be only', () => {
    for (const l of ['pl', 'ru', 'uk', 'be']) expect([l, pluralRules(l, 'integers')!.integerRequired]).toEqual([l, ['one', 'few', 'many']]);
    expect(pluralRules('lt', 'integers')!.integerRequired).toEqual(['one', 'few', 'other']);
    expect(pluralRules('cs', 'integers')!.integerRequired).toEqual(['one', 'few', 'other']);
    expect(pluralRules('en', 'integers')!.integerRequired).toEqual(['one', 'other']);
    expect(pluralRules('ru', 'integers')!.required).toEqual(['one', 'few', 'many', 'other']);
    expect(pluralRules('ru', 'cldr')!.integerRequired).toEqual(['one', 'few', 'many', 'other']);
  });

  it('pl and ru one/few/many without other: no finding, one note counting them (was plural-missing-category ×2)', async () => {
    const r = await run({ 'res/values/localazy.xml': BASE, 'res/values-pl/translations.xml': plural(PL), 'res/values-ru/translations.xml': plural(RU) });
    expect(lines(r)).toEqual([]);
    expect(r.verdict).toBe('pass');
    expect(r.notes).toContain('2 Android plurals without `other` (pl 1, ru 1): not an error, since no integer count selects `other` in those locales (CLDR) and getQuantityString takes an int; a missing one/few/many still is');
  });

  it('pl without few stays an error at the <plurals> line, naming the integer categories', async () => {
    const r = await run({ 'res/values/localazy.xml': BASE, 'res/values-pl/translations.xml': plural({ one: PL.one, many: PL.many }) });
    expect(lines(r)).toEqual(['res/values-pl/translations.xml:3 plural-missing-category/error']);
    expect(r.findings[0]!.message).toBe('pl `common_member_count`: plural lacks few, which CLDR requires for pl (one, few, many: the categories integer counts select)');
  });

  it('lt and cs without other stay errors (integers 0, 10–20… select other there)', async () => {
    const r = await run({ 'res/values/localazy.xml': BASE, 'res/values-lt/translations.xml': plural({ one: '%1$d narys', few: '%1$d nariai', many: '%1$d nario' }), 'res/values-cs/translations.xml': plural({ one: '%1$d člen', few: '%1$d členové', many: '%1$d člena' }) });
    expect(lines(r).sort()).toEqual(['res/values-cs/translations.xml:3 plural-missing-category/error', 'res/values-lt/translations.xml:3 plural-missing-category/error']);
    expect(r.notes.join('\n')).not.toMatch(/without `other`/);
  });

  it('plurals: cldr still requires other everywhere', async () => {
    const r = await run({ 'res/values/localazy.xml': BASE, 'res/values-pl/translations.xml': plural(PL) }, { plurals: 'cldr' });
    expect(lines(r)).toEqual(['res/values-pl/translations.xml:3 plural-missing-category/error']);
  });

  it('Apple .stringsdict ru without other stays an error (only Android is known to pass an int)', async () => {
    const dict = (forms: Record<string, string>) => `<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0">
<dict>
  <key>members</key>
  <dict>
    <key>NSStringLocalizedFormatKey</key>
    <string>%#@n@</string>
    <key>n</key>
    <dict>
      <key>NSStringFormatSpecTypeKey</key>
      <string>NSStringPluralRuleType</string>
      <key>NSStringFormatValueTypeKey</key>
      <string>d</string>
${Object.entries(forms).map(([k, v]) => `      <key>${k}</key>\n      <string>${v}</string>`).join('\n')}
    </dict>
  </dict>
</dict>
</plist>
`;
    const r = await run({ 'en.lproj/Localizable.stringsdict': dict({ one: '%d member', other: '%d members' }), 'ru.lproj/Localizable.stringsdict': dict({ one: '%d участник', few: '%d участника', many: '%d участников' }) });
    expect(r.findings.filter((f) => f.rule === 'plural-missing-category').map((f) => f.file)).toEqual(['ru.lproj/Localizable.stringsdict']);
  });

  it('mutate: drop-plural-category never drops other from an Android pl plural (it would survive for the right reason), but drops few/many', async () => {
    const files = { 'res/values/localazy.xml': BASE, 'res/values-pl/translations.xml': plural({ ...PL, other: '%1$d członka' }) };
    const ws = memoryWorkspace({ files, mode: 'all' });
    const ctx = { ws, config: config(), signal: new AbortController().signal, runTool: (() => { throw new Error('no tools'); }) as never, cacheDir: '/tmp/loopgates-test-cache/sp', log: () => {} };
    const facts = await stringParityFacts(ctx, 'res/values-pl/translations.xml');
    const dropped = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const m = dropPluralCategory.mutate('res/values-pl/translations.xml', files['res/values-pl/translations.xml'], () => (i % 4) / 4 + 0.01, facts);
      if (m) dropped.add(m.description);
    }
    expect([...dropped].sort()).toEqual(['dropped plural category few from pl `common_member_count`', 'dropped plural category many from pl `common_member_count`', 'dropped plural category one from pl `common_member_count`']);
  });
});
