// The install record: every file `loopgates install` created or changed, with the bytes and mode it had before, so
// `loopgates uninstall` can put each one back byte for byte. Kept in the git dir (<git-common-dir>/loopgates/
// install.json), never committed: it describes this clone's hooks, and it holds the backup of any hook we replaced.
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, rmdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** What a changed file is, so uninstall can remove only loopgates' part when the user edited the file since. */
export type ChangeKind = 'stored-hook' | 'hook-shim' | 'hook-backup' | 'hook-block' | 'config' | 'gitignore' | 'gitattributes' | 'package-json' | 'cli-record';

/** One file install wrote. `before` is null when install created it; `mode` is the permission bits (e.g. 0o755). */
export interface FileChange {
  /** Absolute path in this repository (resolved from the record's repository-relative path by `loadState`). */
  path: string;
  kind: ChangeKind;
  before: { base64: string; mode: number } | null;
  /** sha256 hex of the bytes install left there. */
  afterSha256: string;
}

/**
 * The whole record, in memory. `dirsCreated` are absolute directories install made, outermost first. `outside` are
 * paths an older record named that lie outside this repository (a record copied along with a repository written
 * before records were relative): they are dropped from the record and never touched.
 */
export interface InstallState {
  version: 2;
  changes: FileChange[];
  dirsCreated: string[];
  outside: string[];
}

/** The two roots a recorded path is relative to: the working tree's top level, or the git common dir. */
export interface RepoRoots {
  top: string;
  commonDir: string;
}

/**
 * A path as stored in install.json (version 2): relative to `root`, so a copied or moved repository's record names
 * the copy's own files, never the original's.
 */
interface StoredPath {
  root: 'top' | 'git';
  path: string;
}

interface StoredState {
  version: 2;
  changes: (StoredPath & Omit<FileChange, 'path'>)[];
  dirsCreated: StoredPath[];
}

/** Version 1 (before records were relative): absolute paths into the repository install ran in. */
interface StoredStateV1 {
  version: 1;
  changes: FileChange[];
  dirsCreated: string[];
}

export const sha256 = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

/** Path of the record inside the git common dir. */
export const statePath = (commonDir: string): string => join(commonDir, 'loopgates', 'install.json');

const emptyState = (): InstallState => ({ version: 2, changes: [], dirsCreated: [], outside: [] });

/** Whether `child` is `parent` or inside it (both absolute). */
function inside(child: string, parent: string): boolean {
  const r = relative(parent, child);
  return r === '' || (!isAbsolute(r) && r.split(sep)[0] !== '..');
}

/** Absolute path of a stored path in this repository; null when it would leave its root (a hand-edited record). */
function resolveStored(roots: RepoRoots, p: StoredPath): string | null {
  const base = p.root === 'git' ? roots.commonDir : roots.top;
  if (isAbsolute(p.path)) return null;
  const abs = resolve(base, p.path);
  return inside(abs, base) ? abs : null;
}

/** The stored form of an absolute path install wrote; the git dir wins, so a hooks dir inside .git moves with it. */
function toStored(roots: RepoRoots, abs: string): StoredPath {
  if (inside(abs, roots.commonDir)) return { root: 'git', path: relative(roots.commonDir, abs) };
  if (inside(abs, roots.top)) return { root: 'top', path: relative(roots.top, abs) };
  throw new Error(`loopgates install wrote ${abs}, outside ${roots.top} and ${roots.commonDir}: refusing to record it`);
}

/** Strip `suffix` (a '/'-joined tail) from `p`, or null when `p` does not end with it. */
function stripTail(p: string, suffix: string): string | null {
  const tail = join('/', suffix);
  return p.endsWith(tail) ? p.slice(0, -tail.length) || sep : null;
}

/**
 * Resolve a version 1 record (absolute paths) against this repository: the repository it was written in is
 * inferred from the files install always writes (stored hook, config, CLI record); a path under that repository's
 * top level or git dir is taken to mean the same place here; anything else is `outside` and never touched.
 */
function fromV1(roots: RepoRoots, v1: StoredStateV1): InstallState {
  const find = (kind: ChangeKind, tail: string) => v1.changes.filter((c) => c.kind === kind).map((c) => stripTail(c.path, tail)).find((x) => x !== null) ?? null;
  const oldTop = find('stored-hook', '.loopgates/hooks/pre-commit') ?? find('gitignore', '.loopgates/.gitignore') ?? find('config', 'loopgates.yaml') ?? find('gitattributes', '.gitattributes');
  const gitBelowTop = inside(roots.commonDir, roots.top) ? relative(roots.top, roots.commonDir) : null;
  const oldCommon = find('cli-record', 'loopgates/cli-path') ?? (oldTop !== null && gitBelowTop !== null ? join(oldTop, gitBelowTop) : null);
  const state = emptyState();
  const rebase = (abs: string): string | null => {
    if (!isAbsolute(abs)) return null;
    if (oldCommon !== null && inside(abs, oldCommon)) return join(roots.commonDir, relative(oldCommon, abs));
    if (oldTop !== null && inside(abs, oldTop)) return join(roots.top, relative(oldTop, abs));
    return null;
  };
  for (const c of v1.changes) {
    const path = rebase(c.path);
    if (path === null) state.outside.push(c.path);
    else state.changes.push({ ...c, path });
  }
  for (const d of v1.dirsCreated) {
    const path = rebase(d);
    if (path !== null) state.dirsCreated.push(path);
  }
  return state;
}

/**
 * Read the record of `roots`' repository, or an empty one when install never ran here. Paths come back absolute, in
 * this repository. Throws on an unreadable or malformed record.
 */
export function loadState(roots: RepoRoots): InstallState {
  const p = statePath(roots.commonDir);
  if (!existsSync(p)) return emptyState();
  const parsed = JSON.parse(readFileSync(p, 'utf8')) as StoredState | StoredStateV1;
  if (!Array.isArray(parsed.changes) || !Array.isArray(parsed.dirsCreated)) throw new Error(`${p} is not a loopgates install record`);
  if (parsed.version === 1) return fromV1(roots, parsed);
  if (parsed.version !== 2) throw new Error(`${p} is not a loopgates install record`);
  const state = emptyState();
  for (const { root, path: stored, ...rest } of parsed.changes) {
    const path = resolveStored(roots, { root, path: stored });
    if (path === null) state.outside.push(stored);
    else state.changes.push({ ...rest, path });
  }
  for (const d of parsed.dirsCreated) {
    const path = resolveStored(roots, d);
    if (path !== null) state.dirsCreated.push(path);
  }
  return state;
}

/**
 * Write the record with paths relative to `roots` (stable JSON, so installing twice leaves the same bytes as
 * installing once). Throws when a path lies outside the repository (install never writes there).
 */
export function saveState(roots: RepoRoots, state: InstallState): void {
  const p = statePath(roots.commonDir);
  const stored: StoredState = {
    version: 2,
    changes: state.changes.map(({ path, ...rest }) => ({ ...toStored(roots, path), ...rest })),
    dirsCreated: state.dirsCreated.map((d) => toStored(roots, d)),
  };
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, `${JSON.stringify(stored, null, 2)}\n`);
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
  /** Each path's bytes before this ChangeSet first wrote it (null: absent), for `rollback`. */
  private readonly priors = new Map<string, { bytes: Buffer; mode: number } | null>();
  /** Directories this ChangeSet created, outermost first. */
  private readonly dirsMade: string[] = [];
  constructor(readonly state: InstallState) {}

  /** Write `bytes` to `path` with `mode` (e.g. 0o644, 0o755), creating parent directories. Returns whether it wrote. */
  write(path: string, bytes: Buffer | string, mode: number, kind: ChangeKind): boolean {
    const data = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
    const cur = readCurrent(path);
    if (cur && cur.bytes.equals(data) && !execDiffers(cur.mode, mode)) return false;
    const existing = this.state.changes.find((c) => c.path === path);
    if (existing) existing.afterSha256 = sha256(data);
    else this.state.changes.push({ path, kind, before: cur ? { base64: cur.bytes.toString('base64'), mode: cur.mode } : null, afterSha256: sha256(data) });
    if (!this.priors.has(path)) this.priors.set(path, cur);
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
      this.dirsMade.push(d);
      if (!this.state.dirsCreated.includes(d)) this.state.dirsCreated.push(d);
    }
  }

  /**
   * Put back every file this ChangeSet wrote (bytes and mode as they were before it, or removed when it created
   * it) and remove the directories it created, newest first: the repository is as it was before this run. The
   * record itself is the caller's (install restores the record file it read).
   */
  rollback(): void {
    for (const [path, prior] of [...this.priors].reverse()) {
      if (prior === null) rmSync(path, { force: true });
      else {
        writeFileSync(path, prior.bytes, { mode: prior.mode });
        chmodSync(path, prior.mode);
      }
    }
    for (const d of [...this.dirsMade].reverse()) {
      try {
        if (readdirSync(d).length === 0) rmdirSync(d);
      } catch {
        /* already gone */
      }
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
