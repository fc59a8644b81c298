// Shared helpers for the benchmarks: temp repos, CPU time of a child command (bash `times`: user+sys of children),
// medians and ratio tables. Benchmarks report ratios against a baseline measured in the same script, interleaved,
// because these machines are shared and noisy; none of this is a timed test.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const cli = join(root, 'bin', 'loopgates.js');
/** The read-only corpus: LOOPGATES_CORPUS, else ../shared/corpus beside this repository (as test/helpers/corpus.ts). */
export const corpus = process.env.LOOPGATES_CORPUS ? resolve(process.env.LOOPGATES_CORPUS) : join(root, '..', 'shared', 'corpus');

/** Put the project-local gitleaks on PATH when no gitleaks is there (scripts/setup-gitleaks.sh installs it). */
export function withLocalGitleaks() {
  const local = join(root, '.tools', 'gitleaks', 'usr', 'bin');
  process.env.PATH = `${local}:${process.env.PATH}`;
}

/** A fresh git repo under the OS temp dir with `files` committed (no hooks yet). Returns its path. */
export function tempRepo(name, files) {
  const dir = mkdtempSync(join(tmpdir(), `loopgates-bench-${name}-`));
  const git = (...a) => execFileSync('git', a, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Bench');
  git('config', 'user.email', 'bench@loopgates.invalid');
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'base');
  return dir;
}

/**
 * Run `script` with bash in `cwd` and return { wallMs, cpuMs, status, output }: cpuMs is user+sys of every child
 * process, read from bash's `times` builtin, so the hook's node and gitleaks processes count.
 */
export function timed(script, cwd, env = process.env) {
  const t0 = performance.now();
  const r = spawnSync('bash', ['-c', `${script}\n__rc=$?\ntimes\nexit $__rc`], { cwd, env, encoding: 'utf8' });
  const wallMs = performance.now() - t0;
  const lines = r.stdout.trimEnd().split('\n');
  const children = lines.at(-1) ?? '';
  const [u, s] = children.split(/\s+/).map(parseBashTime);
  return { wallMs, cpuMs: (u ?? 0) + (s ?? 0), status: r.status, output: lines.slice(0, -2).join('\n') + r.stderr };
}

function parseBashTime(t) {
  const m = /^(\d+)m([\d.]+)s$/.exec(t ?? '');
  return m ? (Number(m[1]) * 60 + Number(m[2])) * 1000 : NaN;
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

/** Print a table of medians. `rows`: [{ name, cpu: number[], wall: number[] }]. */
export function printTable(title, rows) {
  console.log(`\n${title}`);
  console.log(`${'variant'.padEnd(44)} ${'cpu ms (median)'.padStart(16)} ${'wall ms (median)'.padStart(17)}   n`);
  for (const r of rows) {
    console.log(`${r.name.padEnd(44)} ${median(r.cpu).toFixed(1).padStart(16)} ${median(r.wall).toFixed(1).padStart(17)}   ${r.cpu.length}`);
  }
}

/**
 * The interleaved round loop of a benchmark: one warm-up round (-1, not recorded), then `rounds` rounds, each starting
 * one variant later so none always runs first on a noisy machine. Per run: `prepare(v, round)` (untimed), the timed
 * `script(v)` run in `v.dir` (see `timed`), `after(v)` (untimed). An exit other than 0 or 1 (findings are the real
 * state of the inputs; 2 means a gate could not run) prints the output and exits 2. Recorded rounds push `cpuMs` and
 * `wallMs` onto `v.cpu` / `v.wall` (created here) and call `record(v, r)` with the run's `timed` result.
 * @template {{ name: string, dir: string, cpu?: number[], wall?: number[] }} V
 * @param {V[]} variants
 * @param {number} rounds
 * @param {{ script: (v: V) => string, prepare?: (v: V, round: number) => void, after?: (v: V) => void, record?: (v: V, r: ReturnType<typeof timed>) => void }} steps
 */
export function interleavedRounds(variants, rounds, { script, prepare = () => {}, after = () => {}, record = () => {} }) {
  for (const v of variants) Object.assign(v, { cpu: [], wall: [] });
  for (let round = -1; round < rounds; round++) {
    const order = variants.map((_, i) => variants[(i + Math.max(round, 0)) % variants.length]);
    for (const v of order) {
      prepare(v, round);
      const r = timed(script(v), v.dir);
      if (r.status !== 0 && r.status !== 1) {
        console.error(`${v.name}: exit ${r.status}\n${r.output}`);
        process.exit(2);
      }
      if (round >= 0) {
        v.cpu.push(r.cpuMs);
        v.wall.push(r.wallMs);
        record(v, r);
      }
      after(v);
    }
  }
}
