// The loopgates.yaml install writes when a repository has none: core/config.ts's commented default for the platforms
// detected from the repository's files (core/platform.ts), with each built-in gate enabled only where its own input
// discovery (the gate's inputs() over the repository as `run --all` reads it) finds something to judge. A gate left
// off would make every `run --all` vacuous (exit 2); a gate whose discovery fails stays on (fail closed).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_TIMEOUT_MS, defaultConfigText } from '../../core/config.js';
import type { ConfiguredGate } from '../../core/config-model.js';
import { discoverInputs, type InputDiscovery } from '../../core/inputs.js';
import { detectPlatformsAt, type Platform } from '../../core/platform.js';
import type { GateSettings } from '../../core/runner.js';
import { treeWorkspace } from '../../core/snapshot.js';
import { builtinGates } from '../../gates/registry.js';

/** Why a gate with zero inputs is left off, in the words install and doctor print. */
export function noInputWhy(d: InputDiscovery): string {
  return `no input in this repository (it reads: ${d.gate.loop.reads.replace(/\s+/g, ' ')})`;
}

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
 * The default config text for the repository at `top` (absolute), the platforms it was written for, and the
 * built-in gates left off with why. In a repository with no file at all every gate stays on: nothing shows yet
 * what it will hold.
 */
export async function defaultConfigFor(top: string): Promise<{ text: string; platforms: Platform[]; leftOff: Array<{ gate: string; why: string }> }> {
  const platforms = await detectPlatformsAt(top);
  const defaults = builtinGates.map((gate) => ({ gate, config: gate.configSchema.parse({}), timeoutMs: DEFAULT_TIMEOUT_MS }));
  const { files, found } = await repositoryInputs(top, defaults);
  const leftOff = files === 0 ? [] : found.filter((d) => d.inputs === 0 && d.error === undefined).map((d) => ({ gate: d.gate.id, why: noInputWhy(d) }));
  return { text: defaultConfigText(platforms, builtinGates, new Map(leftOff.map((l) => [l.gate, l.why]))), platforms, leftOff };
}
