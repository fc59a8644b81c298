// bench/bundle: what the CommonJS bundle (dist/loopgates.cjs) and its V8 code cache save on the commit path, against
// the ES-module CLI, in one interleaved run (order rotated each round). CPU = user+sys of the process and everything
// it waited for (wait4 rusage, bench/wait4.py), medians and min–max.
//   load: `node <entry> hook --help` (node start + loading every module the hook verb needs), minus `node -e 0`;
//   commit: `git commit` of one staged .md through the installed hook (only the secrets gate applies).
// With --base <dir of another loopgates build> (e.g. main's, built), its ES-module CLI and its own hook are measured
// in the same rounds, so "before" and "after" share the machine's noise.
// Usage: node bench/bundle.mjs [rounds=20] [--base /path/to/loopgates]   (needs npm run build; never a timed test)
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, root, tempRepo, withLocalGitleaks } from './lib.mjs';

withLocalGitleaks();
const args = process.argv.slice(2);
const baseAt = args.indexOf('--base');
const baseRoot = baseAt >= 0 ? args[baseAt + 1] : undefined;
const rounds = Number(args.find((a, i) => /^\d+$/.test(a) && i !== baseAt + 1) ?? 20);
const bundle = join(root, 'dist', 'loopgates.cjs');
if (!existsSync(bundle)) throw new Error(`${bundle} is missing: npm run build`);
const git = (dir, ...a) => execFileSync('git', a, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] }).toString();

/** A repo with the loopgates of `cliPath` installed (standalone, default config: secrets applies to a .md). */
function loopgatesRepo(name, cliPath) {
  const dir = tempRepo(name, { 'README.md': '# bench\n' });
  execFileSync(process.execPath, [cliPath, 'install', '--no-proof'], { cwd: dir, stdio: 'ignore' });
  git(dir, 'add', '-A');
  execFileSync('git', ['commit', '-q', '-m', 'loopgates'], { cwd: dir, stdio: 'ignore' });
  return dir;
}
/** A repo whose pre-commit hook runs `node -e 0`. */
function nodeHookRepo() {
  const dir = tempRepo('node', { 'README.md': '# bench\n' });
  writeFileSync(join(dir, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\n'${process.execPath}' -e 0\n`, { mode: 0o755 });
  return dir;
}

const scratch = tempRepo('load', { 'README.md': '# bench\n' });
const facts = git(scratch, 'rev-parse', '--path-format=absolute', '--show-toplevel', '--git-dir', '--git-common-dir', '--git-path', 'hooks', '--show-object-format');
const withCache = { ...process.env, LOOPGATES_HOOK_FACTS: `0\n${facts.trimEnd()}` };
const noCache = { ...process.env, LOOPGATES_CODE_CACHE: 'off' };
const load = (name, entry, env = process.env) => ({ name, dir: scratch, env, argv: [process.execPath, entry, 'hook', '--help'] });
const commit = (name, dir, env = process.env) => ({ name, dir, env, commit: true, argv: ['git', 'commit', '-q', '-m', 'c'] });
const repo = loopgatesRepo('bundle', cli);
const variants = [
  { name: 'node -e 0', dir: scratch, env: process.env, argv: [process.execPath, '-e', '0'] },
  load('load: ES modules (bin/loopgates.js hook --help)', cli),
  load('load: bundle, no code cache', bundle, noCache),
  load('load: bundle + code cache', bundle, withCache),
  commit('commit: hook running node -e 0', nodeHookRepo()),
  commit('commit: loopgates bundle, no code cache', repo, noCache),
  commit('commit: loopgates bundle + code cache', repo),
];
if (baseRoot) {
  variants.push(load('load: base build (bin/loopgates.js hook --help)', join(baseRoot, 'bin', 'loopgates.js')));
  variants.push(commit('commit: loopgates, base build', loopgatesRepo('base', join(baseRoot, 'bin', 'loopgates.js'))));
}

const samples = variants.map(() => []);
for (let r = -1; r < rounds; r++) {
  for (let k = 0; k < variants.length; k++) {
    const v = (k + Math.max(r, 0)) % variants.length;
    const run = variants[v];
    if (run.commit) {
      writeFileSync(join(run.dir, 'NOTES.md'), `note ${r} ${v}\n`);
      git(run.dir, 'add', '--', 'NOTES.md');
    }
    const out = JSON.parse(execFileSync('python3', [join(root, 'bench', 'wait4.py'), run.dir, ...run.argv], { env: run.env }).toString());
    if (out.status !== 0) throw new Error(`${run.name}: ${run.argv.join(' ')} exited ${out.status} in ${run.dir}`);
    if (r >= 0) samples[v].push(out.cpuMs);
  }
}
const med = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const m = samples.map(med);
console.log(`node ${process.version}, ${rounds} rounds, CPU ms (user+sys, wait4), medians`);
console.log('| variant | CPU ms | min–max | − node -e 0 |\n|---|---:|---:|---:|');
variants.forEach(({ name }, i) =>
  console.log(`| ${name} | ${m[i].toFixed(0)} | ${Math.min(...samples[i]).toFixed(0)}–${Math.max(...samples[i]).toFixed(0)} | ${(m[i] - m[0]).toFixed(0)} |`),
);
