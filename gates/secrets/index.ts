// Secrets gate: gitleaks (https://github.com/gitleaks/gitleaks, README "Usage", ".gitleaksignore", "Exit Codes")
// scans what a commit would record; a canary credential proves on each new binary/config that it can see.
// This module is what every commit loads (metadata, config schema, inputs); the scan itself is in scan.ts.
import { z } from 'zod';
import { lazySchema } from '../../core/lazy-schema.js';
import type { Gate } from '../../core/types.js';
import { injectCredential, secretsSelfTest } from './cases.js';

/** loopgates.yaml `gates.secrets`: `scanTimeoutMs` bounds one gitleaks process (ms; the gate's own timeoutMs bounds the whole gate). */
export const secretsConfigSchema = lazySchema(() =>
  z
    .object({
      scanTimeoutMs: z.number().int().positive().default(120_000),
    })
    .strict(),
);

export type SecretsConfig = z.infer<typeof secretsConfigSchema>;

export const GATE_ID = 'secrets';

/** The gitleaks config a scan uses, read from the snapshot's root (scan.ts). */
export const CONFIG_FILE = '.gitleaks.toml';

/** The secrets gate (registered in gates/registry.ts). */
export const secretsGate: Gate<SecretsConfig> = {
  id: GATE_ID,
  title: 'Secrets (gitleaks)',
  loop: {
    runs: 'gitleaks over the staged changes (protect --staged in the repository, with the hook\'s index), or over the named files copied to a scratch dir; first each generated canary credential (AWS key, GitHub token, PEM block) in a scratch index must be reported',
    reads: 'every staged (or named) file but .gitleaks.toml (its config), the snapshot\'s .gitleaks.toml and .gitleaksignore; files gitleaks skips by path are scanned under a neutral name (default config) or named as not scanned (a team allowlist); a tree scan (run --all) skips yarn\'s vendored bundles (.yarn/releases, .yarn/plugins, .pnp.cjs, .pnp.loader.mjs), counted and named',
    ends: 'pass when gitleaks reports no credential outside .gitleaksignore, every canary credential was reported and no input was too large to scan; bounded by scanTimeoutMs per gitleaks process and the gate timeout',
    asks: 'never: a staged credential refuses the commit; a blind or missing scanner is an error (exit 2); a credential waved through only by a .gitleaksignore entry or gitleaks:allow comment the same commit adds, or a staged .gitleaks.toml that reports less than HEAD\'s, refuses it unless LOOPGATES_ALLOW_DISABLE=secrets says so',
  },
  configSchema: secretsConfigSchema,
  // .gitleaks.toml is the scanner's config, read by the gate; gitleaks itself never scans it (its default allowlist
  // names it), so it is no input: a commit that only edits it is a skip, not a pass over nothing.
  // Symbolic links too: git stores a link's target path as its content, and gitleaks scans that text.
  inputs: async (ctx) => [...(await ctx.ws.targets()), ...((await ctx.ws.links?.()) ?? [])].filter((p) => p !== CONFIG_FILE).sort(),
  run: async (ctx, inputs) => (await import('./scan.js')).runSecrets(ctx, inputs),
  exemptions: async (ctx, inputs) => (await import('./scan.js')).secretsExemptions(ctx, inputs),
  selfTest: secretsSelfTest,
  mutations: [injectCredential],
  // gitleaks reports per file, and its start-up (rule compilation) is most of a run: mutate stages mutants together.
  mutationBatch: 64,
  // gitleaks protect --staged scans the lines the staged diff adds: every finding is the commit's, so no HEAD side is
  // judged (a credential already in history is not this gate's question; a file scanned whole, UTF-16 or hidden from
  // git diff, counts whole: stricter, never laxer).
  judgesChangeOnly: true,
};
