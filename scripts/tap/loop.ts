// The tap loop (DESIGN.md "loopgates tap"): dump -> the one node labelled L -> tap the centre of its bounds once ->
// poll dumps for E up to the bound -> red. It never taps twice and never taps a coordinate from an earlier dump: the
// rule a team writes down for agents driving an emulator, as a loop that cannot break it.
import { LoopgatesError } from '../../core/errors.js';
import type { Clock } from '../device/clock.js';
import type { Device, PackageState } from '../device/device.js';
import { boundsText, centreOf, contains, DumpParseError, labelsOf, parseDump, screenBounds, tapTarget, zeroArea } from '../device/dump.js';
import type { Bounds, Dump, DumpNode } from '../device/dump.js';

/** The four answers of the tap loop (DESIGN.md), printed by `loopgates explain` and `loopgates tap --help`. */
export const TAP_LOOP = {
  runs: 'one uiautomator dump, one tap at the centre of the one clickable node labelled L, then dumps every --poll until E appears (or L is gone)',
  reads: "the device's current window hierarchy (uiautomator dump: text, content-desc, resource-id, clickable, bounds), and pm dump <package> when E never comes",
  ends: 'E seen in a dump after the tap (pass), or --timeout (default 10 s) after the tap (red); a failed dump is retried only when its cause is a known transient one, at most 3 times before the tap',
  asks: 'never: a missing, ambiguous or unreachable label, or E not seen by the bound, is red; it never taps a second time',
} as const;

/** Failed dumps worth another try: the causes uiautomator itself prints while the UI is busy (DumpCommand.java). */
export const TRANSIENT_DUMP_FAILURES: ReadonlyArray<{ id: string; pattern: RegExp; source: string }> = [
  { id: 'uiautomator-idle', pattern: /ERROR: could not get idle state/, source: 'AOSP frameworks/testing uiautomator DumpCommand: UiAutomation.waitForIdle timed out (animations, a busy main thread)' },
  { id: 'uiautomator-null-root', pattern: /ERROR: null root node returned by UiTestAutomationBridge/, source: 'AOSP uiautomator DumpCommand: getRootInActiveWindow() returned null (window changing)' },
  { id: 'dump-empty', pattern: /^the dump holds no node/, source: 'a window caught between two screens dumps as <hierarchy/> with no node' },
  { id: 'dump-torn', pattern: /^the dump is not whole XML/, source: 'a dump file read while it was still being written' },
];

/** Whether a failed dump's cause is a known transient one (retried); anything else is red at once. */
export const isTransientDumpFailure = (cause: string): boolean => TRANSIENT_DUMP_FAILURES.some((f) => f.pattern.test(cause));

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
  outcome: 'seen' | 'not-yet' | 'dump-failed';
  cause?: string;
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
  | { event: 'dump'; atMs: number; ok: boolean; cause?: string }
  | { event: 'tap'; atMs: number; x: number; y: number }
  | { event: 'poll'; atMs: number; outcome: PollOutcome['outcome']; cause?: string };

/** What the loop runs on. `record` receives every event as it happens. */
export interface TapDeps {
  device: Device;
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
  if (!target.bounds || zeroArea(target.bounds)) {
    return { ok: false, rule: 'zero-area', reason: `the node ${JSON.stringify(label)} taps has ${target.bounds ? `zero area (bounds ${boundsText(target.bounds)})` : 'no bounds'}: it cannot be tapped`, ...base };
  }
  const point = centreOf(target.bounds);
  const screen: Bounds | undefined = screenBounds(dump);
  if (!screen || !contains(screen, point.x, point.y)) {
    return {
      ok: false,
      rule: 'off-screen',
      reason: `the centre (${point.x}, ${point.y}) of the node ${JSON.stringify(label)} taps lies outside the screen ${screen ? boundsText(screen) : '(no bounds)'}: scroll it into view first`,
      ...base,
    };
  }
  return { ok: true, labelled: only.labelled, target, point };
}

/** Read and parse one dump; a device failure, torn XML or a dump with no node is `ok: false` with its cause. */
async function dumpOnce(deps: TapDeps): Promise<{ ok: true; dump: Dump } | { ok: false; cause: string }> {
  const read = await deps.device.readScreen(deps.signal);
  if (!read.ok) return read;
  let dump: Dump;
  try {
    dump = parseDump(read.xml);
  } catch (e) {
    const why = e instanceof DumpParseError ? `${e.message} at ${e.line}:${e.column}` : String(e);
    return { ok: false, cause: `the dump is not whole XML (${why})` };
  }
  if (dump.nodes.length === 0) return { ok: false, cause: 'the dump holds no node (a failed dump, not an empty screen)' };
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
  const causes: string[] = [];
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await clock.sleep(req.pollMs, deps.signal);
    report.dumps++;
    const d = await dumpOnce(deps);
    deps.record?.({ event: 'dump', atMs: since(), ok: d.ok, ...(d.ok ? {} : { cause: d.cause }) });
    if (d.ok) {
      first = d.dump;
      break;
    }
    causes.push(d.cause);
    if (!isTransientDumpFailure(d.cause)) break;
  }
  if (!first) {
    const last = causes[causes.length - 1]!;
    const retried = isTransientDumpFailure(last) ? `${causes.length} attempts` : `not a known transient failure, so not retried`;
    return red('dump-failed', `the screen could not be dumped before the tap (${retried}): ${last}; nothing was tapped`);
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
  // E on screen already: seeing it after the tap would prove nothing about the tap.
  if (matchesExpect !== undefined && labelled(first, matchesExpect).length > 0) {
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
  let failedPolls = 0;
  let lastCause = '';
  for (;;) {
    const wait = Math.min(req.pollMs, deadline - clock.now());
    if (wait > 0) await clock.sleep(wait, deps.signal);
    report.dumps++;
    const d = await dumpOnce(deps);
    const atMs = clock.now() - tappedAt;
    if (!d.ok) {
      failedPolls++;
      lastCause = d.cause;
      report.polls.push({ atMs, outcome: 'dump-failed', cause: d.cause });
      deps.record?.({ event: 'poll', atMs: since(), outcome: 'dump-failed', cause: d.cause });
      if (!isTransientDumpFailure(d.cause)) {
        return red('dump-failed', `a dump after the tap failed and its cause is not a known transient one: ${d.cause} (at ${atMs} ms after the tap; the tap was not repeated)`);
      }
    } else {
      lastGood = d.dump;
      const seen = (matchesExpect === undefined || labelled(d.dump, matchesExpect).length > 0) && (!req.expectGone || labelled(d.dump, matchesLabel).length === 0);
      report.polls.push({ atMs, outcome: seen ? 'seen' : 'not-yet' });
      deps.record?.({ event: 'poll', atMs: since(), outcome: seen ? 'seen' : 'not-yet' });
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
  const tail = failedPolls === polls ? `: every dump since the tap failed (${failedPolls} times; last: ${lastCause})` : failedPolls > 0 ? ` (${failedPolls} of ${polls} dumps failed; last: ${lastCause})` : '';
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
  return red('expect-timeout', `${wanted} not seen within ${req.timeoutMs} ms of the tap${tail}; the tap was not repeated`);
}
