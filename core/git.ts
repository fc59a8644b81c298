// The one git helper (DESIGN.md "two process boundaries only"): argument arrays, `--` before paths, `-z` output,
// a timeout on every call, GitError on failure. Read-only: nothing here writes to the working tree or the index
// (GIT_OPTIONAL_LOCKS=0 stops even the opportunistic index refresh some commands do).
// Git's own documents: git-rev-parse(1), git-ls-files(1), git-diff-index(1), git-cat-file(1) "BATCH OUTPUT".
//
// Why spawn git directly and not simple-git: the snapshot needs byte-exact Buffers (blobs, NUL-separated `-z`
// output), a precise environment (a hook's GIT_INDEX_FILE must reach git unchanged, nothing else may leak in) and
// a long-lived `cat-file --batch` process; simple-git's string-oriented `raw()` fits none of those.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { DirectoryMissingError, GitError, ToolMissingError } from './errors.js';
import { messages } from './messages.js';
import { decodePath } from './paths.js';

/** Options of one git call. `env` replaces the GIT_* part of the environment (see `gitEnv`). */
export interface GitCallOptions {
  /** Directory git runs in (absolute). */
  cwd: string;
  /** Environment on top of process.env; the repository-selecting GIT_* keys come only from here (`gitEnv`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Bytes written to git's stdin. */
  input?: string | Buffer;
  /** Kill git after this many ms (default 60 000) and throw GitError. */
  timeoutMs?: number;
  /** Exit codes that are answers, not failures (e.g. `[1]` for `check-ignore`, `rev-parse --verify -q`). */
  okExitCodes?: readonly number[];
}

/** Result of one git call: stdout as raw bytes (decode with `splitZ` / `toString`), stderr as text. */
export interface GitResult {
  exitCode: number;
  stdout: Buffer;
  stderr: string;
}

const DEFAULT_TIMEOUT_MS = 60_000;

// Same words as core/tools.ts installHints.git; not imported from there so the git helper does not load execa.
const GIT_INSTALL_HINT = 'install git and make sure it is on PATH';

/**
 * The environment every git child gets: process.env without its repository-selecting GIT_* variables (those come
 * only from `env`, so the caller decides which repository and index git sees), then `env`, with
 * GIT_OPTIONAL_LOCKS=0 (never write the index as a side effect) and GIT_TERMINAL_PROMPT=0 (never wait for a
 * password in a hook).
 */
function childEnv(env: Readonly<Record<string, string | undefined>> | undefined): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...process.env };
  for (const k of REPO_ENV_KEYS) delete out[k];
  for (const [k, v] of Object.entries(env ?? {})) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  out.GIT_OPTIONAL_LOCKS = '0';
  out.GIT_TERMINAL_PROMPT = '0';
  return out;
}

/**
 * Run `git <args>` and collect its output. Resolves when the exit code is 0 or in `okExitCodes`.
 * Throws GitError (non-zero exit, timeout, signal), DirectoryMissingError (`cwd` does not exist) or ToolMissingError
 * (git not on PATH).
 */
export function git(args: readonly string[], options: GitCallOptions): Promise<GitResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('git', [...args], { cwd: options.cwd, env: childEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.stdin.on('error', () => {
      /* git may exit before reading all of stdin; its exit code tells what happened */
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(spawnError(e, options.cwd, args));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(err).toString('utf8');
      if (timedOut) return reject(new GitError(args, `timed out after ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`));
      if (code === null) return reject(new GitError(args, `killed by ${signal ?? 'a signal'}`));
      if (code !== 0 && !(options.okExitCodes ?? []).includes(code)) return reject(new GitError(args, stderr));
      resolvePromise({ exitCode: code, stdout: Buffer.concat(out), stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/**
 * The error for a git that could not start. spawn reports ENOENT both when git is not on PATH and when `cwd` does not
 * exist (libuv's chdir in the child fails the same way), so the directory is checked before blaming PATH.
 */
function spawnError(e: NodeJS.ErrnoException, cwd: string, args: readonly string[]): Error {
  if (e.code !== 'ENOENT') return new GitError(args, e.message);
  return existsSync(cwd) ? new ToolMissingError('git', GIT_INSTALL_HINT) : new DirectoryMissingError(cwd, 'git');
}

/**
 * Whether `cwd` is inside a git directory (a bare repository, or .git itself): there is no work tree, index of
 * commits made there, or project file. False when git cannot say.
 */
export async function isInsideGitDir(cwd: string, env?: Readonly<Record<string, string | undefined>>): Promise<boolean> {
  return git(['rev-parse', '--is-inside-git-dir'], { cwd, okExitCodes: [128], ...(env ? { env } : {}) }).then(
    (r) => r.exitCode === 0 && r.stdout.toString('utf8').trim() === 'true',
    () => false,
  );
}

/**
 * Why `cwd` has no work tree when the caller's GIT_DIR / GIT_WORK_TREE chose the repository (a separate git dir and
 * work tree): GIT_DIR is not a git dir, or names one with no work tree while GIT_WORK_TREE is unset, or GIT_WORK_TREE
 * is set without GIT_DIR. Null when neither is set or none of those holds (then the plain "not in a work tree"
 * message applies). `env`: the caller's environment (relative values resolve against `cwd`, as git reads them).
 */
export async function repoEnvProblem(cwd: string, env: Readonly<Record<string, string | undefined>>): Promise<{ message: string; fix: string } | null> {
  const abs = gitEnv(env, cwd);
  const dir = abs.GIT_DIR;
  const tree = abs.GIT_WORK_TREE;
  if (dir === undefined && tree === undefined) return null;
  if (dir === undefined) {
    return { message: `GIT_WORK_TREE=${tree} (from the environment) is set but GIT_DIR is not, and git finds no .git from ${cwd}`, fix: `export GIT_DIR=<the git dir of ${tree}>, or unset GIT_WORK_TREE` };
  }
  const probe = await git(['rev-parse', '--is-bare-repository'], { cwd, env: { GIT_DIR: dir }, okExitCodes: [128] }).catch(() => null);
  if (!probe || probe.exitCode !== 0) {
    return { message: `GIT_DIR=${dir} (from the environment) is not a git dir`, fix: "point GIT_DIR at the repository's git dir (git rev-parse --absolute-git-dir in a shell where git works), or unset GIT_DIR" };
  }
  if (tree === undefined && probe.stdout.toString('utf8').trim() === 'true') {
    return { message: `GIT_DIR=${dir} (from the environment) names a git dir with no work tree (core.bare=true) and GIT_WORK_TREE is not set`, fix: `export GIT_WORK_TREE=${cwd}   (the work tree of ${dir}; then run the command again)` };
  }
  return null;
}

/** `git <args>` stdout as UTF-8 text with the final newline removed. Throws as `git`. */
export async function gitText(args: readonly string[], options: GitCallOptions): Promise<string> {
  const r = await git(args, options);
  return r.stdout.toString('utf8').replace(/\n$/, '');
}

/**
 * Split `-z` output into records (NUL-terminated; a trailing empty record is dropped). Bytes decode as UTF-8, a byte
 * that is not valid UTF-8 (a latin-1 file name) as its escape (core/paths.ts decodePath), so every path keeps its
 * exact bytes (pathBytes).
 */
export function splitZ(out: Buffer | string): string[] {
  if (typeof out === 'string') {
    if (out === '') return [];
    const parts = out.split('\0');
    if (parts[parts.length - 1] === '') parts.pop();
    return parts;
  }
  const parts: string[] = [];
  let start = 0;
  for (let nul = out.indexOf(0, start); nul >= 0; nul = out.indexOf(0, start)) {
    parts.push(decodePath(out.subarray(start, nul)));
    start = nul + 1;
  }
  if (start < out.length) parts.push(decodePath(out.subarray(start)));
  return parts;
}

/** The GIT_* variables a hook receives that decide which repository, work tree and index git uses. */
export const REPO_ENV_KEYS = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_NAMESPACE', 'GIT_CEILING_DIRECTORIES', 'GIT_DISCOVERY_ACROSS_FILESYSTEM'] as const;

/**
 * The repository-selecting GIT_* variables of `env`, with relative paths made absolute the way git reads them
 * (checked against git 2.39): GIT_DIR, GIT_WORK_TREE, GIT_COMMON_DIR and GIT_OBJECT_DIRECTORY are read before git
 * changes directory, so they resolve against `cwd`; GIT_INDEX_FILE is read after git has moved to the top level of
 * the work tree, so it resolves against `topLevel`. `git commit -a` and `git commit -- path` name a temporary index
 * here (`.git/index.lock`, `.git/next-index-<pid>.lock`); losing it would judge the wrong index.
 */
export function gitEnv(env: Readonly<Record<string, string | undefined>>, cwd: string, topLevel: string = cwd): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of REPO_ENV_KEYS) {
    const v = env[key];
    if (v === undefined || v === '') continue;
    if (key === 'GIT_INDEX_FILE') out[key] = isAbsolute(v) ? v : resolve(topLevel, v);
    else if (key === 'GIT_DIR' || key === 'GIT_WORK_TREE' || key === 'GIT_COMMON_DIR' || key === 'GIT_OBJECT_DIRECTORY') out[key] = isAbsolute(v) ? v : resolve(cwd, v);
    else out[key] = v;
  }
  return out;
}

/**
 * The repository at `cwd` as a caller with environment `env` sees it: its facts and the absolutised GIT_* variables
 * (`gitEnv`) to hand to every git child and to gates that shell out. Every other GIT_* key of the caller is removed
 * from `env` for git children so a stray variable cannot redirect them. Throws GitError outside a work tree, and
 * when GIT_INDEX_FILE names a file that does not exist (git would silently read it as an empty index: fail closed).
 */
export async function resolveRepo(cwd: string, env: Readonly<Record<string, string | undefined>>): Promise<{ facts: RepoFacts; env: Record<string, string> }> {
  const early = gitEnv(env, cwd);
  delete early.GIT_INDEX_FILE;
  const facts = handedFacts(cwd, env) ?? (await repoFacts(cwd, early));
  const full = gitEnv(env, cwd, facts.topLevel);
  if (full.GIT_INDEX_FILE !== undefined && !existsSync(full.GIT_INDEX_FILE)) {
    throw new GitError(['ls-files'], `GIT_INDEX_FILE names ${full.GIT_INDEX_FILE}, which does not exist`, 'unset GIT_INDEX_FILE, or run loopgates from the hook git runs');
  }
  return { facts, env: full };
}

/** Facts about the repository at a directory (git-rev-parse(1)). All paths absolute. */
export interface RepoFacts {
  /** Top level of the work tree. */
  topLevel: string;
  /** This work tree's git dir (`.git`, or `.git/worktrees/<name>` in a linked worktree). */
  gitDir: string;
  /** The git dir shared by all worktrees (objects, refs, config, info/exclude). */
  commonDir: string;
  /** Where git looks for hooks (`git rev-parse --git-path hooks`, honours core.hooksPath). */
  hooksDir: string;
  /** Whether HEAD resolves to a commit (false before the initial commit). */
  hasHead: boolean;
  /** Whether HEAD points at a commit instead of a branch. */
  detached: boolean;
  /** Whether this is a linked worktree (`git worktree add`), not the main one. */
  linkedWorktree: boolean;
  /** Whether a merge is in progress (MERGE_HEAD exists). */
  mergeInProgress: boolean;
  /** Object format: `sha1` or `sha256`. */
  objectFormat: string;
}

/** The top level of the work tree containing `cwd`, or null when `cwd` is not inside a work tree. Never throws GitError. */
export async function findTopLevel(cwd: string, env?: Readonly<Record<string, string | undefined>>): Promise<string | null> {
  const r = await git(['rev-parse', '--show-toplevel'], { cwd, okExitCodes: [128], ...(env ? { env } : {}) }).catch((e: unknown) => {
    if (e instanceof GitError) return null;
    throw e;
  });
  if (!r || r.exitCode !== 0) return null;
  const top = r.stdout.toString('utf8').replace(/\n$/, '');
  return top === '' ? null : top;
}

/**
 * Facts about the repository at `cwd` (see RepoFacts). `env`: the repository-selecting variables (`gitEnv`).
 * Throws GitError when `cwd` is not inside a git work tree (bare repositories have nothing to stage).
 */
export async function repoFacts(cwd: string, env?: Readonly<Record<string, string | undefined>>): Promise<RepoFacts> {
  const o = { cwd, ...(env ? { env } : {}) };
  // One call, the one the stored hook makes (hooks/pre-commit): rev-parse prints one answer per line in argument
  // order. With --revs-only a revision that does not resolve prints nothing, nor does any after it, and git exits 0:
  // five lines before the initial commit, six when the index holds no loopgates.yaml, else eight (HEAD's commit, the
  // staged loopgates.yaml's blob id, then `refs/heads/<branch>` or `HEAD` when detached). Exit 128: not in a work
  // tree (GitError).
  const args = [...FACTS_ARGS];
  const r = await git(args, o).catch(async (e: unknown) => {
    // An empty core.hooksPath makes --git-path hooks fail: say so, with the scope to unset it in.
    if (!(e instanceof GitError) || !e.message.includes('The empty string is not a valid path')) throw e;
    const scope = await git(['config', '--show-scope', '--get', 'core.hooksPath'], { ...o, okExitCodes: [1] }).then((x) => x.stdout.toString('utf8').split('\t')[0]?.trim() || 'local', () => 'local');
    throw new GitError(args, `${e.message.replace(/^git .*? failed: /, '')}: ${messages.emptyHooksPath(scope)}`, messages.emptyHooksPathFix(scope));
  });
  const stdout = r.stdout.toString('utf8');
  const facts = factsFromRevParse(stdout);
  if (facts.detached !== undefined) return { ...facts, detached: facts.detached };
  // No symbolic name in the answer (no staged loopgates.yaml) and a HEAD file that does not say (reftable): ask git.
  const sym = await git(['symbolic-ref', '-q', 'HEAD'], { ...o, okExitCodes: [1] });
  return { ...facts, detached: sym.exitCode === 1 };
}

/** The rev-parse arguments of repoFacts, made by the stored hook too (hooks/pre-commit, LOOPGATES_HOOK_FACTS). */
export const FACTS_ARGS = ['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-dir', '--git-common-dir', '--git-path', 'hooks', '--show-object-format', '--revs-only', 'HEAD', ':loopgates.yaml', '--symbolic-full-name', 'HEAD'] as const;

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * RepoFacts from repoFacts' rev-parse answer; `detached` undefined when the answer does not say (six or seven lines)
 * and neither does the HEAD file (a detached HEAD file holds the commit id, an attached one `ref: <name>`; reftable
 * keeps a placeholder). Throws GitError when the answer names no work tree or is not one of rev-parse's shapes.
 */
function factsFromRevParse(stdout: string): Omit<RepoFacts, 'detached'> & { detached: boolean | undefined } {
  const lines = stdout.replace(/\n$/, '').split('\n');
  const [topLevel, gitDir, commonDir, hooksDir, objectFormat, head, , symbolic] = lines;
  if (!topLevel || !gitDir || !commonDir || !hooksDir || lines.length > 8 || (head !== undefined && !OID.test(head))) {
    throw new GitError(['rev-parse', '--show-toplevel'], 'not inside a git work tree', 'run loopgates inside a git repository, or use: loopgates run --all');
  }
  const hasHead = head !== undefined;
  let detached: boolean | undefined = false;
  if (symbolic !== undefined) detached = symbolic === 'HEAD';
  else if (hasHead) {
    let text = '';
    try {
      text = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    } catch {
      /* unreadable: ask git */
    }
    detached = text === head ? true : text.startsWith('ref: refs/') && text !== 'ref: refs/heads/.invalid' ? false : undefined;
  }
  return {
    topLevel,
    gitDir,
    commonDir,
    hooksDir,
    hasHead,
    detached,
    linkedWorktree: resolve(gitDir) !== resolve(commonDir),
    // MERGE_HEAD is a per-worktree pseudo-ref file in the git dir, with files and reftable backends alike.
    mergeInProgress: existsSync(join(gitDir, 'MERGE_HEAD')),
    objectFormat: objectFormat || 'sha1',
  };
}

/**
 * The RepoFacts the stored hook hands over in LOOPGATES_HOOK_FACTS (`<exit code>\n<stdout>` of the same rev-parse
 * call repoFacts makes), or null when they cannot be trusted, and repoFacts must ask git: absent or malformed; any
 * repository-selecting GIT_* variable set (REPO_ENV_KEYS: node's git children get them absolutised by gitEnv, the
 * shell's git got them as written; GIT_INDEX_FILE, set by git for every commit, changes only the staged config's blob
 * id, which node does not take from here; the GIT_CONFIG_* variables reach both gits alike, from the same
 * environment); an exit code other than 0, or not five to eight answers; a
 * work tree other than `cwd` (git runs the hook at the top of the work tree); a git dir without HEAD or a common dir
 * without objects; an unknown object format; no way to tell a detached HEAD without git. Nothing the gates judge comes from here: staged content is always
 * read from git by node.
 */
export function handedFacts(cwd: string, env: Readonly<Record<string, string | undefined>>): RepoFacts | null {
  const raw = env.LOOPGATES_HOOK_FACTS;
  if (raw === undefined) return null;
  for (const key of Object.keys(env)) {
    if (key === 'GIT_INDEX_FILE' || !env[key]) continue;
    if ((REPO_ENV_KEYS as readonly string[]).includes(key)) return null;
  }
  const m = /^0\n([^]*)$/.exec(raw);
  if (!m) return null;
  const lines = m[1]!.split('\n');
  if (lines.length < 5 || lines.length > 8 || lines.some((l) => l === '')) return null;
  const [topLevel, gitDir, commonDir, , objectFormat] = lines as [string, string, string, string, string];
  if (!isAbsolute(topLevel) || !isAbsolute(gitDir) || !isAbsolute(commonDir)) return null;
  if (objectFormat !== 'sha1' && objectFormat !== 'sha256') return null;
  if (lines.slice(5, 7).some((l) => !OID.test(l))) return null;
  try {
    if (realpathSync(cwd) !== realpathSync(topLevel)) return null;
  } catch {
    return null;
  }
  if (!existsSync(join(gitDir, 'HEAD')) || !existsSync(join(commonDir, 'objects'))) return null;
  const facts = factsFromRevParse(`${m[1]!}\n`);
  return facts.detached === undefined ? null : { ...facts, detached: facts.detached };
}

/** The empty tree's id per object format: well-known constants (git's own EMPTY_TREE_SHA1/SHA256_BIN_LITERAL). */
const EMPTY_TREE: Readonly<Record<string, string>> = {
  sha1: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  sha256: '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321',
};

/** The id of the empty tree in this repository's object format (computed by `git hash-object` for an unknown format). */
export async function emptyTreeId(cwd: string, env?: Readonly<Record<string, string | undefined>>, objectFormat?: string): Promise<string> {
  const known = objectFormat ? EMPTY_TREE[objectFormat] : undefined;
  if (known) return known;
  return gitText(['hash-object', '-t', 'tree', '--stdin'], { cwd, input: '', ...(env ? { env } : {}) });
}

/**
 * The id git gives `bytes` as a blob (git-hash-object(1): the object format's hash of `blob <size>\0<bytes>`), so
 * content can be compared with an index entry without reading the blob. Undefined for an unknown object format.
 */
export function blobId(bytes: Buffer, objectFormat: string): string | undefined {
  if (objectFormat !== 'sha1' && objectFormat !== 'sha256') return undefined;
  return createHash(objectFormat).update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** Largest loose object file `looseBlob` reads (compressed bytes); a bigger one is read through git. */
const LOOSE_MAX_BYTES = 16 * 1024 * 1024;
let zlib: typeof import('node:zlib') | undefined;

/**
 * Blob `oid` read from its loose object file (`<objectsDir>/<2 hex>/<rest>`, zlib-compressed `blob <size>\0<bytes>`,
 * git's "object storage" format), only when that file is there and what it holds hashes to `oid` (so it is that blob
 * and nothing else); undefined otherwise (packed, absent, another type, too big, unreadable): the caller asks git.
 * A commit made in this repository leaves the blobs it wrote loose until `git gc`, so the next commit's HEAD side of
 * the files it changes again is read without a `git cat-file` process (~10-15 ms of CPU each).
 */
export function looseBlob(objectsDir: string, oid: string, objectFormat: string): Buffer | undefined {
  if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(oid) || (objectFormat === 'sha1') !== (oid.length === 40)) return undefined;
  try {
    const file = join(objectsDir, oid.slice(0, 2), oid.slice(2));
    const st = statSync(file, { throwIfNoEntry: false });
    if (!st?.isFile() || st.size > LOOSE_MAX_BYTES) return undefined;
    // Loaded on first use only: most commands never read a loose object.
    zlib ??= createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib');
    const raw = zlib.inflateSync(readFileSync(file), { maxOutputLength: 8 * LOOSE_MAX_BYTES });
    const nul = raw.indexOf(0);
    if (nul < 0 || nul > 32) return undefined;
    const header = raw.toString('latin1', 0, nul);
    const bytes = raw.subarray(nul + 1);
    if (header !== `blob ${bytes.length}`) return undefined;
    return createHash(objectFormat).update(raw).digest('hex') === oid ? Buffer.from(bytes) : undefined;
  } catch {
    return undefined;
  }
}

/** One index entry from `git ls-files -s -z`: mode (octal string), blob id, stage (0 unless unmerged), path. */
export interface IndexEntry {
  mode: string;
  oid: string;
  stage: number;
  path: string;
}

/** Largest index file `readIndexFile` parses; a bigger one is listed by git. */
const INDEX_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The entries of the index file at `file` as `git ls-files -s` lists them, parsed from the file itself
 * (gitformat-index(5): versions 2, 3 and 4, sha1 or sha256), only when its trailing checksum is the hash of what
 * precedes it; undefined whenever git must answer instead: another version, a split index (`link`) or sparse index
 * (`sdir`, directory entries ls-files would expand), any other extension git requires (lowercase signature), a
 * checksum git skipped (index.skipHash) or that does not match, a file too big or not readable. Saves the commit a
 * `git ls-files` process (~10-15 ms of CPU).
 */
export function readIndexFile(file: string, objectFormat: string): IndexEntry[] | undefined {
  const hashLen = objectFormat === 'sha1' ? 20 : objectFormat === 'sha256' ? 32 : 0;
  if (!hashLen) return undefined;
  let buf: Buffer;
  try {
    const st = statSync(file, { throwIfNoEntry: false });
    if (!st?.isFile() || st.size > INDEX_MAX_BYTES) return undefined;
    buf = readFileSync(file);
  } catch {
    return undefined;
  }
  if (buf.length < 12 + hashLen || buf.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const end = buf.length - hashLen;
  const sum = buf.subarray(end);
  if (sum.every((b) => b === 0) || !createHash(objectFormat).update(buf.subarray(0, end)).digest().equals(sum)) return undefined;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = buf.readUInt32BE(8);
  const entries: IndexEntry[] = [];
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    // ctime, mtime (8 bytes each), dev, ino (4 each), then mode, uid, gid, size, the object id, 16 bits of flags.
    const fixed = 40 + hashLen + 2;
    if (at + fixed > end) return undefined;
    const mode = buf.readUInt32BE(at + 24);
    const oid = buf.toString('hex', at + 40, at + 40 + hashLen);
    const flags = buf.readUInt16BE(at + 40 + hashLen);
    let p = at + fixed;
    if (flags & 0x4000) {
      if (version < 3) return undefined;
      p += 2;
    }
    let path: Buffer;
    if (version === 4) {
      // The number of bytes to drop from the previous path (an offset varint), then the rest, NUL-terminated.
      let n = buf[p++]!;
      let drop = n & 0x7f;
      while (n & 0x80) {
        if (p >= end) return undefined;
        n = buf[p++]!;
        drop = ((drop + 1) << 7) | (n & 0x7f);
      }
      const nul = buf.indexOf(0, p);
      if (nul < 0 || nul >= end || drop > previous.length) return undefined;
      path = Buffer.concat([previous.subarray(0, previous.length - drop), buf.subarray(p, nul)]);
      at = nul + 1;
    } else {
      const nul = buf.indexOf(0, p);
      if (nul < 0 || nul >= end) return undefined;
      path = buf.subarray(p, nul);
      // Entries are padded with 1-8 NULs to a multiple of 8 bytes from the entry's start.
      at += Math.ceil((nul + 1 - at) / 8) * 8;
    }
    previous = path;
    const type = mode >>> 12;
    // Regular file, symlink, gitlink; a directory (040000) is a sparse-index entry git would expand.
    if (type !== 0o10 && type !== 0o12 && type !== 0o16) return undefined;
    entries.push({ mode: mode.toString(8), oid, stage: (flags >> 12) & 3, path: decodePath(path) });
  }
  // Extensions: a 4-byte signature, a 32-bit size, the data. One git must apply (uppercase 'A'-'Z' first byte means optional).
  while (at < end) {
    if (at + 8 > end) return undefined;
    const first = buf[at]!;
    if (first < 0x41 || first > 0x5a) return undefined;
    at += 8 + buf.readUInt32BE(at + 4);
  }
  return at === end ? entries : undefined;
}

/** Every entry of the index git would use (GIT_INDEX_FILE honoured through `env`). Throws GitError. */
export async function lsIndex(cwd: string, env?: Readonly<Record<string, string | undefined>>): Promise<IndexEntry[]> {
  const out = await git(['ls-files', '-s', '-z', '--full-name'], { cwd, ...(env ? { env } : {}) });
  return splitZ(out.stdout).map((rec) => {
    // "<mode> SP <object> SP <stage> TAB <file>" (git-ls-files(1) OUTPUT)
    const tab = rec.indexOf('\t');
    const [mode = '', oid = '', stage = '0'] = rec.slice(0, tab).split(' ');
    return { mode, oid, stage: Number(stage), path: rec.slice(tab + 1) };
  });
}

/** One change of `git diff-index --cached --name-status -z`: status letter (A, C, D, M, R, T, U, X) and path. */
export interface StagedChange {
  status: string;
  path: string;
}

/**
 * The staged changes of the index against `treeish` (HEAD, or the empty tree before the initial commit), renames
 * off so a rename is D + A. Plumbing (`diff-index`), so no user config (color.ui, diff.external, diff.renames)
 * changes the output. Throws GitError.
 */
export async function stagedChanges(cwd: string, treeish: string, env?: Readonly<Record<string, string | undefined>>): Promise<StagedChange[]> {
  const out = await git(['diff-index', '--cached', '-z', '--name-status', '--no-renames', '--ignore-submodules=none', treeish, '--'], { cwd, ...(env ? { env } : {}) });
  const parts = splitZ(out.stdout);
  const changes: StagedChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const status = parts[i]!;
    changes.push({ status: status.charAt(0), path: parts[i + 1]! });
  }
  return changes;
}

/** One change of `git diff-index --cached --raw -z`: status letter, path, and both sides' modes and blob ids. */
export interface StagedEntry extends StagedChange {
  /** Mode of the index entry (octal string: `100644`, `100755`, `120000`, `160000`; `000000` when deleted). */
  mode: string;
  /** Blob id of the index entry (all zeros when deleted or unmerged). */
  oid: string;
  /** Mode of the path in the compared tree (HEAD); `000000` when the index adds it. */
  srcMode: string;
  /** Blob id of the path in the compared tree (HEAD); all zeros when the index adds it. */
  srcOid: string;
}

/**
 * `stagedChanges` with the index side of each change (git-diff-index(1) "RAW OUTPUT FORMAT": `:<mode> <mode>
 * <sha1> <sha1> <status>` NUL `<path>` NUL), so a staged snapshot knows the blob of every staged path without
 * listing the whole index. Renames off; plumbing, so user config does not change it. Throws GitError.
 */
export async function stagedEntries(cwd: string, treeish: string, env?: Readonly<Record<string, string | undefined>>): Promise<StagedEntry[]> {
  const out = await git(['diff-index', '--cached', '-z', '--raw', '--no-renames', '--no-abbrev', '--ignore-submodules=none', treeish, '--'], { cwd, ...(env ? { env } : {}) });
  const parts = splitZ(out.stdout);
  const entries: StagedEntry[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const [src = '', mode = '', srcOid = '', oid = '', status = ''] = parts[i]!.split(' ');
    entries.push({ status: status.charAt(0), path: parts[i + 1]!, mode, oid, srcMode: src.replace(/^:/, ''), srcOid });
  }
  return entries;
}

/** Tracked plus untracked-not-ignored files (`git ls-files -co --exclude-standard -z`), deduplicated, sorted. */
export async function lsTree(cwd: string, env?: Readonly<Record<string, string | undefined>>): Promise<string[]> {
  const out = await git(['ls-files', '-co', '--exclude-standard', '-z', '--full-name'], { cwd, ...(env ? { env } : {}) });
  return [...new Set(splitZ(out.stdout))].sort();
}

/**
 * The stage-0 index entries a listing of the work tree's files cannot read as files, from one `git ls-files -t -s -z`
 * (git-ls-files(1): tag `S` is skip-worktree): `skipWorktree`, path -> { mode, oid } of the entries with git's
 * skip-worktree bit (a sparse checkout's files outside its cone, or `git update-index --skip-worktree`); `gitlinks`,
 * the paths of submodules (mode `160000`: another repository's commit, whose files this one does not hold), sorted.
 * Throws GitError.
 */
export async function lsIndexGaps(cwd: string, env?: Readonly<Record<string, string | undefined>>): Promise<{ skipWorktree: Map<string, { mode: string; oid: string }>; gitlinks: string[] }> {
  const out = await git(['ls-files', '-t', '-s', '-z', '--full-name'], { cwd, ...(env ? { env } : {}) });
  const skipWorktree = new Map<string, { mode: string; oid: string }>();
  const gitlinks: string[] = [];
  for (const rec of splitZ(out.stdout)) {
    // "<tag> SP <mode> SP <object> SP <stage> TAB <file>"
    const tab = rec.indexOf('\t');
    const [tag = '', mode = '', oid = '', stage = ''] = rec.slice(0, tab).split(' ');
    if (stage !== '0') continue;
    if (tag === 'S') skipWorktree.set(rec.slice(tab + 1), { mode, oid });
    if (mode === '160000') gitlinks.push(rec.slice(tab + 1));
  }
  return { skipWorktree, gitlinks: gitlinks.sort() };
}

/** Whether git ignores `path` (relative to `cwd`), per `git check-ignore -q`. Throws GitError on other failures. */
export async function isIgnored(cwd: string, path: string, env?: Readonly<Record<string, string | undefined>>): Promise<boolean> {
  const r = await git(['check-ignore', '-q', '--', path], { cwd, okExitCodes: [1], ...(env ? { env } : {}) });
  return r.exitCode === 0;
}

/**
 * Reads blobs by id through one long-lived `git cat-file --batch` process (git-cat-file(1) "BATCH OUTPUT":
 * `<oid> SP <type> SP <size> LF <contents> LF`, or `<object> SP missing LF`). Requests are answered in order.
 * Call `close()` when done; reads after close restart the process.
 */
export class BlobReader {
  private child: ReturnType<typeof spawn> | undefined;
  private buf: Buffer = Buffer.alloc(0);
  /** Chunks received while an object is incomplete, and their byte count; `need`: bytes `buf` must hold for it. */
  private held: Buffer[] = [];
  private heldBytes = 0;
  private need = 0;
  private queue: Array<{ oid: string; resolve: (b: Buffer) => void; reject: (e: Error) => void }> = [];
  private failed: Error | undefined;

  constructor(
    private readonly cwd: string,
    private readonly env?: Readonly<Record<string, string | undefined>>,
  ) {}

  /** The contents of blob `oid`. Throws GitError when the object is missing or git fails. */
  read(oid: string): Promise<Buffer> {
    if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(oid)) return Promise.reject(new GitError(['cat-file', '--batch'], `not an object id: ${oid}`));
    const child = this.start();
    return new Promise((resolve, reject) => {
      if (this.failed) return reject(this.failed);
      this.queue.push({ oid, resolve, reject });
      this.setRef(child, true);
      child.stdin!.write(`${oid}\n`);
    });
  }

  /** Ends the git process; pending reads are rejected. */
  close(): void {
    const c = this.child;
    this.child = undefined;
    if (c) {
      c.stdin!.end();
    }
  }

  private start(): ReturnType<typeof spawn> {
    if (this.child) return this.child;
    this.failed = undefined;
    this.buf = Buffer.alloc(0);
    this.held = [];
    this.heldBytes = 0;
    this.need = 0;
    const child = spawn('git', ['cat-file', '--batch'], { cwd: this.cwd, env: childEnv(this.env), stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    this.child = child;
    let stderr = '';
    child.stderr!.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
    child.stdout!.on('data', (b: Buffer) => {
      // A big object arrives in many chunks: hold them until the object is whole, then join once (joining on every
      // chunk copied the buffer again each time: a staged 32 MiB file took 40 s).
      if (this.need > 0 && this.buf.length + this.heldBytes + b.length < this.need) {
        this.held.push(b);
        this.heldBytes += b.length;
        return;
      }
      this.buf = this.buf.length || this.held.length ? Buffer.concat([this.buf, ...this.held, b]) : b;
      this.held = [];
      this.heldBytes = 0;
      this.drain();
    });
    child.stdin!.on('error', () => {
      /* reported through 'close' */
    });
    const fail = (e: Error) => {
      this.failed = e;
      for (const q of this.queue.splice(0)) q.reject(e);
      if (this.child === child) this.child = undefined;
    };
    child.on('error', (e: NodeJS.ErrnoException) => fail(spawnError(e, this.cwd, ['cat-file', '--batch'])));
    child.on('close', (code) => {
      if (this.queue.length) fail(new GitError(['cat-file', '--batch'], stderr || `exited with ${code}`));
      else if (this.child === child) this.child = undefined;
    });
    this.setRef(child, false);
    return child;
  }

  /** An idle reader must not keep a finished CLI alive; a reader with pending reads must. */
  private setRef(child: ReturnType<typeof spawn>, on: boolean): void {
    for (const h of [child, child.stdout, child.stderr, child.stdin] as unknown as Array<{ ref?: () => void; unref?: () => void } | null>) {
      if (on) h?.ref?.();
      else h?.unref?.();
    }
  }

  private drain(): void {
    for (;;) {
      const head = this.queue[0];
      if (!head) {
        if (this.child) this.setRef(this.child, false);
        return;
      }
      const nl = this.buf.indexOf(0x0a);
      if (nl < 0) return;
      const header = this.buf.subarray(0, nl).toString('utf8');
      const fields = header.split(' ');
      if (fields[1] === 'missing' || fields.length < 3) {
        this.buf = this.buf.subarray(nl + 1);
        this.queue.shift();
        head.reject(new GitError(['cat-file', '--batch'], `object ${head.oid} is ${fields[1] === 'missing' ? 'missing' : `unreadable (${header})`}`));
        continue;
      }
      const size = Number(fields[2]);
      if (this.buf.length < nl + 1 + size + 1) {
        this.need = nl + 1 + size + 1;
        return;
      }
      this.need = 0;
      const content = Buffer.from(this.buf.subarray(nl + 1, nl + 1 + size));
      this.buf = this.buf.subarray(nl + 1 + size + 1);
      this.queue.shift();
      head.resolve(content);
    }
  }
}
