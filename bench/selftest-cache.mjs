// bench/selftest-cache (issue 4): the cost of the pre-commit self-test step when every gate's proof is cached.
// Target: a hit costs <= 20 ms. Measures, in-process and interleaved, (a) the step alone (key per gate: version,
// config section, stat of the gate's case files and rules/, scanner binary; one small JSON read) and (b) config
// load + the step, on a repo with every built-in gate plus one command gate. Not a timed test.
// Usage: node bench/selftest-cache.mjs [iterations=200]   (needs `npm run build`)
import { join } from 'node:path';
import { median, root, tempRepo, withLocalGitleaks } from './lib.mjs';

withLocalGitleaks();
const { loadConfig } = await import(join(root, 'dist', 'core', 'config.js'));
const { cacheRoot } = await import(join(root, 'dist', 'core', 'ledger.js'));
const { repoFacts } = await import(join(root, 'dist', 'core', 'git.js'));
const { selfTestPreflight } = await import(join(root, 'dist', 'commands', 'selftest.js'));
const { configOptions } = await import(join(root, 'dist', 'gates', 'registry.js'));
const { checkSelfTestCache } = await import(join(root, 'dist', 'mutations', 'cache.js'));

const n = Number(process.argv[2] ?? 200);
const repo = tempRepo('selftest-cache', {
  'loopgates.yaml': [
    'version: 1',
    'commands:',
    '  - id: no-todo',
    '    command: [sh, scripts/check.sh]',
    '    loop: {runs: scripts/check.sh, reads: res xml, ends: one pass, asks: never}',
    '    files: ["res/**/*.xml"]',
    '    mutations: [{file: res/values/strings.xml, append: "<!-- TODO -->"}]',
    '',
  ].join('\n'),
  'res/values/strings.xml': '<resources>\n  <string name="a">Hello</string>\n</resources>\n',
  'scripts/check.sh': 'if grep -Hn TODO res/values/strings.xml; then exit 1; fi\n',
});
const facts = await repoFacts(repo);
const cache = cacheRoot(repo, facts);
const io = { cwd: repo, env: process.env, stdout: () => {}, stderr: () => {}, isTTY: false, signal: new AbortController().signal };
const ctxFor = (config) => ({ io, config, ws: { root: repo }, gates: config.gates.filter((g) => g.enabled), bypassed: new Set(), cacheRoot: cache });

// Fill the cache once (a miss runs every gate's cases).
const t0 = performance.now();
const first = await selfTestPreflight(ctxFor(loadConfig(repo, await configOptions())));
const missMs = performance.now() - t0;
if (first && first.exitCode !== 0) {
  console.error('self-tests are red; cannot measure a hit:', JSON.stringify(first.results?.map((r) => r.reason)));
  process.exit(2);
}
const config = loadConfig(repo, await configOptions());
const gates = config.gates.filter((g) => g.enabled);
const { hits, misses } = checkSelfTestCache(gates.map((g) => g.settings), cache, repo, process.env);
if (misses.length) {
  console.error(`cache did not hit for: ${misses.map((m) => m.settings.gate.id).join(', ')}`);
  process.exit(2);
}

const step = [];
const withLoad = [];
for (let i = 0; i < n; i++) {
  let t = performance.now();
  const r = await selfTestPreflight(ctxFor(config));
  step.push(performance.now() - t);
  if (r && r.exitCode !== 0) throw new Error('a hit turned red');
  t = performance.now();
  await selfTestPreflight(ctxFor(loadConfig(repo, await configOptions())));
  withLoad.push(performance.now() - t);
}
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
console.log(`\nbench/selftest-cache: ${hits.length} gates cached (${hits.join(', ')}), ${n} iterations`);
console.log(`first run (miss, every case): ${missMs.toFixed(0)} ms`);
console.log(`hit, step only:        median ${median(step).toFixed(2)} ms, p95 ${p95(step).toFixed(2)} ms`);
console.log(`hit, config load+step: median ${median(withLoad).toFixed(2)} ms, p95 ${p95(withLoad).toFixed(2)} ms`);
console.log(`target: hit <= 20 ms -> ${median(step) <= 20 ? 'met' : 'NOT met'}`);
