// The tap-loop rules over parsed Maestro flows (README.md beside this file gives each rule's source and policy).
// Command semantics from Maestro's reference (https://docs.maestro.dev/api-reference/commands): which commands act,
// which check the screen with a bound, which only compute; runFlow / retry / repeat are followed both ways.
import picomatch from 'picomatch';
import { compareVersions, type FlowSet } from './discovery.js';
import { allCommands, flowLists, hasExpression, type Command, type CommandList, type Flow, type Pos } from './flow.js';
import type { RuleId } from './config.js';
import { CHECKS, NEUTRAL, obj, SELECTOR_ACTIONS, TAPS, TYPING } from './commands.js';

/** Commands that start the app from a known state. */
const COLD: ReadonlySet<string> = new Set(['stopApp', 'killApp', 'clearState']);

/** A finding before the gate's id, fingerprint and severity policy are applied. */
export interface RawFinding {
  rule: RuleId;
  file: string;
  line: number;
  column: number;
  message: string;
  /** Set when the rule fixes it (point-tap in percent is a warning). */
  severity?: 'warning';
  /** Flows this finding depends on (the tap's flow and every caller or subflow on the path judged). */
  involves: string[];
  /** What the finding is about, for a fingerprint that survives moved lines. */
  subject: string;
}

/** Counters over the judged flows, asserted per corpus project in tests. */
export interface FlowStats {
  flows: number;
  taps: number;
  tapsChecked: number;
  focusTaps: number;
  tapsAcrossRunFlow: number;
  retries: number;
  unboundedRepeats: number;
  pointTaps: number;
  missingFiles: number;
  /** Taps whose only following "check" is a tap on the identical selector (same-selector-tap): not in tapsChecked. */
  sameSelectorTaps: number;
}

export const emptyStats = (): FlowStats => ({ flows: 0, taps: 0, tapsChecked: 0, focusTaps: 0, tapsAcrossRunFlow: 0, retries: 0, unboundedRepeats: 0, pointTaps: 0, missingFiles: 0, sameSelectorTaps: 0 });

const isOptional = (c: Command) => obj(c.arg)?.optional === true;
const isPointTap = (c: Command) => TAPS.has(c.name) && obj(c.arg)?.point !== undefined;
/** A check that fails the flow when it fails (an `optional: true` one proves nothing). */
export const isCheck = (c: Command) => CHECKS.has(c.name) && !isOptional(c);
const where = (c: Command) => `${c.list.flow.path}:${c.pos.line}`;

/**
 * The longest wait that still counts as a bound (fresh6 F6): 5 minutes, 10x the longest wait Maestro itself caps
 * (waitToSettleTimeoutMs at 30 s; its element lookup waits 17 s, scrollUntilVisible 20 s) and 5x the longest in
 * the 118 corpus flows (60 s). A longer timeout waits out a tap that did nothing instead of reporting it.
 */
export const MAX_WAIT_MS = 300_000;
/** The largest counted repeat that is a bound: the corpus counts 3; far above any list or counter a flow taps through. */
export const MAX_REPEAT_TIMES = 1000;

/** Texts no selector names: a regex that full-matches both (case-insensitive, as Maestro) matches any text. */
const PROBES = ['loopgates probe 7Qz', 'Ω\n41'];
const RELATIVE = ['below', 'above', 'leftOf', 'rightOf', 'containsChild', 'childOf'];

/** Why a selector (a check's element) matches whatever is on screen, or undefined when it names something. */
function emptySelector(sel: unknown, depth = 0): string | undefined {
  const text = (s: string) => {
    if (s === '') return 'an empty selector matches any element';
    if (hasExpression(s)) return undefined; // not judged statically (README: known gaps)
    let re: RegExp;
    try {
      re = new RegExp(`^(?:${s})$`, 'is');
    } catch {
      return undefined;
    }
    return PROBES.every((p) => re.test(p)) ? `${JSON.stringify(s)} is a regex matching any text` : undefined;
  };
  if (typeof sel === 'string') return text(sel);
  const o = obj(sel);
  if (!o || depth > 4) return undefined;
  let reason: string | undefined;
  for (const k of ['text', 'id']) {
    const v = o[k];
    if (typeof v !== 'string') continue;
    const r = text(v);
    if (!r) return undefined;
    reason ??= r;
  }
  for (const k of [...RELATIVE, 'containsDescendants']) {
    const v = o[k];
    if (v === undefined) continue;
    for (const inner of Array.isArray(v) ? v : [v]) {
      const r = emptySelector(inner, depth + 1);
      if (!r) return undefined;
      reason ??= `${k}: ${r}`;
    }
  }
  return reason ?? `no text, id or relative selector: ${Object.keys(o).length ? 'any element with these attributes' : 'any element'} matches`;
}

/**
 * Why a (non-optional) check proves nothing about the screen, or undefined: a positive check whose element matches
 * any screen, or a wait above MAX_WAIT_MS. Negative checks (assertNotVisible, notVisible) are not judged: one that
 * matches everything fails the flow, it does not pass it.
 */
export function checksNothing(c: Command): string | undefined {
  const a = obj(c.arg);
  const t = a?.timeout;
  const ms = typeof t === 'number' ? t : typeof t === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(t) ? Number(t) : undefined;
  if (ms !== undefined && ms > MAX_WAIT_MS) return `timeout ${ms} ms (${(ms / 3_600_000).toFixed(1)} h) is above ${MAX_WAIT_MS} ms (5 minutes): it waits out a tap that did nothing instead of reporting it`;
  const sel = c.name === 'assertVisible' ? c.arg : c.name === 'extendedWaitUntil' ? a?.visible : c.name === 'scrollUntilVisible' ? (a?.element ?? (typeof c.arg === 'string' ? c.arg : undefined)) : undefined;
  if (sel === undefined || sel === null) return undefined;
  return emptySelector(sel);
}

/** One path's end when looking forward from a command. */
type Outcome = { kind: 'stop'; cmd: Command; via: string[]; from?: Command } | { kind: 'end'; flow: Flow; via: string[] } | { kind: 'unknown'; via: string[] };
interface Frame {
  list: CommandList;
  index: number;
}
interface State {
  list: CommandList;
  index: number;
  stack: Frame[];
  via: string[];
  /** The command of the starting flow the path left it through (cold-start reports there). */
  from?: Command;
  /** The platform this path runs on, once a `when: {platform: …}` block decided it (lower case). */
  platform?: string;
}

/** The platform of a `when:` that names only a platform (`when: {platform: iOS}`), lower case; else undefined. */
function platformOnly(when: unknown): string | undefined {
  const w = obj(when);
  if (!w || Object.keys(w).length !== 1 || typeof w.platform !== 'string') return undefined;
  return w.platform.toLowerCase();
}

/** The platform a command runs on by the platform-only `runFlow` blocks around it, if any. */
function enclosingPlatform(c: Command): string | undefined {
  for (let l: CommandList | undefined = c.list; l?.owner; l = l.owner.list) {
    const p = l.kind === 'runFlow' ? platformOnly(obj(l.owner.arg)?.when) : undefined;
    if (p) return p;
  }
  return undefined;
}

const MAX_STACK = 16;
const MAX_STATES = 20_000;

/**
 * Every first non-transparent command reachable from `start` (and `end` where a flow run on its own ends first).
 * runFlow (inline or file), retry and repeat are entered; a conditional runFlow, a `while` repeat and a repeat
 * without a literal count may also be skipped; a repeat body may run again. At the end of a flow entered from a
 * caller the path returns there; at the end of the starting flow (or one reached through its callers) the path goes
 * on after each call site (`fanOut`), and ends where the flow is an entry point or has no caller.
 */
function explore(set: FlowSet, start: State, transparent: (c: Command) => boolean, fanOut: boolean): Outcome[] {
  const out: Outcome[] = [];
  const seen = new Set<string>();
  const work: State[] = [start];
  while (work.length) {
    const s = work.pop()!;
    const key = `${s.list.id}:${s.index}:${s.platform ?? ''}:${s.stack.map((f) => `${f.list.id}.${f.index}`).join(',')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (seen.size > MAX_STATES || s.stack.length > MAX_STACK) {
      out.push({ kind: 'unknown', via: s.via });
      continue;
    }
    if (s.index >= s.list.cmds.length) {
      afterList(set, s, work, out, fanOut);
      continue;
    }
    const cmd = s.list.cmds[s.index]!;
    const next: State = { ...s, index: s.index + 1 };
    const leaving = (c: Command) => s.from ?? (c.list.flow === start.list.flow ? c : undefined);
    const enterFile = () => {
      const r = set.resolved.get(cmd);
      const flow = r && 'path' in r ? set.flows.get(r.path) : undefined;
      if (!flow) return out.push({ kind: 'unknown', via: s.via });
      const from = leaving(cmd);
      work.push({ list: entryList(flow), index: 0, stack: [...s.stack, { list: s.list, index: s.index + 1 }], via: [...s.via, flow.path], ...(from ? { from } : {}), ...(s.platform ? { platform: s.platform } : {}) });
    };
    const enterBody = (body: CommandList, platform = s.platform) => {
      const from = s.from;
      work.push({ list: body, index: 0, stack: s.stack, via: s.via, ...(from ? { from } : {}), ...(platform ? { platform } : {}) });
    };
    if (cmd.name === 'runFlow' || cmd.name === 'retry') {
      const when = cmd.name === 'runFlow' ? obj(cmd.arg)?.when : undefined;
      // A platform-only condition is decided once the path knows its platform (an Android block's tap never meets
      // the iOS block after it); other conditions are not evaluated: the block may run or not.
      const p = platformOnly(when);
      if (p && s.platform && p !== s.platform) {
        work.push(next);
        continue;
      }
      if (when !== undefined && !(p && s.platform === p)) work.push(next);
      if (cmd.body) enterBody(cmd.body, p ?? s.platform);
      else if (cmd.ref) enterFile();
      else work.push(next);
      continue;
    }
    if (cmd.name === 'repeat') {
      const a = obj(cmd.arg);
      const times = a?.times;
      const literal = typeof times === 'number' ? times : undefined;
      if (literal === undefined || literal <= 0 || a?.while !== undefined) work.push(next);
      if (cmd.body && literal !== 0) enterBody(cmd.body);
      continue;
    }
    if (transparent(cmd)) {
      work.push(next);
      continue;
    }
    const from = s.from;
    out.push({ kind: 'stop', cmd, via: s.via, ...(from ? { from } : {}) });
  }
  return out;
}

function entryList(flow: Flow): CommandList {
  return flow.onFlowStart ?? flow.main;
}

function afterList(set: FlowSet, s: State, work: State[], out: Outcome[], fanOut: boolean): void {
  const { list } = s;
  const flow = list.flow;
  const carry = { ...(s.from ? { from: s.from } : {}), ...(s.platform ? { platform: s.platform } : {}) };
  if (list.owner) {
    if (list.kind === 'repeat') work.push({ ...s, index: 0 });
    work.push({ list: list.owner.list, index: list.owner.index + 1, stack: s.stack, via: s.via, ...carry });
    return;
  }
  if (list.kind === 'onFlowStart') return void work.push({ ...s, list: flow.main, index: 0 });
  if (list.kind === 'main' && flow.onFlowComplete) return void work.push({ ...s, list: flow.onFlowComplete, index: 0 });
  // The flow ends here.
  const frame = s.stack[s.stack.length - 1];
  if (frame) {
    work.push({ list: frame.list, index: frame.index, stack: s.stack.slice(0, -1), via: [...s.via, frame.list.flow.path], ...carry });
    return;
  }
  const callers = fanOut ? (set.callers.get(flow.path) ?? []) : [];
  for (const c of callers) work.push({ list: c.list, index: c.index + 1, stack: [], via: [...s.via, c.list.flow.path], ...carry });
  if (callers.length === 0 || set.entryPoints.has(flow.path)) out.push({ kind: 'end', flow, via: s.via });
}

/**
 * What runs first after the flow at `path` ends, in each caller (neutral and typing commands skipped, runFlow entered, callers of
 * callers followed): the command names, or `end` where a flow run on its own ends first. Policy data for the
 * delete-check mutation operator (where deleting a subflow's last check must be a defect), not a verdict.
 */
export function nextAfterFlow(set: FlowSet, path: string): string[] {
  const flow = set.flows.get(path);
  if (!flow) return [];
  const out: string[] = [];
  const end: State = { list: flow.onFlowComplete ?? flow.main, index: Number.MAX_SAFE_INTEGER, stack: [], via: [path] };
  // Typing is skipped too: a tap followed by typing is judged by what follows the typing.
  for (const o of explore(set, end, (c) => NEUTRAL.has(c.name) || TYPING.has(c.name), true)) {
    if (o.kind === 'stop') out.push(TAPS.has(o.cmd.name) && obj(o.cmd.arg)?.point !== undefined ? `${o.cmd.name} point` : o.cmd.name);
    else out.push(o.kind);
  }
  return out;
}

/**
 * Whether an option value turns the option off for Maestro: a literal false, or the string "false" (any case Jackson
 * accepts), which Jackson coerces to false. Anything else is judged as on (fail closed): Jackson coerces the string
 * "true", and its default YAML reader also takes yes / on / y as true.
 */
const literallyFalse = (v: unknown): boolean => v === false || (typeof v === 'string' && /^(false|False|FALSE)$/.test(v.trim()));

/**
 * How many taps Maestro makes for a tap's `repeat:` (YamlFluentCommand.tapCommand: N <= 0 is one tap; Jackson
 * truncates a float and reads a numeric string), or why that cannot be known statically.
 */
function tapRepeatCount(v: unknown): number | { bad: string } {
  if (v === undefined || v === null) return 1;
  if (typeof v === 'number') return Math.trunc(v);
  if (typeof v === 'string' && hasExpression(v)) return { bad: 'not a literal: cannot be bounded statically' };
  if (typeof v === 'string' && /^\s*[-+]?\d+(\.\d+)?\s*$/.test(v)) return Math.trunc(Number(v));
  return { bad: 'not a whole number' };
}

/** A tap's options that do not choose the element (https://docs.maestro.dev/api-reference/commands/tapon). */
const TAP_OPTIONS: ReadonlySet<string> = new Set(['retryTapIfNoChange', 'repeat', 'delay', 'waitToSettleTimeoutMs', 'waitUntilVisible', 'label', 'optional']);

/** JSON with object keys sorted at every depth, so equal selectors written in another key order compare equal. */
function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  const o = obj(v);
  if (!o) return JSON.stringify(v) ?? 'null';
  return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`).join(',')}}`;
}

/** The element selector of a tap (`tapOn: "Log in"` is `{text: "Log in"}`), without its options; undefined for a point tap. */
function selectorOf(c: Command): string | undefined {
  if (typeof c.arg === 'string') return stableJson({ text: c.arg });
  const a = obj(c.arg);
  if (!a || a.point !== undefined) return undefined;
  const sel = Object.fromEntries(Object.entries(a).filter(([k]) => !TAP_OPTIONS.has(k)));
  return Object.keys(sel).length ? stableJson(sel) : undefined;
}

/** What judging one tap found. */
interface TapVerdict {
  bad?: string;
  /** A following tap on the identical selector, the only "check" on some path: a warning, not a proof. */
  same?: string;
  focus: boolean;
  crossed: boolean;
  involves: string[];
}

function judgeTap(set: FlowSet, tap: Command, strict: boolean): TapVerdict {
  const transparent = (c: Command) => NEUTRAL.has(c.name) || (CHECKS.has(c.name) && isOptional(c));
  const platform = enclosingPlatform(tap);
  const start: State = { list: tap.list, index: tap.index + 1, stack: [], via: [tap.list.flow.path], ...(platform ? { platform } : {}) };
  const verdict: TapVerdict = { focus: false, crossed: false, involves: [tap.list.flow.path] };
  const involve = (via: string[]) => {
    if (via.length > 1) verdict.crossed = true;
    for (const p of via) if (!verdict.involves.includes(p)) verdict.involves.push(p);
  };
  const judge = (o: Outcome, typed?: Command): string | undefined => {
    involve(o.via);
    const after = typed ? ` (after the typing that ends at ${where(typed)})` : '';
    if (o.kind === 'unknown') return undefined;
    if (o.kind === 'end') {
      const caller = o.flow.path !== tap.list.flow.path ? `; it runs inside ${o.flow.path}, which ends there` : '';
      return `${tap.name} ends the flow${after} with no check of its effect${caller}: add an assertVisible or extendedWaitUntil for what the tap should show`;
    }
    const c = o.cmd;
    if (isCheck(c)) {
      const nothing = checksNothing(c);
      if (!nothing) return undefined;
      return `${tap.name} is followed by ${c.name} at ${where(c)}${after}, which ${nothing.startsWith('timeout') ? 'is no bounded check' : 'checks nothing'} (${nothing}): check for what the tap should show (its text or id), with a timeout of at most ${MAX_WAIT_MS} ms`;
    }
    if (SELECTOR_ACTIONS.has(c.name) && !isPointTap(c)) {
      // The same selector again finds the element the tap just tapped whether or not the screen moved on (a blind
      // re-tap by another name). A warning, not an error: a dialog's own "Delete" after a list's "Delete" is another
      // element with the same label (duckduckgo's corpus flows), which only a check can tell apart.
      // In a row: the same gesture next in the same command list (only neutral commands between). Not the tap itself
      // met again by a repeat (tapping "+" three times is the loop's point), nor one after a conditional block that
      // may have acted (a promo dismissed, then the field tapped again).
      const inRow = !typed && c.name === tap.name && c.list === tap.list && c.index > tap.index && tap.list.cmds.slice(tap.index + 1, c.index).every(transparent);
      const mine = inRow ? selectorOf(tap) : undefined;
      if (!strict && mine !== undefined && selectorOf(c) === mine) {
        verdict.same ??= `${tap.name} is followed by ${c.name} on the same selector at ${where(c)}${after}: the second tap finds the element whether or not this tap moved the screen on, so it does not prove this tap's effect; add an assertVisible or extendedWaitUntil for what this tap should show (a dialog's own button of the same label: assert the dialog) before tapping again`;
        return undefined;
      }
      if (!strict) return undefined;
      return `${tap.name} is followed by ${c.name} at ${where(c)}${after}, which proves its own element is there, not this tap's effect (strictChecks: true): add an assertVisible or extendedWaitUntil after the tap`;
    }
    return `${tap.name} is followed by ${c.name} at ${where(c)}${after} before any bounded check of its effect: add an assertVisible, assertNotVisible or extendedWaitUntil for what the tap should show, right after it`;
  };
  for (const o of explore(set, start, transparent, true)) {
    let bad: string | undefined;
    if (o.kind === 'stop' && TYPING.has(o.cmd.name)) {
      verdict.focus = true;
      involve(o.via);
      const typing = (c: Command) => transparent(c) || TYPING.has(c.name);
      const p2 = enclosingPlatform(o.cmd) ?? platform;
      const again = explore(set, { list: o.cmd.list, index: o.cmd.index + 1, stack: [], via: o.via, ...(p2 ? { platform: p2 } : {}) }, typing, true);
      for (const o2 of again) {
        bad = judge(o2, o.cmd);
        if (bad) break;
      }
    } else bad = judge(o);
    if (bad && !verdict.bad) verdict.bad = bad;
  }
  return verdict;
}

/**
 * The command of `list` a retry body ends with when that is not a bounded check (through unconditional runFlow and
 * nested blocks, reported at the command of `list` that leads there); undefined when it ends in one, or when that
 * cannot be known (a missing subflow, missing-file reports it). An empty body ends in nothing: `null`.
 */
function lastUnchecked(set: FlowSet, list: CommandList, depth = 0): Command | null | undefined {
  if (depth > MAX_STACK) return undefined;
  for (let i = list.cmds.length - 1; i >= 0; i--) {
    const c = list.cmds[i]!;
    if (NEUTRAL.has(c.name)) continue;
    if (c.name === 'runFlow' && obj(c.arg)?.when !== undefined) continue;
    if (c.name === 'runFlow' || c.name === 'retry' || c.name === 'repeat') {
      let inner: CommandList | undefined = c.body;
      if (!inner) {
        const r = set.resolved.get(c);
        const flow = r && 'path' in r ? set.flows.get(r.path) : undefined;
        if (!flow) return undefined;
        inner = flow.onFlowComplete && flow.onFlowComplete.cmds.some((x) => !NEUTRAL.has(x.name)) ? flow.onFlowComplete : flow.main;
      }
      const deeper = lastUnchecked(set, inner, depth + 1);
      return deeper === undefined ? undefined : c;
    }
    return isCheck(c) && !checksNothing(c) ? undefined : c;
  }
  return null;
}

const REGEX_META = /[.+*?()[\]{}|^$\\]/;
const SELECTOR_KEYS = ['text', 'id'];
const NESTED_SELECTORS = ['element', 'visible', 'notVisible', 'childOf', 'below', 'above', 'leftOf', 'rightOf', 'containsChild', 'from'];
const SHORTHAND_SELECTOR: ReadonlySet<string> = new Set(['tapOn', 'doubleTapOn', 'longPressOn', 'assertVisible', 'assertNotVisible', 'copyTextFrom', 'scrollUntilVisible']);

/** Whether a selector value would match more than it says as Maestro's case-insensitive full regex. */
export function looksLikeAccidentalRegex(value: string): boolean {
  if (value.includes('.*')) return false;
  const literal = value.replace(/\$\{[^}]*\}/g, '').replace(/\\./g, '');
  return REGEX_META.test(literal);
}

/** Options the rules need from config. */
export interface JudgeOptions {
  strictChecks: boolean;
  /** Known Maestro version (config or CI), for blind-retap's default. */
  maestroVersion?: string;
  ignoreMissing: readonly string[];
}

/**
 * Judge the flows in `judged` (paths of `set.flows`). Taps of the flows they reach are judged too and reported when
 * the path judged runs through a judged flow (a staged caller can break its subflow's last tap).
 */
export function judgeFlows(set: FlowSet, judged: ReadonlySet<string>, options: JudgeOptions): { findings: RawFinding[]; stats: FlowStats; ignoredMissing: number } {
  const findings: RawFinding[] = [];
  const stats = emptyStats();
  let ignoredMissing = 0;
  const ignore = options.ignoreMissing.length ? picomatch([...options.ignoreMissing], { dot: true }) : () => false;
  const oldMaestro = options.maestroVersion !== undefined && compareVersions(options.maestroVersion, '1.41') < 0;
  const add = (f: Omit<RawFinding, 'line' | 'column'>, pos: Pos) => findings.push({ ...f, line: pos.line, column: pos.column });

  // Taps: of the judged flows and of every flow they reach (reported only when the path crosses a judged flow).
  const tapScope = new Set<string>();
  const reach = [...judged];
  while (reach.length) {
    const p = reach.pop()!;
    if (tapScope.has(p)) continue;
    tapScope.add(p);
    const flow = set.flows.get(p);
    if (!flow) continue;
    for (const l of flowLists(flow)) for (const c of allCommands(l)) {
      const r = set.resolved.get(c);
      if (c.ref?.kind === 'flow' && r && 'path' in r) reach.push(r.path);
    }
  }
  for (const p of [...tapScope].sort()) {
    const flow = set.flows.get(p);
    if (!flow) continue;
    const own = judged.has(p);
    for (const l of flowLists(flow)) {
      for (const c of allCommands(l)) {
        if (!TAPS.has(c.name)) continue;
        const v = judgeTap(set, c, options.strictChecks);
        const same = !v.bad ? v.same : undefined;
        if (own) {
          stats.taps++;
          if (!v.bad && !same) stats.tapsChecked++;
          if (same) stats.sameSelectorTaps++;
          if (v.focus) stats.focusTaps++;
          if (v.crossed) stats.tapsAcrossRunFlow++;
        }
        if (v.bad && (own || v.involves.some((x) => judged.has(x)))) {
          add({ rule: 'tap-without-check', file: p, message: v.bad, involves: v.involves, subject: `${c.name}:${JSON.stringify(c.arg)}` }, c.pos);
        }
        if (same && (own || v.involves.some((x) => judged.has(x)))) {
          add({ rule: 'same-selector-tap', file: p, message: same, involves: v.involves, subject: `same:${c.name}:${JSON.stringify(c.arg)}` }, c.pos);
        }
      }
    }
  }

  for (const p of [...judged].sort()) {
    const flow = set.flows.get(p);
    if (!flow) continue;
    stats.flows++;
    const inv = [p];
    for (const prob of flow.problems) add({ rule: 'invalid-flow', file: p, message: `${p} ${prob.message}`, involves: inv, subject: prob.message }, prob.pos);
    for (const l of flowLists(flow)) {
      for (const c of allCommands(l)) {
        const a = obj(c.arg);
        if (TAPS.has(c.name)) {
          if (a?.point !== undefined) {
            stats.pointTaps++;
            const pos = flow.keyPos(c, 'point') ?? c.pos;
            const point = String(a.point);
            const percent = /^\s*\d+(\.\d+)?%\s*,\s*\d+(\.\d+)?%\s*$/.test(point);
            add(
              {
                rule: 'point-tap',
                file: p,
                message: percent
                  ? `${c.name} at point ${point} (percent of the screen): positions move with screen shape, orientation and system bars; tap a selector instead (text: "<label>" or id: <resource id>)`
                  : `${c.name} at point ${point}${hasExpression(point) ? ' (not a literal: cannot be judged statically)' : ' (pixels)'}: pixel positions differ on every device; tap a selector instead (text: "<label>" or id: <resource id>)`,
                ...(percent ? { severity: 'warning' as const } : {}),
                involves: inv,
                subject: `point:${point}`,
              },
              pos,
            );
          }
          const retap = a?.retryTapIfNoChange;
          if (retap !== undefined && retap !== null && !literallyFalse(retap)) {
            const value = retap === true ? 'true' : `${JSON.stringify(retap)} (not literally false: Maestro's YAML reader, Jackson, takes the string "true" and, by default, yes / on as true; judged as true)`;
            add({ rule: 'blind-retap', file: p, message: `${c.name} with retryTapIfNoChange: ${value} taps again when the screen looks unchanged (a switch toggles twice); remove it and check the tap's effect instead, or write retryTapIfNoChange: false`, involves: inv, subject: `retap:${JSON.stringify(c.arg)}` }, flow.keyPos(c, 'retryTapIfNoChange') ?? c.pos);
          } else if (oldMaestro && c.name === 'tapOn' && !literallyFalse(retap)) {
            add({ rule: 'blind-retap', file: p, message: `tapOn without retryTapIfNoChange: false: Maestro ${options.maestroVersion} (below 1.41) taps again by default when the screen looks unchanged; add retryTapIfNoChange: false`, involves: inv, subject: `retap-default:${JSON.stringify(c.arg)}` }, c.pos);
          }
          // A tap's own `repeat:` (fresh6 F4): blind-retap, not a rule of its own, because it is the same defect with
          // the same fix: taps the flow makes with no look at the screen between them.
          const count = a ? tapRepeatCount(a.repeat) : 1;
          if (typeof count !== 'number' || count > 1) {
            const shown = JSON.stringify(a?.repeat);
            const message =
              c.name !== 'tapOn'
                ? `${c.name} with repeat: ${shown}: Maestro ignores repeat on ${c.name} (a doubleTapOn taps twice, a longPressOn presses once), so the flow does not do what it says; remove repeat, or write a repeat: {times: N, commands: […]} block whose body checks each ${c.name}`
                : typeof count !== 'number'
                  ? `tapOn with repeat: ${shown} is ${count.bad}: Maestro taps that many times at the same point with no check between; tap once and check its effect, or write a repeat: {times: N, commands: [tapOn …, assertVisible …]} block`
                  : `tapOn with repeat: ${shown} taps ${count} times at the same point with no check between (a switch toggles ${count} times; the screen after the first tap is never looked at); tap once and check its effect, or write a repeat: {times: ${count}, commands: [tapOn …, assertVisible …]} block`;
            add({ rule: 'blind-retap', file: p, message, involves: inv, subject: `tap-repeat:${JSON.stringify(c.arg)}` }, flow.keyPos(c, 'repeat') ?? c.pos);
          }
        }
        if (c.name === 'retry') {
          stats.retries++;
          const m = a?.maxRetries;
          const bad =
            m === undefined
              ? 'retry has no maxRetries (Maestro retries once by default): write the bound, maxRetries: 1 to 3'
              : typeof m === 'string' && hasExpression(m)
                ? `retry maxRetries ${m} is not a literal: cannot be bounded statically; write a number from 0 to 3`
                : typeof m !== 'number' || !Number.isInteger(m)
                  ? `retry maxRetries ${JSON.stringify(m)} is not an integer; write a number from 0 to 3`
                  : m < 0
                    ? `retry maxRetries ${m} is negative; write a number from 0 to 3`
                    : m > 3
                      ? `retry maxRetries ${m} is above 3: Maestro silently caps it at 3, so the flow does not do what it says; write 3 or less`
                      : undefined;
          if (bad) add({ rule: 'retry-bound', file: p, message: bad, involves: inv, subject: `retry:${JSON.stringify(m)}` }, flow.keyPos(c, 'maxRetries') ?? c.pos);
          const body = c.body ?? (() => {
            const r = set.resolved.get(c);
            const f = r && 'path' in r ? set.flows.get(r.path) : undefined;
            return f?.main;
          })();
          const last = body ? lastUnchecked(set, body) : undefined;
          if (last !== undefined) {
            const nothing = last && isCheck(last) ? checksNothing(last) : undefined;
            const what = last ? `ends with ${last.name}${last.name === 'runFlow' ? ' (whose flow ends without a check)' : nothing ? `, which checks nothing (${nothing})` : ''}` : 'is empty';
            add({ rule: 'retry-bound', file: p, message: `retry body ${what}, not a check: a failed attempt is not seen, so the retry proves nothing; end it with assertVisible / extendedWaitUntil for the state it must reach`, involves: inv, subject: `retry-body:${last?.name ?? ''}` }, last?.pos ?? c.pos);
          }
        }
        if (c.name === 'repeat') {
          const t = a?.times;
          const bad =
            t === undefined
              ? a?.while !== undefined
                ? 'repeat with while: and no times: Maestro runs it up to Int.MAX times when the condition never changes; add times: <bound>'
                : 'repeat with neither times nor while'
              : typeof t === 'string' && hasExpression(t)
                ? `repeat times ${t} is not a literal: cannot be bounded statically; write a number`
                : typeof t !== 'number' || !Number.isInteger(t) || t < 0
                  ? `repeat times ${JSON.stringify(t)} is not a whole number`
                  : t > MAX_REPEAT_TIMES
                    ? `repeat times ${t} is above ${MAX_REPEAT_TIMES}: a count no list or counter needs stands in for "forever"; write the count the flow needs (${MAX_REPEAT_TIMES} at most) and check what it reaches`
                    : undefined;
          if (bad) {
            stats.unboundedRepeats++;
            add({ rule: 'unbounded-repeat', file: p, message: bad, involves: inv, subject: `repeat:${JSON.stringify(t)}` }, c.pos);
          }
        }
        if (c.ref) {
          const r = set.resolved.get(c);
          if (r && 'notLiteral' in r) {
            stats.missingFiles++;
            add({ rule: 'missing-file', file: p, message: `${c.name} target ${c.ref.raw} is not a literal: cannot be checked statically; name the file`, involves: inv, subject: `ref:${c.ref.raw}` }, c.ref.pos);
          } else if (r && 'missing' in r) {
            if (ignore(r.missing)) ignoredMissing++;
            else {
              stats.missingFiles++;
              add({ rule: 'missing-file', file: p, message: `${c.name} target ${c.ref.raw} (${r.missing}) is not in the snapshot: restore or stage it, fix the path (relative to ${p}), or list a git-ignored file in gates.maestro-flows.ignoreMissing`, involves: inv, subject: `ref:${r.missing}` }, c.ref.pos);
            }
          }
        }
        selectorWarnings(flow, c, (pos, value) => add({ rule: 'regex-selector', file: p, message: `selector ${JSON.stringify(value)} is a case-insensitive full regular expression to Maestro: its metacharacters also match other text ("Item 1+" matches "Item 11", a "." any character); escape them (\\. \\+ \\( …) or write the regex you mean with .*`, involves: inv, subject: `regex:${value}` }, pos));
      }
    }
    if (set.entryPoints.has(p)) coldStart(set, flow, (pos, message) => add({ rule: 'cold-start', file: p, message, involves: inv, subject: 'cold-start' }, pos));
  }
  return { findings, stats, ignoredMissing };
}

function selectorWarnings(flow: Flow, c: Command, warn: (pos: Pos, value: string) => void): void {
  if (SHORTHAND_SELECTOR.has(c.name) && typeof c.arg === 'string') {
    if (looksLikeAccidentalRegex(c.arg)) warn(flow.valuePos(c) ?? c.pos, c.arg);
    return;
  }
  const visit = (v: unknown, path: string[], depth: number) => {
    const o = obj(v);
    if (!o || depth > 4) return;
    for (const k of SELECTOR_KEYS) {
      const s = o[k];
      if (typeof s === 'string' && looksLikeAccidentalRegex(s)) warn(flow.valuePos(c, ...path, k) ?? c.pos, s);
    }
    for (const k of NESTED_SELECTORS) if (o[k] !== undefined) visit(o[k], [...path, k], depth + 1);
    // `when:` / `while:` conditions hold selectors under visible / notVisible.
    for (const k of ['when', 'while']) if (o[k] !== undefined) visit(o[k], [...path, k], depth + 1);
  };
  if (SHORTHAND_SELECTOR.has(c.name) || c.name === 'extendedWaitUntil' || c.name === 'runFlow' || c.name === 'repeat' || c.name === 'swipe') visit(c.arg, [], 0);
}

function coldStart(set: FlowSet, flow: Flow, warn: (pos: Pos, message: string) => void): void {
  const start: State = { list: entryList(flow), index: 0, stack: [], via: [flow.path] };
  for (const o of explore(set, start, (c) => NEUTRAL.has(c.name), false)) {
    if (o.kind !== 'stop') continue;
    const c = o.cmd;
    if (COLD.has(c.name)) continue;
    if (c.name === 'launchApp') {
      const a = obj(c.arg);
      if (a?.stopApp !== false || a?.clearState === true) continue;
    }
    const at = c.list.flow === flow ? c : (o.from ?? c);
    const pos = at.list.flow === flow ? at.pos : { line: 1, column: 1 };
    warn(pos, `entry-point flow starts with ${c.name} at ${where(c)} before a cold launch: it depends on whatever state the app was left in; start with launchApp (stopApp stays true) or launchApp: {clearState: true}`);
    return;
  }
}
