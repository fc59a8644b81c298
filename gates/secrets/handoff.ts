// The stored hook's own `gitleaks protect --staged` run, handed to node (hooks/pre-commit loopgates_try_secrets,
// LOOPGATES_HOOK_SECRETS): when the shell ran gitleaks for the secrets fast path (gates/secrets/fast.ts) and then
// hands the commit to node (a finding, a log line it does not know), node takes that run's exit code, log and report
// instead of running gitleaks a second time, but only when every fact of the run is the one node would have made
// itself. Any doubt returns undefined and node runs gitleaks as always (scan.ts runScan).
//
// What the shell leaves, in a directory it made for this run with `mktemp -d` (0700, a random name carrying the
// hook's nonce, so no path can be placed there beforehand): `argv` (the program and its arguments, each ended by a
// NUL byte), `env` (the SHA-256 of gitleaks' environment, never the environment itself: the user's environment may
// hold credentials, and no file may; `env -u _ -0 | LC_ALL=C sort -z | sha256sum`, in a subshell making the same
// unset/export as the one that ran gitleaks, without its `cd` to the top level, which only moves PWD/OLDPWD as node's
// own cwd does; written only when the shell hands the commit over), `status` (the exit code), `log` (stderr) and
// `report.json`.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { SECRETS_FAST_CONFIG } from './fast.js';
import { gitleaksEnv, LEAK_EXIT_CODE, parseLog, parseReport, scanArgs, type GitleaksCall, type GitleaksProbe, type ScanResult } from './gitleaks.js';

/** The variable naming the hand-off directory (set by the stored hook for node only). */
export const HANDOFF_ENV = 'LOOPGATES_HOOK_SECRETS';
/** The handshake variables the stored hook adds to node's environment only; gitleaks never saw them from the shell. */
const HOOK_ONLY_ENV = ['LOOPGATES_HOOK_ANSWER', 'LOOPGATES_HOOK_NONCE', 'LOOPGATES_HOOK_CLI', 'LOOPGATES_HOOK_FACTS', HANDOFF_ENV];
const FILES = ['argv', 'env', 'log', 'report.json', 'status'];

let taken = false;

/** What node would run: the scan's working directory, repository environment and --config bytes. */
export interface HandoffScan {
  /** The top level gitleaks runs in (the staged backing's root). */
  cwd: string;
  /** backing.env (GIT_INDEX_FILE of `git commit -a`, …), as node passes it to gitleaksEnv. */
  repoEnv: Readonly<Record<string, string>>;
  /** The bytes of the --config node wrote for this scan (writeScanConfig). */
  configBytes: Buffer;
  /** Whether that config is the default one (no team .gitleaks.toml): the only case the shell runs. */
  defaultConfig: boolean;
  /** `<git common dir>/loopgates/cache` (where fast.ts keeps the shell's --config copy). */
  cacheRoot: string;
}

/**
 * The shell's gitleaks run as node's ScanResult when all of this holds:
 * a hook run (handshake nonce, facts) whose top level is `scan.cwd`; the directory a private one of this uid named
 * for this hook's nonce, holding exactly the five files, each a regular file of this uid with one link; `argv` byte
 * for byte scanArgs' vector for node's binary and probe, with the cached --config (whose bytes equal node's) and the
 * directory's report.json; `env` the digest of exactly gitleaksEnv of node's environment without the handshake variables
 * (`_`, the shell's own, aside); the exit code 0 or LEAK_EXIT_CODE, no error in the log, a report that parses and agrees with
 * the exit code (as runScan requires). Taken at most once per process (the commit's one staged scan). Otherwise
 * the reason it was refused (for the verbose log; node then runs gitleaks). Never throws.
 */
export function handedScan(call: GitleaksCall, probe: GitleaksProbe, scan: HandoffScan, env: Readonly<Record<string, string | undefined>> = process.env): ScanResult | string {
  try {
    const dir = env[HANDOFF_ENV];
    const nonce = env.LOOPGATES_HOOK_NONCE ?? '';
    const top = (env.LOOPGATES_HOOK_FACTS ?? '').split('\n')[1];
    if (taken) return 'already taken once';
    if (!dir || !/^\d+$/.test(nonce) || !isAbsolute(dir) || top !== scan.cwd) return 'not a hook run of this top level';
    if (!scan.defaultConfig) return 'a team .gitleaks.toml (the shell runs only the default config)';
    if (!new RegExp(`^loopgates-secrets-${nonce}-[A-Za-z0-9]{6,}$`).test(basename(dir))) return 'the directory is not named for this hook run';
    const uid = process.getuid?.();
    const d = lstatSync(dir);
    if (!d.isDirectory() || d.uid !== uid || (d.mode & 0o777) !== 0o700) return 'the directory is not a private one of this user';
    if (readdirSync(dir).sort().join('\n') !== FILES.join('\n')) return `the directory does not hold exactly ${FILES.join(', ')}`;
    const read = (name: string) => {
      const st = lstatSync(join(dir, name));
      if (!st.isFile() || st.uid !== uid || st.nlink !== 1 || (st.mode & 0o022) !== 0) throw new Error(`${name} is not a private regular file`);
      return readFileSync(join(dir, name));
    };
    const reportPath = join(dir, 'report.json');
    const configPath = join(scan.cacheRoot, SECRETS_FAST_CONFIG);
    const cfg = lstatSync(configPath);
    if (!cfg.isFile() || !readFileSync(configPath).equals(scan.configBytes)) return 'its --config is not the one node would pass';
    const argv = nulList(read('argv'));
    const expected = [call.bin.path, ...scanArgs(probe, { kind: 'staged', configPath }, reportPath)];
    if (argv === undefined || argv.length !== expected.length || argv.some((a, i) => a !== expected[i])) return 'its arguments are not the ones node would pass';
    const envDiff = envMismatch(read('env'), gitleaksEnv(withoutHookOnly(env), scan.repoEnv), env, scan.cwd);
    if (envDiff) return `its environment is not the one node would pass (${envDiff})`;
    const status = /^(\d{1,3})\n?$/.exec(read('status').toString('latin1'))?.[1];
    const exitCode = Number(status);
    if (status === undefined || (exitCode !== 0 && exitCode !== LEAK_EXIT_CODE)) return `gitleaks exited ${status ?? '(unknown)'}`;
    const stderr = read('log').toString('utf8');
    const log = parseLog(stderr);
    if (log.errors.length) return 'gitleaks logged an error';
    const findings = parseReport(read('report.json').toString('utf8'));
    if ((exitCode === 0) !== (findings.length === 0) || saidFound(stderr) !== findings.length) return 'its exit code, log and report disagree';
    taken = true;
    return { findings, commitsScanned: log.commitsScanned, args: expected.slice(1).map((a) => (a === reportPath ? '<report>' : a)) };
  } catch (e) {
    return `unreadable (${e instanceof Error ? e.message : String(e)})`;
  }
}

/** For tests: let the next handedScan in this process take a hand-off again. */
export function resetHandoff(): void {
  taken = false;
}

/**
 * How many leaks gitleaks' log says it found: 0 for its `no leaks found` line, N for `leaks found: N`; undefined when
 * it says neither or both (another gitleaks wording: node runs gitleaks itself). Checked against the report, which
 * runScan does not need for its own run but a hand-off does: the three files must tell one story.
 */
function saidFound(stderr: string): number | undefined {
  let said: number | undefined;
  let lines = 0;
  for (const raw of stderr.split(/\r?\n/)) {
    const line = raw.replace(/\x1b\[[0-9;]*m/g, '').trim();
    const m = /(?:^|\s)(?:(no) leaks found|leaks found: (\d+))$/.exec(line);
    if (!m) continue;
    lines++;
    said = m[1] ? 0 : Number(m[2]);
  }
  return lines === 1 ? said : undefined;
}

/** Each NUL-ended entry of `bytes` (UTF-8), or undefined when the last one is not ended. */
function nulList(bytes: Buffer): string[] | undefined {
  if (bytes.length === 0 || bytes[bytes.length - 1] !== 0) return undefined;
  return bytes.subarray(0, -1).toString('utf8').split('\0');
}

function withoutHookOnly(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  const out = { ...env };
  for (const k of HOOK_ONLY_ENV) delete out[k];
  return out;
}

/**
 * Why the shell's digest `bytes` (sha256sum's line) is not the one of `expected` (undefined values and `_`, the
 * shell's own, absent), or '' when it is: the SHA-256 of each `NAME=value` in UTF-8, sorted bytewise (`LC_ALL=C sort
 * -z`), each ended by a NUL byte. GIT_INDEX_FILE counts as the file it names: git hands hooks the path it wrote (often
 * relative), which the shell passes on as it is and git and gitleaks read against the top level `top`, and node
 * passes it made absolute against the same top level (core/git.ts gitEnv); so node digests the value it was handed
 * (`raw`, its own environment's) when that names the same file. A digest names no variable that differs.
 */
function envMismatch(bytes: Buffer, expected: Readonly<Record<string, string | undefined>>, raw: Readonly<Record<string, string | undefined>>, top: string): string {
  const got = /^([0-9a-f]{64}) {2}-\n$/.exec(bytes.toString('latin1'))?.[1];
  if (!got) return 'not a sha256sum line';
  const want = new Map(Object.entries(expected).filter((e): e is [string, string] => e[1] !== undefined && e[0] !== '_'));
  const index = raw.GIT_INDEX_FILE;
  if (index !== undefined && want.get('GIT_INDEX_FILE') === resolve(top, index)) want.set('GIT_INDEX_FILE', index);
  const entries = [...want].map(([k, v]) => Buffer.from(`${k}=${v}`, 'utf8')).sort(Buffer.compare);
  const hash = createHash('sha256');
  for (const e of entries) hash.update(e).update('\0');
  return hash.digest('hex') === got ? '' : 'its digest differs';
}
