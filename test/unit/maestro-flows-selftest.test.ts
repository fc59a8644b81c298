// maestro-flows' shipped cases, each through the runner as `loopgates selftest` runs them: green cases pass having
// read flows, red cases fail with an error finding of the named rule at the injected line, and one only.
import { describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import { memoryWorkspace } from '../../core/workspace.js';
import { maestroFlowsGate } from '../../gates/maestro-flows/index.js';
import { RULES } from '../../gates/maestro-flows/config.js';

const cases = await maestroFlowsGate.selfTest();

describe('maestro-flows self-test cases', () => {
  it('ships a green case and a red case for every rule', () => {
    expect(cases.filter((c) => c.kind === 'green').length).toBeGreaterThan(0);
    for (const rule of Object.keys(RULES)) expect(cases.filter((c) => c.kind === 'red' && c.expect?.rule === rule).length, rule).toBeGreaterThan(0);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });
  for (const c of cases) {
    it(`${c.kind}: ${c.name}`, async () => {
      const ws = memoryWorkspace({ files: c.files, ...(c.targets ? { targets: c.targets } : {}), mode: 'staged' });
      const config = maestroFlowsGate.configSchema.parse(c.config ?? {});
      const r = await runGate({ gate: maestroFlowsGate, config, timeoutMs: 10_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache' });
      const errors = r.findings.filter((f) => f.severity === 'error').map((f) => `${f.file}:${f.line} ${f.rule}`);
      if (c.kind === 'green') {
        expect(r.findings.map((f) => `${f.file}:${f.line} ${f.rule} ${f.message}`)).toEqual([]);
        expect(r.verdict).toBe('pass');
        expect(r.counts.files).toBe(2);
      } else {
        expect(r.verdict).toBe('fail');
        expect(errors).toEqual([`${c.expect!.file}:${c.expect!.line} ${c.expect!.rule}`]);
      }
    });
  }
  // Each red case hinges on its rule: with that rule off the case is no longer caught (watched red -> green), and the
  // run names the rule that is off.
  for (const c of cases.filter((x) => x.kind === 'red')) {
    it(`red without its rule is not caught: ${c.name}`, async () => {
      const ws = memoryWorkspace({ files: c.files, ...(c.targets ? { targets: c.targets } : {}), mode: 'staged' });
      const own = (c.config ?? {}) as { rules?: Record<string, string> };
      const config = maestroFlowsGate.configSchema.parse({ ...own, rules: { ...own.rules, [c.expect!.rule!]: 'off' } });
      const r = await runGate({ gate: maestroFlowsGate, config, timeoutMs: 10_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache' });
      expect(r.findings.filter((f) => f.file === c.expect!.file && f.line === c.expect!.line && f.rule === c.expect!.rule)).toEqual([]);
      expect(r.notes.join('\n')).toContain(`off by gates.maestro-flows.rules: ${c.expect!.rule}`);
    });
  }
});

describe('maestro-flows config', () => {
  it('an exclude that matches every flow it could read refuses (error, named), instead of a quiet skip', async () => {
    const files = { '.maestro/login.yaml': 'appId: x\n---\n- launchApp\n' };
    const config = maestroFlowsGate.configSchema.parse({ exclude: ['**'] });
    const r = await runGate({ gate: maestroFlowsGate, config, timeoutMs: 10_000 }, { ws: memoryWorkspace({ files, mode: 'staged' }), cacheRoot: '/tmp/loopgates-test-cache' });
    expect(r.verdict).toBe('error');
    expect(r.error?.message).toBe('gates.maestro-flows.exclude[0] "**" excludes every file this gate could read (Maestro flows): it can never find an unchecked tap');
  });
  it('ignoreMissing that allows every missing target says missing-file cannot fire', async () => {
    const files = { '.maestro/login.yaml': 'appId: x\n---\n- launchApp\n- runScript: seed.js\n- assertVisible: "Hi"\n' };
    const config = maestroFlowsGate.configSchema.parse({ ignoreMissing: ['**'] });
    const r = await runGate({ gate: maestroFlowsGate, config, timeoutMs: 10_000 }, { ws: memoryWorkspace({ files, mode: 'staged' }), cacheRoot: '/tmp/loopgates-test-cache' });
    expect(r.verdict).toBe('pass');
    expect(r.counts.filtered).toBe(1);
    expect(r.notes).toContain('gates.maestro-flows.ignoreMissing removed every missing runFlow / runScript target (1 of 1): missing-file cannot fire');
  });
});
