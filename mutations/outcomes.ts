// Outcomes of self-test cases and mutants, and how a gate's proof is derived from them. The case words follow
// ast-grep `sg test` (Validated/Reported/Noisy/Missing) in plain English; the mutant words are Stryker's
// (https://stryker-mutator.io/docs/mutation-testing-elements/mutant-states-and-metrics/).
import type { GateResult, Mutant, SelfTestCase } from '../core/types.js';

/**
 * One self-test case's outcome:
 * - `caught`: red case failed with an error finding at the injected file and line (and rule, when the case names one).
 * - `missed`: red case passed: the gate did not see the defect.
 * - `wrong`: red case failed, but no error finding sits at the injected spot (caught at the wrong place).
 * - `clean`: green case passed having read at least one input.
 * - `noisy`: green case failed (a false positive).
 * - `error`: the gate crashed, timed out or its tool is missing; never counts as caught.
 * - `vacuous`: the gate read nothing (skip or vacuous verdict), so the case proves nothing.
 */
export type CaseOutcome = 'caught' | 'missed' | 'wrong' | 'clean' | 'noisy' | 'error' | 'vacuous';

/** Outcomes that prove something; every other outcome makes the gate UNPROVEN. */
export const goodCaseOutcomes: ReadonlySet<CaseOutcome> = new Set(['caught', 'clean']);

/**
 * A gate's proof after its self-tests:
 * - `PROVEN`: at least one red case, at least one green case, every case caught or clean.
 * - `UNPROVEN`: some case had another outcome, or there is no green case.
 * - `DECORATION`: no red case at all: nothing shows the gate can fail.
 * - `WAIVED`: a command gate whose config says `selfTest: { waived: <reason> }`; printed with its reason on every run.
 */
export type GateProof = 'PROVEN' | 'UNPROVEN' | 'DECORATION' | 'WAIVED';

/** Stryker's mutant states that `loopgates mutate` uses. Only `killed` passes. */
export type MutantOutcome = 'killed' | 'survived' | 'no-coverage' | 'error' | 'timeout';

/** Whether the gate's result has an error-severity finding at `file`:`line` (1-based), with `rule` when given. */
export function findingAt(result: GateResult, spot: { file: string; line: number; rule?: string | undefined }): boolean {
  return result.findings.some(
    (f) => f.severity === 'error' && f.file === spot.file && f.line === spot.line && (spot.rule === undefined || f.rule === spot.rule),
  );
}

/** `file:line` of every error finding, for "caught at the wrong place" messages (at most 3, then a count). */
export function whereFound(result: GateResult): string {
  const spots = result.findings.filter((f) => f.severity === 'error').map((f) => `${f.file}:${f.line} (${f.rule})`);
  if (spots.length === 0) return 'no error finding';
  return spots.length > 3 ? `${spots.slice(0, 3).join(', ')} and ${spots.length - 3} more` : spots.join(', ');
}

/** Whether an `error` verdict came from the runner's timeout (core/runner.ts words it "did not finish within"). */
export function isTimeout(result: GateResult): boolean {
  return result.verdict === 'error' && /did not finish within \d+ ms/.test(result.error?.message ?? result.reason ?? '');
}

/**
 * Classify one self-test case from the gate's result. Returns the outcome and a plain-words detail.
 * A red case without `expect` cannot be caught (it is reported `wrong`: the case is malformed).
 */
export function classifyCase(testCase: SelfTestCase, result: GateResult): { outcome: CaseOutcome; detail: string } {
  const counts = `read ${result.counts.files} file${result.counts.files === 1 ? '' : 's'}`;
  if (result.verdict === 'error') {
    return { outcome: 'error', detail: `the gate could not run: ${result.error?.message ?? result.reason ?? 'unknown error'}` };
  }
  if (result.verdict === 'skip' || result.verdict === 'vacuous') {
    return { outcome: 'vacuous', detail: `the gate read nothing (${result.reason ?? result.verdict})` };
  }
  if (testCase.kind === 'green') {
    if (result.verdict === 'pass') return { outcome: 'clean', detail: `passed, ${counts}` };
    return { outcome: 'noisy', detail: `failed on clean input: ${whereFound(result)}` };
  }
  const expect = testCase.expect;
  if (result.verdict === 'pass') {
    return { outcome: 'missed', detail: `passed (${counts}); expected a finding at ${expect ? spotText(expect) : 'the injected spot'}` };
  }
  if (!expect) return { outcome: 'wrong', detail: 'red case has no `expect` spot, so it cannot be caught' };
  if (findingAt(result, expect)) return { outcome: 'caught', detail: `failed with a finding at ${spotText(expect)}` };
  return { outcome: 'wrong', detail: `failed, but not at ${spotText(expect)}: found ${whereFound(result)}${testCase.wrongHint ? `; ${testCase.wrongHint}` : ''}` };
}

/** `file:line` and ` rule x` when given. */
export function spotText(spot: { file: string; line: number; rule?: string | undefined }): string {
  return `${spot.file}:${spot.line}${spot.rule ? ` (rule ${spot.rule})` : ''}`;
}

/**
 * Derive a gate's proof from its case outcomes. `waived` wins when set (command gates only).
 * No red case -> DECORATION; a missing green case or any outcome other than caught/clean -> UNPROVEN.
 */
export function gateProof(cases: ReadonlyArray<{ kind: 'green' | 'red'; outcome: CaseOutcome }>, waived?: string): GateProof {
  if (waived) return 'WAIVED';
  if (!cases.some((c) => c.kind === 'red')) return 'DECORATION';
  if (!cases.some((c) => c.kind === 'green')) return 'UNPROVEN';
  return cases.every((c) => goodCaseOutcomes.has(c.outcome)) ? 'PROVEN' : 'UNPROVEN';
}

/**
 * Classify the red run of one mutant (before the green check): `killed` here means "red at the injected spot";
 * the caller still requires green on the unmutated input. `survived` results carry why in `detail`.
 */
export function classifyRed(path: string, mutant: Mutant, red: GateResult): { outcome: MutantOutcome; detail: string } {
  const spot = { file: path, line: mutant.line, rule: mutant.rule };
  if (red.verdict === 'error') {
    return { outcome: isTimeout(red) ? 'timeout' : 'error', detail: red.error?.message ?? red.reason ?? 'the gate could not run' };
  }
  if (red.verdict === 'skip' || red.verdict === 'vacuous') {
    return { outcome: 'no-coverage', detail: `the gate never read ${path} (${red.reason ?? red.verdict})` };
  }
  if (red.verdict === 'pass') return { outcome: 'survived', detail: `stayed green (read ${red.counts.files} file${red.counts.files === 1 ? '' : 's'}, ${red.counts.filtered} filtered, ${red.counts.suppressed} suppressed)` };
  if (findingAt(red, spot)) return { outcome: 'killed', detail: `red at ${spotText(spot)}` };
  return { outcome: 'survived', detail: `red, but no finding at ${spotText(spot)}: found ${whereFound(red)}` };
}
