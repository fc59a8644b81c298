// Toy gates and an in-process verb runner for the core's tests, used until (and besides) the real gates.
import { z } from 'zod';
import { LoopgatesError } from '../../core/errors.js';
import type { CommandIO, Verb } from '../../core/command.js';
import type { Gate } from '../../core/types.js';

/** The word the toy gates flag, assembled at run time. */
export const BAD = ['B', 'A', 'D'].join('');

/** A gate over `suffix` files: one error finding per line holding BAD (column of its first letter). */
export function toyGate(id: string, suffix: string): Gate<{ word: string }> {
  return {
    id,
    title: `toy gate over *${suffix}`,
    loop: { runs: `scan *${suffix}`, reads: `*${suffix} from the snapshot`, ends: 'every input read once', asks: 'never' },
    configSchema: z.object({ word: z.string().default(BAD) }).strict(),
    inputs: async (ctx) => [...(await ctx.ws.targets())].filter((p) => p.endsWith(suffix)),
    run: async (ctx, inputs) => {
      const findings = [];
      for (const p of inputs) {
        const lines = (await ctx.ws.readText(p)).split('\n');
        for (const [i, l] of lines.entries()) {
          if (l.includes(ctx.config.word)) findings.push({ rule: 'bad-word', file: p, line: i + 1, column: l.indexOf(ctx.config.word) + 1, message: `${ctx.config.word} word`, severity: 'error' as const });
        }
      }
      return { findings, counts: { files: inputs.length, items: inputs.length }, itemUnit: 'lines' };
    },
    selfTest: () => [],
    mutations: [],
  };
}

export const toys: ReadonlyArray<Gate<any>> = [toyGate('toy', '.txt'), toyGate('toy-kt', '.kt')];

/** Run `verb` in-process in `cwd` the way cli.ts does (a LoopgatesError becomes its exit code and stderr text). */
export async function runVerbIn(verb: Verb, cwd: string, args: readonly string[], env: Record<string, string | undefined> = {}) {
  let stdout = '';
  let stderr = '';
  const io: CommandIO = {
    cwd,
    env: { ...process.env, ...env },
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    isTTY: false,
    signal: new AbortController().signal,
  };
  let code: number;
  try {
    code = await verb.run(args, io);
  } catch (e) {
    if (!(e instanceof LoopgatesError)) throw e;
    stderr += `${e.message}\n  fix: ${e.fix}\n`;
    code = e.exitCode;
  }
  return { code, stdout, stderr };
}
