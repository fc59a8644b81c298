// fresh F6: `run --all` judges the tree's own files; a submodule is another repository whose files it never reads, so
// a credential there passed secrets without a word. The run now names each submodule it did not scan, in every format
// that carries notes. Real git (a real `git submodule add`), real gitleaks.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertBuilt, fakeAwsKeyId, withSandbox, type Sandbox } from './install-support.js';

const YAML = 'version: 1\ngates:\n  secrets: {}\n  hardcoded-strings: {enabled: false}\n  string-parity: {enabled: false}\n  maestro-flows: {enabled: false}\n  dump-audit: {enabled: false}\n';

/** A repository at `<base>/<name>` holding `s.md` with an AWS key id, added to the sandbox's repository at `at`. */
function addSubmodule(s: Sandbox, name: string, at: string): void {
  const dir = join(s.base, name);
  mkdirSync(dir);
  const git = (args: string[], cwd: string) => {
    const r = spawnSync('git', args, { cwd, env: s.env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  };
  git(['init', '-q'], dir);
  writeFileSync(join(dir, 's.md'), `k ${fakeAwsKeyId()}\n`);
  git(['add', '.'], dir);
  git(['commit', '-q', '-m', 's'], dir);
  git(['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', dir, at], s.repo.dir);
  git(['commit', '-q', '-m', `submodule ${at}`], s.repo.dir);
}

describe('run --all names the submodules it did not scan (fresh F6)', () => {
  it('red: one submodule holding a key: secrets passes the tree, and a note names libs/sub (text and json)', async () => {
    assertBuilt();
    await withSandbox({ 'loopgates.yaml': YAML, 'README.md': 'x\n' }, async (s) => {
      addSubmodule(s, 'sub', 'libs/sub');
      const text = await s.cli(['run', '--all']);
      expect(text.stdout).toContain('1 submodule (libs/sub) not scanned: run loopgates in it');
      expect(text.stdout).toMatch(/secrets +pass/);
      expect(text.code).toBe(0);
      const json = JSON.parse((await s.cli(['run', '--all', '--format', 'json'])).stdout) as { notes: string[] };
      expect(json.notes).toContain('1 submodule (libs/sub) not scanned: run loopgates in it');
      const github = await s.cli(['run', '--all', '--format', 'github']);
      expect(github.stdout).toContain('::notice title=loopgates::1 submodule (libs/sub) not scanned: run loopgates in it');
    });
  });

  it('red: two submodules are counted and both named', async () => {
    assertBuilt();
    await withSandbox({ 'loopgates.yaml': YAML, 'README.md': 'x\n' }, async (s) => {
      addSubmodule(s, 'one', 'libs/one');
      addSubmodule(s, 'two', 'vendor-src/two');
      const r = await s.cli(['run', '--all']);
      expect(r.stdout).toContain('2 submodules (libs/one, vendor-src/two) not scanned: run loopgates in each');
    });
  });

  it('red: an untracked repository inside the tree (git lists only its folder) is named too', async () => {
    assertBuilt();
    await withSandbox({ 'loopgates.yaml': YAML, 'README.md': 'x\n' }, async (s) => {
      mkdirSync(join(s.repo.dir, 'tools', 'nested'), { recursive: true });
      spawnSync('git', ['init', '-q'], { cwd: join(s.repo.dir, 'tools', 'nested'), env: s.env });
      writeFileSync(join(s.repo.dir, 'tools', 'nested', 'k.md'), `k ${fakeAwsKeyId()}\n`);
      const r = await s.cli(['run', '--all']);
      expect(r.stdout).toContain('1 nested repository (tools/nested/, untracked) not scanned: run loopgates in it');
    });
  });

  it('green: a tree without submodules says nothing about them', async () => {
    assertBuilt();
    await withSandbox({ 'loopgates.yaml': YAML, 'README.md': 'x\n', 'libs/plain/a.md': 'a\n' }, async (s) => {
      const r = await s.cli(['run', '--all']);
      expect(r.stdout).not.toContain('submodule');
      expect(r.code).toBe(0);
    });
  });
});
