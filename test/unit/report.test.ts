// Reports: text lines with counts, json, SARIF 2.1.0, GitHub workflow commands.
import { describe, expect, it } from 'vitest';
import { formatReport } from '../../core/report.js';
import type { RunReport } from '../../core/report.js';
import type { Counts, GateResult } from '../../core/types.js';

const counts = (c: Partial<Counts>): Counts => ({ files: 0, items: 0, filtered: 0, suppressed: 0, findings: 0, ...c });
const results: GateResult[] = [
  { gate: 'secrets', title: 'Secrets', verdict: 'pass', counts: counts({ files: 3 }), itemUnit: 'items', findings: [], notes: [], durationMs: 5 },
  {
    gate: 'strings',
    title: 'Strings',
    verdict: 'fail',
    counts: counts({ files: 41, items: 1204, filtered: 3, findings: 2 }),
    itemUnit: 'strings',
    findings: [
      { gate: 'strings', rule: 'missing-key', file: 'res/values-de/strings.xml', line: 12, column: 5, message: 'key `a` missing', severity: 'error', fingerprint: 'f1' },
      { gate: 'strings', rule: 'odd', file: 'we,ird:na\nme.xml', line: 1, column: 1, message: '100% odd\nsecond line', severity: 'warning', fingerprint: 'f2' },
    ],
    notes: ['allow-list entry removed 3 of 3'],
    info: ['7 catalog keys the code asks for were looked up'],
    durationMs: 9,
  },
  { gate: 'parity', title: 'Parity', verdict: 'skip', counts: counts({}), itemUnit: 'items', findings: [], notes: [], reason: 'no files for inspection (4 staged, none read by this gate)', durationMs: 1 },
  { gate: 'flows', title: 'Flows', verdict: 'error', counts: counts({}), itemUnit: 'items', findings: [], notes: [], reason: 'maestro was not found on PATH', error: { message: 'maestro was not found on PATH', fix: 'install maestro' }, durationMs: 1 },
];
const report: RunReport = { version: '0.1.0', mode: 'staged', root: '/repo with space', targets: 4, results, exitCode: 2, notes: ['no /repo/loopgates.yaml: using the defaults (write one with: loopgates install)'] };

describe('text report', () => {
  it('one verdict line per gate with counts, findings as file:line:col  rule  message, reasons and fixes', () => {
    const text = formatReport(report, 'text');
    const lines = text.split('\n');
    expect(lines[0]).toBe('loopgates 0.1.0 · staged: 4 files from the index');
    expect(lines).toContain('secrets  pass    scanned 3 files, 0 findings');
    expect(lines).toContain('strings  fail    scanned 41 files, 1,204 strings, 3 filtered, 2 findings');
    expect(lines).toContain('  res/values-de/strings.xml:12:5  missing-key  key `a` missing');
    expect(lines).toContain('  "we,ird:na\\nme.xml":1:1  odd  warning  100% odd');
    expect(lines).toContain('  warning: allow-list entry removed 3 of 3');
    // A fact about what the gate read is a note, not a warning (fresh-user-3 F6).
    expect(lines).toContain('  note: 7 catalog keys the code asks for were looked up');
    expect(text).not.toContain('warning: 7 catalog keys');
    expect(lines).toContain('parity   skip    scanned 0 files, 0 findings — no files for inspection (4 staged, none read by this gate)');
    expect(lines).toContain('flows    error   scanned 0 files, 0 findings — maestro was not found on PATH');
    expect(lines).toContain('  fix: install maestro');
    expect(lines.at(-2)).toBe('1 pass · 1 fail · 1 skip · 1 error — refused: loopgates could not prove the check (exit 2)');
    // Outside the index (--all, --files) there is no commit to refuse.
    expect(formatReport({ ...report, mode: 'all' }, 'text').split('\n').at(-2)).toBe('1 pass · 1 fail · 1 skip · 1 error — loopgates could not prove the check (exit 2)');
    expect(text).not.toMatch(/\u001b\[/);
    expect(formatReport(report, 'text', { color: true })).toMatch(/\u001b\[/);
  });
});

describe('findings already in HEAD (staged: introduced)', () => {
  it('the verdict line says the old findings are not this commit\'s and not counted (was "1 finding, 1 already in HEAD")', () => {
    const parity: GateResult = {
      gate: 'parity',
      title: 'Parity',
      verdict: 'pass',
      counts: counts({ files: 6, items: 12, findings: 1 }),
      itemUnit: 'strings',
      findings: [{ gate: 'parity', rule: 'missing-key', file: 'res/values/strings.xml', line: 5, column: 3, message: '`bye` is missing in 2 of 2 locale files: ca, de', severity: 'warning', fingerprint: 'f3' }],
      notes: [],
      durationMs: 1,
      staged: { policy: 'introduced', preExisting: { errors: 1, warnings: 0, files: ['res/values-ca/strings.xml'] }, head: 'run' },
    };
    const lines = formatReport({ ...report, results: [parity], exitCode: 0 }, 'text').split('\n');
    expect(lines).toContain('parity  pass    scanned 6 files, 12 strings, 1 finding, 1 more already in HEAD (not introduced by this commit: not counted)');
    const none = formatReport({ ...report, results: [{ ...parity, counts: counts({ files: 6, items: 12 }), findings: [] }], exitCode: 0 }, 'text').split('\n');
    expect(none).toContain('parity  pass    scanned 6 files, 12 strings, 0 findings, 1 already in HEAD (not introduced by this commit: not counted)');
  });
});

describe('an interrupted run (Ctrl-C, SIGTERM)', () => {
  it('the summary names the signal and what each process exits with (was "… could not prove the check (exit 2)" while the shell showed 130)', () => {
    const interrupted: RunReport = { ...report, results: [results[3]!], interrupted: { signal: 'SIGINT', hook: true } };
    // A commit: the hook exits 2 (its answer to the stored hook), and git, interrupted by the same Ctrl-C, exits 130.
    expect(formatReport(interrupted, 'text').split('\n').at(-2)).toBe('1 error — interrupted (SIGINT): commit refused, nothing was judged to the end (the hook exits 2; git commit, interrupted too, exits 130)');
    expect(formatReport({ ...interrupted, interrupted: { signal: 'SIGTERM', hook: true } }, 'text').split('\n').at(-2)).toBe('1 error — interrupted (SIGTERM): commit refused, nothing was judged to the end (the hook exits 2; git commit, interrupted too, exits 143)');
    // loopgates run (the index, or --all): no git around it.
    expect(formatReport({ ...interrupted, interrupted: { signal: 'SIGINT', hook: false } }, 'text').split('\n').at(-2)).toBe('1 error — interrupted (SIGINT): nothing was judged to the end (exit 2)');
    expect(formatReport({ ...interrupted, mode: 'all', interrupted: { signal: 'SIGINT', hook: false } }, 'text').split('\n').at(-2)).toBe('1 error — interrupted (SIGINT): nothing was judged to the end (exit 2)');
  });
});

describe('counts phrase', () => {
  it('does not repeat the file count when the items are the files', async () => {
    const { countsPhrase } = await import('../../core/messages.js');
    expect(countsPhrase(counts({ files: 660, items: 660 }), 'files')).toBe('scanned 660 files, 0 findings');
    expect(countsPhrase(counts({ files: 1, items: 2, suppressed: 1, findings: 1 }), 'strings')).toBe('scanned 1 file, 2 strings, 1 suppressed, 1 finding');
  });
});

describe('json report', () => {
  it('carries the results as the runner made them', () => {
    const j = JSON.parse(formatReport(report, 'json')) as { exitCode: number; results: GateResult[] };
    expect(j.exitCode).toBe(2);
    expect(j.results.map((r) => r.verdict)).toEqual(['pass', 'fail', 'skip', 'error']);
    expect(j.results[1]!.findings[0]).toMatchObject({ file: 'res/values-de/strings.xml', line: 12, column: 5 });
  });
});

describe('SARIF 2.1.0', () => {
  it('has rules, results with 1-based regions and encoded uris, and a notification for an error verdict', () => {
    const s = JSON.parse(formatReport(report, 'sarif')) as any;
    expect(s.version).toBe('2.1.0');
    const run = s.runs[0];
    expect(run.tool.driver.rules.map((r: any) => r.id)).toEqual(['strings/missing-key', 'strings/odd']);
    expect(run.results[0]).toMatchObject({ ruleId: 'strings/missing-key', ruleIndex: 0, level: 'error', locations: [{ physicalLocation: { artifactLocation: { uri: 'res/values-de/strings.xml', uriBaseId: '%SRCROOT%' }, region: { startLine: 12, startColumn: 5 } } }] });
    expect(run.results[1].level).toBe('warning');
    expect(run.results[1].locations[0].physicalLocation.artifactLocation.uri).toBe('we%2Cird%3Ana%0Ame.xml');
    expect(run.originalUriBaseIds['%SRCROOT%'].uri).toBe('file:///repo%20with%20space/');
    expect(run.invocations[0].executionSuccessful).toBe(false);
    expect(run.invocations[0].toolExecutionNotifications[0].message.text).toBe('flows error: maestro was not found on PATH (fix: install maestro)');
  });
});

describe('github workflow commands', () => {
  it('escapes properties and data as @actions/core does', () => {
    const lines = formatReport(report, 'github').split('\n');
    expect(lines).toContain('::error file=res/values-de/strings.xml,line=12,col=5,title=strings/missing-key::key `a` missing');
    expect(lines).toContain('::warning file=we%2Cird%3Ana%0Ame.xml,line=1,col=1,title=strings/odd::100%25 odd%0Asecond line');
    expect(lines).toContain('::error title=loopgates flows error::maestro was not found on PATH — fix: install maestro');
    expect(lines).toContain('::warning title=loopgates strings::allow-list entry removed 3 of 3');
    expect(lines).toContain('::notice title=loopgates strings::7 catalog keys the code asks for were looked up');
  });
});
