// The shapes of a loaded loopgates.yaml and the checks that need no parser, apart from core/config.ts (YAML and
// zod) so the commit path can use a cached configuration (core/config-cache.ts) without loading either.
import type { ZodTypeAny } from 'zod';
import { LoopgatesError } from './errors.js';
import { messages } from './messages.js';
import type { GateSettings } from './runner.js';
import type { Gate, LoopAnswers } from './types.js';
import type { DeviceSection } from '../scripts/device/config.js';
import type { RetrySection } from '../scripts/retry/signatures.js';

/** The config file's name, at the repository's top level. */
export const CONFIG_FILE = 'loopgates.yaml';

/** Per-gate bound when loopgates.yaml sets none, in ms. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** One gate as configured: the gate, whether it runs, and what the runner needs. */
export interface ConfiguredGate {
  gate: Gate<any>;
  enabled: boolean;
  /** `builtin` from the registry's built-in gates; `command` from loopgates.yaml `commands:`. */
  source: 'builtin' | 'command';
  settings: GateSettings<any>;
}

/** A loaded configuration. `found` is false when there is no loopgates.yaml (defaults used; the run says so). */
export interface LoadedConfig {
  /** Absolute path of loopgates.yaml (whether or not it exists). */
  file: string;
  found: boolean;
  /** Every gate in report order (built-in gates, then command gates), enabled or not. */
  gates: ConfiguredGate[];
  /** loopgates.yaml `retry:` (the repository's signatures and the anti-loop bounds); absent when not given or cached. */
  retry?: RetrySection;
  /** loopgates.yaml `device:` (the app's package for `tap`); absent when not given or cached. */
  device?: DeviceSection;
}

/**
 * The kind of gate built from loopgates.yaml `commands:` (gates/command/), handed to config loading so core imports
 * no gate: the zod schema of the `commands:` list, the builder, and a built gate's spec (what the config cache
 * stores to rebuild it; undefined for any other gate).
 */
export interface CommandGateKind {
  schema: ZodTypeAny;
  build(list: never): Gate<any>[];
  specOf(gate: Gate<any>): unknown;
}

/**
 * What the verbs hand to config loading (gates/registry.ts `gateRegistry`): the built-in gates in report order and
 * the command-gate kind, loaded on demand (the commit path loads it only for a config that has command gates).
 */
export interface GateRegistry {
  builtins: ReadonlyArray<Gate<any>>;
  commands(): Promise<CommandGateKind>;
}

/** Options for loading: the built-in gates (tests pass toy gates) and the command-gate kind. */
export interface ConfigOptions {
  gates: ReadonlyArray<Gate<any>>;
  commands: CommandGateKind;
}

/** The four answers, in the order `explain` and the default config print them. */
export const ANSWERS: ReadonlyArray<keyof LoopAnswers> = ['runs', 'reads', 'ends', 'asks'];

/** The four answers a gate leaves empty or missing (DESIGN.md "the four answers"); empty array when complete. */
export function missingAnswers(gate: Pick<Gate, 'loop'>): string[] {
  const loop = (gate.loop ?? {}) as unknown as Partial<Record<string, unknown>>;
  return ANSWERS.filter((k) => typeof loop[k] !== 'string' || (loop[k] as string).trim() === '');
}

/** Throws LoopgatesError (exit 2) naming every gate that lacks one of its four answers, and duplicate ids. */
export function refuseIncompleteGates(gates: ReadonlyArray<Gate<any>>): void {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const g of gates) {
    const missing = missingAnswers(g);
    if (missing.length) lines.push(messages.gateMissingAnswers(g.id, missing));
    if (seen.has(g.id)) lines.push(messages.duplicateGate(g.id));
    seen.add(g.id);
  }
  if (lines.length) throw new LoopgatesError(lines.join('\n'), messages.gateMissingAnswersFix);
}
