// `loopgates retry [options] -- <command> [args…]`: retry a known flake once, then blame the change; stop and ask a
// human when the same failure keeps coming back (scripts/retry/, DESIGN.md "The loops around the gates").
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { Verb } from '../core/command.js';
import { LoopgatesError } from '../core/errors.js';
import { findTopLevel, git, gitEnv, resolveRepo } from '../core/git.js';
import { appendLedger, ledgerPath, readLedger } from '../core/ledger.js';
import { packageVersion } from '../core/version.js';
import type { Sink } from '../scripts/retry/attempt.js';
import { parseVerbArgs } from './args.js';

export const retryUsage = `Usage: loopgates retry [options] -- <command> [args…]
       loopgates retry --list | --reset [--task KEY]

Run <command> (an argument array, no shell), streaming its output. On exit 0: done. On a failure it retries
only when the failed attempt matches a known flake signature (rules/flakes.yaml, loopgates.yaml retry:); any
other failure is final at once: the change is to blame. A human blocker (rules/ask-human.yaml: signing,
credentials, a missing SDK, a licence, a full disk) stops at once and says what a person must do. Every
attempt goes to the ledger (shared by every worktree); the same failure 3 times in a row for one command and
task, or 6 failures for one task, stops and asks a human.

Options:
  --max <n>         retries after the first attempt (default 1; at most 3, more is refused)
  --rule <id>       use only these flake signatures (repeatable); human blockers always apply
  --timeout <dur>   bound of each attempt (90s, 20m, 1h, 500ms); past it the whole process group is
                    ended (SIGTERM, then SIGKILL 2 s later)
  --delay <dur>     wait between attempts
  --on-retry <cmd>  cleanup run between attempts, split on spaces, no shell (e.g. './gradlew --stop');
                    if it fails, no further attempt (exit 2)
  --fail-on-flaky   a pass that needed a forgiven retry exits 1
  --task <key>      the unit of work the anti-loop counts against (default: the current branch, or the
                    worktree path when HEAD is detached)
  --format <f>      text (default) or json (one document on stdout; the command's stdout goes to stderr)
  --junit <file>    write the attempts as JUnit XML (<flakyFailure>, <rerunFailure>)
  --list            print every signature with its source and how often the ledger has seen it
  --reset           clear the anti-loop counts of --task (written to the ledger), run nothing
  -h, --help        this text

Outcomes: PASSED · FLAKY(<id>) n/m · FAILED · FAILED-AFTER-RETRY(<id>) n/m · TIMEOUT · ASK-HUMAN(<reason>)
(n/m: attempts used / allowed, where a retry ran; else in words: "FAILED after 1 attempt (up to 2 allowed)")
Ctrl-C / SIGTERM are passed on to the command's process group and end the loop (exit 130 / 143).

Exit codes: 0 passed (or flaky) · 1 failed, timed out, or flaky with --fail-on-flaky · 2 loopgates, its
config, a signature or the command itself (not found) is broken · 3 stopped to ask a human.
`;

/** `90s`, `20m`, `1h`, `500ms`, or a bare number of seconds, in ms. Throws LoopgatesError (exit 2). */
export function parseDuration(value: string, option: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!m) throw new LoopgatesError(`${option} ${JSON.stringify(value)} is not a duration`, `give a number with a unit: ${option} 90s, 20m, 1h or 500ms`);
  const n = Number(m[1]);
  const ms = n * ({ ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const)[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  if (!Number.isFinite(ms) || ms <= 0 || ms > 24 * 3_600_000) throw new LoopgatesError(`${option} ${value} is out of range`, `${option} takes more than 0 and at most 24h`);
  return Math.round(ms);
}

/** `--max`: 0..3. More than 3 is refused (Maestro caps its retry at 3 silently; we say so). */
export function parseMax(value: string | undefined): number {
  if (value === undefined) return 1;
  if (!/^\d+$/.test(value)) throw new LoopgatesError(`--max ${JSON.stringify(value)} is not a whole number`, 'give --max 0, 1, 2 or 3');
  const n = Number(value);
  if (n > 3) throw new LoopgatesError(`--max ${n} is more than 3 retries: a failure that needs more than 3 is not a flake`, 'give --max 3 or less, and fix what keeps failing');
  return n;
}

/** The default task key: the current branch, the worktree path when HEAD is detached, the folder outside git. */

/** A Sink over a CommandIO text writer (tests, or an io without raw streams): UTF-8 decoded across chunks. */
function textSink(write: (t: string) => void) {
  const decoder = new StringDecoder('utf8');
  return { write: (b: Buffer) => (write(decoder.write(b)), true), once: () => undefined };
}

/** The `retry` verb. */
export const retryVerb: Verb = {
  name: 'retry',
  summary: 'Run a command; retry only a known flake (once), stop and ask a human when the same failure keeps coming back.',
  usage: retryUsage,
  async run(args, io) {
    const dd = args.indexOf('--');
    const own = dd >= 0 ? args.slice(0, dd) : args;
    const argv = dd >= 0 ? args.slice(dd + 1) : [];
    const { values, positionals } = parseVerbArgs(
      'retry',
      own,
      {
        max: { type: 'string' },
        rule: { type: 'string', multiple: true },
        timeout: { type: 'string' },
        delay: { type: 'string' },
        'on-retry': { type: 'string' },
        'fail-on-flaky': { type: 'boolean' },
        task: { type: 'string' },
        format: { type: 'string' },
        junit: { type: 'string' },
        list: { type: 'boolean' },
        reset: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      true,
    );
    if (values.help) {
      io.stdout(retryUsage);
      return 0;
    }
    if (positionals.length) throw new LoopgatesError(`the command goes after --: loopgates retry [options] -- ${positionals.join(' ')}`, `loopgates retry -- ${positionals.join(' ')}`);
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json') throw new LoopgatesError(`--format ${format} is not text or json`, 'use --format text or json (loopgates retry --help)');
    const max = parseMax(values.max);
    const timeoutMs = values.timeout !== undefined ? parseDuration(values.timeout, '--timeout') : undefined;
    const delayMs = values.delay !== undefined ? parseDuration(values.delay, '--delay') : 0;
    const onRetry = values['on-retry']?.split(/\s+/).filter(Boolean);
    if (values['on-retry'] !== undefined && !onRetry?.length) throw new LoopgatesError('--on-retry is empty', "give the cleanup command, e.g. --on-retry './gradlew --stop'");

    const top = await findTopLevel(io.cwd, gitEnv(io.env, io.cwd));
    const root = top ?? resolve(io.cwd);
    // Loaded here, not with the verb list. No gate module: retry reads only loopgates.yaml's retry: section, and
    // through the cache (scripts/retry/cache.ts) not even YAML or zod once its rules and config were proven.
    const [cache, mem, engine, report] = await Promise.all([
      import('../scripts/retry/cache.js'),
      import('../scripts/retry/memory.js'),
      import('../scripts/retry/engine.js'),
      import('../scripts/retry/report.js'),
    ]);
    let ledger: string;
    let cacheDir: string | null = null;
    if (top) {
      const { facts, env } = await resolveRepo(top, io.env);
      ledger = await mem.sharedLedgerPath(facts, env);
      cacheDir = join(facts.commonDir, 'loopgates', 'cache');
    } else ledger = await ledgerPath(root, null);
    const setup = await cache.retrySetup(root, cacheDir);
    const bounds = setup.bounds;
    const task = values.task ?? (await mem.defaultTask(top, resolve(io.cwd), io.env));

    if (values.reset) {
      appendLedger(ledger, [{ ts: new Date().toISOString(), kind: 'retry', gate: mem.RETRY_GATE, verdict: 'reset', task }]);
      const cleared = mem.sinceReset(readLedger(ledger).slice(0, -1), task).filter((e) => e.verdict === 'fail' || e.verdict === 'timeout').length;
      io.stdout(`loopgates retry: reset task '${task}': ${cleared} failed attempt(s) no longer count (written to ${ledger})\n`);
      return 0;
    }
    const set = setup.signatures;
    if (values.list) {
      const counts = mem.signatureCounts(readLedger(ledger), bounds.forgiven.windowHours);
      const rows = [...set.askHuman, ...set.flakes].map((s) => {
        const c = counts.get(s.spec.id) ?? { seen: 0, forgivenRecently: 0 };
        return `${s.kind === 'flake' ? 'flake    ' : 'ask-human'}  ${s.spec.id}${s.origin === 'repository' ? ' (loopgates.yaml)' : ''}\n    ${s.spec.description}\n    source: ${s.spec.source}\n    ledger: seen ${c.seen} time(s)${s.kind === 'flake' ? `, forgiven ${c.forgivenRecently} time(s) in the last ${bounds.forgiven.windowHours} h` : ''}`;
      });
      io.stdout(`${rows.join('\n')}\n`);
      return 0;
    }
    if (argv.length === 0) throw new LoopgatesError('no command to run', 'loopgates retry [options] -- <command> [args…]');
    if (values.rule?.length) {
      const known = set.flakes.map((s) => s.spec.id);
      const unknown = values.rule.filter((id) => !known.includes(id));
      if (unknown.length) throw new LoopgatesError(`unknown flake signature ${unknown.join(', ')} (known: ${known.join(', ')})`, 'loopgates retry --list');
      set.flakes = set.flakes.filter((s) => values.rule!.includes(s.spec.id));
    }
    const raw = io.streams;
    const errSink: Sink = raw ? (raw.stderr as unknown as Sink) : textSink(io.verbatim?.stderr ?? io.stderr);
    const outSink: Sink = format === 'json' ? errSink : raw ? (raw.stdout as unknown as Sink) : textSink(io.verbatim?.stdout ?? io.stdout);
    const r = await engine.runRetry({
      argv: argv as [string, ...string[]],
      cwd: io.cwd,
      env: io.env,
      max,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      delayMs,
      ...(onRetry?.length ? { onRetry: onRetry as [string, ...string[]] } : {}),
      failOnFlaky: values['fail-on-flaky'] === true,
      task,
      signatures: set,
      bounds,
      ledger,
      stdout: outSink,
      stderr: errSink,
      log: io.stderr,
      signal: io.signal,
    });
    io.stderr(report.retryText(r));
    if (format === 'json') io.stdout(report.retryJson(r, packageVersion()));
    if (values.junit) {
      try {
        writeFileSync(values.junit, report.retryJunit(r));
      } catch (e) {
        io.stderr(`loopgates retry: cannot write --junit ${values.junit}: ${e instanceof Error ? e.message : String(e)}\n`);
        return Math.max(r.exitCode, 2);
      }
    }
    return r.exitCode;
  },
};
