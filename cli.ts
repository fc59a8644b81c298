// The `loopgates` command: argv -> one verb (DESIGN.md layout). Exit codes: 0 pass, 1 gate failed, 2 broken, 3 ask.
import type { CommandIO, Verb } from './core/command.js';
import { LoopgatesError } from './core/errors.js';
import { packageVersion } from './core/version.js';
import { explainVerb, hookVerb, runVerb } from './core/commands/index.js';
import { doctorVerb, installVerb, uninstallVerb } from './install.js';
import { mutateVerb, selftestVerb } from './mutations/commands.js';

/** Every verb, in --help order. */
export const verbs: readonly Verb[] = [installVerb, uninstallVerb, doctorVerb, runVerb, hookVerb, explainVerb, selftestVerb, mutateVerb];

/** The package version from package.json. */
export function version(): string {
  return packageVersion();
}

function mainHelp(): string {
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
    io.stdout(mainHelp());
    return first === undefined ? 2 : 0;
  }
  if (first === '--version' || first === '-v') {
    io.stdout(`${version()}\n`);
    return 0;
  }
  const verb = verbs.find((v) => v.name === first);
  if (!verb) {
    io.stderr(`loopgates: unknown verb '${first}'\n\n${mainHelp()}`);
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
  const onSignal = (sig: NodeJS.Signals) => {
    controller.abort(new Error(sig));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
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
