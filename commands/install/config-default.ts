// The loopgates.yaml install writes when a repository has none: core/config.ts's commented default for the platforms
// detected from the repository's files (core/platform.ts), every built-in gate enabled. A gate whose own input
// discovery (the gate's inputs() over the repository as `run --all` reads it) finds nothing yet is written with
// install's allowEmpty (NO_INPUT_YET): `run --all` then says `skip` with that reason instead of `vacuous` (exit 2), and
// the first commit that adds its inputs (catalogs, flows, UI code) is judged. Leaving it off instead let that commit
// land unchecked (fresh-user-3 F10). A gate whose discovery fails gets no allowEmpty (fail closed).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_TIMEOUT_MS, defaultConfigText, NPM_SCHEMA_PATH, yamlFlow } from '../../core/config.js';
import type { ConfiguredGate } from '../../core/config-model.js';
import { discoverInputs, type InputDiscovery } from '../../core/inputs.js';
import { messages } from '../../core/messages.js';
import { describePlatforms, detectPlatformsAt, type Platform } from '../../core/platform.js';
import type { GateSettings } from '../../core/runner.js';
import { treeWorkspace } from '../../core/snapshot.js';
import { builtinGates } from '../../gates/registry.js';

/** Why a gate has zero inputs, in the words install and doctor print. */
export function noInputWhy(d: InputDiscovery): string {
  return `no input in this repository (it reads: ${d.gate.loop.reads.replace(/\s+/g, ' ')})`;
}

/** Gate.unselected's files in words (core/messages.ts: run --all's skip says the same). */
export function unselectedWhat(d: InputDiscovery): string {
  return messages.unselected(d.unselected!.files);
}

/**
 * The allowEmpty install writes for a gate with no input yet; doctor recognises it (an info line once the gate has
 * inputs: the entry can go, so that finding none again is called vacuous).
 */
export const NO_INPUT_YET = 'no input in this repository when loopgates install ran; the first commit that adds some is judged';

/** Each gate's input count over the repository at `top` as `run --all` reads it (core/inputs.ts discoverInputs). */
export async function repositoryInputs(top: string, list: ReadonlyArray<GateSettings<any>>, env: Readonly<Record<string, string | undefined>> = {}): Promise<{ files: number; found: InputDiscovery[] }> {
  const ws = await treeWorkspace(top, 'all', undefined, env);
  const cacheRoot = mkdtempSync(join(tmpdir(), 'loopgates-discovery-'));
  try {
    return { files: (await ws.targets()).length, found: await discoverInputs(list, ws, cacheRoot) };
  } finally {
    rmSync(cacheRoot, { recursive: true, force: true });
  }
}

/** The settings `run` would use for configured gates (enabled ones only). */
export function enabledSettings(gates: readonly ConfiguredGate[]): GateSettings<any>[] {
  return gates.filter((g) => g.enabled).map((g) => g.settings);
}

/**
 * The default config text for the repository at `top` (absolute), the platforms it was written for (`detected`: them
 * in words, per package), and the built-in gates that have no input yet, with why (each written enabled, with
 * allowEmpty: NO_INPUT_YET). `mode`: install's (the `$schema` path into node_modules only in npm mode).
 */
export async function defaultConfigFor(
  top: string,
  mode: 'npm' | 'standalone' = 'npm',
  env: Readonly<Record<string, string | undefined>> = {},
): Promise<{ text: string; platforms: Platform[]; detected: string; waiting: Array<{ gate: string; why: string }>; unselected: Array<{ gate: string; what: string; fix: string }>; takenIn: Array<{ gate: string; what: string; settings: string }> }> {
  const detail = await detectPlatformsAt(top);
  const platforms = detail.platforms;
  const defaults = builtinGates.map((gate) => ({ gate, config: gate.configSchema.parse({}), timeoutMs: DEFAULT_TIMEOUT_MS }));
  const { found } = await repositoryInputs(top, defaults, env);
  // Files a gate's default selection leaves out, with the settings that take them in: written into the new config
  // (install would otherwise leave the gate reading none of them, and doctor red); the rest are named with the fix.
  const settings = new Map(found.filter((d) => d.unselected?.settings).map((d) => [d.gate.id, d.unselected!.settings!]));
  const waiting = found.filter((d) => d.inputs === 0 && d.error === undefined && !settings.has(d.gate.id)).map((d) => ({ gate: d.gate.id, why: noInputWhy(d) }));
  const unselected = found.filter((d) => d.unselected && !settings.has(d.gate.id)).map((d) => ({ gate: d.gate.id, what: unselectedWhat(d), fix: d.unselected!.fix }));
  const takenIn = found.filter((d) => settings.has(d.gate.id)).map((d) => ({ gate: d.gate.id, what: messages.takenIn(d.unselected!.files), settings: settingsWords(d.gate.id, settings.get(d.gate.id)!) }));
  const text = defaultConfigText(platforms, builtinGates, new Map(waiting.map((l) => [l.gate, l.why])), NO_INPUT_YET, mode === 'npm' ? NPM_SCHEMA_PATH : null, settings);
  return { text, platforms, detected: describePlatforms(detail), waiting, unselected, takenIn };
}

/** `gates.maestro-flows.flows: ["a/**\/*.yaml", …]`: settings as install writes them. */
function settingsWords(gate: string, settings: Record<string, unknown>): string {
  return Object.entries(settings).map(([k, v]) => `gates.${gate}.${k}: ${yamlFlow(v)}`).join('; ');
}
