// node bench/retry.mjs [rounds]: the cost of `loopgates retry -- <cmd>` against running <cmd> bare, interleaved in
// one script on the shared machine. CPU is user+sys of every child process (bash `times`), wall is elapsed; medians.
// Each sink is measured honestly: the bare baseline writes to the same kind of sink as the retry run.
// - file:      `cmd > out.log`            vs `loopgates retry -- cmd > out.log 2>/dev/null`
// - /dev/null: `cmd > /dev/null`          vs `loopgates retry -- cmd > /dev/null 2>/dev/null`
// - pipe:      `cmd | cat > /dev/null`    vs `loopgates retry -- cmd 2>/dev/null | cat > /dev/null`
// Reports the fixed start-up cost (retry true - bare true) and, per sink, the streaming cost on 50 MiB of output:
// (retry 50 MiB - retry true) / (bare 50 MiB - bare true) - 1; beside it what a plain `| cat` pass-through of the
// same bytes costs over writing them to /dev/null (the floor for anything that copies the output).
import { cli, median, printTable, tempRepo, timed } from './lib.mjs';

const rounds = Number(process.argv[2] ?? 7);
const repo = tempRepo('retry', { 'README.md': 'bench\n', '.gitignore': 'out.log\n' });
// 50 MiB of build-log-like lines, printed by the command itself (yes | head), the same argv bare and wrapped.
const MB50 = `sh -c 'yes "> Task :app:compileDebugKotlin UP-TO-DATE  (build output line of about 64 bytes)" | head -c 52428800'`;
const retry = `node ${cli} retry --task bench --`;
const variants = [
  { name: 'bare: true', script: 'true' },
  { name: 'retry: true', script: `${retry} true 2>/dev/null` },
  { name: 'bare: 50 MiB > file', script: `${MB50} > out.log` },
  { name: 'retry: 50 MiB > file', script: `${retry} ${MB50} > out.log 2>/dev/null` },
  { name: 'bare: 50 MiB > /dev/null', script: `${MB50} > /dev/null` },
  { name: 'retry: 50 MiB > /dev/null', script: `${retry} ${MB50} > /dev/null 2>/dev/null` },
  { name: 'bare: 50 MiB | cat', script: `${MB50} | cat > /dev/null` },
  { name: 'retry: 50 MiB | cat', script: `${retry} ${MB50} 2>/dev/null | cat > /dev/null` },
];
const rows = variants.map((v) => ({ name: v.name, cpu: [], wall: [] }));
// One warm-up of each (page cache, node's compile cache, retry's proven-signature cache), not counted.
for (const v of variants) timed(v.script, repo);
for (let r = 0; r < rounds; r++) {
  variants.forEach((v, i) => {
    const t = timed(v.script, repo);
    if (t.status !== 0) throw new Error(`${v.name} exited ${t.status}: ${t.output.slice(-400)}`);
    rows[i].cpu.push(t.cpuMs);
    rows[i].wall.push(t.wallMs);
  });
}
printTable(`loopgates retry overhead (${rounds} interleaved rounds)`, rows);
const m = (i, k) => median(rows[i][k]);
const pct = (x) => `${(x * 100).toFixed(1)} %`;
for (const k of ['cpu', 'wall']) {
  console.log(`${k}: fixed start-up ${(m(1, k) - m(0, k)).toFixed(0)} ms`);
  for (const { name, bare, wrapped } of [{ name: 'file', bare: 2, wrapped: 3 }, { name: '/dev/null', bare: 4, wrapped: 5 }, { name: 'pipe | cat', bare: 6, wrapped: 7 }]) {
    const stream = (m(wrapped, k) - m(1, k)) / (m(bare, k) - m(0, k)) - 1;
    console.log(`  ${name.padEnd(10)} streaming cost over bare (start-up excluded) ${pct(stream)}`);
  }
  console.log(`  a plain cat pass-through costs ${pct(m(6, k) / m(4, k) - 1)} over writing to /dev/null`);
}
