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
  /** The file other than loopgates.yaml that narrows it (`.gitleaks.toml`; `what` then starts with its name). */
  by?: string;
}

/**
 * The gates enabled under both configs whose staged settings read fewer of the repository's files (every path of
 * `ws`, judged by the gate's own `inputs()`), or whose new candidate-filter entries (Gate.filters.candidates) make
 * one of the gate's shipped red cases pass, or (built-in gates whose settings differ) under which an error finding the
 * gate reports on the staged files with HEAD's settings is no longer reported (fresh-user-8 F1: `allow: ['^About']`
 * staged with `setTitle("About this app")`; a rule turned off or to warning). Command gates are judged by their files only.
 */
export async function narrowedGates(ws: Workspace, head: readonly ConfiguredGate[], staged: readonly ConfiguredGate[], cacheRoot: string, signal: AbortSignal): Promise<Narrowing[]> {
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
    const hidden = (await hidingEntry(now, before, cacheRoot, signal)) ?? (await hiddenFindings(ws, now, before, cacheRoot, signal));
    if (hidden) out.push({ gate: now.gate.id, what: hidden });
  }
  return out;
}

/**
 * The error findings the gate reports on `ws`'s staged files under HEAD's settings and not under the staged ones,
 * described (file:line). Two runs of the gate, only for a built-in gate whose settings the commit changes; a staged
 * run that cannot judge is refused by the gate's own run, so it hides nothing here.
 */
async function hiddenFindings(ws: Workspace, now: ConfiguredGate, before: ConfiguredGate, cacheRoot: string, signal: AbortSignal): Promise<string | undefined> {
  if (now.source !== 'builtin' || JSON.stringify(now.settings.config) === JSON.stringify(before.settings.config)) return undefined;
  const errors = async (g: ConfiguredGate) => {
    const r = await runGate(g.settings, { ws, cacheRoot, signal });
    return r.verdict === 'error' ? undefined : r.findings.filter((f) => f.severity === 'error').map((f) => `${f.file}:${f.line} ${f.rule}`);
  };
  const was = await errors(before);
  if (!was?.length) return undefined;
  const is = await errors(now);
  if (!is) return undefined;
  // As multisets: a second copy of a literal hidden while the first stays reported is hidden too.
  const left = new Map<string, number>();
  for (const k of is) left.set(k, (left.get(k) ?? 0) + 1);
  const gone = was.filter((k) => {
    const n = left.get(k) ?? 0;
    if (n) left.set(k, n - 1);
    return !n;
  });
  if (!gone.length) return undefined;
  const sample = gone.slice(0, 3).join(', ') + (gone.length > 3 ? ', …' : '');
  return `${gone.length} finding${gone.length === 1 ? '' : 's'} it reports under HEAD's loopgates.yaml (${sample})`;
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
