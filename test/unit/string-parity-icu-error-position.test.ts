// Where an ICU syntax error is (fresh-user nit): an ARB plural whose closing `}` is missing was reported "at
// character 1", formatjs's location start (the argument's `{`). The report now names where the parser stopped (the end
// of the message), the `{` left open, and, in a message with line breaks, line and column within it; the finding
// stays at the file line of the entry. Shapes from lichess's ARB plurals (../shared/corpus/l10n).
import { describe, expect, it } from 'vitest';
import { memoryWorkspace } from '../../core/workspace.js';
import { runGate } from '../../core/runner.js';
import type { GateResult } from '../../core/types.js';
import { stringParityGate } from '../../gates/string-parity/index.js';

const run = (files: Record<string, string>): Promise<GateResult> =>
  runGate({ gate: stringParityGate, config: stringParityGate.configSchema.parse({}), timeoutMs: 10_000 }, { ws: memoryWorkspace({ files, mode: 'all' }), cacheRoot: '/tmp/loopgates-test-cache' });
const syntax = (r: GateResult) => r.findings.filter((f) => f.rule === 'icu-syntax').map((f) => `${f.file}:${f.line} ${f.message}`);
const l10n = { 'l10n.yaml': 'arb-dir: lib/l10n\ntemplate-arb-file: app_en.arb\n' };
const arb = (locale: string, msg: string) =>
  JSON.stringify({ '@@locale': locale, activityPlayedNbGames: msg, '@activityPlayedNbGames': { placeholders: { count: { type: 'int' } } } }, null, 2);
const en = '{count, plural, =1{Played {count} game} other{Played {count} games}}';

describe('ICU syntax error position', () => {
  it('red: a translation missing its last `}` is reported at the end of the message, naming the open `{`', async () => {
    const de = '{count, plural, =1{{count} Partie gespielt} other{{count} Partien gespielt}';
    const r = await run({ ...l10n, 'lib/l10n/app_en.arb': arb('en', en), 'lib/l10n/app_de.arb': arb('de', de) });
    expect(syntax(r)).toEqual([
      `lib/l10n/app_de.arb:3 de \`activityPlayedNbGames\`: ICU syntax error EXPECT_ARGUMENT_CLOSING_BRACE at character ${de.length + 1} (the end of the message): the \`{\` at character 1 is never closed`,
    ]);
  });
  it('red: the same in the base, and an open `{` after text is named where it opens', async () => {
    const base = 'You have {count, plural, =1{one game} other{{count} games}';
    const r = await run({ ...l10n, 'lib/l10n/app_en.arb': arb('en', base), 'lib/l10n/app_de.arb': arb('de', en) });
    expect(syntax(r)).toEqual([
      `lib/l10n/app_en.arb:3 en \`activityPlayedNbGames\`: ICU syntax error in the base: EXPECT_ARGUMENT_CLOSING_BRACE at character ${base.length + 1} (the end of the message): the \`{\` at character 10 is never closed`,
    ]);
  });
  it('red: a message with a line break gets line and column within the message, at the entry\'s file line', async () => {
    const de = '{count, plural, =1{Eine Partie}\nother{{count} Partien}';
    const r = await run({ ...l10n, 'lib/l10n/app_en.arb': arb('en', en), 'lib/l10n/app_de.arb': arb('de', de) });
    expect(syntax(r)).toEqual([
      'lib/l10n/app_de.arb:3 de `activityPlayedNbGames`: ICU syntax error EXPECT_ARGUMENT_CLOSING_BRACE at line 2, column 23 of the message (the end of the message): the `{` at line 1, column 1 of the message is never closed',
    ]);
  });
  it('green: other kinds keep the parser\'s start; a well-formed message has no icu-syntax finding', async () => {
    const de = '{count, plurl, =1{Eine Partie} other{{count} Partien}}';
    const r = await run({ ...l10n, 'lib/l10n/app_en.arb': arb('en', en), 'lib/l10n/app_de.arb': arb('de', de) });
    expect(syntax(r)).toEqual(['lib/l10n/app_de.arb:3 de `activityPlayedNbGames`: ICU syntax error INVALID_ARGUMENT_TYPE at character 9']);
    const ok = await run({ ...l10n, 'lib/l10n/app_en.arb': arb('en', en), 'lib/l10n/app_de.arb': arb('de', '{count, plural, =1{Eine Partie} other{{count} Partien}}') });
    expect(syntax(ok)).toEqual([]);
  });
});
