import { describe, expect, it } from 'vitest';
import { memoryWorkspace } from '../../core/workspace.js';
import { runGate } from '../../core/runner.js';
import type { SelfTestCase } from '../../core/types.js';
import { stringParityGate } from '../../gates/string-parity/index.js';

const cases: SelfTestCase[] = await stringParityGate.selfTest();

describe('string-parity self-test cases', () => {
  it('ships green and red cases for every format', () => {
    const names = cases.map((c) => c.name);
    for (const f of ['android', '.strings', '.stringsdict', '.xcstrings', 'arb', 'i18next', 'icu json', 'po']) {
      expect(cases.filter((c) => c.kind === 'green' && c.name.startsWith(f)).length, f).toBeGreaterThan(0);
      expect(cases.filter((c) => c.kind === 'red' && c.name.startsWith(f)).length, f).toBeGreaterThan(0);
    }
    expect(new Set(names).size).toBe(names.length);
  });
  for (const c of cases) {
    it(`${c.kind}: ${c.name}`, async () => {
      const ws = memoryWorkspace({ files: c.files, ...(c.targets ? { targets: c.targets } : {}), mode: 'staged' });
      const config = stringParityGate.configSchema.parse(c.config ?? {});
      const r = await runGate({ gate: stringParityGate, config, timeoutMs: 10_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache' });
      const errors = r.findings.filter((f) => f.severity === 'error');
      if (c.kind === 'green') {
        expect(errors.map((f) => `${f.file}:${f.line} ${f.rule} ${f.message}`)).toEqual([]);
        expect(r.verdict).toBe('pass');
        expect(r.counts.files).toBeGreaterThan(0);
      } else {
        expect(r.verdict).toBe('fail');
        const at = errors.map((f) => `${f.file}:${f.line} ${f.rule}`);
        expect(at).toContain(`${c.expect!.file}:${c.expect!.line} ${c.expect!.rule}`);
        // one injected defect, one error finding
        expect(errors.length, errors.map((f) => f.message).join('\n')).toBe(1);
      }
    });
  }
});
