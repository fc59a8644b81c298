// `loopgates explain`: every enabled gate's four answers (DESIGN.md "the four answers").
import type { Verb } from '../core/command.js';
import { findTopLevel, gitEnv } from '../core/git.js';
import { messages, usage } from '../core/messages.js';
import { formatOf, parseVerbArgs } from './args.js';
import type { VerbDeps } from './execute.js';
import { configOptions } from '../gates/registry.js';
import { TAP_LOOP } from '../scripts/tap/loop.js';

/** The loops that are not gates (DESIGN.md "loop"), with their four answers: explain prints them after the gates. */
const LOOPS = [{ id: 'tap', title: 'loopgates tap: one tap on the device, then poll for the expected label', ...TAP_LOOP }] as const;

/** The `explain` verb over `deps`. Config is read from the repository's top level (or the current folder outside git). */
export function makeExplainVerb(deps: VerbDeps = {}): Verb {
  return {
    name: 'explain',
    summary: "Print every enabled gate's four answers: runs, reads, ends, asks.",
    usage: usage.explain,
    async run(args, io) {
      const { values } = parseVerbArgs('explain', args, { all: { type: 'boolean' }, format: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, false);
      if (values.help) {
        io.stdout(usage.explain);
        return 0;
      }
      const format = formatOf(values.format, ['text', 'json']);
      const root = (await findTopLevel(io.cwd, gitEnv(io.env, io.cwd))) ?? io.cwd;
      // core/config.ts (YAML, zod) loads here, not with this module: the hook imports the verbs' index too.
      const { loadConfig } = await import('../core/config.js');
      const config = loadConfig(root, await configOptions(deps.gates));
      const shown = config.gates.filter((g) => g.enabled || values.all);
      // The loops that are not gates (DESIGN.md "The loops around the gates"), with the bounds in force.
      const [{ retryLoopAnswers }, { DEFAULT_BOUNDS }] = await Promise.all([import('../scripts/retry/loop.js'), import('../scripts/retry/signatures.js')]);
      const bounds = config.retry?.bounds ?? DEFAULT_BOUNDS;
      const retryLoop = { id: 'retry', title: 'loopgates retry -- <command>: bounded retry of known flakes, the anti-loop breaker', ...retryLoopAnswers(bounds), bounds: { maxRetries: { default: 1, cap: 3 }, ...bounds } };
      if (format === 'json') {
        const gates = shown.map((g) => ({ id: g.gate.id, title: g.gate.title, enabled: g.enabled, source: g.source, timeoutMs: g.settings.timeoutMs, staged: g.settings.staged ?? 'introduced', ...g.gate.loop }));
        io.stdout(`${JSON.stringify({ config: config.file, found: config.found, gates, loops: [...LOOPS, retryLoop] }, null, 2)}\n`);
        return 0;
      }
      const out: string[] = [];
      if (!config.found) out.push(messages.note(messages.noConfig(config.file)), '');
      if (shown.length === 0) out.push(messages.noGates);
      for (const g of shown) {
        out.push(`${g.gate.id} — ${g.gate.title}${g.enabled ? '' : ' (disabled)'}${g.source === 'command' ? ' (command gate)' : ''}`);
        for (const k of ['runs', 'reads', 'ends', 'asks'] as const) out.push(`  ${k.padEnd(5)}  ${g.gate.loop[k]}`);
        out.push(`  bound  ${g.settings.timeoutMs} ms per run`);
        out.push(`  staged ${messages.stagedPolicyExplained(g.settings.staged ?? 'introduced', g.gate.judgesChangeOnly === true)}`, '');
      }
      for (const l of LOOPS) {
        out.push(`${l.id} — ${l.title} (loop)`);
        for (const k of ['runs', 'reads', 'ends', 'asks'] as const) out.push(`  ${k.padEnd(5)}  ${l[k]}`);
        out.push('');
      }
      out.push(`${retryLoop.id} — ${retryLoop.title} (loop)`);
      for (const k of ['runs', 'reads', 'ends', 'asks'] as const) out.push(`  ${k.padEnd(5)}  ${retryLoop[k]}`);
      out.push(
        `  bound  --max 1 retry by default (at most 3); same cause ${bounds.sameCause}x in a row; ${bounds.taskFailures} failures per task in ${bounds.taskWindowHours} h; a flake forgiven more than ${bounds.forgiven.count} times in ${bounds.forgiven.windowHours} h is reported as a bug`,
        '',
      );
      io.stdout(`${out.join('\n').trimEnd()}\n`);
      return 0;
    },
  };
}
