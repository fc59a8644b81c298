// `<item type="string" name="…">` in a values file is a string resource (aapt2 compiles it as `<string>`), so it is
// judged like one (fresh6 F14): before, a translation written so was not read and its dropped `%1$s` landed. Only
// `type="string"`: aapt2 reads an `<item>` as an item, never as a bag, so `<item type="plurals">` is no plural (only a
// reference such as `@plurals/x` compiles). Real `git commit` through the hook; only string-parity enabled.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isolatedGitEnv, withGitRepo, type TempRepo } from '../helpers/git-repo.js';

const repoRoot = resolve(import.meta.dirname, '..', '..');
const bin = join(repoRoot, 'bin', 'loopgates.js');
let config = '';

// Base and translation of different names (element-x-android's localazy.xml / translations.xml): discovery reads the
// translation to decide it is a catalog.
const BASE = 'app/src/main/res/values/localazy.xml';
const DE = 'app/src/main/res/values-de/translations.xml';
const xml = (body: string) => `<?xml version="1.0" encoding="utf-8"?>\n<resources>\n${body}</resources>\n`;
const str = (name: string, value: string) => `    <string name="${name}">${value}</string>\n`;
const item = (name: string, value: string) => `    <item type="string" name="${name}">${value}</item>\n`;

function setup(repo: TempRepo) {
  repo.git('add', '--', '.');
  repo.git('commit', '-q', '-m', 'base', '--no-verify');
  repo.write('.git/hooks/pre-commit', `#!/bin/sh\nnode "${bin}" hook pre-commit\n`);
  chmodSync(join(repo.dir, '.git', 'hooks', 'pre-commit'), 0o755);
  const env = { ...process.env, ...isolatedGitEnv(join(repo.dir, '..', 'home')) };
  const commit = (path: string, text: string) => {
    repo.write(path, text);
    repo.git('add', '--', path);
    const r = spawnSync('git', ['commit', '-q', '-m', path], { cwd: repo.dir, env, encoding: 'utf8' });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  };
  const runAll = () => {
    const r = spawnSync('node', [bin, 'run', '--all', '--gate', 'string-parity', '--format', 'json'], { cwd: repo.dir, env, encoding: 'utf8' });
    const res = (JSON.parse(r.stdout) as { results: Array<{ counts: { files: number; items: number }; findings: Array<{ rule: string; file: string; line: number }> }> }).results[0]!;
    return { status: r.status, ...res };
  };
  return { commit, runAll };
}

describe('string-parity: <item type="string"> is a string resource', () => {
  beforeAll(() => {
    if (!existsSync(join(repoRoot, 'dist', 'commands', 'hook.js'))) throw new Error('run npm run build first');
    const listed = spawnSync('node', [bin, 'explain', '--all', '--format', 'json'], { cwd: tmpdir(), encoding: 'utf8', env: { ...process.env, GIT_CEILING_DIRECTORIES: tmpdir() } });
    const ids = (JSON.parse(listed.stdout) as { gates: Array<{ id: string; source: string }> }).gates.filter((g) => g.source === 'builtin' && g.id !== 'string-parity').map((g) => g.id);
    config = ['version: 1', 'gates:', ...ids.flatMap((id) => [`  ${id}:`, '    enabled: false'])].join('\n') + '\n';
  });

  it('red: a translation <item type="string"> that drops %1$s is refused at its line, and run --all reads it; with %1$s it lands', async () => {
    await withGitRepo({ 'loopgates.yaml': config, [BASE]: xml(str('greet', 'Hello %1$s')), [DE]: xml(str('greet', 'Hallo %1$s')) }, async (repo) => {
      const { commit, runAll } = setup(repo);
      const refused = commit(DE, xml(item('greet', 'Hallo')));
      expect(refused.status, refused.out).toBe(1);
      expect(refused.out).toMatch(/string-parity\s+fail/);
      expect(refused.out).toContain(`${DE}:3`);
      expect(refused.out).toContain('placeholder-mismatch');
      repo.git('commit', '-q', '-m', 'dropped', '--no-verify');
      const all = runAll();
      expect(all.counts.files).toBe(2);
      expect(all.findings.map((f) => `${f.rule} ${f.file}:${f.line}`)).toEqual([`placeholder-mismatch ${DE}:3`]);
      const landed = commit(DE, xml(item('greet', 'Hallo %1$s')));
      expect(landed.status, landed.out).toBe(0);
    });
  });

  it('red: a base <item type="string"> is compared with a translation <string> of its name', async () => {
    await withGitRepo({ 'loopgates.yaml': config, [BASE]: xml(item('greet', 'Hello %1$s')), [DE]: xml(str('greet', 'Hallo %1$s')) }, async (repo) => {
      const { commit } = setup(repo);
      const refused = commit(DE, xml(str('greet', 'Hallo')));
      expect(refused.status, refused.out).toBe(1);
      expect(refused.out).toContain(`${DE}:3`);
      expect(refused.out).toContain('placeholder-mismatch');
    });
  });

  it('red: <string> and <item type="string"> of one name in one file are one resource defined twice', async () => {
    await withGitRepo({ 'loopgates.yaml': config, [BASE]: xml(str('greet', 'Hello %1$s')), [DE]: xml(str('greet', 'Hallo %1$s')) }, async (repo) => {
      const { commit } = setup(repo);
      const refused = commit(DE, xml(str('greet', 'Hallo %1$s') + item('greet', 'Hi %1$s')));
      expect(refused.status, refused.out).toBe(1);
      expect(refused.out).toContain(`${DE}:4`);
      expect(refused.out).toContain('duplicate-resource');
    });
  });

  it('green: <item type="plurals"> and <item type="dimen"> are not string resources (not read, so not compared)', async () => {
    await withGitRepo({ 'loopgates.yaml': config, [BASE]: xml(str('greet', 'Hello %1$s') + str('bye', 'Bye %1$s')), [DE]: xml(str('greet', 'Hallo %1$s') + str('bye', 'Tschüss %1$s')) }, async (repo) => {
      const { commit, runAll } = setup(repo);
      const landed = commit(DE, xml(str('greet', 'Hallo %1$s') + '    <item type="plurals" name="bye">@plurals/other</item>\n    <item type="dimen" name="gap">4dp</item>\n'));
      expect(landed.status, landed.out).toBe(0);
      const all = runAll();
      expect(all.findings).toEqual([]);
      expect(all.counts.items).toBe(3);
    });
  });

  // fresh6 F15: <xliff:g> (XLIFF namespace) is stripped by aapt2, so wrapping the placeholder is no markup change.
  it('green: <xliff:g> around a placeholder the base has bare lands, and run --all finds nothing (was markup-mismatch)', async () => {
    const ns = (body: string) => xml(body).replace('<resources>', '<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">');
    await withGitRepo({ 'loopgates.yaml': config, [BASE]: ns(str('greet', 'Hello %1$s')), [DE]: ns(str('greet', 'Hallo %1$s')) }, async (repo) => {
      const { commit, runAll } = setup(repo);
      const landed = commit(DE, ns(str('greet', 'Hallo <xliff:g id="name">%1$s</xliff:g>')));
      expect(landed.status, landed.out).toBe(0);
      expect(runAll().findings).toEqual([]);
      const refused = commit(DE, ns(str('greet', 'Hallo <xliff:g id="name">du</xliff:g>')));
      expect(refused.status, refused.out).toBe(1);
      expect(refused.out).toContain(`${DE}:3`);
      expect(refused.out).toContain('placeholder-mismatch');
    });
  });
});
