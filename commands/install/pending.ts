// The install journal: `<git-common-dir>/loopgates/install.pending.json`, written by `loopgates install` before its
// first change and removed only once the run completed (the proof passed, or --no-proof / --from-prepare finished).
// While it exists the install is unproven: a run killed hard (SIGKILL, a power cut) cannot roll itself back, so doctor
// and the hook read this file to say so, and the next install or uninstall undoes that run from it (state.ts).
// Deliberately small (node:fs only): the hook reads it on every commit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Path of the journal inside the git common dir. */
export const pendingPath = (commonDir: string): string => join(commonDir, 'loopgates', 'install.pending.json');

/** What the journal says about the run that wrote it (the rest of it is for state.ts's undo). */
export interface PendingInstall {
  /** Process id of the install that wrote it. */
  pid: number;
  /** ISO 8601 UTC time it started. */
  startedAt: string;
}

/** How long an install may take before a journal whose pid still exists is taken to be left over (ms): 15 min. */
const RUNNING_BOUND_MS = 15 * 60_000;

/** The journal of `commonDir`'s repository, or null when none is there. An unreadable one counts (pid 0). */
export function readPending(commonDir: string): PendingInstall | null {
  let text: string;
  try {
    text = readFileSync(pendingPath(commonDir), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return { pid: 0, startedAt: '?' };
  }
  try {
    const j = JSON.parse(text) as Partial<PendingInstall>;
    return { pid: typeof j.pid === 'number' ? j.pid : 0, startedAt: typeof j.startedAt === 'string' ? j.startedAt : '?' };
  } catch {
    return { pid: 0, startedAt: '?' };
  }
}

/**
 * What is known of the process that wrote `p`: `running` (its pid exists, kill(pid, 0), and it started less than
 * RUNNING_BOUND_MS ago), `gone` (no such process), `stale` (a process has that pid, but the install started longer ago
 * than any install takes: a pid reused, e.g. after a reboot, is not mistaken for it forever), `unnamed` (the journal
 * names no pid, or no start time).
 */
export function pendingLiveness(p: PendingInstall, now: number = Date.now()): 'running' | 'gone' | 'stale' | 'unnamed' {
  if (p.pid <= 0) return 'unnamed';
  // Our own pid: the journal's writer was an earlier process that had it, now gone.
  if (p.pid === process.pid) return 'gone';
  const started = Date.parse(p.startedAt);
  try {
    process.kill(p.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return 'gone';
  }
  if (!Number.isFinite(started)) return 'unnamed';
  return now - started > RUNNING_BOUND_MS ? 'stale' : 'running';
}

/** Whether the install that wrote `p` may still be running (pendingLiveness `running`). */
export function pendingIsRunning(p: PendingInstall, now: number = Date.now()): boolean {
  return pendingLiveness(p, now) === 'running';
}

/** The fix doctor and the hook give for an unproven install. */
export const PENDING_FIX = 'loopgates install   (undoes the unfinished install, then installs and proves the hook; or: loopgates uninstall)';

/**
 * The problem an unproven install is, in the words doctor and the hook print, or null when none is pending.
 * `what` names the run (pid, start time) and whether it may still be running.
 */
export function pendingProblem(commonDir: string): { what: string; fix: string } | null {
  const p = readPending(commonDir);
  if (!p) return null;
  const run = `pid ${p.pid || '?'}, started ${p.startedAt}`;
  const state = pendingLiveness(p);
  if (state === 'running') return { what: `loopgates install (${run}; still running) has not finished proving the hook yet: until it does, the hook is unproven`, fix: PENDING_FIX };
  const why = {
    gone: `process ${p.pid} is gone: the install was interrupted`,
    stale: `a process ${p.pid} exists, but the install started over ${RUNNING_BOUND_MS / 60_000} minutes ago: taken as interrupted`,
    unnamed: 'its journal names no process or start time: taken as interrupted',
  }[state];
  return {
    what: `loopgates install (${run}; ${why}) before its proof passed: what it placed is unproven and may be incomplete, and could not be rolled back (${pendingPath(commonDir)} records it)`,
    fix: PENDING_FIX,
  };
}
