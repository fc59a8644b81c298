// The built-in gates, in report order. Each gate lives in its own folder (gates/<id>/index.ts) and exports one Gate.
// Command gates (gates/command/) are built from loopgates.yaml at load time, not listed here.
import type { ConfigOptions, GateRegistry } from '../core/config-model.js';
import type { Gate } from '../core/types.js';
import { dumpAuditGate } from './dump-audit/index.js';
import { hardcodedStringsGate } from './hardcoded-strings/index.js';
import { secretsGate } from './secrets/index.js';
import { stringParityGate } from './string-parity/index.js';
import { maestroFlowsGate } from './maestro-flows/index.js';
// new-gate: imports above

/** Every built-in gate, in report order. Add a gate: `npm run new-gate <id>`, or import its object and list it here. */
export const builtinGates: ReadonlyArray<Gate<any>> = [
  secretsGate,
  hardcodedStringsGate,
  stringParityGate,
  maestroFlowsGate,
  dumpAuditGate,
  // new-gate: entries above
];

/**
 * What the verbs hand to config loading (core imports no gate). The command-gate module loads on demand: the
 * commit path pays for it only when loopgates.yaml has command gates.
 */
export const gateRegistry: GateRegistry = {
  builtins: builtinGates,
  commands: async () => (await import('./command/index.js')).commandGateKind,
};

/** The options `loadConfig` / `parseConfig` take: `gates` (default the built-in ones) and the command-gate kind. */
export async function configOptions(gates: ReadonlyArray<Gate<any>> = builtinGates): Promise<ConfigOptions> {
  return { gates, commands: await gateRegistry.commands() };
}
