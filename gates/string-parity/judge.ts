// string-parity: the checks over the judged catalog files (run()), loaded on demand by index.ts so that a commit
// staging no catalog never loads the parsers. The per-file judging is judge-files.ts (what a shard worker loads).
import picomatch from 'picomatch';
import type { GateContext, GateOutput } from '../../core/types.js';
import { excludeMatcher, removedEveryNote } from '../../core/inputs.js';
import { fingerprint } from '../../core/finding.js';
import { discoverCatalogs, headAndroidEntries, lostAndroidDefaults, orphanedByBaseDeletion, pulledByLostDefaults, useParseCache } from './catalogs.js';
import { RULES } from './defaults.js';
import type { StringParityConfig } from './config.js';
import type { CatalogEntry } from './model.js';
import { androidDeletions, discoveryFocus, discoveryOptions, otherCatalogDeletions } from './index.js';
import { judgeFiles, lintIgnoreOf, type JudgeJob, type LintIgnored } from './judge-files.js';

export { judgeFiles, type JudgeJob, type JudgeResult } from './judge-files.js';

function judgedFilter(c: StringParityConfig): (path: string) => boolean {
  const inc = c.include.length ? picomatch(c.include, { dot: true }) : () => true;
  const exc = excludeMatcher(c.exclude);
  return (p) => inc(p) && !exc(p);
}

/**
 * Run the checks over the catalog files `inputs` (repository-relative). Exported for tests and benchmarks.
 * In staged mode an input that is not staged is a translation whose base is staged (index.ts inputs()): it is
 * compared with the base as staged and only the parity findings the base change can cause are reported, in it.
 * Large runs (`--all` on a big repository) are split by file into shards judged in worker threads (shards.ts); the
 * findings are the same, in the same order, as one thread gives.
 */
export async function checkCatalogs(ctx: GateContext<StringParityConfig>, candidates: readonly string[]): Promise<GateOutput> {
  const config = ctx.config;
  const keep = judgedFilter(config);
  const inputs = candidates.filter(keep);
  const filtered = candidates.length - inputs.length;
  const staged = ctx.ws.mode === 'staged';
  const stagedPaths = staged ? await ctx.ws.targets() : null;
  // The commit path: what the commit leaves unchanged is parsed from the cache (parse-cache.ts).
  if (stagedPaths) useParseCache(ctx.ws, ctx.cacheDir, new Set(stagedPaths));
  const set = await discoverCatalogs(ctx.ws, discoveryOptions(config, await discoveryFocus(ctx.ws)));
  const notes: string[] = [...set.notes];
  const blind = removedEveryNote('gates.string-parity include/exclude', 'catalog file', filtered, candidates.length, `: include ${JSON.stringify(config.include)}, exclude ${JSON.stringify(config.exclude)}`);
  if (blind) notes.push(blind);
  else if (filtered) notes.push(`${filtered} of ${candidates.length} catalog files filtered by gates.string-parity include/exclude`);
  ctx.log(`${inputs.length} catalog file${inputs.length === 1 ? '' : 's'} to judge in ${new Set(inputs.map((p) => set.byPath.get(p)?.group.id)).size} group(s) of ${set.groups.length} discovered${filtered ? `; ${filtered} filtered` : ''}`);
  const deleted = await androidDeletions(ctx.ws);
  const lostDefaults = stagedPaths ? await lostAndroidDefaults(ctx.ws, set, [...stagedPaths, ...deleted]) : {};
  const pulled = stagedPaths ? pulledByLostDefaults(set, lostDefaults, deleted) : new Map<string, string>();
  const defaultsPulledBy = Object.fromEntries([...pulled].map(([p, by]) => [p, deleted.includes(by) ? `the staged deletion of ${by}` : `the staged change to ${by}`]));
  // Translations whose base (not Android) the commit deletes: one missing-base finding each. An unstaged one is judged
  // for nothing else (its content is not the commit's doing); a staged one is also judged as usual where discovery
  // still keeps it (a base-less .lproj group: its own syntax).
  const otherDeleted = await otherCatalogDeletions(ctx.ws);
  const orphaned = otherDeleted.length ? await orphanedByBaseDeletion(ctx.ws, discoveryOptions(config), otherDeleted) : new Map<string, never>();
  const orphanFindings: GateOutput['findings'] = [];
  const severity = config.rules['missing-base'] ?? RULES['missing-base'];
  for (const p of inputs) {
    const o = orphaned.get(p);
    if (!o || severity === 'off') continue;
    const why = stagedPaths?.includes(p) ? '' : ` (caused by the staged deletion of ${o.base}; ${p} is not staged)`;
    orphanFindings.push({
      rule: 'missing-base',
      file: p,
      line: 1,
      column: 1,
      message: `${o.locale}: the staged deletion of ${o.base} leaves this translation without its base catalog (${o.baseLocale}): the app has no ${o.baseLocale} text for its keys; restore the base (git restore --staged --worktree -- ${o.base}) or delete its translations in the same commit${why}`,
      severity,
      fingerprint: fingerprint('string-parity', 'missing-base', p, o.base),
    });
  }
  const judged = orphaned.size ? inputs.filter((p) => !orphaned.has(p) || stagedPaths?.includes(p)) : inputs;
  const job: JudgeJob = {
    config,
    staged,
    stagedPaths,
    inputs: judged,
    ...(pulled.size ? { defaultsPulledBy } : {}),
    ...(Object.keys(lostDefaults).length ? { lostDefaults } : {}),
  };
  // Threads are opt-in (shards.ts); without LOOPGATES_THREADS a commit does not load worker_threads at all.
  const sharded = process.env.LOOPGATES_THREADS ? await (await import('./shards.js')).judgeInShards(ctx.ws, set, job, ctx.signal, ctx.log) : null;
  const r = sharded ?? (await judgeFiles(ctx.ws, set, job, ctx.signal));
  const intOnly = Object.entries(r.intOnlyOther).sort(([a], [b]) => a.localeCompare(b));
  if (intOnly.length) {
    const n = intOnly.reduce((k, [, c]) => k + c, 0);
    notes.push(`${n} Android plural${n === 1 ? '' : 's'} without \`other\` (${intOnly.map(([l, c]) => `${l} ${c}`).join(', ')}): not an error, since no integer count selects \`other\` in ${intOnly.length === 1 ? 'that locale' : 'those locales'} (CLDR) and getQuantityString takes an int; a missing one/few/many still is`);
  }
  // Orphaned inputs judgeFiles did not count (left out above, or no longer in any catalog group).
  const orphans = inputs.filter((p) => orphaned.has(p) && !(judged.includes(p) && set.byPath.has(p))).length;
  const waived = r.lintIgnored ? await addedLintIgnores(ctx, r.lintIgnored) : [];
  return { findings: [...r.perInput.flat(), ...orphanFindings], counts: { files: r.files + orphans, items: r.items, filtered }, itemUnit: 'strings', notes, ...(waived.length ? { waived } : {}) };
}

/**
 * Of the keys a staged `tools:ignore` kept from missing-default, those whose element (by key) in HEAD's file had no
 * suppressing `tools:ignore`: the commit waives its own finding (GateOutput.waived; the hook refuses it), described
 * `file:line missing-default \`key\`, by the tools:ignore="<id>" it adds`, sorted by file and line. A HEAD side that
 * cannot be read counts as not having it.
 */
async function addedLintIgnores(ctx: GateContext<StringParityConfig>, spots: readonly LintIgnored[]): Promise<string[]> {
  if (severityOfMissingDefault(ctx.config) === 'off') return [];
  const out: LintIgnored[] = [];
  const heads = new Map<string, Map<string, CatalogEntry> | null>();
  for (const s of spots) {
    if (!heads.has(s.path)) {
      const entries = await headAndroidEntries(ctx.ws, s.path);
      heads.set(s.path, entries && new Map(entries.map((e) => [e.key, e])));
    }
    const had = heads.get(s.path)?.get(s.key);
    if (!had || !lintIgnoreOf(had)) out.push(s);
  }
  out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
  return out.map((s) => `${s.path}:${s.line} missing-default \`${s.key}\`, by the tools:ignore="${s.id}" it adds`);
}

function severityOfMissingDefault(c: StringParityConfig) {
  return c.rules['missing-default'] ?? RULES['missing-default'];
}
