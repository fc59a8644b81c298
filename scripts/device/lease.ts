// Device leases (DESIGN.md "lease"): one owner at a time for a device that agents in separate worktrees share. A lease
// is a JSON file per device in a per-user folder every repository and worktree sees; it is taken with link(2), which
// fails with EEXIST when the file exists, so two takers cannot both win. It expires by its TTL and when the owner's
// process is gone (pid dead, or the pid reused by a process that started later).
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import { join } from 'node:path';
import { LoopgatesError } from '../../core/errors.js';
import type { Clock } from './clock.js';

/** Who holds a lease: the worktree it was taken from and the process that owns it. */
export interface LeaseOwner {
  /** Absolute path of the worktree's top level (the folder, outside git). */
  worktree: string;
  pid: number;
  /** The owner process's start time as the OS reports it (Linux: /proc/<pid>/stat field 22), to tell pid reuse. */
  pidStart?: string | undefined;
  host: string;
}

/** One lease file's content. Times in ms since the epoch. */
export interface Lease {
  version: 1;
  device: string;
  owner: LeaseOwner;
  takenAt: number;
  expiresAt: number;
}

/** Whether a lease still holds, and if not why. */
export type LeaseState = 'held' | 'expired' | 'owner-gone';

/** Default lease length: 30 minutes. */
export const DEFAULT_TTL_MS = 30 * 60_000;
/** Longest lease: 24 hours (a forgotten lease must end by itself). */
export const MAX_TTL_MS = 24 * 60 * 60_000;
/** A takeover lock older than this (ms) is left from a crashed taker and removed. */
const STALE_LOCK_MS = 30_000;

/**
 * The lease folder: LOOPGATES_LEASE_DIR, else $XDG_STATE_HOME/loopgates/leases, else ~/.local/state/loopgates/leases
 * (XDG Base Directory: state that persists between runs but is not worth backing up).
 */
export function leaseDir(env: Readonly<Record<string, string | undefined>>): string {
  if (env.LOOPGATES_LEASE_DIR) return env.LOOPGATES_LEASE_DIR;
  const state = env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state');
  return join(state, 'loopgates', 'leases');
}

/** The lease file of `device` in `dir` (the id percent-encoded: serials such as `10.0.2.2:5555` hold `:`). */
export const leaseFile = (dir: string, device: string): string => join(dir, `${encodeURIComponent(device)}.json`);

/** Start time of process `pid` (Linux /proc/<pid>/stat field 22, clock ticks since boot); undefined elsewhere or when gone. */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (comm) is parenthesised and may hold spaces: count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** The command name of process `pid` (Linux /proc/<pid>/comm, e.g. `bash`); undefined elsewhere or when gone. */
export function processName(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether process `pid` runs (signal 0: ESRCH means gone; EPERM means it exists under another user). A zombie (Linux
 * state Z or X in /proc/<pid>/stat: exited, not yet reaped, as orphans are in containers whose init never reaps) is gone.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return true;
  }
}

/** The state of `lease` now. The owner's liveness is only judged on the host that took it. */
export function leaseState(lease: Lease, now: number): LeaseState {
  if (now >= lease.expiresAt) return 'expired';
  if (lease.owner.host === hostname()) {
    if (!processAlive(lease.owner.pid)) return 'owner-gone';
    const start = processStart(lease.owner.pid);
    if (lease.owner.pidStart !== undefined && start !== undefined && start !== lease.owner.pidStart) return 'owner-gone';
  }
  return 'held';
}

/** "held by /path/to/wt (pid 123 on host) until 2026-12-01T21:00:00.000Z". */
export function describeHolder(lease: Lease): string {
  return `${lease.owner.worktree} (pid ${lease.owner.pid} on ${lease.owner.host}) until ${new Date(lease.expiresAt).toISOString()}`;
}

/** Read the lease file of `device`; undefined when there is none. Throws LoopgatesError for a file that is not a lease. */
export function readLease(dir: string, device: string): Lease | undefined {
  const file = leaseFile(dir, device);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new LoopgatesError(`cannot read the lease file ${file}: ${(e as Error).message}`, `check the lease folder's permissions: ls -l ${dir}`);
  }
  try {
    const v = JSON.parse(text) as Lease;
    if (v.version === 1 && typeof v.device === 'string' && typeof v.expiresAt === 'number' && typeof v.owner?.pid === 'number' && typeof v.owner.worktree === 'string') return v;
  } catch {
    /* reported below */
  }
  // Leases are written whole before link(2) makes them visible: a file that does not parse was not written by loopgates.
  throw new LoopgatesError(`the lease file ${file} is not a loopgates lease`, `look at it, then remove it: rm ${file}`);
}

/** The result of a take: `taken` (new or renewed by the same worktree) or refused because another owner holds it. */
export type TakeResult = { taken: true; lease: Lease; renewed: boolean; replaced?: { lease: Lease; state: LeaseState } } | { taken: false; holder: Lease };

function writeTemp(dir: string, lease: Lease): string {
  const tmp = join(dir, `.${encodeURIComponent(lease.device)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(lease, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  return tmp;
}

/** Run `fn` holding the takeover lock of `file` (a directory made with mkdir, atomic); false when another holds it. */
function withTakeoverLock(file: string, now: number, fn: () => void): boolean {
  const lock = `${file}.lock`;
  try {
    mkdirSync(lock);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    let age = 0;
    try {
      age = now - statSync(lock).mtimeMs;
    } catch {
      /* gone meanwhile */
    }
    if (age < STALE_LOCK_MS) return false;
    rmSync(lock, { recursive: true, force: true });
    try {
      mkdirSync(lock);
    } catch {
      return false;
    }
  }
  try {
    fn();
    return true;
  } finally {
    rmdirSync(lock);
  }
}

/**
 * Take the lease of `device` for `owner` for `ttlMs`. Atomic: the lease is written to a temp file and linked into
 * place, which fails when a lease file exists. A lease held by the same worktree is renewed (its expiry moved); one
 * that expired or whose owner is gone is replaced (under a takeover lock, re-checked before removal); one held by
 * another worktree is refused (`taken: false`, naming the holder). Throws LoopgatesError when the folder cannot be used.
 */
export function takeLease(dir: string, device: string, owner: LeaseOwner, ttlMs: number, clock: Pick<Clock, 'now'>): TakeResult {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new LoopgatesError(`cannot create the lease folder ${dir}: ${(e as Error).message}`, 'set LOOPGATES_LEASE_DIR to a folder you can write, or fix the permissions of XDG_STATE_HOME');
  }
  const file = leaseFile(dir, device);
  const now = clock.now();
  const lease: Lease = { version: 1, device, owner, takenAt: now, expiresAt: now + ttlMs };
  const tmp = writeTemp(dir, lease);
  try {
    for (let round = 0; round < 3; round++) {
      try {
        linkSync(tmp, file);
        return { taken: true, lease, renewed: false };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const held = readLease(dir, device);
      if (!held) continue; // released between link and read: try again
      const state = leaseState(held, now);
      if (state === 'held' && held.owner.worktree !== owner.worktree) return { taken: false, holder: held };
      if (state === 'held') {
        // The same worktree takes it again: renew in place (rename replaces atomically).
        renameSync(tmp, file);
        return { taken: true, lease, renewed: true };
      }
      let replaced = false;
      const locked = withTakeoverLock(file, Date.now(), () => {
        const again = readLease(dir, device);
        // Someone else replaced it meanwhile: leave theirs alone and look again.
        if (!again || JSON.stringify(again) !== JSON.stringify(held)) return;
        rmSync(file, { force: true });
        try {
          linkSync(tmp, file);
          replaced = true;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        }
      });
      if (replaced) return { taken: true, lease, renewed: false, replaced: { lease: held, state } };
      if (!locked) throw new LoopgatesError(`another loopgates is taking over the expired lease of ${device} right now`, 'run the command again in a few seconds: loopgates device status');
    }
    const holder = readLease(dir, device);
    if (holder) return { taken: false, holder };
    throw new LoopgatesError(`the lease of ${device} kept changing while it was taken`, 'run the command again: loopgates device status');
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** The result of a release. */
export type ReleaseResult = { released: true; lease: Lease } | { released: false; why: 'none' } | { released: false; why: 'other'; holder: Lease };

/**
 * Release the lease of `device`: the owner's worktree may; another worktree only with `force` or when the lease no
 * longer holds (expired, owner gone).
 */
export function releaseLease(dir: string, device: string, worktree: string, force: boolean, clock: Pick<Clock, 'now'>): ReleaseResult {
  const held = readLease(dir, device);
  if (!held) return { released: false, why: 'none' };
  if (held.owner.worktree !== worktree && !force && leaseState(held, clock.now()) === 'held') return { released: false, why: 'other', holder: held };
  rmSync(leaseFile(dir, device), { force: true });
  return { released: true, lease: held };
}

/** Every lease file in `dir` with its state, sorted by device. Files that are not leases are skipped. */
export function listLeases(dir: string, clock: Pick<Clock, 'now'>): Array<{ lease: Lease; state: LeaseState }> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
  } catch {
    return [];
  }
  const out: Array<{ lease: Lease; state: LeaseState }> = [];
  for (const n of names.sort()) {
    try {
      const lease = readLease(dir, decodeURIComponent(n.slice(0, -'.json'.length)));
      if (lease) out.push({ lease, state: leaseState(lease, clock.now()) });
    } catch {
      /* not a lease: status says nothing of it */
    }
  }
  return out;
}

/**
 * Refuse (LoopgatesError, exit 2) when `device` is leased to a worktree other than `worktree` and the lease holds:
 * `tap` must not drive a device someone else is using.
 */
export function refuseIfLeasedToOther(dir: string, device: string, worktree: string, clock: Pick<Clock, 'now'>): Lease | undefined {
  const held = readLease(dir, device);
  if (!held || leaseState(held, clock.now()) !== 'held') return undefined;
  if (held.owner.worktree === worktree) return held;
  throw new LoopgatesError(`device ${device} is leased to ${describeHolder(held)}: another agent is driving it`, `wait for it (loopgates device status), or take another device with --serial`);
}
