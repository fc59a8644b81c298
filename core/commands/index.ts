// run / hook / explain verbs (stub: being built for issue 2).
import type { Verb } from '../command.js';

const stub = (name: string, summary: string): Verb => ({
  name,
  summary,
  usage: `loopgates ${name}\n\n${summary}\n`,
  run: async (_args, io) => {
    io.stderr(`loopgates ${name}: not built yet\n`);
    return 2;
  },
});

export const runVerb: Verb = stub('run', 'Run the gates over the staged files (default), the whole tree, or named files.');
export const hookVerb: Verb = stub('hook', 'Entry point for the git hook scripts: loopgates hook pre-commit.');
export const explainVerb: Verb = stub('explain', "Print every enabled gate's four answers: runs, reads, ends, asks.");
