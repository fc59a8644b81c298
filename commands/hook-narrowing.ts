// A commit that keeps a gate enabled but points its filters away from the repository's files is switching it off by
// another name (fresh-user-6 G2: `exclude: ["**/*.kt", "**/*.xml"]`, or `allow: ["[A-Za-z]"]`, then hard-coded text
// lands). Loaded by the hook's quiet-disable step only for a commit that changes loopgates.yaml.
import { join } from 'node:path';
import type { ConfiguredGate } from '../core/config-model.js';
import type { GateContext, SelfTestCase, Workspace } from '../core/types.js';
import { runTool } from '../core/tools.js';
import { runCase } from '../mutations/selftest.js';
import { runGate } from '../core/runner.js';

/** What a staged config takes from one gate that HEAD's config gave it. */
export interface Narrowing {
  gate: string;
  /** `3 files it reads under HEAD's loopgates.yaml (a.kt, b.kt, …)` or `allow entry "[A-Za-z]" hides its own red case "…"`. */
  what: string;
  /** The files other than loopgates.yaml that narrow it (`.gitleaks.toml`, a file it extends; `what` then starts with its name). */
  by?: string | readonly string[];
}

/**
 * The gates enabled under both configs whose staged settings read fewer of the repository's files (every path of
 * `ws`, judged by the gate's own `inputs()`), or whose new candidate-filter entries (Gate.filters.candidates) make
 * one of the gate's shipped red cases pass, or (built-in gates whose settings differ) under which an error finding the
 * gate reports in the tracked tree with HEAD's settings is no longer reported (fresh-user-8 F1: `allow: ['^About']`
 * staged with `setTitle("About this app")`; G1b: the same entry alone, the text already in the tree; a rule turned off
 * or to warning). Command gates are judged by their files only. `say` gets a progress line before a tree run.
 */
export async function narrowedGates(
  ws: Workspace,
  head: readonly ConfiguredGate[],
  staged: readonly ConfiguredGate[],
  cacheRoot: string,
  signal: AbortSignal,
  say: (line: string) => void = () => {},
): Promise<Narrowing[]> {
  const out: Narrowing[] = [];
  const every = { ...ws, targets: () => ws.allPaths() } as Workspace;
  for (const now of staged) {
    const before = head.find((g) => g.gate.id === now.gate.id);
    if (!now.enabled || !before?.enabled) continue;
    const read = async (g: ConfiguredGate) => {
      const ctx: GateContext<any> = { ws: every, config: g.settings.config, signal, runTool, cacheDir: join(cacheRoot, g.gate.id), log: () => {} };
      try {
        return new Set(await g.gate.inputs(ctx));
      } catch {
        return new Set<string>(); // a config that cannot select is refused by the gate's own run
      }
    };
    const was = await read(before);
    const is = await read(now);
    const dropped = [...was].filter((p) => !is.has(p)).sort();
    if (dropped.length) {
      const sample = dropped.slice(0, 3).join(', ') + (dropped.length > 3 ? ', …' : '');
      out.push({ gate: now.gate.id, what: `${dropped.length} file${dropped.length === 1 ? '' : 's'} it reads under HEAD's loopgates.yaml (${sample})` });
      continue;
    }
    const hidden = (await hidingEntry(now, before, cacheRoot, signal)) ?? (await hiddenFindings(ws, every, was, now, before, cacheRoot, signal, say));
    if (hidden) out.push({ gate: now.gate.id, what: hidden });
  }
  return out;
}

/**
 * The error findings the gate reports under HEAD's settings and not under the staged ones, described (file:line, and
 * the settings that changed). Run only for a built-in gate whose settings the commit changes, so an ordinary commit
 * pays nothing. Judged over the whole tracked tree (`every`: the index's files the gate selects, `selected`), not only
 * the staged files (G1b): an allow entry committed alone hides what the tree already holds and waves it, and the next
 * commit's text, through. A gate that judges the change alone (secrets: gitleaks over the staged diff) is judged on
 * the staged files. A tree run that cannot judge (a timeout, a tool error) refuses: nothing proved the change harmless.
 * Where findings depend on their own file only (Gate.findingsPerFile), the staged settings' run reads just the files
 * HEAD's run found something in.
 */
async function hiddenFindings(
  ws: Workspace,
  every: Workspace,
  selected: ReadonlySet<string>,
  now: ConfiguredGate,
  before: ConfiguredGate,
  cacheRoot: string,
  signal: AbortSignal,
  say: (line: string) => void,
): Promise<string | undefined> {
  if (now.source !== 'builtin' || JSON.stringify(now.settings.config) === JSON.stringify(before.settings.config)) return undefined;
  const changed = settingsChange(before.settings.config, now.settings.config);
  const tree = !now.gate.judgesChangeOnly;
  const where = tree ? ` (judged against the tracked tree, ${selected.size} file${selected.size === 1 ? '' : 's'})` : '';
  if (tree) say(`${now.gate.id}: loopgates.yaml changes its settings (${changed}): judging them against the tracked tree (${selected.size} file${selected.size === 1 ? '' : 's'})…`);
  const errors = async (g: ConfiguredGate, scope: Workspace) => {
    const r = await runGate(g.settings, { ws: scope, cacheRoot, signal });
    if (r.verdict === 'error') return { failed: r.error?.message ?? r.reason ?? 'error' };
    return { found: r.findings.filter((f) => f.severity === 'error').map((f) => ({ file: f.file, key: `${f.file}:${f.line} ${f.rule}` })) };
  };
  const cannot = (why: string) => `settings (${changed}) whose effect could not be judged against the tracked tree: ${why}`;
  const was = await errors(before, tree ? every : ws);
  if (was.failed !== undefined) return tree ? cannot(was.failed) : undefined;
  if (!was.found.length) return undefined;
  const files = [...new Set(was.found.map((f) => f.file))];
  const scope = !tree ? ws : now.gate.findingsPerFile ? ({ ...every, targets: async () => files } as Workspace) : every;
  const is = await errors(now, scope);
  // A staged-files run that cannot judge is refused by the gate's own run; a tree run is not, so it refuses here.
  if (is.failed !== undefined) return tree ? cannot(is.failed) : undefined;
  // As multisets: a second copy of a literal hidden while the first stays reported is hidden too.
  const left = new Map<string, number>();
  for (const { key } of is.found) left.set(key, (left.get(key) ?? 0) + 1);
  const gone = was.found.filter(({ key }) => {
    const n = left.get(key) ?? 0;
    if (n) left.set(key, n - 1);
    return !n;
  });
  if (!gone.length) return undefined;
  const sample = gone.slice(0, 3).map((g) => g.key).join(', ') + (gone.length > 3 ? ', …' : '');
  return `${gone.length} finding${gone.length === 1 ? '' : 's'} it reports under HEAD's loopgates.yaml (${sample}), hidden by ${changed}${where}`;
}

/**
 * What a gate's staged settings change from HEAD's, in words: `allow entry "^About"`, `attributes.android without
 * "android:text"`, `honorLintIgnore: false (HEAD: true)`; three at most.
 */
export function settingsChange(before: unknown, now: unknown): string {
  const out: string[] = [];
  const some = (xs: string[]) => xs.slice(0, 3).join(', ') + (xs.length > 3 ? ', …' : '');
  const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
  const walk = (a: unknown, b: unknown, path: string) => {
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    if (Array.isArray(a) || Array.isArray(b)) {
      const had = (Array.isArray(a) ? a : []).map((e) => JSON.stringify(e));
      const has = (Array.isArray(b) ? b : []).map((e) => JSON.stringify(e));
      const added = has.filter((e) => !had.includes(e));
      const removed = had.filter((e) => !has.includes(e));
      if (added.length) out.push(`${path} ${added.length === 1 ? 'entry' : 'entries'} ${some(added)}`);
      if (removed.length) out.push(`${path} without ${some(removed)}`);
      if (!added.length && !removed.length) out.push(`${path} reordered`);
      return;
    }
    if (isRecord(a) && isRecord(b)) {
      for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) walk(a[k], b[k], path ? `${path}.${k}` : k);
      return;
    }
    out.push(`${path}: ${JSON.stringify(b) ?? 'unset'} (HEAD: ${JSON.stringify(a) ?? 'unset'})`);
  };
  walk(before, now, '');
  return out.length ? some(out) : 'its settings';
}

/** The first new candidate-filter entry under which a shipped red case of the gate is no longer caught, described. */
async function hidingEntry(now: ConfiguredGate, before: ConfiguredGate, cacheRoot: string, signal: AbortSignal): Promise<string | undefined> {
  const paths = now.gate.filters?.candidates ?? [];
  if (now.source !== 'builtin' || !paths.length) return undefined;
  let red: SelfTestCase[] | undefined;
  for (const path of paths) {
    const had = new Set(arrayAt(before.settings.config, path).map((e) => JSON.stringify(e)));
    for (const entry of arrayAt(now.settings.config, path)) {
      if (had.has(JSON.stringify(entry))) continue;
      red ??= (await now.gate.selfTest()).filter((c) => c.kind === 'red');
      for (const c of red) {
        const defaults = arrayAt(now.gate.configSchema.parse(c.config ?? {}), path);
        const config = withArrayAt(c.config ?? {}, path, [...defaults, entry]);
        const settings = { gate: now.gate, config: undefined, timeoutMs: now.settings.timeoutMs };
        const hiddenRun = await runCase(settings, { ...c, config }, { cacheRoot, signal });
        if (hiddenRun.outcome === 'caught') continue;
        const plain = await runCase(settings, c, { cacheRoot, signal });
        if (plain.outcome === 'caught') return `${path} entry ${JSON.stringify(entry)} hides its own red case "${c.name}"`;
      }
    }
  }
  return undefined;
}

function arrayAt(config: unknown, path: string): unknown[] {
  let v: unknown = config;
  for (const k of path.split('.')) v = v && typeof v === 'object' && Object.hasOwn(v, k) ? (v as Record<string, unknown>)[k] : undefined;
  return Array.isArray(v) ? v : [];
}

function withArrayAt(config: unknown, path: string, value: unknown[]): unknown {
  const keys = path.split('.');
  const root: Record<string, unknown> = { ...(config as Record<string, unknown>) };
  let at = root;
  for (const k of keys.slice(0, -1)) {
    const next = at[k];
    at = at[k] = { ...(next && typeof next === 'object' ? (next as Record<string, unknown>) : {}) };
  }
  at[keys[keys.length - 1]!] = value;
  return root;
}
