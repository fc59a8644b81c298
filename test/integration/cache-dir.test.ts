// The cache under <git common dir>/loopgates/cache when it cannot be used: a file where the directory should be
// (mkdir fails with ENOTDIR: the run refuses once, naming the directory, the OS error and the command that fixes it,
// and no gate "crashes"), and cache files that cannot be written (each replaced by a directory, which a root user
// cannot chmod away): the real gates still judge, a staged credential stays red and a clean commit stays green.
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeHookVerb, makeRunVerb } from '../../commands/index.js';
import { runGate } from '../../core/runner.js';
import { memoryWorkspace } from '../../core/workspace.js';
import { fakeAwsAccessKey } from '../../gates/secrets/credentials.js';
import { treeAndIndexDigest, withGitRepo } from '../helpers/git-repo.js';
import { runVerbIn, toyGate, toys } from './run-toys.js';

const cacheOf = (dir: string) => join(dir, '.git', 'loopgates', 'cache');
const count = (text: string, part: string) => text.split(part).length - 1;

describe('a cache directory that is a file', () => {
  it('refuses the run once (exit 2) naming the directory, ENOTDIR and rm -rf, and never says crashed; after the fix the gates run', async () => {
    const run = makeRunVerb({ gates: toys });
    await withGitRepo({ 'a.txt': 'fine\n', 'b.kt': 'val b = 1\n' }, async (repo) => {
      repo.git('add', '--', '.');
      const cache = cacheOf(repo.dir);
      rmSync(cache, { recursive: true, force: true });
      mkdirSync(join(cache, '..'), { recursive: true });
      writeFileSync(cache, 'x\n');
      const before = treeAndIndexDigest(repo.dir);
      const r = await runVerbIn(run, repo.dir, []);
      expect(treeAndIndexDigest(repo.dir)).toBe(before);
      expect(r.code).toBe(2);
      const out = r.stdout + r.stderr;
      expect(out).not.toMatch(/crashed/);
      expect(out).not.toMatch(/loopgates(\.js)? doctor/);
      expect(count(out, 'ENOTDIR')).toBe(1);
      expect(out).toContain(`the loopgates cache directory ${cache} cannot be used`);
      expect(out).toContain(`fix: rm -rf '${cache}'`);
      // The fix the message gives (loopgates rebuilds the cache).
      rmSync(cache, { recursive: true, force: true });
      const again = await runVerbIn(run, repo.dir, []);
      expect(again.code).toBe(0);
      expect(statSync(cache).isDirectory()).toBe(true);
    });
  });

  it('a file at .git/loopgates (above the cache) is what the fix removes, and that fix works', async () => {
    const run = makeRunVerb({ gates: toys });
    await withGitRepo({ 'a.txt': 'fine\n' }, async (repo) => {
      repo.git('add', '--', '.');
      const above = join(repo.dir, '.git', 'loopgates');
      rmSync(above, { recursive: true, force: true });
      writeFileSync(above, 'x\n');
      const r = await runVerbIn(run, repo.dir, []);
      expect(r.code).toBe(2);
      expect(r.stdout + r.stderr).toContain(`fix: rm -rf '${above}'`);
      rmSync(above);
      expect((await runVerbIn(run, repo.dir, [])).code).toBe(0);
    });
  });

  it('runGate alone (selftest, mutate) reports a cache mkdir failure as an unusable cache, not as a crash', async () => {
    const root = join(tmpdir(), `loopgates-cache-file-${process.pid}`);
    writeFileSync(root, 'x\n');
    try {
      const ws = memoryWorkspace({ files: { 'a.txt': 'fine\n' }, mode: 'staged' });
      const r = await runGate({ gate: toyGate('toy', '.txt'), config: { word: 'BAD' }, timeoutMs: 10_000 }, { ws, cacheRoot: root });
      expect(r.verdict).toBe('error');
      expect(r.error?.message).toMatch(new RegExp(`^the loopgates cache directory ${root} cannot be used: ENOTDIR`));
      expect(r.error?.fix).toBe(`rm -rf '${root}'`);
    } finally {
      rmSync(root, { force: true });
    }
  });
});

describe('cache files that cannot be written', () => {
  /** Put a directory where each cache file goes, and a file where string-parity's parse cache directory goes. */
  function blockCacheFiles(dir: string): void {
    const cache = cacheOf(dir);
    rmSync(cache, { recursive: true, force: true });
    for (const f of ['config.json', 'selftest.json', 'secrets/gitleaks-probe.json', 'secrets/gitleaks-canary.json']) mkdirSync(join(cache, f), { recursive: true });
    mkdirSync(join(cache, 'string-parity'), { recursive: true });
    writeFileSync(join(cache, 'string-parity', 'parsed'), 'x\n');
  }

  it('never turns red into green and never crashes: a staged key is refused twice, a clean commit passes (hook, real gates)', async () => {
    const hook = makeHookVerb();
    const run = makeRunVerb();
    const aws = fakeAwsAccessKey();
    await withGitRepo({ 'loopgates.yaml': 'version: 1\n', 'A.kt': 'val a = 1\n' }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'base', '--no-verify');
      blockCacheFiles(repo.dir);
      repo.write('A.kt', `val k = "${aws.value}"\n`);
      repo.git('add', '--', 'A.kt');
      for (let i = 0; i < 2; i++) {
        const red = await runVerbIn(hook, repo.dir, ['pre-commit']);
        expect(red.stdout + red.stderr).not.toMatch(/crashed/);
        expect(red.code).toBe(1);
        expect(red.stdout).toContain(`A.kt:1`);
        expect(red.stdout).toMatch(/secrets +fail/);
      }
      repo.write('A.kt', 'val a = 2\n');
      repo.git('add', '--', 'A.kt');
      const green = await runVerbIn(run, repo.dir, []);
      expect(green.stdout + green.stderr).not.toMatch(/crashed/);
      expect(green.code).toBe(0);
      expect(green.stdout).toMatch(/secrets +pass/);
    });
  }, 120_000);
});
