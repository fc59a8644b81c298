// `loopgates dump-audit --device`: the dump-audit gate's rules over the device's current screen (one fresh dump).
import type { Verb } from '../core/command.js';
import { LoopgatesError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { auditDump } from '../gates/dump-audit/audit.js';
import { connectAndroid } from '../scripts/device/android.js';
import { clockFrom } from '../scripts/device/clock.js';
import { DumpParseError, parseDump } from '../scripts/device/dump.js';
import { adbContext, deviceConfigOf, worktreeOf } from '../scripts/device/session.js';
import { retriedAs, retriedText, type DumpFailure, type RetriedAs } from '../scripts/tap/loop.js';
import { parseVerbArgs } from './args.js';

export const dumpAuditUsage = `Usage: loopgates dump-audit --device [--serial S] [--format text|json]

Dump the device's current screen once (uiautomator dump, fresh) and judge it with the dump-audit gate's rules:
clickable or focusable nodes no label can address, labels that tap several controls, zero-area controls.
Committed dump files (*.uix, window_dump*.xml) are judged by the gate itself: loopgates run --gate dump-audit.

A failed dump is retried (3 attempts, 500 ms apart) only when uiautomator's message matches a flake signature
(uiautomator-idle-state, uiautomator-null-root in rules/flakes.yaml; loopgates.yaml retry.signatures may replace
them by id) or the dump is empty or torn.

Exit codes: 0 no finding · 1 findings, or the screen could not be dumped · 2 adb, the device or the arguments are broken`;

export const dumpAuditVerb: Verb = {
  name: 'dump-audit',
  summary: "Judge the device's current screen with the dump-audit rules (--device).",
  usage: dumpAuditUsage,
  async run(args, io) {
    const { values } = parseVerbArgs('dump-audit', args, { device: { type: 'boolean' }, serial: { type: 'string' }, format: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, false);
    if (values.help) {
      io.stdout(`${dumpAuditUsage}\n`);
      return 0;
    }
    if (!values.device) throw new LoopgatesError(messages.badArgs('--device is required (committed dump files are judged by: loopgates run --gate dump-audit)', 'dump-audit'), 'loopgates dump-audit --device');
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json') throw new LoopgatesError(messages.badFormat(format, ['text', 'json']), 'use --format text or json (loopgates dump-audit --help)');
    const clock = clockFrom(io.env);
    const { flakes } = deviceConfigOf((await worktreeOf(io)).root);
    const device = await connectAndroid(adbContext(io), values.serial);
    let failure: DumpFailure = { cause: '' };
    let why: RetriedAs | null = null;
    let attempts = 0;
    for (let attempt = 1; attempt <= 3; attempt++) {
      if (attempt > 1) await clock.sleep(500, io.signal);
      attempts = attempt;
      const read = await device.readScreen(io.signal);
      if (!read.ok) {
        failure = read;
      } else {
        try {
          const dump = parseDump(read.xml);
          if (dump.nodes.length > 0) {
            const r = auditDump(dump);
            if (format === 'json') io.stdout(`${JSON.stringify({ device: device.id, ...r }, null, 2)}\n`);
            else {
              for (const f of r.findings) io.stdout(`screen:${f.line}:${f.column}  ${f.rule}  ${f.message}\n`);
              io.stdout(`${device.id}: ${r.counts.nodes} nodes, ${r.counts.clickable} clickable, ${r.counts.unlabeled} unlabeled, ${r.counts.duplicateLabels} labels on several controls, ${r.counts.zeroArea} zero-area: ${r.findings.length} finding${r.findings.length === 1 ? '' : 's'}\n`);
            }
            return r.findings.length ? 1 : 0;
          }
          failure = { cause: 'the dump holds no node (a failed dump, not an empty screen)', check: 'dump-empty' };
        } catch (e) {
          failure = { cause: `the dump is not whole XML (${e instanceof DumpParseError ? e.message : String(e)})`, check: 'dump-torn' };
        }
      }
      why = retriedAs(failure, flakes);
      if (!why) break;
    }
    const retried = why ? `${attempts} attempts, ${retriedText(why)}` : 'no flake signature of rules/flakes.yaml matched, so not retried';
    io.stdout(`RED: the screen of ${device.id} could not be dumped (${retried}): ${failure.cause}\n`);
    return 1;
  },
};
