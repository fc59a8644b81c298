// maestro-flows' mutation operators on the gate's own shipped green cases: each makes a mutant in the green files,
// and the gate, run as the hook runs one staged file, reports the operator's rule at the mutant's line.
import { describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import type { GateContext } from '../../core/types.js';
import { memoryWorkspace, overlayWorkspace } from '../../core/workspace.js';
import { maestroFlowsGate } from '../../gates/maestro-flows/index.js';

const config = maestroFlowsGate.configSchema.parse({});
const greens = (await maestroFlowsGate.selfTest()).filter((c) => c.kind === 'green' && c.config === undefined);

describe('maestro-flows operators on the shipped green cases', () => {
  for (const op of maestroFlowsGate.mutations) {
    it(`${op.id} makes a mutant that is killed at its line, and leaves the rest of the file as it was`, async () => {
      const killed: string[] = [];
      for (const c of greens) {
        const ws = memoryWorkspace({ files: c.files, mode: 'staged' });
        const ctx: GateContext<any> = { ws, config, signal: new AbortController().signal, runTool: async () => { throw new Error('no tool'); }, cacheDir: '/tmp/loopgates-test-cache', log: () => {} };
        for (const [path, content] of Object.entries(c.files)) {
          const m = op.mutate(path, content, () => 0.5, op.facts ? await op.facts(ctx, path) : undefined);
          if (!m) continue;
          // One contiguous edit: the same prefix and suffix around it.
          let a = 0;
          while (a < content.length && content[a] === m.content[a]) a++;
          let b = 0;
          while (b < content.length - a && content[content.length - 1 - b] === m.content[m.content.length - 1 - b]) b++;
          expect(content.length - a - b, m.description).toBeLessThan(200);
          const red = await runGate({ gate: maestroFlowsGate, config, timeoutMs: 10_000 }, { ws: { ...overlayWorkspace(ws, new Map([[path, m.content]]), [path]), mode: 'staged' }, cacheRoot: '/tmp/loopgates-test-cache' });
          if (red.findings.some((f) => f.severity === 'error' && f.file === path && f.line === m.line && f.rule === m.rule)) killed.push(`${c.name} ${path}:${m.line}`);
          else expect.fail(`${m.description}: not killed at ${path}:${m.line} (${m.rule}); found ${red.findings.map((f) => `${f.line} ${f.rule}`).join(', ')}`);
        }
      }
      expect(killed.length).toBeGreaterThan(0);
    });
  }
});
