import { mkdtempSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GateResult, SelfTestCase } from '../../core/types.js';
import { checkSelfTestCache, packageRoot, selfTestKey, storeSelfTestResults } from '../../mutations/cache.js';
import type { MutateReport } from '../../mutations/mutate.js';
import { filterEntries, withoutEntry } from '../../mutations/mutate.js';
import { classifyCase, classifyRed, gateProof, isTimeout } from '../../mutations/outcomes.js';
import { deriveSeed, seededRandom, shuffled } from '../../mutations/random.js';
import { mutateJson, mutateText, score, selfTestText } from '../../mutations/report.js';
import { goodGate, settings } from './mutations-toys.js';

const result = (over: Partial<GateResult>): GateResult => ({
  gate: 'g',
  title: 'G',
  verdict: 'pass',
  counts: { files: 1, items: 1, filtered: 0, suppressed: 0, findings: 0 },
  itemUnit: 'items',
  findings: [],
  notes: [],
  durationMs: 1,
  ...over,
});
const finding = (file: string, line: number, rule = 'r', severity: 'error' | 'warning' = 'error') => ({ gate: 'g', rule, file, line, column: 1, message: 'm', severity, fingerprint: 'f' });
const red: SelfTestCase = { name: 'red', kind: 'red', files: {}, expect: { file: 'a.txt', line: 2, rule: 'r' } };
const green: SelfTestCase = { name: 'green', kind: 'green', files: {} };

describe('case outcomes', () => {
  it('names every outcome', () => {
    expect(classifyCase(red, result({ verdict: 'fail', findings: [finding('a.txt', 2)] })).outcome).toBe('caught');
    expect(classifyCase(red, result({ verdict: 'fail', findings: [finding('a.txt', 3)] })).outcome).toBe('wrong');
    expect(classifyCase(red, result({ verdict: 'fail', findings: [finding('a.txt', 2, 'other')] })).outcome).toBe('wrong');
    expect(classifyCase(red, result({ verdict: 'fail', findings: [finding('b.txt', 2)] })).outcome).toBe('wrong');
    expect(classifyCase(red, result({ verdict: 'pass', findings: [finding('a.txt', 2, 'r', 'warning')] })).outcome).toBe('missed');
    expect(classifyCase({ ...red, expect: { file: 'a.txt', line: 2 } }, result({ verdict: 'fail', findings: [finding('a.txt', 2, 'any')] })).outcome).toBe('caught');
    expect(classifyCase({ ...red, expect: undefined } as unknown as SelfTestCase, result({ verdict: 'fail', findings: [finding('a.txt', 2)] })).outcome).toBe('wrong');
    expect(classifyCase(green, result({ verdict: 'pass' }))).toEqual({ outcome: 'clean', detail: 'passed, read 1 file' });
    expect(classifyCase(green, result({ verdict: 'fail', findings: [finding('a.txt', 1)] })).detail).toBe('failed on clean input: a.txt:1 (r)');
    expect(classifyCase(green, result({ verdict: 'skip', reason: 'nothing' })).outcome).toBe('vacuous');
    expect(classifyCase(red, result({ verdict: 'vacuous' })).outcome).toBe('vacuous');
    expect(classifyCase(red, result({ verdict: 'error', error: { message: 'gitleaks was not found on PATH', fix: 'x' } }))).toEqual({ outcome: 'error', detail: 'the gate could not run: gitleaks was not found on PATH' });
  });

  it('derives gate proofs', () => {
    expect(gateProof([{ kind: 'green', outcome: 'clean' }, { kind: 'red', outcome: 'caught' }])).toBe('PROVEN');
    expect(gateProof([{ kind: 'green', outcome: 'clean' }, { kind: 'red', outcome: 'wrong' }])).toBe('UNPROVEN');
    expect(gateProof([{ kind: 'red', outcome: 'caught' }])).toBe('UNPROVEN');
    expect(gateProof([{ kind: 'green', outcome: 'clean' }])).toBe('DECORATION');
    expect(gateProof([])).toBe('DECORATION');
    expect(gateProof([], 'reason')).toBe('WAIVED');
  });

  it('classifies red runs of mutants', () => {
    const m = { content: '', line: 2, rule: 'r', description: 'd' };
    expect(classifyRed('a.txt', m, result({ verdict: 'fail', findings: [finding('a.txt', 2)] })).outcome).toBe('killed');
    expect(classifyRed('a.txt', m, result({ verdict: 'fail', findings: [finding('a.txt', 9)] }))).toEqual({ outcome: 'survived', detail: 'red, but no finding at a.txt:2 (rule r): found a.txt:9 (r)' });
    expect(classifyRed('a.txt', m, result({ verdict: 'pass', counts: { files: 2, items: 0, filtered: 3, suppressed: 1, findings: 0 } })).detail).toBe('stayed green (read 2 files, 3 filtered, 1 suppressed)');
    expect(classifyRed('a.txt', m, result({ verdict: 'skip' })).outcome).toBe('no-coverage');
    const timeout = result({ verdict: 'error', error: { message: 'g did not finish within 50 ms', fix: '' } });
    expect(isTimeout(timeout)).toBe(true);
    expect(classifyRed('a.txt', m, timeout).outcome).toBe('timeout');
    expect(classifyRed('a.txt', m, result({ verdict: 'error', reason: 'crashed' })).outcome).toBe('error');
  });
});

describe('seeded sampling', () => {
  it('is reproducible and uniform enough', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(xs).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(xs.filter((x) => x < 0.5).length).toBeGreaterThan(430);
    expect(xs.filter((x) => x < 0.5).length).toBeLessThan(570);
    expect(deriveSeed(1, 'a')).not.toBe(deriveSeed(1, 'b'));
    expect(deriveSeed(1, 'a')).toBe(deriveSeed(1, 'a'));
    const items = [1, 2, 3, 4, 5, 6];
    const s = shuffled(items, seededRandom(3));
    expect([...s].sort()).toEqual(items);
    expect(items).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('filter entries', () => {
  it('finds the arrays the gate declares as filters (candidates first, then inputs) and removes one entry from a copy', () => {
    const config = { allow: ['a', 'b'], include: ['**'], nested: { ignoreKeys: ['k'] }, exclude: [] };
    const filters = { candidates: ['allow', 'nested.ignoreKeys'], inputs: ['exclude'], includes: ['include'] };
    expect(filterEntries(config, filters)).toEqual([
      { path: ['allow', 0], value: 'a' },
      { path: ['allow', 1], value: 'b' },
      { path: ['nested', 'ignoreKeys', 0], value: 'k' },
    ]);
    expect(filterEntries({ exclude: ['x'], allowList: ['y'] }, { candidates: ['allowList'], inputs: ['exclude'] }).map((e) => e.value)).toEqual(['y', 'x']);
    // Names decide nothing: an undeclared key is no filter, whatever it is called; a declared one is, whatever its name.
    expect(filterEntries({ allowPaths: ['p'], exclude: ['x'] }, undefined)).toEqual([]);
    expect(filterEntries({ allowPaths: ['p'], knownBrands: ['Acme'] }, { candidates: ['knownBrands'] }).map((e) => e.value)).toEqual(['Acme']);
    expect(withoutEntry(config, ['nested', 'ignoreKeys', 0])).toEqual({ ...config, nested: { ignoreKeys: [] } });
    expect(config.nested.ignoreKeys).toEqual(['k']);
  });
});

const report = (over: Partial<MutateReport> = {}): MutateReport => ({
  seed: 5,
  allInputs: false,
  aborted: false,
  ok: false,
  durationMs: 12,
  totals: { killed: 1, survived: 1, 'no-coverage': 0, error: 0, timeout: 0 },
  gates: [
    {
      gate: 'good',
      title: 'Good',
      inputs: 2,
      operators: [
        {
          operator: 'inject-bad',
          description: 'd',
          alreadyRed: 1,
          mutants: [
            { gate: 'good', operator: 'inject-bad', file: 'a.xml', line: 3, description: 'inserted', outcome: 'killed', detail: 'red at a.xml:3', durationMs: 4 },
            { gate: 'good', operator: 'inject-bad', file: 'b.kt', line: 1, description: 'inserted', outcome: 'survived', detail: 'stayed green', swallowedBy: 'gates.good.allow[0] = ".*"', durationMs: 4 },
          ],
        },
      ],
    },
  ],
  ...over,
});

describe('reports', () => {
  it('mutate text: a table per gate and operator, survivors with what swallowed them, the score', () => {
    const text = mutateText(report());
    expect(text).toMatch(/^gate +operator +killed +survived +no-coverage +error +timeout +note$/m);
    expect(text).toMatch(/^good +inject-bad +1 +1 +0 +0 +0 +1 input already red, skipped$/m);
    expect(text).toContain('survived  good/inject-bad  b.kt:1  inserted — stayed green; swallowed by gates.good.allow[0] = ".*"');
    expect(text).toContain('seed 5: 2 mutants, 1 killed, 1 survived, 0 no-coverage, 0 error, 0 timeout; mutation score 50.0 %');
    expect(text).toContain('mutate FAILED');
  });

  it('mutate text says why it failed: a survivor, no mutant made, or an interrupt (a fresh user was told a gate stayed green for the last two)', () => {
    expect(mutateText(report())).toContain('mutate FAILED: a gate did not go red where it should');
    const none = report({ totals: { killed: 0, survived: 0, 'no-coverage': 0, error: 0, timeout: 0 }, gates: [{ gate: 'good', title: 'Good', inputs: 2, operators: [{ operator: 'inject-bad', description: 'd', alreadyRed: 0, mutants: [] }] }] });
    expect(mutateText(none)).toContain('mutate FAILED: a gate could not be proven: no mutant could be made for it from your files');
    expect(mutateText(none)).not.toContain('did not go red');
    const cut = report({ aborted: true, totals: { killed: 1, survived: 0, 'no-coverage': 0, error: 0, timeout: 0 }, gates: [] });
    expect(mutateText(cut)).toContain('mutate INTERRUPTED: not every gate was proven');
    expect(mutateText(cut)).not.toContain('did not go red');
  });

  it('the score is n/a, never NaN, with zero mutants', () => {
    expect(score(report({ totals: { killed: 0, survived: 0, 'no-coverage': 0, error: 0, timeout: 0 } }))).toBe('n/a');
  });

  it('mutate json follows the mutation-testing-elements schema 2 shape', async () => {
    const json = (await mutateJson(report(), async (p) => `source of ${p}`, { root: '/r', version: '1.2.3' })) as any;
    expect(json.schemaVersion).toBe('2');
    expect(json.framework).toEqual({ name: 'loopgates', version: '1.2.3' });
    expect(Object.keys(json.files)).toEqual(['a.xml', 'b.kt']);
    expect(json.files['a.xml']).toMatchObject({ language: 'xml', source: 'source of a.xml' });
    expect(json.files['b.kt'].mutants[0]).toMatchObject({ id: '2', mutatorName: 'good/inject-bad', status: 'Survived', location: { start: { line: 1, column: 1 } } });
    expect(json.files['b.kt'].mutants[0].statusReason).toContain('swallowed by gates.good.allow[0]');
    expect(json.loopgates).toMatchObject({ seed: 5, ok: false, gates: [{ gate: 'good', inputs: 2 }] });
  });

  it('selftest text: proofs and plain words per case; zero cases is called out', () => {
    const text = selfTestText({
      executed: 2,
      ok: false,
      gates: [
        { gate: 'a', title: 'A', proof: 'PROVEN', cases: [{ name: 'ok', kind: 'green', outcome: 'clean', detail: 'passed', verdict: 'pass', durationMs: 1 }] },
        { gate: 'b', title: 'B', proof: 'DECORATION', cases: [] },
        { gate: 'c', title: 'C', proof: 'WAIVED', cases: [], waived: 'tested elsewhere' },
      ],
    });
    expect(text).toContain('a  PROVEN  1 case: 1 clean');
    expect(text).toContain('  clean   green ok — passed');
    expect(text).toContain('b  DECORATION  0 cases\n  no red case: nothing shows this gate can fail');
    expect(text).toContain('  self-test waived: tested elsewhere');
    expect(selfTestText({ executed: 0, ok: false, gates: [] })).toContain('zero cases executed: that proves nothing');
  });
});

describe('self-test cache', () => {
  it("a built-in gate's key leaves out what no run reads: dist's declaration files and source maps", () => {
    const secrets = settings({ ...goodGate, id: 'secrets' });
    const dir = join(packageRoot(), 'dist', 'gates', 'secrets');
    const names = readdirSync(dir);
    const files = ['.js.map', '.d.ts'].map((ext) => join(dir, names.find((n) => n.endsWith(ext))!));
    const k1 = selfTestKey(secrets, dir, {});
    const times = files.map((f) => statSync(f));
    try {
      for (const f of files) utimesSync(f, new Date(), new Date(Date.now() + 5000));
      expect(selfTestKey(secrets, dir, {})).toBe(k1);
    } finally {
      files.forEach((f, i) => utimesSync(f, times[i]!.atime, times[i]!.mtime));
    }
  });

  it('keys change with the config and the scanner binary, hit otherwise; only passing proofs are stored', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopgates-cache-unit-'));
    const bin = join(dir, 'gitleaks');
    writeFileSync(bin, 'x');
    const env = { LOOPGATES_GITLEAKS: bin, PATH: '' };
    const secretsLike = { ...settings({ ...goodGate, id: 'secrets' }) };
    const k1 = selfTestKey(secretsLike, dir, env);
    expect(selfTestKey(secretsLike, dir, env)).toBe(k1);
    expect(selfTestKey(settings({ ...goodGate, id: 'secrets' }, { allow: ['x'] }), dir, env)).not.toBe(k1);
    utimesSync(bin, new Date(), new Date(Date.now() + 5000));
    const k2 = selfTestKey(secretsLike, dir, env);
    expect(k2).not.toBe(k1);
    const cacheRoot = join(dir, 'cache');
    expect(checkSelfTestCache([secretsLike], cacheRoot, dir, env).misses).toHaveLength(1);
    storeSelfTestResults(cacheRoot, [{ gate: 'secrets', key: k2, proof: 'PROVEN', cases: 3 }, { gate: 'other', key: 'k', proof: 'UNPROVEN', cases: 1 }]);
    expect(checkSelfTestCache([secretsLike], cacheRoot, dir, env)).toEqual({ hits: ['secrets'], misses: [] });
    const other = settings({ ...goodGate, id: 'other' });
    expect(checkSelfTestCache([other], cacheRoot, dir, env).misses).toHaveLength(1);
  });
});
