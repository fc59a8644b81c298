// plural-missing-category on untranslated copies (issue 15, item 10): translation platforms copy the source into keys
// nobody translated; a Russian ARB whose plural is the English text byte for byte lacks `few` and `many` (350 of 393
// errors in one Flutter app). Such copies are one untranslated-copy warning per file; translated plurals stay errors.
// Shape of lichess-org/mobile lib/l10n/app_*.arb (../shared/corpus/l10n).
import { describe, expect, it } from 'vitest';
import { memoryWorkspace } from '../../core/workspace.js';
import { runGate } from '../../core/runner.js';
import type { GateResult } from '../../core/types.js';
import { stringParityGate } from '../../gates/string-parity/index.js';

const run = (files: Record<string, string>): Promise<GateResult> =>
  runGate({ gate: stringParityGate, config: stringParityGate.configSchema.parse({}), timeoutMs: 10_000 }, { ws: memoryWorkspace({ files, mode: 'all' }), cacheRoot: '/tmp/loopgates-test-cache' });
const lines = (r: GateResult) => r.findings.map((f) => `${f.file}:${f.line} ${f.rule}/${f.severity}`);

const PUZZLES = '{count, plural, =1{Solved {count} training puzzle} other{Solved {count} training puzzles}}';
const MONTHS = '{count, plural, =1{Supported lichess.org for {count} month as a {param2}} other{Supported lichess.org for {count} months as a {param2}}}';
const arb = (locale: string, entries: Record<string, string>) => JSON.stringify({ '@@locale': locale, ...entries }, null, 2);
const files = (ru: Record<string, string>) => ({
  'l10n.yaml': 'arb-dir: lib/l10n\ntemplate-arb-file: app_en.arb\n',
  'lib/l10n/app_en.arb': arb('en', { activitySolvedNbPuzzles: PUZZLES, activitySupportedNbMonths: MONTHS }),
  'lib/l10n/app_ru.arb': arb('ru', ru),
});

describe('untranslated plural copies', () => {
  it('red: two English copies in app_ru.arb are one untranslated-copy warning, not two plural-missing-category errors', async () => {
    const r = await run(files({ activitySolvedNbPuzzles: PUZZLES, activitySupportedNbMonths: MONTHS }));
    expect([r.verdict, ...lines(r)]).toEqual(['pass', 'lib/l10n/app_ru.arb:1 untranslated-copy/warning']);
    expect(r.findings[0]!.message).toBe("ru: 2 plural messages are byte-identical to the base (`activitySolvedNbPuzzles`, `activitySupportedNbMonths`): untranslated copies of the source, shown to ru users in the base language, which lack ru's plural categories; judged as plurals once translated");
  });
  it('red: a translated Russian plural without few/many stays an error beside the copy', async () => {
    const r = await run(files({ activitySolvedNbPuzzles: '{count, plural, =1{Решена {count} задача} other{Решено {count} задач}}', activitySupportedNbMonths: MONTHS }));
    expect([r.verdict, ...lines(r)]).toEqual(['fail', 'lib/l10n/app_ru.arb:3 plural-missing-category/error', 'lib/l10n/app_ru.arb:1 untranslated-copy/warning']);
  });
  it('green: translated plurals with every Russian category pass', async () => {
    const ru = '{count, plural, =1{Решена {count} задача} one{Решена {count} задача} few{Решено {count} задачи} many{Решено {count} задач} other{Решено {count} задачи}}';
    const r = await run(files({ activitySolvedNbPuzzles: ru, activitySupportedNbMonths: MONTHS.replace('Supported', 'Поддержал').replace('Supported', 'Поддержал').replace('other{', 'one{x {count} {param2}} few{x {count} {param2}} many{x {count} {param2}} other{') }));
    expect([r.verdict, ...lines(r)]).toEqual(['pass']);
  });
});
