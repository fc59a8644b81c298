// gitleaks (https://github.com/gitleaks/gitleaks): binary resolution, capability probe by help output, the scan
// itself (protect --staged / git --pre-commit --staged, detect --no-git / dir), JSON report parsing, .gitleaksignore
// and the canary that proves the scanner sees. Upstream: README.md "Usage", "Exit Codes", ".gitleaksignore",
// cmd/root.go (global flags) and report/json.go (the JSON report: an array of findings).
//
// Why so much ceremony: gitleaks fails open. Outside a repository, on a corrupt index, with `color.ui=always` or
// `diff.external` in git config, or with a `-diff` attribute, `gitleaks protect --staged` exits 0 with
// "no leaks found". Every path here that cannot prove gitleaks looked throws a LoopgatesError instead.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tomlOf } from './allowlist.js';
import { extendedCopyName, withExtendPath, type ExtendedFile } from './extend.js';
import { z } from 'zod';
import { lazySchema } from '../../core/lazy-schema.js';
import { LoopgatesError, ToolMissingError } from '../../core/errors.js';
import { REPO_ENV_KEYS, git } from '../../core/git.js';
import { fsPath, hasRawBytes, lossyIndex, pathBytes } from '../../core/paths.js';
import { installHints } from '../../core/tools.js';
import type { RunTool } from '../../core/types.js';
import { fakeAwsAccessKey, fakeGithubToken, fakePemBlock } from './credentials.js';

/** Exit code we ask gitleaks to use for "leaks found"; distinct from its error exit (1) and unknown-flag exit (126). */
export const LEAK_EXIT_CODE = 42;

/** The one step that repairs a missing or broken gitleaks. */
export const GITLEAKS_FIX = installHints.gitleaks ?? 'install gitleaks 8.16 or newer';

/**
 * Bumped when the scan's flags or environment change, or what a cached canary proof means, so cached canary results
 * are not reused across versions. 2: a proof means every planted credential was reported (1: at least one was).
 */
const SCAN_RECIPE_VERSION = 3;

// ---------------------------------------------------------------------------------------------------------------
// Binary

/**
 * A config meaning "gitleaks' default rules" (README "Configuration": `[extend] useDefault = true` extends the
 * built-in config/gitleaks.toml and adds nothing). Passed with --config when the snapshot has no .gitleaks.toml but
 * the scan's source directory (the working tree) has one that gitleaks would otherwise read.
 */
export const DEFAULT_CONFIG_TOML = '# loopgates: gitleaks default rules\n[extend]\nuseDefault = true\n';

/** The shipped extra rules file: `rules/` at the package root (beside dist/, or the source tree under vitest). */
const EXTRA_RULES_NAME = 'gitleaks-extra.toml';
let extraRulesText: string | undefined;

/**
 * The shipped extra gitleaks rules (rules/gitleaks-extra.toml: gitleaks' own config format with `[extend] useDefault =
 * true`), read once. Throws LoopgatesError when the package lost the file (fix: reinstall loopgates).
 */
export function extraRules(): string {
  if (extraRulesText !== undefined) return extraRulesText;
  const here = dirname(fileURLToPath(import.meta.url));
  // dist/gates/secrets -> ../../../rules; gates/secrets (vitest on the sources) -> ../../rules.
  for (const up of [join(here, '..', '..', '..', 'rules'), join(here, '..', '..', 'rules')]) {
    try {
      extraRulesText = readFileSync(join(up, EXTRA_RULES_NAME), 'utf8');
      return extraRulesText;
    } catch {
      /* try the next */
    }
  }
  throw new LoopgatesError(`the shipped gitleaks rules (rules/${EXTRA_RULES_NAME}) are missing beside ${here}`, 'reinstall loopgates (its package ships rules/)');
}

/** sha256 of the extra rules (part of every cache key whose answer depends on the rules gitleaks ran). */
export function extraRulesDigest(): string {
  return sha256(extraRules());
}

/**
 * Write the config one scan passes as --config into `dir` and return its path: the shipped extra rules
 * (extraRules) over gitleaks' defaults when the repository has no `.gitleaks.toml` (`team` undefined); with one, the
 * team's copy as `team.toml` and the extra rules extending it (`[extend] path`, since gitleaks refuses `path` and
 * `useDefault` together), so the team's rules, useDefault and allowlists apply as before (its allowlists to the extra
 * rules too). A team config that itself extends a file by path, or that does not parse, is passed alone: gitleaks
 * extends two levels deep only, and reports its own parse errors.
 */
export function writeScanConfig(dir: string, team: Buffer | undefined, extended: readonly ExtendedFile[] = []): string {
  const ours = join(dir, 'loopgates-gitleaks.toml');
  if (team === undefined) {
    writeFileSync(ours, extraRules());
    return ours;
  }
  const teamPath = join(dir, 'team.toml');
  writeFileSync(teamPath, team);
  const doc = tomlOf(team);
  if (!doc) return teamPath;
  const extend = doc.extend as { path?: unknown } | undefined;
  if (extend && typeof extend === 'object' && typeof extend.path === 'string' && extend.path !== '') {
    // The files it extends (extend.ts extendChain: the snapshot's bytes), copied beside it and named by absolute
    // path: a relative path would resolve against gitleaks' working directory (the work tree, or a scratch dir).
    const copies = extended.slice(0, 2).map((e, i) => join(dir, extendedCopyName(i + 1, e.path)));
    extended.slice(0, 2).forEach((e, i) => writeFileSync(copies[i]!, i === 0 && copies[1] ? withExtendPath(e.bytes, copies[1]) : e.bytes));
    if (copies[0]) writeFileSync(teamPath, withExtendPath(team, copies[0]));
    return teamPath;
  }
  let text = extraRules().replace(/^\[extend\]\nuseDefault = true\n/m, `[extend]\npath = ${JSON.stringify(teamPath)}\n`);
  if (text === extraRules()) throw new LoopgatesError(`rules/${EXTRA_RULES_NAME} has no "[extend]\\nuseDefault = true" section`, 'reinstall loopgates (its package ships rules/)');
  // gitleaks 8.16's extend appends the extended config's allowlist paths, regexes and commits but drops its stopwords
  // (measured: a team stopword stopped applying), so they are repeated at the top level.
  const list = doc.allowlist as { stopwords?: unknown } | undefined;
  const stopwords = list && typeof list === 'object' && Array.isArray(list.stopwords) ? list.stopwords.filter((w): w is string => typeof w === 'string') : [];
  if (stopwords.length) text += `\n[allowlist]\nstopwords = [${stopwords.map((w) => JSON.stringify(w)).join(', ')}]\n`;
  writeFileSync(ours, text);
  return ours;
}

/** The gitleaks binary a run uses: absolute path, size (bytes) and mtime (ms) identify it for the caches. */
export interface GitleaksBinary {
  path: string;
  size: number;
  mtimeMs: number;
  /** Where it came from: `LOOPGATES_GITLEAKS` or a PATH lookup. */
  from: 'LOOPGATES_GITLEAKS' | 'PATH';
}

/**
 * The gitleaks that scripts/setup-gitleaks.sh (run by the README's `bash scripts/example.sh`) put in this loopgates
 * checkout, `<checkout>/.tools/gitleaks/usr/bin/gitleaks`, when it is there; undefined in an npm-installed package.
 * Never used by itself (a commit's hook runs with the committer's PATH): only named in the missing-gitleaks fix.
 */
export function checkoutGitleaks(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  // dist/gates/secrets -> ../../..; gates/secrets (vitest on the sources) -> ../..
  for (const root of [join(here, '..', '..', '..'), join(here, '..', '..')]) {
    const candidate = join(root, '.tools', 'gitleaks', 'usr', 'bin', 'gitleaks');
    if (statFile(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The fix for a gitleaks that is on no PATH: the checkout's own copy (`ownCopy`, see checkoutGitleaks) put on PATH,
 * when there is one, else how to install it (fresh-user-3 F9).
 */
export function missingGitleaksFix(ownCopy: string | undefined): string {
  if (!ownCopy) return GITLEAKS_FIX;
  return `this loopgates checkout already has gitleaks (${ownCopy}): export PATH=${dirname(ownCopy)}${delimiter}$PATH (or LOOPGATES_GITLEAKS=${ownCopy}) in the shell that commits, then run the command again; or ${GITLEAKS_FIX}`;
}

/**
 * Find gitleaks: `LOOPGATES_GITLEAKS` when set (a path), else the first `gitleaks` on `PATH` (with PATHEXT on
 * Windows). Throws ToolMissingError (exit 2, fix: missingGitleaksFix(ownCopy())) when there is none.
 */
export function resolveGitleaks(env: Readonly<Record<string, string | undefined>> = process.env, ownCopy: () => string | undefined = checkoutGitleaks): GitleaksBinary {
  const explicit = env.LOOPGATES_GITLEAKS;
  if (explicit !== undefined && explicit !== '') {
    const st = statFile(explicit);
    if (!st) throw new ToolMissingError(`gitleaks (LOOPGATES_GITLEAKS=${explicit})`, `point LOOPGATES_GITLEAKS at an existing gitleaks binary, or unset it and ${GITLEAKS_FIX}`);
    return { path: explicit, size: st.size, mtimeMs: st.mtimeMs, from: 'LOOPGATES_GITLEAKS' };
  }
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').filter(Boolean) : [''];
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const candidate = join(dir, `gitleaks${ext.toLowerCase()}`);
      const st = statFile(candidate);
      if (st) return { path: candidate, size: st.size, mtimeMs: st.mtimeMs, from: 'PATH' };
    }
  }
  throw new ToolMissingError('gitleaks', missingGitleaksFix(ownCopy()));
}

function statFile(path: string): { size: number; mtimeMs: number } | null {
  try {
    const st = statSync(path);
    return st.isFile() ? { size: st.size, mtimeMs: st.mtimeMs } : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Probe

/**
 * What an installed gitleaks offers, read from its help output (never from `gitleaks version`: the Debian build
 * prints "version is set by build process").
 * - `staged`: `protect` (`protect --staged`, 8.16 to current, hidden from `--help` since 8.19 but still answering
 *   `protect --help`) or `git` (`git --pre-commit --staged`, 8.19+; scans history instead in 8.19.0-8.19.3, which
 *   is why `protect` wins whenever it is offered).
 * - `dir`: `detect` (`detect --no-git`) or `dir` (8.19+).
 * - `ignorePathFlag`: `--gitleaks-ignore-path` exists (newer releases), so a scratch scan can be pointed at the
 *   snapshot's `.gitleaksignore`.
 * - `ignoreAllowFlag`: `--ignore-gitleaks-allow` exists (8.16 and later), so gitleaks reports a finding whose line
 *   holds a `gitleaks:allow` comment and the gate decides (scan.ts: counted as filtered and named, never silent).
 */
export interface GitleaksProbe {
  staged: 'protect' | 'git';
  dir: 'detect' | 'dir';
  ignorePathFlag: boolean;
  ignoreAllowFlag: boolean;
}

/** Help texts of one binary: `--help`, and `<sub> --help` for each subcommand asked (absent when it failed). */
export interface GitleaksHelp {
  root: string;
  protect?: string | undefined;
  detect?: string | undefined;
  git?: string | undefined;
  dir?: string | undefined;
}

/** Global flags the scan passes; a gitleaks without any of them cannot run our scan. */
const REQUIRED_FLAGS = ['--redact', '--no-banner', '--exit-code', '--report-path', '--report-format', '--config'] as const;

/** Whether `help` is the help of subcommand `sub` (cobra prints `Usage:\n  gitleaks <sub> [flags]`). */
function isHelpOf(help: string | undefined, sub: string): help is string {
  return help !== undefined && new RegExp(`^\\s*gitleaks ${sub}\\b(?! \\[command\\])`, 'm').test(help);
}

function hasFlag(help: string, flag: string): boolean {
  return new RegExp(`(^|[\\s,])${flag.replace(/-/g, '\\-')}(?![\\w-])`, 'm').test(help);
}

/**
 * Decide the commands from help texts. Pure. Throws LoopgatesError when a required global flag or any staged or
 * directory scan command is missing (the fix: install a gitleaks that has them).
 */
export function parseProbe(help: GitleaksHelp): GitleaksProbe {
  if (!/gitleaks/i.test(help.root)) {
    throw new LoopgatesError('the gitleaks binary printed no gitleaks help for --help', GITLEAKS_FIX);
  }
  const flagsText = [help.root, help.protect, help.detect, help.git, help.dir].filter(Boolean).join('\n');
  const missing = REQUIRED_FLAGS.filter((f) => !hasFlag(flagsText, f));
  if (missing.length) {
    throw new LoopgatesError(`gitleaks does not offer ${missing.join(', ')} (gitleaks 8.16 or newer is required)`, GITLEAKS_FIX);
  }
  let staged: GitleaksProbe['staged'];
  if (isHelpOf(help.protect, 'protect') && hasFlag(help.protect, '--staged')) staged = 'protect';
  else if (isHelpOf(help.git, 'git') && hasFlag(help.git, '--staged') && hasFlag(help.git, '--pre-commit')) staged = 'git';
  else throw new LoopgatesError('gitleaks offers neither `protect --staged` nor `git --pre-commit --staged`', GITLEAKS_FIX);
  let dir: GitleaksProbe['dir'];
  if (isHelpOf(help.detect, 'detect') && hasFlag(help.detect, '--no-git')) dir = 'detect';
  else if (isHelpOf(help.dir, 'dir')) dir = 'dir';
  else throw new LoopgatesError('gitleaks offers neither `detect --no-git` nor `dir`', GITLEAKS_FIX);
  return { staged, dir, ignorePathFlag: hasFlag(flagsText, '--gitleaks-ignore-path'), ignoreAllowFlag: hasFlag(flagsText, '--ignore-gitleaks-allow') };
}

/** The key of `bin`'s entry in `<cacheDir>/gitleaks-probe.json`. */
export function probeCacheKey(bin: GitleaksBinary): string {
  return `${bin.path}\0${bin.size}\0${bin.mtimeMs}`;
}

/** Options shared by the calls that run gitleaks. */
export interface GitleaksCall {
  bin: GitleaksBinary;
  runTool: RunTool;
  signal: AbortSignal;
  /** Bound for one gitleaks process, ms. */
  timeoutMs: number;
  /** Where probe and canary results are cached (ctx.cacheDir). */
  cacheDir: string;
}

/**
 * Probe `call.bin` (see GitleaksProbe), cached in `<cacheDir>/gitleaks-probe.json` by binary path + size + mtime.
 * Throws ToolMissingError (ENOENT) or LoopgatesError (not a usable gitleaks).
 */
export async function probeGitleaks(call: GitleaksCall): Promise<GitleaksProbe> {
  const key = probeCacheKey(call.bin);
  const cacheFile = join(call.cacheDir, 'gitleaks-probe.json');
  const cached = readJson(cacheFile) as Record<string, GitleaksProbe> | null;
  const hit = cached?.[key];
  if (hit && (hit.staged === 'protect' || hit.staged === 'git') && (hit.dir === 'detect' || hit.dir === 'dir') && typeof hit.ignoreAllowFlag === 'boolean') return hit;
  const help = async (args: string[]): Promise<string | undefined> => {
    const r = await call.runTool(call.bin.path, args, { cwd: tmpdir(), timeoutMs: Math.min(call.timeoutMs, 30_000), signal: call.signal, env: { NO_COLOR: '1' } });
    if (r.timedOut) throw new LoopgatesError(`gitleaks ${args.join(' ')} did not answer within ${Math.min(call.timeoutMs, 30_000)} ms`, GITLEAKS_FIX);
    return r.exitCode === 0 ? r.stdout + r.stderr : undefined;
  };
  const [root, protect, detect] = await Promise.all([help(['--help']), help(['protect', '--help']), help(['detect', '--help'])]);
  const h: GitleaksHelp = { root: root ?? '', protect, detect };
  if (!isHelpOf(protect, 'protect')) h.git = await help(['git', '--help']);
  if (!isHelpOf(detect, 'detect')) h.dir = await help(['dir', '--help']);
  const probe = parseProbe(h);
  writeJson(cacheFile, { ...(cached ?? {}), [key]: probe });
  return probe;
}

// ---------------------------------------------------------------------------------------------------------------
// Environment

/**
 * Git config that blinds gitleaks, overridden for its `git diff` through GIT_CONFIG_COUNT/KEY/VALUE (and appended
 * to GIT_CONFIG_PARAMETERS when a `git -c` caller set that, since those win over GIT_CONFIG_COUNT). Each was
 * checked against gitleaks 8.16 + git 2.39 (test/integration/secrets-git-config.test.ts):
 * - color.ui / color.diff `always`: the diff is coloured, gitleaks parses nothing ("0 commits scanned", exit 0).
 * - diff.noprefix `true`: paths lose their first directory (`app/Main.kt` reported as `Main.kt`).
 * - diff.mnemonicPrefix, diff.srcPrefix, diff.dstPrefix: other prefixes than a/ b/ (the last two from git 2.45).
 * core.quotePath, diff.relative, diff.renames, diff.context, core.autocrlf were tested and do not matter.
 * diff.external and `-diff` / textconv attributes cannot be overridden here: the scan detects them ("0 commits
 * scanned", `git check-attr diff`) and scans those staged files as files instead.
 */
export const GIT_NEUTRALISERS: ReadonlyArray<readonly [key: string, value: string]> = [
  ['color.ui', 'never'],
  ['color.diff', 'never'],
  ['diff.noprefix', 'false'],
  ['diff.mnemonicPrefix', 'false'],
  ['diff.srcPrefix', 'a/'],
  ['diff.dstPrefix', 'b/'],
];

/** Variables removed from gitleaks' environment: they blind its git diff or swap its config behind our back. */
export const DROPPED_ENV = ['GIT_EXTERNAL_DIFF', 'GIT_DIFF_OPTS', 'GIT_PAGER', 'GITLEAKS_CONFIG', 'GITLEAKS_CONFIG_TOML'] as const;

/**
 * The complete environment for one gitleaks process (pass with `extendEnv: false`): `base` without its
 * repository-selecting GIT_* keys and DROPPED_ENV, then `repoEnv` unchanged (GIT_INDEX_FILE of `git commit -a` /
 * `git commit -- path` must reach gitleaks), then GIT_NEUTRALISERS appended after any GIT_CONFIG_COUNT entries.
 */
export function gitleaksEnv(base: Readonly<Record<string, string | undefined>>, repoEnv: Readonly<Record<string, string>>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...base };
  for (const k of REPO_ENV_KEYS) delete env[k];
  for (const k of DROPPED_ENV) delete env[k];
  Object.assign(env, repoEnv);
  const existing = Number.parseInt(env.GIT_CONFIG_COUNT ?? '0', 10);
  let n = Number.isFinite(existing) && existing > 0 ? existing : 0;
  for (const [key, value] of GIT_NEUTRALISERS) {
    env[`GIT_CONFIG_KEY_${n}`] = key;
    env[`GIT_CONFIG_VALUE_${n}`] = value;
    n++;
  }
  env.GIT_CONFIG_COUNT = String(n);
  if (env.GIT_CONFIG_PARAMETERS) {
    env.GIT_CONFIG_PARAMETERS += GIT_NEUTRALISERS.map(([k, v]) => ` '${k}'='${v}'`).join('');
  }
  env.NO_COLOR = '1';
  return env;
}

// ---------------------------------------------------------------------------------------------------------------
// Scratch space

const liveScratch = new Set<string>();
let exitHookInstalled = false;

/**
 * A fresh directory under the OS temp dir, removed by `removeScratch` or, if the process exits first (Ctrl-C,
 * timeout), by an exit handler. Never inside the user's repository.
 */
export function makeScratch(label: string): string {
  const dir = mkdtempSync(join(tmpdir(), `loopgates-secrets-${label}-`));
  liveScratch.add(dir);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const d of liveScratch) rmSync(d, { recursive: true, force: true });
    });
  }
  return dir;
}

/** Remove a scratch directory made by `makeScratch`. Never throws. */
export function removeScratch(dir: string): void {
  liveScratch.delete(dir);
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    /* a leftover temp dir is not worth failing a verdict */
  }
}

/** Scratch directories not yet removed (tests assert it is empty after a run). */
export function liveScratchDirs(): readonly string[] {
  return [...liveScratch];
}

/** Reject paths that would escape a scratch directory or land in its `.git`. */
function safeRelative(path: string): string {
  const parts = path.split('/');
  if (isAbsolute(path) || parts.some((p) => p === '..' || p === '') || parts[0] === '.git') {
    throw new LoopgatesError(`refusing to materialise ${JSON.stringify(path)} into a scratch space`, 'report this: it is a loopgates bug');
  }
  return parts.join(sep);
}

/** Write `files` under `dir` (bytes exact). */
export function materialise(dir: string, files: ReadonlyMap<string, Buffer>): void {
  for (const [path, bytes] of files) {
    const abs = join(dir, safeRelative(path));
    if (hasRawBytes(path)) {
      // A name that is not UTF-8 (core/paths.ts): written under its exact bytes.
      const slash = path.lastIndexOf('/');
      if (slash > 0) mkdirSync(fsPath(dir, path.slice(0, slash)), { recursive: true });
      writeFileSync(fsPath(dir, path), bytes);
      continue;
    }
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, bytes);
  }
}

/** A scratch git repository whose *scratch index* (not `.git/index`) holds `files` staged, nothing committed. */
export interface ScratchRepo {
  /** Work tree top level (cwd for gitleaks). */
  root: string;
  /** GIT_DIR, GIT_WORK_TREE and a non-default GIT_INDEX_FILE, as a hook would receive them. */
  env: Record<string, string>;
}

/**
 * Create a repository in `dir/repo` and stage `files` into a scratch index `GIT_INDEX_FILE=.git/loopgates-index`
 * (blobs written with `hash-object --no-filters`, so no autocrlf or attribute filter changes a byte). The work tree
 * stays empty: `git diff --staged` compares the index with HEAD only. Throws GitError.
 */
export async function scratchRepo(dir: string, files: ReadonlyMap<string, Buffer>, signal?: AbortSignal): Promise<ScratchRepo> {
  const root = join(dir, 'repo');
  mkdirSync(root, { recursive: true });
  const gitDir = join(root, '.git');
  await git(['-c', 'init.defaultBranch=main', 'init', '-q', root], { cwd: dir, env: {} });
  const env = { GIT_DIR: gitDir, GIT_WORK_TREE: root, GIT_INDEX_FILE: join(gitDir, 'loopgates-index') };
  const blobs = join(dir, 'blobs');
  mkdirSync(blobs, { recursive: true });
  const entries = [...files];
  entries.forEach(([, bytes], i) => writeFileSync(join(blobs, String(i)), bytes));
  if (signal?.aborted) throw new LoopgatesError('secrets scan aborted', 'run the commit again');
  const hashed = entries.length
    ? (await git(['hash-object', '-w', '--no-filters', '--stdin-paths'], { cwd: root, env, input: entries.map((_, i) => join(blobs, String(i))).join('\n') + '\n' })).stdout
        .toString('utf8')
        .trim()
        .split('\n')
    : [];
  const info = entries.map(([path], i) => {
    safeRelative(path);
    return Buffer.concat([Buffer.from(`100644 ${hashed[i]}\t`, 'utf8'), pathBytes(path), Buffer.from([0])]);
  });
  await git(['update-index', '--add', '-z', '--index-info'], { cwd: root, env, input: Buffer.concat(info) });
  return { root, env };
}

// ---------------------------------------------------------------------------------------------------------------
// Scan

/** One finding as gitleaks' JSON report gives it; Secret/Match/Line are never read (they are redacted anyway). */
export interface GitleaksFinding {
  rule: string;
  description: string;
  /** Path as gitleaks printed it (repository- or source-relative). */
  file: string;
  /** 1-based. */
  line: number;
  /** gitleaks' 1-based byte column (off by one on lines after the first in 8.16; see CanaryOutcome). */
  byteColumn: number;
  /** 1-based last line of the match (a PEM block spans several); `line` when gitleaks gave none. */
  endLine: number;
}

// Built on first use (core/lazy-schema.ts): a clean scan reports `[]`, which parseReport takes without zod.
const reportSchema = lazySchema(() =>
  z.array(
    z
      .object({
        RuleID: z.string().min(1),
        Description: z.string().optional(),
        File: z.string().min(1),
        StartLine: z.number().int().min(1),
        StartColumn: z.number().int(),
        EndLine: z.number().int().optional(),
      })
      .passthrough(),
  ),
);

/**
 * Parse a gitleaks JSON report (report/json.go: an array of findings with RuleID, Description, File, StartLine,
 * StartColumn...). Throws LoopgatesError when it is not such an array.
 */
export function parseReport(text: string): GitleaksFinding[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new LoopgatesError('the gitleaks JSON report is not valid JSON', GITLEAKS_FIX);
  }
  // An empty array is what the schema accepts as it is, and what every clean scan reports: no zod for it.
  if (Array.isArray(data) && data.length === 0) return [];
  const parsed = reportSchema.safeParse(data);
  if (!parsed.success) throw new LoopgatesError(`the gitleaks JSON report has an unexpected shape (${parsed.error.issues[0]?.path.join('.') || 'root'}: ${parsed.error.issues[0]?.message ?? ''})`, GITLEAKS_FIX);
  return parsed.data.map((f) => ({ rule: f.RuleID, description: f.Description ?? '', file: f.File, line: f.StartLine, byteColumn: f.StartColumn, endLine: Math.max(f.StartLine, f.EndLine ?? f.StartLine) }));
}

/** What gitleaks' log (stderr) told: error lines, and "N commits scanned" when printed. */
export interface GitleaksLog {
  errors: string[];
  commitsScanned: number | null;
}

/** Read gitleaks' zerolog console log: ANSI colours stripped; levels ERR, FTL and PNC are errors. Pure. */
export function parseLog(stderr: string): GitleaksLog {
  const errors: string[] = [];
  let commitsScanned: number | null = null;
  for (const raw of stderr.split(/\r?\n/)) {
    const line = raw.replace(/\x1b\[[0-9;]*m/g, '').trim();
    if (!line) continue;
    if (/^(\S+\s+)?(ERR|FTL|PNC)\b/.test(line) || /^(error|fatal)\b/i.test(line)) errors.push(line);
    const m = /\b(\d+) commits? scanned/.exec(line);
    if (m) commitsScanned = Number(m[1]);
  }
  return { errors, commitsScanned };
}

/** One gitleaks scan to run. */
export interface ScanRequest {
  kind: 'staged' | 'dir';
  /** Working directory: the repository top level (staged) or the scratch source dir (dir). */
  cwd: string;
  /** Complete environment (see gitleaksEnv). */
  env: Record<string, string | undefined>;
  /** Config file to pass as --config (absent: gitleaks' default rules). */
  configPath?: string | undefined;
  /** .gitleaksignore to pass with --gitleaks-ignore-path (only when the probe found that flag). */
  ignorePath?: string | undefined;
}

/** A scan's result: findings and what gitleaks says it scanned. */
export interface ScanResult {
  findings: GitleaksFinding[];
  commitsScanned: number | null;
  /** The argument vector used (for the canary cache key and for notes); never contains a secret. */
  args: string[];
}

/** The argument vector of one scan (pure; exported for tests). */
export function scanArgs(probe: GitleaksProbe, req: Pick<ScanRequest, 'kind' | 'configPath' | 'ignorePath'>, reportPath: string): string[] {
  const common = ['--redact', '--no-banner', '--exit-code', String(LEAK_EXIT_CODE), '--report-format', 'json', '--report-path', reportPath, '--log-level', 'info'];
  if (req.configPath) common.push('--config', req.configPath);
  if (req.ignorePath && probe.ignorePathFlag) common.push('--gitleaks-ignore-path', req.ignorePath);
  // gitleaks would drop a finding whose line says gitleaks:allow without a word; the gate counts and names it.
  if (probe.ignoreAllowFlag) common.push('--ignore-gitleaks-allow');
  if (req.kind === 'staged') {
    return probe.staged === 'protect' ? ['protect', '--staged', ...common, '--source', '.'] : ['git', '--pre-commit', '--staged', ...common, '.'];
  }
  return probe.dir === 'detect' ? ['detect', '--no-git', ...common, '--source', '.'] : ['dir', ...common, '.'];
}

/**
 * Run one gitleaks scan with a JSON report in a temp file. Throws LoopgatesError (fix: install or repair
 * gitleaks) on timeout or abort, an exit code other than 0 / LEAK_EXIT_CODE, a missing or unparsable report, an
 * error line in its log, or an exit code that contradicts the report; ToolMissingError on ENOENT.
 */
export async function runScan(call: GitleaksCall, probe: GitleaksProbe, req: ScanRequest): Promise<ScanResult> {
  const tmp = makeScratch('report');
  try {
    const reportPath = join(tmp, 'report.json');
    const args = scanArgs(probe, req, reportPath);
    const shown = `gitleaks ${args.slice(0, args[0] === 'protect' || args[0] === 'detect' ? 2 : args[0] === 'git' ? 3 : 1).join(' ')}`;
    const r = await call.runTool(call.bin.path, args, { cwd: req.cwd, env: req.env, extendEnv: false, timeoutMs: call.timeoutMs, signal: call.signal });
    if (r.timedOut) throw new LoopgatesError(`${shown} did not finish within ${call.timeoutMs} ms`, `raise gates.secrets.scanTimeoutMs in loopgates.yaml, or check gitleaks with: ${call.bin.path} --help`);
    if (call.signal.aborted) throw new LoopgatesError(`${shown} was stopped before it finished`, 'run the commit again');
    const log = parseLog(r.stderr);
    if (r.exitCode !== 0 && r.exitCode !== LEAK_EXIT_CODE) {
      // A config gitleaks cannot parse is the repository's .gitleaks.toml, not a broken binary: say so.
      if (req.configPath && /unable to load gitleaks config|While parsing config/i.test(r.stderr)) {
        throw new LoopgatesError(`gitleaks cannot read the repository's .gitleaks.toml${tail(log.errors.length ? log.errors : [r.stderr.trim()])}`, 'repair .gitleaks.toml (TOML syntax: https://toml.io; rules: https://github.com/gitleaks/gitleaks#configuration), then: git add .gitleaks.toml');
      }
      throw new LoopgatesError(`${shown} exited with ${r.exitCode === null ? 'a signal' : r.exitCode}${tail(log.errors)}`, `repair gitleaks (${call.bin.path}): ${GITLEAKS_FIX}`);
    }
    if (log.errors.length) {
      throw new LoopgatesError(`${shown} logged an error, so its result cannot be trusted${tail(log.errors)}`, `repair gitleaks or the repository it scans; check with: ${call.bin.path} ${args[0]} --help`);
    }
    if (!existsSync(reportPath)) throw new LoopgatesError(`${shown} wrote no report`, GITLEAKS_FIX);
    const findings = parseReport(readFileSync(reportPath, 'utf8'));
    if (r.exitCode === 0 && findings.length) throw new LoopgatesError(`${shown} exited 0 but reported ${findings.length} findings`, GITLEAKS_FIX);
    if (r.exitCode === LEAK_EXIT_CODE && !findings.length) throw new LoopgatesError(`${shown} exited ${LEAK_EXIT_CODE} (leaks) but its report lists none`, GITLEAKS_FIX);
    return { findings, commitsScanned: log.commitsScanned, args: args.map((a) => (a === reportPath ? '<report>' : a)) };
  } finally {
    removeScratch(tmp);
  }
}

/** The last log lines (at most 3, each at most 200 characters) for an error message. */
function tail(lines: readonly string[]): string {
  if (!lines.length) return '';
  return `: ${lines
    .slice(-3)
    .map((l) => (l.length > 200 ? `${l.slice(0, 200)}…` : l))
    .join(' | ')}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Canary

/** A canary proof: gitleaks reported every generated credential; `columnShift` calibrates its byte columns. */
export interface CanaryOutcome {
  /** What gitleaks adds to the true 1-based byte column on lines after the first (8.16: 1; fixed releases: 0). */
  columnShift: number;
  /** Whether this run used a cached proof. */
  cached: boolean;
}

/** The canary file: generated credentials at known lines and byte columns. */
export interface Canary {
  path: string;
  content: string;
  /** Every generated value (tests and redaction checks search output for these). */
  values: string[];
  spots: Array<{ line: number; byteColumn: number; rule: string }>;
}

/** Generate a canary file (random values every call; never written anywhere but a scratch space). */
export function makeCanary(): Canary {
  const aws = fakeAwsAccessKey();
  const gh = fakeGithubToken();
  const pem = fakePemBlock();
  const awsLine = `aws_access_key_id = "${aws.value}"`;
  const ghLine = `github_token = "${gh.value}"`;
  const content = ['# loopgates canary: generated at run time, never committed', awsLine, ghLine, pem.value, ''].join('\n');
  return {
    path: `loopgates-canary-${randomBytes(4).toString('hex')}.env`,
    content,
    values: [aws.value, gh.value, pem.value, ...pem.value.split('\n').slice(1, -1)],
    spots: [
      { line: 2, byteColumn: awsLine.indexOf(aws.value) + 1, rule: aws.rule },
      { line: 3, byteColumn: ghLine.indexOf(gh.value) + 1, rule: gh.rule },
      { line: 4, byteColumn: 1, rule: pem.rule },
    ],
  };
}

/** The config and ignore file a scan uses, as bytes from the snapshot (absent: gitleaks defaults, no ignores). */
export interface ScanFiles {
  config?: Buffer | undefined;
  /** The files `config` extends by `[extend] path`, from the same snapshot (extend.ts extendChain). */
  extends?: readonly ExtendedFile[] | undefined;
  ignore?: Buffer | undefined;
}

/**
 * Prove that gitleaks, with the exact flags and environment recipe of a real scan of `kind`, reports a canary:
 * generated credentials staged into a scratch repository's scratch index (`staged`, via GIT_INDEX_FILE) or written
 * to a scratch dir (`dir`), never the user's. Cached in `<cacheDir>/gitleaks-canary.json` per binary + probe + kind +
 * config and ignore hash, so it runs once, not on every commit. Throws LoopgatesError (the message names the rule ids
 * not reported; the fix points at the repository's .gitleaks.toml when it has one, else at gitleaks) when any planted
 * credential is not reported at its line under its default rule id (`aws-access-token`, `github-pat`,
 * `private-key`): a config without the default rules that keeps only some of them blinds the scan to the others. Also
 * throws when gitleaks printed a canary value (its redaction failed).
 */
export async function ensureCanary(call: GitleaksCall, probe: GitleaksProbe, kind: 'staged' | 'dir', files: ScanFiles, baseEnv: Readonly<Record<string, string | undefined>>): Promise<CanaryOutcome> {
  const key = canaryKey(call.bin, probe, kind, files);
  const cacheFile = join(call.cacheDir, 'gitleaks-canary.json');
  const cached = (readJson(cacheFile) ?? {}) as Record<string, { columnShift: number }>;
  const hit = cached[key];
  if (hit && (hit.columnShift === 0 || hit.columnShift === 1)) return { columnShift: hit.columnShift, cached: true };
  const canary = makeCanary();
  const scanned = await scanFiles(call, probe, kind, new Map([[canary.path, Buffer.from(canary.content, 'utf8')]]), files, baseEnv, (text) => {
    for (const v of canary.values) {
      if (text.includes(v)) throw new LoopgatesError('gitleaks printed a credential although --redact was given', GITLEAKS_FIX);
    }
  });
  const mine = scanned.findings.filter((f) => f.file === canary.path);
  const hits = canary.spots.filter((s) => mine.some((f) => f.line === s.line && f.rule === s.rule));
  // Every planted credential, not one: a config whose own [[rules]] replace gitleaks' defaults (no [extend]
  // useDefault = true) may keep a PEM rule and lose the AWS and GitHub ones; one report proved nothing about those.
  const unreported = canary.spots.filter((s) => !hits.includes(s));
  if (unreported.length) {
    const how = kind === 'staged' ? `gitleaks ${probe.staged === 'protect' ? 'protect --staged' : 'git --pre-commit --staged'} on a scratch index` : `gitleaks ${probe.dir === 'detect' ? 'detect --no-git' : 'dir'} on a scratch directory`;
    // A config of the user's (not the defaults loopgates substitutes) that blinds the scan is far likelier than a
    // broken binary: an [allowlist] that matches everything, or rules without [extend] useDefault = true.
    const own = files.config !== undefined && !files.config.equals(Buffer.from(DEFAULT_CONFIG_TOML, 'utf8'));
    const ids = unreported.map((s) => s.rule);
    const named = `${ids.length > 1 ? `${ids.slice(0, -1).join(', ')} and ${ids[ids.length - 1]}` : ids[0]} ${ids.length > 1 ? 'canaries' : 'canary'}`;
    throw new LoopgatesError(
      `the secrets scanner is blind: ${how} did not report the ${named} (a generated canary file with an AWS access key, a GitHub token and a PEM private key, each must be reported under its default rule id; reported: ${hits.map((s) => s.rule).join(', ') || 'none'})${files.config ? '; check that .gitleaks.toml still detects these (e.g. [extend] useDefault = true)' : ''}`,
      own ? configBlindsFix(kind, call.bin.path) : `repair or reinstall gitleaks (${call.bin.path}): ${GITLEAKS_FIX}`,
    );
  }
  let columnShift = 0;
  for (const s of hits) {
    if (s.line <= 1 || s.rule === 'private-key') continue;
    const f = mine.find((x) => x.line === s.line && x.rule === s.rule);
    if (f && f.byteColumn - s.byteColumn === 1) columnShift = 1;
  }
  writeJson(cacheFile, { ...cached, [key]: { columnShift } });
  return { columnShift, cached: false };
}

/** The key of a canary proof in `<cacheDir>/gitleaks-canary.json`: binary, probe, scan kind, config and ignore bytes. */
export function canaryKey(bin: GitleaksBinary, probe: GitleaksProbe, kind: 'staged' | 'dir', files: ScanFiles): string {
  return sha256(JSON.stringify([SCAN_RECIPE_VERSION, extraRulesDigest(), bin.path, bin.size, bin.mtimeMs, probe, kind, files.config ? sha256(files.config) : null, files.ignore ? sha256(files.ignore) : null, ...(files.extends?.length ? [extendsDigest(files.extends)] : [])]));
}

/** A digest of the files a config extends (paths and bytes), for the cache keys whose answer depends on the config. */
export function extendsDigest(extended: readonly ExtendedFile[] | undefined): string | null {
  return extended?.length ? sha256(JSON.stringify(extended.map((e) => [e.path, sha256(e.bytes)]))) : null;
}

/**
 * The fix of a canary that the repository's own .gitleaks.toml hid (`kind` `staged`: the one in the index, `dir`:
 * the one in the files checked). Rules and allow-lists: gitleaks' README "Configuration".
 */
function configBlindsFix(kind: 'staged' | 'dir', bin: string): string {
  const which = kind === 'staged' ? 'the staged .gitleaks.toml' : 'the .gitleaks.toml of the files checked';
  const stage = kind === 'staged' ? ', then: git add .gitleaks.toml' : '';
  return `${which} is the likely cause: add (or keep) [extend] useDefault = true, so gitleaks' default rules (aws-access-token, github-pat, private-key, ...) stay on next to its own [[rules]], and no [allowlist] entry that matches every secret (a regex or path like .*)${stage}; with a .gitleaks.toml that holds only [extend] useDefault = true still blind, repair or reinstall gitleaks (${bin})`;
}

/**
 * Scan in-memory `files` in a scratch space: `staged` stages them into a scratch repository's scratch index and
 * runs the staged command; `dir` writes them into a scratch source dir and runs the directory command. The
 * snapshot's config is passed as --config, its .gitleaksignore copied (or passed with --gitleaks-ignore-path).
 * `inspect` sees gitleaks' report and log text (the canary's redaction check). The scratch space is removed
 * afterwards, also on error or abort. Throws as runScan.
 */
export async function scanFiles(
  call: GitleaksCall,
  probe: GitleaksProbe,
  kind: 'staged' | 'dir',
  targets: ReadonlyMap<string, Buffer>,
  files: ScanFiles,
  baseEnv: Readonly<Record<string, string | undefined>>,
  inspect?: (text: string) => void,
): Promise<ScanResult> {
  const dir = makeScratch(kind);
  try {
    const cfgDir = join(dir, 'cfg');
    mkdirSync(cfgDir);
    const configPath = writeScanConfig(cfgDir, files.config, files.extends);
    let cwd: string;
    let env: Record<string, string | undefined>;
    if (kind === 'staged') {
      const repo = await scratchRepo(dir, targets, call.signal);
      cwd = repo.root;
      env = gitleaksEnv(baseEnv, repo.env);
    } else {
      cwd = join(dir, 'src');
      mkdirSync(cwd);
      // gitleaks reads <source>/.gitleaksignore itself: a staged one is scanned under another name, mapped back.
      materialise(cwd, new Map([...targets].map(([p, b]) => [p === IGNORE_FILE ? IGNORE_AS : p, b])));
      env = gitleaksEnv(baseEnv, {});
      // A source dir outside any repository: keep an enclosing repo of the temp dir from being discovered.
      env.GIT_CEILING_DIRECTORIES = dirname(dir);
    }
    // The .gitleaksignore is never given to gitleaks (nor left where it would read it): the gate filters findings
    // itself (scan.ts coverIgnored), with gitleaks' fingerprints but knowing which lines the change rewrote, which a
    // scratch copy cannot tell gitleaks.
    const inner: GitleaksCall = inspect ? { ...call, runTool: inspectingRunTool(call.runTool, inspect) } : call;
    const result = await runScan(inner, probe, { kind, cwd, env, configPath });
    const rel = (p: string) => {
      const r = toRelative(p, cwd);
      return kind === 'dir' && r === IGNORE_AS ? IGNORE_FILE : r;
    };
    // gitleaks' JSON writes a name that is not UTF-8 with U+FFFD for each such byte: back to the target it names.
    const lossy = lossyIndex(targets.keys());
    return { ...result, findings: result.findings.map((f) => ({ ...f, file: backFromLossy(rel(f.file), lossy) })).filter((f) => targets.has(f.file)) };
  } finally {
    removeScratch(dir);
  }
}

const IGNORE_FILE = '.gitleaksignore';
/** The name a staged .gitleaksignore is scanned under in a scratch directory (gitleaks would obey it, not scan it). */
const IGNORE_AS = '.gitleaksignore.loopgates-scanned';

/** Wrap runTool so `inspect` sees stdout, stderr and the report file a scan wrote. */
function inspectingRunTool(runTool: RunTool, inspect: (text: string) => void): RunTool {
  return async (file, args, options) => {
    const r = await runTool(file, args, options);
    inspect(r.stdout);
    inspect(r.stderr);
    const i = args.indexOf('--report-path');
    const report = i >= 0 ? args[i + 1] : undefined;
    if (report && existsSync(report)) inspect(readFileSync(report, 'utf8'));
    return r;
  };
}

/** A path gitleaks reported (lossy for a name that is not UTF-8, core/paths.ts lossyPath) -> the input it names. */
export function backFromLossy(path: string, lossy: ReadonlyMap<string, string>): string {
  return lossy.get(path) ?? path;
}

/** gitleaks path -> repository-relative `/` path: strips `./`, makes paths under `base` relative. */
export function toRelative(path: string, base: string): string {
  let p = path;
  if (isAbsolute(p)) {
    const r = relative(base, p);
    if (!r.startsWith('..') && !isAbsolute(r)) p = r;
  }
  p = p.split(sep).join('/');
  while (p.startsWith('./')) p = p.slice(2);
  return p;
}

/**
 * Entries of a .gitleaksignore (README ".gitleaksignore": one finding fingerprint per line, `file:rule:line` for
 * staged and directory scans, `commit:file:rule:line` for history). Exactly as gitleaks 8.16 reads it
 * (detect.go AddGitleaksIgnore: bufio lines, so one trailing CR dropped, nothing trimmed): an entry with a leading
 * or trailing space matches nothing there, so it matches nothing here either. Lines starting with `#` are skipped
 * (newer releases call them comments; 8.16 keeps them as entries no fingerprint equals unless a path starts with
 * `#`): never looser than either. test/integration/secrets-ignore.test.ts checks this against the binary.
 */
export function parseIgnore(text: string): Set<string> {
  const out = new Set<string>();
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line && !line.startsWith('#')) out.add(line);
  }
  return out;
}

/** The `file:rule:line` fingerprint gitleaks gives a finding of a staged or directory scan (detect.go addFinding). */
export function ignoreEntry(f: Pick<GitleaksFinding, 'file' | 'rule' | 'line'>): string {
  return `${f.file}:${f.rule}:${f.line}`;
}

/** Whether a finding is listed in the ignore set by its `file:rule:line` fingerprint. */
export function isIgnored(ignore: ReadonlySet<string>, f: Pick<GitleaksFinding, 'file' | 'rule' | 'line'>): boolean {
  return ignore.has(ignoreEntry(f));
}

// ---------------------------------------------------------------------------------------------------------------
// Small helpers

/** sha256 hex of a string or bytes. */
export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The JSON at `path`, or null when it is absent or does not parse (a cache miss). Never throws. */
export function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

/** Write `value` as JSON to `path` atomically (temp file + rename); a failure is ignored (caches only). */
export function writeJson(path: string, value: unknown): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.${randomBytes(3).toString('hex')}.tmp`;
    writeFileSync(tmp, JSON.stringify(value));
    // rename is atomic: parallel hooks never read half a cache file.
    renameSync(tmp, path);
  } catch {
    /* a cache that cannot be written only costs time */
  }
}
