// Reports of `loopgates selftest` and `loopgates mutate`: plain words per case (after ast-grep `sg test`), a table per
// gate and operator, and JSON in the mutation-testing-elements report shape (schema version 2,
// https://github.com/stryker-mutator/mutation-testing-elements/tree/master/packages/report-schema).
import pc from 'picocolors';
import type { MutantOutcome } from './outcomes.js';
import type { MutateReport, MutantReport } from './mutate.js';
import type { SelfTestReport } from './selftest.js';

type Paint = (s: string) => string;
const painter = (color: boolean) => (color ? pc : { ...pc, green: String, red: String, yellow: String, bold: String, dim: String }) as unknown as Record<'green' | 'red' | 'yellow' | 'bold' | 'dim', Paint>;

/** Human text of a self-test run: one line per gate with its proof, one line per case in plain words, a summary. */
export function selfTestText(report: SelfTestReport, color = false): string {
  const p = painter(color);
  const lines: string[] = [];
  const proofPaint: Record<string, Paint> = { PROVEN: p.green, UNPROVEN: p.red, DECORATION: p.red, WAIVED: p.yellow };
  for (const g of report.gates) {
    const tally = countBy(g.cases.map((c) => c.outcome));
    lines.push(`${p.bold(g.gate)}  ${proofPaint[g.proof]!(g.proof)}  ${g.cases.length} case${g.cases.length === 1 ? '' : 's'}${tally ? `: ${tally}` : ''}`);
    if (g.waived) lines.push(`  self-test waived: ${g.waived}`);
    if (g.interrupted) lines.push(`  interrupted (${g.interrupted.why}) after ${g.interrupted.done} of ${g.interrupted.total} cases: the rest did not run, so it is not proven`);
    else if (g.proof === 'DECORATION') lines.push('  no red case: nothing shows this gate can fail');
    else if (g.proof === 'UNPROVEN' && !g.cases.some((c) => c.kind === 'green')) lines.push('  no green case: nothing shows this gate can pass');
    for (const c of g.cases) {
      const good = c.outcome === 'caught' || c.outcome === 'clean';
      lines.push(`  ${(good ? p.green : p.red)(c.outcome.padEnd(7))} ${c.kind.padEnd(5)} ${c.name} — ${c.detail}`);
    }
  }
  const proofs = countBy(report.gates.map((g) => g.proof));
  lines.push('');
  lines.push(`${report.gates.length} gate${report.gates.length === 1 ? '' : 's'}, ${report.executed} case${report.executed === 1 ? '' : 's'} executed${proofs ? `: ${proofs}` : ''}`);
  if (report.executed === 0) lines.push(p.red('zero cases executed: that proves nothing, so this run fails'));
  lines.push(report.ok ? p.green('self-test passed') : p.red('self-test FAILED'));
  return `${lines.join('\n')}\n`;
}

const outcomeOrder: readonly MutantOutcome[] = ['killed', 'survived', 'no-coverage', 'error', 'timeout'];

/** Human text of a mutate run: a table per gate and operator, then every non-killed mutant with what swallowed it. */
export function mutateText(report: MutateReport, color = false): string {
  const p = painter(color);
  const rows: string[][] = [['gate', 'operator', ...outcomeOrder, 'note']];
  for (const g of report.gates) {
    if (g.waived) rows.push([g.gate, '-', '', '', '', '', '', `self-test waived: ${g.waived}`]);
    else if (g.skipped) rows.push([g.gate, '-', '', '', '', '', '', g.skipped]);
    if (g.problem) rows.push([g.gate, '-', ...outcomeOrder.map((o) => (o === g.problem!.outcome ? 'gate' : '')), g.problem.detail]);
    for (const o of g.operators) {
      const t = Object.fromEntries(outcomeOrder.map((k) => [k, 0])) as Record<MutantOutcome, number>;
      for (const m of o.mutants) t[m.outcome]++;
      const note = [o.note, o.alreadyRed ? `${o.alreadyRed} input${o.alreadyRed === 1 ? '' : 's'} already red, skipped` : ''].filter(Boolean).join('; ');
      rows.push([g.gate, o.operator, ...outcomeOrder.map((k) => String(t[k])), note]);
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const lines = rows.map((r, ri) => {
    const text = r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
    return ri === 0 ? p.bold(text) : text;
  });
  for (const g of report.gates) {
    const o = g.oldFindings;
    if (!o) continue;
    const line = `${g.gate}: a mutant where old findings sit (${o.file}:${o.line}, ${o.description}): ${o.outcome}: ${o.detail}`;
    lines.push(o.outcome === 'killed' ? line : p.red(line));
  }
  // Rules no mutant exercised: "every mutant killed" says nothing of them (fresh-user-3 F14).
  const unexercised = report.gates.filter((g) => g.notExercised?.length);
  for (const g of unexercised) lines.push(p.yellow(`${g.gate}: not exercised in this repository: ${g.notExercised!.join(', ')} (no operator made a mutant for ${g.notExercised!.length === 1 ? 'this rule' : 'these rules'}: nothing here proves the gate goes red on ${g.notExercised!.length === 1 ? 'it' : 'them'})`));
  const bad = report.gates.flatMap((g) => g.operators.flatMap((o) => o.mutants)).filter((m) => m.outcome !== 'killed');
  if (bad.length) {
    lines.push('');
    for (const m of bad) lines.push(mutantLine(m, p));
  }
  const t = report.totals;
  const made = outcomeOrder.reduce((n, k) => n + t[k], 0);
  lines.push('');
  lines.push(`seed ${report.seed}${report.allInputs ? ', all inputs' : ''}: ${made} mutant${made === 1 ? '' : 's'}, ${outcomeOrder.map((k) => `${t[k]} ${k}`).join(', ')}; mutation score ${score(report)} (${Math.round(report.durationMs)} ms)`);
  if (report.aborted) lines.push(p.red('interrupted: nothing was written to the working tree or the index'));
  // Say why it failed: an interrupt and a gate no mutant could be made for are not a gate that stayed green.
  const notRun = unexercised.reduce((n, g) => n + g.notExercised!.length, 0);
  const verdict = report.ok
    ? notRun
      ? p.green(`every mutant killed: the gates go red on these defects in your files; ${notRun} rule${notRun === 1 ? '' : 's'} of ${unexercised.length === 1 ? 'a gate' : 'the gates'} not exercised here (listed above)`)
      : p.green('every mutant killed: the gates go red on these defects in your files')
    : report.aborted
      ? p.red('mutate INTERRUPTED: not every gate was proven')
      : bad.length
        ? p.red('mutate FAILED: a gate did not go red where it should')
        : p.red('mutate FAILED: a gate could not be proven: no mutant could be made for it from your files (see its lines above)');
  lines.push(verdict);
  return `${lines.join('\n')}\n`;
}

function mutantLine(m: MutantReport, p: Record<string, Paint>): string {
  return `${p.red!(m.outcome)}  ${m.gate}/${m.operator}  ${m.file}:${m.line}  ${m.description} — ${m.detail}${m.swallowedBy ? `; swallowed by ${m.swallowedBy}` : ''}`;
}

/** Killed / all mutants as a percentage with one decimal, or `n/a` when there were none (never NaN). */
export function score(report: MutateReport): string {
  const made = outcomeOrder.reduce((n, k) => n + report.totals[k], 0);
  return made === 0 ? 'n/a' : `${((100 * report.totals.killed) / made).toFixed(1)} %`;
}

const elementsStatus: Record<MutantOutcome, string> = { killed: 'Killed', survived: 'Survived', 'no-coverage': 'NoCoverage', error: 'RuntimeError', timeout: 'Timeout' };

/**
 * The run as a mutation-testing-elements report (schemaVersion 2): `files` keyed by repository path, each with its
 * `source` (read through `source`) and mutants (`mutatorName` = `<gate>/<operator>`, 1-based location, status in the
 * schema's words). loopgates' own fields (seed, per-gate problems, ok) sit under `loopgates`.
 */
export async function mutateJson(report: MutateReport, source: (path: string) => Promise<string>, meta: { root: string; version: string }): Promise<object> {
  const files: Record<string, { language: string; source: string; mutants: object[] }> = {};
  let id = 0;
  for (const g of report.gates) {
    for (const o of g.operators) {
      for (const m of o.mutants) {
        const entry = (files[m.file] ??= { language: languageOf(m.file), source: await source(m.file).catch(() => ''), mutants: [] });
        entry.mutants.push({
          id: String(++id),
          mutatorName: `${m.gate}/${m.operator}`,
          replacement: m.description,
          description: m.description,
          location: { start: { line: m.line, column: 1 }, end: { line: m.line, column: 2 } },
          status: elementsStatus[m.outcome],
          statusReason: m.swallowedBy ? `${m.detail}; swallowed by ${m.swallowedBy}` : m.detail,
          duration: Math.round(m.durationMs),
        });
      }
    }
  }
  return {
    schemaVersion: '2',
    thresholds: { high: 100, low: 100 },
    projectRoot: meta.root,
    framework: { name: 'loopgates', version: meta.version },
    files,
    loopgates: {
      seed: report.seed,
      allInputs: report.allInputs,
      ok: report.ok,
      aborted: report.aborted,
      totals: report.totals,
      gates: report.gates.map((g) => ({
        gate: g.gate,
        inputs: g.inputs,
        ...(g.waived ? { waived: g.waived } : {}),
        ...(g.skipped ? { skipped: g.skipped } : {}),
        ...(g.problem ? { problem: g.problem } : {}),
        ...(g.oldFindings ? { oldFindings: g.oldFindings } : {}),
        ...(g.notExercised ? { notExercised: g.notExercised } : {}),
        operators: g.operators.map((o) => ({ operator: o.operator, mutants: o.mutants.length, alreadyRed: o.alreadyRed, ...(o.note ? { note: o.note } : {}) })),
      })),
    },
  };
}

function languageOf(path: string): string {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return ({ xml: 'xml', kt: 'kotlin', java: 'java', swift: 'swift', ts: 'typescript', tsx: 'typescript', js: 'javascript', json: 'json', arb: 'json', xcstrings: 'json', po: 'po', strings: 'strings', stringsdict: 'xml', yaml: 'yaml', yml: 'yaml', dart: 'dart' } as Record<string, string>)[ext] ?? 'text';
}

function countBy(values: readonly string[]): string {
  const m = new Map<string, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return [...m].map(([k, n]) => `${n} ${k}`).join(', ');
}
