// Workspaces: the snapshot a run judges (DESIGN.md "Gates read files only through ctx (the workspace)").
// This file holds the in-memory workspace and the overlay used by self-tests and mutations; the index and tree
// workspaces (git-backed) are in core/snapshot.ts.
import { WorkspaceError } from './errors.js';
import type { Mode, Workspace } from './types.js';

/** Options for `memoryWorkspace`. `files` maps repository-relative paths to contents. */
export interface MemoryWorkspaceOptions {
  files: Readonly<Record<string, string | Buffer>>;
  /** Paths judged by the run; default every path of `files`. Each must be a key of `files`. */
  targets?: readonly string[];
  /** Default `staged`. */
  mode?: Mode;
  /** Reported as the root; nothing is read from it. Default `/loopgates-memory`. */
  root?: string;
  /** Staged mode: paths the snapshot deletes (`Workspace.deletions`). */
  deleted?: readonly string[];
  /** Staged mode: HEAD contents of modified or deleted paths (`Workspace.before`). */
  before?: Readonly<Record<string, string | Buffer>>;
}

/**
 * A workspace held entirely in memory (backing `memory`): self-test cases and unit tests use it.
 * Throws InternalError-free: an unknown target path throws WorkspaceError at construction.
 */
export function memoryWorkspace(options: MemoryWorkspaceOptions): Workspace {
  const files = new Map<string, Buffer>();
  for (const [path, content] of Object.entries(options.files)) {
    files.set(normalisePath(path), typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
  }
  const all = [...files.keys()].sort();
  const targets = options.targets ? [...new Set(options.targets.map(normalisePath))].sort() : all;
  for (const t of targets) if (!files.has(t)) throw new WorkspaceError(t);
  const root = options.root ?? '/loopgates-memory';
  const deleted = options.deleted ? [...new Set(options.deleted.map(normalisePath))].sort() : undefined;
  return {
    ...(deleted ? { deletions: async () => deleted } : {}),
    ...(options.before ? { before: async (path: string) => beforeOf(options.before!, normalisePath(path)) } : {}),
    mode: options.mode ?? 'staged',
    root,
    backing: { kind: 'memory', root },
    targets: async () => targets,
    allPaths: async () => all,
    read: async (path) => {
      const b = files.get(normalisePath(path));
      if (!b) throw new WorkspaceError(path);
      return b;
    },
    readText: async (path) => {
      const b = files.get(normalisePath(path));
      if (!b) throw new WorkspaceError(path);
      return b.toString('utf8');
    },
    has: async (path) => files.has(normalisePath(path)),
  };
}

/**
 * `base` with some files replaced in memory (the mutation engine's scratch space). `changes` maps a path to new
 * content. The result's backing is `memory` (a gate that shells out must materialise it); its targets are
 * `targets` when given, else the base's targets plus the changed paths. Nothing is written anywhere.
 */
export function overlayWorkspace(
  base: Workspace,
  changes: ReadonlyMap<string, string | Buffer>,
  targets?: readonly string[],
): Workspace {
  const over = new Map<string, Buffer>();
  for (const [p, c] of changes) over.set(normalisePath(p), typeof c === 'string' ? Buffer.from(c, 'utf8') : c);
  const read = async (path: string): Promise<Buffer> => over.get(normalisePath(path)) ?? base.read(path);
  return {
    mode: base.mode,
    root: base.root,
    backing: { kind: 'memory', root: base.root },
    targets: async () =>
      targets ? [...new Set(targets.map(normalisePath))].sort() : [...new Set([...(await base.targets()), ...over.keys()])].sort(),
    allPaths: async () => [...new Set([...(await base.allPaths()), ...over.keys()])].sort(),
    read,
    readText: async (path) => (await read(path)).toString('utf8'),
    has: async (path) => over.has(normalisePath(path)) || base.has(path),
    ...(base.deletions ? { deletions: base.deletions.bind(base) } : {}),
    ...(base.before ? { before: base.before.bind(base) } : {}),
  };
}

function beforeOf(before: Readonly<Record<string, string | Buffer>>, path: string): Buffer | undefined {
  const c = before[path];
  return c === undefined ? undefined : typeof c === 'string' ? Buffer.from(c, 'utf8') : c;
}

/** Repository-relative POSIX form: on Windows backslashes to `/`; no leading `./`. */
export function normalisePath(path: string): string {
  return normalisePathOn(path, process.platform);
}

/** `normalisePath` as it behaves on `platform` (tests). */
export function normalisePathOn(path: string, platform: NodeJS.Platform): string {
  // A backslash is a separator only on Windows; on POSIX it is a legal file-name character (git lists `a\\b.kt` as is).
  let p = platform === 'win32' ? path.replace(/\\/g, '/') : path;
  while (p.startsWith('./')) p = p.slice(2);
  return p;
}
