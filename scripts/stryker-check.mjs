// Post-step of `npm run test:mutation`: Stryker exits 0 when it made zero mutants (its score is then NaN and
// `thresholds.break` does not apply), so a mis-set `mutate` glob would pass silently. Read the JSON report
// (mutation-testing-elements schema 2) and fail on zero mutants, a NaN score, or a score below `break`.
// Usage: node scripts/stryker-check.mjs [report=reports/mutation/mutation.json] [break=<from stryker.config.mjs>]
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const reportPath = resolve(process.argv[2] ?? 'reports/mutation/mutation.json');
let breakAt = Number(process.argv[3]);
if (!Number.isFinite(breakAt)) {
  const config = (await import(pathToFileURL(resolve('stryker.config.mjs')).href)).default;
  breakAt = Number(config?.thresholds?.break);
}
let report;
try {
  report = JSON.parse(readFileSync(reportPath, 'utf8'));
} catch (e) {
  console.error(`stryker-check: cannot read ${reportPath}: ${e instanceof Error ? e.message : String(e)}\n  fix: run npx stryker run first (the json reporter must be on)`);
  process.exit(2);
}
const counts = {};
for (const file of Object.values(report.files ?? {})) {
  for (const m of file.mutants ?? []) counts[m.status] = (counts[m.status] ?? 0) + 1;
}
const total = Object.values(counts).reduce((a, b) => a + b, 0);
// Stryker's "mutation score": detected / valid, where detected = Killed + Timeout and invalid = CompileError +
// RuntimeError + Ignored (https://stryker-mutator.io/docs/mutation-testing-elements/mutant-states-and-metrics/).
const detected = (counts.Killed ?? 0) + (counts.Timeout ?? 0);
const valid = total - (counts.CompileError ?? 0) - (counts.RuntimeError ?? 0) - (counts.Ignored ?? 0);
const score = (100 * detected) / valid;
console.log(`stryker-check: ${total} mutants (${Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ')}); score ${Number.isNaN(score) ? 'NaN' : score.toFixed(2)} %; break ${breakAt}`);
if (total === 0) {
  console.error('stryker-check: FAILED: zero mutants were made; check `mutate` in stryker.config.mjs');
  process.exit(1);
}
if (!Number.isFinite(score)) {
  console.error('stryker-check: FAILED: the mutation score is NaN (no valid mutant)');
  process.exit(1);
}
if (Number.isFinite(breakAt) && score < breakAt) {
  console.error(`stryker-check: FAILED: score ${score.toFixed(2)} % is below thresholds.break ${breakAt}`);
  process.exit(1);
}
