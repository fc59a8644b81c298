// Fix lines name a command the user's shell can run (fresh-user-4 F6): with loopgates a local devDependency and no
// `loopgates` on PATH, `fix: loopgates …` answered "command not found". Real repositories, the CLI in-process.
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withSandbox } from './install-support.js';
import { repoRoot } from '../helpers/setup-env.js';

const NO_GATES = 'version: 1\ngates:\n  secrets:\n    enabled: false\n  hardcoded-strings:\n    enabled: false\n  string-parity:\n    enabled: false\n  maestro-flows:\n    enabled: false\n  dump-audit:\n    enabled: false\n';

/** node_modules/loopgates (this package) and its node_modules/.bin/loopgates link, as npm i -D places them. */
function installLocally(dir: string): void {
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(repoRoot, join(dir, 'node_modules', 'loopgates'), 'dir');
  symlinkSync('../loopgates/bin/loopgates.js', join(dir, 'node_modules', '.bin', 'loopgates'));
}

/** PATH without any folder that holds a `loopgates`. */
const pathWithout = (extra: string[] = []) => [...extra, ...(process.env.PATH ?? '').split(delimiter).filter((d) => !d.includes('node_modules'))].join(delimiter);

const pkg = (extra: Record<string, unknown> = {}) => `${JSON.stringify({ name: 'app', private: true, devDependencies: { loopgates: 'file:loopgates-0.1.0.tgz' }, ...extra }, null, 2)}\n`;

describe('fix lines start loopgates the way this project can run it', () => {
  it('a local devDependency, no loopgates on PATH: npx loopgates in a refusal, a report note and json', async () => {
    await withSandbox({ 'package.json': pkg(), 'loopgates.yaml': NO_GATES, '.gitignore': 'node_modules/\n' }, async (s) => {
      installLocally(s.repo.dir);
      const env = { PATH: pathWithout() };
      const bad = await s.cli(['run', '--gate', 'nope'], env);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('  fix: run: npx loopgates explain   to list the gates');
      const none = await s.cli(['run', '--all'], env);
      expect(none.stdout).toContain('or run: npx loopgates install)');
      expect(none.stdout.replaceAll('npx loopgates', '')).not.toContain('loopgates install');
      const json = JSON.parse((await s.cli(['run', '--all', '--format', 'json'], env)).stdout) as { notes: string[] };
      expect(json.notes.join('\n')).toContain('or run: npx loopgates install)');
      // From a subfolder too: npx finds the project's bin above it.
      mkdirSync(join(s.repo.dir, 'src'));
      expect((await s.cli(['run', '--gate', 'nope'], env, join(s.repo.dir, 'src'))).stderr).toContain('fix: run: npx loopgates explain');
    });
  });

  it("the project's package manager runs it: pnpm exec from pnpm-lock.yaml, yarn from packageManager", async () => {
    await withSandbox({ 'package.json': pkg(), 'pnpm-lock.yaml': "lockfileVersion: '9.0'\n", 'loopgates.yaml': NO_GATES }, async (s) => {
      installLocally(s.repo.dir);
      expect((await s.cli(['run', '--gate', 'nope'], { PATH: pathWithout() })).stderr).toContain('fix: run: pnpm exec loopgates explain');
    });
    await withSandbox({ 'package.json': pkg({ packageManager: 'yarn@4.1.0' }), 'loopgates.yaml': NO_GATES }, async (s) => {
      installLocally(s.repo.dir);
      expect((await s.cli(['run', '--gate', 'nope'], { PATH: pathWithout() })).stderr).toContain('fix: run: yarn loopgates explain');
    });
  });

  it('loopgates on PATH stays loopgates; neither on PATH nor installed: node and this bin/loopgates.js', async () => {
    await withSandbox({ 'loopgates.yaml': NO_GATES }, async (s) => {
      const bin = join(s.base, 'bin');
      mkdirSync(bin);
      writeFileSync(join(bin, 'loopgates'), '#!/bin/sh\n');
      chmodSync(join(bin, 'loopgates'), 0o755);
      expect((await s.cli(['run', '--gate', 'nope'], { PATH: pathWithout([bin]) })).stderr).toContain('  fix: run: loopgates explain   to list the gates');
      expect((await s.cli(['run', '--gate', 'nope'], { PATH: pathWithout() })).stderr).toContain(`  fix: run: node ${join(repoRoot, 'bin', 'loopgates.js')} explain   to list the gates`);
    });
  });
});
