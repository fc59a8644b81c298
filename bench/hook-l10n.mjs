// bench/hook, the l10n commit (issue 16): AntennaPod's 53 string catalogs from the corpus, one key added to the base
// (values/strings.xml) and staged, judged by `loopgates hook pre-commit` as git would run it:
//   (a) today's single-sided run (staged: all: no HEAD side)
//   (b) staged: introduced, HEAD's side cold (its cache removed before each run)
//   (c) staged: introduced, HEAD's side warm (a second commit on the same base: HEAD's findings from the cache)
// Interleaved, N rounds, medians of child CPU (user+sys) and wall time, ratios against (a); also the report's length.
// Usage: node bench/hook-l10n.mjs [rounds=7]   (needs `npm run build`; LOOPGATES_CORPUS as in the tests)
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { cli, corpus, interleavedRounds, median, printTable, tempRepo } from './lib.mjs';

const rounds = Number(process.argv[2] ?? 7);
const app = join(corpus, 'l10n', 'AntennaPod__AntennaPod');
const files = {};
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (p.endsWith('.xml')) files[relative(app, p)] = readFileSync(p);
  }
};
walk(join(app, 'ui', 'i18n'));
const basePath = 'ui/i18n/src/main/res/values/strings.xml';
const baseText = files[basePath].toString('utf8');
const yaml = (policy) => `version: 1\nstaged: ${policy}\ngates:\n  secrets:\n    enabled: false\n`;

const single = tempRepo('l10n-all', { ...files, 'loopgates.yaml': yaml('all') });
const split = tempRepo('l10n-introduced', { ...files, 'loopgates.yaml': yaml('introduced') });
const headCache = (dir) => join(dir, '.git', 'loopgates', 'cache', '_head');

const variants = [
  { name: '(a) single-sided (staged: all)', dir: single, before: () => {} },
  { name: '(b) introduced, HEAD side cold', dir: split, before: () => rmSync(headCache(split), { recursive: true, force: true }) },
  { name: '(c) introduced, HEAD side warm (cache)', dir: split, before: () => {} },
];
for (const v of variants) Object.assign(v, { lines: 0, exit: 0 });
interleavedRounds(variants, rounds, {
  prepare: (v, round) => {
    // A new staged blob every run (the staged side is judged afresh); HEAD never moves.
    writeFileSync(join(v.dir, basePath), baseText.replace('</resources>', `    <string name="bench_key">Bench ${round} ${v.name.slice(1, 2)}</string>\n</resources>`));
    execFileSync('git', ['add', '--', basePath], { cwd: v.dir });
    v.before();
  },
  script: () => `node ${JSON.stringify(cli)} hook pre-commit`,
  record: (v, r) => Object.assign(v, { lines: r.output.split('\n').length, exit: r.status }),
});

printTable(`bench/hook-l10n: ${rounds} staged base changes per variant (AntennaPod, ${Object.keys(files).length} catalogs), interleaved`, variants);
const [a, b, c] = variants.map((v) => median(v.cpu));
console.log(`\nratio cold (b)/(a) = ${(b / a).toFixed(2)}   ratio warm (c)/(a) = ${(c / a).toFixed(2)}   (CPU medians)`);
for (const v of variants) console.log(`${v.name}: exit ${v.exit}, report ${v.lines} lines`);
