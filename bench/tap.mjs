// bench/tap (issue 13): the tap loop's own cost per poll on the scripted device: parse one uiautomator dump (saxes)
// and look for the expected label, as every poll does, over the largest corpus dump. In-process, N rounds of M polls
// each, interleaved with a baseline that only reads the XML string's length (the loop and clock's own cost); median
// per poll in microseconds. The device's side (adb exec-out, the phone's dump) is not ours and is not measured.
// Usage: node bench/tap.mjs [rounds=9] [polls=200]   (needs `npm run build`)
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { corpus, median } from './lib.mjs';
import { parseDump } from '../dist/scripts/device/dump.js';
import { labelled, matcher } from '../dist/scripts/tap/loop.js';

const rounds = Number(process.argv[2] ?? 9);
const polls = Number(process.argv[3] ?? 200);

/** Every .xml under the uiautomator corpus, largest first. */
function dumps(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...dumps(p));
    else if (e.name.endsWith('.xml')) out.push({ p, size: statSync(p).size });
  }
  return out.sort((a, b) => b.size - a.size);
}

const largest = dumps(join(corpus, 'uiautomator'))[0];
if (!largest) throw new Error('no uiautomator dump in the corpus');
const xml = readFileSync(largest.p, 'utf8');
const expect = matcher('never-on-this-screen', 'exact'); // the worst case: every node's labels are read
let sink = 0;
const variants = {
  baseline: () => (sink += xml.length),
  'parse + match': () => (sink += labelled(parseDump(xml), expect).length + 1),
};
const per = { baseline: [], 'parse + match': [] };
for (let r = 0; r < rounds; r++) {
  for (const [name, fn] of r % 2 ? Object.entries(variants).reverse() : Object.entries(variants)) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < polls; i++) fn();
    per[name].push(Number(process.hrtime.bigint() - t) / 1000 / polls);
  }
}
const nodes = parseDump(xml).nodes.length;
console.log(`dump: ${largest.p.replace(`${corpus}/`, '')} (${largest.size} bytes, ${nodes} nodes); ${rounds} rounds × ${polls} polls`);
for (const [name, xs] of Object.entries(per)) console.log(`${name.padEnd(14)} median ${median(xs).toFixed(1)} µs per poll (min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)})`);
if (sink < 0) console.log(sink);
