// Git LFS pointer files (https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md, "The Pointer") and the local
// object storage they name: `<lfs storage>/objects/<oid[0:2]>/<oid[2:4]>/<oid>`, where the storage is
// `<git common dir>/lfs`, or `lfs.storage` from git config (git-lfs-config(5); a relative value is taken relative
// to the git common dir, as git-lfs' fs.New does). The index holds the pointer; `git push` uploads the object.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { GitError } from '../../core/errors.js';
import { git, splitZ } from '../../core/git.js';

/** A pointer file is smaller than this (bytes): git-lfs never reads a larger blob as a pointer (blobSizeCutoff). */
export const LFS_POINTER_MAX_BYTES = 1024;

/** Version URLs git-lfs reads as spec v1 (lfs/pointer.go v1Aliases; the first is the one it writes). */
const LFS_VERSIONS = new Set(['https://git-lfs.github.com/spec/v1', 'https://hawser.github.com/spec/v1', 'http://git-media.io/v/2']);

/** What a pointer names: the object's sha256 (64 lowercase hex) and its size in bytes. */
export interface LfsPointer {
  oid: string;
  size: number;
}

/**
 * `bytes` as a Git LFS pointer, strictly (spec "The Pointer"), else undefined: fewer than 1024 bytes; lines
 * `{key} {value}` each ending in LF (no CR), keys of `[a-z0-9.-]`, `version` first with a v1 URL, the other keys in
 * ascending order without repeats (extension keys `ext-N-name` included), `oid sha256:<64 lowercase hex>` and
 * `size <decimal>` present. A file that only resembles one is not a pointer (and is scanned as the text it is).
 */
export function parseLfsPointer(bytes: Buffer): LfsPointer | undefined {
  if (bytes.length === 0 || bytes.length >= LFS_POINTER_MAX_BYTES || bytes[bytes.length - 1] !== 0x0a) return undefined;
  if (!bytes.subarray(0, 8).equals(Buffer.from('version '))) return undefined;
  const lines = bytes.toString('latin1').slice(0, -1).split('\n');
  let previous = '';
  let oid: string | undefined;
  let size: number | undefined;
  for (const [i, line] of lines.entries()) {
    const m = /^([a-z0-9.-]+) (\S+)$/.exec(line);
    if (!m) return undefined;
    const [, key = '', value = ''] = m;
    if (i === 0) {
      if (key !== 'version' || !LFS_VERSIONS.has(value)) return undefined;
      continue;
    }
    if (key <= previous || key === 'version') return undefined;
    previous = key;
    if (key === 'oid') {
      const h = /^sha256:([0-9a-f]{64})$/.exec(value);
      if (!h) return undefined;
      oid = h[1];
    } else if (key === 'size') {
      if (!/^(0|[1-9][0-9]{0,15})$/.test(value)) return undefined;
      size = Number(value);
      if (!Number.isSafeInteger(size)) return undefined;
    }
  }
  return oid !== undefined && size !== undefined ? { oid, size } : undefined;
}

/** Where a repository keeps its LFS objects, and what the secrets gate needs to judge pointers there. */
export interface LfsRepo {
  /** Absolute `<lfs storage>/objects`. */
  objectsDir: string;
  /** The repository's object format (`sha1`, `sha256`), to compute blob ids. */
  objectFormat: string;
  /** HEAD's tree id; undefined before the initial commit. */
  headTree: string | undefined;
}

/**
 * The LFS storage of the repository at `cwd` as git with `env` sees it (GIT_DIR etc. honoured): `git rev-parse
 * --git-common-dir` plus `lfs.storage` from `git config`. Undefined when `cwd` is not in a repository and
 * `outsideOk` (a `run --all` over a plain folder); throws GitError otherwise.
 */
export async function lfsRepo(cwd: string, env: Readonly<Record<string, string>>, outsideOk: boolean): Promise<LfsRepo | undefined> {
  let r;
  try {
    r = await git(['rev-parse', '--path-format=absolute', '--git-common-dir', '--show-object-format', '--verify', '-q', 'HEAD^{tree}'], { cwd, env, okExitCodes: [1] });
  } catch (err) {
    if (outsideOk && err instanceof GitError) return undefined;
    throw err;
  }
  const [commonDir = '', objectFormat = 'sha1', headTree] = r.stdout.toString('utf8').replace(/\n$/, '').split('\n');
  if (!commonDir) return undefined;
  const storage = (await git(['config', '--get', 'lfs.storage'], { cwd, env, okExitCodes: [1] })).stdout.toString('utf8').replace(/\n$/, '');
  const dir = storage === '' ? join(commonDir, 'lfs') : isAbsolute(storage) ? storage : join(commonDir, storage);
  return { objectsDir: join(dir, 'objects'), objectFormat: objectFormat || 'sha1', headTree: r.exitCode === 0 && headTree ? headTree : undefined };
}

/** `objectsDir` as messages show it: relative to `root` when inside it (`.git/lfs/objects`), else absolute. */
export function shownDir(objectsDir: string, root: string): string {
  const r = relative(root, objectsDir);
  return r && !r.startsWith('..') && !isAbsolute(r) ? r.split(sep).join('/') : objectsDir;
}

/** The object a pointer names, as found in the storage (see readLfsObject). */
export type LfsObject =
  | { state: 'found'; bytes: Buffer }
  /** Present with the pointer's size but not read: larger than `maxBytes` and `skip` said so from its head. */
  | { state: 'skipped' }
  | { state: 'missing' }
  /** Present but not the content the pointer names: `why` says how (size or sha256 differs, unreadable). */
  | { state: 'mismatch'; why: string };

/**
 * Read and verify the object `pointer` names under `objectsDir`: its size must equal the pointer's and its sha256
 * the pointer's oid. An object over `maxBytes` whose first `headBytes` bytes make `skip` true is not read at all
 * (`skipped`: the caller would not scan it). Never throws.
 */
export function readLfsObject(objectsDir: string, pointer: LfsPointer, large: { maxBytes: number; headBytes: number; skip(head: Buffer): boolean }): LfsObject {
  const path = join(objectsDir, pointer.oid.slice(0, 2), pointer.oid.slice(2, 4), pointer.oid);
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) return { state: 'mismatch', why: 'not a regular file' };
    size = st.size;
  } catch {
    return { state: 'missing' };
  }
  if (size !== pointer.size) return { state: 'mismatch', why: `${size} bytes, the pointer says ${pointer.size}` };
  try {
    if (size > large.maxBytes) {
      const head = Buffer.alloc(Math.min(large.headBytes, size));
      const fd = openSync(path, 'r');
      try {
        readSync(fd, head, 0, head.length, 0);
      } finally {
        closeSync(fd);
      }
      if (large.skip(head)) return { state: 'skipped' };
    }
    const bytes = readFileSync(path);
    if (createHash('sha256').update(bytes).digest('hex') !== pointer.oid) return { state: 'mismatch', why: 'sha256 differs' };
    return { state: 'found', bytes };
  } catch (err) {
    return { state: 'mismatch', why: `unreadable (${err instanceof Error ? err.message : String(err)})` };
  }
}

/** Of `paths`, those whose `filter` attribute is `lfs` (git-check-attr(1); `git lfs track` writes it). Throws GitError. */
export async function lfsTracked(cwd: string, env: Readonly<Record<string, string>>, paths: readonly string[]): Promise<Set<string>> {
  if (!paths.length) return new Set();
  const out = await git(['check-attr', '-z', '--stdin', 'filter'], { cwd, env, input: paths.map((p) => `${p}\0`).join('') });
  const parts = splitZ(out.stdout);
  const tracked = new Set<string>();
  for (let i = 0; i + 2 < parts.length; i += 3) if (parts[i + 2] === 'lfs') tracked.add(parts[i]!);
  return tracked;
}

/** Every blob id of tree `tree` and its subtrees (`git ls-tree -r -z`), to tell content HEAD already holds. Throws GitError. */
export async function treeBlobIds(cwd: string, env: Readonly<Record<string, string>>, tree: string): Promise<Set<string>> {
  const out = await git(['ls-tree', '-r', '-z', '--full-tree', tree], { cwd, env });
  const ids = new Set<string>();
  for (const rec of splitZ(out.stdout)) {
    // "<mode> SP <type> SP <object> TAB <file>" (git-ls-tree(1) OUTPUT FORMAT)
    const [, type, id] = rec.slice(0, rec.indexOf('\t')).split(' ');
    if (type === 'blob' && id) ids.add(id);
  }
  return ids;
}
