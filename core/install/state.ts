// The install record: every file `loopgates install` created or changed, with the bytes and mode it had before, so
// `loopgates uninstall` can put each one back byte for byte. Kept in the git dir (<git-common-dir>/loopgates/
// install.json), never committed: it describes this clone's hooks, and it holds the backup of any hook we replaced.
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, rmdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What a changed file is, so uninstall can remove only loopgates' part when the user edited the file since. */
export type ChangeKind = 'stored-hook' | 'hook-shim' | 'hook-backup' | 'hook-block' | 'config' | 'gitignore' | 'gitattributes' | 'package-json' | 'cli-record';

/** One file install wrote. `before` is null when install created it; `mode` is the permission bits (e.g. 0o755). */
export interface FileChange {
  /** Absolute path. */
  path: string;
  kind: ChangeKind;
  before: { base64: string; mode: number } | null;
  /** sha256 hex of the bytes install left there. */
  afterSha256: string;
}

/** The whole record. `dirsCreated` are absolute directories install made, outermost first. */
export interface InstallState {
  version: 1;
  changes: FileChange[];
  dirsCreated: string[];
}

export const sha256 = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

/** Path of the record inside the git common dir. */
export const statePath = (commonDir: string): string => join(commonDir, 'loopgates', 'install.json');

/** Read the record, or an empty one when install never ran here. Throws on an unreadable or malformed record. */
export function loadState(commonDir: string): InstallState {
  const p = statePath(commonDir);
  if (!existsSync(p)) return { version: 1, changes: [], dirsCreated: [] };
  const parsed = JSON.parse(readFileSync(p, 'utf8')) as InstallState;
  if (parsed.version !== 1 || !Array.isArray(parsed.changes)) throw new Error(`${p} is not a loopgates install record`);
  return parsed;
}

/** Write the record (stable JSON, so installing twice leaves the same bytes as installing once). */
export function saveState(commonDir: string, state: InstallState): void {
  const p = statePath(commonDir);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, `${JSON.stringify(state, null, 2)}\n`);
}

/** Current bytes and permission bits of `path`, or null when it does not exist. */
export function readCurrent(path: string): { bytes: Buffer; mode: number } | null {
  try {
    return { bytes: readFileSync(path), mode: statSync(path).mode & 0o777 };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Whether the executable bits differ in a way git cares about (git tracks only "executable or not"). */
const execDiffers = (a: number, b: number): boolean => process.platform !== 'win32' && (a & 0o111) !== 0 !== ((b & 0o111) !== 0);

/**
 * Applies writes and records them in `state`. A write of identical bytes (and run bit) is a no-op, so install is
 * idempotent. The first `before` of a path is kept across installs: uninstall always returns to the state before
 * the first install.
 */
export class ChangeSet {
  readonly written: string[] = [];
  constructor(readonly state: InstallState) {}

  /** Write `bytes` to `path` with `mode` (e.g. 0o644, 0o755), creating parent directories. Returns whether it wrote. */
  write(path: string, bytes: Buffer | string, mode: number, kind: ChangeKind): boolean {
    const data = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
    const cur = readCurrent(path);
    if (cur && cur.bytes.equals(data) && !execDiffers(cur.mode, mode)) return false;
    const existing = this.state.changes.find((c) => c.path === path);
    if (existing) existing.afterSha256 = sha256(data);
    else this.state.changes.push({ path, kind, before: cur ? { base64: cur.bytes.toString('base64'), mode: cur.mode } : null, afterSha256: sha256(data) });
    this.mkdirs(dirname(path));
    writeFileSync(path, data, { mode });
    chmodSync(path, mode);
    this.written.push(path);
    return true;
  }

  private mkdirs(dir: string): void {
    const missing: string[] = [];
    for (let d = dir; !existsSync(d); d = dirname(d)) {
      missing.unshift(d);
      if (dirname(d) === d) break;
    }
    for (const d of missing) {
      mkdirSync(d);
      if (!this.state.dirsCreated.includes(d)) this.state.dirsCreated.push(d);
    }
  }
}

/** One file's outcome on uninstall. */
export interface RevertOutcome {
  path: string;
  action: 'restored' | 'removed' | 'unpatched' | 'kept-edited' | 'already-gone';
}

/**
 * Undo `state`, newest change first. A file whose bytes are still what install left is restored to its `before`
 * (or removed). A file edited since is given to `unpatch` (which removes only loopgates' part, or returns null when
 * it cannot) unless `force`, which restores the `before` bytes anyway. Directories install created are removed when
 * empty. Never throws for a missing file.
 */
export function revertState(state: InstallState, unpatch: (change: FileChange, current: string) => string | null, force: boolean): RevertOutcome[] {
  const out: RevertOutcome[] = [];
  for (const change of [...state.changes].reverse()) {
    const cur = readCurrent(change.path);
    const restore = () => {
      if (change.before === null) {
        if (cur) rmSync(change.path, { force: true });
        out.push({ path: change.path, action: cur ? 'removed' : 'already-gone' });
      } else {
        writeFileSync(change.path, Buffer.from(change.before.base64, 'base64'), { mode: change.before.mode });
        chmodSync(change.path, change.before.mode);
        out.push({ path: change.path, action: 'restored' });
      }
    };
    if (cur === null || sha256(cur.bytes) === change.afterSha256 || force) {
      if (cur === null && change.before === null) out.push({ path: change.path, action: 'already-gone' });
      else restore();
      continue;
    }
    const patched = unpatch(change, cur.bytes.toString('utf8'));
    if (patched === null) {
      out.push({ path: change.path, action: 'kept-edited' });
      continue;
    }
    writeFileSync(change.path, patched);
    out.push({ path: change.path, action: 'unpatched' });
  }
  for (const dir of [...state.dirsCreated].reverse()) {
    try {
      if (readdirSync(dir).length === 0) rmdirSync(dir);
    } catch {
      /* already gone */
    }
  }
  return out;
}
