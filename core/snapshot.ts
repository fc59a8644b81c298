// Git-backed workspaces: the staged snapshot (read from the index, never the working tree) and the tree snapshot for
// `--all` / `--files` (DESIGN.md "Flow of a commit": paths and blobs read from the index with git diff --cached -z
// and git cat-file --batch). Nothing here writes anywhere.
import { lstatSync, readFileSync, readdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { LoopgatesError, WorkspaceError } from './errors.js';
import { BlobReader, blobId, emptyTreeId, findTopLevel, git, isInsideGitDir, looseBlob, lsIndex, lsIndexGaps, lsTree, readIndexFile, resolveRepo, stagedEntries } from './git.js';
import { messages } from './messages.js';
import type { RepoFacts } from './git.js';
import { decodePath, fsPath, lossyIndex } from './paths.js';
import { normalisePath } from './workspace.js';
import type { Mode, Workspace } from './types.js';

/** Index modes of regular files (git's `100644` and `100755`); symlinks (`120000`) and submodules (`160000`) have no content a gate could judge. */
const REGULAR = new Set(['100644', '100755']);
/** Index mode of a symbolic link: its blob holds the target path. */
const SYMLINK = '120000';

/** Staged statuses a gate judges: added, copied, modified, renamed (new side), type changed to a regular file. */
const JUDGED = new Set(['A', 'C', 'M', 'R', 'T']);

/** A workspace plus the repository facts it was built from (for the ledger, the report and cache placement). */
export type GitWorkspace = Workspace & {
  readonly facts: RepoFacts | null;
  /** What the run should say about the snapshot itself (tree backing: files of a sparse checkout read from the index). */
  readonly notes?: readonly string[];
  /** Index backing only: the blob id of `path`'s stage-0 regular entry, undefined when there is none. */
  indexOid?(path: string): Promise<string | undefined>;
  /** Index backing only: whether the index holds an entry (any mode or stage) at `path`, or with `under`, below it. */
  tracks?(path: string, under?: boolean): Promise<boolean>;
};

/** Largest working-tree file read to check whether it is the staged blob (bigger ones are read from git directly). */
const WORKTREE_SHORTCUT_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The staged snapshot of the repository containing `cwd` (backing `index`).
 * - targets: regular files the index adds, copies, modifies, renames or type-changes relative to HEAD (relative to the
 *   empty tree before the initial commit); deletions and unmerged paths are not targets. `deletions()` lists the
 *   paths the index deletes.
 * - allPaths: every stage-0 regular file of the index.
 * - read: the blob the index holds (a partially staged file is judged by its staged content): the working tree's file
 *   when its bytes hash to the index's blob id (git-hash-object(1)), else fetched by id from one `git cat-file --batch`
 *   process.
 * Targets and their blob ids come from one `git diff-index --cached --raw`; the whole index (`git ls-files -s`) is
 * listed only when a gate asks for a path that is not a target (allPaths, has, read), since each git process costs a
 * commit ~15 ms of CPU.
 * `env` is the caller's environment (a hook's): GIT_INDEX_FILE / GIT_DIR / GIT_WORK_TREE... are honoured the way git
 * reads them (core/git.ts `gitEnv`) and handed to gates in `backing.env`.
 * Throws GitError outside a work tree or when git fails (listing the index later: GitError from allPaths/has/read).
 */
export async function indexWorkspace(cwd: string, env: Readonly<Record<string, string | undefined>>): Promise<GitWorkspace> {
  const { facts, env: repoEnv } = await resolveRepo(cwd, env);
  const root = facts.topLevel;
  const base = facts.hasHead ? 'HEAD' : await emptyTreeId(root, repoEnv, facts.objectFormat);
  const changes = await stagedEntries(root, base, repoEnv);
  // A judged status's index side is the path's stage-0 entry: regular files only (not symlinks, submodules).
  const staged = new Map<string, string>();
  for (const c of changes) if (JUDGED.has(c.status) && REGULAR.has(c.mode)) staged.set(c.path, c.oid);
  // Symbolic links the index adds or changes: their blob is the link's target path (read by the secrets gate).
  const stagedLinks = new Map<string, string>();
  for (const c of changes) if (JUDGED.has(c.status) && c.mode === SYMLINK) stagedLinks.set(c.path, c.oid);
  const targets = [...staged.keys()].sort();
  const deleted = changes.filter((c) => c.status === 'D').map((c) => c.path).sort();
  // The HEAD side of each path the index modifies or deletes, when HEAD holds a regular file there.
  const headOids = new Map<string, string>();
  for (const c of changes) if ((c.status === 'M' || c.status === 'D' || c.status === 'T') && REGULAR.has(c.srcMode)) headOids.set(c.path, c.srcOid);
  let listing: Promise<{ oids: Map<string, string>; all: string[]; entries: readonly { path: string }[] }> | undefined;
  // The index file git reads (GIT_INDEX_FILE, absolute in repoEnv, else this work tree's), parsed here when it
  // verifies (core/git.ts readIndexFile), else listed by git.
  const indexFile = repoEnv.GIT_INDEX_FILE ?? join(facts.gitDir, 'index');
  const index = () =>
    (listing ??= (async () => readIndexFile(indexFile, facts.objectFormat) ?? (await lsIndex(root, repoEnv)))().then((entries) => {
      const oids = new Map<string, string>();
      for (const e of entries) if (e.stage === 0 && REGULAR.has(e.mode)) oids.set(e.path, e.oid);
      return { oids, all: [...oids.keys()].sort(), entries };
    }));
  const oidOf = async (path: string): Promise<string | undefined> => staged.get(path) ?? (await index()).oids.get(path);
  const reader = new BlobReader(root, repoEnv);
  const cache = new Map<string, Promise<Buffer>>();
  // The working tree's copy when it holds the very blob the index names (same id): a commit that stages whole files,
  // the common case, then needs no `git cat-file` process (~30-70 ms of a commit). Anything else (a partially staged
  // file, a clean/smudge or eol filter, an LFS file, a file gone) differs by id and is read from git.
  const fromTree = (path: string, oid: string): Buffer | undefined => {
    try {
      const abs = fsPath(root, path);
      // Only a regular file (a FIFO put in its place would block this thread) of a size worth hashing.
      const st = statSync(abs);
      if (!st.isFile() || st.size > WORKTREE_SHORTCUT_MAX_BYTES) return undefined;
      const bytes = readFileSync(abs);
      return blobId(bytes, facts.objectFormat) === oid ? bytes : undefined;
    } catch {
      return undefined;
    }
  };
  const read = async (path: string): Promise<Buffer> => {
    const p = normalisePath(path);
    const link = stagedLinks.get(p);
    if (link !== undefined) return reader.read(link);
    const oid = await oidOf(p);
    if (oid === undefined) throw new WorkspaceError(path);
    let got = cache.get(oid);
    if (!got) {
      const local = fromTree(p, oid);
      got = local ? Promise.resolve(local) : reader.read(oid);
      cache.set(oid, got);
    }
    return got;
  };
  return {
    mode: 'staged',
    root,
    backing: { kind: 'index', root, env: Object.freeze({ ...repoEnv }) },
    facts,
    targets: async () => targets,
    allPaths: async () => (await index()).all,
    read,
    readText: async (path) => (await read(path)).toString('utf8'),
    has: async (path) => (await oidOf(normalisePath(path))) !== undefined,
    deletions: async () => deleted,
    before: async (path) => {
      const oid = headOids.get(normalisePath(path));
      if (oid === undefined) return undefined;
      // HEAD's blob, often still loose when HEAD was committed here (an edit-commit loop): read without git then.
      return looseBlob(repoEnv.GIT_OBJECT_DIRECTORY ?? join(facts.commonDir, 'objects'), oid, facts.objectFormat) ?? reader.read(oid);
    },
    indexOid: (path) => oidOf(normalisePath(path)),
    tracks: async (path, under = false) => {
      const p = normalisePath(path);
      return (await index()).entries.some((e) => e.path === p || (under && e.path.startsWith(`${p}/`)));
    },
    links: async () => [...stagedLinks.keys()].sort(),
  };
}

/** Directories never walked outside git: git's own data and installed packages. */
const WALK_SKIP = new Set(['.git', 'node_modules']);

/**
 * The working-tree snapshot (backing `tree`) for `run --all` and `run --files`.
 * - In a git work tree, the file list is `git ls-files -co --exclude-standard -z` (tracked plus untracked, not
 *   ignored), keeping regular files that exist on disk, plus the tracked regular files a sparse checkout leaves out
 *   (skip-worktree entries, `git ls-files -t`), read from their index blobs and named in `notes`. Outside git (a plain folder such as a corpus), `cwd` is the
 *   root and the folder is walked, skipping `.git` and `node_modules`.
 * - mode `all`: targets = that list. mode `files`: targets = `files` (relative to `cwd` or absolute; each a regular
 *   file inside the root, or a folder there, which stands for every listed file under it), allPaths still the whole
 *   list so gates see context.
 * Throws LoopgatesError (exit 2) for a named file that is missing or outside the root; GitError when git fails.
 */
export async function treeWorkspace(
  cwd: string,
  mode: Extract<Mode, 'all' | 'files'>,
  files?: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): Promise<GitWorkspace> {
  const top = await findTopLevel(cwd, env);
  let facts: RepoFacts | null = null;
  let root: string;
  let listed: string[];
  // Tracked regular files a sparse checkout leaves out of the working tree: path -> index blob id.
  const fromIndex = new Map<string, string>();
  let reader: BlobReader | undefined;
  // Everything git lists (links included), in a work tree.
  let gitListed: string[] = [];
  // Other repositories inside this one, whose files no gate reads: submodules (gitlinks) and untracked nested ones.
  let submodules: string[] = [];
  let nested: string[] = [];
  if (top !== null) {
    const repo = await resolveRepo(cwd, env);
    facts = repo.facts;
    const r = (root = facts.topLevel);
    const all = (gitListed = await lsTree(r, repo.env));
    listed = all.filter((p) => isRegularFile(fsPath(r, p)));
    if (listed.length < all.length) {
      // A path listed but not on disk: deleted in the working tree (not judged: --all is the tree), or outside a
      // sparse checkout, where the tree was never meant to hold it: those are judged from the index, so a sparse
      // checkout never makes --all pass over catalogs it did not read.
      const gaps = await lsIndexGaps(r, repo.env);
      for (const [path, e] of gaps.skipWorktree) if (REGULAR.has(e.mode) && !isRegularFile(fsPath(r, path))) fromIndex.set(path, e.oid);
      submodules = gaps.gitlinks;
      // git ls-files -o names an untracked repository inside the tree by its folder, `dir/`, and none of its files.
      nested = all.filter((p) => p.endsWith('/'));
      if (fromIndex.size) {
        listed = [...listed, ...fromIndex.keys()].sort();
        reader = new BlobReader(r, repo.env);
      }
    }
  } else {
    // Not in a work tree. Inside a git directory (a bare repository, or .git itself) the folder holds git's object
    // store, not the project's files: walking it would scan compressed objects and pass. Refuse instead.
    if (await isInsideGitDir(cwd, env)) throw new LoopgatesError(messages.insideGitDir(resolve(cwd)), messages.insideGitDirFix);
    root = resolve(cwd);
    listed = walk(root);
  }
  let targets = listed;
  if (mode === 'files') {
    const named = new Set<string>();
    for (const f of files ?? []) {
      const abs = isAbsolute(f) ? f : resolve(cwd, f);
      const rel = relative(realOrSelf(root), realOrSelf(abs));
      if (rel.startsWith('..') || isAbsolute(rel)) {
        throw new LoopgatesError(`${f} is outside ${root}`, 'name files inside the repository');
      }
      // A folder stands for every file of the list under it (tracked, or untracked and not ignored).
      if (isDirectory(abs)) {
        const prefix = rel === '' ? '' : `${rel.split(sep).join('/')}/`;
        const under = listed.filter((p) => p.startsWith(prefix));
        if (under.length === 0) throw new LoopgatesError(`${f} holds no file to check (none tracked, or untracked and not ignored)`, 'name files, or folders that hold some');
        for (const p of under) named.add(p);
        continue;
      }
      let path = rel.split(sep).join('/');
      // A shell hands node a name that is not UTF-8 with each such byte as U+FFFD: the listed path it stands for.
      const lossy = path.includes('\ufffd') && !isRegularFile(abs) ? lossyIndex(listed).get(path) : undefined;
      if (lossy !== undefined) path = lossy;
      if (rel === '' || !(lossy !== undefined || isRegularFile(abs) || fromIndex.has(path))) throw new LoopgatesError(`${f} is not a file`, `check the path, then run: loopgates run --files <paths...>`);
      named.add(path);
    }
    targets = [...named].sort();
  }
  // Symbolic links of the listing (tracked or untracked), in scope like files: their target path is what git stores.
  const treeLinks = mode === 'all' ? gitListed.filter((p) => isSymlink(fsPath(root, p))) : [];
  const inTree = new Set([...listed, ...targets]);
  const all = [...inTree].sort();
  const abs = (path: string): string | Buffer => {
    const p = normalisePath(path);
    if (!inTree.has(p)) throw new WorkspaceError(path);
    return fsPath(root, p);
  };
  const linkSet = new Set(treeLinks);
  const read = async (path: string): Promise<Buffer> => {
    const p = normalisePath(path);
    if (linkSet.has(p)) return readlinkSync(fsPath(root, p), { encoding: 'buffer' });
    const oid = fromIndex.get(p);
    return oid !== undefined && reader ? reader.read(oid) : readFileSync(abs(path));
  };
  const shown = [...fromIndex.keys()];
  const notes = fromIndex.size
    ? [`sparse checkout: ${fromIndex.size} tracked file${fromIndex.size === 1 ? '' : 's'} outside it (${shown.slice(0, 3).join(', ')}${shown.length > 3 ? ', …' : ''}) ${fromIndex.size === 1 ? 'was' : 'were'} read from the index`]
    : [];
  // fresh F6: a credential in a submodule passed `run --all` without a word. Its files are another repository's, judged
  // there; a named file inside one (`--files libs/sub/s.md`) is read, so only a whole-tree run says this.
  if (mode === 'all') {
    const few = (ps: string[]) => `${ps.slice(0, 3).join(', ')}${ps.length > 3 ? ', …' : ''}`;
    if (submodules.length) notes.push(`${submodules.length} submodule${submodules.length === 1 ? '' : 's'} (${few(submodules)}) not scanned: run loopgates in ${submodules.length === 1 ? 'it' : 'each'}`);
    if (nested.length) notes.push(`${nested.length} nested repositor${nested.length === 1 ? 'y' : 'ies'} (${few(nested)}, untracked) not scanned: run loopgates in ${nested.length === 1 ? 'it' : 'each'}`);
  }
  return {
    mode,
    root,
    backing: { kind: 'tree', root },
    facts,
    notes,
    links: async () => treeLinks,
    targets: async () => targets,
    allPaths: async () => all,
    read,
    readText: async (path) => (await read(path)).toString('utf8'),
    has: async (path) => inTree.has(normalisePath(path)),
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isSymlink(path: string | Buffer): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function isRegularFile(path: string | Buffer): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Every regular file under `root`, `/`-separated and sorted; symlinks are not followed (no cycles, no escapes).
 * Names are read as bytes and decoded with core/paths.ts decodePath, so a name that is not UTF-8 is listed (and read
 * back by fsPath) as git mode lists it, not as U+FFFD, which names no file.
 */
function walk(root: string): string[] {
  const out: string[] = [];
  const visit = (rel: string) => {
    for (const d of readdirSync(rel ? fsPath(root, rel) : root, { withFileTypes: true, encoding: 'buffer' })) {
      const name = decodePath(d.name);
      const r = rel ? `${rel}/${name}` : name;
      if (d.isDirectory()) {
        if (!WALK_SKIP.has(name)) visit(r);
      } else if (d.isFile()) out.push(r);
    }
  };
  visit('');
  return out.sort();
}
