// Command gates: the team's own scripts as gates, built from loopgates.yaml `commands:` (stub: issue 4 builds it).
import { z } from 'zod';
import type { Gate } from '../../core/types.js';

/** Schema of loopgates.yaml `commands:` (a list of command gate specs). */
export const commandGatesSchema = z.array(z.never()).default([]);

/** Build one Gate per command spec. */
export function buildCommandGates(_specs: z.infer<typeof commandGatesSchema>): Gate<any>[] {
  return [];
}
