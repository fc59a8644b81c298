// Run a loopgates verb (in-process, cli.ts main, as bin/loopgates.js does) in a temporary git repository and get its
// exit code, stdout, stderr, the ledger lines it wrote and whether the working tree and index stayed as they were.
// The repository is isolated from the user's git config (test/helpers/git-repo.ts) and removed afterwards.
import { join } from 'node:path';
import { readLedger, type LedgerEntry } from '../../core/ledger.js';
import type { CommandIO, Verb } from '../../core/command.js';
import { treeAndIndexDigest, type TempRepo } from './git-repo.js';
import { withSandbox, type Sandbox } from '../integration/install-support.js';

export interface VerbRun {
  exit: number;
  stdout: string;
  stderr: string;
  /** Ledger lines of the repository after the verb (in-tree `.loopgates/ledger.jsonl` or `.git/loopgates/`). */
  ledger: LedgerEntry[];
  /** The working tree (but the ledger) and the index are byte for byte what they were before the verb. */
  untouched: boolean;
}

export interface VerbRepoOptions {
  /** `committed`: files in a first commit, nothing staged; `staged`: files added to the index, no commit; `untracked`. */
  files?: 'committed' | 'staged' | 'untracked';
  /** Changes staged on top of the commit (with files: 'committed'): what the next commit would record. */
  stage?: Readonly<Record<string, string>>;
  env?: Record<string, string | undefined>;
}

/** Every ledger line of the repository at `dir`, wherever loopgates put it. */
export function ledgerOf(dir: string): LedgerEntry[] {
  return [...readLedger(join(dir, '.loopgates', 'ledger.jsonl')), ...readLedger(join(dir, '.git', 'loopgates', 'ledger.jsonl'))];
}

/** `loopgates <argv>` in a temp repository holding `files`. */
export async function runVerbInRepo(files: Readonly<Record<string, string>>, argv: string[], options: VerbRepoOptions = {}): Promise<VerbRun> {
  return inTempRepo(files, (s) => runVerb(s, argv, options.env), options);
}

/** A temp repository set up as `options` says, for several verbs in a row (`runVerb`). */
export async function inTempRepo<T>(files: Readonly<Record<string, string>>, fn: (s: Sandbox) => Promise<T>, options: VerbRepoOptions = {}): Promise<T> {
  const how = options.files ?? 'committed';
  return withSandbox(
    { ...files },
    async (s) => {
      if (how === 'staged') s.repo.git('add', '-A');
      for (const [p, c] of Object.entries(options.stage ?? {})) {
        s.repo.write(p, c);
        s.repo.git('add', '--', p);
      }
      return fn(s);
    },
    how === 'committed',
  );
}

/** One verb in the sandbox `s`, with what it wrote. */
export async function runVerb(s: Sandbox, argv: string[], env: Record<string, string | undefined> = {}): Promise<VerbRun> {
  const except = ['node_modules', '.loopgates/ledger.jsonl'];
  const before = treeAndIndexDigest(s.repo.dir, except);
  const r = await s.cli(argv, env);
  return { exit: r.code, stdout: r.stdout, stderr: r.stderr, ledger: ledgerOf(s.repo.dir), untouched: treeAndIndexDigest(s.repo.dir, except) === before };
}

/** Run a verb object in-process at `repo` (its HOME beside it, no system git config): exit code and output. */
export async function callVerb(verb: Verb, args: string[], repo: TempRepo) {
  let stdout = '';
  let stderr = '';
  const io: CommandIO = {
    cwd: repo.dir,
    env: { ...process.env, HOME: `${repo.dir}/../home`, GIT_CONFIG_NOSYSTEM: '1' },
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    isTTY: false,
    signal: new AbortController().signal,
  };
  const code = await verb.run(args, io);
  return { code, stdout, stderr };
}
