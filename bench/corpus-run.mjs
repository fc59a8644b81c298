// bench/corpus-run (issue 17): `loopgates run --all` (no loopgates.yaml: every built-in gate with its defaults) over
// each project of the l10n corpus, and over the whole l10n corpus as one repository, each copied into a temp git repo
// (committed). Given two or more loopgates checkouts, each gets its own copies and they run interleaved (the order
// rotated each round), so "before" and "after" share the machine's noise. Wall and CPU (user+sys of the CLI and every
// process it waited for: wait4 rusage, bench/wait4.py), medians and min–max after one untimed warm-up round (which
// fills the self-test and gitleaks caches, as a user's first run does). Each run's exit code, verdicts and finding
// counts are compared across rounds and across checkouts: a difference is printed, never hidden.
// Usage: node bench/corpus-run.mjs [rounds=5] [cliA] [cliB ...]   (a cli: a loopgates checkout or its bin/loopgates.js;
// default this checkout's; each built with npm run build). Never a timed test.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { cli as ownCli, corpus as corpusRoot, median, root, tempRepo, withLocalGitleaks } from './lib.mjs';

withLocalGitleaks();
const args = process.argv.slice(2);
const rounds = Number(/^\d+$/.test(args[0] ?? '') ? args.shift() : 5);
const clis = (args.length ? args : [ownCli]).map((a) => {
  const bin = statSync(a).isDirectory() ? join(a, 'bin', 'loopgates.js') : resolve(a);
  const checkout = dirname(dirname(bin));
  let rev = '?';
  try {
    rev = execFileSync('git', ['-C', checkout, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {}
  return { bin, label: `${basename(checkout)}@${rev}` };
});
for (const c of clis) if (!existsSync(join(dirname(dirname(c.bin)), 'dist', 'cli.js'))) throw new Error(`${c.bin}: not built (npm run build there)`);

const l10n = join(corpusRoot, 'l10n');
// The MANIFEST's table names the projects; a folder it names that is absent (or one it does not name) is said, not guessed.
const named = [...readFileSync(join(l10n, 'MANIFEST.md'), 'utf8').matchAll(/^\| `([^`/]+)\/` \|/gm)].map((m) => m[1]);
const present = readdirSync(l10n).filter((n) => statSync(join(l10n, n)).isDirectory());
const projects = named.filter((n) => present.includes(n));
const unnamed = present.filter((n) => !named.includes(n));
if (projects.length !== named.length || unnamed.length) console.log(`note: MANIFEST names ${named.join(', ')}; present: ${present.join(', ')}`);

/** A temp git repo holding a byte-exact copy of `src` (no loopgates.yaml, no hook), committed. */
function corpusRepo(name, src) {
  const dir = tempRepo(name, { '.gitattributes': '* -text\n' });
  cpSync(src, dir, { recursive: true });
  execFileSync('git', ['add', '-A'], { cwd: dir });
  execFileSync('git', ['commit', '-q', '--no-verify', '-m', 'corpus'], { cwd: dir });
  return dir;
}

const targets = [...projects.map((p) => ({ name: p, src: join(l10n, p) })), { name: '(whole l10n corpus, one repo)', src: l10n }];
const cells = targets.map((t) => clis.map((c, k) => ({ dir: corpusRepo(`corpus-${k}`, t.src), cpu: [], wall: [], states: new Set() })));

/** "exit N; gate verdict findings, ..." from the JSON report (the state compared across rounds and checkouts). */
function state(json, status) {
  try {
    const r = JSON.parse(json);
    return `exit ${status}; ${r.results.map((g) => `${g.gate} ${g.verdict} ${g.findings.length}`).join(', ')}`;
  } catch {
    return `exit ${status}; no JSON report`;
  }
}

for (let round = -1; round < rounds; round++) {
  // Progress on stderr: a round takes about a minute per checkout on 2 cores.
  process.stderr.write(`${round < 0 ? 'warm-up' : `round ${round + 1}/${rounds}`} ${new Date().toISOString().slice(11, 19)}\n`);
  for (let t = 0; t < targets.length; t++) {
    for (let i = 0; i < clis.length; i++) {
      const k = (i + Math.max(round, 0)) % clis.length;
      const cell = cells[t][k];
      const out = join(cell.dir, '.git', 'bench-report.json');
      const cmd = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(clis[k].bin)} run --all --format json > ${JSON.stringify(out)}`;
      const r = JSON.parse(execFileSync('python3', [join(root, 'bench', 'wait4.py'), cell.dir, 'sh', '-c', cmd], { encoding: 'utf8' }));
      cell.states.add(state(readFileSync(out, 'utf8'), r.status));
      if (round >= 0) {
        cell.cpu.push(r.cpuMs);
        cell.wall.push(r.wallMs);
      }
    }
  }
}

const f0 = (x) => x.toFixed(0);
const range = (xs) => `${f0(Math.min(...xs))}–${f0(Math.max(...xs))}`;
console.log(`node ${process.version}, ${rounds} rounds after 1 warm-up, \`loopgates run --all --format json\` (no loopgates.yaml), medians (min–max), ms`);
for (const [k, c] of clis.entries()) console.log(`${'ABCDEFGH'[k]}: ${c.label} (${c.bin})`);
const head = clis.map((_, k) => `${'ABCDEFGH'[k]} wall | ${'ABCDEFGH'[k]} CPU`).join(' | ');
const ratios = clis.slice(1).map((_, k) => `${'ABCDEFGH'[k + 1]}/A wall | ${'ABCDEFGH'[k + 1]}/A CPU`).join(' | ');
console.log(`\n| project | ${head}${ratios ? ` | ${ratios}` : ''} |`);
console.log(`|---|${clis.map(() => '---:|---:|').join('')}${clis.slice(1).map(() => '---:|---:|').join('')}`);
const row = (name, walls, cpus, spans) => {
  const vals = walls.map((w, k) => `${f0(w)}${spans ? ` (${spans[k][0]})` : ''} | ${f0(cpus[k])}${spans ? ` (${spans[k][1]})` : ''}`).join(' | ');
  const rs = walls.slice(1).map((w, k) => `${(w / walls[0]).toFixed(2)} | ${(cpus[k + 1] / cpus[0]).toFixed(2)}`).join(' | ');
  console.log(`| ${name} | ${vals}${rs ? ` | ${rs}` : ''} |`);
};
const med = targets.map((_, t) => cells[t].map((c) => [median(c.wall), median(c.cpu)]));
for (const [t, target] of targets.entries()) {
  row(target.name, med[t].map((m) => m[0]), med[t].map((m) => m[1]), cells[t].map((c) => [range(c.wall), range(c.cpu)]));
  // The per-project total is printed before the whole-corpus repo, which is a run of its own.
  if (t === projects.length - 1) {
    const sum = (j) => clis.map((_, k) => med.slice(0, projects.length).reduce((s, m) => s + m[k][j], 0));
    row(`**total of the ${projects.length} projects**`, sum(0), sum(1));
  }
}

console.log('\nexit code, verdict and finding count per gate (every round; a second state in one cell or a difference between checkouts is listed):');
for (const [t, target] of targets.entries()) {
  const per = cells[t].map((c) => [...c.states].join(' / '));
  if (per.every((s) => s === per[0]) && cells[t][0].states.size === 1) console.log(`- ${target.name}: same for all: ${per[0]}`);
  else for (const [k, s] of per.entries()) console.log(`- ${target.name}: ${'ABCDEFGH'[k]}: ${s}`);
}
if (!process.env.LOOPGATES_BENCH_KEEP) for (const row of cells) for (const c of row) rmSync(c.dir, { recursive: true, force: true });
