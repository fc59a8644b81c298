// doctor's fix for a missing stored hook offers `git checkout HEAD -- <hook>` only when HEAD holds that file: after an
// install whose files were never committed (then `git clean -fd`), that command fails when pasted ("pathspec … did
// not match"), so the fix is the install alone (fresh6 F7). Real git, the fix really pasted.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, withSandbox } from './install-support.js';

beforeAll(assertBuilt);

const STORED = '.loopgates/hooks/pre-commit';
const APP = { 'src/App.kt': 'fun main() = println("hi")\n' };
const missingLine = (out: string) => {
  const lines = out.split('\n');
  const i = lines.findIndex((l) => l.startsWith(`PROBLEM  ${STORED} is missing`));
  return i < 0 ? undefined : lines[i + 1]!.trim();
};

describe("doctor's fix for a missing stored hook", () => {
  it('install never committed: the fix is the install alone, which restores it', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      rmSync(join(s.repo.dir, STORED));
      const d = await s.cli(['doctor']);
      expect(d.code).toBe(2);
      const fix = missingLine(d.stdout);
      expect(fix).toMatch(/^fix: \S.* install$/);
      expect(fix).not.toContain('git checkout');
      expect(s.gitRun(['checkout', 'HEAD', '--', STORED]).status).not.toBe(0);
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      expect(missingLine((await s.cli(['doctor'])).stdout)).toBeUndefined();
    });
  });

  it('install committed: the fix offers git checkout HEAD -- first, and that command restores it', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      s.repo.git('add', '-A');
      s.repo.git('commit', '-q', '--no-verify', '-m', 'loopgates');
      rmSync(join(s.repo.dir, STORED));
      const d = await s.cli(['doctor']);
      expect(d.code).toBe(2);
      expect(missingLine(d.stdout)).toMatch(new RegExp(`^fix: git checkout HEAD -- ${STORED.replace(/\./g, '\\.')} {3}\\(or: \\S.* install\\)$`));
      expect(s.gitRun(['checkout', 'HEAD', '--', STORED]).status).toBe(0);
      const after = await s.cli(['doctor']);
      expect(missingLine(after.stdout)).toBeUndefined();
      expect(after.code).toBe(0);
    });
  });
});
