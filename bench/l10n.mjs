// bench/l10n (issue 3): `loopgates run --all` with the two localization gates over the whole l10n corpus (~26 MB) and
// over AntennaPod alone; and a staged commit of one changed translation through the installed hook, against a commit
// through a bare `node -e 0` hook and through loopgates with no applicable gate, interleaved.
// Targets: whole corpus <= 2 s wall; staged run <= 1.2 x the no-gate hook.
// Usage: node bench/l10n.mjs [rounds=7]   (needs `npm run build`)
import { cpSync, chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, corpus as corpusRoot, median, printTable, tempRepo, timed, withLocalGitleaks } from './lib.mjs';

withLocalGitleaks();
const rounds = Number(process.argv[2] ?? 7);
const corpus = join(corpusRoot, 'l10n');
const l10nGates = '--gate string-parity --gate hardcoded-strings';

// Copies, so a stray loopgates.yaml or cache never lands in shared/.
const scratch = mkdtempSync(join(tmpdir(), 'loopgates-bench-l10n-'));
cpSync(corpus, join(scratch, 'l10n'), { recursive: true });
const whole = join(scratch, 'l10n');
const antenna = join(whole, 'AntennaPod__AntennaPod');

const runs = [
  { name: 'run --all, whole l10n corpus', cwd: whole, cpu: [], wall: [] },
  { name: 'run --all, AntennaPod', cwd: antenna, cpu: [], wall: [] },
  // The same whole-corpus run with string-parity sharded over 2 threads (opt-in; shards.ts): what threads buy here.
  { name: 'run --all, whole corpus, LOOPGATES_THREADS=2', cwd: whole, env: { ...process.env, LOOPGATES_THREADS: '2' }, cpu: [], wall: [] },
];
for (let round = -1; round < rounds; round++) {
  for (const r of runs) {
    const t = timed(`node ${JSON.stringify(cli)} run --all ${l10nGates} --format json >/dev/null`, r.cwd, r.env);
    if (t.status !== 0 && t.status !== 1) {
      console.error(`${r.name}: exit ${t.status}\n${t.output}`);
      process.exit(2);
    }
    if (round >= 0) {
      r.cpu.push(t.cpuMs);
      r.wall.push(t.wallMs);
    }
  }
}
printTable(`bench/l10n: run --all (${rounds} runs each; exit 1 counts: findings are expected on real catalogs)`, runs);
console.log(`\nwhole corpus median wall: ${median(runs[0].wall).toFixed(0)} ms (target <= 2000 ms); 2 threads: ${median(runs[2].wall).toFixed(0)} ms (${(median(runs[2].wall) / median(runs[0].wall)).toFixed(2)}x)`);

// Staged: one changed translation in AntennaPod, through the real installed hook. Two copies: `repo` runs the
// localization gates only (secrets disabled: the target is about string-parity's staged path), `full` keeps
// install's defaults, so gitleaks scans the staged file too (for information).
const antennaRepo = (name, yaml) => {
  const dir = tempRepo(name, { '.gitattributes': '* -text\n' });
  cpSync(join(corpus, 'AntennaPod__AntennaPod'), dir, { recursive: true });
  execFileSync('git', ['add', '-A'], { cwd: dir });
  execFileSync('git', ['commit', '-q', '--no-verify', '-m', 'corpus'], { cwd: dir });
  execFileSync('node', [cli, 'install', ...(yaml ? ['--no-proof'] : [])], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  if (yaml) writeFileSync(join(dir, 'loopgates.yaml'), yaml);
  execFileSync('git', ['add', '-A'], { cwd: dir });
  execFileSync('git', ['commit', '-q', '--no-verify', '-m', 'install loopgates'], { cwd: dir });
  return dir;
};
// With the secrets gate disabled nothing refuses install's canary commit, so that copy is installed without proof.
const repo = antennaRepo('antennapod', 'version: 1\ngates:\n  secrets:\n    enabled: false\n');
const full = antennaRepo('antennapod-full', null);
const none = tempRepo('none', { 'docs/notes.md': '# notes\n', 'loopgates.yaml': 'version: 1\ngates:\n  secrets:\n    enabled: false\n' });
// With the secrets gate disabled nothing refuses install's canary commit, so prove nothing here (bench/hook does the same).
execFileSync('node', [cli, 'install', '--no-proof'], { cwd: none, stdio: ['ignore', 'pipe', 'pipe'] });
const bare = tempRepo('bare', { 'docs/notes.md': '# notes\n' });
writeFileSync(join(bare, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nnode -e 0\n');
chmodSync(join(bare, '.git', 'hooks', 'pre-commit'), 0o755);

const deFile = 'ui/i18n/src/main/res/values-de/strings.xml';
const deOriginal = readFileSync(join(repo, deFile), 'utf8');
const variants = [
  { name: 'bare hook: node -e 0', dir: bare, file: 'docs/notes.md', cpu: [], wall: [], edit: (i) => `# notes ${i}\n` },
  { name: 'loopgates, no applicable gate', dir: none, file: 'docs/notes.md', cpu: [], wall: [], edit: (i) => `# notes ${i}\n` },
  {
    name: 'loopgates, one changed translation (de), l10n gates',
    dir: repo,
    file: deFile,
    cpu: [],
    wall: [],
    edit: (i) => deOriginal.replace('</resources>', `    <!-- round ${i} -->\n</resources>`),
  },
  {
    name: 'same, install defaults (+ secrets: gitleaks)',
    dir: full,
    file: deFile,
    cpu: [],
    wall: [],
    edit: (i) => deOriginal.replace('</resources>', `    <!-- round ${i} -->\n</resources>`),
  },
];
for (let round = -1; round < rounds; round++) {
  for (const v of variants) {
    writeFileSync(join(v.dir, v.file), v.edit(round));
    execFileSync('git', ['add', '--', v.file], { cwd: v.dir });
    const t = timed(`git commit -q -m "round ${round}"`, v.dir);
    if (t.status !== 0) {
      console.error(`${v.name}: commit refused (exit ${t.status})\n${t.output}`);
      process.exit(2);
    }
    if (round >= 0) {
      v.cpu.push(t.cpuMs);
      v.wall.push(t.wallMs);
    }
  }
}
printTable(`bench/l10n: staged commit (${rounds} commits each, interleaved)`, variants);
const [b, n, s, f] = variants.map((v) => median(v.wall));
console.log(`\nstaged translation (l10n gates) / no-gate loopgates hook = ${(s / n).toFixed(2)} wall (target <= 1.20); / bare node hook = ${(s / b).toFixed(2)}`);
console.log(`with install's defaults (+ secrets) / no-gate loopgates hook = ${(f / n).toFixed(2)} wall`);
