// The install record: every file `loopgates install` created or changed, with the bytes and mode it had before, so
// `loopgates uninstall` can put each one back byte for byte. Kept in the git dir (<git-common-dir>/loopgates/
// install.json), never committed: it describes this clone's hooks, and it holds the backup of any hook we replaced.
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, rmdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { pendingPath } from './pending.js';

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
  /**
   * Whether the files placed were proven by install's scratch-clone proof: `passed`, or placed without it by
   * `--no-proof` / `--from-prepare`. Null: a record written before loopgates noted it (or not yet known).
   */
  proof: ProofStatus | null;
  changes: FileChange[];
  dirsCreated: string[];
  outside: string[];
}

/** How the placement in the record came about: proven, or placed without the proof (and by which flag). */
export type ProofStatus = 'passed' | 'no-proof' | 'from-prepare';
const PROOF_STATUSES: readonly ProofStatus[] = ['passed', 'no-proof', 'from-prepare'];

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
  proof?: ProofStatus;
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

const emptyState = (): InstallState => ({ version: 2, proof: null, changes: [], dirsCreated: [], outside: [] });

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
  if (PROOF_STATUSES.includes(parsed.proof as ProofStatus)) state.proof = parsed.proof!;
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
    ...(state.proof !== null ? { proof: state.proof } : {}),
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

/** Bytes and permission bits of a file as the journal keeps them. */
interface StoredBytes {
  base64: string;
  mode: number;
}

/**
 * The install journal on disk (pending.ts names its path): what one install run changed so far, written before each
 * change, so a run killed before it could roll back (SIGKILL) can still be undone by the next install or uninstall.
 */
interface StoredJournal {
  version: 1;
  pid: number;
  startedAt: string;
  /** install.json's bytes before the run (null: there was none). */
  recordBefore: StoredBytes | null;
  /** Files in the order first written: bytes before the run (null: absent) and sha256 of what the run wrote last. */
  files: (StoredPath & { kind: ChangeKind; prior: StoredBytes | null; afterSha256: string })[];
  /** Directories the run created (or was about to), outermost first. */
  dirsMade: StoredPath[];
}

const toStoredBytes = (b: { bytes: Buffer; mode: number } | null): StoredBytes | null => (b ? { base64: b.bytes.toString('base64'), mode: b.mode } : null);

/** Write `data` to `path` through a temp file and rename(2): a reader sees the old bytes or the new, never half. */
function writeAtomic(path: string, data: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

/** Remove `dir` when it is empty; never throws. */
function rmdirIfEmpty(dir: string): void {
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    /* already gone */
  }
}

/** Put `path` back to `prior` (bytes and mode), or remove it when `prior` is null. */
function putBack(path: string, prior: { bytes: Buffer; mode: number } | null): void {
  if (prior === null) rmSync(path, { force: true });
  else {
    writeFileSync(path, prior.bytes, { mode: prior.mode });
    chmodSync(path, prior.mode);
  }
}

/** The journal options of a ChangeSet: the repository's roots and install.json as it was before this run. */
export interface JournalOptions {
  roots: RepoRoots;
  recordBefore: { bytes: Buffer; mode: number } | null;
}

/**
 * Applies writes and records them in `state`. A write of identical bytes (and run bit) is a no-op, so install is
 * idempotent. The first `before` of a path is kept across installs: uninstall always returns to the state before
 * the first install. With `journal`, `begin` writes the install journal (pending.ts) before the first change and every
 * write updates it before touching the file, so a run killed at any point can be undone (`undoPending`); `finish`
 * removes it once the run is complete, `rollback` undoes the run and removes it.
 */
export class ChangeSet {
  readonly written: string[] = [];
  /** Each path's bytes before this ChangeSet first wrote it (null: absent), for `rollback`. */
  private readonly priors = new Map<string, { bytes: Buffer; mode: number } | null>();
  /** sha256 of the bytes this ChangeSet last wrote to each path (for the journal). */
  private readonly afters = new Map<string, { sha: string; kind: ChangeKind }>();
  /** Directories this ChangeSet created, outermost first. */
  private readonly dirsMade: string[] = [];
  private readonly startedAt = new Date().toISOString();
  private journaling = false;
  constructor(
    readonly state: InstallState,
    private readonly journal?: JournalOptions,
  ) {}

  /** Write the journal (nothing changed yet): from now on doctor and the hook see an unproven install. */
  begin(): void {
    if (!this.journal) return;
    this.journaling = true;
    this.saveJournal([]);
  }

  /** The run is complete (proven, or the caller asked for no proof): remove the journal. */
  finish(): void {
    if (!this.journal) return;
    rmSync(pendingPath(this.journal.roots.commonDir), { force: true });
    this.journaling = false;
  }

  private saveJournal(plannedDirs: readonly string[]): void {
    if (!this.journal || !this.journaling) return;
    const { roots } = this.journal;
    const j: StoredJournal = {
      version: 1,
      pid: process.pid,
      startedAt: this.startedAt,
      recordBefore: toStoredBytes(this.journal.recordBefore),
      files: [...this.priors].map(([path, prior]) => ({ ...toStored(roots, path), kind: this.afters.get(path)?.kind ?? 'config', prior: toStoredBytes(prior), afterSha256: this.afters.get(path)?.sha ?? '' })),
      dirsMade: [...this.dirsMade, ...plannedDirs].map((d) => toStored(roots, d)),
    };
    writeAtomic(pendingPath(roots.commonDir), `${JSON.stringify(j, null, 2)}\n`);
  }

  /** Write `bytes` to `path` with `mode` (e.g. 0o644, 0o755), creating parent directories. Returns whether it wrote. */
  write(path: string, bytes: Buffer | string, mode: number, kind: ChangeKind): boolean {
    const data = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
    const cur = readCurrent(path);
    if (cur && cur.bytes.equals(data) && !execDiffers(cur.mode, mode)) return false;
    const existing = this.state.changes.find((c) => c.path === path);
    if (existing) existing.afterSha256 = sha256(data);
    else this.state.changes.push({ path, kind, before: cur ? { base64: cur.bytes.toString('base64'), mode: cur.mode } : null, afterSha256: sha256(data) });
    if (!this.priors.has(path)) this.priors.set(path, cur);
    this.afters.set(path, { sha: sha256(data), kind });
    const missing = this.missingDirs(dirname(path));
    // Write-ahead: the journal names the file (and the directories about to be made) before either exists.
    this.saveJournal(missing);
    for (const d of missing) {
      mkdirSync(d);
      this.dirsMade.push(d);
      if (!this.state.dirsCreated.includes(d)) this.state.dirsCreated.push(d);
    }
    writeFileSync(path, data, { mode });
    chmodSync(path, mode);
    this.written.push(path);
    return true;
  }

  private missingDirs(dir: string): string[] {
    const missing: string[] = [];
    for (let d = dir; !existsSync(d); d = dirname(d)) {
      missing.unshift(d);
      if (dirname(d) === d) break;
    }
    return missing;
  }

  /**
   * Put back every file this ChangeSet wrote (bytes and mode as they were before it, or removed when it created
   * it) and remove the directories it created, newest first: the repository is as it was before this run. With a
   * journal, install.json gets back its bytes from before the run (removed when there was none), the journal is
   * removed, and so is `<git-common-dir>/loopgates` when that leaves it empty.
   */
  rollback(): void {
    for (const [path, prior] of [...this.priors].reverse()) putBack(path, prior);
    for (const d of [...this.dirsMade].reverse()) rmdirIfEmpty(d);
    if (!this.journal) return;
    const { commonDir } = this.journal.roots;
    putBack(statePath(commonDir), this.journal.recordBefore);
    rmSync(pendingPath(commonDir), { force: true });
    this.journaling = false;
    rmdirIfEmpty(join(commonDir, 'loopgates'));
  }
}

/** What `undoPending` did: the run it undid (pid, start) and one outcome per file that run wrote, newest first. */
export interface PendingUndo {
  pid: number;
  startedAt: string;
  outcomes: RevertOutcome[];
  /** The journal could not be read (hand-edited): it was removed and nothing else was touched. */
  unreadable: boolean;
}

/**
 * Undo an install run that never completed (killed before it could roll back), from its journal: each file it wrote
 * whose bytes are still what the run wrote, or that is missing, gets back its bytes and mode from before the run (or
 * is removed when the run created it); a file already back to those bytes is left; a file edited since is left as it
 * is (`kept-edited`). install.json gets back its bytes from before the run, the directories the run made are removed
 * when empty, and the journal is removed. Returns null when there is no journal. Throws on I/O errors.
 */
export function undoPending(roots: RepoRoots): PendingUndo | null {
  const p = pendingPath(roots.commonDir);
  let text: string;
  try {
    text = readFileSync(p, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  let j: StoredJournal;
  try {
    j = JSON.parse(text) as StoredJournal;
    if (j.version !== 1 || !Array.isArray(j.files) || !Array.isArray(j.dirsMade)) throw new Error('not a journal');
  } catch {
    rmSync(p, { force: true });
    return { pid: 0, startedAt: '?', outcomes: [], unreadable: true };
  }
  const bytesOf = (b: StoredBytes | null) => (b ? { bytes: Buffer.from(b.base64, 'base64'), mode: b.mode } : null);
  const outcomes: RevertOutcome[] = [];
  for (const f of [...j.files].reverse()) {
    const path = resolveStored(roots, f);
    if (path === null) continue;
    const cur = readCurrent(path);
    const prior = bytesOf(f.prior);
    if (prior === null ? cur === null : cur !== null && cur.bytes.equals(prior.bytes)) {
      if (prior && cur && cur.mode !== prior.mode) chmodSync(path, prior.mode);
      outcomes.push({ path, action: 'already-gone' });
    } else if (cur === null || sha256(cur.bytes) === f.afterSha256) {
      putBack(path, prior);
      outcomes.push({ path, action: prior === null ? 'removed' : 'restored' });
    } else outcomes.push({ path, action: 'kept-edited' });
  }
  putBack(statePath(roots.commonDir), bytesOf(j.recordBefore));
  for (const d of [...j.dirsMade].reverse()) {
    const dir = resolveStored(roots, d);
    if (dir !== null) rmdirIfEmpty(dir);
  }
  rmSync(p, { force: true });
  rmdirIfEmpty(join(roots.commonDir, 'loopgates'));
  return { pid: j.pid, startedAt: j.startedAt, outcomes, unreadable: false };
}

/** One file's outcome on uninstall. */
export interface RevertOutcome {
  path: string;
  action: 'restored' | 'removed' | 'unpatched' | 'kept-edited' | 'kept-tracked' | 'already-gone';
}

/**
 * Undo `state`, newest change first. A file whose bytes are still what install left is restored to its `before`
 * (or removed). A file edited since is given to `unpatch` (which removes only loopgates' part, or returns null when
 * it cannot) unless `force`, which restores the `before` bytes anyway. A path in `tracked` (the team's file now: git
 * holds content install did not find there) is left as it is ('kept-tracked'). Directories install created are
 * removed when empty. Never throws for a missing file.
 */
export function revertState(
  state: InstallState,
  unpatch: (change: FileChange, current: string) => string | null,
  force: boolean,
  tracked: ReadonlySet<string> = new Set(),
): RevertOutcome[] {
  const out: RevertOutcome[] = [];
  for (const change of [...state.changes].reverse()) {
    // A team file now (committed or staged since install): never deleted nor rewritten, --force or not.
    if (tracked.has(change.path)) {
      out.push({ path: change.path, action: 'kept-tracked' });
      continue;
    }
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
