// F10: install proves the hook in a scratch clone under /tmp/loopgates-proof-…, and shares the gates' self-test cache
// with it (commands/install/proof.ts). The clone's hook-* files (hook plan, its config copy, secrets plan) name the
// clone's paths, so they must never reach the user's cache: after install → uninstall → install none of them does.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertBuilt, withSandbox } from './install-support.js';

const APP = { 'README.md': '# notes\n' };

describe('install after uninstall', () => {
  it('leaves no hook-* file in the cache naming the proof clone', async () => {
    assertBuilt();
    await withSandbox(APP, async (s) => {
      const first = await s.cli(['install']);
      expect(first.code, first.stdout + first.stderr).toBe(0);
      // As install's `next:` line says: the hook and loopgates.yaml are committed, so the proof clone's index holds the
      // config and its hook writes a plan (keyed by the same config blob as the user's).
      s.repo.git('add', '--', '.loopgates', '.gitattributes', 'loopgates.yaml');
      const hooked = s.gitRun(['commit', '-q', '-m', 'loopgates']);
      expect(hooked.status, hooked.output).toBe(0);
      const u = await s.cli(['uninstall']);
      expect(u.code, u.stdout + u.stderr).toBe(0);
      const again = await s.cli(['install']);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      const cache = join(s.repo.dir, '.git', 'loopgates', 'cache');
      expect(existsSync(cache)).toBe(true);
      const named: string[] = [];
      for (const name of readdirSync(cache).filter((n) => n.startsWith('hook-'))) {
        const p = join(cache, name);
        if (statSync(p).isFile() && readFileSync(p, 'utf8').includes('loopgates-proof-')) named.push(name);
      }
      expect(named).toEqual([]);
    });
  }, 600_000);
});
