// `loopgates hook <git-hook-name>`: what the stored hook scripts call. pre-commit judges the staged snapshot.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Verb } from '../core/command.js';
import { CONFIG_FILE } from '../core/config-model.js';
import { builtinGates, configOptions } from '../gates/registry.js';
import { CONFIG_FILE as GITLEAKS_CONFIG, GATE_ID as SECRETS_ID } from '../gates/secrets/index.js';
import { REPO_ENV_KEYS, type RepoFacts } from '../core/git.js';
import type { ConfiguredGate } from '../core/config-model.js';
import type { Narrowing } from './hook-narrowing.js';
import { HOOK_PLAN_FILE, hookPlanHeader, hookPlanText, keepConfigCopy, keepHookClock, storeHookPlan } from '../core/hook-plan.js';
import { LEDGER_IN_TREE, ledgerPath } from '../core/ledger.js';
import { packageVersion } from '../core/version.js';
import { LOOPGATES_GITIGNORE } from './install/render.js';
import { LoopgatesError } from '../core/errors.js';
import { messages, usage } from '../core/messages.js';
import { formatOf, parseVerbArgs } from './args.js';
import { selfTestPreflight } from './selftest.js';
import { pendingProblem } from './install/pending.js';
import { runGate } from '../core/runner.js';
import { executeRun } from './execute.js';
import type { PreflightStep, VerbDeps, VerdictStep } from './execute.js';

/** classifyCase's words (mutations/outcomes.ts) for a case whose gate returned `error`, and the runner's timeout. */
const COULD_NOT_RUN = ' error: the gate could not run: ';
const TIMED_OUT = /did not finish within \d+ ms/;

/**
 * `step` (the self-test step), with a gate whose self-test refused because its cases could not run judged once as
 * the commit's own gate: when that run is an `error` whose message is the one every failing case gave (a missing
 * gitleaks, say), its result replaces the self-test's, so the cause is said once with its fix, as `loopgates run`
 * says it, instead of once per case. The commit is refused either way (exit 2). Other refusals (a red case missed,
 * a case that timed out: re-running would cost the bound again) are left as they are. A gate judged here is not run
 * again by the gates step (`judged`).
 */
export function sayToolErrorsOnce(step: PreflightStep): PreflightStep {
  return async (ctx) => {
    const outcome = await step(ctx);
    if (!outcome || outcome.exitCode === 0 || !outcome.results?.length) return outcome;
    const results = [];
    const judged = new Set<string>();
    for (const r of outcome.results) {
      const g = ctx.gates.find((x) => x.gate.id === r.gate);
      const said = r.error?.message ?? '';
      if (!g || r.verdict !== 'error' || !said.includes(COULD_NOT_RUN) || TIMED_OUT.test(said) || ctx.io.signal.aborted) {
        results.push(r);
        continue;
      }
      const own = await runGate(g.settings, { ws: ctx.ws, cacheRoot: ctx.cacheRoot, signal: ctx.io.signal });
      const cause = own.error?.message;
      const same = own.verdict === 'error' && cause !== undefined && said.split('; ').every((c) => !c.includes(COULD_NOT_RUN) || c.endsWith(`${COULD_NOT_RUN}${cause}`));
      results.push(same ? own : r);
      if (same) judged.add(r.gate);
    }
    return { ...outcome, results, judged };
  };
}

/**
 * Refuses the commit (LoopgatesError, exit 2) while `loopgates install` has not completed its proof in this repository:
 * its journal (commands/install/pending.ts) is there, because it is still running or was killed before it could roll
 * back, so the hook git runs may be half placed and was never shown to refuse a credential. The fix is
 * `loopgates install` (it undoes the unfinished run first). One file read per commit.
 */
export const refuseUnprovenInstall: PreflightStep = async (ctx) => {
  const commonDir = ctx.ws.facts?.commonDir;
  const problem = commonDir ? pendingProblem(commonDir) : null;
  if (problem) throw new LoopgatesError(`${problem.what}: commit refused`, problem.fix);
};

/**
 * Refuses (exit 1) a commit whose staged loopgates.yaml switches off a gate HEAD's loopgates.yaml had enabled: such a
 * commit is judged by the config it brings, so one commit could turn the secrets gate off and add a token. The other
 * steps and the gates left on still run (judgeAnyway), and the verdict line names the switch-off (`refusal`). Allowed,
 * loudly, when LOOPGATES_ALLOW_DISABLE names the gates (comma-separated, or `all`). A HEAD config that no longer parses
 * counts as enabling every gate (the doubt refuses). The same for a gate kept on but narrowed: by loopgates.yaml
 * (hook-narrowing.ts: for a built-in gate whose settings change, judged against the tracked tree), or, for secrets,
 * by a staged or deleted .gitleaks.toml that reports less than HEAD's
 * (gates/secrets/narrowing.ts; one that does not parse refuses, exit 2), whether or not a credential is staged now:
 * committed alone, it would wave through the next commit's. No-op when the commit changes neither file.
 */
export const refuseQuietDisable: PreflightStep = async (ctx) => {
  const before = await ctx.ws.before?.(CONFIG_FILE);
  const off: string[] = [];
  const narrowed: Narrowing[] = [];
  let headEnabled = new Set(ctx.config.gates.filter((g) => g.enabled).map((g) => g.gate.id));
  if (before !== undefined) {
    // core/config.ts (yaml, the zod schemas) loads only for a commit that changes loopgates.yaml.
    const { parseConfig } = await import('../core/config.js');
    let head: ConfiguredGate[] = [];
    try {
      head = parseConfig(before.toString('utf8'), CONFIG_FILE, await configOptions());
      headEnabled = new Set(head.filter((g) => g.enabled).map((g) => g.gate.id));
    } catch {
      headEnabled = new Set(ctx.config.gates.map((g) => g.gate.id));
    }
    off.push(...ctx.config.gates.filter((g) => !g.enabled && headEnabled.has(g.gate.id)).map((g) => g.gate.id));
    const staged = new Set(ctx.config.gates.map((g) => g.gate.id));
    for (const id of headEnabled) if (!staged.has(id)) off.push(id);
    // Kept on, but told to read none of what it read, or to let its own red case through: the same change, by other keys.
    const { narrowedGates } = await import('./hook-narrowing.js');
    // A gate whose settings changed is judged against the tracked tree (seconds on a large app): said before it starts.
    narrowed.push(...(await narrowedGates(ctx.ws, head, ctx.config.gates, ctx.cacheRoot, ctx.io.signal, (line) => ctx.io.stderr(`${line}\n`))));
  }
  // The scanner's own config, for secrets on under both loopgates.yaml files (gitleaks.ts, smol-toml load only then).
  const changes = async (p: string) => (await ctx.ws.targets()).includes(p) || (await ctx.ws.deletions?.())?.includes(p) === true;
  // A .gitleaks.toml the commit leaves as it is may extend a file (`[extend] path`) the commit changes.
  if (headEnabled.has(SECRETS_ID) && ctx.config.gates.some((g) => g.gate.id === SECRETS_ID && g.enabled) && ((await changes(GITLEAKS_CONFIG)) || (await ctx.ws.has(GITLEAKS_CONFIG)))) {
    const { scannerConfigNarrowing } = await import('../gates/secrets/narrowing.js');
    const found = await scannerConfigNarrowing(ctx.ws);
    if (found) narrowed.push({ gate: SECRETS_ID, what: found.what, by: found.by });
  }
  const ids = [...new Set([...off, ...narrowed.map((n) => n.gate)])];
  if (!ids.length) return;
  const allow = new Set((ctx.io.env.LOOPGATES_ALLOW_DISABLE ?? '').split(',').map((x) => x.trim()).filter(Boolean));
  const said = [...(off.length ? [off] : []), ...narrowed.map((n) => n)];
  const words = (ack: boolean) =>
    said.map((s) =>
      Array.isArray(s)
        ? ack
          ? messages.quietDisableAllowed(s)
          : messages.quietDisable(s)
        : s.by
          ? ack
            ? messages.configNarrowAllowed(s.gate, s.what)
            : messages.configNarrow(s.gate, s.what)
          : ack
            ? messages.quietNarrowAllowed(s.gate, s.what)
            : messages.quietNarrow(s.gate, s.what),
    );
  if (allow.has('all') || ids.every((id) => allow.has(id))) {
    const ts = new Date().toISOString();
    // On the record, as a LOOPGATES_SKIP bypass is: which gate this commit switched off, and by what word.
    const ledger = ids.map((gate) => ({ ts, kind: 'disable' as const, gate, verdict: off.includes(gate) ? 'disabled' : 'narrowed', mode: 'staged' as const, acknowledgedBy: 'LOOPGATES_ALLOW_DISABLE' }));
    return { exitCode: 0, notes: words(true), ledger };
  }
  const notes = words(false);
  const byFiles = [...new Set(narrowed.flatMap((n) => (n.by === undefined ? [] : typeof n.by === 'string' ? [n.by] : n.by)))];
  notes[notes.length - 1] += ` (${messages.fix(messages.quietDisableFix(ids, off, narrowed.some((n) => !n.by), byFiles))})`;
  // The gates left on still judge what the commit stages (under the config it brings), so every problem of the
  // commit is said in one round; the verdict line names the switch-off as what refused.
  return { exitCode: 1, notes, judgeAnyway: true, refusal: messages.quietRefusal(off, [...new Set(narrowed.map((n) => n.gate))]) };
};

/**
 * Refuses (exit 1) a commit in which a gate reports nothing only because an exemption the same commit stages waves
 * its finding through (GateResult.waived: a .gitleaksignore entry written with the credential's line, a gitleaks:allow
 * comment on it; fresh F11): refuseQuietDisable's narrowing, by a file other than loopgates.yaml. Allowed, loudly and
 * on the record, when LOOPGATES_ALLOW_DISABLE names the gate (or `all`); an exemption HEAD already holds asks nothing.
 */
export const refuseOwnWaivers: VerdictStep = async (ctx, results) => {
  const waiving = results.filter((r) => r.waived?.length);
  if (!waiving.length) return;
  const what = (w: readonly string[]) => `${w.length} finding${w.length === 1 ? '' : 's'} of its own (${w.slice(0, 3).join('; ')}${w.length > 3 ? '; …' : ''})`;
  const allow = new Set((ctx.io.env.LOOPGATES_ALLOW_DISABLE ?? '').split(',').map((x) => x.trim()).filter(Boolean));
  const ids = waiving.map((r) => r.gate);
  if (allow.has('all') || ids.every((id) => allow.has(id))) {
    const ts = new Date().toISOString();
    return {
      exitCode: 0,
      notes: waiving.map((r) => messages.ownWaiverAllowed(r.gate, what(r.waived!))),
      ledger: ids.map((gate) => ({ ts, kind: 'disable' as const, gate, verdict: 'narrowed', mode: 'staged' as const, acknowledgedBy: 'LOOPGATES_ALLOW_DISABLE' })),
    };
  }
  const notes = waiving.map((r) => `${messages.ownWaiver(r.gate, what(r.waived!))} (${messages.fix(messages.ownWaiverFix(r.gate))})`);
  return { exitCode: 1, notes, refusal: messages.quietRefusal([], ids) };
};

/**
 * Keeps the hook plan (core/hook-plan.ts) in step with the staged loopgates.yaml, for the stored hook that ran this
 * CLI (LOOPGATES_HOOK_CLI): rewritten when the plan's header (format, version, CLI, config blob id) differs, so a
 * steady commit pays one small file read. No plan (node judges every commit) when the config is not in the index,
 * before the first commit, with a repository-selecting GIT_* variable set, or when the ledger's place cannot be
 * vouched for by the shell (in the tree but `.loopgates/.gitignore` is not install's).
 */
export const refreshHookPlan: PreflightStep = async (ctx) => {
  const { env } = ctx.io;
  const cli = env.LOOPGATES_HOOK_CLI;
  const facts = ctx.ws.facts;
  if (!cli || !facts || !ctx.ws.indexOid) return;
  if (!facts.hasHead || REPO_ENV_KEYS.some((k) => k !== 'GIT_INDEX_FILE' && env[k])) return storeHookPlan(ctx.cacheRoot, null);
  const configOid = await ctx.ws.indexOid(CONFIG_FILE);
  if (!configOid) return storeHookPlan(ctx.cacheRoot, null);
  await writeHookPlan({ facts, gitEnv: ctx.ws.backing.kind === 'index' ? ctx.ws.backing.env : {}, cacheRoot: ctx.cacheRoot, cli, configOid, gates: ctx.config.gates });
};

/** What a hook plan is compiled from (writeHookPlan). */
export interface HookPlanSource {
  facts: RepoFacts;
  /** The repository-selecting GIT_* variables for git children (core/git.ts gitEnv). */
  gitEnv: Readonly<Record<string, string>>;
  cacheRoot: string;
  /** The CLI the stored hook runs (what it hands over as LOOPGATES_HOOK_CLI). */
  cli: string;
  /** Blob id of the loopgates.yaml `gates` were loaded from. */
  configOid: string;
  gates: readonly ConfiguredGate[];
}

/**
 * Writes the plan for `src` (kept as it is when its header already says this version, CLI and config), or removes
 * it when the shell could not vouch for the ledger's place. Used by the hook's preflight and at the end of install.
 */
export async function writeHookPlan(src: HookPlanSource): Promise<void> {
  const { facts, cacheRoot, cli, configOid } = src;
  const header = hookPlanHeader(packageVersion(), cli, configOid);
  let current = '';
  try {
    current = readFileSync(join(cacheRoot, HOOK_PLAN_FILE), 'utf8');
  } catch {
    /* none yet */
  }
  keepConfigCopy(cacheRoot, facts.topLevel, configOid, facts.objectFormat);
  keepHookClock(cacheRoot);
  if (current.startsWith(header) && current.endsWith('\nloopgates_p_end=1\n')) return;
  const drop = () => storeHookPlan(cacheRoot, null);
  let ledger: string;
  try {
    ledger = await ledgerPath(facts.topLevel, facts, src.gitEnv);
  } catch {
    // git could not say where the ledger goes: no plan; the run itself reports the ledger problem.
    return drop();
  }
  let ignoreLines: string[] | null = null;
  if (ledger === join(facts.topLevel, LEDGER_IN_TREE)) {
    let ignore: string | null = null;
    try {
      ignore = readFileSync(join(facts.topLevel, '.loopgates', '.gitignore'), 'utf8');
    } catch {
      /* ignored some other way: the shell cannot vouch for it */
    }
    if (ignore !== LOOPGATES_GITIGNORE) return drop();
    ignoreLines = LOOPGATES_GITIGNORE.replace(/\n$/, '').split('\n');
  }
  storeHookPlan(cacheRoot, hookPlanText({ version: packageVersion(), cli, configOid, ledger, ignoreLines, gates: src.gates, shellGate: SECRETS_ID }));
}

/**
 * Keeps the secrets gate's node-free pass (gates/secrets/fast.ts) in step, after a run whose self-tests passed (so
 * the gate's caches hold what this commit's scan proved: canary, paths it learned): its files are
 * written only when the hook plan is current for this CLI and config, the secrets gate is on and not bypassed, every
 * enabled gate is built in (a command gate's self-test key reads files the shell cannot check), and the gate's own
 * caches prove the plain case (probe, staged canary, known paths); else they are removed.
 */
export const refreshSecretsFastPath: PreflightStep = async (ctx) => {
  const { env } = ctx.io;
  const cli = env.LOOPGATES_HOOK_CLI;
  const facts = ctx.ws.facts;
  if (!cli || !facts || !ctx.ws.indexOid) return;
  const builtin = new Set(builtinGates.map((g) => g.id));
  const secrets = ctx.gates.find((g) => g.gate.id === SECRETS_ID);
  const configOid = await ctx.ws.indexOid(CONFIG_FILE);
  const plan = (() => {
    try {
      return readFileSync(join(ctx.cacheRoot, HOOK_PLAN_FILE), 'utf8');
    } catch {
      return '';
    }
  })();
  const header = hookPlanHeader(packageVersion(), cli, configOid ?? '');
  const plain =
    secrets !== undefined &&
    configOid !== undefined &&
    plan.startsWith(header) &&
    !env.LOOPGATES_SKIP &&
    ctx.bypassed.size === 0 &&
    ctx.gates.every((g) => builtin.has(g.gate.id));
  const ignoreOid = (await ctx.ws.indexOid('.gitleaksignore')) ?? null;
  // Loaded only here: gitleaks.ts brings zod, which a commit that runs no secrets scan need not load.
  const { refreshSecretsFast } = await import('../gates/secrets/fast.js');
  refreshSecretsFast({
    version: packageVersion(),
    cli,
    configOid: configOid ?? '',
    ignoreOid,
    ignore: ignoreOid ? await ctx.ws.read('.gitleaksignore') : undefined,
    // Not plain: as if the index held a config, which removes the files.
    configInIndex: !plain || (await ctx.ws.indexOid('.gitleaks.toml')) !== undefined,
    topLevel: facts.topLevel,
    cacheDir: join(ctx.cacheRoot, SECRETS_ID),
    cacheRoot: ctx.cacheRoot,
    env,
  });
};

/**
 * Steps run by `hook pre-commit` after config and snapshot load, before the gates; a non-zero exit code refuses the
 * commit. An install that never completed its proof refuses first (refuseUnprovenInstall); the hook plan is brought
 * in step with the config (refreshHookPlan); then the cached self-test
 * (DESIGN.md "self-tests: cached ...; red -> refuse") runs, its cases that could not run reported once
 * (sayToolErrorsOnce).
 */
export const preflight: PreflightStep[] = [refuseUnprovenInstall, refuseQuietDisable, refreshHookPlan, sayToolErrorsOnce(selfTestPreflight)];

/** The git hooks loopgates handles; any other name exits 2 so a misinstalled hook refuses instead of passing. */
export const HANDLED_HOOKS = ['pre-commit'] as const;

/** The `hook` verb over `deps`; `steps` defaults to the exported `preflight` list (read at call time). */
export function makeHookVerb(deps: VerbDeps = {}, steps?: readonly PreflightStep[]): Verb {
  return {
    name: 'hook',
    summary: 'Entry point for the git hook scripts: loopgates hook pre-commit.',
    usage: usage.hook,
    async run(args, io) {
      const { values, positionals } = parseVerbArgs('hook', args, { format: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, true);
      if (values.help) {
        io.stdout(usage.hook);
        return 0;
      }
      const [name, ...rest] = positionals;
      if (name === undefined) throw new LoopgatesError(messages.hookMissingName, messages.unknownHookFix);
      if (!(HANDLED_HOOKS as readonly string[]).includes(name)) throw new LoopgatesError(messages.unknownHook(name, HANDLED_HOOKS), messages.unknownHookFix);
      // Git passes no arguments to pre-commit; extra ones mean a hook script loopgates did not write.
      if (rest.length) throw new LoopgatesError(messages.badArgs(`unexpected arguments after ${name}: ${rest.join(' ')}`, 'hook'), messages.unknownHookFix);
      return executeRun({ mode: 'staged', gateIds: [], format: formatOf(values.format), preflight: steps ?? preflight, verdictSteps: [refuseOwnWaivers], after: refreshSecretsFastPath, hook: true }, io, deps);
    },
  };
}
