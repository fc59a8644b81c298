// The bounded retry loop (DESIGN.md "The loops around the gates"): run -> failed? -> human blocker? -> ASK-HUMAN;
// known flake signature? -> retry (<= max) -> FLAKY / FAILED-AFTER-RETRY; no signature -> FAILED at once (blame the
// change). Every attempt goes to the ledger with its failure fingerprint; the same cause 3x or 6 failures for one
// task -> ASK-HUMAN, exit 3. Output words after cargo-nextest (TRY 1 FAIL, FLAKY 2/3).
import { createHash, randomBytes } from 'node:crypto';
import { appendLedger } from '../../core/ledger.js';
import { redactOutput } from '../../core/redact.js';
import type { LedgerEntry } from '../../core/ledger.js';
import { runAttempt } from './attempt.js';
import type { AttemptResult, Sink } from './attempt.js';
import { failureFingerprint } from './fingerprint.js';
import { judgeBounds, readRetryLedger, RETRY_GATE, signatureCounts } from './memory.js';
import type { Breach, RetryLedgerEntry } from './memory.js';
import { firstMatch } from './match.js';
import type { RetryBounds, SignatureSet } from './signatures.js';
import { lastLines } from './tail.js';

/** The most retries `--max` accepts: 3 (Maestro caps its own `retry` at 3, silently; we refuse more at parse time). */
export const MAX_RETRIES = 3;

/** Outcomes, in the words the run prints. */
export type RetryOutcome = 'PASSED' | 'FLAKY' | 'FAILED' | 'FAILED-AFTER-RETRY' | 'TIMEOUT' | 'ASK-HUMAN' | 'INTERRUPTED';

/** Options of one `loopgates retry` run. Durations in ms. */
export interface RetryOptions {
  argv: readonly [string, ...string[]];
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Retries after the first attempt (0..MAX_RETRIES). */
  max: number;
  timeoutMs?: number;
  delayMs?: number;
  /** Cleanup run between attempts (e.g. ./gradlew --stop); its failure ends the loop (exit 2). */
  onRetry?: readonly [string, ...string[]];
  failOnFlaky?: boolean;
  task: string;
  signatures: SignatureSet;
  bounds: RetryBounds;
  /** The ledger file (shared by every worktree); every attempt is appended, the bounds read back. */
  ledger: string;
  /** Where the command's stdout and stderr go, and where loopgates' own lines go. */
  stdout: Sink;
  stderr: Sink;
  log: (text: string) => void;
  signal?: AbortSignal;
  now?: () => Date;
}

/** One attempt as reported (text, JSON, JUnit). */
export interface AttemptRecord {
  attempt: number;
  verdict: 'pass' | 'fail' | 'timeout' | 'interrupted';
  exitCode: number | null;
  termSignal: string | null;
  durationMs: number;
  /** Flake signature it matched; `forgiven` when that caused a retry. */
  signature?: string;
  forgiven?: boolean;
  blocker?: string;
  fingerprint?: string;
  /** Its last output lines, credentials redacted (printed and in reports; never in the ledger). */
  lastLines: string[];
  ts: string;
}

/** What a run ended with. `exitCode` is loopgates' (README table); `commandExitCode` the last attempt's own. */
export interface RetryReport {
  outcome: RetryOutcome;
  /** `FLAKY(gradle-daemon-disappeared) 2/2`, `ASK-HUMAN(same-cause) after 1 attempt (up to 2 allowed)`, `PASSED on attempt 1 (up to 2 allowed)`. */
  label: string;
  exitCode: number;
  commandExitCode: number | null;
  argv: string[];
  task: string;
  cmd: string;
  maxAttempts: number;
  attempts: AttemptRecord[];
  /** The signature behind FLAKY / FAILED-AFTER-RETRY, or the blocker behind ASK-HUMAN(<id>). */
  signature?: string;
  /** ASK-HUMAN: what a person must do; the breach and its evidence for same-cause / task-budget. */
  ask?: string;
  breach?: Breach;
  /** Loud notes: a flake forgiven too often, a ledger that could not be written. */
  warnings: string[];
  ledger: string;
}

/**
 * The outcome in words. FLAKY / FAILED-AFTER-RETRY keep nextest's `n/m` (a retry did run, so "2/2" is attempts used
 * of attempts allowed). Elsewhere a bare "1/2" reads as "one of two attempts failed" although no second attempt ran
 * (fresh-user F15), so attempts used and allowed are said in words.
 */
export function retryLabel(outcome: RetryOutcome, tag: string, used: number, allowed: number): string {
  if (outcome === 'FLAKY' || outcome === 'FAILED-AFTER-RETRY') return `${outcome}${tag} ${used}/${allowed}`;
  if (outcome === 'PASSED') return `PASSED on attempt ${used} (up to ${allowed} allowed)`;
  return `${outcome}${tag} after ${used} attempt${used === 1 ? '' : 's'} (up to ${allowed} allowed)`;
}

/** sha256 (16 hex) of an argv: the anti-loop's "same command". */
export function commandHash(argv: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify(argv)).digest('hex').slice(0, 16);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/** Run the loop. Never throws for the command's own failures; throws LoopgatesError when the command cannot start. */
export async function runRetry(o: RetryOptions): Promise<RetryReport> {
  const now = o.now ?? (() => new Date());
  const maxAttempts = 1 + o.max;
  const cmd = commandHash(o.argv);
  const run = randomBytes(6).toString('hex');
  const [file, ...args] = o.argv;
  const attempts: AttemptRecord[] = [];
  const warnings: string[] = [];
  let forgivenBy: string | undefined;
  let ledgerBroken: string | undefined;

  const record = (entry: RetryLedgerEntry) => {
    if (ledgerBroken) return;
    try {
      appendLedger(o.ledger, [entry]);
    } catch (e) {
      ledgerBroken = e instanceof Error ? e.message : String(e);
    }
  };
  const readBack = (): LedgerEntry[] => {
    try {
      return readRetryLedger(o.ledger);
    } catch {
      return [];
    }
  };
  const done = (outcome: RetryOutcome, exitCode: number, extra: Partial<RetryReport> = {}): RetryReport => {
    const last = attempts[attempts.length - 1];
    const tag = outcome === 'FLAKY' || outcome === 'FAILED-AFTER-RETRY' || outcome === 'ASK-HUMAN' ? `(${extra.breach?.reason ?? extra.signature ?? ''})` : '';
    if (ledgerBroken) warnings.push(`the ledger ${o.ledger} could not be written (${ledgerBroken}): the anti-loop bounds cannot hold`);
    return {
      outcome,
      label: retryLabel(outcome, tag, attempts.length, maxAttempts),
      exitCode: ledgerBroken && exitCode < 2 ? 2 : exitCode,
      commandExitCode: last?.exitCode ?? null,
      // The command as reported (JSON, JUnit): a token passed as an argument is not printed either; `cmd` hashes it as run.
      argv: o.argv.map(redactOutput),
      task: o.task,
      cmd,
      maxAttempts,
      attempts,
      warnings,
      ledger: o.ledger,
      ...extra,
    };
  };

  for (let n = 1; n <= maxAttempts; n++) {
    if (n > 1) {
      await sleep(o.delayMs ?? 0, o.signal);
      if (o.onRetry && !o.signal?.aborted) {
        o.log(`loopgates retry: cleanup before attempt ${n}: ${o.onRetry.join(' ')}\n`);
        const [cf, ...ca] = o.onRetry;
        const c = await runAttempt(cf, ca, { cwd: o.cwd, env: o.env, ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}), ...(o.signal ? { signal: o.signal } : {}), stdout: o.stderr, stderr: o.stderr });
        if (c.exitCode !== 0 && !c.interrupted) {
          warnings.push(`the cleanup between attempts (${o.onRetry.join(' ')}) failed (${c.timedOut ? 'timed out' : c.exitCode === null ? `signal ${c.termSignal}` : `exit ${c.exitCode}`}): no further attempt`);
          return done('FAILED-AFTER-RETRY', 2, { ...(forgivenBy ? { signature: forgivenBy } : {}) });
        }
      }
    }
    if (o.signal?.aborted) break;
    const r: AttemptResult = await runAttempt(file, args, {
      cwd: o.cwd,
      env: o.env,
      ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
      stdout: o.stdout,
      stderr: o.stderr,
    });
    const ts = now().toISOString();
    const base = { ts, kind: 'retry' as const, gate: RETRY_GATE, task: o.task, cmd, attempt: n, run, exitCode: r.exitCode, durationMs: Math.round(r.durationMs) };
    const a: AttemptRecord = { attempt: n, verdict: 'pass', exitCode: r.exitCode, termSignal: r.termSignal, durationMs: r.durationMs, lastLines: lastLines(r.combinedTail, 20, redactOutput), ts };
    attempts.push(a);
    if (r.interrupted) {
      a.verdict = 'interrupted';
      record({ ...base, verdict: 'interrupted' });
      o.log(`loopgates retry: TRY ${n} STOPPED by ${r.interrupted} after ${seconds(r.durationMs)}; no further attempt\n`);
      return done('INTERRUPTED', r.interrupted === 'SIGINT' ? 130 : 143);
    }
    if (r.exitCode === 0 && !r.timedOut) {
      record({ ...base, verdict: 'pass' });
      o.log(`loopgates retry: TRY ${n} PASS after ${seconds(r.durationMs)}\n`);
      if (!forgivenBy) return done('PASSED', 0);
      const report = done('FLAKY', o.failOnFlaky ? 1 : 0, { signature: forgivenBy });
      const counts = signatureCounts(readBack(), o.bounds.forgiven.windowHours, now()).get(forgivenBy);
      if (counts && counts.forgivenRecently > o.bounds.forgiven.count) {
        warnings.push(
          `flake ${forgivenBy} was forgiven ${counts.forgivenRecently} times in the last ${o.bounds.forgiven.windowHours} h (bound ${o.bounds.forgiven.count}): it is a bug to fix, not noise (loopgates retry --list shows its source)`,
        );
      }
      return report;
    }
    const ending = r.timedOut ? 'timeout' : r.exitCode !== null ? `exit ${r.exitCode}` : `signal ${r.termSignal}`;
    a.verdict = r.timedOut ? 'timeout' : 'fail';
    a.fingerprint = failureFingerprint(r.combinedTail, ending);
    const tails = [r.stdoutTail, r.stderrTail];
    const blocker = firstMatch(o.signatures.askHuman, tails, r.exitCode);
    const flake = !r.timedOut && !blocker ? firstMatch(o.signatures.flakes, tails, r.exitCode) : null;
    if (blocker) a.blocker = blocker.spec.id;
    if (flake) a.signature = flake.spec.id;
    const entry: RetryLedgerEntry = { ...base, verdict: a.verdict, fingerprint: a.fingerprint, ...(flake ? { signature: flake.spec.id } : {}), ...(blocker ? { blocker: blocker.spec.id } : {}) };
    const breach = blocker ? null : judgeBounds([...readBack(), entry], o.task, cmd, a.fingerprint, o.bounds, now());
    const retrying = !!flake && !breach && n < maxAttempts;
    if (retrying) entry.forgiven = a.forgiven = true;
    record(entry);
    const why = r.timedOut ? `timed out after ${seconds(r.durationMs)}` : `${ending} after ${seconds(r.durationMs)}`;
    o.log(`loopgates retry: TRY ${n} ${r.timedOut ? 'TIMEOUT' : 'FAIL'} ${why}${flake ? ` — known flake ${flake.spec.id}` : ''}${blocker ? ` — human blocker ${blocker.spec.id}` : ''}\n`);
    if (n === 1 || !retrying) o.log(tailBlock(a.lastLines, `last lines of attempt ${n}`));
    if (blocker) return done('ASK-HUMAN', 3, { signature: blocker.spec.id, ask: blocker.spec.ask ?? blocker.spec.description });
    if (breach) return done('ASK-HUMAN', 3, { breach, ask: breachAsk(breach, o.task) });
    if (r.timedOut) return done('TIMEOUT', 1, { ...(forgivenBy ? { signature: forgivenBy } : {}) });
    if (retrying) {
      forgivenBy = flake.spec.id;
      o.log(`loopgates retry: retrying (attempt ${n + 1} of ${maxAttempts}) because ${flake.spec.id} is a known flake: ${flake.spec.description}\n`);
      continue;
    }
    if (flake || forgivenBy) return done('FAILED-AFTER-RETRY', 1, { signature: flake?.spec.id ?? forgivenBy! });
    return done('FAILED', 1);
  }
  // Only an abort during the delay or the cleanup gets here.
  return done('INTERRUPTED', o.signal && o.signal.reason instanceof Error && o.signal.reason.message === 'SIGINT' ? 130 : 143);
}

function tailBlock(lines: readonly string[], title: string): string {
  if (lines.length === 0) return `  (${title}: the command printed nothing)\n`;
  return `  ${title}:\n${lines.map((l) => `    ${l}`).join('\n')}\n`;
}

function breachAsk(b: Breach, task: string): string {
  const what = b.reason === 'same-cause' ? `the same failure ${b.bound} times in a row for this command` : `${b.bound} failed attempts for this task`;
  return `stop and look: ${what} in task '${task}'. Fix the cause (or decide it is not one), then clear the count on purpose: loopgates retry --reset --task ${task}`;
}
