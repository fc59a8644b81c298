// Which files are Maestro flows, which of them run on their own (entry points), and who calls whom. Maestro's own
// rules (https://docs.maestro.dev/cli/test-suites-and-reports, workspace configuration): a workspace is the folder
// passed to `maestro test` (here: each `.maestro/` folder, or the static base of a configured glob); its config.yaml
// (or config.yml) chooses the entry points with `flows:` globs relative to it (default `*`: top-level files only) and
// `includeTags` / `excludeTags`; every other flow runs only when a `runFlow` / `retry.file` reaches it.
import { posix } from 'node:path';
import picomatch from 'picomatch';
import { isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Node } from 'yaml';
import type { Workspace } from '../../core/types.js';
import { WORKSPACE_CONFIG } from './commands.js';
import type { MaestroFlowsConfig } from './config.js';
import { allCommands, flowLists, parseFlow, hasExpression, type Command, type Flow, type FlowProblem } from './flow.js';

/** A Maestro workspace: its folder (repository-relative, '' for the top) and what its config.yaml says. */
export interface MaestroWorkspace {
  root: string;
  /** The workspace config file, when there is one. */
  configPath?: string;
  /** `flows:` globs relative to `root` (Maestro's default `*`). */
  flowGlobs: string[];
  includeTags: string[];
  excludeTags: string[];
  problems: FlowProblem[];
}

/** Where a `runFlow` / `retry.file` / `runScript` points, resolved against the calling flow's folder. */
export type Resolved = { path: string } | { missing: string } | { notLiteral: true };

/** Everything the rules need about the snapshot's flows. */
export interface FlowSet {
  /** Every parsed flow: the discovered ones and the subflows they reach. */
  flows: Map<string, Flow>;
  /** Discovered flow paths (globs minus exclude), sorted. */
  discovered: string[];
  /** Paths the `flows` globs matched that `exclude` removed, of `matched`. */
  excluded: number;
  matched: number;
  workspaces: Map<string, MaestroWorkspace>;
  /** Workspace root of each discovered flow. */
  workspaceOf: Map<string, string>;
  entryPoints: Set<string>;
  /** Subflow path -> the commands that call it. */
  callers: Map<string, Command[]>;
  /** Resolution of each command's file reference. */
  resolved: Map<Command, Resolved>;
  /** How the entry points were chosen, for the notes. */
  entrySource: string;
}


/** The nearest `.maestro` folder holding `path`, else the static base of the first `flows` glob matching it. */
export function workspaceRootOf(path: string, flowGlobs: readonly string[]): string {
  const parts = path.split('/');
  for (let i = parts.length - 2; i >= 0; i--) if (parts[i] === '.maestro') return parts.slice(0, i + 1).join('/');
  for (const g of flowGlobs) if (picomatch(g, { dot: true })(path)) return picomatch.scan(g).base;
  return posix.dirname(path) === '.' ? '' : posix.dirname(path);
}

const rel = (root: string, path: string) => (root === '' ? path : path.slice(root.length + 1));
const join = (root: string, name: string) => (root === '' ? name : `${root}/${name}`);

export { selectFlowPaths } from './select.js';
import { selectFlowPaths } from './select.js';

/** Resolve a file reference of a flow at `from`: relative to its folder; `${…}` is not a literal; outside the repository is missing. */
export function resolveRef(from: string, raw: string): Resolved {
  if (hasExpression(raw)) return { notLiteral: true };
  if (raw.startsWith('/')) return { missing: raw };
  const p = posix.normalize(posix.join(posix.dirname(from), raw));
  if (p === '..' || p.startsWith('../')) return { missing: p };
  return { path: p };
}

/**
 * Discover, read and link the snapshot's flows through `ws` (index in staged mode: nothing from the working tree).
 * Subflows reached by runFlow / retry.file are read whatever the globs say; scripts are only looked up.
 */
export async function discoverFlows(ws: Workspace, config: MaestroFlowsConfig, signal?: AbortSignal): Promise<FlowSet> {
  const all = await ws.allPaths();
  const { selected, matched, excluded } = selectFlowPaths(all, config);
  const workspaces = new Map<string, MaestroWorkspace>();
  const workspaceOf = new Map<string, string>();
  const discovered: string[] = [];
  const present = new Set(all);
  for (const p of selected) {
    const root = workspaceRootOf(p, config.flows);
    if (WORKSPACE_CONFIG.test(p) && posix.dirname(p) === (root === '' ? '.' : root)) continue;
    discovered.push(p);
    workspaceOf.set(p, root);
  }
  for (const root of new Set(workspaceOf.values())) workspaces.set(root, await readWorkspace(ws, root, present));

  const flows = new Map<string, Flow>();
  const resolved = new Map<Command, Resolved>();
  const callers = new Map<string, Command[]>();
  const queue = [...discovered];
  while (queue.length) {
    signal?.throwIfAborted();
    const p = queue.shift()!;
    if (flows.has(p)) continue;
    const flow = parseFlow(p, await ws.readText(p));
    flows.set(p, flow);
    for (const list of flowLists(flow)) {
      for (const cmd of allCommands(list)) {
        if (!cmd.ref) continue;
        const r = resolveRef(p, cmd.ref.raw);
        if ('path' in r && !present.has(r.path)) {
          resolved.set(cmd, { missing: r.path });
          continue;
        }
        resolved.set(cmd, r);
        if (cmd.ref.kind === 'flow' && 'path' in r) {
          const list = callers.get(r.path) ?? [];
          list.push(cmd);
          callers.set(r.path, list);
          if (!flows.has(r.path)) queue.push(r.path);
        }
      }
    }
  }

  const entryPoints = new Set<string>();
  let entrySource: string;
  if (config.entryPoints) {
    const m = picomatch(config.entryPoints, { dot: true });
    for (const p of discovered) if (m(p)) entryPoints.add(p);
    entrySource = 'gates.maestro-flows.entryPoints';
  } else {
    for (const p of discovered) {
      const w = workspaces.get(workspaceOf.get(p)!)!;
      const flow = flows.get(p)!;
      if (!picomatch(w.flowGlobs, { dot: true })(rel(w.root, p))) continue;
      if (w.includeTags.length && !flow.tags.some((t) => w.includeTags.includes(t))) continue;
      if (flow.tags.some((t) => w.excludeTags.includes(t))) continue;
      entryPoints.add(p);
    }
    // A flow another flow calls is a subflow even when the globs select it (duckduckgo's `flows: ["**"]` selects its
    // steps/ helpers too; its CI picks the tests by tag): its end is judged by what each caller does next.
    for (const p of [...entryPoints]) if (callers.has(p)) entryPoints.delete(p);
    const configs = [...workspaces.values()].filter((w) => w.configPath).map((w) => w.configPath!);
    entrySource = configs.length ? `workspace config ${configs.join(', ')}` : 'top-level flows of each workspace (no config.yaml)';
  }
  return { flows, discovered: discovered.sort(), excluded, matched, workspaces, workspaceOf, entryPoints, callers, resolved, entrySource };
}

async function readWorkspace(ws: Workspace, root: string, present: ReadonlySet<string>): Promise<MaestroWorkspace> {
  const w: MaestroWorkspace = { root, flowGlobs: ['*'], includeTags: [], excludeTags: [], problems: [] };
  const configPath = ['config.yaml', 'config.yml'].map((n) => join(root, n)).find((p) => present.has(p));
  if (!configPath) return w;
  w.configPath = configPath;
  const lc = new LineCounter();
  const doc = parseDocument(await ws.readText(configPath), { lineCounter: lc, uniqueKeys: false });
  const at = (offset: number | undefined) => {
    const p = lc.linePos(offset ?? 0);
    return { line: p.line, column: p.col };
  };
  for (const err of doc.errors) {
    const lp = err.linePos?.[0];
    w.problems.push({ pos: lp ? { line: lp.line, column: lp.col } : { line: 1, column: 1 }, message: `workspace config does not parse as YAML: ${err.message.split('\n')[0]}` });
  }
  if (doc.errors.length) return w;
  if (doc.contents !== null && !isMap(doc.contents)) {
    w.problems.push({ pos: at(doc.contents.range?.[0]), message: 'workspace config is not a map (flows:, includeTags:, excludeTags:)' });
    return w;
  }
  const strings = (key: string): string[] | undefined => {
    const node = isMap(doc.contents) ? doc.contents.get(key, true) : undefined;
    if (node === undefined || node === null) return undefined;
    if (!isSeq(node) || !node.items.every((i) => isScalar(i) && typeof i.value === 'string')) {
      w.problems.push({ pos: at((node as unknown as Node).range?.[0]), message: `workspace config ${key} must be a list of strings` });
      return undefined;
    }
    return node.items.map((i) => String((i as { value: unknown }).value));
  };
  w.flowGlobs = strings('flows') ?? w.flowGlobs;
  w.includeTags = strings('includeTags') ?? [];
  w.excludeTags = strings('excludeTags') ?? [];
  return w;
}

/**
 * The flows a staged change can break: each `seed` (a staged or deleted flow path) and, transitively, every flow
 * that reaches it through runFlow / retry.file (a changed helper changes what its callers' taps are followed by).
 */
export function withCallers(set: FlowSet, seeds: Iterable<string>): Set<string> {
  const out = new Set<string>();
  const queue = [...seeds];
  while (queue.length) {
    const p = queue.pop()!;
    if (out.has(p)) continue;
    out.add(p);
    for (const c of set.callers.get(p) ?? []) queue.push(c.list.flow.path);
  }
  // Deleted paths are seeds, not flows: only what is still there is judged.
  return new Set([...out].filter((p) => set.flows.has(p)));
}

/** Every command that calls `path`'s flow (or the deleted path), for staged deletions. */
export function callersOfMissing(set: FlowSet, path: string): Command[] {
  const out: Command[] = [];
  for (const [cmd, r] of set.resolved) if ('missing' in r && r.missing === path) out.push(cmd);
  return out;
}

/** CI files that pin a Maestro version. */
const CI_FILE = /^(\.github\/workflows\/[^/]+\.ya?ml|\.gitlab-ci\.ya?ml|bitrise\.ya?ml|\.circleci\/config\.ya?ml|codemagic\.ya?ml|azure-pipelines\.ya?ml|\.buildkite\/[^/]+\.ya?ml|.*maestro[^/]*\.sh)$/i;
const PINNED = /MAESTRO_VERSION["']?\s*[:=]\s*["']?v?(\d+\.\d+(?:\.\d+)?)/g;

/** The lowest Maestro version pinned by CI files of the snapshot (`MAESTRO_VERSION=1.39.0`), with where it was found. */
export async function detectMaestroVersion(ws: Workspace): Promise<{ version: string; from: string } | undefined> {
  let best: { version: string; from: string } | undefined;
  for (const p of await ws.allPaths()) {
    if (!CI_FILE.test(p)) continue;
    for (const m of (await ws.readText(p)).matchAll(PINNED)) {
      if (!best || compareVersions(m[1]!, best.version) < 0) best = { version: m[1]!, from: p };
    }
  }
  return best;
}

/** Compare dotted versions numerically: negative when a < b. */
export function compareVersions(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d) return d;
  }
  return 0;
}
