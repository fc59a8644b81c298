// The split of a staged run's findings into introduced and pre-existing (core/introduced.ts): multiset matching by
// fingerprint, line maps from git's -U0 patches and from one edit, summaries with members, and the policies.
import { describe, expect, it } from 'vitest';
import { align, applyStagedPolicy, judged, lineMapOfEdit, lineMapOfPatch, splitFindings } from '../../core/introduced.js';
import type { HeadJudge } from '../../core/introduced.js';
import { completeFinding } from '../../core/finding.js';
import { memoryWorkspace } from '../../core/workspace.js';
import type { Finding, GateResult } from '../../core/types.js';
import { toyGate } from '../integration/run-toys.js';

const f = (file: string, line: number, fingerprint: string, severity: Finding['severity'] = 'error', members?: string[]): Finding =>
  completeFinding('g', { rule: 'r', file, line, column: 1, message: 'm', severity, fingerprint, ...(members ? { members } : {}) });

describe('splitFindings', () => {
  it('matches by fingerprint as a multiset: two identical old ones and a new third leave one introduced', () => {
    // HEAD: BAD at 2 and 5. The commit inserts a line at the top and a new BAD after HEAD's line 2: BADs at 3, 4, 7.
    const now = [f('a', 3, 'x'), f('a', 4, 'x'), f('a', 7, 'x'), f('a', 9, 'y')];
    const head = [f('a', 2, 'x'), f('a', 5, 'x')];
    // Without a line map: the alignment that moves lines least, which cannot see the insertion at the top.
    expect(splitFindings(now, head).introduced.map((x) => `${x.line}${x.fingerprint}`)).toEqual(['7x', '9y']);
    // With git's -U0 map the old ones became 3 and 7: 4 is the new one.
    const map = lineMapOfPatch('@@ -0,0 +1 @@\n+zero\n@@ -2,0 +4 @@\n+BAD\n');
    expect(splitFindings(now, head, new Map([['a', map]])).introduced.map((x) => `${x.line}${x.fingerprint}`)).toEqual(['4x', '9y']);
  });

  it('a summary stays pre-existing only while HEAD named every member', () => {
    const head = [f('de.xml', 1, 's', 'warning', ['a', 'b'])];
    expect(splitFindings([f('de.xml', 1, 's', 'warning', ['b'])], head).preExisting).toHaveLength(1);
    expect(splitFindings([f('de.xml', 1, 's', 'warning', ['a', 'b', 'c'])], head).introduced).toHaveLength(1);
    // members are never reported: JSON and spreads do not carry them.
    expect(JSON.stringify(f('de.xml', 1, 's', 'warning', ['a']))).not.toContain('members');
  });

  it('align pairs in order, leaving out what moves lines most', () => {
    expect(align([10, 15, 21], [10, 20])).toEqual([[0, 0], [2, 1]]);
    expect(align([10, 20], [5, 13, 23])).toEqual([[0, 1], [1, 2]]);
    expect(align([1, 2], [1, 2])).toEqual([[0, 0], [1, 1]]);
  });
});

describe('line maps', () => {
  it('of a -U0 patch: changed lines have no image, later lines shift', () => {
    const m = lineMapOfPatch('diff --git a/x b/x\n@@ -2 +2,2 @@\n-b\n+B\n+C\n@@ -5,2 +6,0 @@\n-e\n-f\n');
    expect([1, 2, 3, 4, 5, 6, 7].map(m)).toEqual([1, undefined, 4, 5, undefined, undefined, 6]);
  });

  it('of one edit: prefix stays, suffix shifts by the change in line count', () => {
    const m = lineMapOfEdit('a\nb\nc\nd\n', 'a\nX\nY\nc\nd\n');
    expect([1, 2, 3, 4].map(m)).toEqual([1, undefined, 4, 5]);
  });
});

describe('applyStagedPolicy', () => {
  const gate = toyGate('toy', '.txt');
  const ws = memoryWorkspace({ files: { 'a.txt': 'x', 'b.txt': 'y' }, targets: ['a.txt'] });
  const result = (findings: Finding[]): GateResult => ({ gate: 'toy', title: 't', verdict: findings.some((x) => x.severity === 'error') ? 'fail' : 'pass', counts: { files: 2, items: 2, filtered: 0, suppressed: 0, findings: findings.length }, itemUnit: 'lines', findings, notes: [], durationMs: 1 });
  const headWith = (findings: Finding[]): HeadJudge & { calls: number } => {
    const h = { calls: 0, judge: async () => (h.calls++, { findings, from: 'run' as const }) };
    return h;
  };
  const run = async () => result([]);
  const old = [f('a.txt', 1, 'p'), f('b.txt', 1, 'q')];

  it('introduced: old findings leave the verdict, counted in staged.preExisting', async () => {
    const r = await applyStagedPolicy({ gate, config: {}, timeoutMs: 1000 }, ws, result(old), ['a.txt', 'b.txt'], headWith(old), run);
    expect([r.verdict, r.findings.length, r.counts.findings, r.staged]).toEqual(['pass', 0, 0, { policy: 'introduced', preExisting: { errors: 2, warnings: 0, files: ['a.txt', 'b.txt'] }, head: 'run' }]);
  });

  it('touched: old findings in a staged file count; HEAD is not judged when every finding is in one', async () => {
    const h = headWith(old);
    const r = await applyStagedPolicy({ gate, config: {}, timeoutMs: 1000, staged: 'touched' }, ws, result(old), ['a.txt', 'b.txt'], h, run);
    expect([r.verdict, r.findings.map((x) => x.file), r.staged?.preExisting.files]).toEqual(['fail', ['a.txt'], ['b.txt']]);
    const only = headWith(old);
    await applyStagedPolicy({ gate, config: {}, timeoutMs: 1000, staged: 'touched' }, ws, result([old[0]!]), ['a.txt'], only, run);
    expect(only.calls).toBe(0);
  });

  it('all, a gate that judges the change alone, and nothing to split: HEAD is never judged', async () => {
    for (const [s, g, findings] of [
      [{ staged: 'all' as const }, gate, old],
      [{}, { ...gate, judgesChangeOnly: true }, old],
      [{}, gate, []],
    ] as const) {
      const h = headWith(old);
      const r = await applyStagedPolicy({ gate: g, config: {}, timeoutMs: 1000, ...s }, ws, result([...findings]), ['a.txt'], h, run);
      expect([h.calls, r.findings.length]).toEqual([0, findings.length]);
    }
  });

  it('judged() counts only what the policy holds the commit to', () => {
    const split = { introduced: [old[1]!], preExisting: [old[0]!] };
    expect(judged(result(old), 'introduced', split, new Set(['a.txt']), 'cache').findings).toEqual([old[1]]);
    expect(judged(result(old), 'touched', split, new Set(['a.txt']), 'cache').findings).toEqual(old);
  });
});
