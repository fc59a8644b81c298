// The shape of one CLI verb. cli.ts dispatches argv to the verb; each verb lives in its own module
// (commands/*.ts) and returns its exit code (DESIGN.md exit codes).

/** Streams and environment a verb works with; tests pass their own. */
export interface CommandIO {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether stdout is a terminal (colours, progress lines). */
  isTTY: boolean;
  /** Aborted on SIGINT/SIGTERM. */
  signal: AbortSignal;
  /**
   * The process's own streams, for verbs that pass a child's bytes through unchanged (`retry` streams a command's
   * output without decoding it). Absent in tests: such verbs fall back to `stdout` / `stderr`.
   */
  streams?: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };
  /**
   * `stdout` / `stderr` as given, for text that is not loopgates' own (a child's output): cli.ts starts each
   * `loopgates <verb>` of `stdout` / `stderr` with the command this shell can run, and must not touch a child's words.
   * Absent: `stdout` / `stderr` are already verbatim.
   */
  verbatim?: { stdout: (text: string) => void; stderr: (text: string) => void };
}

/** One verb: `usage` is the full text `loopgates <verb> --help` prints; `run` gets the arguments after the verb. */
export interface Verb {
  name: string;
  summary: string;
  usage: string;
  run(args: readonly string[], io: CommandIO): Promise<number>;
}

/** Exit codes (DESIGN.md): 0 pass, 1 a gate failed, 2 loopgates/config/tool broken, 3 stopped to ask a human. */
export const ExitCode = { ok: 0, gateFailed: 1, broken: 2, askHuman: 3 } as const;

/**
 * The exit code of a verb its `signal` ended: 130 for SIGINT (Ctrl-C), 143 for SIGTERM (128 + the signal's number,
 * as a shell reports a tool the signal killed, and as install and retry exit); anything else (SIGPIPE, an abort
 * with no signal's name) is `ExitCode.broken`. cli.ts aborts with `new Error('SIGINT')` and so on.
 */
export function interruptedExitCode(signal: AbortSignal): number {
  const r: unknown = signal.reason;
  const name = r instanceof Error ? r.message : '';
  return name === 'SIGINT' ? 130 : name === 'SIGTERM' ? 143 : ExitCode.broken;
}
