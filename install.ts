// install / uninstall / doctor: places the hooks, detects other hook managers, verifies git will run them.
// (stub: being built for issue 2)
import type { Verb } from './core/command.js';

const stub = (name: string, summary: string): Verb => ({
  name,
  summary,
  usage: `loopgates ${name}\n\n${summary}\n`,
  run: async (_args, io) => {
    io.stderr(`loopgates ${name}: not built yet\n`);
    return 2;
  },
});

export const installVerb: Verb = stub('install', 'Install the fail-closed pre-commit hook into this repository.');
export const uninstallVerb: Verb = stub('uninstall', 'Remove the hook and restore what was there before.');
export const doctorVerb: Verb = stub('doctor', 'Check hook placement, scanner, config, node version and other hook managers.');
