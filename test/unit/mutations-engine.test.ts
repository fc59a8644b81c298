import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import { memoryWorkspace } from '../../core/workspace.js';
import { runMutations } from '../../mutations/mutate.js';
import { runSelfTests } from '../../mutations/selftest.js';
import type { GateContext } from '../../core/types.js';
import { blindGate, crashGate, decorationGate, everythingGate, goodGate, hangGate, injectBad, neverGate, noGreenGate, settings, wrongSpotGate } from './mutations-toys.js';

const cacheRoot = mkdtempSync(join(tmpdir(), 'loopgates-unit-cache-'));
const repo = () =>
  memoryWorkspace({
    mode: 'all',
    files: {
      'docs/a.txt': 'alpha\nbeta\ngamma\n',
      'docs/b.txt': 'one\ntwo\n',
      'notes/c.txt': 'x\n',
      'src/main.kt': 'fun main() {}\n',
    },
  });

describe('selftest against deliberately broken gates', () => {
  it('a working gate is PROVEN: green clean, red caught at the injected spot', async () => {
    const r = await runSelfTests([settings(goodGate)], { cacheRoot });
    expect(r.ok).toBe(true);
    expect(r.executed).toBe(2);
    expect(r.gates[0]!.proof).toBe('PROVEN');
    expect(r.gates[0]!.cases.map((c) => [c.kind, c.outcome])).toEqual([
      ['green', 'clean'],
      ['red', 'caught'],
    ]);
  });

  it('one that never reports: red case missed, UNPROVEN', async () => {
    const r = await runSelfTests([settings(neverGate)], { cacheRoot });
    expect(r.gates[0]!.cases.map((c) => c.outcome)).toEqual(['clean', 'missed']);
    expect(r.gates[0]!.proof).toBe('UNPROVEN');
    expect(r.ok).toBe(false);
  });

  it('one that reports everything: green case noisy; the red case is still caught at its line', async () => {
    const r = await runSelfTests([settings(everythingGate)], { cacheRoot });
    expect(r.gates[0]!.cases.map((c) => c.outcome)).toEqual(['noisy', 'caught']);
    expect(r.gates[0]!.proof).toBe('UNPROVEN');
  });

  it('one that crashes: every case is error, never caught', async () => {
    const r = await runSelfTests([settings(crashGate)], { cacheRoot });
    expect(r.gates[0]!.cases.map((c) => c.outcome)).toEqual(['error', 'error']);
    expect(r.gates[0]!.cases[1]!.detail).toMatch(/crashed: Cannot read properties/);
    expect(r.ok).toBe(false);
  });

  it('one that reads nothing: every case is vacuous', async () => {
    const r = await runSelfTests([settings(blindGate)], { cacheRoot });
    expect(r.gates[0]!.cases.map((c) => c.outcome)).toEqual(['vacuous', 'vacuous']);
    expect(r.gates[0]!.proof).toBe('UNPROVEN');
  });

  it('one that hangs: error (timeout), not caught', async () => {
    const r = await runSelfTests([settings(hangGate, {}, 50)], { cacheRoot });
    expect(r.gates[0]!.cases.map((c) => c.outcome)).toEqual(['error', 'error']);
    expect(r.gates[0]!.cases[0]!.detail).toMatch(/within 50 ms/);
  });

  it('a gate without a red case is DECORATION; without a green case UNPROVEN; a finding elsewhere is wrong', async () => {
    const r = await runSelfTests([settings(decorationGate), settings(noGreenGate), settings(wrongSpotGate)], { cacheRoot });
    expect(r.gates.map((g) => g.proof)).toEqual(['DECORATION', 'UNPROVEN', 'UNPROVEN']);
    expect(r.gates[2]!.cases[1]!.outcome).toBe('wrong');
    expect(r.gates[2]!.cases[1]!.detail).toContain('a.txt:2 (bad-word)');
    expect(r.ok).toBe(false);
  });

  it('zero cases executed is a failure, not a success', async () => {
    const empty = { ...goodGate, selfTest: () => [] };
    const r = await runSelfTests([settings(empty)], { cacheRoot });
    expect(r.executed).toBe(0);
    expect(r.ok).toBe(false);
    expect((await runSelfTests([], { cacheRoot })).ok).toBe(false);
  });

  it('a selfTest() that throws is an error case', async () => {
    const broken = { ...goodGate, selfTest: () => { throw new Error('fixture missing'); } };
    const r = await runSelfTests([settings(broken)], { cacheRoot });
    expect(r.gates[0]!.cases[0]!.outcome).toBe('error');
    expect(r.gates[0]!.proof).toBe('UNPROVEN');
    expect(r.ok).toBe(false);
  });
});

describe('mutate against deliberately broken gates', () => {
  it('a working gate: every mutant killed, red at the injected line and green without it', async () => {
    const r = await runMutations([settings(goodGate)], { ws: repo(), cacheRoot, seed: 7 });
    expect(r.ok).toBe(true);
    expect(r.totals).toEqual({ killed: 3, survived: 0, 'no-coverage': 0, error: 0, timeout: 0 });
    for (const m of r.gates[0]!.operators[0]!.mutants) expect(m.detail).toMatch(new RegExp(`red at ${m.file}:${m.line} .*green without it`));
  });

  it('is deterministic for a seed, and --all-inputs mutates every input', async () => {
    const pick = async (seed: number) => (await runMutations([settings(goodGate)], { ws: repo(), cacheRoot, seed, perOperator: 2 })).gates[0]!.operators[0]!.mutants.map((m) => `${m.file}:${m.line}`);
    expect(await pick(11)).toEqual(await pick(11));
    const seeds = await Promise.all([1, 2, 3, 4, 5].map(pick));
    expect(new Set(seeds.map((s) => s.join())).size).toBeGreaterThan(1);
    const all = await runMutations([settings(goodGate)], { ws: repo(), cacheRoot, seed: 1, allInputs: true });
    expect(all.gates[0]!.operators[0]!.mutants.map((m) => m.file)).toEqual(['docs/a.txt', 'docs/b.txt', 'notes/c.txt']);
  });

  it("an operator's facts() is read from the unmutated snapshot with the gate's config, and a throwing one is an error", async () => {
    const seen: string[] = [];
    const withFacts = {
      ...injectBad,
      id: 'inject-bad-facts',
      facts: async (ctx: GateContext<any>, path: string) => {
        seen.push(`${path}:${(await ctx.ws.readText(path)).split('\n').length}:${JSON.stringify(ctx.config.include)}`);
        return 1;
      },
      mutate: (p: string, content: string, random: () => number, facts?: unknown) => (facts === 1 ? injectBad.mutate(p, content, random) : null),
    };
    const r = await runMutations([settings({ ...goodGate, mutations: [withFacts] })], { ws: repo(), cacheRoot, seed: 7, allInputs: true });
    expect(r.totals.killed).toBe(3);
    expect(seen).toEqual(['docs/a.txt:4:["**/*.txt"]', 'docs/b.txt:3:["**/*.txt"]', 'notes/c.txt:2:["**/*.txt"]']);
    const throwing = { ...withFacts, facts: async () => Promise.reject(new Error('no base catalog')) };
    const t = await runMutations([settings({ ...goodGate, mutations: [throwing] })], { ws: repo(), cacheRoot, seed: 7 });
    expect(t.totals).toMatchObject({ error: 3, killed: 0 });
    expect(t.gates[0]!.operators[0]!.mutants[0]!.detail).toBe('facts() failed: no base catalog');
    expect(t.ok).toBe(false);
  });

  it('mutationBatch: mutants of different files share one red run and one green run; a batch never makes a kill alone', async () => {
    let runs = 0;
    const counted = { ...goodGate, mutationBatch: 8, run: async (ctx: GateContext<any>, inputs: readonly string[]) => (runs++, goodGate.run(ctx, inputs)) };
    const r = await runMutations([settings(counted)], { ws: repo(), cacheRoot, seed: 7, allInputs: true });
    expect(r.totals).toEqual({ killed: 3, survived: 0, 'no-coverage': 0, error: 0, timeout: 0 });
    expect(runs).toBe(2);
    for (const m of r.gates[0]!.operators[0]!.mutants) expect(m.detail).toMatch(new RegExp(`red at ${m.file}:${m.line} .*one run with 2 other mutated files staged.*green without it \\(read 3 files\\)`));
    // A gate that judges only the first staged file: the batch kills one; the others are judged alone and killed there.
    runs = 0;
    const firstOnly = { ...counted, run: async (ctx: GateContext<any>, inputs: readonly string[]) => (runs++, goodGate.run(ctx, inputs.slice(0, 1))) };
    const f = await runMutations([settings(firstOnly)], { ws: repo(), cacheRoot, seed: 7, allInputs: true });
    expect(f.totals.killed).toBe(3);
    expect(f.gates[0]!.operators[0]!.mutants.map((m) => /one run with/.test(m.detail))).toEqual([true, false, false]);
    // Its green run of the three files read one: not taken as the others' green, each is run alone.
    expect(f.gates[0]!.operators[0]!.mutants.map((m) => /green without it \(read 1 files\)/.test(m.detail))).toEqual([true, true, true]);
    expect(runs).toBe(1 + 1 + 3 + 2);
    // One that never reports stays survived: every mutant is judged again alone.
    const n = await runMutations([settings({ ...neverGate, mutationBatch: 8 })], { ws: repo(), cacheRoot, seed: 7, allInputs: true });
    expect(n.totals.survived).toBe(3);
    expect(n.gates[0]!.operators[0]!.mutants[0]!.detail).toMatch(/stayed green \(read 1 file,/);
  });

  it('one that never reports: survived, exit not ok', async () => {
    const r = await runMutations([settings(neverGate)], { ws: repo(), cacheRoot, seed: 7 });
    expect(r.totals.survived).toBe(3);
    expect(r.gates[0]!.operators[0]!.mutants[0]!.detail).toMatch(/stayed green \(read 1 file,/);
    expect(r.ok).toBe(false);
  });

  it('one that reports everything: no input is green, so nothing is killed and the gate is an error', async () => {
    const r = await runMutations([settings(everythingGate)], { ws: repo(), cacheRoot, seed: 7 });
    expect(r.totals.killed).toBe(0);
    expect(r.gates[0]!.problem?.outcome).toBe('error');
    expect(r.gates[0]!.problem?.detail).toMatch(/already red without the mutation \(3\)/);
    expect(r.ok).toBe(false);
  });

  it('a mutant where old findings already sit: the hook\'s split still sees it (killed), and a gate whose findings hide it fails mutate', async () => {
    // Every input already holds BAD: the mutants' green checks fail, and one of them is judged as a commit would be.
    const red = () =>
      memoryWorkspace({ mode: 'all', files: { 'docs/a.txt': 'BAD\nbeta\ngamma\nBAD\n', 'docs/b.txt': 'BAD\ntwo\n', 'notes/c.txt': 'BAD\nx\n' } });
    const r = await runMutations([settings(goodGate)], { ws: red(), cacheRoot, seed: 7, allInputs: true });
    const old = r.gates[0]!.oldFindings!;
    expect(old.outcome).toBe('killed');
    expect(old.detail).toMatch(new RegExp(`^introduced at ${old.file}:${old.line} beside [12] old error findings? the unmutated file already had \\([12] matched as pre-existing\\)$`));
    // A gate that reports only the last BAD of a file, under one fingerprint per file: a new BAD below old ones takes
    // the old finding's identity, so a commit bringing it would pass as pre-existing. mutate says so and fails.
    const lastOnly = {
      ...goodGate,
      id: 'last-only',
      run: async (ctx: GateContext<any>, inputs: readonly string[]) => {
        const out = await goodGate.run(ctx, inputs);
        const last = new Map(out.findings.map((f) => [f.file, f]));
        return { ...out, findings: [...last.values()].map((f) => ({ ...f, fingerprint: `last ${f.file}` })) };
      },
    };
    // Files whose only BAD is their first line: a BAD inserted anywhere below it becomes the one reported.
    const tail = 'x\n'.repeat(9);
    const below = memoryWorkspace({ mode: 'all', files: { 'docs/a.txt': `BAD\n${tail}`, 'docs/b.txt': `BAD\n${tail}`, 'notes/c.txt': `BAD\n${tail}` } });
    const l = await runMutations([settings(lastOnly)], { ws: below, cacheRoot, seed: 7, allInputs: true });
    expect(l.gates[0]!.oldFindings?.outcome).toBe('survived');
    expect(l.gates[0]!.oldFindings?.detail).toMatch(/matched one of the 1 old finding by fingerprint: a commit bringing this defect next to them would pass as pre-existing/);
    expect(l.ok).toBe(false);
  });

  it('one that crashes: error', async () => {
    const r = await runMutations([settings(crashGate)], { ws: repo(), cacheRoot, seed: 7 });
    expect(r.totals).toMatchObject({ error: 3, killed: 0 });
    expect(r.ok).toBe(false);
  });

  it('one that reads nothing: no-coverage', async () => {
    const r = await runMutations([settings(blindGate)], { ws: repo(), cacheRoot, seed: 7 });
    expect(r.totals).toMatchObject({ 'no-coverage': 3, killed: 0 });
    expect(r.ok).toBe(false);
  });

  it('one that hangs: timeout', async () => {
    const r = await runMutations([settings(hangGate, {}, 50)], { ws: repo(), cacheRoot, seed: 7, perOperator: 1 });
    expect(r.totals).toMatchObject({ timeout: 1, killed: 0 });
  });

  it('a gate with no operator is a problem (decoration)', async () => {
    const r = await runMutations([settings({ ...goodGate, mutations: [] })], { ws: repo(), cacheRoot, seed: 7 });
    expect(r.gates[0]!.problem?.detail).toMatch(/no mutation operator/);
    expect(r.ok).toBe(false);
  });

  it('an operator with no file to mutate is noted, not failed; zero mutants overall fails', async () => {
    const ws = memoryWorkspace({ mode: 'all', files: { 'src/main.kt': 'x\n' } });
    const r = await runMutations([settings(goodGate, { include: ['**/*.kt'] })], { ws, cacheRoot, seed: 7 });
    expect(r.gates[0]!.operators[0]!.note).toBe('no file in this repository that it can mutate');
    expect(r.ok).toBe(false);
  });

  it('stops when the signal aborts and reports it', async () => {
    const controller = new AbortController();
    const r = await runMutations([settings(goodGate)], { ws: repo(), cacheRoot, seed: 7, signal: controller.signal, onMutant: () => controller.abort() });
    expect(r.aborted).toBe(true);
    expect(r.totals.killed).toBe(1);
    expect(r.ok).toBe(false);
  });
});

describe('the seed cases', () => {
  it('(1) an allow-list regex that matches everything: survived, naming the entry', async () => {
    const r = await runMutations([settings(goodGate, { allow: ['^TODO', '.*'] })], { ws: repo(), cacheRoot, seed: 7, perOperator: 1 });
    const m = r.gates[0]!.operators[0]!.mutants[0]!;
    expect(m.outcome).toBe('survived');
    expect(m.swallowedBy).toBe('gates.good.allow[1] = ".*" (killed once that entry is removed)');
    expect(r.ok).toBe(false);
  });

  it('an exclude glob that hides the mutated file: no-coverage, naming the glob', async () => {
    const r = await runMutations([settings(goodGate, { exclude: ['docs/**'] })], { ws: repo(), cacheRoot, seed: 3, allInputs: true });
    const outcomes = r.gates[0]!.operators[0]!.mutants.map((m) => [m.file, m.outcome]);
    expect(outcomes).toEqual([['notes/c.txt', 'killed']]);
    const ws = memoryWorkspace({ mode: 'all', files: { 'docs/a.txt': 'a\n' } });
    const hidden = await runMutations([settings(goodGate, { exclude: ['docs/**'] })], { ws, cacheRoot, seed: 3 });
    const m = hidden.gates[0]!.operators[0]!.mutants[0]!;
    expect(m.outcome).toBe('no-coverage');
    expect(m.swallowedBy).toBe('gates.good.exclude[0] = "docs/**" (killed once that entry is removed)');
  });

  it('(2) an include glob that matches no file: vacuous in run --all, no-coverage in mutate', async () => {
    const s = settings(goodGate, { include: ['**/*.nomatch'] });
    const run = await runGate(s, { ws: repo(), cacheRoot });
    expect(run.verdict).toBe('vacuous');
    const r = await runMutations([s], { ws: repo(), cacheRoot, seed: 7 });
    expect(r.totals).toMatchObject({ 'no-coverage': 3, killed: 0 });
    expect(r.gates[0]!.operators[0]!.mutants[0]!.swallowedBy).toMatch(/inputs do not include .*include: \["\*\*\/\*\.nomatch"\]/);
    expect(r.ok).toBe(false);
  });

  it('allowEmpty: a gate with zero inputs is skipped in run --all and in mutate', async () => {
    const s = { ...settings(goodGate, { include: ['**/*.nomatch'] }), allowEmpty: 'no text files yet' };
    expect((await runGate(s, { ws: repo(), cacheRoot })).verdict).toBe('skip');
    const r = await runMutations([s, settings(goodGate)], { ws: repo(), cacheRoot, seed: 7 });
    expect(r.gates[0]!.skipped).toMatch(/allowEmpty: no text files yet/);
    expect(r.ok).toBe(true);
  });
});
