// string-parity: every locale of every string catalog agrees with its base catalog (Android strings.xml, Apple
// .strings/.stringsdict/.xcstrings, i18next/ICU JSON, gettext .po, Flutter .arb; formats and sources in model.ts).
// This module is what every commit loads: metadata, config schema, inputs() and the mutation operators. Discovery
// and the parsers (saxes, gettext-parser, ICU, make-plural, yaml) load only when a staged path can be a catalog;
// the checks load in run() from judge.ts.
import type { Finding, Gate, Workspace } from '../../core/types.js';
import type { DiscoveryOptions } from './catalogs.js';
import { configSchema, type StringParityConfig } from './config.js';
import { ANDROID_VALUES, mightBeCatalog, RULES, type RuleId } from './defaults.js';
import { stringParityMutations } from './mutations.js';
import { stringParitySelfTest } from './selftest.js';

export const GATE = 'string-parity';

// Discovery sees every path (no include/exclude) so a group keeps its base whatever the filters say; the filters
// then choose which catalog files are judged, and what they drop is counted as `filtered`.
// `focus`: in a staged or --files run, only the groups the targets can belong to are discovered and read (a commit of
// one translation reads its group, not every catalog of the repository); --all discovers everything.
export function discoveryOptions(c: StringParityConfig, focus?: readonly string[]): DiscoveryOptions {
  return { include: [], exclude: [], jsonFormat: c.jsonFormat, ...(c.developmentLanguage ? { developmentLanguage: c.developmentLanguage } : {}), ...(c.baseLocale ? { baseLocale: c.baseLocale } : {}), ...(focus ? { focus } : {}) };
}

/** Staged deletions of Android values files (catalogs.ts `lostAndroidDefaults` says which keys they take away). */
export async function androidDeletions(ws: Pick<Workspace, 'mode' | 'deletions'>): Promise<string[]> {
  if (ws.mode !== 'staged' || !ws.deletions) return [];
  return (await ws.deletions()).filter((p) => ANDROID_VALUES.test(p));
}

/**
 * Staged deletions of catalog-shaped files outside Android (`mightBeCatalog`): a deleted base can leave its
 * translations without one (catalogs.ts `orphanedByBaseDeletion`, rule `missing-base`).
 */
export async function otherCatalogDeletions(ws: Pick<Workspace, 'mode' | 'deletions'>): Promise<string[]> {
  if (ws.mode !== 'staged' || !ws.deletions) return [];
  return (await ws.deletions()).filter((p) => mightBeCatalog(p) && !ANDROID_VALUES.test(p));
}

/**
 * The discovery focus of a run over `ws`: its targets (plus, staged, its deleted Android values files, whose res
 * folder's translations can lose their defaults), except in --all mode (undefined: every group).
 */
export async function discoveryFocus(ws: Pick<Workspace, 'mode' | 'targets' | 'deletions'>): Promise<readonly string[] | undefined> {
  if (ws.mode === 'all') return undefined;
  const deleted = await androidDeletions(ws);
  return deleted.length ? [...(await ws.targets()), ...deleted] : ws.targets();
}

/** The string-parity gate (issue 3). */
export const stringParityGate: Gate<StringParityConfig> = {
  id: GATE,
  title: 'String catalogs agree with their base locale',
  loop: {
    runs: 'parses every string catalog the snapshot changes (or all, with --all) and compares each locale with its base catalog: placeholders, ICU syntax, CLDR plural categories, escaping, policy',
    reads: 'Android values*/strings.xml, *.lproj/*.strings|.stringsdict, *.xcstrings, i18next/ICU JSON, gettext .po, Flutter .arb, plus l10n.yaml and .linguirc for the base locale',
    ends: 'pass when every judged catalog file has no error finding; one pass over the files, bounded by timeoutMs',
    asks: 'never',
  },
  configSchema,
  selects: (config) => (config.include.length ? [{ key: 'include', globs: config.include }] : []),
  async inputs(ctx) {
    const targets = await ctx.ws.targets();
    const deleted = await androidDeletions(ctx.ws);
    const otherDeleted = await otherCatalogDeletions(ctx.ws);
    // Discovery lists and reads the whole snapshot; when no target has a catalog's path shape it cannot keep one.
    if (!targets.some(mightBeCatalog) && !deleted.length && !otherDeleted.length) return [];
    const { discoverCatalogs, lostAndroidDefaults, orphanedByBaseDeletion, pulledByLostDefaults } = await import('./catalogs.js');
    const set = await discoverCatalogs(ctx.ws, discoveryOptions(ctx.config, await discoveryFocus(ctx.ws)));
    const judged = targets.filter((p) => set.byPath.has(p));
    if (ctx.ws.mode !== 'staged') return judged;
    // A staged base changes what every translation of its group must match: the commit can make an unstaged
    // translation wrong, so each one is judged too, read from the same snapshot (judge.ts reports why).
    const seen = new Set(judged);
    const pulled: string[] = [];
    for (const p of judged) {
      const { group, file } = set.byPath.get(p)!;
      if (!file.isBase) continue;
      for (const f of group.files) if (!seen.has(f.path)) (seen.add(f.path), pulled.push(f.path));
    }
    // A staged change or deletion of an Android default (values/*.xml) that takes keys away can leave translations of
    // its res folder without defaults: they are judged for that (missing-default) only.
    const lost = await lostAndroidDefaults(ctx.ws, set, [...targets, ...deleted]);
    for (const p of pulledByLostDefaults(set, lost, deleted).keys()) if (!seen.has(p)) (seen.add(p), pulled.push(p));
    // A staged deletion of another format's base leaves its translations without one: judged for missing-base only.
    if (otherDeleted.length) for (const p of (await orphanedByBaseDeletion(ctx.ws, discoveryOptions(ctx.config), otherDeleted)).keys()) if (!seen.has(p)) (seen.add(p), pulled.push(p));
    return [...judged, ...pulled.sort()];
  },
  // inputs() is empty unless a staged or deleted path has a catalog's shape (mightBeCatalog): these cover
  // ANDROID_VALUES, APPLE_LPROJ and OTHER_CATALOG (`*` also matches `/`, so each is a superset).
  stagedPatterns: () => ['*res/values*/*.xml', '*.lproj/*.strings', '*.lproj/*.stringsdict', '*.xcstrings', '*.arb', '*.po', '*.pot', '*.json'],
  run: async (ctx, inputs) => (await import('./judge.js')).checkCatalogs(ctx, inputs),
  selfTest: stringParitySelfTest,
  mutations: stringParityMutations,
  // Error rules under the config; coverage-below-floor fires only with a minCoverage.
  refusingRules: (config) => (Object.keys(RULES) as RuleId[]).filter((r) => (config.rules[r] ?? RULES[r]) === 'error' && (r !== 'coverage-below-floor' || config.minCoverage > 0)),
  filters: { inputs: ['exclude'], includes: ['include'] },
};

export default stringParityGate;
export type { Finding };
