// dump-audit: Android `uiautomator dump` window hierarchies (AOSP AccessibilityNodeInfoDumper's XML, see
// scripts/device/dump.ts) judged for what the tap loop needs: every control addressable by a label, no label that taps
// two controls, no control without area, and on-screen text the string catalog holds. Spec: issue 13; README.md beside
// this file. This module is what every commit loads: metadata, config schema, input selection, mutation operators.
import { z } from 'zod';
import { lazySchema } from '../../core/lazy-schema.js';
import { outputFolderExcludes, selectInputs } from '../../core/inputs.js';
import type { Gate } from '../../core/types.js';
import { RULES } from './audit.js';
import { dumpAuditMutations } from './mutations.js';

export const GATE_ID = 'dump-audit';

/** Committed dumps: `*.uix` (uiautomatorviewer's save format) and `window_dump*.xml` (uiautomator dump's default name). */
export const DEFAULT_INCLUDE: readonly string[] = ['**/*.uix', '**/window_dump*.xml'];
// Build output not below src/ (core/exclude.ts); installed packages and Gradle's cache anywhere.
export const DEFAULT_EXCLUDE: readonly string[] = [...outputFolderExcludes('build'), '**/node_modules/**', '**/.gradle/**'];

export const configSchema = lazySchema(() =>
  z
    .object({
      include: z
        .array(z.string().min(1))
        .default([...DEFAULT_INCLUDE])
        .describe(`Globs of the dump files judged (default ${DEFAULT_INCLUDE.join(', ')}); with globs of your own, a run --all that finds none is vacuous.`),
      exclude: z.array(z.string().min(1)).default([...DEFAULT_EXCLUDE]).describe('Globs of paths never judged; an entry starting with `!` takes back what an earlier one excluded (the last match decides).'),
      catalogText: z
        .enum(['error', 'warning', 'off'])
        .default('warning')
        .describe('Severity of on-screen text that is no value of the base string catalog (hard-coded text), when the repository has catalogs. Default warning: a dump also shows user data.'),
    })
    .strict(),
);

export type DumpAuditConfig = z.infer<typeof configSchema>;

/**
 * The inputs among `paths`: included, not excluded (core/inputs.ts). An exclude entry that matches every dump the gate
 * could read (`**`) is refused, not a quiet skip.
 */
export function selectDumps(paths: readonly string[], config: DumpAuditConfig): string[] {
  return selectInputs(paths, {
    gate: GATE_ID,
    include: config.include,
    exclude: config.exclude,
    reads: (p) => p.endsWith('.uix') || p.endsWith('.xml'),
    probePaths: ['app/src/androidTest/assets/window_dump.xml', 'screens/home.uix'],
    probeWhat: 'uiautomator dumps (*.uix, window_dump*.xml)',
    blindTo: 'a control an agent cannot tap',
  });
}

export const dumpAuditGate: Gate<DumpAuditConfig> = {
  id: GATE_ID,
  title: 'Screen dumps an agent can drive',
  loop: {
    runs: 'parses committed uiautomator dumps (*.uix, window_dump*.xml) and judges each node the way loopgates tap resolves labels',
    reads: 'the staged (or all) dump files matched by include/exclude, and the base string catalogs for on-screen text',
    ends: 'one pass over the inputs; passes when every clickable or focusable node is addressable by a label of its own, no control has zero area, and no dump is torn',
    asks: 'never',
  },
  configSchema,
  filters: { inputs: ['exclude'], includes: ['include'] },
  // Most repositories commit no dump: with the default globs, none is not a blind gate (run --all stays green).
  emptyAllowed: (config) =>
    config.include.length === DEFAULT_INCLUDE.length && config.include.every((g, i) => g === DEFAULT_INCLUDE[i]) ? 'no uiautomator dump files (*.uix, window_dump*.xml) in this repository' : undefined,
  // The stored hook starts node only for a commit staging a dump (own include globs: every commit).
  stagedPatterns: (config) => (config.include.every((g, i) => g === DEFAULT_INCLUDE[i]) && config.include.length === DEFAULT_INCLUDE.length ? ['*.uix', '*window_dump*.xml'] : ['*']),
  inputs: async (ctx) => selectDumps(await ctx.ws.targets(), ctx.config),
  run: async (ctx, inputs) => (await import('./judge.js')).judge(ctx, inputs),
  selfTest: async () => (await import('./selftest.js')).dumpAuditSelfTest(),
  mutations: dumpAuditMutations,
  // text-not-in-catalog refuses only with catalogText: error.
  refusingRules: (config) => Object.values(RULES).filter((r) => r !== RULES.notInCatalog || config.catalogText === 'error'),
};

export default dumpAuditGate;
