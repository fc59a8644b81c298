// The packed tarball as a user gets it (after husky's tests): `npm run build && npm pack`, a scratch git repository
// made from the real AntennaPod catalogs and layouts (../shared/corpus), `npm init -y && npm install <tarball>`,
// `npx loopgates install`, then a commit planting a generated credential in a real strings.xml is refused (file:line
// named, value never printed) and a clean commit lands; every built-in gate's self-test cases run through the
// shipped bundle (dist/loopgates.cjs), and the commits are shown to run it (its V8 code cache). One pack per run.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { l10nProject } from '../helpers/corpus.js';
import { isolatedGitEnv, treeAndIndexDigest } from '../helpers/git-repo.js';
import { repoRoot } from '../helpers/setup-env.js';
import { builtinGates } from '../../gates/registry.js';

const CORPUS = l10nProject('AntennaPod__AntennaPod');
const STRINGS = 'ui/i18n/src/main/res/values/strings.xml';

let base = '';
let app = '';
let tarball = '';
let env: Record<string, string> = {};

/** Run a process without blocking the worker (a blocked worker misses vitest's RPC deadlines). Never throws. */
function run(file: string, args: string[], cwd: string): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (output += b.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ status: code ?? -1, output });
    });
  });
}

/** Working tree (outside .git, node_modules and the ledger) and index, so the test can show the hook wrote nothing. */
const treeAndIndex = (dir: string): string => treeAndIndexDigest(dir, ['node_modules', '.loopgates/ledger.jsonl']);

/** An AWS access key id shape, random each run (gitleaks rule aws-access-token); never committed in token shape. */
function fakeAwsKeyId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  return ['A', 'K', 'I', 'A'].join('') + Array.from({ length: 16 }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('');
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'loopgates-e2e-'));
  const home = join(base, 'home');
  mkdirSync(home);
  env = { ...(process.env as Record<string, string>), ...isolatedGitEnv(home), npm_config_cache: join(homedir(), '.npm'), npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
  for (const k of Object.keys(env)) if (k.startsWith('LOOPGATES_') || (k.startsWith('GIT_') && !(k in isolatedGitEnv(home)))) delete env[k];

  const build = await run('npm', ['run', 'build'], repoRoot);
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.output}`);
  const packDir = join(base, 'pack');
  mkdirSync(packDir);
  const pack = await run('npm', ['pack', '--silent', '--pack-destination', packDir], repoRoot);
  if (pack.status !== 0) throw new Error(`npm pack failed:\n${pack.output}`);
  const name = readdirSync(packDir).find((f) => f.endsWith('.tgz'));
  if (!name) throw new Error(`npm pack wrote no tarball:\n${pack.output}`);
  tarball = join(packDir, name);

  app = join(base, 'AntennaPod');
  cpSync(CORPUS, app, { recursive: true });
  for (const args of [['init', '-q', '-b', 'main'], ['add', '-A'], ['commit', '-q', '-m', 'AntennaPod catalogs and layouts']]) {
    const r = await run('git', args, app);
    if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed:\n${r.output}`);
  }
}, 600_000);

afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

describe('the packed tarball in a real Android repository', () => {
  it('npx loopgates install, then a credential in strings.xml is refused and a clean commit lands', async () => {
    expect((await run('npm', ['init', '-y'], app)).status).toBe(0);
    const inst = await run('npm', ['install', '--no-audit', '--no-fund', tarball], app);
    expect(inst.output).not.toMatch(/ERR!/);
    expect(inst.status).toBe(0);

    const started = performance.now();
    const install = await run('npx', ['loopgates', 'install'], app);
    const installMs = performance.now() - started;
    expect(install.output).toMatch(/finds loopgates: node_modules/);
    expect(install.output).toMatch(/proving: canary commit refused \(exit 1\), finding at loopgates-proof\/canary\.txt/);
    expect(install.output).toMatch(/proving: clean commit landed/);
    expect(install.status).toBe(0);
    expect(JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')).scripts.prepare).toMatch(/--from-prepare/);
    expect(readFileSync(join(app, '.git/hooks/pre-commit'), 'utf8')).toMatch(/loopgates-shim/);
    console.log(`e2e: npx loopgates install (with proof) took ${(installMs / 1000).toFixed(1)} s`);
    // The tarball ships the bundle the stored hook runs (scripts/bundle.mjs) and its code-cache loader.
    const shipped = join(app, 'node_modules', 'loopgates', 'dist');
    expect(existsSync(join(shipped, 'loopgates.cjs')) && existsSync(join(shipped, 'loopgates.bundle.cjs'))).toBe(true);

    // Every built-in gate's self-test cases, through the shipped bundle, judged as the hook judges.
    const selftest = await run(process.execPath, [join(shipped, 'loopgates.cjs'), 'selftest', '--format', 'json', ...builtinGates.flatMap((g) => ['--gate', g.id])], app);
    expect(selftest.status, selftest.output).toBe(0);
    const proofs = (JSON.parse(selftest.output) as { gates: Array<{ gate: string; proof: string; cases: unknown[] }> }).gates;
    expect(proofs.map((g) => [g.gate, g.proof])).toEqual(builtinGates.map((g) => [g.id, 'PROVEN']));
    expect(proofs.every((g) => g.cases.length > 0)).toBe(true);

    // Plant a generated credential in the real base catalog, as the first <string> after the (multi-line) <resources> tag.
    const original = readFileSync(join(app, STRINGS), 'utf8');
    const lines = original.split('\n');
    const open = lines.findIndex((l) => l.includes('<resources'));
    const at = lines.findIndex((l, i) => i >= open && l.includes('>'));
    expect(open).toBeGreaterThanOrEqual(0);
    const key = fakeAwsKeyId();
    lines.splice(at + 1, 0, `    <string name="sync_access_key" translatable="false">${key}</string>`);
    writeFileSync(join(app, STRINGS), lines.join('\n'));
    expect((await run('git', ['add', '--', STRINGS], app)).status).toBe(0);
    // git commit rewrites the index once itself (stat refresh) before hooks run: let it, through a refusing hook.
    const refuser = join(base, 'refusing-hooks');
    mkdirSync(refuser);
    writeFileSync(join(refuser, 'pre-commit'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    await run('git', ['-c', `core.hooksPath=${refuser}`, 'commit', '-q', '-m', 'warm-up'], app);
    const before = treeAndIndex(app);
    const headBefore = (await run('git', ['rev-parse', 'HEAD'], app)).output;
    const refused = await run('git', ['commit', '-m', 'sync: access key'], app);
    expect(refused.status).toBe(1);
    expect(refused.output).toContain(`${STRINGS}:${at + 2}`);
    expect(refused.output).not.toContain(key);
    expect((await run('git', ['rev-parse', 'HEAD'], app)).output).toBe(headBefore);
    expect(treeAndIndex(app)).toBe(before);
    // That verdict came from the tarball's bundle: only its loader writes the V8 code cache, keyed by this node.
    const v8 = join(app, '.git', 'loopgates', 'cache', 'v8');
    expect(readdirSync(v8)).toEqual([expect.stringMatching(new RegExp(`^${process.version.replace(/\./g, '\\.')}-${process.arch}-[0-9a-f]{16}\\.bin$`))]);

    // The clean version: the same real catalog with a harmless new string, plus loopgates' own files.
    writeFileSync(join(app, STRINGS), original.replace(/(<resources[^>]*>\n)/, '$1    <string name="sync_region" translatable="false">eu-west-1</string>\n'));
    expect((await run('git', ['add', '--', STRINGS, '.loopgates', '.gitattributes', 'loopgates.yaml', 'package.json'], app)).status).toBe(0);
    const clean = await run('git', ['commit', '-m', 'sync: region; loopgates hook'], app);
    expect(clean.output).toMatch(/secrets\s+pass/);
    expect(clean.status).toBe(0);
    expect((await run('git', ['rev-parse', 'HEAD'], app)).output).not.toBe(headBefore);
    expect((await run('git', ['show', '--stat', '--format=%s', 'HEAD'], app)).output).toContain('.loopgates/hooks/pre-commit');

    // A teammate's fresh clone: `npm install` runs the committed "prepare" script, which places the hook.
    const clone = join(base, 'clone');
    expect((await run('git', ['clone', '-q', app, clone], base)).status).toBe(0);
    expect(existsSync(join(clone, '.git/hooks/pre-commit'))).toBe(false);
    const npmInstall = await run('npm', ['install', '--no-audit', '--no-fund'], clone);
    expect(npmInstall.status).toBe(0);
    expect(npmInstall.output).toMatch(/placed the shim/);
    expect(readFileSync(join(clone, '.git/hooks/pre-commit'), 'utf8')).toMatch(/loopgates-shim/);
    const key2 = fakeAwsKeyId();
    writeFileSync(join(clone, 'Sync.kt'), `const val KEY = "${key2}"\n`);
    await run('git', ['add', 'Sync.kt'], clone);
    const refusedInClone = await run('git', ['commit', '-m', 'key'], clone);
    expect(refusedInClone.status).toBe(1);
    expect(refusedInClone.output).toContain('Sync.kt:1');
    expect(refusedInClone.output).not.toContain(key2);
  }, 600_000);
});
