// run() of the maestro-flows gate: discovery (cached per workspace object, so inputs() and run() parse once), the
// rules, severities from config, counts and notes.
import { fingerprint } from '../../core/finding.js';
import { removedEveryNote } from '../../core/inputs.js';
import type { GateContext, GateOutput, Workspace } from '../../core/types.js';
import { RULES, severityOf, type MaestroFlowsConfig, type RuleId } from './config.js';
import { detectMaestroVersion, discoverFlows, type FlowSet } from './discovery.js';
import { judgeFlows, type FlowStats } from './rules.js';

export const GATE_ID = 'maestro-flows';

const cache = new WeakMap<Workspace, WeakMap<object, Promise<FlowSet>>>();

/** The snapshot's flows under `ctx.config`, discovered once per workspace and config object. */
export function flowSetOf(ctx: Pick<GateContext<MaestroFlowsConfig>, 'ws' | 'config' | 'signal'>): Promise<FlowSet> {
  let byConfig = cache.get(ctx.ws);
  if (!byConfig) cache.set(ctx.ws, (byConfig = new WeakMap()));
  let p = byConfig.get(ctx.config);
  if (!p) {
    byConfig.set(ctx.config, (p = discoverFlows(ctx.ws, ctx.config, ctx.signal)));
    p.catch(() => byConfig.delete(ctx.config));
  }
  return p;
}

/** Stats in words, for the verdict's notes and the bench. */
export function statsLine(s: FlowStats): string {
  return `${s.flows} flows, ${s.taps} taps (${s.tapsChecked} checked, ${s.sameSelectorTaps ? `${s.sameSelectorTaps} followed only by a tap on the same selector, ` : ''}${s.focusTaps} focus taps, ${s.tapsAcrossRunFlow} judged across runFlow), ${s.retries} retries, ${s.unboundedRepeats} unbounded repeats, ${s.pointTaps} point taps, ${s.missingFiles} missing files`;
}

/** Judge `inputs` (flow paths from inputs()). */
export async function judge(ctx: GateContext<MaestroFlowsConfig>, inputs: readonly string[]): Promise<GateOutput & { stats: FlowStats }> {
  const set = await flowSetOf(ctx);
  const judged = new Set(inputs);
  const notes: string[] = [];
  let version = ctx.config.maestroVersion;
  if (!version) {
    const found = await detectMaestroVersion(ctx.ws);
    if (found) {
      version = found.version;
      notes.push(`Maestro ${found.version} pinned in ${found.from}`);
    }
  }
  const { findings: raw, stats, ignoredMissing } = judgeFlows(set, judged, { strictChecks: ctx.config.strictChecks, ignoreMissing: ctx.config.ignoreMissing, ...(version ? { maestroVersion: version } : {}) });
  for (const w of set.workspaces.values()) {
    if (!w.configPath || !w.problems.length) continue;
    if (ctx.ws.mode !== 'all' && ![...judged].some((p) => set.workspaceOf.get(p) === w.root)) continue;
    for (const prob of w.problems) raw.push({ rule: 'invalid-flow', file: w.configPath, line: prob.pos.line, column: prob.pos.column, message: `${w.configPath}: ${prob.message}`, involves: [w.configPath], subject: prob.message });
  }
  const off = (Object.keys(RULES) as RuleId[]).filter((r) => severityOf(ctx.config, r) === 'off');
  if (off.length) notes.push(`rule${off.length === 1 ? '' : 's'} off by gates.${GATE_ID}.rules: ${off.join(', ')} (not judged)`);
  const findings = raw
    .filter((f) => severityOf(ctx.config, f.rule) !== 'off')
    .map((f) => {
      const configured = severityOf(ctx.config, f.rule) as 'error' | 'warning';
      return {
        rule: f.rule,
        file: f.file,
        line: f.line,
        column: f.column,
        message: f.message,
        severity: f.severity === 'warning' ? ('warning' as const) : configured,
        fingerprint: fingerprint(GATE_ID, f.rule, f.file, f.subject),
      };
    })
    .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.rule.localeCompare(b.rule));
  notes.unshift(`${statsLine(stats)}; entry points from ${set.entrySource}${ctx.config.strictChecks ? '; strictChecks: a following selector command is not a check' : ''}`);
  // An ignoreMissing that allows every missing target (`**`) blinds missing-file: say so (DESIGN.md counts).
  const blind = removedEveryNote(`gates.${GATE_ID}.ignoreMissing`, 'missing runFlow / runScript target', ignoredMissing, ignoredMissing + stats.missingFiles, ': missing-file cannot fire');
  if (blind) notes.push(blind);
  else if (ignoredMissing) notes.push(`${ignoredMissing} missing target(s) allowed by gates.${GATE_ID}.ignoreMissing`);
  return { findings, counts: { files: judged.size, items: stats.taps, filtered: set.excluded + ignoredMissing }, itemUnit: 'taps', notes, stats };
}
