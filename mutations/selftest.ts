// The self-test runner (DESIGN.md "self-test"): every gate's shipped green and red cases, each in its own in-memory
// workspace, judged by the same runner the hook uses. Like ESLint's RuleTester it refuses a gate with no red case,
// and unlike semgrep --test / OPA / conftest a run in which zero cases executed is a failure, not a success.
import { runGate, type GateSettings } from '../core/runner.js';
import { memoryWorkspace } from '../core/workspace.js';
import type { GateResult, RunTool, SelfTestCase, Verdict } from '../core/types.js';
import { selfTestWaiver } from '../gates/command/spec.js';
import { classifyCase, gateProof, type CaseOutcome, type GateProof } from './outcomes.js';

/** One case's outcome, in plain words. `durationMs` is wall time of the gate run. */
export interface CaseReport {
  name: string;
  kind: 'green' | 'red';
  outcome: CaseOutcome;
  detail: string;
  /** The runner's verdict for the case (`error` when the case could not even be set up). */
  verdict: Verdict;
  /** For an `error` verdict, the gate's own fix (e.g. how to install a missing scanner). */
  fix?: string;
  durationMs: number;
}

/** One gate's self-test: its proof and its cases. `waived` is the reason from config when the proof is WAIVED. */
export interface GateSelfTest {
  gate: string;
  title: string;
  proof: GateProof;
  cases: CaseReport[];
  waived?: string;
  /**
   * Set when the run's signal aborted (Ctrl-C, SIGTERM) before every shipped case of this gate finished: `done` cases
   * finished before the abort, of `total` shipped. Such a gate is never PROVEN (its proof is UNPROVEN, never
   * DECORATION: its red cases were not missing, they were not run) and never cached.
   */
  interrupted?: { done: number; total: number; why: string };
}

/** The whole run. `executed` counts cases that ran (a run with 0 executed cases fails). */
export interface SelfTestReport {
  gates: GateSelfTest[];
  executed: number;
  ok: boolean;
}

/** Options of `runSelfTests`. */
export interface SelfTestOptions {
  /** Directory for gate caches during the cases (a temp dir; never the user's tree). */
  cacheRoot: string;
  signal?: AbortSignal;
  runTool?: RunTool;
  /** Called after every case, for a progress line. */
  onCase?: (gate: string, c: CaseReport) => void;
}

/**
 * Run the shipped cases of each gate in `list` (config from the case, else the gate's defaults; bound from
 * `settings.timeoutMs`). Cases run one after another so a slow scanner does not starve the others of the CPU.
 * Never throws: a `selfTest()` that throws becomes one `error` case.
 * `ok` is true only when every gate is PROVEN or WAIVED and at least one case executed.
 */
export async function runSelfTests(list: ReadonlyArray<GateSettings<any>>, options: SelfTestOptions): Promise<SelfTestReport> {
  const gates: GateSelfTest[] = [];
  let executed = 0;
  for (const settings of list) {
    const { gate } = settings;
    const waived = selfTestWaiver(gate);
    const cases: CaseReport[] = [];
    let shipped: SelfTestCase[] = [];
    try {
      shipped = waived ? [] : await gate.selfTest();
    } catch (err) {
      cases.push({ name: 'selfTest()', kind: 'red', outcome: 'error', detail: `selfTest() threw: ${message(err)}`, verdict: 'error', durationMs: 0 });
    }
    // Cases that finished before the signal aborted: one that was running when it did ends as an `error` case whose
    // cause is the interrupt, not the gate.
    let done = 0;
    for (const testCase of shipped) {
      if (options.signal?.aborted) break;
      const c = await runCase(settings, testCase, options);
      executed++;
      cases.push(c);
      if (!options.signal?.aborted) done++;
      options.onCase?.(gate.id, c);
    }
    const cut = options.signal?.aborted === true && done < shipped.length;
    const entry: GateSelfTest = { gate: gate.id, title: gate.title, proof: cut && !waived ? 'UNPROVEN' : gateProof(cases, waived), cases };
    if (waived) entry.waived = waived;
    if (cut) entry.interrupted = { done, total: shipped.length, why: abortReason(options.signal) };
    gates.push(entry);
  }
  const ok = executed > 0 && gates.every((g) => g.proof === 'PROVEN' || g.proof === 'WAIVED') && !options.signal?.aborted;
  return { gates, executed, ok };
}

/** Run one case in a fresh in-memory workspace (staged mode: its targets are what the hook would see staged). */
export async function runCase(settings: GateSettings<any>, testCase: SelfTestCase, options: SelfTestOptions): Promise<CaseReport> {
  const started = performance.now();
  const base = { name: testCase.name, kind: testCase.kind };
  let result: GateResult;
  try {
    const config = settings.gate.configSchema.parse(testCase.config ?? {});
    const ws = memoryWorkspace({ files: testCase.files, ...(testCase.targets ? { targets: testCase.targets } : {}), mode: 'staged' });
    result = await runGate(
      { gate: settings.gate, config, timeoutMs: settings.timeoutMs },
      { ws, cacheRoot: options.cacheRoot, ...(options.signal ? { signal: options.signal } : {}), ...(options.runTool ? { runTool: options.runTool } : {}) },
    );
  } catch (err) {
    return { ...base, outcome: 'error', detail: `the case could not be set up: ${message(err)}`, verdict: 'error', durationMs: performance.now() - started };
  }
  const { outcome, detail } = classifyCase(testCase, result);
  return { ...base, outcome, detail, verdict: result.verdict, durationMs: result.durationMs, ...(result.error ? { fix: result.error.fix } : {}) };
}

/** The words of an abort reason: cli.ts aborts with `new Error('SIGINT')` / `'SIGTERM'`. */
function abortReason(signal: AbortSignal | undefined): string {
  const r: unknown = signal?.reason;
  return r instanceof Error ? r.message : r === undefined ? 'aborted' : String(r);
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
