// The runner: turns a gate's output into a verdict (DESIGN.md "verdict"), with counts, a per-gate timeout and
// parallelism. Every path that cannot prove a pass ends in `vacuous` or `error`, never `pass`.
import { mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { completeFinding, keepMembers } from './finding.js';
import { redactDeep } from './redact.js';
import { LoopgatesError } from './errors.js';
import { messages } from './messages.js';
import type { HeadJudge } from './introduced.js';
import type { Counts, Gate, GateContext, GateResult, RunTool, StagedPolicy, Workspace } from './types.js';

/** One gate ready to run: the gate, its validated config and the common settings from loopgates.yaml. */
export interface GateSettings<C = unknown> {
  gate: Gate<C>;
  config: C;
  /** Per-gate bound in ms; the run is aborted and the verdict is `error` past it. */
  timeoutMs: number;
  /** A reason why zero inputs is acceptable in `all`/`files` mode (else zero inputs is `vacuous`). */
  allowEmpty?: string | undefined;
  /** What a staged commit is judged by (loopgates.yaml `staged:`); default `introduced`. Only read when RunOptions.head is given. */
  staged?: StagedPolicy | undefined;
}

/** Options shared by the gates of one run. */
export interface RunOptions {
  ws: Workspace;
  /** Directory for per-gate caches (`<cacheRoot>/<gate id>`), created on demand. */
  cacheRoot: string;
  signal?: AbortSignal;
  /** Gates run at once; default 4. */
  concurrency?: number;
  runTool?: RunTool;
  log?: (gate: string, message: string) => void;
  /** Gates not to run (LOOPGATES_SKIP): their verdict is `skip` with reason BYPASS_REASON. `all` bypasses every gate. */
  bypass?: ReadonlySet<string> | 'all';
  /**
   * Staged runs of a commit: HEAD's side (core/head-side.ts). Given, each gate's findings are split into introduced and
   * pre-existing and judged by its `staged:` policy (core/introduced.ts). Absent (self-tests, mutations, --all): every
   * finding counts.
   */
  head?: HeadJudge;
}

/** The reason of a gate bypassed by LOOPGATES_SKIP (DESIGN.md "Bypass is loud"). */
export const BYPASS_REASON = messages.bypassReason;

/** Whether a result is a LOOPGATES_SKIP bypass (not a gate that found nothing to read). */
export function isBypassed(result: Pick<GateResult, 'verdict' | 'reason'>): boolean {
  return result.verdict === 'skip' && result.reason === BYPASS_REASON;
}

/** A parsed LOOPGATES_SKIP: `all`, the known ids it names, and the ids no gate has (to warn about). */
export interface SkipRequest {
  all: boolean;
  ids: ReadonlySet<string>;
  unknown: readonly string[];
}

/**
 * Parse LOOPGATES_SKIP (`gate,gate` or `all`; spaces and empty entries ignored, ids case-sensitive as in config)
 * against the `known` gate ids. Unset or empty: nothing bypassed.
 */
export function parseSkip(value: string | undefined, known: readonly string[]): SkipRequest {
  const entries = [...new Set((value ?? '').split(',').map((s) => s.trim()).filter(Boolean))];
  const all = entries.includes('all');
  const ids = new Set(entries.filter((e) => e !== 'all' && known.includes(e)));
  return { all, ids: all ? new Set(known) : ids, unknown: entries.filter((e) => e !== 'all' && !known.includes(e)) };
}

/** core/tools.ts's runTool, loaded on first use: a hook whose gates never shell out does not pay for loading execa. */
const defaultRunTool: RunTool = async (file, args, options) => (await import('./tools.js')).runTool(file, args, options);

const zeroCounts = (): Counts => ({ files: 0, items: 0, filtered: 0, suppressed: 0, findings: 0 });

/** A gate's timer firing more than this late (ms) means the event loop was blocked; see runGate. */
const LATE_TIMER_MS = 250;
/** The longest grace (ms) a late timer gives before calling a timeout. */
const LATE_GRACE_MAX_MS = 5_000;

/**
 * Run one gate over `options.ws` and derive its verdict (see judgeGate); with `options.head` in staged mode, the
 * verdict is then taken by the gate's `staged:` policy over the findings HEAD lacks (core/introduced.ts). Never throws.
 */
export async function runGate<C>(settings: GateSettings<C>, options: RunOptions): Promise<GateResult> {
  const judged = await judgeGate(settings, options);
  const head = options.head;
  if (!head || options.ws.mode !== 'staged' || judged.inputs === undefined) return judged.result;
  const { result, inputs } = judged;
  if ((result.verdict !== 'pass' && result.verdict !== 'fail') || result.findings.length === 0) {
    return result.verdict === 'pass' ? { ...result, staged: { policy: settings.staged ?? 'introduced', preExisting: { errors: 0, warnings: 0, files: [] }, head: 'none' } } : result;
  }
  // Loaded only when there is something to split: a commit whose gates find nothing never loads it.
  const { applyStagedPolicy } = await import('./introduced.js');
  const started = performance.now();
  const out = await applyStagedPolicy(settings, options.ws, result, inputs, head, async (ws, fixed) => {
    const { head: _own, ...rest } = options;
    return (await judgeGate(settings, { ...rest, ws }, fixed)).result;
  });
  return { ...out, durationMs: result.durationMs + (performance.now() - started) };
}

/**
 * Run one gate over `options.ws` and derive its verdict:
 * - inputs() empty -> `skip` in staged mode; in all/files mode `vacuous` unless `allowEmpty` (then `skip`).
 * - run() threw, timed out, or returned `error` -> `error`.
 * - run() read zero files (`counts.files` 0) though it had inputs -> `vacuous`; in staged mode `skip` when the gate
 *   says (`skip`) every input is exempted by the repository's committed config of its tool.
 * - any finding of severity `error` -> `fail`; else `pass`.
 * Never throws.
 */
async function judgeGate<C>(settings: GateSettings<C>, options: RunOptions, fixedInputs?: readonly string[]): Promise<{ result: GateResult; inputs?: readonly string[] }> {
  const seen: { inputs?: readonly string[] } = {};
  const result = await judgeOnce(settings, options, fixedInputs, seen);
  return seen.inputs === undefined ? { result } : { result, inputs: seen.inputs };
}

/** judgeGate's work; `seen.inputs` gets the inputs once they are known (given, or from the gate's inputs()). */
async function judgeOnce<C>(settings: GateSettings<C>, options: RunOptions, fixedInputs: readonly string[] | undefined, seen: { inputs?: readonly string[] }): Promise<GateResult> {
  const { gate } = settings;
  const started = performance.now();
  if (options.bypass === 'all' || options.bypass?.has(gate.id)) {
    return { gate: gate.id, title: gate.title, verdict: 'skip', counts: zeroCounts(), itemUnit: 'items', findings: [], notes: [], reason: BYPASS_REASON, durationMs: 0 };
  }
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const cacheDir = join(options.cacheRoot, gate.id);
  const ctx: GateContext<C> = {
    ws: options.ws,
    config: settings.config,
    signal: controller.signal,
    runTool: options.runTool ?? defaultRunTool,
    cacheDir,
    log: (m) => options.log?.(gate.id, m),
  };
  const base = { gate: gate.id, title: gate.title, itemUnit: 'items', findings: [], notes: [] as string[] };
  // One place for every gate: a credential a gate quotes (a hard-coded Text("ghp_…"), a tool's output line) never
  // reaches a report, the ledger or the terminal.
  const done = (r: Omit<GateResult, 'durationMs'>): GateResult => ({ ...keepMembers(r.findings, redactDeep(r)), durationMs: performance.now() - started });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    const armed = performance.now();
    const fire = () => {
      controller.abort(new Error('timeout'));
      resolve('timeout');
    };
    timer = setTimeout(() => {
      // Fired late: the event loop was held by synchronous work (gates share it: another gate's parser, or this one's),
      // and this gate's finished I/O (a child's exit, a file read) is queued behind timers, unseen. Calling time now
      // would blame whichever gate's timer ran first; one grace period lets queued I/O arrive (a gate that really is
      // still working is called at the end of it: the bound stays finite).
      const late = performance.now() - armed - settings.timeoutMs;
      if (late > LATE_TIMER_MS) timer = setTimeout(fire, Math.min(late, LATE_GRACE_MAX_MS));
      else fire();
    }, settings.timeoutMs);
  });
  try {
    prepareCacheDirs(options.cacheRoot, [gate.id]);
    const inputs = fixedInputs ? [...fixedInputs] : await Promise.race([gate.inputs(ctx), timeout]);
    if (inputs !== 'timeout') seen.inputs = inputs;
    if (inputs === 'timeout') return done({ ...base, verdict: 'error', counts: zeroCounts(), ...timeoutError(gate.id, settings.timeoutMs) });
    if (inputs.length === 0) {
      const targets = (await options.ws.targets()).length;
      if (options.ws.mode === 'staged') {
        return done({ ...base, verdict: 'skip', counts: zeroCounts(), reason: messages.skipNothingStaged(targets) });
      }
      // Named files are a choice, like a commit's staged files: a gate that reads none of them has nothing to judge.
      // (executeRun refuses a --files run in which no gate read anything.)
      if (options.ws.mode === 'files') {
        return done({ ...base, verdict: 'skip', counts: zeroCounts(), reason: messages.skipNoNamedFile(targets) });
      }
      if (settings.allowEmpty) {
        // Files shaped like its inputs outside its selection make allowEmpty's "none here" untrue: name them. Only
        // here (run --all, about to skip): a commit's hook never pays for reading the tree.
        const elsewhere = gate.unselected ? await Promise.race([gate.unselected(ctx, []), timeout]) : null;
        if (elsewhere === 'timeout') return done({ ...base, verdict: 'error', counts: zeroCounts(), ...timeoutError(gate.id, settings.timeoutMs) });
        if (elsewhere) return done({ ...base, verdict: 'skip', counts: zeroCounts(), reason: messages.skipUnselected(elsewhere.files), notes: [elsewhere.fix] });
        return done({ ...base, verdict: 'skip', counts: zeroCounts(), reason: messages.skipAllowEmpty(settings.allowEmpty) });
      }
      return done({
        ...base,
        verdict: 'vacuous',
        counts: zeroCounts(),
        reason: messages.vacuousNoInputs(targets),
        error: { message: messages.vacuousNoInputsError(gate.id), fix: messages.vacuousNoInputsFix(gate.id) },
      });
    }
    const out = await Promise.race([gate.run(ctx, inputs), timeout]);
    if (out === 'timeout') return done({ ...base, verdict: 'error', counts: zeroCounts(), ...timeoutError(gate.id, settings.timeoutMs) });
    const findings = out.findings.map((f) => completeFinding(gate.id, f));
    const counts: Counts = { ...zeroCounts(), ...out.counts, findings: findings.length };
    const common = { ...base, findings, counts, itemUnit: out.itemUnit ?? 'items', notes: out.notes ?? [], ...(out.info?.length ? { info: out.info } : {}), ...(out.waived?.length ? { waived: out.waived } : {}) };
    if (out.error) return done({ ...common, verdict: 'error', reason: out.error.message, error: out.error });
    if (counts.files === 0 && out.skip && options.ws.mode === 'staged' && findings.length === 0) return done({ ...common, verdict: 'skip', reason: out.skip });
    if (counts.files === 0) {
      // A gate that says why it read nothing (a file too large to scan) gave its own cause; silence is a loopgates bug.
      const fix = common.notes.length ? messages.vacuousReadNoneFixNotes(gate.id) : messages.bugFix;
      return done({ ...common, verdict: 'vacuous', reason: messages.vacuousReadNone(inputs.length), error: { message: messages.vacuousReadNoneError(gate.id), fix } });
    }
    if (findings.some((f) => f.severity === 'error')) return done({ ...common, verdict: 'fail' });
    return done({ ...common, verdict: 'pass' });
  } catch (err) {
    // Ctrl-C reaches git and the gates' tools too, so what failed then (a closed cat-file, an aborted worker) is not
    // the cause: the interruption is.
    const outer = options.signal?.aborted ? options.signal.reason : undefined;
    const why = outer instanceof Error ? outer.message : outer !== undefined ? String(outer) : 'aborted';
    const e = options.signal?.aborted
      ? { message: messages.interrupted(gate.id, why), fix: messages.interruptedFix }
      : err instanceof LoopgatesError
        ? { message: err.message, fix: err.fix }
        : { message: messages.gateCrashed(gate.id, err instanceof Error ? err.message : String(err)), fix: messages.crashFix };
    return done({ ...base, verdict: 'error', counts: zeroCounts(), reason: e.message, error: e });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}

/**
 * Create each gate's cache directory `<cacheRoot>/<id>` (recursively; existing ones are kept). Throws LoopgatesError
 * (exit 2) when one cannot be made, naming `cacheRoot`, the OS error (`ENOTDIR`: a file where a directory belongs;
 * `EACCES`, `EPERM`, `EROFS`: not writable) and the fix, removing the cache: every entry in it only saves time and
 * is rebuilt by the next run. The run refuses rather than running without a cache so the cause is seen and fixed.
 */
export function prepareCacheDirs(cacheRoot: string, ids: readonly string[]): void {
  for (const id of ids) {
    try {
      mkdirSync(join(cacheRoot, id), { recursive: true });
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      const code = (e as NodeJS.ErrnoException).code;
      const owner = code === 'EACCES' || code === 'EPERM' ? ' (as the user that owns it, or with sudo)' : '';
      throw new LoopgatesError(messages.cacheUnusable(cacheRoot, why), `${messages.cacheUnusableFix(code === 'ENOTDIR' ? fileInTheWay(cacheRoot) : cacheRoot)}${owner}`);
    }
  }
}

/** The file that stands where a folder of `dir` belongs (ENOTDIR): `dir` itself or the first such parent; else `dir`. */
function fileInTheWay(dir: string): string {
  for (let d = dir; dirname(d) !== d; d = dirname(d)) {
    try {
      if (!statSync(d).isDirectory()) return d;
    } catch {
      /* absent: look higher */
    }
  }
  return dir;
}

function timeoutError(id: string, ms: number): Pick<GateResult, 'reason' | 'error'> {
  const message = messages.timeout(id, ms);
  return { reason: message, error: { message, fix: messages.timeoutFix(id) } };
}

/** Run gates in parallel (at most `concurrency` at once); results in the order given. Never throws. */
export async function runGates(list: ReadonlyArray<GateSettings<any>>, options: RunOptions): Promise<GateResult[]> {
  const results: GateResult[] = new Array(list.length);
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const i = next++;
      results[i] = await runGate(list[i]!, options);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 4, list.length) }, worker));
  return results;
}

/** Whether these results let a commit through: every verdict `pass` or `skip` (DESIGN.md). */
export function allowsCommit(results: readonly GateResult[]): boolean {
  return results.every((r) => r.verdict === 'pass' || r.verdict === 'skip');
}
