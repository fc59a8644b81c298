// node bench/retry.mjs [rounds]: the cost of `loopgates retry -- <cmd>` against running <cmd> bare, interleaved in
// one script (bare true, retry true, bare 50 MB, retry 50 MB per round) on the shared machine. CPU is user+sys of
// every child process (bash `times`), wall is elapsed; medians. Reports the fixed start-up cost (retry true - bare
// true) and the streaming cost on 50 MB of output: (retry 50 MB - retry true) / (bare 50 MB - bare true) - 1, beside
// the cost of piping the same bytes through cat (the floor for anything that copies the output).
import { cli, median, printTable, tempRepo, timed } from './lib.mjs';

const rounds = Number(process.argv[2] ?? 7);
const repo = tempRepo('retry', { 'README.md': 'bench\n' });
// 50 MiB of build-log-like lines, printed by the command itself (yes | head), the same argv bare and wrapped.
const MB50 = `sh -c 'yes "> Task :app:compileDebugKotlin UP-TO-DATE  (build output line of about 64 bytes)" | head -c 52428800'`;
const variants = [
  { name: 'bare: true', script: 'true' },
  { name: 'loopgates retry -- true', script: `node ${cli} retry --task bench -- true` },
  { name: 'bare: 50 MiB to stdout', script: `${MB50} > /dev/null` },
  { name: 'loopgates retry -- (50 MiB to stdout)', script: `node ${cli} retry --task bench -- ${MB50} > /dev/null 2>/dev/null` },
  // The floor of any design that copies the output through a process of its own (read + write, no JS at all).
  { name: 'bare: 50 MiB through cat', script: `${MB50} | cat > /dev/null` },
];
const rows = variants.map((v) => ({ name: v.name, cpu: [], wall: [] }));
// One warm-up of each (page cache, node's compile cache), not counted.
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
for (const k of ['cpu', 'wall']) {
  const startup = m(1, k) - m(0, k);
  const stream = (m(3, k) - m(1, k)) / (m(2, k) - m(0, k)) - 1;
  const cat = m(4, k) / m(2, k) - 1;
  console.log(`${k}: fixed start-up ${startup.toFixed(0)} ms; 50 MiB wrapped/bare ${(m(3, k) / m(2, k)).toFixed(3)}x; streaming cost over bare (start-up excluded) ${(stream * 100).toFixed(1)} %; a plain cat pass-through costs ${(cat * 100).toFixed(1)} %`);
}
