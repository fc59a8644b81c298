// Argument parsing shared by the core verbs (node:util parseArgs; strict: an unknown option is an error, exit 2).
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { LoopgatesError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { REPORT_FORMATS } from '../core/report.js';
import type { ReportFormat } from '../core/report.js';

/** parseArgs with strict options; its TypeError becomes LoopgatesError (exit 2) pointing at `loopgates <verb> --help`. */
type Options = NonNullable<ParseArgsConfig['options']>;
type Parsed<T extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>>;

export function parseVerbArgs<T extends Options>(verb: string, args: readonly string[], options: T, allowPositionals: boolean): Parsed<T> {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: allowPositionals as true, strict: true });
  } catch (e) {
    // Node's own wording for an unknown option ends with an unbalanced quote ('-- "-x"): say it plainly.
    const unknown = (e as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /Unknown option '([^']*)'/.exec((e as Error).message)?.[1] : undefined;
    // The hint names only what this verb takes: --files for paths, -- for retry's command.
    const hint = 'files' in options ? ` (a path that starts with '-' goes after --: loopgates ${verb} --files -- ${unknown})` : verb === 'retry' ? ` (the command goes after --: loopgates retry [options] -- <command> [args…])` : '';
    const why = unknown !== undefined ? `unknown option ${unknown}${hint}` : e instanceof Error ? e.message : String(e);
    throw new LoopgatesError(messages.badArgs(why, verb), `loopgates ${verb} --help`);
  }
}

/** A `--format` value checked against `allowed`. Throws LoopgatesError (exit 2) whose message lists `allowed`. */
export function formatOf(value: string | undefined, allowed: readonly ReportFormat[] = REPORT_FORMATS): ReportFormat {
  const f = value ?? 'text';
  if (!(allowed as readonly string[]).includes(f)) throw new LoopgatesError(messages.badFormat(f, allowed), messages.badFormatFix(allowed));
  return f as ReportFormat;
}
