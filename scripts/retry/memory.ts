// The ledger as the retry loop's memory (DESIGN.md "ledger", "ask-human"): every attempt is one `retry` line, and
// the anti-loop bounds are read back from those lines, across separate `loopgates retry` runs and across worktrees.
// Bounds after iLoop: the same cause 3 times in a row, 6 failures in one task.
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { git, gitEnv, resolveRepo } from '../../core/git.js';
import type { RepoFacts } from '../../core/git.js';
import { appendLedger, ledgerPath, readLedger } from '../../core/ledger.js';
import type { LedgerEntry } from '../../core/ledger.js';
import type { RetryBounds } from './signatures.js';

/** `gate` of every retry ledger line. */
export const RETRY_GATE = 'retry' as const;

/** Verdicts of a retry attempt line; `reset` marks `loopgates retry --reset`. */
export type AttemptVerdict = 'pass' | 'fail' | 'timeout' | 'interrupted' | 'reset';

/** One retry attempt as the ledger keeps it: no output text, only hashes, codes and ids. */
export interface RetryLedgerEntry extends LedgerEntry {
  kind: 'retry';
  gate: typeof RETRY_GATE;
  verdict: AttemptVerdict;
  /** The unit of work the bounds count against (branch, worktree path or --task). */
  task: string;
  /** sha256 (16 hex) of the command's argv; absent on `reset`. */
  cmd?: string;
  /** 1-based attempt of its run, and the run's id (so one run's attempts can be told from the next run's). */
  attempt?: number;
  run?: string;
  exitCode?: number | null;
  /** The flake signature the attempt matched, when one did; `forgiven` when it was retried because of it. */
  signature?: string;
  forgiven?: boolean;
  /** The human blocker it matched. */
  blocker?: string;
  fingerprint?: string;
}

/**
 * Where retry attempts go: one ledger for every worktree of the repository, because agents run one worktree each and
 * the bounds must see all of them. It is the main worktree's ledger as core/ledger.ts places it there
 * (`<main>/.loopgates/ledger.jsonl` when git ignores it, else `<git common dir>/loopgates/ledger.jsonl`); when the
 * main worktree cannot be found (a bare repository with linked worktrees), the git common dir's.
 */
export async function sharedLedgerPath(facts: RepoFacts, env: Readonly<Record<string, string | undefined>>): Promise<string> {
  const main = basename(facts.commonDir) === '.git' ? dirname(facts.commonDir) : null;
  if (main && existsSync(main)) {
    // git in the main worktree, not steered by this worktree's GIT_DIR / GIT_WORK_TREE.
    const clean: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(env)) if (!k.startsWith('GIT_')) clean[k] = v;
    return ledgerPath(main, { ...facts, topLevel: main }, gitEnv(clean, main));
  }
  return join(facts.commonDir, 'loopgates', 'ledger.jsonl');
}

/** The retry lines of `entries` for `task`, after its last reset. */
export function sinceReset(entries: readonly LedgerEntry[], task: string): RetryLedgerEntry[] {
  const mine = entries.filter((e): e is RetryLedgerEntry => e.kind === 'retry' && e.gate === RETRY_GATE && (e as RetryLedgerEntry).task === task);
  let from = 0;
  mine.forEach((e, i) => {
    if (e.verdict === 'reset') from = i + 1;
  });
  return mine.slice(from);
}

const failed = (e: RetryLedgerEntry) => e.verdict === 'fail' || e.verdict === 'timeout';

/** Why the anti-loop breaker stops a run, with the attempts that prove it (oldest first). */
export interface Breach {
  reason: 'same-cause' | 'task-budget';
  /** The bound that was reached. */
  bound: number;
  evidence: RetryLedgerEntry[];
}

/**
 * Judge the bounds after a failed attempt was appended (`entries` is the ledger read back, the new line included):
 * `same-cause` when the newest `bounds.sameCause` attempts of this command and task all failed with `fingerprint`
 * (a pass in between, or another cause, breaks the run of them); `task-budget` when the task has
 * `bounds.taskFailures` failed attempts within the last `bounds.taskWindowHours`. Null when neither holds.
 */
export function judgeBounds(entries: readonly LedgerEntry[], task: string, cmd: string, fingerprint: string, bounds: RetryBounds, now: Date = new Date()): Breach | null {
  const mine = sinceReset(entries, task);
  const sameCmd = mine.filter((e) => e.cmd === cmd && e.verdict !== 'interrupted');
  const run: RetryLedgerEntry[] = [];
  for (let i = sameCmd.length - 1; i >= 0; i--) {
    const e = sameCmd[i]!;
    if (!failed(e) || e.fingerprint !== fingerprint) break;
    run.unshift(e);
  }
  if (run.length >= bounds.sameCause) return { reason: 'same-cause', bound: bounds.sameCause, evidence: run.slice(-bounds.sameCause) };
  const since = now.getTime() - bounds.taskWindowHours * 3_600_000;
  const failures = mine.filter((e) => failed(e) && Date.parse(e.ts) >= since);
  if (failures.length >= bounds.taskFailures) return { reason: 'task-budget', bound: bounds.taskFailures, evidence: failures.slice(-bounds.taskFailures) };
  return null;
}

/** How often the ledger has seen each signature: matched at all, and forgiven (retried) within the window. */
export function signatureCounts(entries: readonly LedgerEntry[], windowHours: number, now: Date = new Date()): Map<string, { seen: number; forgivenRecently: number }> {
  const since = now.getTime() - windowHours * 3_600_000;
  const counts = new Map<string, { seen: number; forgivenRecently: number }>();
  for (const e of entries) {
    if (e.kind !== 'retry' || e.gate !== RETRY_GATE) continue;
    const r = e as RetryLedgerEntry;
    const id = r.signature ?? r.blocker;
    if (!id) continue;
    const c = counts.get(id) ?? { seen: 0, forgivenRecently: 0 };
    c.seen++;
    if (r.forgiven && Date.parse(r.ts) >= since) c.forgivenRecently++;
    counts.set(id, c);
  }
  return counts;
}

/** The ledger's retry lines at `path` ([] when absent). */
export function readRetryLedger(path: string): LedgerEntry[] {
  return readLedger(path);
}

/**
 * The default task (`--task`): the current branch of the worktree at `top`, its path when HEAD is detached, or the
 * folder itself outside git (`top` null).
 */
export async function defaultTask(top: string | null, cwd: string, env: Readonly<Record<string, string | undefined>>): Promise<string> {
  if (!top) return cwd;
  const r = await git(['symbolic-ref', '--short', '-q', 'HEAD'], { cwd: top, env: gitEnv(env, cwd, top), okExitCodes: [1] });
  const branch = r.stdout.toString('utf8').trim();
  return branch || top;
}

/**
 * A writer of retry ledger lines for attempts made outside `loopgates retry` (a command gate's `retry:` block), into
 * the ledger and under the task `loopgates retry` would use in the worktree at `root`, so the anti-loop bounds count
 * them. Lines are written as `loopgates retry` writes them (RetryLedgerEntry); a ledger that cannot be written is
 * said once through `warn` and then left alone (the gate's verdict stands).
 */
export async function retryLedgerWriter(root: string, env: Readonly<Record<string, string | undefined>>, warn: (message: string) => void): Promise<(entry: Omit<RetryLedgerEntry, 'ts' | 'kind' | 'gate' | 'task'>) => void> {
  let broken = false;
  let target: { ledger: string; task: string } | undefined;
  try {
    const { facts, env: genv } = await resolveRepo(root, env);
    target = { ledger: await sharedLedgerPath(facts, genv), task: await defaultTask(facts.topLevel, root, env) };
  } catch (e) {
    warn(`retry attempts are not written to the ledger (${e instanceof Error ? e.message : String(e)}): the anti-loop bounds do not see them`);
    broken = true;
  }
  return (entry) => {
    if (broken || !target) return;
    try {
      appendLedger(target.ledger, [{ ts: new Date().toISOString(), kind: 'retry', gate: RETRY_GATE, task: target.task, ...entry } as RetryLedgerEntry]);
    } catch (e) {
      broken = true;
      warn(`the ledger ${target.ledger} could not be written (${e instanceof Error ? e.message : String(e)}): the anti-loop bounds do not see this gate's retries`);
    }
  };
}
