// Reports of one run in four formats: text (people; colour only on a TTY), json (machines), SARIF 2.1.0 (code
// scanning; OASIS "Static Analysis Results Interchange Format" 2.1.0) and github (GitHub Actions workflow commands,
// escaped as @actions/core's command.ts does). Secrets never reach here: findings carry the gates' redacted messages.
import pc from 'picocolors';
import { runnable } from './cli-word.js';
import { countsPhrase, messages, modeDescription } from './messages.js';
import { hasRawBytes, pathBytes, shownPath } from './paths.js';
import type { GateResult, Mode, Verdict } from './types.js';

/** Output formats of `run` and `hook`. */
export type ReportFormat = 'text' | 'json' | 'sarif' | 'github';
export const REPORT_FORMATS: readonly ReportFormat[] = ['text', 'json', 'sarif', 'github'];

/** Everything a report shows about one run. */
export interface RunReport {
  version: string;
  mode: Mode;
  /** Top level of the repository (or the scanned folder). */
  root: string;
  /** Number of paths the run judged (staged targets, tree files or named files). */
  targets: number;
  results: readonly GateResult[];
  exitCode: number;
  /** Run-level notes ("no loopgates.yaml: using the defaults"). */
  notes: readonly string[];
  /** The run was ended by a signal (`SIGINT`, `SIGTERM`); `hook`: inside `git commit` (git is interrupted too). */
  interrupted?: { signal: string; hook: boolean };
  /** Print every finding of a staged run (`run --staged-policy`: the user asked for the list), not STAGED_FINDINGS_CAP. */
  uncapped?: boolean;
  /** What refused the commit besides the gates' verdicts (a preflight step's `refusal`), for the verdict line. */
  refusals?: readonly string[];
}

/**
 * The exit code of a run (DESIGN.md exit codes): 2 when any verdict is `error` or `vacuous` (loopgates could not prove
 * the check), else 1 when any is `fail`, else 0 (all `pass`/`skip`). 2 wins over 1. No results at all is 2.
 */
export function exitCodeFor(results: readonly GateResult[]): 0 | 1 | 2 {
  if (results.length === 0) return 2;
  if (results.some((r) => r.verdict === 'error' || r.verdict === 'vacuous')) return 2;
  if (results.some((r) => r.verdict === 'fail')) return 1;
  return 0;
}

/** A path as one line of text: JSON-quoted when it holds control characters or edge spaces, else as is. */
export function displayPath(path: string): string {
  // A name that is not UTF-8 is quoted as git quotes it (core.quotePath: "caf\351.txt").
  if (hasRawBytes(path)) return shownPath(path);
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f"]|^\s|\s$/.test(path) ? JSON.stringify(path) : path;
}

const verdictOrder: readonly Verdict[] = ['pass', 'fail', 'skip', 'vacuous', 'error'];

/**
 * Findings a gate prints one by one in a staged text report (a hook's report stays short); the rest are counted with
 * the command that lists them. Errors are printed first when some must be left out. `run --all` prints every one.
 */
export const STAGED_FINDINGS_CAP = 20;

/** Places shown in a pre-existing summary line. */
const PLACES_SHOWN = 4;

/**
 * Short names of `files` for a summary line: the parent folder when every file has the same name in a different
 * folder (`values-ca`, `values-fi` for Android translations), else the paths.
 */
export function placesOf(files: readonly string[]): string[] {
  const base = (p: string) => p.slice(p.lastIndexOf('/') + 1);
  const parent = (p: string) => {
    const dir = p.slice(0, Math.max(0, p.lastIndexOf('/')));
    return dir.slice(dir.lastIndexOf('/') + 1);
  };
  const names = new Set(files.map(base));
  const parents = files.map(parent);
  if (files.length > 1 && names.size === 1 && parents.every(Boolean) && new Set(parents).size === files.length) return parents;
  return [...files];
}

/**
 * Render `report` in `format`. `color` applies to text only (the caller passes whether stdout is a TTY). `cli`: the
 * command that starts loopgates here (core/cli-word.ts); every `loopgates <verb>` of a fix or note is started with it.
 */
export function formatReport(given: RunReport, format: ReportFormat, options: { color?: boolean; cli?: () => string } = {}): string {
  const report = options.cli ? runnableReport(given, options.cli) : given;
  switch (format) {
    case 'json':
      return `${JSON.stringify(jsonReport(report), null, 2)}\n`;
    case 'sarif':
      return `${JSON.stringify(sarifReport(report), null, 2)}\n`;
    case 'github':
      return githubReport(report);
    default:
      return textReport(report, options.color === true, options.cli);
  }
}

/** `report` with the fixes and notes it prints started by `cli` (unchanged objects when none names a command). */
export function runnableReport(report: RunReport, cli: () => string): RunReport {
  const each = (xs: readonly string[]) => xs.map((x) => runnable(x, cli));
  return {
    ...report,
    notes: each(report.notes),
    results: report.results.map((r) => ({
      ...r,
      notes: each(r.notes),
      ...(r.info ? { info: each(r.info) } : {}),
      ...(r.error ? { error: { ...r.error, fix: runnable(r.error.fix, cli) } } : {}),
    })),
  };
}

/** The text report: a header, one verdict line per gate with counts, its findings, reasons, notes and fixes, a summary. */
export function textReport(report: RunReport, color: boolean, cli?: () => string): string {
  const run = (s: string) => (cli ? runnable(s, cli) : s);
  const c = pc.createColors(color);
  const paint: Record<Verdict, (s: string) => string> = { pass: c.green, fail: c.red, skip: c.yellow, vacuous: c.magenta, error: c.red };
  const width = Math.max(4, ...report.results.map((r) => r.gate.length));
  const out: string[] = [c.bold(`loopgates ${report.version} · ${modeDescription(report.mode, report.targets)}`)];
  for (const n of report.notes) out.push(`  ${c.dim(messages.note(n))}`);
  for (const r of report.results) {
    const counts = countsPhrase(r.counts, r.itemUnit);
    const why = r.reason && r.verdict !== 'pass' && r.verdict !== 'fail' ? ` — ${r.reason}` : '';
    const pre = r.staged?.preExisting;
    const preCount = pre ? pre.errors + pre.warnings : 0;
    out.push(`${r.gate.padEnd(width)}  ${paint[r.verdict](r.verdict.padEnd(7))} ${counts}${preCount ? `, ${messages.preExistingCount(preCount, r.counts.findings)}` : ''}${why}`);
    // A staged report (a hook's) prints at most STAGED_FINDINGS_CAP findings per gate, errors first when some are left out.
    const capped = report.mode === 'staged' && !report.uncapped && r.findings.length > STAGED_FINDINGS_CAP;
    const shown = capped ? [...r.findings.filter((f) => f.severity === 'error'), ...r.findings.filter((f) => f.severity !== 'error')].slice(0, STAGED_FINDINGS_CAP) : r.findings;
    for (const f of shown) {
      const where = `${displayPath(f.file)}:${f.line}:${f.column}`;
      const sev = f.severity === 'warning' ? c.yellow('warning  ') : '';
      out.push(`  ${c.cyan(where)}  ${c.dim(f.rule)}  ${sev}${f.message.replace(/\n/g, '\n    ')}`);
    }
    if (capped) {
      const left = r.findings.length - shown.length;
      const leftErrors = r.findings.filter((f) => f.severity === 'error').length - shown.filter((f) => f.severity === 'error').length;
      out.push(`  ${c.dim(run(messages.findingsLeftOut(left, leftErrors, r.gate)))}`);
    }
    if (pre && preCount) {
      const places = placesOf(pre.files);
      out.push(`  ${c.dim(run(messages.preExisting(pre.errors, pre.warnings, places.slice(0, PLACES_SHOWN), Math.max(0, places.length - PLACES_SHOWN), r.gate)))}`);
    }
    for (const n of r.info ?? []) out.push(`  ${c.dim(messages.note(n))}`);
    for (const n of r.notes) out.push(`  ${c.yellow(messages.gateNote(n))}`);
    if (r.error && (r.verdict === 'error' || r.verdict === 'vacuous')) {
      if (r.error.message !== r.reason) out.push(`  ${r.error.message}`);
      out.push(`  ${c.bold(messages.fix(r.error.fix))}`);
    }
  }
  const tally: Record<string, number> = {};
  for (const v of verdictOrder) tally[v] = report.results.filter((r) => r.verdict === v).length;
  const line = messages.summary(tally, report.exitCode, report.mode === 'staged', report.interrupted, report.refusals);
  out.push(report.exitCode === 0 ? c.green(line) : c.red(line));
  return octalRawBytes(`${out.join('\n')}\n`);
}

/** A path that is not UTF-8 named inside a note or message: its raw bytes as git's octal escapes, never U+FFFD. */
function octalRawBytes(s: string): string {
  // The `u` flag matches only a lone U+DC80..U+DCFF (an escaped byte), never the low half of an emoji's pair.
  return s.replace(/[\udc80-\udcff]/gu, (c) => `\\${(c.charCodeAt(0) - 0xdc00).toString(8)}`);
}

/** The json report: the run and every GateResult as the runner produced it. */
export function jsonReport(report: RunReport): object {
  return {
    tool: 'loopgates',
    version: report.version,
    mode: report.mode,
    root: report.root,
    targets: report.targets,
    exitCode: report.exitCode,
    ...(report.refusals?.length ? { refusals: report.refusals } : {}),
    notes: report.notes,
    results: report.results,
  };
}

/** Percent-encode each segment of a repository-relative path into a SARIF artifactLocation uri (RFC 3986). */
export function sarifUri(path: string): string {
  // A segment that is not UTF-8 is percent-encoded byte by byte (RFC 3986; encodeURIComponent throws on its escapes).
  return path
    .split('/')
    .map((seg) => (hasRawBytes(seg) ? [...pathBytes(seg)].map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('') : encodeURIComponent(seg)))
    .join('/');
}

/**
 * SARIF 2.1.0 log: one run, rules `<gate>/<rule>`, results with 1-based startLine/startColumn relative to
 * `%SRCROOT%`, `partialFingerprints.loopgates/v1` from the finding fingerprint; error and vacuous verdicts become
 * toolExecutionNotifications so a code-scanning upload still shows that the check did not prove anything.
 */
export function sarifReport(report: RunReport): object {
  const rules: Array<{ id: string; name: string; shortDescription: { text: string } }> = [];
  const ruleIndex = new Map<string, number>();
  const results: object[] = [];
  for (const r of report.results) {
    for (const f of r.findings) {
      const id = `${f.gate}/${f.rule}`;
      if (!ruleIndex.has(id)) {
        ruleIndex.set(id, rules.length);
        rules.push({ id, name: f.rule, shortDescription: { text: `${r.title}: ${f.rule}` } });
      }
      results.push({
        ruleId: id,
        ruleIndex: ruleIndex.get(id),
        level: f.severity === 'error' ? 'error' : 'warning',
        message: { text: f.message },
        locations: [{ physicalLocation: { artifactLocation: { uri: sarifUri(f.file), uriBaseId: '%SRCROOT%' }, region: { startLine: f.line, startColumn: f.column } } }],
        partialFingerprints: { 'loopgates/v1': f.fingerprint },
      });
    }
  }
  const notifications = report.results
    .filter((r) => r.verdict === 'error' || r.verdict === 'vacuous')
    .map((r) => ({
      level: 'error',
      message: { text: `${r.gate} ${r.verdict}: ${r.error?.message ?? r.reason ?? ''}${r.error ? ` (fix: ${r.error.fix})` : ''}` },
      descriptor: { id: r.gate },
    }));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'loopgates', version: report.version, rules } },
        originalUriBaseIds: { '%SRCROOT%': { uri: `file://${sarifUri(report.root.endsWith('/') ? report.root : `${report.root}/`)}` } },
        invocations: [{ executionSuccessful: report.exitCode !== 2, exitCode: report.exitCode, toolExecutionNotifications: notifications }],
        results,
      },
    ],
  };
}

/**
 * Why a verb could not produce its report: loopgates, its config or a required tool is broken (exit 2), or the
 * arguments are wrong. `message` says what broke, `fix` the one command or step that repairs it.
 */
export interface RunFailure {
  version: string;
  /** The verb that failed (`run`, `hook`, `explain`, ...). */
  verb: string;
  exitCode: number;
  message: string;
  fix: string;
  /** loopgates.yaml problems (ConfigError), each with its 1-based line (0 when unknown). */
  problems?: ReadonlyArray<{ path: string; line: number; message: string }>;
}

/**
 * The document a machine-readable `--format` prints on stdout when a verb fails before it has a report, so a CI
 * parser always gets one: json `{ tool, version, verb, exitCode, error: { message, fix, problems? } }` (tool, version
 * and exitCode as in `jsonReport`, with `error` in place of `results`); sarif a run with no results, an unsuccessful
 * invocation and one error toolExecutionNotification; github one `::error title=loopgates <verb>::` line. text: ''.
 */
export function formatFailure(failure: RunFailure, format: ReportFormat): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(
        {
          tool: 'loopgates',
          version: failure.version,
          verb: failure.verb,
          exitCode: failure.exitCode,
          error: { message: failure.message, fix: failure.fix, ...(failure.problems ? { problems: failure.problems } : {}) },
        },
        null,
        2,
      )}\n`;
    case 'sarif':
      return `${JSON.stringify(
        {
          $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
          version: '2.1.0',
          runs: [
            {
              tool: { driver: { name: 'loopgates', version: failure.version, rules: [] } },
              invocations: [
                {
                  executionSuccessful: false,
                  exitCode: failure.exitCode,
                  toolExecutionNotifications: [{ level: 'error', message: { text: `${failure.message} (fix: ${failure.fix})` }, descriptor: { id: failure.verb } }],
                },
              ],
              results: [],
            },
          ],
        },
        null,
        2,
      )}\n`;
    case 'github':
      return octalRawBytes(`::error title=${escapeProperty(`loopgates ${failure.verb}`)}::${escapeData(`${failure.message} — fix: ${failure.fix}`)}\n`);
    default:
      return '';
  }
}

/** @actions/core escapeData: %, CR, LF. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** @actions/core escapeProperty: escapeData plus `:` and `,`. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=…::message` per finding (warning findings as
 * `::warning`), `::error title=loopgates <gate>::…` per error/vacuous verdict, `::warning` per note, then the verdict
 * lines as plain log text.
 */
export function githubReport(report: RunReport): string {
  const out: string[] = [];
  for (const r of report.results) {
    for (const f of r.findings) {
      const cmd = f.severity === 'error' ? 'error' : 'warning';
      // A name that is not UTF-8 cannot be a file= GitHub matches; it is shown as the text format shows it.
      const file = hasRawBytes(f.file) ? shownPath(f.file) : f.file;
      out.push(`::${cmd} file=${escapeProperty(file)},line=${f.line},col=${f.column},title=${escapeProperty(`${f.gate}/${f.rule}`)}::${escapeData(f.message)}`);
    }
    if ((r.verdict === 'error' || r.verdict === 'vacuous') && r.error) {
      out.push(`::error title=${escapeProperty(`loopgates ${r.gate} ${r.verdict}`)}::${escapeData(`${r.error.message} — fix: ${r.error.fix}`)}`);
    }
    for (const n of r.info ?? []) out.push(`::notice title=${escapeProperty(`loopgates ${r.gate}`)}::${escapeData(n)}`);
    for (const n of r.notes) out.push(`::warning title=${escapeProperty(`loopgates ${r.gate}`)}::${escapeData(n)}`);
  }
  for (const n of report.notes) out.push(`::notice title=loopgates::${escapeData(n)}`);
  return octalRawBytes(`${out.join('\n')}${out.length ? '\n' : ''}${textReport(report, false)}`);
}
