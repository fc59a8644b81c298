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
 * Whether the install that wrote `p` may still be running: its pid exists (kill(pid, 0)) and it started less than
 * RUNNING_BOUND_MS ago (a pid reused after a reboot is not mistaken for it forever).
 */
export function pendingIsRunning(p: PendingInstall, now: number = Date.now()): boolean {
  if (p.pid <= 0 || p.pid === process.pid) return false;
  const started = Date.parse(p.startedAt);
  if (!Number.isFinite(started) || now - started > RUNNING_BOUND_MS) return false;
  try {
    process.kill(p.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
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
  const what = pendingIsRunning(p)
    ? `loopgates install (${run}) has not finished proving the hook yet: until it does, the hook is unproven`
    : `loopgates install (${run}) was interrupted before its proof passed (killed?): what it placed is unproven and may be incomplete, and could not be rolled back (${pendingPath(commonDir)} records it)`;
  return { what, fix: PENDING_FIX };
}
