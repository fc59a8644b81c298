// How a retry run is reported: the summary lines (text), one JSON document with every attempt, and JUnit XML in
// Maven Surefire's rerun format (<flakyFailure>, <rerunFailure>, <flakyError>, <rerunError>), which Trunk, Buildkite
// Test Analytics and Datadog read (https://maven.apache.org/surefire/maven-surefire-plugin/examples/rerun-failing-tests.html).
// Last lines and argv arrive redacted (engine.ts, core/redact.ts redactOutput): every sink here prints the same text.
import type { RetryReport } from './engine.js';

/** The closing lines of a text run (stderr): the outcome in its words, the command's exit code, the evidence. */
export function retryText(r: RetryReport): string {
  const out: string[] = [];
  const code = r.commandExitCode === null ? (r.attempts.at(-1)?.termSignal ? `ended by ${r.attempts.at(-1)!.termSignal}` : 'no exit code') : `exit ${r.commandExitCode}`;
  switch (r.outcome) {
    case 'PASSED':
      out.push(`loopgates retry: ${r.label} (command ${code})`);
      break;
    case 'FLAKY':
      out.push(`loopgates retry: ${r.label} — passed after a retry forgiven by the known flake ${r.signature} (command ${code})${r.exitCode === 1 ? '; --fail-on-flaky: exit 1' : ''}`);
      break;
    case 'FAILED':
      out.push(`loopgates retry: ${r.label} — no known flake signature matched: the change is to blame (command ${code})`);
      break;
    case 'FAILED-AFTER-RETRY':
      out.push(`loopgates retry: ${r.label} — still failing after the retry the known flake ${r.signature} earned (command ${code})`);
      break;
    case 'TIMEOUT':
      out.push(`loopgates retry: ${r.label} — attempt ${r.attempts.length} did not finish within its --timeout; its process group was ended`);
      break;
    case 'ASK-HUMAN':
      out.push(`loopgates retry: ${r.label} — stopped to ask a human (command ${code})`);
      if (r.breach) {
        out.push(`  evidence (${r.breach.reason === 'same-cause' ? `the same failure fingerprint ${r.breach.bound} times in a row` : `${r.breach.bound} failures for task '${r.task}'`}):`);
        for (const e of r.breach.evidence) out.push(`    ${e.ts}  ${e.verdict === 'timeout' ? 'timeout' : `exit ${e.exitCode ?? '-'}`}  fingerprint ${e.fingerprint ?? '-'}  (run ${e.run ?? '-'}, attempt ${e.attempt ?? '-'})`);
        const last = r.attempts.at(-1);
        if (last?.lastLines.length) out.push('  last lines of the latest attempt:', ...last.lastLines.map((l) => `    ${l}`));
      }
      if (r.ask) out.push(`  a person must: ${r.ask}`);
      break;
    case 'INTERRUPTED':
      out.push(`loopgates retry: ${r.label} — interrupted; the command's process group was ended`);
      break;
  }
  for (const w of r.warnings) out.push(`loopgates retry: WARNING: ${w}`);
  return `${out.join('\n')}\n`;
}

/** The JSON document of `--format json`: every attempt, the outcome, both exit codes; last lines redacted. */
export function retryJson(r: RetryReport, version: string): string {
  const doc = {
    tool: 'loopgates',
    version,
    verb: 'retry',
    outcome: r.outcome,
    label: r.label,
    exitCode: r.exitCode,
    commandExitCode: r.commandExitCode,
    argv: r.argv,
    task: r.task,
    cmd: r.cmd,
    maxAttempts: r.maxAttempts,
    ...(r.signature ? { signature: r.signature } : {}),
    ...(r.ask ? { ask: r.ask } : {}),
    ...(r.breach ? { breach: { reason: r.breach.reason, bound: r.breach.bound, evidence: r.breach.evidence.map((e) => ({ ts: e.ts, verdict: e.verdict, exitCode: e.exitCode ?? null, fingerprint: e.fingerprint ?? null, run: e.run ?? null, attempt: e.attempt ?? null })) } } : {}),
    attempts: r.attempts.map((a) => ({ ...a, durationMs: Math.round(a.durationMs), lastLines: a.lastLines })),
    warnings: r.warnings,
    ledger: r.ledger,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

const xml = (s: string) =>
  s
    // Characters XML 1.0 cannot hold at all (C0 controls but tab/newline/return) are dropped.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/**
 * JUnit XML for `--junit FILE`: one testcase for the command. Passed after failures: one <flakyFailure> (or
 * <flakyError> for a timeout) per failed attempt. Failed: <failure> (or <error>) for the first failed attempt, then
 * <rerunFailure> / <rerunError> for each later one. ASK-HUMAN is a <failure type="ASK-HUMAN(...)">.
 */
export function retryJunit(r: RetryReport): string {
  const total = r.attempts.reduce((s, a) => s + a.durationMs, 0) / 1000;
  const failedAttempts = r.attempts.filter((a) => a.verdict === 'fail' || a.verdict === 'timeout');
  const passed = r.outcome === 'PASSED' || r.outcome === 'FLAKY';
  const body = (a: (typeof r.attempts)[number], tag: string, type: string) => {
    const message = `attempt ${a.attempt}: ${a.verdict === 'timeout' ? 'timeout' : a.exitCode === null ? `signal ${a.termSignal}` : `exit ${a.exitCode}`}${a.signature ? `; known flake ${a.signature}` : ''}${a.blocker ? `; human blocker ${a.blocker}` : ''}; fingerprint ${a.fingerprint ?? '-'}`;
    const tail = a.lastLines.join('\n');
    return `      <${tag} message="${xml(message)}" type="${xml(type)}"><system-err>${xml(tail)}</system-err></${tag}>`;
  };
  const lines: string[] = [];
  if (passed) {
    for (const a of failedAttempts) lines.push(body(a, a.verdict === 'timeout' ? 'flakyError' : 'flakyFailure', a.signature ?? a.verdict));
  } else if (r.outcome !== 'INTERRUPTED') {
    failedAttempts.forEach((a, i) => {
      const error = a.verdict === 'timeout';
      const tag = i === 0 ? (error ? 'error' : 'failure') : error ? 'rerunError' : 'rerunFailure';
      lines.push(body(a, tag, i === 0 ? r.label : (a.signature ?? a.verdict)));
    });
  } else lines.push('      <skipped message="interrupted"/>');
  const failures = !passed && r.outcome !== 'TIMEOUT' && r.outcome !== 'INTERRUPTED' ? 1 : 0;
  const errors = r.outcome === 'TIMEOUT' ? 1 : 0;
  const skipped = r.outcome === 'INTERRUPTED' ? 1 : 0;
  const name = xml(r.argv.join(' '));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="loopgates retry" tests="1" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${total.toFixed(3)}">`,
    `  <testsuite name="loopgates retry" tests="1" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${total.toFixed(3)}">`,
    `    <testcase classname="loopgates.retry" name="${name}" time="${total.toFixed(3)}">`,
    ...lines,
    `      <system-out>${xml(`${r.label} (task ${r.task})`)}</system-out>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
