// The install proof: in a scratch clone under the OS temp dir, git itself runs the placed hook on two commits — one
// staging a canary credential (generated now, never written anywhere else) must be refused, a clean one must land.
// The user's repository is only read (a `--shared` clone reads its objects); the clone is removed afterwards.
import { randomBytes } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { loadConfig } from '../../core/config.js';
import { commandGateKind, commandReadPaths, commandSpecOf } from '../../gates/command/index.js';
import { builtinGates } from '../../gates/registry.js';
import { git, REPO_ENV_KEYS, splitZ } from '../../core/git.js';
import { fsPath } from '../../core/paths.js';
import { LEDGER_IN_TREE, type LedgerEntry } from '../../core/ledger.js';
import { shellWord } from '../../core/messages.js';

/**
 * Files of the user's working tree that decide how the hook behaves; copied into the clone as they are now, and staged
 * there as they are staged in the user's index.
 */
const COPIED = ['loopgates.yaml', '.loopgates', '.gitleaks.toml', '.gitleaksignore', '.gitattributes', 'package.json', '.husky'];
/** Run output and husky's generated dir: never copied. */
const NOT_COPIED = new Set(['ledger.jsonl', 'cache', '_']);

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A GitHub personal access token shape (`ghp_` + 36 alphanumerics; gitleaks rule `github-pat`), random each call.
 * Assembled at run time so no credential-shaped string is ever committed.
 */
export function canaryCredential(): string {
  let s = ['g', 'h', 'p', '_'].join('');
  for (const b of randomBytes(36)) s += ALNUM[b % ALNUM.length];
  return s;
}

/** One proof commit's outcome. `output` is stdout+stderr of `git commit` (hook output included). */
export interface ProofCommit {
  exitCode: number;
  landed: boolean;
  output: string;
  durationMs: number;
}

/**
 * A refused proof commit's code as the hook gave it: git reports any refusing pre-commit hook as exit 1, so the code
 * is the last "(exit N)" in the hook's output (loopgates' report, or the shim's line for a chained previous hook), 2
 * for a hook-script refusal ("loopgates: commit refused: …" always exits 2), else git's own ("git exit 1").
 */
export function refusalCode(c: ProofCommit): string {
  const codes = [...c.output.matchAll(/\(exit (\d+)\)/g)];
  const last = codes.at(-1);
  if (last) return `exit ${last[1]}`;
  if (/^loopgates: commit refused: /m.test(c.output)) return 'exit 2';
  return `git exit ${c.exitCode}`;
}

/** The proof's outcome: `ok` when the canary commit was refused naming its file and the clean commit landed. */
export interface ProofResult {
  ok: boolean;
  canary: ProofCommit;
  clean: ProofCommit;
  /** Why the proof failed, one line each; empty when ok. */
  problems: string[];
  /**
   * The fix when the proof found the cause: a canary commit that landed through the configuration it used (the secrets
   * gate disabled, or gitleaks' own configuration letting the canary's file through), or a clean commit the hook's own
   * commands refused before loopgates ran (a file they need that is not committed); null otherwise (then the hook
   * output's own fix, or the hook script, is the place to look).
   */
  fix: string | null;
}

export interface ProofOptions {
  top: string;
  /** The user's git dir (absolute, `git rev-parse --git-dir`): the clone is made from it, not from `top`, which has no
   * .git when GIT_DIR / GIT_WORK_TREE name a separate git dir and work tree. */
  gitDir: string;
  /** The user's git common dir (absolute): the recorded CLI (loopgates/cli-path) is copied from there. */
  commonDir: string;
  /** The hooks dir git uses in the user's repository (absolute); the clone runs the hooks from there. */
  hooksDir: string;
  env: Readonly<Record<string, string | undefined>>;
  log: (line: string) => void;
  /** Per commit bound in ms (default 180 000). */
  timeoutMs?: number;
  /**
   * Aborted on Ctrl-C / SIGTERM: the proof stops before its next step (the git call running then finishes first) and
   * keeps nothing (the clone's self-test cache is not copied back); it then rejects, and the clone is removed.
   */
  signal?: AbortSignal;
}

/**
 * Clone `top` (objects shared, HEAD checked out with no smudge filter, index = HEAD but for the files that steer the
 * hook: those as the user's index has them), copy those files as they are in the working tree, link node_modules (so
 * the team's own hook finds its committed scripts and installed tools as in the user's tree), then commit through
 * the real hooks dir: clean first, canary second. Never throws for a refused or
 * failed commit (that is the answer); throws GitError when the clone itself cannot be made. Removes the clone.
 */
export async function proveHook(opts: ProofOptions): Promise<ProofResult> {
  const base = mkdtempSync(join(tmpdir(), 'loopgates-proof-'));
  const clone = join(base, 'repo');
  const env: Record<string, string | undefined> = { ...opts.env };
  // A bypass or another repository's GIT_* in the caller's environment would make the proof prove nothing.
  env.LOOPGATES_SKIP = undefined;
  for (const k of REPO_ENV_KEYS) env[k] = undefined;
  // What the user's own repository is read with (its staged files, its file list): the caller's GIT_* kept.
  const userEnv = opts.env;
  const timeoutMs = opts.timeoutMs ?? 180_000;
  const stopIfAborted = () => {
    if (opts.signal?.aborted) throw new Error('the install proof was interrupted');
  };
  try {
    opts.log(`proving: scratch clone in ${clone}`);
    await git(['clone', '--quiet', '--no-checkout', '--shared', '--', opts.gitDir, clone], { cwd: base, env, timeoutMs });
    const head = await git(['rev-parse', '--verify', '--quiet', 'HEAD'], { cwd: clone, env, okExitCodes: [1, 128] });
    if (head.exitCode === 0) {
      await git(['read-tree', 'HEAD'], { cwd: clone, env });
      // HEAD's files on disk: the team's own hook runs its committed scripts by path (mattermost-mobile's
      // `.husky/pre-commit` is `sh ./scripts/pre-commit.sh`), as it does in the user's tree (fresh-user F4).
      await git([...noSmudge(await filterDrivers(clone, env)), 'checkout-index', '--all', '--force'], { cwd: clone, env, timeoutMs });
    }
    for (const name of COPIED) {
      const from = join(opts.top, name);
      // As the working tree has them now, not as checked out: a file the user deleted is gone from the clone too.
      rmSync(join(clone, name), { recursive: true, force: true });
      if (!existsSync(from)) continue;
      cpSync(from, join(clone, name), { recursive: true, filter: (src) => !NOT_COPIED.has(src.slice(src.lastIndexOf('/') + 1)) || src === from });
    }
    // The hook judges a commit by the staged steering files (an unstaged loopgates.yaml edit refuses it), so the clone's
    // index holds the user's staged versions of them, not HEAD's: the proof sees what the user's next commit sees.
    const staged = await git(['ls-files', '-s', '-z', '--', ...COPIED], { cwd: opts.top, env: userEnv });
    await git(['rm', '-r', '-q', '-f', '--cached', '--ignore-unmatch', '--', ...COPIED], { cwd: clone, env });
    if (staged.stdout.length > 0) await git(['update-index', '-z', '--index-info'], { cwd: clone, env, input: staged.stdout });
    const copied = await copyCommandGateInputs(opts.top, clone, userEnv);
    if (copied.files > 0) opts.log(`proving: copied ${copied.files} file(s) the command gates read (${copied.gates.join(', ')}) from the working tree, as their self-tests read them`);
    // The user's installed packages, not only those a repository commits (the checkout may have made the folder).
    if (existsSync(join(opts.top, 'node_modules'))) {
      rmSync(join(clone, 'node_modules'), { recursive: true, force: true });
      symlinkSync(join(opts.top, 'node_modules'), join(clone, 'node_modules'), process.platform === 'win32' ? 'junction' : 'dir');
    }
    const record = join(opts.commonDir, 'loopgates', 'cli-path');
    if (existsSync(record)) {
      mkdirSync(join(clone, '.git', 'loopgates'), { recursive: true });
      cpSync(record, join(clone, '.git', 'loopgates', 'cli-path'));
    }
    // The gates' self-test proofs are keyed by loopgates' version, config and scanner, not by the clone's path:
    // share the user's, so a warm cache makes the proof quick, and a cold one is warmed once for both.
    const userCache = join(opts.commonDir, 'loopgates', 'cache');
    const cloneCache = join(clone, '.git', 'loopgates', 'cache');
    const userHadCache = existsSync(userCache);
    // Not the hook-* files (hook plan, its config copy, the secrets gate's node-free pass): they name their repository's
    // ledger and paths, so each side keeps its own (a clone's plan in the user's cache logs to the deleted clone).
    const notHookFiles = (root: string) => (src: string) => src === root || !(dirname(src) === root && basename(src).startsWith('hook-'));
    if (userHadCache) cpSync(userCache, cloneCache, { recursive: true, filter: notHookFiles(userCache) });
    mkdirSync(join(clone, 'loopgates-proof'), { recursive: true });
    stopIfAborted();

    const commit = async (file: string, content: string, message: string): Promise<ProofCommit> => {
      stopIfAborted();
      writeFileSync(join(clone, 'loopgates-proof', file), content);
      await git(['add', '--', `loopgates-proof/${file}`], { cwd: clone, env });
      const before = await git(['rev-parse', '--verify', '--quiet', 'HEAD'], { cwd: clone, env, okExitCodes: [1, 128] });
      const started = performance.now();
      const r = await git(
        ['-c', `core.hooksPath=${opts.hooksDir}`, '-c', 'user.name=loopgates proof', '-c', 'user.email=proof@loopgates.invalid', '-c', 'commit.gpgsign=false', 'commit', '--quiet', '-m', message],
        { cwd: clone, env, timeoutMs, okExitCodes: Array.from({ length: 255 }, (_, i) => i + 1) },
      );
      const after = await git(['rev-parse', '--verify', '--quiet', 'HEAD'], { cwd: clone, env, okExitCodes: [1, 128] });
      return {
        exitCode: r.exitCode,
        landed: after.stdout.toString().trim() !== before.stdout.toString().trim() && after.exitCode === 0,
        output: r.stdout.toString('utf8') + r.stderr,
        durationMs: performance.now() - started,
      };
    };

    opts.log('proving: clean commit (a cold cache also runs every gate\'s self-test first; later commits reuse it)');
    const ledgerAtStart = ledgerBytes(clone);
    const clean = await commit('clean.txt', 'loopgates install proof: nothing secret here\n', 'loopgates install proof: clean commit');
    opts.log(`proving: clean commit ${clean.landed ? 'landed' : `was REFUSED (${refusalCode(clean)})`} (${(clean.durationMs / 1000).toFixed(1)} s)`);
    const ledgerBefore = ledgerBytes(clone);
    const secret = canaryCredential();
    const canary = await commit('canary.txt', `github_token = "${secret}"\n`, 'loopgates install proof: canary credential');
    // A finding prints as `path:line:column`; a note may name the path without one.
    const named = canary.output.includes(`${CANARY_PATH}:`);
    opts.log(
      `proving: canary commit ${canary.landed ? 'LANDED' : `refused (${refusalCode(canary)})`}${!canary.landed && named ? ', finding at loopgates-proof/canary.txt' : ''} (${(canary.durationMs / 1000).toFixed(1)} s)`,
    );
    const problems: string[] = [];
    let fix: string | null = null;
    // A team allowlist (.gitleaks.toml [allowlist] paths) that skips the proof's files: the secrets gate reads nothing
    // in such a commit (gates/secrets/README.md "Files gitleaks skips by path"): a skip when HEAD's allowlist exempts
    // every staged file, so the canary lands; the clean commit lands too.
    const skippedByPath = (output: string) => output.includes(ALLOWLIST_SKIP_NOTE);
    const allowlistFix = `make .gitleaks.toml read ${CANARY_PATH} (no [allowlist] path that matches loopgates-proof/*.txt), then: loopgates install; to keep that configuration, install without the proof: loopgates install --no-proof`;
    // The team's own part of the hook refusing the clean commit: the canary's refusal then proves nothing either.
    const team = clean.landed ? null : teamRefusal(clean, ledgerBefore.some((n, i) => n !== ledgerAtStart[i]));
    if (!clean.landed) {
      if (skippedByPath(clean.output)) {
        problems.push(`the clean commit was refused (${refusalCode(clean)}): the [allowlist] paths of .gitleaks.toml skip loopgates-proof/clean.txt, so the secrets gate read nothing in it`);
        fix = allowlistFix;
      } else if (team) {
        const missing = await uncommittedFilesNamed(clean.output, opts.top, clone, env);
        const noProof = 'or install without the proof: loopgates install --no-proof';
        if (missing.length > 0) {
          problems.push(`the clean commit was refused (${refusalCode(clean)}) ${team}: they need ${missing.join(', ')}, which ${missing.length > 1 ? 'are' : 'is'} not committed (the scratch clone holds only committed files)`);
          fix = `commit ${missing.join(' ')} (git add ${missing.map(shellWord).join(' ')} && git commit), then: loopgates install; ${noProof}`;
        } else {
          problems.push(`the clean commit was refused (${refusalCode(clean)}) ${team}; the scratch clone holds only committed files, so perhaps a file they need is not committed`);
          fix = `commit what the hook's own commands need, or make them pass (their output is above), then: loopgates install; ${noProof}`;
        }
      } else problems.push(`the clean commit was refused (${refusalCode(clean)}): every commit would be refused`);
    }
    if (team && !canary.landed) {
      /* the canary commit met the same refusal: it says nothing about loopgates */
    } else if (canary.landed && skippedByPath(canary.output)) {
      // The secrets gate skips a commit of only files the committed allowlist exempts (its verdict `skip`, exit 0).
      problems.push(`the canary commit LANDED only because the [allowlist] paths of .gitleaks.toml skip ${CANARY_PATH}: gitleaks never looks inside such a file`);
      fix = allowlistFix;
    } else if (canary.landed) {
      const tracked = await git(['ls-files', '-z', '--', 'loopgates.yaml', '.gitleaks.toml', '.gitleaksignore'], { cwd: clone, env });
      const cause = canaryLandedCause(clone, new Set(tracked.stdout.toString('utf8').split('\0').filter(Boolean)), ledgerBefore);
      problems.push(`the commit staging a canary credential LANDED: ${cause?.why ?? 'the hook does not guard commits'}`);
      fix = cause?.fix ?? null;
    } else if (!named && skippedByPath(canary.output)) {
      problems.push(`the canary commit was refused (${refusalCode(canary)}) only because the secrets gate read nothing: the [allowlist] paths of .gitleaks.toml skip ${CANARY_PATH}, so gitleaks never looks inside such a file`);
      fix = allowlistFix;
    } else if (!named && canary.output.includes('the secrets scanner is blind')) {
      problems.push(`the canary commit was refused (${refusalCode(canary)}) because the secrets scanner is blind under the repository's gitleaks configuration (the hook's message above says which canaries it missed)`);
    } else if (!named) problems.push(`the canary commit was refused (${refusalCode(canary)}) but no finding named loopgates-proof/canary.txt`);
    const leaked = canary.output.includes(secret);
    if (leaked) problems.push('the canary credential appeared in the hook output');
    // Only a proven install keeps anything: a failed proof is rolled back, and install says the repository is as it was.
    stopIfAborted();
    if (!userHadCache && problems.length === 0 && existsSync(cloneCache)) cpSync(cloneCache, userCache, { recursive: true, filter: notHookFiles(cloneCache) });
    return {
      ok: problems.length === 0,
      canary: { ...canary, output: leaked ? canary.output.split(secret).join('<canary>') : canary.output },
      clean,
      problems,
      fix,
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/**
 * Who refused proof commit `c` when it was not loopgates, as a phrase after "refused": the hook that was there before
 * loopgates (the shim chains it and names it, hooks/chain-previous), or the hook's own commands when loopgates never
 * ran (it said nothing and logged nothing: husky's `sh -e` stops at the team's failing line before the loopgates
 * block). Null when loopgates ran and refused.
 */
function teamRefusal(c: ProofCommit, ledgerGrew: boolean): string | null {
  const previous = /^loopgates: the previous pre-commit hook \((.+)\) refused the commit \(exit (\d+)\)$/m.exec(c.output);
  if (previous) return `by the hook's own commands (the pre-commit hook that was there before loopgates, ${previous[1]}, exit ${previous[2]})`;
  if (!ledgerGrew && !/^loopgates\b/m.test(c.output)) return "by the hook's own commands before loopgates ran";
  return null;
}

/**
 * Repository-relative paths that a refused commit's `output` names on a line saying a file is missing (`sh: 0: cannot
 * open ./scripts/x.sh: No such file`, bash's `./x.sh: No such file or directory`, node's `Cannot find module '…'`),
 * that the user's working tree `top` has but HEAD does not: files the scratch clone cannot have. Sorted; [] when none.
 */
async function uncommittedFilesNamed(output: string, top: string, clone: string, env: Readonly<Record<string, string | undefined>>): Promise<string[]> {
  const found = new Set<string>();
  for (const line of output.split('\n')) {
    if (!/no such file|not found|cannot open|can't open|cannot find|does not exist/i.test(line)) continue;
    for (const [token] of line.matchAll(/[^\s'"`:()<>,]+/g)) {
      let p = token.startsWith(`${clone}/`) ? token.slice(clone.length + 1) : token;
      if (p.startsWith('/')) continue;
      p = p.replace(/^(\.\/)+/, '');
      if (!/[./]/.test(p) || p.startsWith('../') || !existsSync(join(top, p))) continue;
      found.add(p);
    }
  }
  if (found.size === 0) return [];
  const inHead = new Set(splitZ((await git(['ls-tree', '-r', '-z', '--name-only', 'HEAD', '--', ...found], { cwd: clone, env, okExitCodes: [128] })).stdout));
  return [...found].filter((p) => !inHead.has(p)).sort();
}

/** The filter drivers git's config defines for `clone` (its global and system config: a fresh clone has no local one). */
async function filterDrivers(clone: string, env: Readonly<Record<string, string | undefined>>): Promise<string[]> {
  const r = await git(['config', '-z', '--name-only', '--get-regexp', '^filter\\.'], { cwd: clone, env, okExitCodes: [1] });
  const names = splitZ(r.stdout).map((key) => key.slice('filter.'.length, key.lastIndexOf('.'))).filter(Boolean);
  return [...new Set(names)];
}

/**
 * `-c` options that make each of `drivers` write blobs as stored: a smudge filter in the clone (git-lfs fetching,
 * git-crypt without its key) could fetch from the network or fail the checkout; the proof needs the files, not them
 * decoded (a pointer file is still the file the hook may list).
 */
function noSmudge(drivers: readonly string[]): string[] {
  return drivers.flatMap((d) => ['-c', `filter.${d}.smudge=`, '-c', `filter.${d}.process=`, '-c', `filter.${d}.required=false`]);
}

/**
 * Copy into `clone` the files the repository's command gates (and their self-tests) read, from `top`'s working tree
 * over HEAD's checked-out versions: the hook's self-test makes a command gate's cases from the working tree. Paths
 * the user's tree lacks (listed but deleted) are removed, as the gate's own self-test leaves them out. A config the
 * clone cannot load copies nothing: the hook itself then refuses the proof commit with every problem.
 */
async function copyCommandGateInputs(top: string, clone: string, env: Readonly<Record<string, string | undefined>>): Promise<{ files: number; gates: string[] }> {
  let specs;
  try {
    specs = loadConfig(clone, { gates: builtinGates, commands: commandGateKind }).gates.flatMap((g) => commandSpecOf(g.gate) ?? []);
  } catch {
    return { files: 0, gates: [] };
  }
  if (specs.length === 0) return { files: 0, gates: [] };
  const listed = splitZ((await git(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: top, env })).stdout);
  const paths = new Set<string>();
  for (const spec of specs) for (const p of await commandReadPaths(spec, listed, (p) => readFile(fsPath(top, p), 'utf8'))) paths.add(p);
  let files = 0;
  for (const p of [...paths].sort()) {
    // Those are in the clone as the working tree has them already.
    if (COPIED.some((c) => p === c || p.startsWith(`${c}/`))) continue;
    // By their exact bytes (core/paths.ts): a string path names no file when the name is not UTF-8.
    const from = fsPath(top, p);
    const to = fsPath(clone, p);
    const st = lstatSync(from, { throwIfNoEntry: false });
    // The checkout wrote HEAD's version: the working tree's replaces it, and one the user deleted goes.
    rmSync(to, { force: true });
    if (!st) continue;
    const slash = p.lastIndexOf('/');
    if (slash > 0) mkdirSync(fsPath(clone, p.slice(0, slash)), { recursive: true });
    // A link stays a link (as cpSync copied it); a file is copied by its bytes.
    if (st.isSymbolicLink()) symlinkSync(readlinkSync(from, { encoding: 'buffer' }), to);
    else copyFileSync(from, to);
    files++;
  }
  return { files, gates: specs.map((s) => s.id) };
}

/** The canary's path in the proof clone (repository-relative, `/`-separated). */
const CANARY_PATH = 'loopgates-proof/canary.txt';

/** What the secrets gate's notes say of files a team allowlist skips (gates/secrets/scan.ts). */
const ALLOWLIST_SKIP_NOTE = 'the [allowlist] paths of .gitleaks.toml skip them';

/** Where the hook may append its ledger in `clone` (core/ledger.ts ledgerPath: in the tree when ignored, else in .git). */
const ledgerFiles = (clone: string): string[] => [join(clone, LEDGER_IN_TREE), join(clone, '.git', 'loopgates', 'ledger.jsonl')];

/** Byte length of each ledger file of `clone` (0 when absent), in ledgerFiles order. */
function ledgerBytes(clone: string): number[] {
  return ledgerFiles(clone).map((f) => (existsSync(f) ? readFileSync(f).length : 0));
}

/** Ledger entries appended to `clone`'s ledger files since `before` (ledgerBytes); unparsable lines are skipped. */
function ledgerSince(clone: string, before: readonly number[]): LedgerEntry[] {
  const out: LedgerEntry[] = [];
  ledgerFiles(clone).forEach((f, i) => {
    if (!existsSync(f)) return;
    for (const line of readFileSync(f).subarray(before[i] ?? 0).toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        out.push(JSON.parse(line) as LedgerEntry);
      } catch {
        /* a torn line: not evidence either way */
      }
    }
  });
  return out;
}

/**
 * Why the canary commit landed, when the configuration the proof used shows it: the secrets gate disabled in the
 * clone's loopgates.yaml (the file the hook read), or the secrets gate's ledger entry for the canary commit saying it
 * ran and passed (gitleaks reported nothing in the canary's file: its own configuration, README "Configuration",
 * lets the file through; the gate's own canary, other file names, still proved it sees). The secrets gate has no
 * files/exclude setting of its own (gates/secrets/index.ts reads every staged file). Null when neither shows: then the
 * hook itself most likely did not run loopgates. `tracked`: which of those files the user's index holds (an edit to
 * one counts, for the hook and so for the proof, only once staged). Never throws.
 */
function canaryLandedCause(clone: string, tracked: ReadonlySet<string>, ledgerBefore: readonly number[]): { why: string; fix: string } | null {
  const noProof = 'loopgates install --no-proof';
  let secretsEnabled: boolean | null = null;
  try {
    secretsEnabled = loadConfig(clone, { gates: builtinGates, commands: commandGateKind }).gates.find((g) => g.gate.id === 'secrets')?.enabled ?? null;
  } catch {
    /* an invalid config refuses every commit: the canary cannot have landed through it */
  }
  if (secretsEnabled === false) {
    return {
      why: 'the secrets gate is disabled in loopgates.yaml (gates.secrets.enabled: false), so nothing can refuse the canary commit',
      fix: `set gates.secrets.enabled: true in loopgates.yaml (or delete that key)${tracked.has('loopgates.yaml') ? ' and stage it (git add loopgates.yaml)' : ''}, then: loopgates install; to keep the secrets gate off, install without the proof: ${noProof}`,
    };
  }
  const passed = ledgerSince(clone, ledgerBefore).some((e) => e.gate === 'secrets' && e.kind === 'run' && e.verdict === 'pass');
  if (!passed) return null;
  const files = ['.gitleaks.toml', '.gitleaksignore'].filter((f) => existsSync(join(clone, f)));
  const why = `the secrets gate ran and passed it (gitleaks reported no credential in ${CANARY_PATH})`;
  if (files.length === 0) return { why, fix: 'report this with the output of: loopgates doctor' };
  return {
    why: `${why}, so the repository's gitleaks configuration lets that file through: ${files.join(', ')}`,
    fix: `make ${files.join(' and ')} report a credential in ${CANARY_PATH} (keep [extend] useDefault = true and no [allowlist] path or regex that matches it${files.includes('.gitleaksignore') ? '; no .gitleaksignore entry for it' : ''})${files.some((f) => tracked.has(f)) ? ` and stage it (git add ${files.filter((f) => tracked.has(f)).join(' ')})` : ''}, then: loopgates install; to keep that configuration, install without the proof: ${noProof}`,
  };
}
