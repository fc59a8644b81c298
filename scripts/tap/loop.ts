// The tap loop (DESIGN.md "loopgates tap"): dump -> the one node labelled L -> tap the centre of its bounds once ->
// poll dumps for E up to the bound -> red. It never taps twice and never taps a coordinate from an earlier dump: the
// rule a team writes down for agents driving an emulator, as a loop that cannot break it.
import { LoopgatesError } from '../../core/errors.js';
import type { Clock } from '../device/clock.js';
import type { Device, PackageState } from '../device/device.js';
import { boundsText, centreOf, DumpParseError, labelsOf, parseDump, placement, placementText, tapTarget } from '../device/dump.js';
import type { Dump, DumpNode, Placement } from '../device/dump.js';
import { firstMatch, type Signature } from '../retry/match.js';

/** The four answers of the tap loop (DESIGN.md), printed by `loopgates explain` and `loopgates tap --help`. */
export const TAP_LOOP = {
  runs: 'one uiautomator dump, one tap at the centre of the one clickable node labelled L, then dumps every --poll until E appears on the screen (or L is gone)',
  reads: "the device's current window hierarchy (uiautomator dump: text, content-desc, resource-id, clickable, bounds), and pm dump <package> when E never comes",
  ends: "E seen on the screen (a node with an area inside the screen's bounds) in a dump after the tap (pass), or --timeout (default 10 s) after the tap (red); a failed dump is retried only when uiautomator's message matches a flake signature (uiautomator-idle-state, uiautomator-null-root) or the dump is empty or torn, at most 3 times before the tap",
  asks: 'never: a missing, ambiguous or unreachable label, or E not seen by the bound, is red; it never taps a second time',
} as const;

/**
 * The flake signatures a failed dump is retried on (rules/flakes.yaml; a repository signature of the same id in
 * loopgates.yaml replaces the shipped one): uiautomator's own messages while the window is changing.
 */
export const DUMP_FLAKE_IDS = ['uiautomator-idle-state', 'uiautomator-null-root'] as const;

/**
 * loopgates' own checks of the dump file, retried like a flake: a dump with no node (a window caught between two
 * screens) and a file that is not whole XML (read while it was being written). No tool prints these words (they are
 * what the parser found), so they are not signatures: a signature's match is a tool's own message, with its source.
 */
export type DumpFileCheck = 'dump-empty' | 'dump-torn';

/** One failed dump: its cause in one line, what the screen tool printed (when the cause came from it), or the file check that failed. */
export interface DumpFailure {
  cause: string;
  output?: string | undefined;
  check?: DumpFileCheck | undefined;
}

/** Why a failed dump is retried: the flake signature its output matched, or the file check; null when it is not. */
export type RetriedAs = { kind: 'signature'; id: string; origin: Signature['origin'] } | { kind: 'check'; id: DumpFileCheck };

/**
 * The dump signatures (DUMP_FLAKE_IDS) among the flake signatures in force. Throws LoopgatesError (exit 2) when one
 * is missing: a shipped rules/flakes.yaml without them was edited.
 */
export function dumpFlakes(flakes: readonly Signature[]): Signature[] {
  const out: Signature[] = [];
  for (const id of DUMP_FLAKE_IDS) {
    const s = flakes.find((f) => f.spec.id === id);
    if (!s) throw new LoopgatesError(`the flake signature ${id} (a failed uiautomator dump) is not in rules/flakes.yaml`, 'reinstall loopgates: its shipped rules/ were edited');
    out.push(s);
  }
  return out;
}

/** Whether a failed dump is retried, and on what: `firstMatch` of the dump signatures over its output, else its file check. */
export function retriedAs(failure: DumpFailure, flakes: readonly Signature[]): RetriedAs | null {
  if (failure.check) return { kind: 'check', id: failure.check };
  const hit = firstMatch(flakes, [failure.output ?? failure.cause], null);
  return hit ? { kind: 'signature', id: hit.spec.id, origin: hit.origin } : null;
}

/** How a report names why a dump was retried. */
export const retriedText = (r: RetriedAs): string =>
  r.kind === 'signature' ? `flake signature ${r.id} of ${r.origin === 'shipped' ? 'rules/flakes.yaml' : 'loopgates.yaml'}` : `loopgates' file check ${r.id}`;

/** What `loopgates tap` was asked to do. Durations in ms. */
export interface TapRequest {
  label: string;
  /** `exact` (default): equality, case-sensitive; `regex`: a JavaScript regular expression (u flag) searched in each label. */
  match: 'exact' | 'regex';
  expect?: string | undefined;
  /** Pass when L no longer matches any node (may be combined with `expect`: both must hold). */
  expectGone: boolean;
  timeoutMs: number;
  pollMs: number;
  /** The app's package: checked with pm dump when E never comes and the app is not in the foreground. */
  package?: string | undefined;
  /** Dump attempts before the tap (a transient failure is retried up to this many times in all). Default 3. */
  dumpAttempts?: number;
}

/** Why a tap run went red (the `rule` of its report). */
export type TapRule =
  | 'no-match'
  | 'ambiguous'
  | 'not-clickable'
  | 'disabled'
  | 'zero-area'
  | 'off-screen'
  | 'expect-present'
  | 'dump-failed'
  | 'expect-timeout'
  | 'expect-off-screen'
  | 'not-this-build';

/** A node as the report shows it: class, labels, bounds and where it is in the dump (1-based line:column). */
export interface NodeView {
  className: string;
  text: string;
  contentDesc: string;
  resourceId: string;
  bounds: string;
  line: number;
  column: number;
}

/** One dump after the tap. `atMs`: ms since the tap. */
export interface PollOutcome {
  atMs: number;
  /** `off-screen`: E is in the dump only on nodes with no area or outside the screen (not seen). */
  outcome: 'seen' | 'not-yet' | 'off-screen' | 'dump-failed';
  cause?: string;
  /** A failed dump that was retried: the flake signature (or file check) id it was retried on. */
  signature?: string;
}

/** Everything a tap run did, for the text and JSON reports and the ledger. Times in ms (since the run started unless said). */
export interface TapReport {
  verdict: 'pass' | 'fail';
  rule?: TapRule;
  /** Why it is red, in one sentence. */
  reason?: string;
  label: string;
  expect?: string;
  expectGone: boolean;
  device: string;
  /** The node the label was found on, and the clickable node tapped (the same one, or its nearest clickable ancestor). */
  labelled?: NodeView;
  chosen?: NodeView;
  /** no-match: the labels of the clickable nodes on screen; ambiguous: every node the label would tap. */
  candidates?: NodeView[];
  tap?: { x: number; y: number; atMs: number };
  /** Taps sent: 0 or 1, never more. */
  taps: number;
  /** Dump attempts, failed ones included. */
  dumps: number;
  polls: PollOutcome[];
  /** ms from the tap to the dump that showed E. */
  timeToExpectMs?: number;
  elapsedMs: number;
  /** When E never came and `package` was given: the app's state. */
  packageState?: PackageState & { foreground: string | undefined };
  notes: string[];
  virtualClock: boolean;
}

/** One event of a run, for the ledger: the tap and every poll. */
export type TapEvent =
  | { event: 'dump'; atMs: number; ok: boolean; cause?: string; signature?: string }
  | { event: 'tap'; atMs: number; x: number; y: number }
  | { event: 'poll'; atMs: number; outcome: PollOutcome['outcome']; cause?: string; signature?: string };

/** What the loop runs on. `record` receives every event as it happens. */
export interface TapDeps {
  device: Device;
  /** The flake signatures a failed dump is retried on (dumpFlakes of those in force). */
  flakes: readonly Signature[];
  clock: Clock;
  signal?: AbortSignal;
  record?: (e: TapEvent) => void;
}

/** Shown whenever E never came: what the dump cannot see. */
export const ACTIVE_WINDOW_NOTE =
  'uiautomator dump sees only the active window: popups, toasts and some dialogs (and anything drawn over the app) are invisible to it';

/** The matcher of `request.match` for `pattern`. Throws LoopgatesError (exit 2) for an invalid regular expression. */
export function matcher(pattern: string, match: TapRequest['match']): (value: string) => boolean {
  if (match === 'exact') return (v) => v === pattern;
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'u');
  } catch (e) {
    throw new LoopgatesError(`--match regex: ${JSON.stringify(pattern)} is not a valid regular expression: ${e instanceof Error ? e.message : String(e)}`, 'fix the pattern, or drop --match regex to match exactly');
  }
  return (v) => re.test(v);
}

/** Nodes of `dump` carrying a label `matches` accepts, in document order. */
export const labelled = (dump: Dump, matches: (v: string) => boolean): DumpNode[] => dump.nodes.filter((n) => labelsOf(n).some(matches));

export const viewOf = (n: DumpNode): NodeView => ({
  className: n.className,
  text: n.text,
  contentDesc: n.contentDesc,
  resourceId: n.resourceId,
  bounds: n.bounds ? boundsText(n.bounds) : '(no bounds)',
  line: n.line,
  column: n.column,
});

/**
 * The nodes of `dump` carrying a label `matches` accepts, split by placement 'area': `on` the screen (what a user
 * sees), and `off` it (no area, or outside the screen) with where they are.
 */
export function shown(dump: Dump, matches: (v: string) => boolean): { on: DumpNode[]; off: Array<{ node: DumpNode; where: Exclude<Placement, { on: true }> }> } {
  const on: DumpNode[] = [];
  const off: Array<{ node: DumpNode; where: Exclude<Placement, { on: true }> }> = [];
  for (const n of labelled(dump, matches)) {
    const where = placement(dump, n, 'area');
    if (where.on) on.push(n);
    else off.push({ node: n, where });
  }
  return { on, off };
}

/** The outcome of choosing where to tap in one dump. */
export type Choice =
  | { ok: true; labelled: DumpNode; target: DumpNode; point: { x: number; y: number } }
  | { ok: false; rule: TapRule; reason: string; labelled?: DumpNode; target?: DumpNode; candidates: DumpNode[] };

/**
 * Where to tap for `label` in `dump` (pure): the nodes carrying the label, mapped to themselves when clickable or to
 * their nearest clickable ancestor; exactly one distinct target, enabled, with an area, whose centre lies on the screen
 * (the top-level nodes' bounds). Anything else is a red choice with its candidates.
 */
export function chooseTarget(dump: Dump, label: string, matches: (v: string) => boolean): Choice {
  const found = labelled(dump, matches);
  if (found.length === 0) {
    const onScreen = dump.nodes.filter((n) => n.clickable && labelsOf(n).length > 0);
    return { ok: false, rule: 'no-match', reason: `no node is labelled ${JSON.stringify(label)} (text, content-desc or resource-id)`, candidates: onScreen };
  }
  const targets = new Map<number, { target: DumpNode; labelled: DumpNode }>();
  const orphans: DumpNode[] = [];
  for (const n of found) {
    const t = tapTarget(dump, n);
    if (t) {
      if (!targets.has(t.id)) targets.set(t.id, { target: t, labelled: n });
    } else orphans.push(n);
  }
  if (targets.size === 0) {
    return { ok: false, rule: 'not-clickable', reason: `${JSON.stringify(label)} is on ${found.length === 1 ? 'a node' : `${found.length} nodes`} that neither ${found.length === 1 ? 'is' : 'are'} clickable nor ${found.length === 1 ? 'has' : 'have'} a clickable ancestor: a tap there does nothing`, labelled: found[0]!, candidates: orphans };
  }
  if (targets.size > 1) {
    const list = [...targets.values()].map((t) => t.target);
    return { ok: false, rule: 'ambiguous', reason: `${JSON.stringify(label)} labels ${targets.size} clickable nodes: which one to tap is not guessed`, candidates: list };
  }
  const only = [...targets.values()][0]!;
  const { target } = only;
  const base = { labelled: only.labelled, target, candidates: [target] };
  if (!target.enabled) return { ok: false, rule: 'disabled', reason: `the node ${JSON.stringify(label)} taps is disabled (enabled="false"): a tap there does nothing`, ...base };
  const where = placement(dump, target, 'centre');
  if (!where.on && where.why !== 'off-screen') {
    return { ok: false, rule: 'zero-area', reason: `the node ${JSON.stringify(label)} taps has ${placementText(where)}: it cannot be tapped`, ...base };
  }
  if (!where.on) {
    const point = centreOf(where.bounds);
    return {
      ok: false,
      rule: 'off-screen',
      reason: `the centre (${point.x}, ${point.y}) of the node ${JSON.stringify(label)} taps lies outside the screen ${where.screen ? boundsText(where.screen) : '(no bounds)'}: scroll it into view first`,
      ...base,
    };
  }
  return { ok: true, labelled: only.labelled, target, point: centreOf(where.bounds) };
}

/** Read and parse one dump; a device failure, torn XML or a dump with no node is `ok: false` with its cause. */
async function dumpOnce(deps: TapDeps): Promise<{ ok: true; dump: Dump } | ({ ok: false } & DumpFailure)> {
  const read = await deps.device.readScreen(deps.signal);
  if (!read.ok) return read;
  let dump: Dump;
  try {
    dump = parseDump(read.xml);
  } catch (e) {
    const why = e instanceof DumpParseError ? `${e.message} at ${e.line}:${e.column}` : String(e);
    return { ok: false, cause: `the dump is not whole XML (${why})`, check: 'dump-torn' };
  }
  if (dump.nodes.length === 0) return { ok: false, cause: 'the dump holds no node (a failed dump, not an empty screen)', check: 'dump-empty' };
  return { ok: true, dump };
}

/** A report of a run that has done nothing yet (no dump, no tap), red until it passes. */
export function emptyReport(req: Pick<TapRequest, 'label' | 'expect' | 'expectGone'>, device: string, virtualClock: boolean): TapReport {
  return {
    verdict: 'fail',
    label: req.label,
    ...(req.expect !== undefined ? { expect: req.expect } : {}),
    expectGone: req.expectGone,
    device,
    taps: 0,
    dumps: 0,
    polls: [],
    elapsedMs: 0,
    notes: [],
    virtualClock,
  };
}

/**
 * Run the loop once. Never taps more than once. Throws LoopgatesError (exit 2) only when the device or its tool breaks
 * (adb missing, device gone); every red outcome is a report with `verdict: 'fail'`.
 */
export async function runTap(req: TapRequest, deps: TapDeps): Promise<TapReport> {
  const { clock } = deps;
  const started = clock.now();
  const since = () => clock.now() - started;
  const matchesLabel = matcher(req.label, req.match);
  const matchesExpect = req.expect === undefined ? undefined : matcher(req.expect, req.match);
  const report = emptyReport(req, deps.device.id, clock.virtual);
  const red = (rule: TapRule, reason: string): TapReport => {
    report.verdict = 'fail';
    report.rule = rule;
    report.reason = reason;
    report.elapsedMs = since();
    return report;
  };

  // Before the tap: a fresh dump, retried only for known transient causes.
  const attempts = Math.max(1, req.dumpAttempts ?? 3);
  let first: Dump | undefined;
  let failed = 0;
  let last: { cause: string; why: RetriedAs | null } | undefined;
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await clock.sleep(req.pollMs, deps.signal);
    report.dumps++;
    const d = await dumpOnce(deps);
    const why = d.ok ? null : retriedAs(d, deps.flakes);
    deps.record?.({ event: 'dump', atMs: since(), ok: d.ok, ...(d.ok ? {} : { cause: d.cause }), ...(why ? { signature: why.id } : {}) });
    if (d.ok) {
      first = d.dump;
      break;
    }
    failed++;
    last = { cause: d.cause, why };
    if (!why) break;
  }
  if (!first) {
    const { cause, why } = last!;
    const retried = why ? `${failed} attempts, ${retriedText(why)}` : `no flake signature of rules/flakes.yaml matched, so not retried`;
    return red('dump-failed', `the screen could not be dumped before the tap (${retried}): ${cause}; nothing was tapped`);
  }

  const choice = chooseTarget(first, req.label, matchesLabel);
  if (!choice.ok) {
    if (choice.labelled) report.labelled = viewOf(choice.labelled);
    if (choice.target) report.chosen = viewOf(choice.target);
    report.candidates = choice.candidates.map(viewOf);
    return red(choice.rule, `${choice.reason}; nothing was tapped`);
  }
  report.labelled = viewOf(choice.labelled);
  report.chosen = viewOf(choice.target);
  // E on screen already: seeing it after the tap would prove nothing about the tap. E only off the screen (a pager's
  // next page) is not seen, so a tap that brings it on screen proves something.
  if (matchesExpect !== undefined && shown(first, matchesExpect).on.length > 0) {
    return red('expect-present', `${JSON.stringify(req.expect)} is on screen before the tap: seeing it afterwards would prove nothing; expect something only the tap brings; nothing was tapped`);
  }

  // The one tap.
  await deps.device.tap(choice.point.x, choice.point.y, deps.signal);
  const tappedAt = clock.now();
  report.taps = 1;
  report.tap = { ...choice.point, atMs: tappedAt - started };
  deps.record?.({ event: 'tap', atMs: since(), x: choice.point.x, y: choice.point.y });

  const deadline = tappedAt + req.timeoutMs;
  let lastGood: Dump | undefined;
  // E in the last good dump only off the screen: what the red verdict names.
  let offScreen: { atMs: number; nodes: ReturnType<typeof shown>['off'] } | undefined;
  let failedPolls = 0;
  let lastCause = '';
  let lastWhy: RetriedAs | null = null;
  for (;;) {
    const wait = Math.min(req.pollMs, deadline - clock.now());
    if (wait > 0) await clock.sleep(wait, deps.signal);
    report.dumps++;
    const d = await dumpOnce(deps);
    const atMs = clock.now() - tappedAt;
    if (!d.ok) {
      failedPolls++;
      lastCause = d.cause;
      lastWhy = retriedAs(d, deps.flakes);
      const sig = lastWhy ? { signature: lastWhy.id } : {};
      report.polls.push({ atMs, outcome: 'dump-failed', cause: d.cause, ...sig });
      deps.record?.({ event: 'poll', atMs: since(), outcome: 'dump-failed', cause: d.cause, ...sig });
      if (!lastWhy) {
        return red('dump-failed', `a dump after the tap failed and no flake signature of rules/flakes.yaml matched it: ${d.cause} (at ${atMs} ms after the tap; the tap was not repeated)`);
      }
    } else {
      lastGood = d.dump;
      const e = matchesExpect === undefined ? undefined : shown(d.dump, matchesExpect);
      const seen = (e === undefined || e.on.length > 0) && (!req.expectGone || labelled(d.dump, matchesLabel).length === 0);
      offScreen = e !== undefined && e.on.length === 0 && e.off.length > 0 ? { atMs, nodes: e.off } : undefined;
      const outcome = seen ? 'seen' : offScreen ? 'off-screen' : 'not-yet';
      report.polls.push({ atMs, outcome });
      deps.record?.({ event: 'poll', atMs: since(), outcome });
      if (seen) {
        report.verdict = 'pass';
        report.timeToExpectMs = atMs;
        report.elapsedMs = since();
        return report;
      }
    }
    if (clock.now() >= deadline) break;
  }

  const wanted = [req.expect !== undefined ? JSON.stringify(req.expect) : undefined, req.expectGone ? `${JSON.stringify(req.label)} gone` : undefined].filter(Boolean).join(' and ');
  const polls = report.polls.length;
  const lastText = `${lastCause}${lastWhy ? `, ${lastWhy.kind === 'signature' ? `flake signature ${lastWhy.id}` : retriedText(lastWhy)}` : ''}`;
  const tail = failedPolls === polls ? `: every dump since the tap failed (${failedPolls} times; last: ${lastText})` : failedPolls > 0 ? ` (${failedPolls} of ${polls} dumps failed; last: ${lastText})` : '';
  report.notes.push(ACTIVE_WINDOW_NOTE);
  if (req.package !== undefined) {
    const foreground = lastGood ? lastGood.nodes[lastGood.roots[0] ?? 0]?.packageName || undefined : undefined;
    if (foreground !== req.package) {
      const state = await deps.device.packageState(req.package, deps.signal);
      report.packageState = { ...state, foreground };
      const where = foreground ? `the screen shows ${foreground}` : 'no dump showed which app is in front';
      const verdict = !state.installed
        ? 'it is not installed'
        : state.enabled === false
          ? `it is disabled, so it cannot start: enable it (adb shell pm enable ${req.package}) before suspecting the build`
          : 'it is installed and enabled';
      report.notes.push(`${req.package} is not in the foreground (${where}); pm dump: ${state.detail}: ${verdict}`);
    }
  } else {
    report.notes.push('pass --package <app id> to check, when the app is not in front, whether it is installed and enabled (pm dump)');
  }
  if (offScreen) {
    const where = offScreen.nodes.slice(0, 3).map((o) => `${placementText(o.where)} at line ${o.node.line}:${o.node.column}`).join('; ');
    const more = offScreen.nodes.length > 3 ? ` (and ${offScreen.nodes.length - 3} more)` : '';
    return red('expect-off-screen', `${wanted} not seen on the screen within ${req.timeoutMs} ms of the tap${tail}: the last dump (${offScreen.atMs} ms after the tap) holds ${JSON.stringify(req.expect)} only off the screen: ${where}${more}; the tap was not repeated`);
  }
  return red('expect-timeout', `${wanted} not seen within ${req.timeoutMs} ms of the tap${tail}; the tap was not repeated`);
}
