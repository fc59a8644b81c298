// Which staged or tracked paths are Maestro flows by name (the `flows` and `exclude` globs): what every commit asks
// (gates/maestro-flows/index.ts selectInputs), kept apart from discovery.ts so that a commit touching no flow never
// loads the YAML parser.
import { selectInputs } from '../../core/inputs.js';
import type { MaestroFlowsConfig } from './config.js';

const YAML_FILE = /\.ya?ml$/i;
const GATE = 'maestro-flows';

/** One ordinary flow path: an `exclude` entry that matches it and every candidate blinds the gate (core/inputs.ts). */
const PROBE_PATHS: readonly string[] = ['.maestro/login.yaml', 'app/.maestro/flows/checkout.yml'];

/**
 * The flow-shaped paths among `paths` under `config` (YAML, matched by `flows`, not by `exclude`; workspace configs
 * included), by the kit's selection (core/inputs.ts): an exclude entry that removes every flow the gate could read
 * refuses (LoopgatesError) instead of a quiet skip. `excluded` counts what `exclude` removed.
 */
export function selectFlowPaths(paths: readonly string[], config: Pick<MaestroFlowsConfig, 'flows' | 'exclude'>): { selected: string[]; matched: number; excluded: number } {
  const reads = (p: string) => YAML_FILE.test(p);
  const matched = selectInputs(paths, { gate: GATE, include: config.flows, exclude: [], reads });
  const selected = selectInputs(matched, { gate: GATE, include: config.flows, exclude: config.exclude, probePaths: PROBE_PATHS, probeWhat: 'Maestro flows', blindTo: 'an unchecked tap' });
  return { selected, matched: matched.length, excluded: matched.length - selected.length };
}
