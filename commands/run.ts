// `loopgates run`: the gates once over the staged snapshot (default), the whole tree, or named files.
import type { Verb } from '../core/command.js';
import { LoopgatesError } from '../core/errors.js';
import { messages, usage } from '../core/messages.js';
import { STAGED_POLICIES } from '../core/types.js';
import type { Mode, StagedPolicy } from '../core/types.js';
import { formatOf, parseVerbArgs } from './args.js';
import { executeRun } from './execute.js';
import type { VerbDeps } from './execute.js';

/** The `run` verb over `deps` (default: the built-in registry and loopgates.yaml's command gates). */
export function makeRunVerb(deps: VerbDeps = {}): Verb {
  return {
    name: 'run',
    summary: 'Run the gates over the staged files (default), the whole tree (--all), or named files (--files).',
    usage: usage.run,
    async run(args, io) {
      const { values, positionals } = parseVerbArgs(
        'run',
        args,
        {
          staged: { type: 'boolean' },
          all: { type: 'boolean' },
          files: { type: 'boolean' },
          gate: { type: 'string', multiple: true },
          'staged-policy': { type: 'string' },
          format: { type: 'string' },
          verbose: { type: 'boolean', short: 'v' },
          help: { type: 'boolean', short: 'h' },
        },
        true,
      );
      if (values.help) {
        io.stdout(usage.run);
        return 0;
      }
      const modes = [values.staged && 'staged', values.all && 'all', values.files && 'files'].filter(Boolean) as Mode[];
      if (modes.length > 1) throw new LoopgatesError(messages.badArgs(messages.modeConflict, 'run'), 'loopgates run --help');
      const mode: Mode = modes[0] ?? 'staged';
      if (mode !== 'files' && positionals.length) throw new LoopgatesError(messages.badArgs(messages.filesWithoutFlag, 'run'), 'loopgates run --files <paths...>');
      if (mode === 'files' && positionals.length === 0) throw new LoopgatesError(messages.badArgs(messages.filesNone, 'run'), 'loopgates run --files <paths...>');
      const policy = values['staged-policy'];
      if (policy !== undefined && !(STAGED_POLICIES as readonly string[]).includes(policy)) throw new LoopgatesError(messages.badArgs(messages.badStagedPolicy(policy), 'run'), 'loopgates run --help');
      if (policy !== undefined && mode !== 'staged') throw new LoopgatesError(messages.badArgs(messages.stagedPolicyNotStaged, 'run'), 'loopgates run --help');
      return executeRun({ mode, files: positionals, gateIds: values.gate ?? [], format: formatOf(values.format), verbose: values.verbose === true, ...(policy ? { stagedPolicy: policy as StagedPolicy } : {}) }, io, deps);
    },
  };
}
