// `loopgates mutate`: each gate's target defect injected into real inputs that the gate's own configuration selects,
// in an in-memory overlay (core/workspace.ts), judged by the same runner the hook uses, red then green
// (DESIGN.md "mutation"; outcomes in Stryker's words). Nothing is written to the working tree or the index:
// the overlay lives in memory, and gates that shell out materialise it in a scratch directory of their own.
import { headFindingsOf, lineMapOfEdit, splitFindings } from '../core/introduced.js';
import { runGate, type GateSettings } from '../core/runner.js';
import { overlayWorkspace } from '../core/workspace.js';
import type { GateContext, GateFilters, GateResult, Mutant, MutationOperator, RunTool, Workspace } from '../core/types.js';
import { runTool as defaultRunTool } from '../core/tools.js';
import { selfTestWaiver } from '../gates/command/spec.js';
import { classifyRed, type MutantOutcome } from './outcomes.js';
import { deriveSeed, seededRandom, shuffled } from './random.js';

/** One mutant and what became of it. `line` is 1-based; `swallowedBy` names the filter that hid it, when known. */
export interface MutantReport {
  gate: string;
  operator: string;
  file: string;
  line: number;
  description: string;
  /** The rule the operator expected the gate to report (Mutant.rule), when it names one. */
  rule?: string;
  outcome: MutantOutcome;
  detail: string;
  swallowedBy?: string;
  /** Wall time of the red and green runs, ms. */
  durationMs: number;
}

/** One operator of one gate: its mutants, or why it made none (`note`). */
export interface OperatorReport {
  operator: string;
  description: string;
  mutants: MutantReport[];
  /** Why no mutant was made ("no file in this repository it can mutate"); not a failure by itself. */
  note?: string;
  /** Inputs skipped because they were already red without the mutation. */
  alreadyRed: number;
}

/** One gate of the run. `problem` is a gate-level failure (no operators, no mutant at all, inputs() threw...). */
export interface GateMutateReport {
  gate: string;
  title: string;
  inputs: number;
  operators: OperatorReport[];
  waived?: string;
  /** Set when the gate was left out on purpose (allowEmpty with zero inputs). */
  skipped?: string;
  problem?: { outcome: MutantOutcome; detail: string };
  /**
   * The gate's refusing rules (Gate.refusingRules) that no mutant of this run targeted, sorted: nothing here proves
   * the gate goes red on them in this repository. Absent when the gate declares no rules, or was waived or skipped.
   */
  notExercised?: string[];
  /**
   * The hook's split proven on this gate: a mutant in an input already red without it (where old findings sit), its
   * findings split against the unmutated input's as a commit's are against HEAD's (core/introduced.ts), must leave an
   * introduced error finding at the injected spot (`killed`). `survived`: the hook would let this defect through as
   * pre-existing. Absent when no input with a place for the defect was red already.
   */
  oldFindings?: { file: string; line: number; description: string; outcome: 'killed' | 'survived'; detail: string };
}

/** The whole run; `ok` only when every mutant was killed, no gate has a problem, and the run was not interrupted. */
export interface MutateReport {
  seed: number;
  allInputs: boolean;
  gates: GateMutateReport[];
  totals: Record<MutantOutcome, number>;
  aborted: boolean;
  ok: boolean;
  durationMs: number;
}

/** Options of `runMutations`. */
export interface MutateOptions {
  /** The repository as `run --all` sees it (tree backing, `all` mode); inputs are selected from it. */
  ws: Workspace;
  /** Per-gate cache root (a temp dir). */
  cacheRoot: string;
  /** Seed of the sample (inputs and spots); the same seed gives the same mutants. */
  seed: number;
  /** Mutate every input an operator applies to, instead of a sample. */
  allInputs?: boolean;
  /** Mutants per operator when sampling; default 3. */
  perOperator?: number;
  signal?: AbortSignal;
  runTool?: RunTool;
  /** Called after each mutant (progress line on a TTY). */
  onMutant?: (m: MutantReport, done: number) => void;
}

const emptyTotals = (): Record<MutantOutcome, number> => ({ killed: 0, survived: 0, 'no-coverage': 0, error: 0, timeout: 0 });


/**
 * Run every operator of every gate in `list` against real inputs of `options.ws`. Never throws for a gate's
 * failure (it becomes an outcome); rethrows nothing from gates. Stops early when `options.signal` aborts
 * (`aborted: true`, `ok: false`).
 */
export async function runMutations(list: ReadonlyArray<GateSettings<any>>, options: MutateOptions): Promise<MutateReport> {
  const started = performance.now();
  options = { ...options, ws: readOnce(options.ws) };
  const gates: GateMutateReport[] = [];
  const totals = emptyTotals();
  let done = 0;
  const count = (m: MutantReport) => {
    totals[m.outcome]++;
    options.onMutant?.(m, ++done);
  };
  for (const settings of list) {
    if (options.signal?.aborted) break;
    gates.push(await mutateGate(settings, options, count));
  }
  const aborted = options.signal?.aborted === true;
  const made = Object.values(totals).reduce((a, b) => a + b, 0);
  const ok =
    !aborted &&
    made > 0 &&
    totals.killed === made &&
    gates.every((g) => !g.problem && g.oldFindings?.outcome !== 'survived');
  return { seed: options.seed, allInputs: options.allInputs === true, gates, totals, aborted, ok, durationMs: performance.now() - started };
}

async function mutateGate(settings: GateSettings<any>, options: MutateOptions, count: (m: MutantReport) => void): Promise<GateMutateReport> {
  const { gate } = settings;
  const report: GateMutateReport = { gate: gate.id, title: gate.title, inputs: 0, operators: [] };
  const waived = selfTestWaiver(gate);
  if (waived) return { ...report, waived };
  let inputs: string[];
  try {
    inputs = await gate.inputs(contextFor(settings, options));
  } catch (err) {
    return { ...report, problem: { outcome: 'error', detail: `inputs() failed: ${err instanceof Error ? err.message : String(err)}` } };
  }
  report.inputs = inputs.length;
  if (inputs.length === 0 && settings.allowEmpty) return { ...report, skipped: `no inputs; allowed by allowEmpty: ${settings.allowEmpty}` };
  if (gate.mutations.length === 0) {
    return { ...report, problem: { outcome: 'survived', detail: 'the gate has no mutation operator: nothing shows it can fail on your files (decoration)' } };
  }
  let exempt: ReadonlyMap<string, string>;
  try {
    exempt = new Map((gate.exemptions ? await gate.exemptions(contextFor(settings, options), inputs) : []).map((e) => [e.path, e.by]));
  } catch (err) {
    return { ...report, problem: { outcome: 'error', detail: `exemptions() failed: ${err instanceof Error ? err.message : String(err)}` } };
  }
  const allPaths = await options.ws.allPaths();
  const greens = new Map<string, Promise<GateResult>>();
  const green = (path: string) => {
    let g = greens.get(path);
    if (!g) greens.set(path, (g = runOn(settings, settings.config, options, path)));
    return g;
  };
  // An operator's first mutant in an already-red input is judged as a commit is (once per operator: one catalog with
  // old findings is all an iOS app may have, and each rule deserves its proof). It is the run's mutant, in the table
  // and the totals, when it survived, or was killed at a spot the unmutated file had no error finding beside: a gate
  // that reports everything also "introduces" a finding at a new line, so a red next to old ones proves nothing.
  // `oldFindings` shows the gate's first.
  const onRed = (seen: AlreadyRed): Pick<MutantReport, 'outcome' | 'detail'> | undefined => {
    const judged = judgeWhereOldFindingsSit(seen);
    report.oldFindings ??= judged;
    const spotWasClean = !seen.green.findings.some((f) => f.severity === 'error' && f.file === seen.path && Math.abs(f.line - seen.mutant.line) <= 1);
    return judged.outcome === 'survived' || spotWasClean ? { outcome: judged.outcome, detail: `already red without the mutation, judged as a commit is: ${judged.detail}` } : undefined;
  };
  for (const op of gate.mutations) {
    if (options.signal?.aborted) break;
    report.operators.push(await mutateOperator(settings, op, inputs, allPaths, green, options, count, greens, exempt, onRed));
  }
  if (gate.refusingRules) {
    const ran = new Set(report.operators.flatMap((o) => o.mutants.map((m) => m.rule)));
    report.notExercised = [...new Set(gate.refusingRules(settings.config))].filter((r) => !ran.has(r)).sort();
  }
  const made = report.operators.reduce((n, o) => n + o.mutants.length, 0);
  if (made === 0 && !options.signal?.aborted) {
    const alreadyRed = report.operators.reduce((n, o) => n + o.alreadyRed, 0);
    if (alreadyRed > 0) {
      report.problem = { outcome: 'error', detail: `every input that offered a place was already red without the mutation (${alreadyRed}): the gate is noisy on this repository or reports everything, so no red here proves anything` };
      return report;
    }
    const detail =
      inputs.length === 0
        ? `the gate selects no input in this repository (run --all would say vacuous)${describeIncludes(settings)}`
        : `no operator could make a mutant from the gate's ${inputs.length} inputs (${report.operators.map((o) => `${o.operator}: ${o.note ?? '?'}`).join('; ')})`;
    report.problem = { outcome: 'no-coverage', detail };
  }
  return report;
}

async function mutateOperator(
  settings: GateSettings<any>,
  op: MutationOperator,
  inputs: readonly string[],
  allPaths: readonly string[],
  green: (path: string) => Promise<GateResult>,
  options: MutateOptions,
  count: (m: MutantReport) => void,
  greens: Map<string, Promise<GateResult>>,
  exempt: ReadonlyMap<string, string>,
  onAlreadyRed: (seen: AlreadyRed) => Pick<MutantReport, 'outcome' | 'detail'> | undefined,
): Promise<OperatorReport> {
  const { gate } = settings;
  const out: OperatorReport = { operator: op.id, description: op.description, mutants: [], alreadyRed: 0 };
  let candidates = inputs.filter((p) => op.appliesTo(p));
  let uncovered = false;
  if (candidates.length === 0) {
    // The gate selects none of the files this operator targets. If the repository has such files, mutating one shows
    // the discovery gap as `no-coverage` (an include glob that matches nothing, an exclude that matches everything).
    candidates = allPaths.filter((p) => op.appliesTo(p));
    uncovered = true;
    if (candidates.length === 0) return { ...out, note: 'no file in this repository that it can mutate' };
  }
  const random = seededRandom(deriveSeed(options.seed, `${gate.id}\0${op.id}`));
  let order = options.allInputs ? [...candidates].sort() : shuffled(candidates, random);
  let want = options.allInputs ? Infinity : Math.max(1, options.perOperator ?? 3);
  // One input per exempting entry first, on top of the sample: a sample of files the tool does read proves nothing
  // of the files a filter of its own config exempts (an unanchored allowlist path), which stay green whatever is in them.
  const firstOfEach = new Map<string, string>();
  for (const p of order) if (exempt.has(p) && !firstOfEach.has(exempt.get(p)!)) firstOfEach.set(exempt.get(p)!, p);
  if (firstOfEach.size) {
    const picks = new Set(firstOfEach.values());
    order = [...picks, ...order.filter((p) => !picks.has(p))];
    want += picks.size;
  }
  let noPlace = 0;
  let judgedOne = false;
  // Gates that declare `mutationBatch` judge several mutants (each in its own file) in one run; see batchRun.
  const batch = Math.max(1, Math.floor(gate.mutationBatch ?? 1));
  let next = 0;
  while (next < order.length && out.mutants.length < want && !options.signal?.aborted) {
    const chunk: Array<{ path: string; mutant: Mutant; started: number; original: string }> = [];
    const size = Math.min(batch, want - out.mutants.length);
    while (chunk.length < size && next < order.length && !options.signal?.aborted) {
      const path = order[next++]!;
      const started = performance.now();
      let facts: unknown;
      if (op.facts) {
        try {
          facts = await op.facts(contextFor(settings, options), path);
        } catch (err) {
          const m: MutantReport = { gate: gate.id, operator: op.id, file: path, line: 1, description: 'read what the gate knows of the file', outcome: 'error', detail: `facts() failed: ${err instanceof Error ? err.message : String(err)}`, durationMs: performance.now() - started };
          out.mutants.push(m);
          count(m);
          continue;
        }
      }
      const original = await options.ws.readText(path);
      const mutant = op.mutate(path, original, random, facts);
      if (!mutant) {
        noPlace++;
        continue;
      }
      chunk.push({ path, mutant, started, original });
    }
    const batched = chunk.length > 1 ? await batchRun(settings, options, chunk, greens) : new Map<string, GateResult>();
    for (const { path, mutant, started, original } of chunk) {
      if (out.mutants.length >= want || options.signal?.aborted) break;
      const red = batched.get(path) ?? (await runOn(settings, settings.config, options, path, mutant.content));
      if (options.signal?.aborted) break;
      let { outcome, detail } = classifyRed(path, mutant, red);
      const exemptBy = exempt.get(path);
      if (exemptBy && outcome !== 'killed') {
        // The tool never judged the file: whatever the run's verdict, the defect went through (Stryker's survived).
        outcome = 'survived';
        detail = `${path} is exempt from the gate by ${exemptBy}: the injected defect was never judged (${red.verdict})`;
      }
      let split = false;
      if (outcome === 'killed') {
        if (batched.has(path)) detail += ` (one run with ${chunk.length - 1} other mutated file${chunk.length === 2 ? '' : 's'} staged)`;
        const g = await green(path);
        if (g.verdict === 'fail') {
          // Already red without the mutation: this input cannot show the red came from the defect. Try another.
          // It can show that the hook's split still sees a defect injected where old findings sit (once per gate).
          const judged = judgedOne ? undefined : onAlreadyRed({ path, mutant, original, red, green: g });
          judgedOne = true;
          if (!judged) {
            out.alreadyRed++;
            continue;
          }
          ({ outcome, detail } = judged);
          split = true;
        } else if (g.verdict !== 'pass') {
          outcome = g.verdict === 'error' ? 'error' : 'no-coverage';
          detail = `red with the mutant, but the unmutated input gave ${g.verdict}: ${g.reason ?? g.error?.message ?? ''}`.trim();
        } else detail += `; green without it (read ${g.counts.files} files)`;
      }
      const m: MutantReport = { gate: gate.id, operator: op.id, file: path, line: mutant.line, description: mutant.description, ...(mutant.rule !== undefined ? { rule: mutant.rule } : {}), outcome, detail, durationMs: performance.now() - started };
      if (exemptBy && outcome === 'survived') m.swallowedBy = exemptBy;
      else if (!split && (outcome === 'survived' || outcome === 'no-coverage')) {
        const why = await swallowedBy(settings, options, path, mutant, red, outcome);
        if (why) m.swallowedBy = why;
        else if (uncovered) m.swallowedBy = `the gate's inputs do not include ${path}${describeIncludes(settings)}`;
      }
      out.mutants.push(m);
      count(m);
    }
  }
  if (out.mutants.length === 0) {
    out.note =
      out.alreadyRed > 0
        ? `every input that offered a place was already red without the mutation (${out.alreadyRed})`
        : `no place for this defect in ${noPlace} candidate file${noPlace === 1 ? '' : 's'}`;
  }
  return out;
}

/** An input red without its mutant: the mutant, both contents and both results. */
interface AlreadyRed {
  path: string;
  mutant: Mutant;
  original: string;
  red: GateResult;
  green: GateResult;
}

/**
 * GateMutateReport.oldFindings for one already-red input: the mutant's findings split against the unmutated input's
 * (the unmutated file playing HEAD, lines mapped over the edit), killed when an introduced error finding sits at the
 * injected spot (and rule, when the operator names one).
 */
function judgeWhereOldFindingsSit(seen: AlreadyRed): NonNullable<GateMutateReport['oldFindings']> {
  const { path, mutant, red, green } = seen;
  const split = splitFindings(red.findings, headFindingsOf(green.findings), new Map([[path, lineMapOfEdit(seen.original, mutant.content)]]));
  const hit = split.introduced.some((f) => f.severity === 'error' && f.file === path && f.line === mutant.line && (mutant.rule === undefined || f.rule === mutant.rule));
  const old = green.findings.filter((f) => f.severity === 'error').length;
  const base = { file: path, line: mutant.line, description: mutant.description };
  return hit
    ? { ...base, outcome: 'killed', detail: `introduced at ${path}:${mutant.line} beside ${old} old error finding${old === 1 ? '' : 's'} the unmutated file already had (${split.preExisting.length} matched as pre-existing)` }
    : {
        ...base,
        outcome: 'survived',
        detail: `the mutant's finding at ${path}:${mutant.line} matched one of the ${old} old finding${old === 1 ? '' : 's'} by fingerprint: a commit bringing this defect next to them would pass as pre-existing (introduced: ${split.introduced.map((f) => `${f.file}:${f.line}`).join(', ') || 'none'})`,
      };
}

/**
 * `ws` with each path read once and its path lists asked once: the snapshot does not change during a run, and every
 * overlay then shares the unchanged files' Buffer objects, so gates that memoise by content (string-parity's
 * catalogs: decoded text, sha1, parse) do that work once per file per process, not once per mutant. Holds what the
 * gates read of the snapshot in memory for the run.
 */
function readOnce(ws: Workspace): Workspace {
  const bytes = new Map<string, Promise<Buffer>>();
  const read = (path: string): Promise<Buffer> => {
    let p = bytes.get(path);
    if (!p) {
      bytes.set(path, (p = ws.read(path)));
      p.catch(() => bytes.delete(path));
    }
    return p;
  };
  let all: Promise<readonly string[]> | undefined;
  let targets: Promise<readonly string[]> | undefined;
  return {
    ...ws,
    targets: () => (targets ??= ws.targets()),
    allPaths: () => (all ??= ws.allPaths()),
    read,
    readText: async (path) => (await read(path)).toString('utf8'),
  };
}

/**
 * One red run of a chunk of mutants of a `mutationBatch` gate, staged together as one commit touching their files,
 * and one green run of the same files unmutated. Returns the red result for each mutant that run killed (a finding at
 * its own file and line); the others are judged again alone by the caller, so a batch can only save runs, never turn
 * a survivor into a kill or hide an error. When the green run passes having read every file, it is each file's green
 * (no file of it is red unmutated); otherwise each file's green is run alone when needed.
 */
async function batchRun(settings: GateSettings<any>, options: MutateOptions, chunk: ReadonlyArray<{ path: string; mutant: Mutant }>, greens: Map<string, Promise<GateResult>>): Promise<Map<string, GateResult>> {
  const paths = chunk.map((c) => c.path);
  const red = await runGate(settings, { ws: stagedOverlayOf(options.ws, new Map(chunk.map((c) => [c.path, c.mutant.content])), paths), cacheRoot: options.cacheRoot, ...signalAndTool(options) });
  const killed = new Map<string, GateResult>();
  if (red.verdict === 'fail') {
    for (const c of chunk) if (classifyRed(c.path, c.mutant, red).outcome === 'killed') killed.set(c.path, red);
  }
  const unjudged = paths.filter((p) => !greens.has(p));
  if (killed.size > 0 && unjudged.length > 1) {
    const green = runGate(settings, { ws: stagedOverlayOf(options.ws, new Map(), unjudged), cacheRoot: options.cacheRoot, ...signalAndTool(options) });
    // Trusted only when it read every file: a gate that judged part of the commit proves nothing of the rest.
    const g = await green;
    if (g.verdict === 'pass' && g.counts.files >= unjudged.length) for (const p of unjudged) greens.set(p, green);
  }
  return killed;
}

function signalAndTool(options: MutateOptions): { signal?: AbortSignal; runTool?: RunTool } {
  return { ...(options.signal ? { signal: options.signal } : {}), ...(options.runTool ? { runTool: options.runTool } : {}) };
}

function stagedOverlayOf(base: Workspace, changes: ReadonlyMap<string, string>, targets: readonly string[]): Workspace {
  return { ...overlayWorkspace(base, changes, targets), mode: 'staged' };
}

/** The hook's view of one staged file: `staged` mode, targets = [path], content optionally replaced. */
function stagedOverlay(base: Workspace, path: string, content?: string): Workspace {
  const over = overlayWorkspace(base, content === undefined ? new Map() : new Map([[path, content]]), [path]);
  return { ...over, mode: 'staged' };
}

function runOn(settings: GateSettings<any>, config: unknown, options: MutateOptions, path: string, content?: string): Promise<GateResult> {
  return runGate(
    { gate: settings.gate, config, timeoutMs: settings.timeoutMs, allowEmpty: settings.allowEmpty },
    {
      ws: stagedOverlay(options.ws, path, content),
      cacheRoot: options.cacheRoot,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.runTool ? { runTool: options.runTool } : {}),
    },
  );
}

function contextFor(settings: GateSettings<any>, options: MutateOptions): GateContext<any> {
  return {
    ws: options.ws,
    config: settings.config,
    signal: options.signal ?? new AbortController().signal,
    runTool: options.runTool ?? defaultRunTool,
    cacheDir: `${options.cacheRoot}/${settings.gate.id}`,
    log: () => {},
  };
}

/**
 * Every array entry under the keys `filters` declares (core/types.ts GateFilters): `candidates` keys first (they
 * swallow findings), then `inputs` keys (excludes only hide files, which `no-coverage` already points at), each as a
 * key path and value. A declared key the config lacks, or that is no array, gives nothing.
 */
export function filterEntries(config: unknown, filters: GateFilters | undefined): Array<{ path: Array<string | number>; value: unknown }> {
  const out: Array<{ path: Array<string | number>; value: unknown }> = [];
  for (const key of [...(filters?.candidates ?? []), ...(filters?.inputs ?? [])]) {
    const path = key.split('.');
    const v = valueAt(config, path);
    if (Array.isArray(v)) v.forEach((value, i) => out.push({ path: [...path, i], value }));
  }
  return out;
}

/** The value at the dotted `path` of `config`; undefined when a step is missing. */
function valueAt(config: unknown, path: readonly string[]): unknown {
  let node = config;
  for (const k of path) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[k];
  }
  return node;
}

/** A deep copy of `config` without the array entry at `path`. */
export function withoutEntry(config: unknown, path: ReadonlyArray<string | number>): unknown {
  const copy = structuredClone(config) as Record<string | number, unknown>;
  let node: Record<string | number, unknown> = copy;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  (node as unknown as unknown[]).splice(path[path.length - 1] as number, 1);
  return copy;
}

/**
 * Name what swallowed a survived or uncovered mutant: re-run the red case with one filter entry of the gate's config
 * removed at a time (at most 20); the first removal that makes the mutant killed is the culprit. Falls back to the
 * red run's own counts (suppressed / filtered) when no config entry explains it. Undefined when it cannot tell.
 */
async function swallowedBy(
  settings: GateSettings<any>,
  options: MutateOptions,
  path: string,
  mutant: { content: string; line: number; rule?: string },
  red: GateResult,
  outcome: MutantOutcome,
): Promise<string | undefined> {
  for (const entry of filterEntries(settings.config, settings.gate.filters).slice(0, 20)) {
    if (options.signal?.aborted) return undefined;
    const config = withoutEntry(settings.config, entry.path);
    const again = await runOn(settings, config, options, path, mutant.content);
    if (classifyRed(path, { ...mutant, description: '' }, again).outcome === 'killed') {
      return `gates.${settings.gate.id}.${dotted(entry.path)} = ${JSON.stringify(entry.value)} (killed once that entry is removed)`;
    }
  }
  if (outcome === 'survived' && red.counts.suppressed > 0) return `an inline suppression (${red.counts.suppressed} suppressed in this run)`;
  if (outcome === 'survived' && red.counts.filtered > 0) return `a filter outside loopgates.yaml, e.g. the scanner's own allow-list (${red.counts.filtered} filtered in this run)`;
  const notes = red.notes.filter((n) => /allow|filter|suppress|exclude|ignore/i.test(n));
  return notes.length > 0 ? notes.join('; ') : undefined;
}

function dotted(path: ReadonlyArray<string | number>): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

function describeIncludes(settings: GateSettings<any>): string {
  const parts = (settings.gate.filters?.includes ?? [])
    .map((k) => [k, valueAt(settings.config, k.split('.'))] as const)
    .filter(([, v]) => Array.isArray(v))
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}
