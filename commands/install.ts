// install / uninstall / doctor: places the hooks, detects other hook managers, verifies git will run them.
// The hook git runs is a POSIX sh script stored in the repository (hooks/pre-commit, rendered to
// .loopgates/hooks/pre-commit) so every checkout runs the same version; install places only what git needs to reach it
// (a shim in the hooks dir, or a block in husky's .husky/pre-commit), then proves it in a scratch clone.
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { CommandIO, Verb } from '../core/command.js';
import { ExitCode } from '../core/command.js';
import { LoopgatesError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { runTool } from '../core/tools.js';
import { probeGitleaks, resolveGitleaks } from '../gates/secrets/gitleaks.js';
import { detectManagers, emptyHooksPathScope, listsLoopgates, localLoopgatesFiles, readPackageJson, repoLayout, STORED_HOOK, type Managers, type RepoLayout } from './install/layout.js';
import { detectPackageManager, strayLockfiles, type PackageManager } from '../core/package-manager.js';
import { applyPlacements, planPlacement, SNIPPETS, verifyPlacements, exitHints, type Placement, type Problem } from './install/place.js';
import { proveHook } from './install/proof.js';
import {
  ATTRIBUTES_RULE,
  cliEntry,
  LOOPGATES_GITIGNORE,
  PREPARE_SCRIPT,
  renderStoredHook,
  storedHookMode,
  withoutBlock,
  type ResolveMode,
} from './install/render.js';
import { ChangeSet, loadState, readCurrent, saveState, statePath, revertState, undoPending, type FileChange, type ProofStatus } from './install/state.js';
import { pendingIsRunning, pendingPath, pendingProblem, readPending } from './install/pending.js';
import { defaultConfigFor, enabledSettings, NO_INPUT_YET, noInputWhy, repositoryInputs, unselectedWhat } from './install/config-default.js';
import { CONFIG_FILE, loadConfig, type ConfiguredGate } from '../core/config.js';
import { builtinGates, configOptions } from '../gates/registry.js';
import { blobId, git, gitEnv, gitText, isIgnored, isInsideGitDir, lsIndex, repoEnvProblem, repoFacts, REPO_ENV_KEYS, splitZ } from '../core/git.js';
import { allowlistAudit } from '../gates/secrets/allowlist.js';
import { extendChain } from '../gates/secrets/extend.js';
import { blindGlobFix, blindGlobMessage, blindGlobs } from '../core/blind.js';
import { cacheRoot, LEDGER_IN_TREE, moveLedger } from '../core/ledger.js';
import { writeHookPlan } from './hook.js';

const INSTALL_USAGE = `loopgates install [--from-prepare] [--no-proof]

Install the fail-closed pre-commit hook into the git repository that contains the current directory.

What it writes (each recorded in <git-common-dir>/loopgates/install.json so \`loopgates uninstall\` restores it):
  .loopgates/hooks/pre-commit   the hook itself, POSIX sh, LF line endings; commit it so every clone runs it
  .loopgates/.gitignore         keeps the ledger and caches out of git
  .gitattributes                adds "${ATTRIBUTES_RULE}" so core.autocrlf cannot break the hook
  loopgates.yaml                a commented default for the platforms found, only when there is none
  package.json                  (npm repositories listing loopgates) a "prepare" script: fresh clones get the hook
                                on \`npm install\`; it exits 0 when loopgates is absent (npm ci --omit=dev) or there
                                is no .git (a Docker build)
  <hooks dir>/pre-commit        a shim git runs (hooks dir: git rev-parse --git-path hooks); an existing hook there
                                is kept as pre-commit.loopgates-previous, runs first, and its failure still refuses
  .husky/pre-commit             with husky: a marked block instead of the shim
  <git-common-dir>/loopgates/cli-path   (repositories without loopgates in package.json) where this CLI lives,
                                so the hook finds it without npx

Other hook managers: husky is integrated; an existing .git/hooks/pre-commit (pre-commit, husky 4, your own) is
chained; lefthook, simple-git-hooks and a core.hooksPath outside the repository make install refuse with the
lines to add to their config (run install again afterwards).

After placing, install checks that git will run the hook (hooks dir, run bit, line endings), then proves it in a
scratch clone under the OS temp dir: a commit staging a generated canary credential must be refused and a clean
commit must land. Running it twice is the same as running it once.

What the hook reads at commit time:
  ~/.config/loopgates/init.sh   sourced first when present (put nvm / PATH set-up there for GUI git clients)
  LOOPGATES_NODE                the node binary to use (default: node on PATH)
  LOOPGATES_CLI                 the loopgates CLI entry to run (default: node_modules, the recorded CLI, PATH)
  LOOPGATES_SKIP=gate,...|all   bypass gates for one commit: loud warning, written to the ledger
  LOOPGATES_NO_FAST_PATH=1      start node for every commit (no node-free skip or secrets pass)
Node, loopgates or the stored hook missing, or loopgates failing to start: the commit is refused with the fix.

Options:
  --from-prepare   for package.json "prepare": only place the git side of an already committed hook; no proof;
                   outside a git repository it explains and exits 0
  --no-proof       skip the scratch-clone proof (\`loopgates doctor\` still checks the placement)
  -h, --help       this text

Exit codes: 0 installed and proven · 2 refused (another manager, a shared hooks dir), not a git repository, or the
proof failed (the message says which commit and why; everything this run wrote is then rolled back) · 130 / 143
interrupted by SIGINT (Ctrl-C) / SIGTERM: everything this run wrote is rolled back. A run killed outright (SIGKILL)
leaves <git-common-dir>/loopgates/install.pending.json (written before the first change, removed once the run is
complete): until the next install or uninstall undoes that run, doctor reports it and the hook refuses every commit.
`;

const UNINSTALL_USAGE = `loopgates uninstall [--force]

Undo \`loopgates install\` in this repository, newest change first, from the record it kept in
<git-common-dir>/loopgates/install.json: every file it created is removed and every file it changed gets back its
exact bytes and mode (hooks, loopgates.yaml, package.json, .gitattributes, .husky/pre-commit). A hook that was
there before install is put back byte for byte.

A file edited since install is not overwritten: loopgates removes only its own part (the "prepare" script, the
.husky block, the .gitattributes rule) or, where it cannot, leaves the file and says so.
A file the team has since committed (or staged) — loopgates.yaml, .loopgates/hooks/pre-commit, an edited
.gitattributes — is tracked: it is left as it is (also with --force), and uninstall prints the \`git rm\` and the edits
that remove loopgates for the team. Only what is local to this clone goes: the hook git runs, install's record and
the caches in <git-common-dir>/loopgates.
While package.json's "prepare" script runs \`loopgates install --from-prepare\` (a clone set up by \`npm install\`),
the package manager's next install puts the hook back: uninstall says so, with the edit that removes it for good.
.loopgates/ledger.jsonl (the run history, git-ignored through .loopgates/.gitignore) is kept: once git no longer
ignores it, or only through a file the printed \`git rm\` removes, it moves to <git-common-dir>/loopgates/ledger.jsonl
(never an untracked file, before or after those steps); delete it for no trace.

Options:
  --force      restore the pre-install bytes even of files edited since install
  -h, --help   this text

Exit codes: 0 restored (or nothing was installed) · 2 some file was left as it is (listed, with what to do).
`;

const DOCTOR_USAGE = `loopgates doctor

Check, without changing anything, that the hook will run and can judge a commit:
  - install: the last \`loopgates install\` completed its proof (no unfinished install's journal is left), or placed
    the hook without it (--no-proof, --from-prepare: said as an info line with the command that proves it)
  - the stored hook .loopgates/hooks/pre-commit: present, current for this loopgates version, LF line endings
  - placement: git's hooks dir (git rev-parse --git-path hooks, core.hooksPath by scope), the shim or husky block,
    its run bit, and whether another manager (husky, lefthook, pre-commit, simple-git-hooks) is in the way
  - node: the version running now (20 or newer)
  - loopgates: where the hook will find it (node_modules, the recorded CLI, or PATH)
  - scanner: gitleaks found (PATH or LOOPGATES_GITLEAKS) and answering the subcommand the secrets gate uses
  - config: loopgates.yaml present and valid
Each problem is printed with its one-line fix.

Options:
  -h, --help   this text

Exit codes: 0 healthy · 2 at least one problem.
`;

interface Ctx {
  io: CommandIO;
  env: Record<string, string | undefined>;
  out: (line: string) => void;
}

// The repository is whatever git finds from io.cwd with the caller's GIT_DIR / GIT_WORK_TREE (a separate git dir and work
// tree has no <top>/.git): every git call below gets ctx.env, with those made absolute against io.cwd (core/git.ts
// gitEnv) since the calls run from the top of the work tree. GIT_INDEX_FILE stays as given (git reads it from the top).
const ctxOf = (io: CommandIO): Ctx => {
  const repo = gitEnv(io.env, io.cwd);
  delete repo.GIT_INDEX_FILE;
  return { io, env: { ...io.env, ...repo }, out: (l) => io.stdout(`${l}\n`) };
};

function parseFlags(args: readonly string[], known: readonly string[], verb: string): Set<string> {
  const flags = new Set<string>();
  for (const a of args) {
    if (!known.includes(a)) throw new LoopgatesError(`unknown option '${a}'`, `loopgates ${verb} --help`);
    flags.add(a);
  }
  return flags;
}

/** Why `cwd` has no work tree: a bare repository (or .git), where `git init` does not apply, or no repository at all. */
async function notInWorkTree(cwd: string, env: Readonly<Record<string, string | undefined>>): Promise<LoopgatesError> {
  // GIT_DIR / GIT_WORK_TREE chose the repository: what is wrong with them, not "git init".
  const chosen = await repoEnvProblem(cwd, env);
  if (chosen) return new LoopgatesError(chosen.message, chosen.fix);
  if (await isInsideGitDir(cwd, env)) return new LoopgatesError(messages.insideGitDir(cwd), messages.insideGitDirFix);
  return new LoopgatesError(`${cwd} is not inside a git working tree`, 'run it inside your repository (or: git init)');
}

async function requireLayout(ctx: Ctx): Promise<RepoLayout> {
  const layout = await repoLayout(ctx.io.cwd, ctx.env);
  if (!layout) throw await notInWorkTree(ctx.io.cwd, ctx.env);
  return layout;
}

/** Which way the stored hook finds loopgates in this repository. */
function resolveMode(layout: RepoLayout): ResolveMode {
  return listsLoopgates(readPackageJson(layout.top)) ? 'npm' : 'standalone';
}

/** package.json text with our prepare script added (kept when already there), formatting preserved. */
function withPrepare(text: string): string {
  const pkg = JSON.parse(text) as Record<string, unknown> & { scripts?: Record<string, string> };
  const scripts = { ...(pkg.scripts ?? {}) };
  const current = scripts.prepare;
  if (current !== undefined && current.includes('loopgates')) return text;
  scripts.prepare = current === undefined || current.trim() === '' ? PREPARE_SCRIPT : `${current} && ${PREPARE_SCRIPT}`;
  pkg.scripts = scripts;
  const indent = /^([ \t]+)"/m.exec(text)?.[1] ?? '  ';
  return `${JSON.stringify(pkg, null, indent)}${text.endsWith('\n') ? '\n' : ''}`;
}

/** package.json text with our prepare script removed; the inverse of `withPrepare`. */
function withoutPrepare(text: string): string | null {
  let pkg: Record<string, unknown> & { scripts?: Record<string, string> };
  try {
    pkg = JSON.parse(text) as typeof pkg;
  } catch {
    return null;
  }
  const prepare = pkg.scripts?.prepare;
  if (prepare === undefined || !pkg.scripts) return text;
  if (prepare === PREPARE_SCRIPT) delete pkg.scripts.prepare;
  else if (prepare.endsWith(` && ${PREPARE_SCRIPT}`)) pkg.scripts.prepare = prepare.slice(0, -` && ${PREPARE_SCRIPT}`.length);
  else return text;
  if (Object.keys(pkg.scripts).length === 0) delete pkg.scripts;
  const indent = /^([ \t]+)"/m.exec(text)?.[1] ?? '  ';
  return `${JSON.stringify(pkg, null, indent)}${text.endsWith('\n') ? '\n' : ''}`;
}

function withAttributesRule(text: string): string {
  if (text.split(/\r?\n/).some((l) => l.trim() === ATTRIBUTES_RULE)) return text;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const sep = text === '' || text.endsWith('\n') ? '' : eol;
  return `${text}${sep}${ATTRIBUTES_RULE}${eol}`;
}

function unpatch(change: FileChange, current: string): string | null {
  switch (change.kind) {
    case 'package-json':
      return withoutPrepare(current);
    case 'hook-block':
      return withoutBlock(current);
    case 'gitattributes':
      return current
        .split(/(?<=\n)/)
        .filter((l) => l.trim() !== ATTRIBUTES_RULE)
        .join('');
    default:
      return null;
  }
}

/**
 * The hook plan (core/hook-plan.ts) for the loopgates.yaml install leaves and the CLI the stored hook will find, so
 * the first commit after install can already pass without node when no enabled gate reads its files (the plan is
 * keyed by the config's blob id: it serves once that file is staged as it is now). Best effort: without a plan, the
 * first commit that reaches node writes it.
 */
async function planAtInstall(top: string, mode: ResolveMode, env: Readonly<Record<string, string | undefined>>): Promise<void> {
  try {
    if (REPO_ENV_KEYS.some((k) => env[k])) return;
    const gitEnv = Object.fromEntries(Object.entries(env).filter((kv): kv is [string, string] => kv[1] !== undefined));
    const facts = await repoFacts(top, gitEnv);
    if (!facts.hasHead) return;
    const configOid = (await gitText(['hash-object', '--', CONFIG_FILE], { cwd: facts.topLevel, env: gitEnv })).trim();
    const { gates } = loadConfig(facts.topLevel, await configOptions());
    const cli = mode === 'npm' ? join(facts.topLevel, 'node_modules', 'loopgates', 'bin', 'loopgates.js') : cliEntry();
    await writeHookPlan({ facts, gitEnv, cacheRoot: cacheRoot(facts.topLevel, facts), cli, configOid, gates });
  } catch {
    /* no plan: the first commit that reaches node writes it */
  }
}

/**
 * The entries of `entries` (repository-relative files or folders) with anything git status reports: changed, staged,
 * untracked, deleted against HEAD (git-ignored files, the ledger and cache, are not). When git cannot say, all of them.
 */
async function differFromHead(top: string, env: Readonly<Record<string, string | undefined>>, entries: readonly string[]): Promise<string[]> {
  let records: string[];
  try {
    records = splitZ((await git(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', ...entries], { cwd: top, env })).stdout);
  } catch {
    return [...entries];
  }
  const paths: string[] = [];
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    paths.push(r.slice(3));
    // A rename or copy is followed by its source path's own record.
    if (/^[RC]|^.[RC]/.test(r)) i++;
  }
  return entries.filter((e) => paths.some((p) => p === e || p.startsWith(`${e}/`)));
}

/**
 * The ToolMissingError of a gitleaks the secrets gate would not find, when that gate is on (no loopgates.yaml yet: the
 * default, on). Undefined when it is found, the gate is off, or the config cannot be read (the proof names that).
 */
async function missingScanner(top: string, env: Readonly<Record<string, string | undefined>>): Promise<LoopgatesError | undefined> {
  try {
    if (existsSync(join(top, CONFIG_FILE)) && loadConfig(top, await configOptions()).gates.find((g) => g.gate.id === 'secrets')?.enabled === false) return undefined;
  } catch {
    return undefined;
  }
  try {
    resolveGitleaks(env);
    return undefined;
  } catch (err) {
    if (err instanceof LoopgatesError) return err;
    throw err;
  }
}

/**
 * `install`, where a signal before the first change (a Ctrl-C in the first second, which kills the git child too:
 * "git rev-parse … killed by SIGINT", or a rev-parse that reads as "not inside a git working tree") is what it is:
 * exit 130 / 143, nothing changed. After the first change installSteps rolls back and says so itself.
 */
async function install(args: readonly string[], io: CommandIO): Promise<number> {
  try {
    return await installSteps(args, io);
  } catch (err) {
    if (!io.signal.aborted) throw err;
    const sig = signalName(io.signal);
    io.stderr(`loopgates install: interrupted (${sig}) before it changed anything: the repository is as it was\n  fix: loopgates install\n`);
    return sig === 'SIGINT' ? 130 : sig === 'SIGTERM' ? 143 : ExitCode.broken;
  }
}

async function installSteps(args: readonly string[], io: CommandIO): Promise<number> {
  const flags = parseFlags(args, ['--from-prepare', '--no-proof'], 'install');
  const ctx = ctxOf(io);
  const fromPrepare = flags.has('--from-prepare');
  const layout = await repoLayout(io.cwd, ctx.env);
  if (io.signal.aborted) throw new InstallInterrupted();
  if (!layout) {
    if (fromPrepare) {
      ctx.out('loopgates: no git repository here (a Docker build or an unpacked tarball?): the git hook was not placed; run `loopgates install` in a clone');
      return ExitCode.ok;
    }
    throw await notInWorkTree(io.cwd, ctx.env);
  }
  const { top, commonDir } = layout;
  // An earlier install that never completed (killed before it could roll back) is undone first, from its journal.
  const pending = readPending(commonDir);
  if (pending && pendingIsRunning(pending)) {
    io.stderr(`loopgates install: refused, nothing was changed: another loopgates install (pid ${pending.pid}, started ${pending.startedAt}) is still running in this repository\n  fix: wait for it to finish, then: loopgates doctor\n`);
    return ExitCode.broken;
  }
  // Nothing is changed after a signal: the undo below is the first write.
  if (io.signal.aborted) throw new InstallInterrupted();
  if (pending && !undoInterrupted(layout, 'install', io)) return ExitCode.broken;
  const managers = detectManagers(layout);
  const plan = planPlacement(layout, managers);
  if (!plan.ok) {
    const text = `loopgates install: refused, nothing was changed: ${plan.message}\n  fix: ${plan.fix}\n`;
    // The block is file content the user pastes into a shared hook: as written, not started with this shell's command.
    const at = text.indexOf(SNIPPETS.sharedDir);
    if (at < 0 || !io.verbatim) io.stderr(text);
    else {
      io.stderr(text.slice(0, at));
      io.verbatim.stderr(SNIPPETS.sharedDir);
      io.stderr(text.slice(at + SNIPPETS.sharedDir.length));
    }
    return ExitCode.broken;
  }
  const state = loadState(layout);
  const changes = new ChangeSet(state, { roots: layout, recordBefore: readCurrent(statePath(commonDir)) });
  // A hook git would skip is worse than none (it looks installed): on a failed check or proof, undo this run.
  const rollBack = (why: string) => {
    changes.rollback();
    io.stderr(`loopgates install: rolled back: nothing install wrote is left (the repository is as it was before this install), because ${why}\n`);
  };
  const rel = (p: string) => relative(top, p) || p;
  const stored = join(top, STORED_HOOK);
  const mode = resolveMode(layout);
  // Every await below is a point where Ctrl-C (SIGINT) or SIGTERM may have arrived: stop there and roll back.
  const step = async (name: InstallStep) => {
    await testPause(name, ctx);
    if (io.signal.aborted) throw new InstallInterrupted();
  };

  if (fromPrepare && !existsSync(stored)) {
    throw new LoopgatesError(`${STORED_HOOK} is missing from this checkout`, 'loopgates install, then commit .loopgates/');
  }
  // The proof needs gitleaks (the secrets gate runs it): a missing one is said now, not after the proof's commits.
  if (!fromPrepare && !flags.has('--no-proof')) {
    const missing = await missingScanner(top, ctx.env);
    if (missing) {
      io.stderr(`loopgates install: refused, nothing was changed: ${missing.message} (the secrets gate runs it on every commit, and install's proof needs it)\n  fix: ${missing.fix}, then: loopgates install\n`);
      return ExitCode.broken;
    }
  }
  // The journal goes first: until `finish` removes it, doctor and the hook report this install as unproven.
  changes.begin();
  try {
    await step('begun');
    if (!fromPrepare) {
      if (changes.write(stored, renderStoredHook(mode), 0o755, 'stored-hook')) ctx.out(`wrote ${STORED_HOOK} (finds loopgates: ${mode === 'npm' ? 'node_modules' : 'recorded CLI, then PATH'})`);
      await step('wrote-hook');
      if (changes.write(join(top, '.loopgates', '.gitignore'), LOOPGATES_GITIGNORE, 0o644, 'gitignore')) ctx.out('wrote .loopgates/.gitignore (ledger.jsonl, cache/)');
      const attributes = join(top, '.gitattributes');
      const attrText = existsSync(attributes) ? readFileSync(attributes, 'utf8') : '';
      if (changes.write(attributes, withAttributesRule(attrText), 0o644, 'gitattributes')) ctx.out(`added "${ATTRIBUTES_RULE}" to .gitattributes`);
      const config = join(top, 'loopgates.yaml');
      if (!existsSync(config)) {
        const { text, detected, waiting, unselected, takenIn } = await defaultConfigFor(top, mode, ctx.env);
        await step('config');
        changes.write(config, text, 0o644, 'config');
        ctx.out(`wrote loopgates.yaml (defaults for: ${detected})`);
        ctx.out(`enabled: ${builtinGates.map((g) => g.id).join(', ')}`);
        for (const l of waiting) ctx.out(`no input yet: ${l.gate}: ${l.why}; it stays on, so the commit that adds some is judged (run --all skips it until then: gates.${l.gate}.allowEmpty)`);
        for (const l of unselected) ctx.out(`not judged: ${l.gate}: ${l.what}\n  fix: ${l.fix}`);
        for (const l of takenIn) ctx.out(`taken in: ${l.gate}: ${l.what}: wrote ${l.settings}`);
      }
      if (mode === 'npm') {
        const pj = join(top, 'package.json');
        const text = readFileSync(pj, 'utf8');
        const pm = detectPackageManager(readPackageJson(top), top);
        if (changes.write(pj, withPrepare(text), statModeOr(pj, 0o644), 'package-json')) ctx.out(`added a "prepare" script to package.json (fresh clones get the hook on ${pm.install})`);
      } else {
        const record = join(commonDir, 'loopgates', 'cli-path');
        if (changes.write(record, `${cliEntry()}\n`, 0o644, 'cli-record')) ctx.out(`recorded the CLI for the hook: ${cliEntry()}`);
      }
    }
    for (const line of applyPlacements(plan.placements, changes, top)) ctx.out(line);
    for (const note of plan.notes) ctx.out(`note: ${note}`);
    saveState(layout, state);
    await step('placed');

    const after = detectManagers((await repoLayout(top, ctx.env)) ?? layout);
    await step('verified');
    const problems = [...storedHookProblems(top, await headHas(top, ctx.env, STORED_HOOK)), ...verifyPlacements(plan.placements, layout, after, ctx.env)];
    if (problems.length > 0) {
      for (const p of problems) io.stderr(`loopgates install: ${p.what}\n  fix: ${p.fix}\n`);
      rollBack('git would not run the hook as placed (above)');
      return ExitCode.broken;
    }
    ctx.out(`git will run the hook: ${describePlacements(plan.placements, rel)}`);
    // Without the proof, the record says so once this run placed anything (doctor reads it); a run that placed
    // nothing leaves standing the proof of what is there.
    const unproven = (why: 'no-proof' | 'from-prepare') => {
      if (changes.written.length > 0 || state.proof === null) state.proof = why;
      saveState(layout, state);
    };
    if (fromPrepare) {
      unproven('from-prepare');
      changes.finish();
      await planAtInstall(top, mode, ctx.env);
      return ExitCode.ok;
    }
    if (!flags.has('--no-proof')) {
      await step('proving');
      // After a signal the rollback has spoken: a late line of the proof (still finishing its git call) would only confuse.
      const log = (line: string) => void (io.signal.aborted || ctx.out(line));
      const proving = proveHook({ top, gitDir: layout.gitDir, commonDir, hooksDir: layout.hooksDir, env: ctx.env, log, signal: io.signal });
      // A signal ends the wait at once (the rollback does not wait for the commit running in the scratch clone; the
      // proof stops before its next step and removes the clone).
      proving.catch(() => {});
      const proof = await Promise.race([proving, aborted(io.signal)]);
      await step('proven');
      if (!proof.ok) {
        for (const p of proof.problems) io.stderr(`loopgates install: proof failed: ${p}\n`);
        const shown = !proof.clean.landed ? proof.clean : proof.canary;
        io.stderr(`--- output of the ${shown === proof.clean ? 'clean' : 'canary'} commit ---\n${shown.output.trimEnd()}\n---\n`);
        rollBack('the proof in a scratch clone failed (above): the hook as placed does not protect commits');
        // A hook that ran and refused names its own fix (a missing gitleaks, a broken config): that is the one to show.
        const hookFix = /^\s*fix: (.+)$/m.exec(shown.output)?.[1];
        // A cause the proof recognised (the secrets gate off, gitleaks allow-listing the canary, a team allowlist that
        // skips the proof's files): the proof names its fix, whichever commit is shown.
        const proofFix = proof.fix;
        io.stderr(
          proofFix
            ? `  fix: ${proofFix}\n`
            : hookFix
              ? `  fix: ${hookFix.trim()}, then: loopgates install\n`
              : '  fix: make sure nothing before the loopgates block ends the hook script (an `exit`, `exec`), then: loopgates install   (loopgates doctor names other problems)\n',
        );
        return ExitCode.broken;
      }
      ctx.out('proven: a commit staging a credential is refused and a clean commit lands');
      state.proof = 'passed';
      saveState(layout, state);
    } else unproven('no-proof');
    changes.finish();
    await planAtInstall(top, mode, ctx.env);
  } catch (err) {
    changes.rollback();
    if (!io.signal.aborted) {
      io.stderr(`loopgates install: rolled back: nothing install wrote is left (the repository is as it was before this install), because install failed (below)\n`);
      throw err;
    }
    const sig = signalName(io.signal);
    io.stderr(
      `loopgates install: interrupted (${sig}): rolled back: nothing install wrote is kept (the repository is as it was before this install)\n` +
        '  fix: loopgates install   (and let it finish: the proof commits twice in a scratch clone, a cold cache first runs every gate\'s self-test)\n',
    );
    return sig === 'SIGINT' ? 130 : sig === 'SIGTERM' ? 143 : ExitCode.broken;
  }
  // A loopgates dependency given as a file of the repository (the tarball) must be committed too, or a fresh clone's
  // `npm install` fails and never places the hook.
  const toCommit = ['.loopgates', '.gitattributes', 'loopgates.yaml', ...(mode === 'npm' ? ['package.json', ...localLoopgatesFiles(readPackageJson(top), top)] : []), ...plan.placements.flatMap((p) => (p.kind === 'block' ? [rel(p.file)] : []))];
  const entries = [...new Set(toCommit)];
  const uncommitted = await differFromHead(top, ctx.env, entries);
  if (uncommitted.length) ctx.out(`next: commit the hook so every clone runs it: git add ${uncommitted.join(' ')}`);
  else ctx.out(`committed already: ${entries.join(' ')} match HEAD (nothing to add)`);
  if (mode === 'npm') {
    const pm = detectPackageManager(readPackageJson(top), top);
    const stray = strayLockfiles(pm, top);
    if (stray.length) ctx.out(`note: this repository uses ${pm.name} (${pm.source}) but ${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} there too (another manager's install writes ${stray.length > 1 ? 'them' : 'it'}: commit none of ${stray.length > 1 ? 'them' : 'it'}); add loopgates with ${pm.addDev('./loopgates-0.1.0.tgz')}`);
  }
  const pkgNow = readPackageJson(top);
  if (mode === 'standalone') ctx.out(`other clones: run \`node ${process.argv[1] ?? '/path/to/loopgates/bin/loopgates.js'} install\` once after cloning (loopgates is not on the npm registry: not npx), or add loopgates to package.json devDependencies${pkgNow ? ` (${detectPackageManager(pkgNow, top).addDev('./loopgates-0.1.0.tgz')} after npm pack /path/to/loopgates)` : ''}`);
  return ExitCode.ok;
}

/**
 * The points where install checks for a signal, in order (LOOPGATES_TEST_INSTALL_PAUSE names one): `begun` journal
 * written, nothing else yet; `wrote-hook` the stored hook written; `config` before loopgates.yaml; `placed` every file
 * and placement written and recorded; `verified` placement re-read; `proving` before the scratch-clone proof;
 * `proven` the proof answered, the journal not yet removed.
 */
type InstallStep = 'begun' | 'wrote-hook' | 'config' | 'placed' | 'verified' | 'proving' | 'proven';

/** Thrown at a step once the signal aborted; install's catch rolls back and says it was interrupted. */
class InstallInterrupted extends Error {
  constructor() {
    super('interrupted');
  }
}

/** A promise that rejects when `signal` aborts (never settles otherwise). */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(new InstallInterrupted());
    else signal.addEventListener('abort', () => reject(new InstallInterrupted()), { once: true });
  });
}

/** The signal's name as cli.ts aborts with it (`new Error('SIGINT')`), else 'interrupted'. */
function signalName(signal: AbortSignal): string {
  const r: unknown = signal.reason;
  return r instanceof Error && /^SIG[A-Z]+$/.test(r.message) ? r.message : 'interrupted';
}

/**
 * FOR TESTS ONLY: with LOOPGATES_TEST_INSTALL_PAUSE=<step> (an InstallStep), install stops at that step, says so on
 * stderr ("paused at <step>"), and waits until a signal arrives (or 60 s pass), so a test can interrupt it, or kill
 * it hard, at a chosen point (test/integration/install-interrupt.test.ts). Unset, it costs nothing.
 */
async function testPause(step: InstallStep, ctx: Ctx): Promise<void> {
  if (ctx.env.LOOPGATES_TEST_INSTALL_PAUSE !== step) return;
  ctx.io.stderr(`loopgates install: paused at ${step} (LOOPGATES_TEST_INSTALL_PAUSE, for tests only)\n`);
  const { signal } = ctx.io;
  if (signal.aborted) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 60_000);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/**
 * Undo an install that never completed its proof (killed before it could roll back; pending.ts), from its journal,
 * saying what was put back. Returns false (after saying which file and what to do) when a file it wrote was edited
 * since and so left as it is.
 */
function undoInterrupted(layout: RepoLayout, verb: 'install' | 'uninstall', io: CommandIO): boolean {
  const undo = undoPending(layout);
  if (!undo) return true;
  const rel = (p: string) => relative(layout.top, p) || p;
  if (undo.unreadable) {
    io.stderr(`loopgates ${verb}: ${pendingPath(layout.commonDir)} (the journal of an unfinished install) could not be read: removed it; nothing else was touched\n`);
    return true;
  }
  io.stdout(`an earlier loopgates install (pid ${undo.pid}, started ${undo.startedAt}) never completed its proof: undid what it wrote first\n`);
  for (const o of undo.outcomes) if (o.action === 'restored' || o.action === 'removed') io.stdout(`  ${o.action} ${rel(o.path)}\n`);
  const kept = undo.outcomes.filter((o) => o.action === 'kept-edited');
  for (const o of kept) io.stderr(`loopgates ${verb}: ${rel(o.path)} was written by that unfinished install and edited since; left as it is\n  fix: remove it or restore it by hand, then: loopgates ${verb}\n`);
  return kept.length === 0;
}

function statModeOr(path: string, fallback: number): number {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return fallback;
  }
}

function describePlacements(placements: readonly Placement[], rel: (p: string) => string): string {
  return placements
    .map((p) => (p.kind === 'shim' ? `${join(p.dir, 'pre-commit')} -> ${STORED_HOOK}` : p.kind === 'block' ? `${rel(p.file)} (${p.manager}) -> ${STORED_HOOK}` : `${p.manager} (${p.file}) -> ${STORED_HOOK}`))
    .join('; ');
}

/** Whether HEAD holds `path` (false before the first commit). `git checkout HEAD -- path` works only then. */
async function headHas(top: string, env: Readonly<Record<string, string | undefined>>, path: string): Promise<boolean> {
  const r = await git(['cat-file', '-e', `HEAD:${path}`], { cwd: top, env, okExitCodes: [1, 128] });
  return r.exitCode === 0;
}

/**
 * Problems with the stored hook itself: missing, not ours, CRLF, or stale for this loopgates version. `inHead`:
 * whether HEAD holds it (headHas); a missing hook HEAD lacks (install's files never committed) has only install as its fix.
 */
function storedHookProblems(top: string, inHead: boolean): Problem[] {
  const stored = join(top, STORED_HOOK);
  if (!existsSync(stored)) return [{ what: `${STORED_HOOK} is missing: every commit is refused`, fix: inHead ? `git checkout HEAD -- ${STORED_HOOK}   (or: loopgates install)` : 'loopgates install' }];
  const bytes = readFileSync(stored);
  const problems: Problem[] = [];
  if (bytes.includes(0x0d)) problems.push({ what: `${STORED_HOOK} has CRLF line endings (core.autocrlf?): sh cannot run it`, fix: `loopgates install   (rewrites it with LF and adds "${ATTRIBUTES_RULE}" to .gitattributes)` });
  const text = bytes.toString('utf8').replace(/\r\n/g, '\n');
  const mode = storedHookMode(text);
  if (mode === null) problems.push({ what: `${STORED_HOOK} is not a loopgates hook`, fix: 'loopgates install' });
  else if (text !== renderStoredHook(mode)) problems.push({ what: `${STORED_HOOK} differs from this loopgates version's hook (older version or edited)`, fix: 'loopgates install, then commit .loopgates/hooks/pre-commit' });
  return problems;
}

async function uninstall(args: readonly string[], io: CommandIO): Promise<number> {
  const flags = parseFlags(args, ['--force'], 'uninstall');
  const ctx = ctxOf(io);
  const layout = await requireLayout(ctx);
  const pending = readPending(layout.commonDir);
  if (pending && pendingIsRunning(pending)) {
    io.stderr(`loopgates uninstall: refused, nothing was changed: a loopgates install (pid ${pending.pid}, started ${pending.startedAt}) is still running in this repository\n  fix: wait for it to finish, then: loopgates uninstall\n`);
    return ExitCode.broken;
  }
  // An install killed before it could roll back wrote files its record may not name yet: its journal undoes them.
  const undone = pending ? undoInterrupted(layout, 'uninstall', io) : true;
  // Said last, once something was undone, unless the team advice already names package.json's prepare script.
  let prepareAdvised = false;
  const done = (code: number): number => {
    const note = prepareAdvised ? null : prepareNote(layout.top);
    if (note) ctx.out(note);
    return code;
  };
  const state = loadState(layout);
  const rel = (p: string) => relative(layout.top, p) || p;
  for (const p of state.outside) {
    io.stderr(`loopgates uninstall: ${p} is outside this repository: left untouched (the install record names it; a copied or moved repository?)\n  fix: nothing to do here; run \`loopgates uninstall\` in the repository it belongs to\n`);
  }
  if (state.changes.length === 0) {
    if (state.outside.length > 0) {
      rmSync(statePath(layout.commonDir), { force: true });
      return ExitCode.broken;
    }
    if (pending) {
      if (!undone) return done(ExitCode.broken);
      ctx.out('loopgates uninstalled: everything the unfinished install wrote is restored');
      return done(ExitCode.ok);
    }
    ctx.out(`loopgates is not installed here (no record at ${statePath(layout.commonDir)}): nothing to undo`);
    return ExitCode.ok;
  }
  const tracked = await teamFiles(layout, state.changes, ctx.env);
  rmSync(statePath(layout.commonDir), { force: true });
  const outcomes = revertState(state, unpatch, flags.has('--force'), new Set(tracked.map((c) => c.path)));
  // Gate caches (core/ledger.ts cacheRoot) are derived data: rebuilt on the next run, so they go with the hook.
  rmSync(join(layout.commonDir, 'loopgates', 'cache'), { recursive: true, force: true });
  // The stored hook's handshake file (hooks/pre-commit), left behind only by a commit that was killed mid-way.
  rmSync(join(layout.gitDir, 'loopgates-hook-answer'), { force: true });
  try {
    rmdirSync(join(layout.commonDir, 'loopgates'));
  } catch {
    /* not empty (something else lives there) or already gone */
  }
  let kept = 0;
  for (const o of outcomes) {
    if (o.action === 'kept-edited') {
      kept += 1;
      io.stderr(`loopgates uninstall: ${rel(o.path)} was edited since install; left as it is\n  fix: remove it by hand, or: loopgates uninstall --force (restores its pre-install bytes)\n`);
    } else if (o.action === 'kept-tracked') ctx.out(`kept ${rel(o.path)} (tracked: a file of the team, committed or staged since install; uninstall changes only this clone)`);
    else if (o.action !== 'already-gone') ctx.out(`${o.action} ${rel(o.path)}${o.action === 'unpatched' ? ' (edited since install: removed only loopgates’ part)' : ''}`);
  }
  // The team steps below `git rm` the tracked files install created (.loopgates/.gitignore among them): a ledger only
  // they keep ignored would be an untracked file after them, committed by the next `git add -A` (fresh G6).
  await keepLedgerIgnored(layout, ctx, tracked.filter((c) => c.before === null).map((c) => rel(c.path).split(sep).join('/')));
  if (tracked.length > 0) {
    for (const line of teamFilesAdvice(tracked, rel, layout.top)) ctx.out(line);
    prepareAdvised = tracked.some((c) => c.kind === 'package-json' && c.before !== null);
    if (kept > 0 || state.outside.length > 0 || !undone) {
      if (kept > 0) saveState(layout, { ...state, changes: state.changes.filter((c) => outcomes.some((o) => o.path === c.path && o.action === 'kept-edited')) });
      return done(ExitCode.broken);
    }
    const block = tracked.find((c) => c.kind === 'hook-block');
    ctx.out(
      block
        ? `loopgates uninstalled from this clone: its records in .git are removed; the tracked files above stay, as committed, and ${rel(block.path)} still runs loopgates here until its block is removed`
        : 'loopgates uninstalled from this clone: its git hook and its records in .git are removed; the tracked files above stay, as committed',
    );
    return done(ExitCode.ok);
  }
  if (kept > 0) {
    // Keep a record of what is left so a later `uninstall --force` can still finish the job.
    saveState(layout, { ...state, changes: state.changes.filter((c) => outcomes.some((o) => o.path === c.path && o.action === 'kept-edited')) });
    return done(ExitCode.broken);
  }
  if (state.outside.length > 0 || !undone) return done(ExitCode.broken);
  ctx.out('loopgates uninstalled: everything install wrote is restored');
  return done(ExitCode.ok);
}

/** The package manager of `top` (npm when package.json is absent or does not parse). */
function packageManagerAt(top: string): PackageManager {
  let pkg: Record<string, unknown> | null = null;
  try {
    pkg = readPackageJson(top);
  } catch {
    /* an unparsable package.json: the lockfiles decide */
  }
  return detectPackageManager(pkg, top);
}

/**
 * After uninstall, when package.json's `prepare` script still runs `loopgates install --from-prepare` (ours, or the
 * team's own) and loopgates is a dependency: the manager's next install runs it and the hook is back (fresh-user-6
 * G12: a clone set up by `npm install`). The note says so, with the edit that ends it for every clone. Null when
 * nothing puts the hook back (no such script, or yarn 2+, which runs no `prepare`).
 */
function prepareNote(top: string): string | null {
  let pkg: Record<string, unknown> | null;
  try {
    pkg = readPackageJson(top);
  } catch {
    return null;
  }
  const scripts = pkg?.scripts;
  const prepare = typeof scripts === 'object' && scripts !== null ? (scripts as Record<string, unknown>).prepare : undefined;
  if (typeof prepare !== 'string' || !prepare.includes('--from-prepare') || !listsLoopgates(pkg)) return null;
  const pm = detectPackageManager(pkg, top);
  if (!pm.runsPrepare) return null;
  return (
    `note: package.json's "prepare" script still places the hook: the next \`${pm.install}\` runs it and puts the hook back in this clone. ` +
    `To remove loopgates for good, for every clone: remove the loopgates part of scripts.prepare in package.json and run \`${pm.remove('loopgates')}\`, then commit package.json and ${pm.lockfile}`
  );
}

/**
 * The changes whose file is the team's now: git's index or HEAD holds it with content other than what install found
 * there (created and then committed or staged, or its edit committed). Uninstall leaves those as they are: deleting
 * or rewriting them would change committed files in this working tree (fresh-user F11). Paths in the git dir (the
 * shim, the CLI record) are never tracked.
 */
async function teamFiles(layout: RepoLayout, changes: readonly FileChange[], env: Readonly<Record<string, string | undefined>>): Promise<FileChange[]> {
  const inTree = changes.filter((c) => {
    const r = relative(layout.top, c.path);
    return r !== '' && !r.startsWith('..') && !isAbsolute(r) && !c.path.startsWith(`${layout.gitDir}${sep}`) && !c.path.startsWith(`${layout.commonDir}${sep}`);
  });
  if (inTree.length === 0) return [];
  const rels = inTree.map((c) => relative(layout.top, c.path).split(sep).join('/'));
  const format = (await gitText(['rev-parse', '--show-object-format'], { cwd: layout.top, env })).trim();
  const oids = (out: Buffer) =>
    new Map(
      splitZ(out).map((rec) => {
        // ls-files -s: "<mode> <oid> <stage>\t<path>"; ls-tree: "<mode> blob <oid>\t<path>"
        const tab = rec.indexOf('\t');
        const head = rec.slice(0, tab).split(' ');
        return [rec.slice(tab + 1), head[1] === 'blob' ? head[2]! : head[1]!] as const;
      }),
    );
  const index = oids((await git(['--literal-pathspecs', 'ls-files', '-s', '-z', '--full-name', '--', ...rels], { cwd: layout.top, env })).stdout);
  const headTree = await git(['--literal-pathspecs', 'ls-tree', '-r', '-z', '--full-tree', 'HEAD', '--', ...rels], { cwd: layout.top, env, okExitCodes: [128] });
  const committed = headTree.exitCode === 0 ? oids(headTree.stdout) : new Map<string, string>();
  return inTree.filter((c, i) => {
    const before = c.before ? blobId(Buffer.from(c.before.base64, 'base64'), format) : undefined;
    const inIndex = index.get(rels[i]!);
    const inHead = committed.get(rels[i]!);
    return (inIndex !== undefined && inIndex !== before) || (inHead !== undefined && inHead !== before);
  });
}

/** What to do to remove the team's files for everyone (each kept by uninstall): a `git rm` for those install created, the part to edit out of the others. */
function teamFilesAdvice(tracked: readonly FileChange[], rel: (p: string) => string, top: string): string[] {
  const created = tracked.filter((c) => c.before === null).map((c) => rel(c.path).split(sep).join('/')).sort();
  const out = ['the files above are tracked: they hold loopgates for every clone of this repository. To remove loopgates for the team too:'];
  if (created.length > 0) out.push(`  git rm -q -- ${created.map(shellWord).join(' ')}`);
  for (const c of tracked.filter((t) => t.before !== null)) {
    const what =
      c.kind === 'gitattributes'
        ? `remove the line "${ATTRIBUTES_RULE}"`
        : c.kind === 'package-json'
          ? packageJsonAdvice(packageManagerAt(top))
          : c.kind === 'hook-block'
            ? 'remove the block between the loopgates markers (while it is there, the hook manager runs loopgates in every clone, this one included)'
            : 'restore it as it was before loopgates';
    out.push(`  ${rel(c.path)}: ${what}`);
  }
  out.push('  then commit');
  return out;
}

/** The edit that takes loopgates out of package.json, in the words of the repository's package manager. */
function packageJsonAdvice(pm: PackageManager): string {
  const until = pm.runsPrepare ? ` (until then, \`${pm.install}\` runs prepare and puts the hook back in every clone, this one included)` : '';
  return `remove the loopgates part of scripts.prepare and run \`${pm.remove('loopgates')}\`${until}`;
}

/** `word` as one POSIX shell word: as is when it is plain, else single-quoted. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The run history survives uninstall without becoming an untracked file: the in-tree ledger (.loopgates/ledger.jsonl)
 * was ignored through install's .loopgates/.gitignore; once git no longer ignores it (`git check-ignore`), it moves to
 * where core/ledger.ts ledgerPath puts a ledger then, `<git-common-dir>/loopgates/ledger.jsonl` (after any lines
 * already there, within the ledger's bound), and the emptied .loopgates/ goes. A ledger still ignored (the team's own
 * .gitignore, or an edited .loopgates/.gitignore left in place) stays where it is.
 */
async function keepLedgerIgnored(layout: RepoLayout, ctx: Ctx, advisedRemoval: readonly string[]): Promise<void> {
  const inTree = join(layout.top, LEDGER_IN_TREE);
  const inGit = join(layout.commonDir, 'loopgates', 'ledger.jsonl');
  const rel = (p: string) => relative(layout.top, p) || p;
  if (existsSync(inTree)) {
    const source = await ignoredBy(layout.top, LEDGER_IN_TREE, ctx.env);
    if (source !== null && !advisedRemoval.includes(source)) ctx.out(`kept ${LEDGER_IN_TREE} (run history, still ignored by git; delete it if you want no trace)`);
    else {
      moveLedger(inTree, inGit);
      try {
        rmdirSync(dirname(inTree));
      } catch {
        /* not empty: something of the user's lives in .loopgates/ */
      }
      ctx.out(
        source === null
          ? `moved ${LEDGER_IN_TREE} to ${rel(inGit)} (run history: git no longer ignores ${LEDGER_IN_TREE}; delete it if you want no trace)`
          : `moved ${LEDGER_IN_TREE} to ${rel(inGit)} (run history: once ${source} is removed as below, git no longer ignores ${LEDGER_IN_TREE}; delete it if you want no trace)`,
      );
      return;
    }
  }
  if (existsSync(inGit)) ctx.out(`kept ${rel(inGit)} (run history; delete it if you want no trace)`);
}

/**
 * The file whose rule makes git ignore `path` (repository-relative, as `git check-ignore -v` names it: the last
 * matching rule, the one that decides), or null when git does not ignore it.
 */
async function ignoredBy(top: string, path: string, env: Readonly<Record<string, string | undefined>>): Promise<string | null> {
  // -z only with --stdin: `<source> NUL <line> NUL <pattern> NUL <path> NUL`.
  const r = await git(['check-ignore', '-v', '-z', '--stdin'], { cwd: top, env, okExitCodes: [1], input: `${path}\0` });
  if (r.exitCode !== 0) return null;
  // An exclude file outside the tree (info/exclude, core.excludesFile) is named by its absolute path: never advised away.
  return splitZ(r.stdout)[0] ?? '';
}

/** Where the hook will find loopgates, or a problem. */
function cliProblems(layout: RepoLayout, mode: ResolveMode, env: Readonly<Record<string, string | undefined>>): { found: string | null; problem: Problem | null } {
  if (env.LOOPGATES_CLI) return existsSync(env.LOOPGATES_CLI) ? { found: `${env.LOOPGATES_CLI} (LOOPGATES_CLI)`, problem: null } : { found: null, problem: { what: `LOOPGATES_CLI=${env.LOOPGATES_CLI} does not exist`, fix: 'unset LOOPGATES_CLI' } };
  if (mode === 'npm') {
    const p = join(layout.top, 'node_modules', 'loopgates', 'bin', 'loopgates.js');
    return existsSync(p) ? { found: p, problem: null } : { found: null, problem: { what: 'package.json lists loopgates but node_modules/loopgates is missing: every commit is refused', fix: detectPackageManager(readPackageJson(layout.top), layout.top).install } };
  }
  const record = join(layout.commonDir, 'loopgates', 'cli-path');
  const recorded = existsSync(record) ? readFileSync(record, 'utf8').split('\n')[0] ?? '' : '';
  if (recorded && existsSync(recorded)) return { found: `${recorded} (recorded at install)`, problem: null };
  const onPath = which('loopgates', env);
  if (onPath) return { found: `${onPath} (PATH)`, problem: null };
  return { found: null, problem: { what: `the hook cannot find loopgates (${recorded ? `recorded ${recorded} is gone` : 'no recorded CLI'}, none on PATH): every commit is refused`, fix: 'node /path/to/loopgates/bin/loopgates.js install (records where the CLI lives; loopgates is not on the npm registry: not npx)' } };
}

function which(name: string, env: Readonly<Record<string, string | undefined>>): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, name);
    try {
      if (statSync(p).isFile() && (statSync(p).mode & 0o111) !== 0) return p;
    } catch {
      /* not here */
    }
  }
  return null;
}

async function doctor(args: readonly string[], io: CommandIO): Promise<number> {
  parseFlags(args, [], 'doctor');
  const ctx = ctxOf(io);
  const layout = await requireLayout(ctx);
  const problems: Problem[] = [];
  const ok = (line: string) => ctx.out(`ok       ${line}`);
  const check = (found: Problem[], okLine: string) => {
    if (found.length === 0) ok(okLine);
    problems.push(...found);
    for (const p of found) ctx.out(`PROBLEM  ${p.what}\n         fix: ${p.fix}`);
  };

  // git runs no hook at all with an empty core.hooksPath, and its path answers (every later check) refuse it.
  const empty = emptyHooksPathScope(layout);
  if (empty !== null) {
    check([{ what: messages.emptyHooksPath(empty), fix: messages.emptyHooksPathFix(empty) }], '');
    ctx.out('1 problem (the other checks need git to answer for its hooks dir: run loopgates doctor again after the fix)');
    return ExitCode.broken;
  }
  const unfinished = pendingProblem(layout.commonDir);
  // No journal says only that nothing is unfinished; the install record says an install completed, and whether its
  // proof ran (a skipped proof is said, not counted as a problem: --no-proof is the way with the secrets gate off).
  if (unfinished) check([unfinished], '');
  else if (!existsSync(statePath(layout.commonDir))) ok('no unfinished install (none recorded in this repository)');
  else {
    let proof: ProofStatus | null = null;
    try {
      proof = loadState(layout).proof;
    } catch {
      /* an unreadable record: whether the proof ran is not known */
    }
    if (proof === 'passed') ok('install completed its proof');
    else ctx.out(`info     ${messages.proofSkipped(proof)}`);
  }
  const managers = detectManagers(layout);
  const plan = planPlacement(layout, managers);
  // No install record and git would not run the hook: not installed in this clone (never, or uninstalled; the team's
  // tracked files may still be here). Said as that, not as a broken install's parts; and what would refuse every
  // commit is said as what the hook would do once installed.
  const placed = plan.ok ? verifyPlacements(plan.placements, layout, managers, ctx.env) : [];
  const installedHere = !plan.ok || placed.length === 0 || existsSync(statePath(layout.commonDir));
  const once = (p: Problem): Problem => (installedHere ? p : { ...p, what: p.what.replace(/: every commit is refused$/, ': once installed, the hook would refuse every commit') });
  check(storedHookProblems(layout.top, await headHas(layout.top, ctx.env, STORED_HOOK)).map(once), `${STORED_HOOK} present, current, LF`);
  const found = describeManagers(layout, managers);
  ctx.out(`info     hooks dir: ${layout.hooksDir}${found.length ? `; found: ${found.join(', ')}` : ''}`);
  if (!plan.ok) check([{ what: plan.message, fix: plan.fix.split('\n')[0] ?? plan.fix }], '');
  if (plan.ok) {
    if (installedHere) check([...placed, ...exitHints(plan.placements, layout)], `git will run the hook: ${describePlacements(plan.placements, (p) => relative(layout.top, p) || p)}`);
    else {
      const team = [STORED_HOOK, CONFIG_FILE].filter((f) => existsSync(join(layout.top, f)));
      check([{ what: messages.notInstalledHere(team), fix: 'loopgates install' }], '');
    }
  }
  if (!existsSync(join(layout.top, '.gitattributes')) || !readFileSync(join(layout.top, '.gitattributes'), 'utf8').includes(ATTRIBUTES_RULE)) {
    check([{ what: `.gitattributes lacks "${ATTRIBUTES_RULE}": a core.autocrlf checkout can break the hook`, fix: 'loopgates install' }], '');
  } else ok(`.gitattributes keeps the hook LF`);

  const major = Number(process.versions.node.split('.')[0]);
  check(major >= 20 ? [] : [{ what: `node ${process.versions.node} is older than 20`, fix: 'install Node.js 20 or newer' }], `node ${process.versions.node}`);
  const stored = join(layout.top, STORED_HOOK);
  const mode: ResolveMode = (existsSync(stored) ? storedHookMode(readFileSync(stored, 'utf8')) : null) ?? resolveMode(layout);
  const cli = cliProblems(layout, mode, ctx.env);
  check(cli.problem ? [once(cli.problem)] : [], `loopgates for the hook: ${cli.found ?? ''}`);
  const scanner = await scannerProblems(ctx.env, io.signal);
  check(scanner.problems, `gitleaks: ${scanner.found}`);
  check(await configProblems(layout.top, ctx.env), 'loopgates.yaml valid');
  const inputs = await inputProblems(layout.top, ctx.env, ctx.out);
  if (inputs) check(inputs.problems, inputs.okLine);
  const allowlist = await allowlistProblems(layout.top, ctx.env, ctx.out);
  if (allowlist) check(allowlist, '.gitleaks.toml [allowlist] paths stay inside the folders they name and leave files to scan');
  const cache = join(layout.commonDir, 'loopgates', 'cache');
  check(cacheProblems(cache), `cache: ${cache}`);
  ctx.out(problems.length === 0 ? 'healthy' : `${problems.length} problem${problems.length === 1 ? '' : 's'}`);
  return problems.length === 0 ? ExitCode.ok : ExitCode.broken;
}

/**
 * Whether runs can use the cache directory `cacheRoot` (core/runner.ts prepareCacheDirs refuses a run that cannot):
 * it, or the nearest folder above it that exists, must be a writable directory. Reads only (access(2), stat(2)).
 */
function cacheProblems(cacheRoot: string): Problem[] {
  for (let dir = cacheRoot; ; dir = dirname(dir)) {
    try {
      if (!statSync(dir).isDirectory()) return [{ what: messages.cacheUnusable(cacheRoot, `${dir} is a file, not a directory`), fix: messages.cacheUnusableFix(dir) }];
      accessSync(dir, constants.W_OK);
      return [];
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && dirname(dir) !== dir) continue;
      return [{ what: messages.cacheUnusable(cacheRoot, e instanceof Error ? e.message : String(e)), fix: messages.cacheUnusableFix(cacheRoot) }];
    }
  }
}

function describeManagers(layout: RepoLayout, m: Managers): string[] {
  const out: string[] = [];
  if (m.husky) out.push(`husky ${m.husky.version} (${m.husky.active ? 'active' : 'not active'})`);
  if (m.lefthook) out.push(`lefthook (${m.lefthook})`);
  if (m.preCommit) out.push('pre-commit (.pre-commit-config.yaml)');
  if (m.simpleGitHooks) out.push(`simple-git-hooks (${m.simpleGitHooks})`);
  if (m.hook.kind === 'foreign') out.push(`a foreign ${m.hook.generator ?? ''} hook in ${layout.hooksDir}`.replace('  ', ' '));
  for (const scope of ['local', 'global', 'system'] as const) if (layout.hooksPath[scope] !== null) out.push(`core.hooksPath=${layout.hooksPath[scope]} (${scope})`);
  return out;
}

/**
 * gitleaks found (LOOPGATES_GITLEAKS or PATH) and offering what the secrets gate runs, through the gate's own
 * resolver and help-output probe (gates/secrets/gitleaks.ts). The probe cache goes to a temp dir: doctor writes
 * nothing into the repository.
 */
async function scannerProblems(env: Readonly<Record<string, string | undefined>>, signal: AbortSignal): Promise<{ problems: Problem[]; found: string }> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'loopgates-doctor-'));
  try {
    const bin = resolveGitleaks(env);
    const probe = await probeGitleaks({ bin, runTool, signal, timeoutMs: 30_000, cacheDir });
    return { problems: [], found: `${bin.path} (${bin.from}; staged scan: ${probe.staged === 'protect' ? 'protect --staged' : 'git --pre-commit --staged'})` };
  } catch (err) {
    if (err instanceof LoopgatesError) return { problems: [{ what: err.message, fix: err.fix }], found: '' };
    throw err;
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

/**
 * The staged .gitleaks.toml's [allowlist] paths over the tracked files (gates/secrets/allowlist.ts): an info line per
 * entry with the files it exempts, a problem per entry that exempts files outside the folder it names. Null when
 * the index has no .gitleaks.toml. Throws GitError.
 */
async function allowlistProblems(top: string, env: Readonly<Record<string, string | undefined>>, out: (line: string) => void): Promise<Problem[] | null> {
  const entries = await lsIndex(top, env);
  if (!entries.some((e) => e.path === '.gitleaks.toml')) return null;
  const tracked = entries.map((e) => e.path);
  const read = async (path: string) => (tracked.includes(path) ? (await git(['show', `:${path}`], { cwd: top, env })).stdout : undefined);
  const config = (await read('.gitleaks.toml'))!;
  // The files `[extend] path` names (read from the index, as a commit's scan reads them) exempt paths as well.
  const chain = await extendChain(config, read, { refused: 'run', from: 'the index' });
  const problems: Problem[] = chain.problem ? [{ what: chain.problem.message, fix: chain.problem.fix }] : [];
  for (const [name, bytes] of [['.gitleaks.toml', config] as const, ...chain.files.map((f) => [f.path, f.bytes] as const)]) {
    const audit = allowlistAudit(bytes, tracked, name);
    for (const line of audit.info) out(`info     ${line}`);
    problems.push(...audit.problems);
  }
  return problems;
}

/** loopgates.yaml present and valid against core/config.ts's strict schema (every problem, with its line). */
/**
 * The input discovery install used (commands/install/config-default.ts), over every gate of loopgates.yaml: an
 * enabled gate without allowEmpty that finds no input here makes every `run --all` vacuous (exit 2), and a gate that
 * is off while the repository holds files it reads lets every commit to them land unchecked (fresh-user-3 F10: an
 * older install left the l10n gates off in a repository without catalogs yet); either way doctor is not healthy. An
 * off gate with no input is listed; install's allowEmpty on a gate that has inputs now is an info line (it can go).
 * Null when the config cannot be loaded (configProblems says why).
 */
async function inputProblems(top: string, env: Readonly<Record<string, string | undefined>>, out: (line: string) => void): Promise<{ problems: Problem[]; okLine: string } | null> {
  let gates: ConfiguredGate[];
  try {
    gates = loadConfig(top, await configOptions()).gates;
  } catch {
    return null;
  }
  const keyOf = (g: ConfiguredGate) => (g.source === 'command' ? `commands[id=${g.gate.id}]` : `gates.${g.gate.id}`);
  const problems: Problem[] = [];
  const off = gates.filter((x) => !x.enabled);
  // An off gate's own discovery, under its own options: what it would read if it were on. A discovery that fails
  // says nothing either way, so the gate is only listed.
  for (const d of (await repositoryInputs(top, off.map((g) => g.settings), env)).found) {
    const g = off.find((x) => x.gate === d.gate)!;
    if (d.inputs > 0 && d.error === undefined) {
      const files = `${d.inputs} file${d.inputs === 1 ? '' : 's'} it reads (${d.sample.join(', ')}${d.inputs > d.sample.length ? ', …' : ''})`;
      problems.push({ what: `${d.gate.id} is off (${keyOf(g)}.enabled: false) but this repository now holds ${files}: commits to them land unchecked`, fix: `set ${keyOf(g)}.enabled: true in loopgates.yaml, then: loopgates run --all --gate ${d.gate.id}` });
    } else out(`info     off: ${d.gate.id} (${keyOf(g)}.enabled: false)${d.error === undefined ? '; it would read nothing here' : ''}`);
  }
  const { found } = await repositoryInputs(top, enabledSettings(gates), env);
  const seen: string[] = [];
  for (const d of found) {
    const g = gates.find((x) => x.gate === d.gate)!;
    const key = keyOf(g);
    if (d.unselected) problems.push({ what: `${d.gate.id}: ${unselectedWhat(d)}`, fix: d.unselected.fix });
    if (d.error !== undefined) problems.push({ what: `${d.gate.id} cannot select its inputs: ${d.error}`, fix: `fix ${key} in loopgates.yaml` });
    else if (d.inputs === 0 && !g.settings.allowEmpty) problems.push({ what: `${d.gate.id} is enabled but has ${noInputWhy(d)}: loopgates run --all is vacuous (exit 2)`, fix: `set ${key}.enabled: false in loopgates.yaml (or allowEmpty: "<why zero inputs is fine>")` });
    else {
      seen.push(`${d.gate.id} ${d.inputs}${d.inputs === 0 ? ` (allowEmpty: ${g.settings.allowEmpty})` : ''}`);
      if (d.inputs > 0 && g.settings.allowEmpty === NO_INPUT_YET) out(`info     ${d.gate.id} has ${d.inputs} input${d.inputs === 1 ? '' : 's'} now: its allowEmpty from install can go (${key}.allowEmpty), so that finding none again is called vacuous`);
    }
  }
  return { problems, okLine: `inputs for every enabled gate: ${seen.join(', ') || 'no gate enabled'}` };
}

async function configProblems(top: string, env: Readonly<Record<string, string | undefined>>): Promise<Problem[]> {
  if (!existsSync(join(top, CONFIG_FILE))) return [{ what: `${CONFIG_FILE} is missing (the hook runs every built-in gate with its defaults)`, fix: 'loopgates install' }];
  try {
    const config = loadConfig(top, await configOptions());
    // Valid, and still blind: a glob that matches no tracked file (core/blind.ts).
    const tracked = (await lsIndex(top, env)).map((e) => e.path);
    return blindGlobs(config.gates, tracked).map((b) => ({ what: blindGlobMessage(b), fix: blindGlobFix(b.gate, b.key, config.gates.find((g) => g.gate.id === b.gate)!.source) }));
  } catch (err) {
    if (err instanceof LoopgatesError) return [{ what: err.message, fix: err.fix }];
    throw err;
  }
}

export const installVerb: Verb = { name: 'install', summary: 'Install the fail-closed pre-commit hook into this repository and prove it.', usage: INSTALL_USAGE, run: install };
export const uninstallVerb: Verb = { name: 'uninstall', summary: 'Remove the hook and restore, byte for byte, what was there before.', usage: UNINSTALL_USAGE, run: uninstall };
export const doctorVerb: Verb = { name: 'doctor', summary: 'Check hook placement, scanner, config, node version and other hook managers.', usage: DOCTOR_USAGE, run: doctor };
