// The `loopgates` command: argv -> one verb (DESIGN.md layout). Exit codes: 0 pass, 1 gate failed, 2 broken, 3 ask.
import type { CommandIO, Verb } from './core/command.js';
import { LoopgatesError } from './core/errors.js';
import { packageVersion } from './core/version.js';

/**
 * Every verb, in --help order, loaded on demand: a commit pays only for the modules `hook` needs, not for install's
 * or the mutation engine's (each costs tens of ms of CPU per commit otherwise).
 */
export const verbLoaders: ReadonlyArray<readonly [name: string, load: () => Promise<Verb>]> = [
  ['install', async () => (await import('./install.js')).installVerb],
  ['uninstall', async () => (await import('./install.js')).uninstallVerb],
  ['doctor', async () => (await import('./install.js')).doctorVerb],
  ['run', async () => (await import('./core/commands/index.js')).runVerb],
  ['hook', async () => (await import('./core/commands/index.js')).hookVerb],
  ['explain', async () => (await import('./core/commands/index.js')).explainVerb],
  ['selftest', async () => (await import('./mutations/commands.js')).selftestVerb],
  ['mutate', async () => (await import('./mutations/commands.js')).mutateVerb],
];

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

/** Run the CLI with `argv` (without node and script). Returns the exit code; never throws. */
export async function main(argv: readonly string[], io: CommandIO): Promise<number> {
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
  let verb: Verb;
  try {
    verb = await loader[1]();
  } catch (err) {
    io.stderr(`loopgates ${first}: cannot load: ${err instanceof Error ? err.message : String(err)}\n  fix: reinstall loopgates (npm install), then run: loopgates doctor\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(verb.usage.endsWith('\n') ? verb.usage : `${verb.usage}\n`);
    return 0;
  }
  try {
    return await verb.run(rest, io);
  } catch (err) {
    if (err instanceof LoopgatesError) {
      io.stderr(`loopgates ${verb.name}: ${err.message}\n  fix: ${err.fix}\n`);
      return err.exitCode;
    }
    io.stderr(`loopgates ${verb.name}: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n  fix: report this with the output of: loopgates doctor\n`);
    return 2;
  }
}

/** Entry point used by bin/loopgates.js: wires process streams and signals, sets process.exitCode. */
export async function runFromProcess(): Promise<void> {
  const controller = new AbortController();
  // `on`, not `once`: while a listener stays registered, execa's child cleanup (signal-exit) does not re-raise the
  // signal, so the first Ctrl-C aborts the verb and its `finally` blocks remove scratch space; a second one exits.
  const onSignal = (sig: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(sig === 'SIGINT' ? 130 : 143);
    controller.abort(new Error(sig));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const io: CommandIO = {
    cwd: process.cwd(),
    env: process.env,
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    isTTY: process.stdout.isTTY === true,
    signal: controller.signal,
  };
  try {
    process.exitCode = await main(process.argv.slice(2), io);
  } catch {
    process.exitCode = 2;
  }
}
