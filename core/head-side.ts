// HEAD's side of a staged run (issue 16): the same gate judging the commit's parent over the same inputs, so the
// runner can tell the findings a commit brings from those already in HEAD (core/introduced.ts). HEAD's blobs are read
// with the snapshot machinery (core/git.ts BlobReader, one `git cat-file --batch`); its findings are cached by HEAD's
// tree id (which names every blob id), the paths judged and loopgates' build. Nothing is built until a gate has
// findings to split: a commit with nothing to judge pays nothing for HEAD.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkspaceError } from './errors.js';
import { BlobReader, git, gitText, splitZ } from './git.js';
import { headFindingsOf, lineMapOfPatch } from './introduced.js';
import type { HeadFinding, HeadJudge, LineMap } from './introduced.js';
import type { GateSettings } from './runner.js';
import type { GitWorkspace } from './snapshot.js';
import type { GateResult, Workspace } from './types.js';
import { buildStamp, packageVersion } from './version.js';
import { normalisePath } from './workspace.js';

/** Bumped when the key recipe or the cache file's shape changes. */
const FORMAT = 1;
/** HEAD judgements kept per gate (the newest first): a few bases, a few staged sets each. */
const KEEP_PER_GATE = 8;
const REGULAR = new Set(['100644', '100755']);

/** HEAD as it stands for a staged commit: tree id, renames the commit makes, and HEAD's regular files (rename-applied). */
interface HeadFacts {
  tree: string;
  /** New path -> old path, for files the index renames (git diff-index -M). */
  renames: ReadonlyMap<string, string>;
}

/**
 * The HEAD side of `ws` (a staged snapshot read from the index), or undefined when `ws` has none to offer (not
 * index-backed). Before the initial commit its `judge` answers null: nothing is pre-existing.
 */
export function headSideOf(ws: GitWorkspace, cacheRoot: string): HeadJudge | undefined {
  const facts = ws.facts;
  if (ws.backing.kind !== 'index' || !facts) return undefined;
  if (!facts.hasHead) return { judge: async () => null };
  const root = ws.root;
  const env = ws.backing.env;
  let headFacts: Promise<HeadFacts> | undefined;
  let headWs: Promise<Workspace> | undefined;
  const factsOf = () =>
    (headFacts ??= (async () => {
      const tree = await gitText(['rev-parse', '--verify', '--quiet', 'HEAD^{tree}'], { cwd: root, env });
      // A rename is a deletion and an addition to the staged snapshot; only then is rename detection worth a process.
      const renames = (await ws.deletions?.())?.length ? await stagedRenames(root, env) : new Map<string, string>();
      return { tree, renames };
    })());
  const workspace = () =>
    (headWs ??= (async () => {
      const { renames } = await factsOf();
      return headWorkspace(ws, root, env, renames);
    })());

  return {
    async judge(settings, inputs, run) {
      const { tree, renames } = await factsOf();
      const hw = await workspace();
      const present = new Set(await hw.allPaths());
      const headInputs = inputs.filter((p) => present.has(p));
      if (headInputs.length === 0) return { findings: [], from: 'run' };
      const key = cacheKey(settings, tree, renames, await hw.targets(), headInputs);
      const file = join(cacheRoot, '_head', `${settings.gate.id}.json`);
      const hit = key ? readEntry(file, key) : undefined;
      if (hit) return { findings: hit, from: 'cache' };
      const result = await run(hw, headInputs);
      const findings = headFindingsOrThrow(result);
      if (key) writeEntry(file, key, findings);
      return { findings, from: 'run' };
    },
    async lineMap(path): Promise<LineMap | undefined> {
      const { renames } = await factsOf();
      const from = renames.get(path);
      // Plumbing with zero context: no external diff, no textconv, no colour from the user's config.
      const args = ['diff-index', '-p', '--cached', '-U0', '--no-color', '--no-ext-diff', '--no-textconv', ...(from ? ['-M'] : ['--no-renames']), 'HEAD', '--', ...(from ? [from, path] : [path])];
      const out = await git(args, { cwd: root, env });
      const patch = out.stdout.toString('utf8');
      return /^Binary files /m.test(patch) ? undefined : lineMapOfPatch(patch);
    },
  };
}

/** HEAD's findings of a HEAD-side run; throws Error(why) when it could not judge (error, vacuous). */
function headFindingsOrThrow(result: GateResult): HeadFinding[] {
  if (result.verdict === 'skip') return [];
  if (result.verdict === 'error' || result.verdict === 'vacuous') throw new Error(`${result.verdict}: ${result.error?.message ?? result.reason ?? 'no reason given'}`);
  return headFindingsOf(result.findings);
}

/** New path -> old path of every rename the index makes relative to HEAD (git-diff-index(1) -M, raw, NUL-separated). */
async function stagedRenames(root: string, env: Readonly<Record<string, string>>): Promise<Map<string, string>> {
  const out = await git(['diff-index', '--cached', '-z', '--raw', '-M', '--no-abbrev', '--ignore-submodules=none', 'HEAD', '--'], { cwd: root, env });
  const parts = splitZ(out.stdout);
  const renames = new Map<string, string>();
  for (let i = 0; i < parts.length; ) {
    const status = parts[i]!.split(' ')[4] ?? '';
    if (status.startsWith('R') || status.startsWith('C')) {
      if (status.startsWith('R')) renames.set(parts[i + 2]!, parts[i + 1]!);
      i += 3;
    } else i += 2;
  }
  return renames;
}

/**
 * HEAD's tree as a staged snapshot of the same commit: every regular file of HEAD (a renamed file at its new path,
 * holding its HEAD content), targets = the staged targets HEAD holds, no deletions and nothing before it (HEAD is
 * judged as a commit that changes nothing). Backing `memory`: nothing on disk is HEAD, a gate that shells out
 * materialises what it reads.
 */
async function headWorkspace(ws: GitWorkspace, root: string, env: Readonly<Record<string, string>>, renames: ReadonlyMap<string, string>): Promise<Workspace> {
  const out = await git(['ls-tree', '-r', '-z', '--full-tree', 'HEAD'], { cwd: root, env });
  const oids = new Map<string, string>();
  for (const rec of splitZ(out.stdout)) {
    // "<mode> SP <type> SP <object> TAB <file>" (git-ls-tree(1) OUTPUT FORMAT)
    const tab = rec.indexOf('\t');
    const [mode = '', type = '', oid = ''] = rec.slice(0, tab).split(' ');
    if (type === 'blob' && REGULAR.has(mode)) oids.set(rec.slice(tab + 1), oid);
  }
  for (const [to, from] of renames) {
    const oid = oids.get(from);
    oids.delete(from);
    if (oid !== undefined) oids.set(to, oid);
  }
  const all = [...oids.keys()].sort();
  const targets = (await ws.targets()).filter((p) => oids.has(p));
  const reader = new BlobReader(root, env);
  const cache = new Map<string, Promise<Buffer>>();
  const read = (path: string): Promise<Buffer> => {
    const oid = oids.get(normalisePath(path));
    if (oid === undefined) return Promise.reject(new WorkspaceError(path));
    let got = cache.get(oid);
    if (!got) cache.set(oid, (got = reader.read(oid)));
    return got;
  };
  return {
    mode: 'staged',
    root,
    backing: { kind: 'memory', root },
    targets: async () => targets,
    allPaths: async () => all,
    read,
    readText: async (path) => (await read(path)).toString('utf8'),
    has: async (path) => oids.has(normalisePath(path)),
    deletions: async () => [],
    before: async () => undefined,
    links: async () => [],
  };
}

/** The cache key of one HEAD judgement, or undefined when the gate's config is not plain data (never cached then). */
function cacheKey(settings: GateSettings<any>, tree: string, renames: ReadonlyMap<string, string>, targets: readonly string[], inputs: readonly string[]): string | undefined {
  let config: string;
  try {
    config = JSON.stringify(settings.config, (_k, v: unknown) => {
      if (v instanceof RegExp || v instanceof Map || v instanceof Set || typeof v === 'function') throw new Error('not plain');
      return v;
    });
  } catch {
    return undefined;
  }
  return createHash('sha256')
    .update(JSON.stringify([FORMAT, packageVersion(), buildStamp(), settings.gate.id, config ?? null, tree, [...renames].sort(), targets, inputs]))
    .digest('hex');
}

interface CacheEntry {
  key: string;
  findings: HeadFinding[];
}

function readAll(file: string): CacheEntry[] {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as { format?: unknown; entries?: unknown };
    if (data.format !== FORMAT || !Array.isArray(data.entries)) return [];
    return (data.entries as unknown[]).filter(isEntry);
  } catch {
    return [];
  }
}

function isEntry(v: unknown): v is CacheEntry {
  const e = v as Partial<CacheEntry> | null;
  return (
    !!e &&
    typeof e.key === 'string' &&
    Array.isArray(e.findings) &&
    e.findings.every(
      (f) =>
        !!f &&
        typeof f.fingerprint === 'string' &&
        (f.severity === 'error' || f.severity === 'warning') &&
        typeof f.file === 'string' &&
        typeof f.line === 'number' &&
        (f.members === undefined || (Array.isArray(f.members) && f.members.every((m) => typeof m === 'string'))),
    )
  );
}

function readEntry(file: string, key: string): HeadFinding[] | undefined {
  return readAll(file).find((e) => e.key === key)?.findings;
}

/** Adds one judgement (newest first, KEEP_PER_GATE kept), atomically; a cache that cannot be written only costs a rerun. */
function writeEntry(file: string, key: string, findings: HeadFinding[]): void {
  try {
    const entries = [{ key, findings }, ...readAll(file).filter((e) => e.key !== key)].slice(0, KEEP_PER_GATE);
    mkdirSync(join(file, '..'), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ format: FORMAT, entries })}\n`);
    renameSync(tmp, file);
  } catch {
    /* the next commit judges HEAD again */
  }
}
