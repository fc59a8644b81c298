// `loopgates hook <git-hook-name>`: what the stored hook scripts call. pre-commit judges the staged snapshot.
import type { Verb } from '../command.js';
import { LoopgatesError } from '../errors.js';
import { messages, usage } from '../messages.js';
import { formatOf, parseVerbArgs } from './args.js';
import { selfTestPreflight } from '../../mutations/commands.js';
import { executeRun } from './execute.js';
import type { PreflightStep, VerbDeps } from './execute.js';

/**
 * Steps run by `hook pre-commit` after config and snapshot load, before the gates; a non-zero exit code refuses the
 * commit. This is the spot for the cached self-test (DESIGN.md "self-tests: cached ...; red -> refuse"):
 * append its step here.
 */
export const preflight: PreflightStep[] = [selfTestPreflight];

/** The git hooks loopgates handles; any other name exits 2 so a misinstalled hook refuses instead of passing. */
export const HANDLED_HOOKS = ['pre-commit'] as const;

/** The `hook` verb over `deps`; `steps` defaults to the exported `preflight` list (read at call time). */
export function makeHookVerb(deps: VerbDeps = {}, steps?: readonly PreflightStep[]): Verb {
  return {
    name: 'hook',
    summary: 'Entry point for the git hook scripts: loopgates hook pre-commit.',
    usage: usage.hook,
    async run(args, io) {
      const { values, positionals } = parseVerbArgs('hook', args, { format: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, true);
      if (values.help) {
        io.stdout(usage.hook);
        return 0;
      }
      const [name, ...rest] = positionals;
      if (name === undefined) throw new LoopgatesError(messages.hookMissingName, messages.unknownHookFix);
      if (!(HANDLED_HOOKS as readonly string[]).includes(name)) throw new LoopgatesError(messages.unknownHook(name, HANDLED_HOOKS), messages.unknownHookFix);
      // Git passes no arguments to pre-commit; extra ones mean a hook script loopgates did not write.
      if (rest.length) throw new LoopgatesError(messages.badArgs(`unexpected arguments after ${name}: ${rest.join(' ')}`, 'hook'), messages.unknownHookFix);
      return executeRun({ mode: 'staged', gateIds: [], format: formatOf(values.format), preflight: steps ?? preflight }, io, deps);
    },
  };
}
