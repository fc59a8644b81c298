// The built-in gates, in report order. Each gate lives in its own folder (gates/<id>/index.ts) and exports one Gate.
// Command gates (gates/command/) are built from loopgates.yaml at load time, not listed here.
import type { Gate } from '../core/types.js';
import { hardcodedStringsGate } from './hardcoded-strings/index.js';
import { secretsGate } from './secrets/index.js';
import { stringParityGate } from './string-parity/index.js';

/** Every built-in gate. Add a gate: import its object and append it here. */
export const builtinGates: ReadonlyArray<Gate<any>> = [secretsGate, hardcodedStringsGate, stringParityGate];
