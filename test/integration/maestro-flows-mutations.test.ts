// maestro-flows' mutation operators on the real Maestro flow corpus: every mutant an operator makes of a real flow is
// killed at its injected line (a finding of its rule there that the unmutated flow does not have), judged as the hook
// judges one staged file: staged mode, the mutated flow the only target, its callers pulled in. A mutant of a
// subflow's last check is killed through the caller that goes on without one.
import { describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import { treeWorkspace } from '../../core/snapshot.js';
import type { GateContext, GateResult, Mutant, Workspace } from '../../core/types.js';
import { memoryWorkspace, overlayWorkspace } from '../../core/workspace.js';
import { maestroFlowsGate } from '../../gates/maestro-flows/index.js';
import { maestroProject, sharedParent } from '../helpers/corpus.js';

const MAESTRO_REPO = { flows: ['e2e/workspaces/demo_app/**/*.yaml', 'maestro-test/src/test/resources/*.yaml'] };
/** Mutants made per operator and project (every input tried once, seed 7): all of them must be killed. */
const made: Record<string, { config?: unknown; ops: Record<string, number> }> = {
  'RocketChat__Rocket.Chat.ReactNative': { ops: { 'maestro-delete-check': 7, 'maestro-raise-max-retries': 1, 'maestro-delete-max-retries': 1, 'maestro-add-retap': 22, 'maestro-repeat-while': 0, 'maestro-point-tap': 21, 'maestro-missing-runflow': 14 } },
  duckduckgo__Android: { ops: { 'maestro-delete-check': 0, 'maestro-raise-max-retries': 14, 'maestro-delete-max-retries': 14, 'maestro-add-retap': 26, 'maestro-repeat-while': 0, 'maestro-point-tap': 26, 'maestro-missing-runflow': 18 } },
  'element-hq__element-x-android': { ops: { 'maestro-delete-check': 2, 'maestro-raise-max-retries': 2, 'maestro-delete-max-retries': 2, 'maestro-add-retap': 14, 'maestro-repeat-while': 0, 'maestro-point-tap': 14, 'maestro-missing-runflow': 8 } },
  'mobile-dev-inc__maestro': { config: MAESTRO_REPO, ops: { 'maestro-delete-check': 1, 'maestro-raise-max-retries': 2, 'maestro-delete-max-retries': 2, 'maestro-add-retap': 26, 'maestro-repeat-while': 1, 'maestro-point-tap': 27, 'maestro-missing-runflow': 1 } },
};

const seeded = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const staged = (ws: Workspace, path: string, content?: string): Workspace => ({ ...overlayWorkspace(ws, content === undefined ? new Map() : new Map([[path, content]]), [path]), mode: 'staged' });
/** Mutants judged per operator and project (the first ones made; the shared machine has 2 cores). */
const JUDGED = 4;
const at = (r: GateResult, path: string, m: Mutant) => r.findings.some((f) => f.severity === 'error' && f.file === path && f.line === m.line && f.rule === m.rule);

describe('maestro-flows mutation operators on the corpus', () => {
  const subflowKills: string[] = [];
  for (const [project, want] of Object.entries(made)) {
    it(`${project}: every mutant of every operator is killed at its line`, async () => {
      const ws = await treeWorkspace(maestroProject(project), 'all', undefined, { GIT_CEILING_DIRECTORIES: sharedParent });
      const config = maestroFlowsGate.configSchema.parse(want.config ?? {});
      const ctx: GateContext<any> = { ws, config, signal: new AbortController().signal, runTool: async () => { throw new Error('no tool'); }, cacheDir: '/tmp/loopgates-test-cache', log: () => {} };
      const inputs = await maestroFlowsGate.inputs(ctx);
      const settings = { gate: maestroFlowsGate, config, timeoutMs: 60_000 };
      const counts: Record<string, number> = {};
      const survived: string[] = [];
      const random = seeded(7);
      for (const op of maestroFlowsGate.mutations) {
        counts[op.id] = 0;
        for (const path of inputs) {
          const facts = op.facts ? await op.facts(ctx, path) : undefined;
          const m = op.mutate(path, await ws.readText(path), random, facts);
          if (!m) continue;
          if (counts[op.id]!++ >= JUDGED) continue;
          expect(m.content).not.toBe(await ws.readText(path));
          const red = await runGate(settings, { ws: staged(ws, path, m.content), cacheRoot: '/tmp/loopgates-test-cache' });
          const green = await runGate(settings, { ws: staged(ws, path), cacheRoot: '/tmp/loopgates-test-cache' });
          if (!at(red, path, m) || at(green, path, m)) survived.push(`${op.id} ${path}:${m.line} ${m.description}`);
          if (op.id === 'maestro-delete-check') subflowKills.push(path);
        }
      }
      expect(survived).toEqual([]);
      expect(counts).toEqual(want.ops);
    });
  }
  it('element-x: the delete-check mutant in settings.yaml, a subflow of allTests.yaml, is killed with the subflow staged alone', () => {
    // Killed: the loop above found no survivor; settings.yaml is reached only through allTests.yaml's runFlow.
    expect(subflowKills).toContain('.maestro/tests/settings/settings.yaml');
  });
});

describe('maestro-flows delete-check through a caller', () => {
  const SUB = '.maestro/steps/open-cart.yaml';
  const files = {
    '.maestro/checkout.yaml': 'appId: com.example.shop\n---\n- launchApp\n- runFlow: steps/open-cart.yaml\n- back\n',
    [SUB]: 'appId: com.example.shop\n---\n- tapOn:\n    id: "cart"\n- assertVisible: "Your cart"\n',
  };
  it('deleting a subflow\'s last check is killed at its tap through the caller that goes on with back', async () => {
    const ws = memoryWorkspace({ files, mode: 'all' });
    const config = maestroFlowsGate.configSchema.parse({});
    const ctx: GateContext<any> = { ws, config, signal: new AbortController().signal, runTool: async () => { throw new Error('no tool'); }, cacheDir: '/tmp/loopgates-test-cache', log: () => {} };
    const op = maestroFlowsGate.mutations.find((o) => o.id === 'maestro-delete-check')!;
    const facts = await op.facts!(ctx, SUB);
    expect(facts).toEqual({ entry: false, next: ['back'] });
    const m = op.mutate(SUB, files[SUB], seeded(1), facts)!;
    expect(m.line).toBe(3);
    expect(m.description).toContain('a caller goes on with back');
    const settings = { gate: maestroFlowsGate, config, timeoutMs: 10_000 };
    const red = await runGate(settings, { ws: staged(ws, SUB, m.content), cacheRoot: '/tmp/loopgates-test-cache' });
    expect(red.findings.map((f) => `${f.file}:${f.line} ${f.rule}`)).toEqual([`${SUB}:3 tap-without-check`]);
    expect(red.findings[0]!.message).toContain('followed by back at .maestro/checkout.yaml:5');
    expect((await runGate(settings, { ws: staged(ws, SUB), cacheRoot: '/tmp/loopgates-test-cache' })).verdict).toBe('pass');
  });
});
