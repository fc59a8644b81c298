// `loopgates tap`: the tap loop (scripts/tap/loop.ts) on the device adb names, with the lease and install checks first.
import type { Verb } from '../core/command.js';
import { parseVerbArgs } from './args.js';
import { LoopgatesError } from '../core/errors.js';
import type { LedgerEntry } from '../core/ledger.js';
import { messages } from '../core/messages.js';
import { connectAndroid } from '../scripts/device/android.js';
import { clockFrom } from '../scripts/device/clock.js';
import { proveInstall } from '../scripts/device/install-proof.js';
import { leaseDir, refuseIfLeasedToOther } from '../scripts/device/lease.js';
import { adbContext, appendDeviceLedger, deviceConfigOf, parseDuration, worktreeOf } from '../scripts/device/session.js';
import { emptyReport, runTap, TAP_LOOP, type NodeView, type TapEvent, type TapReport } from '../scripts/tap/loop.js';

/** Defaults of the loop's bounds (ms): the rule teams write down is "poll up to 10 s for the expected label". */
export const TAP_DEFAULTS = { timeoutMs: 10_000, pollMs: 500 } as const;

export const tapUsage = `Usage: loopgates tap --label <L> (--expect <E> | --expect-gone) [options]

Dump the screen, find the one clickable node labelled L, tap the centre of its bounds once, then dump every --poll
until E appears on the screen (or L is gone), up to --timeout: red at the bound. One tap per run, ever; never a coordinate from
an earlier dump, never a guess between two candidates.

L and E match a node's text, content-desc or resource-id (the full id, or the part after '/', as Compose testTags
appear), exactly and case-sensitively. A label on a node that is not clickable taps its nearest clickable ancestor.

Options:
  --label <L>          what to tap (required)
  --expect <E>         pass when a dump after the tap shows E on the screen: a node with an area inside the screen
                       (E only off it or zero-area is not seen; E already on screen before the tap is refused)
  --expect-gone        pass when L no longer shows (with --expect: both must hold)
  --match regex        L and E are JavaScript regular expressions searched in each label (default: exact)
  --serial <S>         the device (adb devices); required when several are attached
  --timeout <dur>      how long to poll after the tap (default 10s; 500ms, 10s, 2m)
  --poll <dur>         time between dumps (default 500ms)
  --package <pkg>      the app's id: when E never comes and the app is not in front, pm dump says whether it is
                       installed and enabled (default: loopgates.yaml device.package)
  --apk <path>         first prove the app on the device is this build (sha256 of <path> = the installed APK's);
                       needs --package (or device.package)
  --format text|json   json: the chosen node, its bounds, the tap point, each poll's outcome, the time to E
  -h, --help           this text

The four answers:
  runs   ${TAP_LOOP.runs}
  reads  ${TAP_LOOP.reads}
  ends   ${TAP_LOOP.ends}
  asks   ${TAP_LOOP.asks}

Refuses (exit 2) when adb is missing, no device or several devices are attached without --serial, or the device is
leased to another worktree (loopgates device status). Every tap and poll goes to the ledger (labels only, no other
screen text). LOOPGATES_CLOCK=<file> makes time virtual (for scripted devices: sleeps advance the file, nothing waits).

Exit codes: 0 E seen · 1 red (no such label, ambiguous, unreachable, E not seen by the bound, not this build) ·
2 adb, the device or the arguments are broken`;

const nodeText = (n: NodeView): string => {
  const label = n.text || n.contentDesc || n.resourceId || '(no label)';
  return `${n.className.slice(n.className.lastIndexOf('.') + 1)} ${JSON.stringify(label)} ${n.bounds} (dump ${n.line}:${n.column})`;
};

/** The text report of one run. */
export function tapText(r: TapReport): string {
  const out: string[] = [];
  const clock = r.virtualClock ? ' (virtual clock)' : '';
  if (r.chosen) {
    const via = r.labelled && (r.labelled.line !== r.chosen.line || r.labelled.column !== r.chosen.column) ? `, labelled on its child ${nodeText(r.labelled)}` : '';
    out.push(`node: ${nodeText(r.chosen)}${via}`);
  }
  if (r.tap) out.push(`tap: (${r.tap.x}, ${r.tap.y}) once`);
  for (const p of r.polls) out.push(`  poll +${p.atMs} ms: ${p.outcome}${p.cause ? ` (${p.cause})` : ''}`);
  if (r.verdict === 'pass') {
    out.push(`PASS ${[r.expect !== undefined ? JSON.stringify(r.expect) : undefined, r.expectGone ? `${JSON.stringify(r.label)} gone` : undefined].filter(Boolean).join(' and ')} seen ${r.timeToExpectMs} ms after the tap${clock}; ${r.taps} tap, ${r.dumps} dumps`);
  } else {
    if (r.candidates?.length) {
      out.push(r.rule === 'no-match' ? 'clickable labels on screen:' : 'candidates:');
      for (const c of r.candidates.slice(0, 30)) out.push(`  ${nodeText(c)}`);
      if (r.candidates.length > 30) out.push(`  … and ${r.candidates.length - 30} more`);
    }
    out.push(`RED (${r.rule}): ${r.reason}`);
    out.push(`  ${r.taps} tap${r.taps === 1 ? '' : 's'}, ${r.dumps} dumps, ${r.elapsedMs} ms${clock}`);
  }
  for (const n of r.notes) out.push(`note: ${n}`);
  return `${out.join('\n')}\n`;
}

/** The end of a run, as its last ledger line. */
interface TapEnd {
  event: 'end';
  atMs: number;
  verdict: string;
  rule?: string;
  taps: number;
  dumps: number;
}

/** One ledger line per tap, poll and end (DESIGN.md "ledger"): the labels asked for, never other screen text. */
function ledgerLine(labels: { label: string; expect?: string | undefined }, device: string, e: TapEvent | TapEnd): LedgerEntry {
  const verdict = e.event === 'end' ? e.verdict : e.event === 'poll' ? e.outcome : e.event === 'dump' ? (e.ok ? 'ok' : 'dump-failed') : 'sent';
  const { event, atMs, ...rest } = e;
  return { ts: new Date().toISOString(), kind: 'tap', gate: 'tap', ...rest, verdict, event, label: labels.label, ...(labels.expect !== undefined ? { expect: labels.expect } : {}), device, atMs };
}

/** The `tap` verb. */
export const tapVerb: Verb = {
  name: 'tap',
  summary: 'Tap the one node labelled L on the device once, then poll for E up to a bound (red, never a second tap).',
  usage: tapUsage,
  async run(args, io) {
    const { values } = parseVerbArgs(
      'tap',
      args,
      {
        label: { type: 'string' },
        expect: { type: 'string' },
        'expect-gone': { type: 'boolean' },
        match: { type: 'string' },
        serial: { type: 'string' },
        timeout: { type: 'string' },
        poll: { type: 'string' },
        package: { type: 'string' },
        apk: { type: 'string' },
        format: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      false,
    );
    if (values.help) {
      io.stdout(`${tapUsage}\n`);
      return 0;
    }
    const bad = (why: string) => new LoopgatesError(messages.badArgs(why, 'tap'), 'loopgates tap --help');
    if (values.label === undefined || values.label === '') throw bad('--label <L> is required: what to tap');
    if (values.expect === undefined && !values['expect-gone']) throw bad('say what the tap must bring: --expect <E> or --expect-gone (a tap whose effect is not checked proves nothing)');
    const match = values.match ?? 'exact';
    if (match !== 'exact' && match !== 'regex') throw bad(`--match ${match}: use exact or regex`);
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json') throw new LoopgatesError(messages.badFormat(format, ['text', 'json']), 'use --format text or json (loopgates tap --help)');
    const timeoutMs = values.timeout === undefined ? TAP_DEFAULTS.timeoutMs : parseDuration('--timeout', values.timeout, 'tap', 1, 600_000);
    const pollMs = values.poll === undefined ? TAP_DEFAULTS.pollMs : parseDuration('--poll', values.poll, 'tap', 10, 60_000);

    const clock = clockFrom(io.env);
    const where = await worktreeOf(io);
    const config = deviceConfigOf(where.root);
    const pkg = values.package ?? config.device?.package;
    if (values.apk !== undefined && pkg === undefined) throw bad('--apk needs --package <pkg> (or device.package in loopgates.yaml): the installed app to compare it with');
    const device = await connectAndroid(adbContext(io), values.serial);
    refuseIfLeasedToOther(leaseDir(io.env), device.id, where.root, clock);
    const entries: LedgerEntry[] = [];
    const labels = { label: values.label, expect: values.expect };
    const emit = (r: TapReport, exit: number): number => {
      io.stdout(format === 'json' ? `${JSON.stringify(r, null, 2)}\n` : tapText(r));
      return exit;
    };
    try {
      if (values.apk !== undefined) {
        const proof = await proveInstall(device, values.apk, pkg!, io.signal);
        entries.push({ ts: new Date().toISOString(), kind: 'device', gate: 'verify-install', verdict: proof.same ? 'pass' : 'fail', device: device.id, package: proof.package, built: proof.built });
        if (!proof.same) {
          const r: TapReport = {
            ...emptyReport({ label: values.label, expect: values.expect, expectGone: values['expect-gone'] === true }, device.id, clock.virtual),
            rule: 'not-this-build',
            reason: `${proof.reason}; nothing was dumped or tapped`,
          };
          return emit(r, 1);
        }
      }
      const report = await runTap(
        { label: values.label, match, expect: values.expect, expectGone: values['expect-gone'] === true, timeoutMs, pollMs, package: pkg },
        { device, clock, flakes: config.flakes, signal: io.signal, record: (e) => entries.push(ledgerLine(labels, device.id, e)) },
      );
      entries.push(ledgerLine(labels, device.id, { event: 'end', verdict: report.verdict, ...(report.rule ? { rule: report.rule } : {}), taps: report.taps, dumps: report.dumps, atMs: report.elapsedMs }));
      return emit(report, report.verdict === 'pass' ? 0 : 1);
    } finally {
      await appendDeviceLedger(io, where, entries);
    }
  },
};
