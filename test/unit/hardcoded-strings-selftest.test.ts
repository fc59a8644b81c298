// The shipped self-test cases of hardcoded-strings, run as the self-test engine will: red cases must fail with a
// finding at the injected line (and rule), green cases must pass having read at least one file.
import { describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import { memoryWorkspace } from '../../core/workspace.js';
import { configSchema, hardcodedStringsGate } from '../../gates/hardcoded-strings/index.js';

const cases = await hardcodedStringsGate.selfTest();

describe('hardcoded-strings self-test cases', () => {
  it('ships green and red cases for every language', () => {
    const files = (kind: string) => cases.filter((c) => c.kind === kind).flatMap((c) => Object.keys(c.targets ? Object.fromEntries(c.targets.map((t) => [t, 1])) : c.files));
    for (const ext of ['.xml', '.kt', '.swift', '.tsx', '.java']) {
      expect(files('green').some((f) => f.endsWith(ext)), `green ${ext}`).toBe(true);
      expect(files('red').some((f) => f.endsWith(ext)), `red ${ext}`).toBe(true);
    }
  });

  for (const c of cases) {
    it(`${c.kind}: ${c.name}`, async () => {
      const ws = memoryWorkspace({ files: c.files, ...(c.targets ? { targets: c.targets } : {}) });
      const config = configSchema.parse(c.config ?? {});
      const r = await runGate({ gate: hardcodedStringsGate, config, timeoutMs: 30_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache' });
      if (c.kind === 'green') {
        expect(r.findings).toEqual([]);
        expect(r.verdict).toBe('pass');
        expect(r.counts.files).toBeGreaterThan(0);
      } else {
        expect(r.verdict).toBe('fail');
        const at = r.findings.filter((f) => f.file === c.expect!.file && f.line === c.expect!.line);
        expect(at.map((f) => f.rule)).toEqual([c.expect!.rule]);
      }
    });
  }
});
