// maestro-flows: Maestro flow files (https://docs.maestro.dev/api-reference/commands) judged for the tap loop: every
// tap followed by a bounded check, bounded literal retries and repeats, no blind re-taps, no pixel taps, no dangling
// runFlow targets. Spec: issue 12; README.md beside this file. This module is what every commit loads: metadata,
// config schema, input selection and the mutation operators; the rules load in run().
import { anyCaseExtension } from '../../core/hook-plan.js';
import type { Gate, GateContext } from '../../core/types.js';
import { WORKSPACE_CONFIG } from './commands.js';
import { configSchema, DEFAULT_FLOWS, RULES, severityOf, type MaestroFlowsConfig, type RuleId } from './config.js';
import { selectFlowPaths } from './select.js';
import { maestroFlowsMutations } from './mutations.js';

export const GATE_ID = 'maestro-flows';

/**
 * The flows a run judges. `--all`: every flow discovered or reached. Staged / --files: the staged flows, the flows of
 * a workspace whose config.yaml is staged, the callers of a staged deletion, and every flow that reaches any of them.
 */
async function selectInputs(ctx: GateContext<MaestroFlowsConfig>): Promise<string[]> {
  const targets = await ctx.ws.targets();
  const deleted = ctx.ws.mode === 'staged' && ctx.ws.deletions ? await ctx.ws.deletions() : [];
  if (ctx.ws.mode !== 'all') {
    // Discovery parses every flow of the snapshot (to find callers): only when the commit can touch one.
    const stagedFlows = selectFlowPaths(targets, ctx.config).selected.length > 0;
    if (!stagedFlows && (!deleted.length || selectFlowPaths(await ctx.ws.allPaths(), ctx.config).selected.length === 0)) return [];
  }
  const { flowSetOf } = await import('./judge.js');
  const { withCallers, callersOfMissing } = await import('./discovery.js');
  const set = await flowSetOf(ctx);
  if (ctx.ws.mode === 'all') return [...set.flows.keys()].sort();
  const seeds = new Set<string>();
  for (const t of targets) {
    if (set.flows.has(t)) seeds.add(t);
    if (WORKSPACE_CONFIG.test(t)) for (const [p, root] of set.workspaceOf) if (set.workspaces.get(root)?.configPath === t) seeds.add(p);
  }
  for (const d of deleted) for (const c of callersOfMissing(set, d)) seeds.add(c.list.flow.path);
  return [...withCallers(set, seeds)].sort();
}

/** The gate (DESIGN.md "A gate is one object"). */
export const maestroFlowsGate: Gate<MaestroFlowsConfig> = {
  id: GATE_ID,
  title: 'Maestro flows check every tap, with bounded retries',
  loop: {
    runs: 'parses Maestro flow YAML (yaml, with lines) and follows runFlow / retry / repeat both ways: each tap must be followed by a bounded check before the next action; retries literal and at most 3; no while-only repeat, blind re-tap, pixel tap or dangling runFlow target',
    reads: 'flows under .maestro/ (or gates.maestro-flows.flows), the workspace config.yaml (flows, includeTags, excludeTags), the subflows they reach and, staged, every flow that reaches a staged or deleted one; CI files for a pinned MAESTRO_VERSION',
    ends: 'one pass over the judged flows; passes when no error finding remains (a following selector command counts as a check unless strictChecks: true); bounded by timeoutMs',
    asks: 'never',
  },
  configSchema,
  inputs: selectInputs,
  unselected: async (ctx, selected) => (await import('./elsewhere.js')).unselectedFlows(ctx, selected),
  run: async (ctx, inputs) => (await import('./judge.js')).judge(ctx, inputs),
  selfTest: async () => (await import('./selftest.js')).maestroFlowsSelfTest(),
  mutations: maestroFlowsMutations,
  refusingRules: (config) => (Object.keys(RULES) as RuleId[]).filter((r) => severityOf(config, r) === 'error'),
  filters: { candidates: ['ignoreMissing'], inputs: ['exclude'], includes: ['flows'] },
  // A staged path is a seed only when it is YAML (selectFlowPaths: flows, subflows, the workspace config.yaml,
  // whatever `flows` says) and CI files are YAML too; `*maestro*.sh` (the CI scripts detectMaestroVersion reads) is
  // over-approximation. A deleted path of any name can be a runFlow / runScript target a flow names (missing-file).
  stagedPatterns: () => [anyCaseExtension('yaml'), anyCaseExtension('yml'), '*[mM][aA][eE][sS][tT][rR][oO]*.[sS][hH]'],
  deletedPatterns: () => ['*'],
  // Most repositories have no Maestro flow: with the default discovery, none is not a blind gate (run --all stays
  // green, as for dump-audit); globs of the team's own that find nothing stay vacuous.
  emptyAllowed: (config) =>
    config.entryPoints === undefined && config.flows.length === DEFAULT_FLOWS.length && config.flows.every((g, i) => g === DEFAULT_FLOWS[i])
      ? 'no Maestro flows (.maestro/) in this repository'
      : undefined,
};

export default maestroFlowsGate;
