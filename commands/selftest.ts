// The `selftest` and `mutate` verbs, and the cached self-test step the pre-commit hook runs before any gate
// (issue 4). Exit codes follow DESIGN.md: 0 proven / every mutant killed, 1 a gate did not prove itself,
// 2 loopgates, its config or a tool is broken (or a selftest run was interrupted); mutate interrupted: 130 / 143.
import { resolve } from 'node:path';
import { interruptedExitCode, type CommandIO, type Verb } from '../core/command.js';
import { parseVerbArgs } from './args.js';
import type { PreflightStep, VerbDeps } from './execute.js';
import type { ConfiguredGate, LoadedConfig } from '../core/config.js';
import { LoopgatesError } from '../core/errors.js';
import { blindGlobFix, blindGlobMessage, blindGlobs } from '../core/blind.js';
import { findTopLevel, gitEnv, lsIndex, resolveRepo } from '../core/git.js';
import { appendLedger, cacheRoot as cacheRootFor, ledgerPath, type LedgerEntry } from '../core/ledger.js';
import { messages } from '../core/messages.js';
import type { GateSettings } from '../core/runner.js';
import { treeWorkspace } from '../core/snapshot.js';
import type { Gate, GateResult } from '../core/types.js';
import { packageVersion } from '../core/version.js';
import { commandSpecOf } from '../gates/command/spec.js';
import { configOptions } from '../gates/registry.js';
import { checkSelfTestCache, storeSelfTestResults } from '../mutations/cache.js';
// mutate.ts (and through it core/tools.ts, execa) loads only in `loopgates mutate`: this module is on every commit's
// path for the cached self-test step.
import type { MutantReport } from '../mutations/mutate.js';
import { defaultSeed } from '../mutations/random.js';
import { mutateJson, mutateText, selfTestText } from '../mutations/report.js';
import { runSelfTests, type GateSelfTest } from '../mutations/selftest.js';
import { holdingSignals, withScratchDir } from '../mutations/scratch.js';

const selftestUsage = `Usage: loopgates selftest [--gate <id>]... [--format text|json]

Run every enabled gate's shipped cases, each in its own in-memory workspace, judged exactly as the hook judges:
a green case must pass having read at least one input; a red case must fail with an error finding at the
injected file and line (and rule, when the case names one). Command gates' cases are their configured
mutations applied to this repository's real files.

Case outcomes: caught · missed (red case passed) · wrong (caught at the wrong place) · clean · noisy (green case
failed) · error (crash, timeout, missing tool: never caught) · vacuous (the gate read nothing).
Gate proofs: PROVEN · UNPROVEN · DECORATION (no red case) · WAIVED (command gate, reason printed).

Options:
  --gate <id>    only this gate (repeatable); an unknown id exits 2
  --format <f>   text (default) or json
  -h, --help     this text

Without --gate, every retry signature (rules/flakes.yaml, rules/ask-human.yaml, loopgates.yaml retry:) is proven
too: it must match each of its real sample lines (else DECORATION) and no near-miss, no ordinary failure of
rules/ordinary-failures.yaml and not the empty string (else NOISY).

Passing proofs are cached under <git common dir>/loopgates/cache, so the next commit's self-test step hits.

Exit codes: 0 every gate PROVEN (or WAIVED) and every retry signature PROVEN · 1 a gate or a signature is not
PROVEN, or zero cases ran · 2 a case could not run
(crash, timeout, missing tool), an unknown --gate, or loopgates.yaml is invalid.
`;

const mutateUsage = `Usage: loopgates mutate [--gate <id>]... [--seed <n>] [--all-inputs] [--sample <n>] [--format text|json]

Audit the gates on this repository's own files: for each enabled gate, take real inputs its configuration
selects (a seeded sample), inject the gate's target defect with each of its mutation operators in an in-memory
overlay (gates that shell out get a scratch directory under the OS temp dir), run the gate exactly as the hook
would (same config, allow-lists, filters), require red with the finding at the injected spot, then green on the
same input without the mutation. The working tree and the index are never written, also on Ctrl-C.

Outcomes (Stryker's words): killed · survived (stayed green: the gate is decoration here; what swallowed it is
named when loopgates can tell, e.g. an allow-list entry) · no-coverage (the gate never read the mutated file)
· error · timeout.

Options:
  --gate <id>     only this gate (repeatable); an unknown id exits 2
  --seed <n>      seed of the sample (default ${defaultSeed}); the same seed gives the same mutants
  --all-inputs    mutate every input an operator applies to, not a sample
  --sample <n>    mutants per operator when sampling (default 3)
  --format <f>    text (default; a table per gate and operator) or json (mutation-testing-elements schema 2)
  -h, --help      this text

Exit codes: 0 every mutant killed · 1 any other outcome · 2 loopgates.yaml is invalid or an unknown --gate
· 130 / 143 interrupted by SIGINT (Ctrl-C) / SIGTERM (the scratch space is removed; the tree and index untouched).
`;

interface Selected {
  root: string;
  inGit: boolean;
  gates: ConfiguredGate[];
  /** loopgates.yaml `retry:` (its signatures are proven with the shipped ones). */
  retry: LoadedConfig['retry'];
}

/** Load loopgates.yaml from the repository containing `io.cwd` and pick the gates (`--gate` or every enabled one). */
async function select(io: CommandIO, gateIds: readonly string[], deps: VerbDeps): Promise<Selected> {
  const top = await findTopLevel(io.cwd, gitEnv(io.env, io.cwd));
  const root = top ?? resolve(io.cwd);
  // core/config.ts (YAML, zod) loads here: this module is on every commit's path, which reads the cached config.
  const { loadConfig } = await import('../core/config.js');
  const config = loadConfig(root, await configOptions(deps.gates));
  const known = config.gates.map((g) => g.gate.id);
  const unknown = gateIds.filter((id) => !known.includes(id));
  if (unknown.length) throw new LoopgatesError(unknown.map((id) => messages.unknownGate(id, known)).join('\n'), messages.unknownGateFix);
  const gates = gateIds.length ? config.gates.filter((g) => gateIds.includes(g.gate.id)) : config.gates.filter((g) => g.enabled);
  return { root, inGit: top !== null, gates: await rooted(gates, root), retry: config.retry };
}

/**
 * Command gates built by the config loader read their real files from the process cwd; rebuild them at `root`. The
 * command-gate module loads only when there is one (it is loaded already then: the config built it).
 */
async function rooted(list: readonly ConfiguredGate[], root: string): Promise<ConfiguredGate[]> {
  if (!list.some((g) => commandSpecOf(g.gate))) return [...list];
  const { buildCommandGates } = await import('../gates/command/index.js');
  return list.map((g) => {
    const spec = commandSpecOf(g.gate);
    if (!spec) return g;
    const gate = buildCommandGates([spec], { root })[0]!;
    return { ...g, gate, settings: { ...g.settings, gate } };
  });
}

function formatArg(value: string | undefined, verb: string): 'text' | 'json' {
  const f = value ?? 'text';
  if (f !== 'text' && f !== 'json') throw new LoopgatesError(messages.badFormat(f), `use --format text or json (loopgates ${verb} --help)`);
  return f;
}

async function writeLedger(root: string, inGit: boolean, io: CommandIO, entries: LedgerEntry[]): Promise<void> {
  if (!inGit || entries.length === 0) return;
  try {
    const { facts, env } = await resolveRepo(root, io.env);
    appendLedger(await ledgerPath(facts.topLevel, facts, env), entries);
  } catch (e) {
    io.stderr(`${messages.ledgerFailed(e instanceof Error ? e.message : String(e))}\n`);
  }
}

/** The `selftest` verb over `deps` (tests pass toy gates). */
export function makeSelftestVerb(deps: VerbDeps = {}): Verb {
  return {
    name: 'selftest',
    summary: "Run every enabled gate's shipped green and red cases; each gate must prove it can fail.",
    usage: selftestUsage,
    async run(args, io) {
      const { values } = parseVerbArgs('selftest', args, { gate: { type: 'string', multiple: true }, format: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, false);
      if (values.help) {
        io.stdout(selftestUsage);
        return 0;
      }
      const format = formatArg(values.format, 'selftest');
      const sel = await select(io, values.gate ?? [], deps);
      const settings = sel.gates.map((g) => g.settings);
      const report = await holdingSignals(() => withScratchDir('selftest', (cacheRoot) =>
        runSelfTests(settings, {
          cacheRoot,
          signal: io.signal,
          ...(io.isTTY ? { onCase: (gate, c) => io.stderr(`\r\x1b[K${gate}: ${c.outcome} ${c.name}`.slice(0, 120)) } : {}),
        }),
      ));
      if (io.isTTY) io.stderr('\r\x1b[K');
      // The retry runner's signatures prove themselves like gates (scripts/retry/signatures.ts); not with --gate.
      const signatures = values.gate?.length ? undefined : (await import('../scripts/retry/signatures.js')).proveAll(sel.retry);
      const signaturesOk = !signatures || signatures.every((p) => p.proof === 'PROVEN');
      // PROVEN on the shipped cases, and still blind here: a config glob that matches no tracked file (core/blind.ts).
      const blind = sel.inGit ? blindGlobs(sel.gates, (await lsIndex(sel.root, io.env)).map((e) => e.path)) : [];
      const blindLines = blind.map((b) => `BLIND in this repository: ${blindGlobMessage(b)}\n  fix: ${blindGlobFix(b.gate, b.key, sel.gates.find((g) => g.gate.id === b.gate)!.source)}\n`).join('');
      if (format === 'json') io.stdout(`${JSON.stringify({ version: packageVersion(), ...report, ...(signatures ? { signatures } : {}), blind }, null, 2)}\n`);
      else io.stdout(selfTestText(report, io.isTTY) + (signatures ? (await import('../scripts/retry/signatures.js')).proofsText(signatures) : '') + blindLines);
      if (sel.inGit) {
        try {
          const cacheRoot = await cacheRootOf(sel.root, io);
          const keys = checkSelfTestCache(settings, cacheRoot, sel.root, io.env);
          const byId = new Map(keys.misses.map((m) => [m.settings.gate.id, m.key]));
          storeSelfTestResults(
            cacheRoot,
            report.gates.flatMap((g) => (byId.has(g.gate) ? [{ gate: g.gate, key: byId.get(g.gate)!, proof: g.proof, cases: g.cases.length }] : [])),
          );
        } catch {
          /* the cache is an optimisation; the next commit just runs the cases */
        }
      }
      const ts = new Date().toISOString();
      await writeLedger(sel.root, sel.inGit, io, report.gates.map((g) => ({ ts, kind: 'selftest', gate: g.gate, verdict: g.proof, cases: g.cases.length, outcomes: g.cases.map((c) => c.outcome) })));
      if (io.signal.aborted) return 2;
      if (report.ok && signaturesOk) return 0;
      if (report.ok) return 1;
      return report.gates.some((g) => g.cases.some((c) => c.outcome === 'error')) ? 2 : 1;
    },
  };
}

async function cacheRootOf(root: string, io: CommandIO): Promise<string> {
  const { facts } = await resolveRepo(root, io.env);
  return cacheRootFor(facts.topLevel, facts);
}

/** The `mutate` verb over `deps` (tests pass toy gates). */
export function makeMutateVerb(deps: VerbDeps = {}): Verb {
  return {
    name: 'mutate',
    summary: "Inject each gate's target defect into this repository's real files, in a scratch space; require red, then green.",
    usage: mutateUsage,
    async run(args, io) {
      const { values } = parseVerbArgs(
        'mutate',
        args,
        {
          gate: { type: 'string', multiple: true },
          seed: { type: 'string' },
          'all-inputs': { type: 'boolean' },
          sample: { type: 'string' },
          format: { type: 'string' },
          help: { type: 'boolean', short: 'h' },
        },
        false,
      );
      if (values.help) {
        io.stdout(mutateUsage);
        return 0;
      }
      const format = formatArg(values.format, 'mutate');
      const seed = intArg(values.seed, 'seed', defaultSeed, 0);
      const sample = intArg(values.sample, 'sample', 3, 1);
      const sel = await select(io, values.gate ?? [], deps);
      const ws = await treeWorkspace(sel.root, 'all', undefined, io.env);
      const settings: GateSettings<any>[] = sel.gates.map((g) => g.settings);
      const onMutant = io.isTTY
        ? (m: MutantReport, done: number) => io.stderr(`\r\x1b[K[${done}] ${m.outcome} ${m.gate}/${m.operator} ${m.file}:${m.line}`.slice(0, 160))
        : undefined;
      const { runMutations } = await import('../mutations/mutate.js');
      const report = await holdingSignals(() =>
        withScratchDir('mutate', (cacheRoot) =>
          runMutations(settings, { ws, cacheRoot, seed, allInputs: values['all-inputs'] === true, perOperator: sample, signal: io.signal, ...(onMutant ? { onMutant } : {}) }),
        ),
      );
      if (io.isTTY) io.stderr('\r\x1b[K');
      if (format === 'json') io.stdout(`${JSON.stringify(await mutateJson(report, (p) => ws.readText(p), { root: sel.root, version: packageVersion() }), null, 2)}\n`);
      else io.stdout(mutateText(report, io.isTTY));
      const ts = new Date().toISOString();
      const mutants = report.gates.flatMap((g) => g.operators.flatMap((o) => o.mutants));
      await writeLedger(
        sel.root,
        sel.inGit,
        io,
        mutants.map((m) => ({ ts, kind: 'mutation', gate: m.gate, verdict: m.outcome, operator: m.operator, file: m.file, line: m.line, seed: report.seed, durationMs: Math.round(m.durationMs) })),
      );
      if (report.aborted) return interruptedExitCode(io.signal);
      return report.ok ? 0 : 1;
    },
  };
}

function intArg(value: string | undefined, name: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > 0xffffffff) {
    throw new LoopgatesError(messages.badArgs(`--${name} must be an integer >= ${min}, got '${value}'`, 'mutate'), 'loopgates mutate --help');
  }
  return Number(value);
}

/**
 * The pre-commit self-test step (commands/hook.ts `preflight`): for each gate this commit will run (bypassed
 * ones excepted), look up its self-test proof in `<git common dir>/loopgates/cache/selftest.json` under its key
 * (mutations/cache.ts); run the cases of the gates that missed; refuse the commit (exit 2) naming the gate and the
 * case when a gate is not PROVEN. A hit runs nothing.
 */
export const selfTestPreflight: PreflightStep = async (ctx) => {
  const gates = await rooted(ctx.gates.filter((g) => !ctx.bypassed.has(g.gate.id)), ctx.ws.root);
  if (gates.length === 0) return;
  const { hits, misses } = checkSelfTestCache(gates.map((g) => g.settings), ctx.cacheRoot, ctx.ws.root, ctx.io.env);
  // Every report says where each proof came from: a cached PROVEN is only as good as its key.
  const whence = [
    ...(hits.length ? [`self-test proofs from cache (same gate, config, command and the files it resolves to): ${hits.join(', ')}`] : []),
    ...(misses.length ? [`self-test proofs run now: ${misses.map((m) => m.settings.gate.id).join(', ')}`] : []),
  ];
  if (misses.length === 0) return { exitCode: 0, notes: whence };
  const report = await holdingSignals(() => withScratchDir('selftest', (cacheRoot) => runSelfTests(misses.map((m) => m.settings), { cacheRoot, signal: ctx.io.signal })));
  const keys = new Map(misses.map((m) => [m.settings.gate.id, m.key]));
  try {
    storeSelfTestResults(ctx.cacheRoot, report.gates.map((g) => ({ gate: g.gate, key: keys.get(g.gate)!, proof: g.proof, cases: g.cases.length })));
  } catch {
    /* an unwritable cache only costs time on the next commit */
  }
  const failing = report.gates.filter((g) => g.proof !== 'PROVEN' && g.proof !== 'WAIVED');
  const notes = [...whence, ...report.gates.filter((g) => g.waived).map((g) => `${g.gate}: self-test waived: ${g.waived}`)];
  // Zero executed cases is fine here only when every gate that missed is WAIVED (its reason goes to the report).
  if (failing.length === 0 && !ctx.io.signal.aborted) return { exitCode: 0, notes };
  if (failing.length === 0) return { exitCode: 2, notes: [...notes, 'self-tests interrupted: commit refused'] };
  // An unproven gate refuses the commit, but the commit's own findings are still judged and reported.
  const withdrawIfFails = new Map<string, string>();
  for (const g of failing) {
    const settings = misses.find((m) => m.settings.gate.id === g.gate)?.settings;
    const noisy = ownContentNoisy(g, settings?.gate);
    if (noisy) withdrawIfFails.set(g.gate, noisy);
  }
  return { exitCode: 2, results: failing.map(selfTestResult), notes, judgeAnyway: !ctx.io.signal.aborted, withdrawIfFails };
};

/**
 * For a command gate whose clean case failed: the note that replaces its self-test refusal when the gate's own run
 * fails too. The clean case is the repository's own files (gates/command commandSelfTest), so its failure is the
 * gate's finding in the user's content, not a broken proof; nothing is cached, and the proof runs again on the next
 * commit. Undefined for a built-in gate (its clean cases are shipped fixtures) or another failure.
 */
function ownContentNoisy(g: GateSelfTest, gate: Gate<any> | undefined): string | undefined {
  if (!gate || !commandSpecOf(gate) || g.interrupted) return undefined;
  const green = g.cases.find((c) => c.kind === 'green');
  if (green?.outcome !== 'noisy') return undefined;
  const spots = [...green.detail.matchAll(/([^\s,:]+):\d+ \(/g)].map((m) => m[1]!);
  const files = [...new Set(spots)].slice(0, 3);
  return `self-test of gate ${g.gate} not judged: its clean case (${files.length ? files.join(', ') : 'the files it reads'} as ${files.length === 1 ? 'it is' : 'they are'}) fails, as the findings below show; fix them and the proof runs on the next commit`;
}

/** A failed self-test as a gate result for the hook's report: verdict `error`, naming the gate and the case. */
function selfTestResult(g: GateSelfTest): GateResult {
  if (g.interrupted) return interruptedSelfTestResult(g, g.interrupted);
  const bad = g.cases.filter((c) => c.outcome !== 'caught' && c.outcome !== 'clean');
  const what =
    bad.length > 0
      ? bad.map((c) => `case '${c.name}' ${c.outcome}: ${c.detail}`).join('; ')
      : g.proof === 'DECORATION'
        ? 'it has no red case: nothing shows it can fail'
        : 'it has no green case: nothing shows it can pass';
  const message = `self-test of gate ${g.gate} is ${g.proof}: ${what}`;
  return {
    gate: g.gate,
    title: `${g.title} (self-test)`,
    verdict: 'error',
    counts: { files: 0, items: g.cases.length, filtered: 0, suppressed: 0, findings: 0 },
    itemUnit: 'cases',
    findings: [],
    notes: [],
    reason: message,
    // A case that errored (a missing scanner, say) carries its gate's own fix; re-running the self-test fixes nothing.
    error: { message, fix: bad.find((c) => c.fix)?.fix ?? `loopgates selftest --gate ${g.gate}` },
    durationMs: g.cases.reduce((n, c) => n + c.durationMs, 0),
  };
}

/**
 * A self-test cut short by the run's signal (Ctrl-C, SIGTERM) as a gate result: the cause is the interrupt, said with
 * how far the cases got; a case that had already gone wrong before it is still named. Never DECORATION: the red cases
 * were not missing, they did not run. The fix is to let it finish (nothing of it was cached).
 */
function interruptedSelfTestResult(g: GateSelfTest, cut: NonNullable<GateSelfTest['interrupted']>): GateResult {
  const wrongBefore = g.cases.slice(0, cut.done).filter((c) => c.outcome !== 'caught' && c.outcome !== 'clean');
  const message =
    `self-test of gate ${g.gate} was interrupted (${cut.why}) after ${cut.done} of ${cut.total} case${cut.total === 1 ? '' : 's'}: ` +
    `the rest did not run, so the gate is not proven and the commit is refused` +
    (wrongBefore.length ? `; before that, ${wrongBefore.map((c) => `case '${c.name}' ${c.outcome}: ${c.detail}`).join('; ')}` : '');
  return {
    gate: g.gate,
    title: `${g.title} (self-test)`,
    verdict: 'error',
    counts: { files: 0, items: cut.done, filtered: 0, suppressed: 0, findings: 0 },
    itemUnit: 'cases',
    findings: [],
    notes: [],
    reason: message,
    error: { message, fix: wrongBefore.find((c) => c.fix)?.fix ?? `${messages.interruptedFix} (commit again: the self-test runs again on a cold cache; or: loopgates selftest --gate ${g.gate})` },
    durationMs: g.cases.reduce((n, c) => n + c.durationMs, 0),
  };
}

/** `selftest` verb over the built-in registry and loopgates.yaml's command gates. */
export const selftestVerb: Verb = makeSelftestVerb();
/** `mutate` verb over the built-in registry and loopgates.yaml's command gates. */
export const mutateVerb: Verb = makeMutateVerb();
