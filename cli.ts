// The `loopgates` command: argv -> one verb (DESIGN.md layout). Exit codes: 0 pass, 1 gate failed, 2 broken, 3 ask.
import { existsSync, statSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import { cliWordFor, runnable } from './core/cli-word.js';
import type { CommandIO, Verb } from './core/command.js';
import { ConfigError, LoopgatesError } from './core/errors.js';
import { messages } from './core/messages.js';
import { redactCredentials, redactDeep } from './core/redact.js';
import { formatFailure } from './core/report.js';
import type { ReportFormat } from './core/report.js';
import { packageVersion } from './core/version.js';
import { writeHookAnswer } from './core/hook-answer.js';
import { VERB_NAMES, type VerbName } from './core/verbs.js';

/**
 * Every verb, in --help order (core/verbs.ts), loaded on demand: a commit pays only for the modules `hook` needs, not
 * for install's or the mutation engine's (each costs tens of ms of CPU per commit otherwise). A Record, so a name
 * without a loader, or a loader without a name, does not compile.
 */
const loaders: Readonly<Record<VerbName, () => Promise<Verb>>> = {
  install: async () => (await import('./commands/install.js')).installVerb,
  uninstall: async () => (await import('./commands/install.js')).uninstallVerb,
  doctor: async () => (await import('./commands/install.js')).doctorVerb,
  run: async () => (await import('./commands/index.js')).runVerb,
  hook: async () => (await import('./commands/hook.js')).makeHookVerb(),
  explain: async () => (await import('./commands/index.js')).explainVerb,
  selftest: async () => (await import('./commands/selftest.js')).selftestVerb,
  mutate: async () => (await import('./commands/selftest.js')).mutateVerb,
  retry: async () => (await import('./commands/retry.js')).retryVerb,
  tap: async () => (await import('./commands/tap.js')).tapVerb,
  device: async () => (await import('./commands/device.js')).deviceVerb,
  'dump-audit': async () => (await import('./commands/dump-audit.js')).dumpAuditVerb,
};
export const verbLoaders: ReadonlyArray<readonly [name: VerbName, load: () => Promise<Verb>]> = VERB_NAMES.map((name) => [name, loaders[name]] as const);

/** Every verb for the --help listing; a verb whose module cannot load is listed with the reason instead. */
export async function loadVerbs(): Promise<Array<Pick<Verb, 'name' | 'summary'>>> {
  const settled = await Promise.allSettled(verbLoaders.map(([, load]) => load()));
  return settled.map((r, i) => (r.status === 'fulfilled' ? r.value : { name: verbLoaders[i]![0], summary: `(cannot load: ${String(r.reason)})` }));
}

/** The package version from package.json. */
export function version(): string {
  return packageVersion();
}

async function mainHelp(): Promise<string> {
  const verbs = await loadVerbs();
  const width = Math.max(...verbs.map((v) => v.name.length));
  return [
    `loopgates ${version()} — fail-closed git hooks whose gates prove they can fail`,
    '',
    'Usage: loopgates <verb> [options]      loopgates <verb> --help for its options',
    '',
    'Verbs:',
    ...verbs.map((v) => `  ${v.name.padEnd(width)}  ${v.summary}`),
    '',
    'Exit codes: 0 all gates passed or skipped · 1 a gate failed · 2 loopgates, its config or a required tool is broken · 3 stopped to ask a human',
    '',
  ].join('\n');
}

/**
 * The machine-readable formats each verb's `--format` takes: with one of these, a failure before the verb's report
 * still prints a document on stdout (core/report.ts formatFailure), so a CI parser never reads an empty stdout.
 */
export const machineFormats: Readonly<Record<string, readonly ReportFormat[]>> = {
  run: ['json', 'sarif', 'github'],
  hook: ['json', 'sarif', 'github'],
  explain: ['json'],
  selftest: ['json'],
  mutate: ['json'],
  retry: ['json'],
  tap: ['json'],
  device: ['json'],
  'dump-audit': ['json'],
};

/**
 * The `--format` value in `args` as parseArgs reads it (`--format json` or `--format=json`; the last one wins; none
 * after `--`). undefined when absent.
 */
export function requestedFormat(args: readonly string[]): string | undefined {
  let format: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a === '--format') format = args[++i];
    else if (a.startsWith('--format=')) format = a.slice('--format='.length);
  }
  return format;
}

/**
 * Report `err`, which ended verb `verb` (called with `args`), and return its exit code: a LoopgatesError's own
 * (2 unless it says otherwise), 2 for anything else (README exit codes: 1 is only ever "a gate failed"). The message
 * and fix go to stderr; when `args` ask for a machine-readable format of that verb and nothing was written to stdout
 * yet, stdout gets the failure document too.
 */
export function reportFailure(verb: string, args: readonly string[], thrown: unknown, io: Pick<CommandIO, 'stdout' | 'stderr'> & Partial<Pick<CommandIO, 'cwd' | 'env'>>, stdoutUsed = false): number {
  const err = permissionError(thrown) ?? thrown;
  const known = err instanceof LoopgatesError;
  const exitCode = known ? err.exitCode : 2;
  const message = known ? err.message : messages.internalError(err instanceof Error ? err.message : String(err));
  // Started the way this shell can start it (fresh-user-4 F6: `loopgates` is not on PATH for a local devDependency).
  const fix = io.cwd && io.env ? runnable(known ? err.fix : messages.crashFix, cliWordFor(io.cwd, io.env)) : known ? err.fix : messages.crashFix;
  const detail = known ? message : messages.internalError(err instanceof Error ? (err.stack ?? err.message) : String(err));
  io.stderr(redactCredentials(`loopgates ${verb}: ${detail}\n  fix: ${fix}\n`));
  const format = requestedFormat(args);
  if (!stdoutUsed && format !== undefined && (machineFormats[verb] ?? []).includes(format as ReportFormat)) {
    const problems = err instanceof ConfigError ? err.problems.map((p) => ({ path: p.path, line: p.line, message: p.message })) : undefined;
    io.stdout(ownText(formatFailure({ version: version(), verb, exitCode, message, fix, ...(problems ? { problems } : {}) }, format as ReportFormat), true));
  }
  return exitCode;
}

/**
 * Text loopgates writes for the user, with every credential shape redacted (DESIGN.md: no output holds a credential):
 * the last guard of stdout and stderr for every verb, behind the redaction where results are made (core/runner.ts,
 * scripts/retry/engine.ts), so a cause quoting a tool's line (adb, gitleaks, git) cannot slip through. A JSON
 * document is redacted string by string and written again (a pattern never runs across a quote), text as it is.
 * Not a child's own output passed through (io.verbatim, io.streams): that is the command's, as if run bare.
 */
export function ownText(t: string, document: boolean): string {
  const red = redactCredentials(t);
  if (red === t || !document) return red;
  try {
    const indent = /^[{[]\n( +)/.exec(t)?.[1]?.length ?? 0;
    return `${JSON.stringify(redactDeep(JSON.parse(t)), null, indent)}${t.endsWith('\n') ? '\n' : ''}`;
  } catch {
    return red; // not JSON (github workflow commands): line text
  }
}

/**
 * A write refused by the file system (EACCES, EPERM, EROFS with a path: a read-only `.git`, a hooks dir owned by
 * root) as a LoopgatesError naming the path, the folder that refuses and the command that makes it writable; it is
 * the repository's state, not a loopgates bug. Undefined for anything else.
 */
function permissionError(err: unknown): LoopgatesError | undefined {
  const e = err as NodeJS.ErrnoException | undefined;
  if (!(err instanceof Error) || err instanceof LoopgatesError || typeof e?.path !== 'string' || !['EACCES', 'EPERM', 'EROFS'].includes(e.code ?? '')) return undefined;
  let denying = e.path;
  while ((!existsSync(denying) || !statSync(denying).isDirectory()) && dirname(denying) !== denying) denying = dirname(denying);
  // Inside a git dir, every write of install/uninstall/the hook lands somewhere in it: name the git dir itself.
  const gitDir = denying.split(sep).lastIndexOf('.git');
  if (gitDir > 0) denying = denying.split(sep).slice(0, gitDir + 1).join(sep);
  const why = e.code === 'EROFS' ? 'read-only file system' : 'permission denied';
  return new LoopgatesError(messages.readOnly(e.path, why, denying), e.code === 'EROFS' ? messages.readOnlyFsFix(denying) : messages.readOnlyFix(denying));
}

/** Options of `main` that only the process entry point knows. */
export interface MainOptions {
  /** process.cwd() failed (the current directory was removed): every verb refuses with this, exit 2. */
  cwdError?: LoopgatesError;
}

/** Run the CLI with `argv` (without node and script). Returns the exit code; never throws. */
export async function main(argv: readonly string[], io: CommandIO, options: MainOptions = {}): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    io.stdout(await mainHelp());
    return first === undefined ? 2 : 0;
  }
  if (first === '--version' || first === '-v') {
    io.stdout(`${version()}\n`);
    return 0;
  }
  const loader = verbLoaders.find(([name]) => name === first);
  if (!loader) {
    io.stderr(`loopgates: unknown verb '${first}'\n\n${await mainHelp()}`);
    return 2;
  }
  // Before the verb loads: nothing can be judged, or even located, from a folder that is gone.
  if (options.cwdError) return reportFailure(first, rest, options.cwdError, io);
  let verb: Verb;
  try {
    verb = await loader[1]();
  } catch (err) {
    io.stderr(`loopgates ${first}: cannot load: ${err instanceof Error ? err.message : String(err)}\n  fix: reinstall loopgates (npm install), then run: loopgates doctor\n`);
    return 2;
  }
  // After `--` the words are a command's own (loopgates retry -- ./gradlew --help), not ours.
  const ours = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (ours.includes('--help') || ours.includes('-h')) {
    io.stdout(verb.usage.endsWith('\n') ? verb.usage : `${verb.usage}\n`);
    return 0;
  }
  let stdoutUsed = false;
  // Every `loopgates <verb>` a verb prints for the user is started the way this shell can start it (README "A fix line
  // names the command the way your shell can start it"): one place, so no message can miss it. Not a machine-readable
  // document on stdout (its report rewrites the strings inside), and not a child's output passed through (verbatim).
  const cli = cliWordFor(io.cwd, io.env);
  const format = requestedFormat(ours);
  const document = format !== undefined && (machineFormats[verb.name] ?? []).includes(format as ReportFormat);
  const verbIO: CommandIO = {
    ...io,
    stdout: (t) => {
      stdoutUsed = true;
      io.stdout(document ? ownText(t, true) : ownText(runnable(t, cli), false));
    },
    stderr: (t) => io.stderr(ownText(runnable(t, cli), false)),
    verbatim: io.verbatim ?? {
      stdout: (t) => {
        stdoutUsed = true;
        io.stdout(t);
      },
      stderr: io.stderr,
    },
  };
  try {
    return await verb.run(rest, verbIO);
  } catch (err) {
    return reportFailure(verb.name, rest, err, io, stdoutUsed);
  }
}

/**
 * Entry point used by bin/loopgates.js: wires process streams and signals, sets process.exitCode. Never rejects:
 * anything that escapes (an exception thrown in a callback, a rejection nobody awaited) is reported and exits 2, not
 * Node's default 1, which would read as "a gate failed".
 */
export async function runFromProcess(): Promise<void> {
  const argv = process.argv.slice(2);
  let stdoutUsed = false;
  let cwd = '';
  const fatal = (err: unknown) => {
    reportFailure(argv[0] ?? 'loopgates', argv.slice(1), err, { stdout: (t) => void process.stdout.write(t), stderr: (t) => void process.stderr.write(t), cwd, env: process.env }, stdoutUsed);
    writeHookAnswer(argv[0], process.env, 2);
    process.exit(2);
  };
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);
  let cwdError: LoopgatesError | undefined;
  try {
    cwd = process.cwd();
  } catch (e) {
    cwdError = new LoopgatesError(messages.cwdGone(e instanceof Error ? e.message : String(e)), messages.cwdGoneFix);
  }
  const controller = new AbortController();
  // `on`, not `once`: while a listener stays registered, execa's child cleanup (signal-exit) does not re-raise the
  // signal, so the first Ctrl-C aborts the verb and its `finally` blocks remove scratch space; a second one exits.
  const onSignal = (sig: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(sig === 'SIGINT' ? 130 : 143);
    controller.abort(new Error(sig));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // A reader that went away (`loopgates doctor | head`): stop as SIGPIPE would stop a C tool, and say so in the
  // exit code (141, 128 + SIGPIPE) rather than dying with an "internal error" and a stack trace. The abort lets the
  // verb remove its scratch space first.
  let pipeClosed: NodeJS.Signals | undefined;
  const onStreamError = (err: NodeJS.ErrnoException) => {
    // After EPIPE the stream is destroyed: a later write's ERR_STREAM_DESTROYED is the same closed reader.
    if (err.code !== 'EPIPE' && !pipeClosed) return fatal(err);
    pipeClosed = 'SIGPIPE';
    if (!controller.signal.aborted) controller.abort(new Error('SIGPIPE'));
  };
  process.stdout.on('error', onStreamError);
  process.stderr.on('error', onStreamError);
  const io: CommandIO = {
    cwd,
    env: process.env,
    stdout: (t) => {
      stdoutUsed = true;
      if (!pipeClosed) process.stdout.write(t);
    },
    stderr: (t) => void (pipeClosed ? undefined : process.stderr.write(t)),
    isTTY: process.stdout.isTTY === true,
    signal: controller.signal,
    streams: { stdout: process.stdout, stderr: process.stderr },
  };
  try {
    process.exitCode = await main(argv, io, cwdError ? { cwdError } : {});
  } catch (err) {
    process.exitCode = reportFailure(argv[0] ?? 'loopgates', argv.slice(1), err, io, stdoutUsed);
  }
  if (pipeClosed) process.exitCode = 141;
  writeHookAnswer(argv[0], process.env, typeof process.exitCode === 'number' ? process.exitCode : 0);
}
