// bench/mutate (issue 4): full `loopgates mutate --all-inputs` on AntennaPod's corpus files vs one `loopgates run --all`
// on the same files, in one script, interleaved. Target: mutate <= 10 x run --all.
// Usage: node bench/mutate.mjs [rounds=3]   (needs `npm run build`)
import { cpSync, mkdtempSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, corpus, median, printTable, timed, withLocalGitleaks } from './lib.mjs';

withLocalGitleaks();
const rounds = Number(process.argv[2] ?? 3);
const repo = join(mkdtempSync(join(tmpdir(), 'loopgates-bench-mutate-')), 'antennapod');
cpSync(join(corpus, 'l10n', 'AntennaPod__AntennaPod'), repo, { recursive: true });
const git = (...a) => execFileSync('git', a, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
git('init', '-q', '-b', 'main');
git('config', 'user.name', 'Bench');
git('config', 'user.email', 'bench@loopgates.invalid');
git('add', '-A');
git('commit', '-q', '--no-verify', '-m', 'corpus');

const variants = [
  { name: 'run --all', cmd: `node ${JSON.stringify(cli)} run --all --format json >/dev/null`, ok: [0, 1], cpu: [], wall: [] },
  { name: 'mutate --all-inputs', cmd: `node ${JSON.stringify(cli)} mutate --all-inputs --format json >/dev/null`, ok: [0, 1], cpu: [], wall: [] },
];
for (let round = 0; round < rounds; round++) {
  for (const v of variants) {
    const t = timed(v.cmd, repo);
    if (!v.ok.includes(t.status)) {
      console.error(`${v.name}: exit ${t.status}\n${t.output}`);
      process.exit(2);
    }
    v.cpu.push(t.cpuMs);
    v.wall.push(t.wallMs);
  }
}
printTable(`bench/mutate: AntennaPod corpus, ${rounds} rounds`, variants);
const [r, m] = variants.map((v) => median(v.wall));
console.log(`\nmutate / run --all = ${(m / r).toFixed(2)} wall (target <= 10)`);
