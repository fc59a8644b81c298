// selftest / mutate verbs (stub: being built for issue 4).
import type { Verb } from '../core/command.js';

const stub = (name: string, summary: string): Verb => ({
  name,
  summary,
  usage: `loopgates ${name}\n\n${summary}\n`,
  run: async (_args, io) => {
    io.stderr(`loopgates ${name}: not built yet\n`);
    return 2;
  },
});

export const selftestVerb: Verb = stub('selftest', "Run every enabled gate's shipped green and red cases.");
export const mutateVerb: Verb = stub('mutate', "Inject each gate's target defect into this repository's real files, in a scratch space; require red, then green.");
