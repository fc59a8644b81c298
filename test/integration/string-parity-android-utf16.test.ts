// An Android values file saved as UTF-16 (a BOM, or none, as Expat detects by `<`), or with a UTF-8 BOM, is a
// catalog: before (fresh6 F13), discovery sniffed `<string` in the bytes read as UTF-8, so a UTF-16 translation
// (or base) was silently no catalog: the commit said skip and `run --all` counted one file fewer, and a dropped
// `%1$s` landed. A values file whose bytes are no text in any encoding an XML parser detects is `unparsable`, never
// left out. Real git, real `git commit` through `loopgates hook pre-commit`; only string-parity enabled.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isolatedGitEnv, withGitRepo, type TempRepo } from '../helpers/git-repo.js';

const repoRoot = resolve(import.meta.dirname, '..', '..');
const bin = join(repoRoot, 'bin', 'loopgates.js');
let config = '';

// The element-x-android shape: the default values file and the translations have different names, so the
// translation is not vouched for by a base of its name and discovery reads it.
const BASE = 'app/src/main/res/values/localazy.xml';
const DE = 'app/src/main/res/values-de/translations.xml';
const xml = (enc: string, body: string) => `<?xml version="1.0" encoding="${enc}"?>\n<resources>\n${body}</resources>\n`;
const base = xml('utf-8', '    <string name="greet">Hello %1$s</string>\n');
const deText = (enc: string, value: string) => xml(enc, `    <string name="greet">${value}</string>\n`);

function utf16(text: string, order: 'LE' | 'BE', bom: boolean): Buffer {
  const b = Buffer.from(`${bom ? '\ufeff' : ''}${text}`, 'utf16le');
  if (order === 'BE') b.swap16();
  return b;
}

function setup(repo: TempRepo) {
  repo.git('add', '--', '.');
  repo.git('commit', '-q', '-m', 'base', '--no-verify');
  repo.write('.git/hooks/pre-commit', `#!/bin/sh\nnode "${bin}" hook pre-commit\n`);
  chmodSync(join(repo.dir, '.git', 'hooks', 'pre-commit'), 0o755);
  const env = { ...process.env, ...isolatedGitEnv(join(repo.dir, '..', 'home')) };
  const commit = (path: string, bytes: Buffer | string) => {
    repo.write(path, bytes);
    repo.git('add', '--', path);
    const r = spawnSync('git', ['commit', '-q', '-m', path], { cwd: repo.dir, env, encoding: 'utf8' });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  };
  const runAll = () => {
    const r = spawnSync('node', [bin, 'run', '--all', '--gate', 'string-parity', '--format', 'json'], { cwd: repo.dir, env, encoding: 'utf8' });
    const res = (JSON.parse(r.stdout) as { results: Array<{ verdict: string; counts: { files: number }; findings: Array<{ rule: string; file: string; line: number }> }> }).results[0]!;
    return { status: r.status, ...res };
  };
  return { commit, runAll };
}

describe('string-parity: Android values files in UTF-16 or with a UTF-8 BOM', () => {
  beforeAll(() => {
    if (!existsSync(join(repoRoot, 'dist', 'commands', 'hook.js'))) throw new Error('run npm run build first');
    const listed = spawnSync('node', [bin, 'explain', '--all', '--format', 'json'], { cwd: tmpdir(), encoding: 'utf8', env: { ...process.env, GIT_CEILING_DIRECTORIES: tmpdir() } });
    const ids = (JSON.parse(listed.stdout) as { gates: Array<{ id: string; source: string }> }).gates.filter((g) => g.source === 'builtin' && g.id !== 'string-parity').map((g) => g.id);
    config = ['version: 1', 'gates:', ...ids.flatMap((id) => [`  ${id}:`, '    enabled: false'])].join('\n') + '\n';
  });

  const cases: Array<[string, (t: string) => Buffer]> = [
    ['UTF-16LE with a BOM', (t) => utf16(t.replace('utf-8', 'utf-16'), 'LE', true)],
    ['UTF-16BE with a BOM', (t) => utf16(t.replace('utf-8', 'utf-16'), 'BE', true)],
    ['UTF-16LE without a BOM', (t) => utf16(t.replace('utf-8', 'utf-16'), 'LE', false)],
    ['UTF-16BE without a BOM', (t) => utf16(t.replace('utf-8', 'utf-16'), 'BE', false)],
    ['UTF-8 with a BOM', (t) => Buffer.from(`\ufeff${t}`)],
  ];
  for (const [name, enc] of cases) {
    it(`red: a translation in ${name} that drops %1$s is refused at its line, and run --all counts it; with %1$s it lands`, async () => {
      await withGitRepo({ 'loopgates.yaml': config, [BASE]: base, [DE]: deText('utf-8', 'Hallo %1$s') }, async (repo) => {
        const { commit, runAll } = setup(repo);
        const refused = commit(DE, enc(deText('utf-8', 'Hallo')));
        expect(refused.status, refused.out).toBe(1);
        expect(refused.out).toMatch(/string-parity\s+fail/);
        expect(refused.out).toContain(`${DE}:3`);
        expect(refused.out).toContain('placeholder-mismatch');
        repo.git('commit', '-q', '-m', 'dropped', '--no-verify');
        const all = runAll();
        expect(all.status).toBe(1);
        expect(all.counts.files).toBe(2);
        expect(all.findings.map((f) => `${f.rule} ${f.file}:${f.line}`)).toEqual([`placeholder-mismatch ${DE}:3`]);
        const landed = commit(DE, enc(deText('utf-8', 'Hallo %1$s')));
        expect(landed.status, landed.out).toBe(0);
      });
    });
  }

  it('red: a base in UTF-16LE is the base: a translation that drops %1$s is refused', async () => {
    await withGitRepo({ 'loopgates.yaml': config, [BASE]: utf16(base.replace('utf-8', 'utf-16'), 'LE', true), [DE]: deText('utf-8', 'Hallo %1$s') }, async (repo) => {
      const { commit, runAll } = setup(repo);
      const refused = commit(DE, deText('utf-8', 'Hallo'));
      expect(refused.status, refused.out).toBe(1);
      expect(refused.out).toContain(`${DE}:3`);
      expect(refused.out).toContain('placeholder-mismatch');
      expect(runAll().counts.files).toBe(2);
    });
  });

  it('red: a translation in UTF-32 (no encoding an XML parser detects here) is unparsable, not skipped', async () => {
    await withGitRepo({ 'loopgates.yaml': config, [BASE]: base, [DE]: deText('utf-8', 'Hallo %1$s') }, async (repo) => {
      const { commit, runAll } = setup(repo);
      const text = deText('utf-32', 'Hallo %1$s');
      const u32 = Buffer.alloc(text.length * 4);
      for (let i = 0; i < text.length; i++) u32.writeUInt32LE(text.charCodeAt(i), i * 4);
      const refused = commit(DE, u32);
      expect(refused.status, refused.out).toBe(1);
      expect(refused.out).toContain(`${DE}:1`);
      expect(refused.out).toContain('unparsable');
      repo.git('commit', '-q', '-m', 'u32', '--no-verify');
      const all = runAll();
      expect(all.counts.files).toBe(2);
      expect(all.findings.map((f) => `${f.rule} ${f.file}:${f.line}`)).toEqual([`unparsable ${DE}:1`]);
    });
  });
});
