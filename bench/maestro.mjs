// bench/maestro (issue 12): the maestro-flows gate on the Maestro flow corpus (corpus/maestro, copied into temp git
// repositories). (A) `run --all --gate maestro-flows` over each project's flows, against `run --all` in a repository
// with no flow (the CLI's start-up, allowEmpty); (B) `run --staged` with one staged subflow (duckduckgo's
// steps/search_logins.yaml: its callers are read and judged too) against the same with only a README staged (the
// no-gate run: nothing reads it). Interleaved, N rounds, medians of child CPU (user+sys) and wall time.
// Usage: node bench/maestro.mjs [rounds=9]   (needs `npm run build`)
import { cpSync, readdirSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { cli, corpus, interleavedRounds, median, printTable, tempRepo } from './lib.mjs';

const rounds = Number(process.argv[2] ?? 9);
const only = (extra = '') => `version: 1\ngates:\n  secrets: {enabled: false}\n  hardcoded-strings: {enabled: false}\n  string-parity: {enabled: false}\n  maestro-flows:\n${extra || '    enabled: true\n'}`;
const configs = {
  'mobile-dev-inc__maestro': only('    flows: ["e2e/workspaces/demo_app/**/*.yaml", "maestro-test/src/test/resources/*.yaml"]\n'),
};

/** A git repository holding a copy of one corpus project and a loopgates.yaml enabling only maestro-flows. */
function projectRepo(name) {
  const dir = tempRepo(`maestro-${name}`, { 'loopgates.yaml': configs[name] ?? only(), 'README.md': '# bench\n' });
  cpSync(join(corpus, 'maestro', name), dir, { recursive: true });
  execFileSync('git', ['add', '-A'], { cwd: dir });
  execFileSync('git', ['commit', '-q', '--no-verify', '-m', 'flows'], { cwd: dir });
  return dir;
}

const projects = readdirSync(join(corpus, 'maestro'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
const empty = tempRepo('maestro-none', { 'loopgates.yaml': only('    allowEmpty: "bench baseline: no flows"\n'), 'README.md': '# none\n' });
const all = [
  { name: '(A0) run --all, repository without flows', dir: empty, script: `node ${cli} run --all --gate maestro-flows` },
  ...projects.map((p) => ({ name: `(A) run --all ${p}`.slice(0, 44), dir: projectRepo(p), script: `node ${cli} run --all --gate maestro-flows` })),
];
const ddg = projectRepo('duckduckgo__Android');
const sub = '.maestro/autofill/steps/search_logins.yaml';
const staged = [
  { name: '(B0) run --staged, README only (no gate reads it)', dir: ddg, stage: 'README.md', script: `node ${cli} run --staged` },
  { name: '(B) run --staged, one subflow (+ its callers)', dir: ddg, stage: sub, script: `node ${cli} run --staged` },
];
const variants = [...all, ...staged];
for (const v of variants) v.exit = new Set();
interleavedRounds(variants, rounds, {
  prepare: (v, round) => {
    if (!v.stage) return;
    execFileSync('git', ['reset', '-q'], { cwd: v.dir });
    writeFileSync(join(v.dir, v.stage), `${execFileSync('git', ['show', `HEAD:${v.stage}`], { cwd: v.dir, encoding: 'utf8' })}\n# round ${round}\n`);
    execFileSync('git', ['add', '--', v.stage], { cwd: v.dir });
  },
  script: (v) => v.script,
  // Exit 1 (findings) is the corpus's real state; 2 would mean the gate could not run (interleavedRounds stops).
  record: (v, r) => v.exit.add(r.status),
  after: (v) => {
    if (v.stage) execFileSync('git', ['checkout', '-q', 'HEAD', '--', v.stage], { cwd: v.dir });
  },
});

printTable(`bench/maestro: ${rounds} runs per variant, interleaved`, variants);
const base = median(all[0].cpu);
for (const v of all.slice(1)) console.log(`${v.name.padEnd(44)} cpu ratio to (A0) ${(median(v.cpu) / base).toFixed(2)}  exit ${[...v.exit].join(',')}`);
const [b0, b] = staged.map((v) => median(v.cpu));
console.log(`ratio (B)/(B0) = ${(b / b0).toFixed(2)}  (one staged subflow against the no-gate run)`);
