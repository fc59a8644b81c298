// bench/peers: the CPU a `git commit` of one small staged file costs with loopgates and with other hook managers, in
// one interleaved run (order rotated each round). CPU = user+sys of git and every process it waited for (wait4
// rusage, bench/wait4.py). Medians, min and max, ratios against (a) no hook and (b) a hook running `node -e 0`.
// Run by hand: node bench/peers.mjs [rounds=20]. Never a timed test. Managers not installed here are reported so.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, root, tempRepo, withLocalGitleaks } from './lib.mjs';

withLocalGitleaks();
const rounds = Number(process.argv[2] ?? 20);
const git = (dir, ...a) => execFileSync('git', a, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
const base = { 'README.md': '# bench\n', 'app/src/main/res/values/strings.xml': '<resources>\n  <string name="a">A</string>\n</resources>\n' };

/** A repo whose pre-commit hook is `body` (a sh script), or no hook when body is null. */
function hookRepo(name, body) {
  const dir = tempRepo(name, base);
  const hooks = join(dir, '.git', 'hooks');
  if (body !== null) {
    writeFileSync(join(hooks, 'pre-commit'), `#!/bin/sh\n${body}\n`);
    chmodSync(join(hooks, 'pre-commit'), 0o755);
  }
  return dir;
}

/** A repo with loopgates installed (standalone) and `config` committed through the hook once. */
function loopgatesRepo(name, config) {
  const dir = tempRepo(name, base);
  execFileSync(process.execPath, [cli, 'install', '--no-proof'], { cwd: dir, stdio: 'ignore' });
  if (config) writeFileSync(join(dir, 'loopgates.yaml'), config);
  git(dir, 'add', '-A');
  execFileSync('git', ['commit', '-q', '-m', 'loopgates'], { cwd: dir, stdio: 'ignore', env: { ...process.env, LOOPGATES_ALLOW_DISABLE: 'secrets' } });
  return dir;
}

function huskyRepo() {
  const husky = join(root, 'node_modules', 'husky', 'bin.js');
  if (!existsSync(husky)) return null;
  const dir = tempRepo('husky', { ...base, 'package.json': '{"name":"b","version":"1.0.0"}\n' });
  execFileSync(process.execPath, [husky], { cwd: dir, stdio: 'ignore' });
  mkdirSync(join(dir, '.husky'), { recursive: true });
  writeFileSync(join(dir, '.husky', 'pre-commit'), 'true\n');
  return dir;
}

/** A package's version from root's node_modules, or null when it is not installed. */
function installed(name) {
  const pkg = join(root, 'node_modules', name, 'package.json');
  return existsSync(pkg) ? JSON.parse(readFileSync(pkg, 'utf8')).version : null;
}

// lefthook (npm, its linux-x64 binary run directly through LEFTHOOK_BIN, as its hook script allows): one command.
function lefthookRepo() {
  const bin = join(root, 'node_modules', 'lefthook-linux-x64', 'bin', 'lefthook');
  if (!installed('lefthook') || !existsSync(bin)) return null;
  const dir = tempRepo('lefthook', { ...base, 'lefthook.yml': 'pre-commit:\n  commands:\n    noop:\n      run: "true"\n' });
  execFileSync(bin, ['install'], { cwd: dir, stdio: 'ignore' });
  process.env.LEFTHOOK_BIN = bin;
  return dir;
}

// simple-git-hooks (npm): the hook is the package.json command itself.
function simpleGitHooksRepo() {
  if (!installed('simple-git-hooks')) return null;
  const dir = tempRepo('sgh', { ...base, 'package.json': '{"name":"b","version":"1.0.0","simple-git-hooks":{"pre-commit":"true"}}\n' });
  execFileSync(process.execPath, [join(root, 'node_modules', 'simple-git-hooks', 'cli.js')], { cwd: dir, stdio: 'ignore' });
  return dir;
}

// pre-commit (Debian's package): a local hook running `true`, installed with its own command. Its store (db.db; a
// `language: system` hook creates no environment and needs no network) goes to a temp PRE_COMMIT_HOME, not ~/.cache,
// and is created by one untimed commit here, as loopgatesRepo's first commit warms loopgates' caches.
function preCommitRepo() {
  if (!existsSync('/usr/bin/pre-commit')) return null;
  const cfg = 'repos:\n  - repo: local\n    hooks:\n      - id: noop\n        name: noop\n        entry: "true"\n        language: system\n        pass_filenames: false\n';
  const dir = tempRepo('precommit', { ...base, '.pre-commit-config.yaml': cfg });
  process.env.PRE_COMMIT_HOME = mkdtempSync(join(tmpdir(), 'loopgates-bench-precommit-home-'));
  execFileSync('/usr/bin/pre-commit', ['install'], { cwd: dir, stdio: 'ignore' });
  writeFileSync(join(dir, 'README.md'), '# bench (warm-up)\n');
  git(dir, 'add', '--', 'README.md');
  execFileSync('git', ['commit', '-q', '-m', 'warm-up'], { cwd: dir, stdio: 'ignore' });
  return dir;
}

const gitleaks = 'gitleaks protect --staged --redact --no-banner';
/** @type {Array<[name: string, dir: string, file: string, env?: Record<string, string>]>} */
const variants = [
  ['(a) no hook', hookRepo('none', null), 'README.md'],
  ['(b) hook: node -e 0', hookRepo('node', `'${process.execPath}' -e 0`), 'README.md'],
  ['(c) loopgates, no gate applies (secrets off, .md)', loopgatesRepo('skip', 'version: 1\ngates:\n  secrets:\n    enabled: false\n'), 'NOTES.md'],
  // Every built-in gate on (version: 1): the .md is read by secrets alone, the de catalog by secrets + string-parity,
  // the .kt file by secrets + hardcoded-strings.
  ['(d) loopgates, only secrets applies (.md)', loopgatesRepo('secrets', 'version: 1\n'), 'NOTES.md'],
  ['(e) bare gitleaks protect --staged', hookRepo('gitleaks', gitleaks), 'README.md'],
  ['(f) loopgates, staged de translation', loopgatesRepo('l10n', 'version: 1\n'), 'app/src/main/res/values-de/strings.xml'],
  ['(g) loopgates, .kt (secrets + hardcoded-strings)', loopgatesRepo('kt', 'version: 1\n'), 'app/src/main/java/A.kt'],
  // The floor of (c): a hook making only the two git calls a skip needs (the staged config's blob id and HEAD, then
  // the staged paths: no single git command tells both), with their output read, and nothing else.
  ['(h) floor of (c): sh + the skip\'s two git calls', hookRepo('floor', 'f=$(git rev-parse --path-format=absolute --show-toplevel --git-dir --git-common-dir --git-path hooks --show-object-format --revs-only HEAD :README.md --symbolic-full-name HEAD) && n=$(git -c core.quotePath=true diff-index --cached --no-renames --ignore-submodules=none HEAD --) && exit 0'), 'README.md'],
  // (d) through node: the hook's documented switch (LOOPGATES_NO_FAST_PATH=1, as the fast path's differential test
  // uses) sends the commit to node, which runs gitleaks itself. (f) is a secrets commit that runs node too, so (f)/(d')
  // is what the string-parity gate and its parsers add to a commit node judges anyway.
  ["(d') loopgates, only secrets applies, through node (.md)", loopgatesRepo('secrets-node', 'version: 1\n'), 'NOTES.md', { LOOPGATES_NO_FAST_PATH: '1' }],
];
const absent = [];
// `what` is the manager's name; the row is named with its version and `how`. A manager that is absent is listed by
// name alone (it printed "pre-commit null (Debian), ..." when the version was interpolated before the check).
const peer = (what, version, how, make) => {
  const dir = version ? make() : null;
  if (dir) variants.push([`${what} ${version}${how}`, dir, 'README.md']);
  else absent.push(what);
};
peer('husky', installed('husky'), ' running true', huskyRepo);
peer('lefthook', installed('lefthook'), ', one command', lefthookRepo);
peer('simple-git-hooks', installed('simple-git-hooks'), '', simpleGitHooksRepo);
// `pre-commit --version` prints "pre-commit 3.0.4" (Debian's 3.0.4-1).
const preCommitVersion = existsSync('/usr/bin/pre-commit') ? /^pre-commit (\S+)/.exec(execFileSync('/usr/bin/pre-commit', ['--version']).toString().trim())?.[1] ?? 'version unknown' : null;
peer('pre-commit', preCommitVersion, ' (Debian), a local true hook', preCommitRepo);

const content = (file, i) =>
  file.endsWith('.xml') ? `<resources>\n  <string name="a">A ${i}</string>\n</resources>\n` : file.endsWith('.kt') ? `package a\n\nfun f${i}() = ${i}\n` : `note ${i}\n`;
const samples = variants.map(() => []);
for (let r = 0; r < rounds; r++) {
  for (let k = 0; k < variants.length; k++) {
    const v = (k + r) % variants.length;
    const [, dir, file, env] = variants[v];
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), content(file, r));
    git(dir, 'add', '--', file);
    const out = JSON.parse(execFileSync('python3', [join(root, 'bench', 'wait4.py'), dir, 'git', 'commit', '-q', '-m', `r${r}`], { env: { ...process.env, ...env } }).toString());
    if (out.status !== 0) throw new Error(`${variants[v][0]}: git commit exited ${out.status} in ${dir}`);
    samples[v].push(out.cpuMs);
  }
}
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const m = samples.map(med);
const line = (name, i) => `| ${name} | ${m[i].toFixed(0)} | ${Math.min(...samples[i]).toFixed(0)}–${Math.max(...samples[i]).toFixed(0)} | ${(m[i] / m[0]).toFixed(2)} | ${(m[i] / m[1]).toFixed(2)} |`;
console.log(`node ${process.version}, ${rounds} rounds, CPU ms (user+sys, wait4), medians`);
console.log('| variant | CPU ms | min–max | × no hook | × `node -e 0` hook |\n|---|---:|---:|---:|---:|');
variants.forEach(([name], i) => console.log(line(name, i)));
const r = (x) => x.toFixed(2);
console.log('\nratios (issue 17 targets):');
console.log(`- no gate applies: (c) / (b) = ${r(m[2] / m[1])} (target <= 0.35); its floor (h) / (b) = ${r(m[7] / m[1])}; (c) - (h) = ${(m[2] - m[7]).toFixed(0)} ms`);
console.log(`- secrets only: (d) / ((b)+(e)) = ${r(m[3] / (m[1] + m[4]))} (target <= 1.25); (d) / ((a)+(e)) = ${r(m[3] / (m[0] + m[4]))}`);
console.log(`- staged translation: (f) / (d) = ${r(m[5] / m[3])} (target <= 1.2); (f) / (d') = ${r(m[5] / m[8])} (both through node)`);
console.log(`- node's own work on (f): (f) - (d) - ((b) - (a)) = ${(m[5] - m[3] - (m[1] - m[0])).toFixed(0)} ms; (f) - (d') = ${(m[5] - m[8]).toFixed(0)} ms; (d') - (d) = ${(m[8] - m[3]).toFixed(0)} ms`);
console.log(`- .kt commit: (g) / (d) = ${r(m[6] / m[3])}; (g) / ((b)+(e)) = ${r(m[6] / (m[1] + m[4]))}`);
if (absent.length) console.log(`not measured (not installed here): ${absent.join(', ')}`);
