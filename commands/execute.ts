// One run of the gates, shared by `run` and `hook`: snapshot -> config -> bypass -> preflight -> gates in parallel ->
// report -> ledger -> exit code (DESIGN.md "Flow of a commit").
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CommandIO } from '../core/command.js';
import { cliWordFor } from '../core/cli-word.js';
import { blindGlobFix, blindGlobMessage, blindGlobs } from '../core/blind.js';
import { loadConfigCached } from '../core/config-cache.js';
import { CONFIG_FILE } from '../core/config-model.js';
import type { ConfiguredGate, LoadedConfig } from '../core/config-model.js';
import { GitError, LoopgatesError } from '../core/errors.js';
import { blobId, findTopLevel, gitEnv, isInsideGitDir } from '../core/git.js';
import { appendLedger, cacheRoot as cacheRootFor, entriesFor, ledgerPath, type LedgerEntry } from '../core/ledger.js';
import { messages } from '../core/messages.js';
import { exitCodeFor, formatReport } from '../core/report.js';
import type { ReportFormat } from '../core/report.js';
import { parseSkip, prepareCacheDirs, runGates } from '../core/runner.js';
import { headSideOf } from '../core/head-side.js';
import { indexWorkspace, treeWorkspace } from '../core/snapshot.js';
import type { GitWorkspace } from '../core/snapshot.js';
import type { Gate, GateResult, Mode, StagedPolicy } from '../core/types.js';
import { packageVersion } from '../core/version.js';
import { gateRegistry } from '../gates/registry.js';

/** What the verbs depend on; tests pass toy gates here instead of the built-in registry. */
export interface VerbDeps {
  gates?: ReadonlyArray<Gate<any>>;
}

/** What a preflight step (e.g. the cached self-test before a pre-commit) sees. */
export interface PreflightContext {
  io: CommandIO;
  config: LoadedConfig;
  ws: GitWorkspace;
  /** The gates this run will judge with (enabled, after --gate), bypassed ones included. */
  gates: readonly ConfiguredGate[];
  /** LOOPGATES_SKIP ids (every id when `all`). */
  bypassed: ReadonlySet<string>;
  cacheRoot: string;
}

/**
 * Outcome of a preflight step. A non-zero `exitCode` refuses before any gate runs; `results` (e.g. a self-test
 * verdict per gate) are reported ahead of the gates' results, `notes` as run notes.
 */
export interface PreflightOutcome {
  exitCode: number;
  results?: GateResult[];
  notes?: string[];
  /**
   * Run the gates even though `exitCode` refuses: the refusal is about the gates' proofs or the config the commit
   * brings, not what it stages, and the commit's own findings (a staged credential, a hard-coded text) must still be
   * reported in the same round. The exit code is then the worse of both.
   */
  judgeAnyway?: boolean;
  /** What refuses the commit, for the verdict line when `exitCode` refuses (`this commit switches off secrets`). */
  refusal?: string;
  /**
   * Gate id -> note: when that gate's own run fails, its result here is withdrawn and the note printed instead (a
   * command gate whose clean case is the user's own failing content: its findings are the answer, not its proof).
   * Only read with `judgeAnyway`.
   */
  withdrawIfFails?: ReadonlyMap<string, string>;
  /** Gates whose own run over this snapshot is already among `results`: with `judgeAnyway` they are not run again. */
  judged?: ReadonlySet<string>;
  /**
   * Ledger lines the step owes the record (a gate switched off with LOOPGATES_ALLOW_DISABLE), written with the run's
   * when the run passes (exit 0): they say a switch-off was accepted, which a refused commit did not do (fresh5 F9).
   */
  ledger?: LedgerEntry[];
}

/** A step run after config and snapshot are loaded and before the gates. */
export type PreflightStep = (ctx: PreflightContext) => Promise<PreflightOutcome | void>;

/**
 * A step run on the gates' results, before the report (the hook's refusal of a commit that waives its own finding):
 * its outcome counts as a preflight step's (exit code, notes, refusal, ledger); `results` and `judgeAnyway` are not read.
 */
export type VerdictStep = (ctx: PreflightContext, results: readonly GateResult[]) => Promise<PreflightOutcome | void>;

/** One run's request. */
export interface RunRequest {
  mode: Mode;
  /** `files` mode: paths relative to io.cwd (or absolute). */
  files?: readonly string[];
  /** `--gate` ids; empty: every enabled gate. */
  gateIds?: readonly string[];
  /** `run --staged-policy`: every selected gate judged by this policy instead of loopgates.yaml's `staged:`. */
  stagedPolicy?: StagedPolicy;
  format: ReportFormat;
  preflight?: readonly PreflightStep[];
  /**
   * Run after the gates and the ledger line, when every preflight step passed (the hook's caches for the stored
   * hook: commands/hook.ts refreshSecretsFastPath). Its outcome is ignored; it must not throw.
   */
  after?: PreflightStep;
  /** Judges the gates' results once they ran (not when a preflight step stopped the run). */
  verdictSteps?: readonly VerdictStep[];
  /** Write the gates' `ctx.log` lines to stderr, as `<gate>: <line>`. */
  verbose?: boolean;
  /** The run is `loopgates hook pre-commit` inside `git commit` (an interrupted one's summary names git's exit too). */
  hook?: boolean;
}

/** Build the snapshot `mode` asks for. Throws LoopgatesError (exit 2) for staged mode outside git; GitError. */
export async function workspaceFor(io: CommandIO, mode: Mode, files?: readonly string[]): Promise<GitWorkspace> {
  if (mode === 'staged') {
    try {
      return await indexWorkspace(io.cwd, io.env);
    } catch (e) {
      // Only now pay for the question: is this outside a work tree, or did git fail in one?
      if (e instanceof GitError && (await findTopLevel(io.cwd, gitEnv(io.env, io.cwd))) === null) {
        if (await isInsideGitDir(io.cwd, gitEnv(io.env, io.cwd))) throw new LoopgatesError(messages.insideGitDir(resolve(io.cwd)), messages.insideGitDirFix);
        throw new LoopgatesError(messages.outsideGitStaged, messages.outsideGitStagedFix);
      }
      throw e;
    }
  }
  return treeWorkspace(io.cwd, mode, files, io.env);
}

/**
 * Run the gates once and report. Returns the exit code: 0 all pass/skip, 1 a gate failed, 2 an error or vacuous
 * verdict, no gate to run, or a preflight refusal (2 wins over 1). Throws ConfigError / LoopgatesError (exit 2) for
 * a broken config, an unknown --gate id, a snapshot git cannot give, or a cache directory that cannot be created
 * (core/runner.ts prepareCacheDirs); cli.ts prints them with their fix.
 */
export async function executeRun(req: RunRequest, io: CommandIO, deps: VerbDeps = {}): Promise<number> {
  const ws = await workspaceFor(io, req.mode, req.files);
  const facts = ws.facts;
  const cacheRoot = cacheRootFor(ws.root, facts);
  const config = await loadConfigCached(ws.root, deps.gates ? { registry: gateRegistry, gates: deps.gates } : { registry: gateRegistry, cacheDir: cacheRoot });
  if (ws.mode === 'staged') await refuseUnstagedConfig(ws);
  const notes: string[] = [...(ws.notes ?? [])];
  if (!config.found) notes.push(messages.noConfig(config.file));

  const known = config.gates.map((g) => g.gate.id);
  let selected: ConfiguredGate[];
  if (req.gateIds && req.gateIds.length) {
    const unknown = req.gateIds.filter((id) => !known.includes(id));
    if (unknown.length) throw new LoopgatesError(unknown.map((id) => messages.unknownGate(id, known)).join('\n'), messages.unknownGateFix);
    selected = config.gates.filter((g) => req.gateIds!.includes(g.gate.id));
    for (const g of selected) if (!g.enabled) notes.push(messages.disabledGateRun(g.gate.id));
  } else {
    selected = config.gates.filter((g) => g.enabled);
    // A disabled gate is said out loud on every run, so a config change that switches a gate off is never silent.
    for (const g of config.gates) if (!g.enabled) notes.push(messages.disabledGate(g.gate.id));
  }

  // A glob that matches no file of the snapshot blinds its gate (every commit a skip): said on every run.
  const blind = blindGlobs(selected, await ws.allPaths());
  for (const b of blind) notes.push(`WARNING ${blindGlobMessage(b)} (${messages.fix(blindGlobFix(b.gate, b.key, selected.find((g) => g.gate.id === b.gate)!.source))})`);

  const skip = parseSkip(io.env.LOOPGATES_SKIP, known);
  if (skip.unknown.length) io.stderr(`${messages.bypassUnknown(skip.unknown, known)}\n`);
  if (skip.all) io.stderr(`${messages.bypassAllWarning}\n`);
  else if (skip.ids.size) io.stderr(`${messages.bypassWarning([...skip.ids])}\n`);

  // Once for the run, before the self-tests: an unusable cache is one cause, not an error of every gate.
  prepareCacheDirs(cacheRoot, skip.all ? [] : selected.filter((g) => !skip.ids.has(g.gate.id)).map((g) => g.gate.id));

  const outcomes: PreflightOutcome[] = [];
  let stopped = false;
  for (const step of req.preflight ?? []) {
    const outcome = await step({ io, config, ws, gates: selected, bypassed: skip.ids, cacheRoot });
    if (!outcome) continue;
    outcomes.push({ ...outcome, results: [...(outcome.results ?? [])] });
    notes.push(...(outcome.notes ?? []));
    if (outcome.exitCode !== 0 && !outcome.judgeAnyway) {
      stopped = true;
      break;
    }
  }

  let results: GateResult[] = [];
  if (!stopped && !io.signal.aborted) {
    // A commit is judged by what it introduces (loopgates.yaml `staged:`): HEAD's side is built only for a gate with findings.
    const head = ws.mode === 'staged' ? headSideOf(ws, cacheRoot) : undefined;
    const judged = new Set(outcomes.flatMap((o) => [...(o.judged ?? [])]));
    results = await runGates(
      selected.filter((g) => !judged.has(g.gate.id)).map((g) => (req.stagedPolicy ? { ...g.settings, staged: req.stagedPolicy } : g.settings)),
      { ws, cacheRoot, signal: io.signal, bypass: skip.all ? 'all' : skip.ids, ...(head ? { head } : {}), ...(req.verbose ? { log: (gate: string, line: string) => io.stderr(`${gate}: ${line}\n`) } : {}) },
    );
  }
  for (const o of outcomes) {
    if (!o.withdrawIfFails) continue;
    for (const [gate, note] of o.withdrawIfFails) {
      if (!results.some((r) => r.gate === gate && r.verdict === 'fail')) continue;
      o.results = o.results!.filter((r) => r.gate !== gate);
      notes.push(note);
    }
    // Every refusal of the step withdrawn: the gates' own verdicts decide.
    if (o.results!.length === 0 && o.judgeAnyway) o.exitCode = 0;
  }
  if (!stopped && !io.signal.aborted) {
    for (const step of req.verdictSteps ?? []) {
      const outcome = await step({ io, config, ws, gates: selected, bypassed: skip.ids, cacheRoot }, results);
      if (!outcome) continue;
      outcomes.push({ exitCode: outcome.exitCode, results: [], ...(outcome.notes ? { notes: outcome.notes } : {}), ...(outcome.refusal ? { refusal: outcome.refusal } : {}), ...(outcome.ledger ? { ledger: outcome.ledger } : {}) });
      notes.push(...(outcome.notes ?? []));
    }
  }
  const preResults = outcomes.flatMap((o) => o.results ?? []);
  const preExit = Math.max(0, ...outcomes.map((o) => o.exitCode));
  if (selected.length === 0) notes.push(`${messages.noGates} (${messages.fix(messages.noGatesFix)})`);
  let exitCode =
    preExit !== 0 ? Math.max(preExit, preResults.length ? exitCodeFor(preResults) : 0, results.length ? exitCodeFor(results) : 0) : exitCodeFor(results);
  let interrupted: { signal: string; hook: boolean } | undefined;
  if (io.signal.aborted) {
    const why = io.signal.reason instanceof Error ? io.signal.reason.message : String(io.signal.reason ?? 'aborted');
    notes.push(messages.interruptedRun(why));
    exitCode = Math.max(exitCode, 2);
    interrupted = { signal: why, hook: req.hook === true };
  } else if (ws.mode === 'files' && preExit === 0 && results.length > 0 && results.every((r) => r.counts.files === 0)) {
    notes.push(`${messages.filesNothingRead} (${messages.fix(messages.filesNothingReadFix)})`);
    exitCode = 2;
  }
  const targets = (await ws.targets()).length;
  const refusals = outcomes.flatMap((o) => (o.exitCode !== 0 && o.refusal ? [o.refusal] : []));
  io.stdout(formatReport({ version: packageVersion(), mode: ws.mode, root: ws.root, targets, results: [...preResults, ...results], exitCode, notes, ...(interrupted ? { interrupted } : {}), ...(req.stagedPolicy ? { uncapped: true } : {}), ...(refusals.length ? { refusals } : {}) }, req.format, { color: io.isTTY, cli: cliWordFor(io.cwd, io.env) }));

  try {
    const repoEnv = ws.backing.kind === 'index' ? ws.backing.env : gitEnv(io.env, io.cwd, ws.root);
    appendLedger(await ledgerPath(ws.root, facts, repoEnv, ws.tracks), [...(exitCode === 0 ? outcomes.flatMap((o) => o.ledger ?? []) : []), ...entriesFor(results, ws.mode)]);
  } catch (e) {
    io.stderr(`${messages.ledgerFailed(e instanceof Error ? e.message : String(e))}\n`);
  }
  if (req.after && preExit === 0 && !io.signal.aborted) {
    try {
      await req.after({ io, config, ws, gates: selected, bypassed: skip.ids, cacheRoot });
    } catch {
      /* a cache for the next commit: never this commit's verdict */
    }
  }
  return exitCode;
}

/**
 * The hook judges the staged snapshot, so it must be judged by the staged loopgates.yaml: a working-tree edit that
 * is not staged (or an untracked file) could otherwise switch a gate off for a commit that does not contain it.
 * Throws LoopgatesError (exit 2) when the index holds a loopgates.yaml and the working tree's differs or is gone.
 */
async function refuseUnstagedConfig(ws: GitWorkspace): Promise<void> {
  const inTree = (() => {
    try {
      return readFileSync(join(ws.root, CONFIG_FILE));
    } catch {
      return null;
    }
  })();
  // Not in the index (never committed, as right after `install`): the working-tree file is the team's only config;
  // a gate it disables is still named on every run (messages.disabledGate).
  const staged = ws.indexOid ? await ws.indexOid(CONFIG_FILE) : undefined;
  if (ws.indexOid ? staged === undefined : !(await ws.has(CONFIG_FILE))) return;
  if (inTree !== null) {
    // Compared by blob id when git's hash is known, so the staged bytes are never read (one git process fewer).
    // core.autocrlf checks out CRLF where the index holds LF: line endings do not change what the YAML says.
    const forms = inTree.includes(13) ? [inTree, Buffer.from(inTree.toString('utf8').replace(/\r\n/g, '\n'), 'utf8')] : [inTree];
    const format = ws.facts?.objectFormat;
    if (staged !== undefined && format !== undefined) {
      if (forms.some((b) => blobId(b, format) === staged)) return;
    } else {
      const inIndex = await ws.read(CONFIG_FILE);
      if (forms.some((b) => b.equals(inIndex))) return;
    }
  }
  throw new LoopgatesError(messages.configNotStaged(CONFIG_FILE), messages.configNotStagedFix(CONFIG_FILE));
}
