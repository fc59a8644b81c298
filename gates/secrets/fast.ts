// The secrets gate's node-free pass (hooks/pre-commit loopgates_try_secrets): what the stored hook needs to run
// `gitleaks protect --staged` itself, exactly as scan.ts would, and pass a commit that only the secrets gate reads
// when gitleaks finds nothing, without starting node. Written by node (commands/hook.ts refreshSecretsFastPath) to
// `<git common dir>/loopgates/cache/hook-secrets` (+ `-paths`, `-stamp`) only in the plain case it can vouch for from
// its own caches; read by the shell, which hands every other commit to node. Line-based like the hook plan.
//
// The plain case, all of it checked again by the shell on every commit (else node judges):
// - gitleaks' default config: no .gitleaks.toml in the index or the working tree (scan.ts passes no --config), and
//   none staged (a deletion is judged by HEAD's config too);
// - the binary the shell finds as resolveGitleaks does is the one whose probe and staged canary proof are cached
//   (path, inode and size from `ls -lniL`, mtime equal to a stamp file's: `test -nt` / `-ot`);
// - no .gitleaksignore in the index or in the work tree (later gitleaks releases read ./.gitleaksignore themselves;
//   only node's filter may apply one);
// - every staged input is a regular file (no symlink, no submodule), not binary for git (numstat), not a Git LFS
//   pointer nor UTF-16 by its first bytes nor holding a gitleaks:allow comment (git grep), with a `diff` attribute git diff shows (check-attr), at a path
//   the path probe proved gitleaks does not skip (the `-paths` list);
// - gitleaks, with scanArgs' exact arguments (its --config a copy, in the cache, of the bytes writeScanConfig writes:
//   the shipped extra rules) and gitleaksEnv's recipe, exits 0, logs only its three plain lines
//   (1 commit scanned, scan completed, no leaks found) and writes the report `[]`.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GIT_NEUTRALISERS, DROPPED_ENV, extraRules, probeCacheKey, readJson, resolveGitleaks, scanArgs, canaryKey, type GitleaksProbe } from './gitleaks.js';
import { knownScanned } from './path-probe.js';
import { GATE_ID } from './index.js';

/** File names inside the cache root. */
export const SECRETS_FAST_FILE = 'hook-secrets';
export const SECRETS_FAST_PATHS = 'hook-secrets-paths';
export const SECRETS_FAST_STAMP = 'hook-secrets-stamp';
/** The --config the shell passes: what writeScanConfig writes without a team config (the shipped extra rules). */
export const SECRETS_FAST_CONFIG = 'hook-secrets-config.toml';
/** Bumped whenever the stored hook would read the file differently. */
export const SECRETS_FAST_FORMAT = 1;
/** The report path's place in the `arg` lines; the shell puts its own file there. */
export const REPORT_PLACEHOLDER = '@REPORT@';

/** What node knows when it writes the file (all from the hook run that writes it). */
export interface SecretsFastInput {
  version: string;
  cli: string;
  /** Blob id of the staged loopgates.yaml. */
  configOid: string;
  /** Blob id of the staged .gitleaksignore, or null when the index has none. */
  ignoreOid: string | null;
  /** Its bytes (the canary proof is keyed by them). */
  ignore: Buffer | undefined;
  /** Whether the index holds a .gitleaks.toml, and whether the working tree does. */
  configInIndex: boolean;
  topLevel: string;
  /** The gate's cache dir (`<cacheRoot>/secrets`). */
  cacheDir: string;
  cacheRoot: string;
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * Write (or remove) the fast-path files in `cacheRoot`. Removed whenever the plain case does not hold or a cache
 * that proves it is missing: the shell then hands every secrets commit to node. Never throws (a cache only).
 */
export function refreshSecretsFast(p: SecretsFastInput): 'written' | 'kept' | 'removed' {
  const file = join(p.cacheRoot, SECRETS_FAST_FILE);
  const drop = () => {
    for (const f of [SECRETS_FAST_FILE, SECRETS_FAST_PATHS, SECRETS_FAST_STAMP, SECRETS_FAST_CONFIG]) rmSync(join(p.cacheRoot, f), { force: true });
    return 'removed' as const;
  };
  try {
    // A .gitleaksignore in the index or on disk: node's (the shell checks the same; hooks/pre-commit says why).
    if (p.configInIndex || existsSync(join(p.topLevel, '.gitleaks.toml')) || p.ignoreOid !== null || lstatSync(join(p.topLevel, '.gitleaksignore'), { throwIfNoEntry: false })) return drop();
    const bin = resolveGitleaks(p.env);
    const probes = readJson(join(p.cacheDir, 'gitleaks-probe.json')) as Record<string, GitleaksProbe> | null;
    const probe = probes?.[probeCacheKey(bin)];
    if (!probe || (probe.staged !== 'protect' && probe.staged !== 'git') || typeof probe.ignoreAllowFlag !== 'boolean') return drop();
    const canaries = readJson(join(p.cacheDir, 'gitleaks-canary.json')) as Record<string, { columnShift: number }> | null;
    if (!canaries?.[canaryKey(bin, probe, 'staged', { ignore: p.ignore })]) return drop();
    const st = statSync(bin.path);
    // The scan's --config (gitleaks.ts writeScanConfig with no team config): the same bytes, kept in the cache.
    const configPath = join(p.cacheRoot, SECRETS_FAST_CONFIG);
    const configText = extraRules();
    const args = scanArgs(probe, { kind: 'staged', configPath }, REPORT_PLACEHOLDER);
    const text = [
      `loopgates-secrets ${SECRETS_FAST_FORMAT}`,
      `version ${p.version}`,
      `cli ${p.cli}`,
      `config ${p.configOid}`,
      p.ignoreOid ? `ignore ${p.ignoreOid}` : 'ignore-absent',
      `gitleaks ${bin.path}`,
      `gitleaks-file ${st.ino} ${st.size}`,
      ...args.map((a) => `arg ${a}`),
      ...DROPPED_ENV.map((k) => `unset ${k}`),
      ...GIT_NEUTRALISERS.flatMap(([k, v], i) => [`env GIT_CONFIG_KEY_${i}=${k}`, `env GIT_CONFIG_VALUE_${i}=${v}`]),
      `env GIT_CONFIG_COUNT=${GIT_NEUTRALISERS.length}`,
      'env NO_COLOR=1',
      // What node's ledger says for a staged secrets pass (entriesFor), with the shell's @TS@ and @FILES@.
      `ledger-line ${JSON.stringify({ ts: '@TS@', kind: 'run', gate: GATE_ID, verdict: 'pass', mode: 'staged', counts: { files: '@FILES@', items: 1, filtered: 0, suppressed: 0, findings: 0 }, durationMs: 0, findings: [], via: 'hook-plan' }).replace('"@FILES@"', '@FILES@')}`,
      'end',
      '',
    ].join('\n');
    if (/[\r\0]/.test(text)) return drop();
    // Only names the shell compares (it hands any path git quotes to node), one a line. A name that is not UTF-8
    // (core/paths.ts escapes its bytes as U+DC80..U+DCFF) or not ASCII is left out, never written lossily: git quotes it,
    // so the shell hands that commit to node, which reads it by its bytes.
    const paths = `${knownScanned(p.cacheDir, bin, probe)
      .filter((x) => !/[\x00-\x1f"\\\x7f-\uffff]/.test(x))
      .sort()
      .join('\n')}\n`;
    const stamp = join(p.cacheRoot, SECRETS_FAST_STAMP);
    // To the nanosecond, as the shell's `test -nt` / `-ot` compare (dash, bash: st_mtim).
    const sameTime = () => statSync(stamp, { bigint: true }).mtimeNs === statSync(bin.path, { bigint: true }).mtimeNs;
    let same = false;
    try {
      same = readFileSync(file, 'utf8') === text && readFileSync(join(p.cacheRoot, SECRETS_FAST_PATHS), 'utf8') === paths && readFileSync(configPath, 'utf8') === configText && sameTime();
    } catch {
      /* not there yet */
    }
    if (same) return 'kept';
    // The paths list and the stamp first: the shell reads the main file last-written as the go-ahead.
    rmSync(file, { force: true });
    writeFileSync(join(p.cacheRoot, SECRETS_FAST_PATHS), paths);
    writeFileSync(configPath, configText);
    writeFileSync(stamp, '');
    // touch -r copies the time exactly (utimes from JS numbers loses nanoseconds); only when the file is rewritten.
    execFileSync('touch', ['-r', bin.path, stamp], { stdio: 'ignore' });
    if (!sameTime()) return drop();
    writeFileSync(`${file}.${process.pid}.tmp`, text);
    renameSync(`${file}.${process.pid}.tmp`, file);
    return 'written';
  } catch {
    return drop();
  }
}
