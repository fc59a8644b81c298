// The install proof: in a scratch clone under the OS temp dir, git itself runs the placed hook on two commits — one
// staging a canary credential (generated now, never written anywhere else) must be refused, a clean one must land.
// The user's repository is only read (a `--shared` clone reads its objects); the clone is removed afterwards.
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, REPO_ENV_KEYS } from '../git.js';

/** Files of the user's working tree that decide how the hook behaves; copied into the clone as they are now. */
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

/** The proof's outcome: `ok` when the canary commit was refused naming its file and the clean commit landed. */
export interface ProofResult {
  ok: boolean;
  canary: ProofCommit;
  clean: ProofCommit;
  /** Why the proof failed, one line each; empty when ok. */
  problems: string[];
}

export interface ProofOptions {
  top: string;
  /** The user's git common dir (absolute): the recorded CLI (loopgates/cli-path) is copied from there. */
  commonDir: string;
  /** The hooks dir git uses in the user's repository (absolute); the clone runs the hooks from there. */
  hooksDir: string;
  env: Readonly<Record<string, string | undefined>>;
  log: (line: string) => void;
  /** Per commit bound in ms (default 180 000). */
  timeoutMs?: number;
}

/**
 * Clone `top` (objects shared, nothing checked out, index = HEAD), copy the files that steer the hook, link
 * node_modules, then commit through the real hooks dir: clean first, canary second. Never throws for a refused or
 * failed commit (that is the answer); throws GitError when the clone itself cannot be made. Removes the clone.
 */
export async function proveHook(opts: ProofOptions): Promise<ProofResult> {
  const base = mkdtempSync(join(tmpdir(), 'loopgates-proof-'));
  const clone = join(base, 'repo');
  const env: Record<string, string | undefined> = { ...opts.env };
  // A bypass or another repository's GIT_* in the caller's environment would make the proof prove nothing.
  env.LOOPGATES_SKIP = undefined;
  for (const k of REPO_ENV_KEYS) env[k] = undefined;
  const timeoutMs = opts.timeoutMs ?? 180_000;
  try {
    opts.log(`proving: scratch clone in ${clone}`);
    await git(['clone', '--quiet', '--no-checkout', '--shared', '--', opts.top, clone], { cwd: base, env, timeoutMs });
    const head = await git(['rev-parse', '--verify', '--quiet', 'HEAD'], { cwd: clone, env, okExitCodes: [1, 128] });
    if (head.exitCode === 0) await git(['read-tree', 'HEAD'], { cwd: clone, env });
    for (const name of COPIED) {
      const from = join(opts.top, name);
      if (!existsSync(from)) continue;
      cpSync(from, join(clone, name), { recursive: true, filter: (src) => !NOT_COPIED.has(src.slice(src.lastIndexOf('/') + 1)) || src === from });
    }
    if (existsSync(join(opts.top, 'node_modules'))) symlinkSync(join(opts.top, 'node_modules'), join(clone, 'node_modules'), process.platform === 'win32' ? 'junction' : 'dir');
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
    if (userHadCache) cpSync(userCache, cloneCache, { recursive: true });
    mkdirSync(join(clone, 'loopgates-proof'));

    const commit = async (file: string, content: string, message: string): Promise<ProofCommit> => {
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
    const clean = await commit('clean.txt', 'loopgates install proof: nothing secret here\n', 'loopgates install proof: clean commit');
    opts.log(`proving: clean commit ${clean.landed ? 'landed' : `was REFUSED (exit ${clean.exitCode})`} (${(clean.durationMs / 1000).toFixed(1)} s)`);
    const secret = canaryCredential();
    const canary = await commit('canary.txt', `github_token = "${secret}"\n`, 'loopgates install proof: canary credential');
    const named = canary.output.includes('loopgates-proof/canary.txt');
    opts.log(
      `proving: canary commit ${canary.landed ? 'LANDED' : `refused (exit ${canary.exitCode})`}${!canary.landed && named ? ', finding at loopgates-proof/canary.txt' : ''} (${(canary.durationMs / 1000).toFixed(1)} s)`,
    );
    const problems: string[] = [];
    if (!clean.landed) problems.push(`the clean commit was refused (exit ${clean.exitCode}): every commit would be refused`);
    if (canary.landed) problems.push('the commit staging a canary credential LANDED: the hook does not guard commits');
    else if (!named) problems.push(`the canary commit was refused (exit ${canary.exitCode}) but no finding named loopgates-proof/canary.txt`);
    if (!userHadCache && clean.landed && existsSync(cloneCache)) cpSync(cloneCache, userCache, { recursive: true });
    const leaked = canary.output.includes(secret);
    if (leaked) problems.push('the canary credential appeared in the hook output');
    return {
      ok: problems.length === 0,
      canary: { ...canary, output: leaked ? canary.output.split(secret).join('<canary>') : canary.output },
      clean,
      problems,
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
