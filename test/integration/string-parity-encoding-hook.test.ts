// A staged catalog that is not valid UTF-8 is refused by a real `git commit` through `loopgates hook pre-commit`
// (issue 15, fail closed): before, a byte 0xFF in a .strings translation became U+FFFD and the commit landed.
// Only string-parity is enabled; every other built-in gate of the built CLI is disabled.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isolatedGitEnv, withGitRepo } from '../helpers/git-repo.js';

const repoRoot = resolve(import.meta.dirname, '..', '..');
const bin = join(repoRoot, 'bin', 'loopgates.js');
let config = '';

const BASE = 'App/en.lproj/Localizable.strings';
const DE = 'App/de.lproj/Localizable.strings';
const de = (value: Buffer) => Buffer.concat([Buffer.from('/* Greeting */\n"greeting" = "'), value, Buffer.from('";\n')]);

describe('hook pre-commit: a staged catalog whose bytes are not UTF-8', () => {
  beforeAll(() => {
    if (!existsSync(join(repoRoot, 'dist', 'commands', 'hook.js'))) throw new Error('run npm run build first');
    const listed = spawnSync('node', [bin, 'explain', '--all', '--format', 'json'], { cwd: tmpdir(), encoding: 'utf8', env: { ...process.env, GIT_CEILING_DIRECTORIES: tmpdir() } });
    const ids = (JSON.parse(listed.stdout) as { gates: Array<{ id: string; source: string }> }).gates.filter((g) => g.source === 'builtin' && g.id !== 'string-parity').map((g) => g.id);
    config = ['version: 1', 'gates:', ...ids.flatMap((id) => [`  ${id}:`, '    enabled: false'])].join('\n') + '\n';
  });

  it('red: a .strings translation with a byte 0xFF is refused at its line; saved as UTF-8 it lands', async () => {
    await withGitRepo({ 'loopgates.yaml': config, [BASE]: '/* Greeting */\n"greeting" = "Hello %@";\n', [DE]: de(Buffer.from('Hallo %@')) }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'base', '--no-verify');
      repo.write('.git/hooks/pre-commit', `#!/bin/sh\nnode "${bin}" hook pre-commit\n`);
      chmodSync(join(repo.dir, '.git', 'hooks', 'pre-commit'), 0o755);
      const commit = () => {
        const r = spawnSync('git', ['commit', '-q', '-m', 'de'], { cwd: repo.dir, env: { ...process.env, ...isolatedGitEnv(join(repo.dir, '..', 'home')) }, encoding: 'utf8' });
        return { status: r.status, out: `${r.stdout}${r.stderr}` };
      };
      // "Grüße" saved as Latin-1 by an editor: 0xFC, 0xDF are no UTF-8 sequences.
      repo.write(DE, de(Buffer.from('Gr\xfc\xdfe %@', 'latin1')));
      repo.git('add', '--', DE);
      const refused = commit();
      expect(refused.status).toBe(1);
      expect(refused.out).toMatch(/string-parity\s+fail/);
      expect(refused.out).toContain(`${DE}:2`);
      expect(refused.out).toMatch(/not valid UTF-8: the byte 0xFC at line 2, column 17 is no UTF-8 sequence/);
      expect(repo.git('log', '--format=%s')).toBe('base\n');
      repo.write(DE, de(Buffer.from('Grüße %@')));
      repo.git('add', '--', DE);
      const landed = commit();
      expect(landed.status, landed.out).toBe(0);
      expect(repo.git('log', '--format=%s')).toBe('de\nbase\n');
    });
  });
});
