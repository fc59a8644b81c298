// Verdict rules of the runner (DESIGN.md "verdict") and of a run's exit code, including LOOPGATES_SKIP.
import { describe, expect, it } from 'vitest';
import { BYPASS_REASON, isBypassed, parseSkip, runGate, runGates } from '../../core/runner.js';
import { exitCodeFor } from '../../core/report.js';
import { memoryWorkspace } from '../../core/workspace.js';
import type { Gate, GateResult, Verdict } from '../../core/types.js';
import { BAD, toyGate } from '../integration/run-toys.js';

const toy = toyGate('toy', '.txt');
const settings = (gate: Gate<any> = toy, extra: { allowEmpty?: string; timeoutMs?: number } = {}) => ({ gate, config: { word: BAD }, timeoutMs: extra.timeoutMs ?? 5000, allowEmpty: extra.allowEmpty });
const opts = (files: Record<string, string>, mode: 'staged' | 'all' | 'files' = 'staged', bypass?: ReadonlySet<string> | 'all') => ({
  ws: memoryWorkspace({ files, mode }),
  cacheRoot: '/tmp/loopgates-test-cache',
  ...(bypass ? { bypass } : {}),
});

describe('verdict rules', () => {
  it('zero inputs: skip in staged and files mode (with the count), vacuous in all mode', async () => {
    const staged = await runGate(settings(), opts({ 'a.kt': 'x', 'b.kt': 'y' }));
    expect([staged.verdict, staged.reason]).toEqual(['skip', 'no files for inspection (2 staged, none read by this gate)']);
    // Named files are the user's choice, like staged ones; executeRun refuses a --files run no gate read (run.test.ts).
    const files = await runGate(settings(), opts({ 'a.kt': 'x' }, 'files'));
    expect([files.verdict, files.reason]).toEqual(['skip', 'no files for inspection (1 named, none read by this gate)']);
    const all = await runGate(settings(), opts({ 'a.kt': 'x' }, 'all'));
    expect(all.verdict).toBe('vacuous');
    expect(all.error?.fix).toMatch(/allowEmpty/);
  });

  it('zero inputs with allowEmpty is skip, with the reason', async () => {
    const r = await runGate(settings(toy, { allowEmpty: 'no text files in this app' }), opts({ 'a.kt': 'x' }, 'all'));
    expect([r.verdict, r.reason]).toEqual(['skip', 'no inputs; allowed by allowEmpty: no text files in this app']);
  });

  it('inputs but counts.files 0 is vacuous: a gate that claims to have read nothing cannot pass', async () => {
    const blind: Gate<any> = { ...toy, run: async () => ({ findings: [], counts: { files: 0 } }) };
    const silent = await runGate(settings(blind), opts({ 'a.txt': 'x' }));
    expect([silent.verdict, silent.error?.fix]).toEqual(['vacuous', 'report this: it is a loopgates bug']);
    // A gate that says why (secrets: a file too large to scan) is not called a loopgates bug.
    const said: Gate<any> = { ...toy, run: async () => ({ findings: [], counts: { files: 0 }, notes: ['1 of 1 staged file(s) not scanned (larger than 32 MiB): a.txt'] }) };
    const r = await runGate(settings(said), opts({ 'a.txt': 'x' }));
    expect([r.verdict, r.error?.fix]).toEqual(['vacuous', 'its notes above say why no input could be read; fix that, or bypass it for this commit on purpose: LOOPGATES_SKIP=toy git commit …']);
  });

  it('error findings fail, warnings alone pass, gate-declared error wins over findings', async () => {
    expect((await runGate(settings(), opts({ 'a.txt': `ok\n${BAD}\n` }))).verdict).toBe('fail');
    const warn: Gate<any> = { ...toy, run: async () => ({ findings: [{ rule: 'w', file: 'a.txt', line: 1, column: 1, message: 'w', severity: 'warning' }], counts: { files: 1 } }) };
    const w = await runGate(settings(warn), opts({ 'a.txt': 'x' }));
    expect([w.verdict, w.counts.findings]).toEqual(['pass', 1]);
    const blind: Gate<any> = { ...toy, run: async () => ({ findings: [], counts: { files: 1 }, error: { message: 'canary not reported', fix: 'reinstall the scanner' } }) };
    const e = await runGate(settings(blind), opts({ 'a.txt': 'x' }));
    expect([e.verdict, e.error?.fix]).toEqual(['error', 'reinstall the scanner']);
  });

  it('a crash and a timeout are error, never pass', async () => {
    const crash: Gate<any> = { ...toy, run: async () => { throw new Error('boom'); } };
    expect((await runGate(settings(crash), opts({ 'a.txt': 'x' }))).verdict).toBe('error');
    const slowInputs: Gate<any> = { ...toy, inputs: () => new Promise(() => {}) };
    const t = await runGate(settings(slowInputs, { timeoutMs: 30 }), opts({ 'a.txt': 'x' }));
    expect([t.verdict, t.reason]).toEqual(['error', 'toy did not finish within 30 ms']);
  });
});

describe('LOOPGATES_SKIP', () => {
  it('parses ids, all, spaces, and reports unknown ids', () => {
    expect(parseSkip(undefined, ['a', 'b'])).toEqual({ all: false, ids: new Set(), unknown: [] });
    expect(parseSkip(' a, ,zz ', ['a', 'b'])).toEqual({ all: false, ids: new Set(['a']), unknown: ['zz'] });
    expect(parseSkip('all', ['a', 'b'])).toEqual({ all: true, ids: new Set(['a', 'b']), unknown: [] });
  });

  it('a bypassed gate is not run: skip with the bypass reason, even over a defect', async () => {
    let ran = false;
    const spy: Gate<any> = { ...toy, run: async (...a) => { ran = true; return toy.run(...a); } };
    const [r, other] = await runGates([settings(spy), settings(toyGate('toy2', '.txt'))], opts({ 'a.txt': BAD }, 'staged', new Set(['toy'])));
    expect(ran).toBe(false);
    expect([r!.verdict, r!.reason, isBypassed(r!)]).toEqual(['skip', BYPASS_REASON, true]);
    expect(other!.verdict).toBe('fail');
    const all = await runGates([settings(spy)], opts({ 'a.txt': BAD }, 'staged', 'all'));
    expect(all[0]!.verdict).toBe('skip');
  });
});

describe('exit code of a run', () => {
  const r = (verdict: Verdict) => ({ verdict }) as GateResult;
  it('0 pass/skip, 1 fail, 2 error or vacuous (2 wins over 1), 2 with no gate at all', () => {
    expect(exitCodeFor([r('pass'), r('skip')])).toBe(0);
    expect(exitCodeFor([r('pass'), r('fail')])).toBe(1);
    expect(exitCodeFor([r('fail'), r('vacuous')])).toBe(2);
    expect(exitCodeFor([r('error'), r('pass')])).toBe(2);
    expect(exitCodeFor([])).toBe(2);
  });
});
