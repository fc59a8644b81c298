// What the engines ask of a built command gate (the spec it was built from, its self-test waiver) without loading
// the command-gate module (zod schemas, picomatch, the scratch runner): a commit in a repository with no command gate
// never needs that module, and the self-test step asks these of every gate on every commit.
import type { Gate } from '../../core/types.js';
import type { CommandGateSpec } from './index.js';

const waivers = new WeakMap<Gate<any>, string>();
const specs = new WeakMap<Gate<any>, CommandGateSpec>();

/** Records that `gate` is the command gate built from `spec` (gates/command/index.ts buildCommandGates). */
export function recordCommandGate(gate: Gate<any>, spec: CommandGateSpec, waiver: string | undefined): void {
  specs.set(gate, spec);
  if (waiver) waivers.set(gate, waiver);
}

/** The `selfTest: { waived }` reason of a command gate, or undefined (every built-in gate). */
export function selfTestWaiver(gate: Gate<any>): string | undefined {
  return waivers.get(gate);
}

/** The spec a command gate was built from (undefined for built-in gates): its files, argv and timeout. */
export function commandSpecOf(gate: Gate<any>): CommandGateSpec | undefined {
  return specs.get(gate);
}
