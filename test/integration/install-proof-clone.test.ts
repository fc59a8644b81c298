// The install proof's scratch clone runs the team's existing hook as git would in the user's repository: a husky hook
// that runs a committed script (mattermost-mobile: `.husky/pre-commit` is `sh ./scripts/pre-commit.sh`) finds it
// (fresh-user F4). What the clone cannot have, a script the hook runs that is not committed, is named as the cause.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/setup-env.js';
import { assertBuilt, withSandbox, type Sandbox } from './install-support.js';

beforeAll(assertBuilt);

const APP = { 'src/App.kt': 'fun main() = println("hi")\n', 'README.md': '# app\n', 'package.json': '{\n  "name": "app",\n  "private": true\n}\n' };

/** Real husky 9 (this package's devDependency) made active in the sandbox, as `npm install` runs its `prepare`. */
function activateHusky(s: Sandbox): void {
  const h = spawnSync(process.execPath, [join(repoRoot, 'node_modules/husky/bin.js')], { cwd: s.repo.dir, env: s.env, encoding: 'utf8' });
  expect(h.status).toBe(0);
  expect(s.repo.git('config', 'core.hooksPath').trim()).toBe('.husky/_');
}

describe('install proof with a husky hook that runs the team\'s own scripts', () => {
  it('a committed script the hook runs (and the committed file it sources) is there in the scratch clone: proven', async () => {
    await withSandbox({ ...APP }, async (s) => {
      const marker = join(s.base, 'team-hook-ran');
      // The shape of mattermost-mobile's hook: one line that runs a committed script by a relative path.
      s.repo.write('.husky/pre-commit', 'sh ./scripts/pre-commit.sh\n');
      s.repo.write('scripts/pre-commit.sh', `. ./scripts/lib.sh\nteam_check\necho "team hook ran in $(pwd)" >> "${marker}"\n`);
      s.repo.write('scripts/lib.sh', 'team_check() { test -f src/App.kt; }\n');
      s.repo.git('add', '-A');
      s.repo.git('commit', '-q', '--no-verify', '-m', 'team hook');
      activateHusky(s);

      const r = await s.cli(['install']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/added the loopgates block in \.husky\/pre-commit \(husky 9\)/);
      expect(r.stdout).toMatch(/proving: clean commit landed/);
      expect(r.stdout).toMatch(/proven: a commit staging a credential is refused and a clean commit lands/);
      // The team's script really ran in the scratch clone (both proof commits; the canary's refusal comes after it).
      const ran = readFileSync(marker, 'utf8').trim().split('\n');
      expect(ran).toHaveLength(2);
      for (const line of ran) expect(line).toMatch(/^team hook ran in .*loopgates-proof-[^/]+\/repo$/);
    });
  });

  it('a script the hook runs that is not committed: refused naming that file as the cause, with --no-proof', async () => {
    await withSandbox({ ...APP }, async (s) => {
      s.repo.write('.husky/pre-commit', 'sh ./scripts/local-checks.sh\n');
      s.repo.git('add', '-A');
      s.repo.git('commit', '-q', '--no-verify', '-m', 'team hook');
      // In the user's tree only: the clone, made from commits, cannot have it.
      s.repo.write('scripts/local-checks.sh', 'true\n');
      activateHusky(s);

      const r = await s.cli(['install']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/proof failed: the clean commit was refused \(git exit 1\) by the hook's own commands before loopgates ran: they need scripts\/local-checks\.sh, which is not committed \(the scratch clone holds only committed files\)/);
      expect(r.stderr).toMatch(/husky - pre-commit script failed \(code 2\)/);
      expect(r.stderr).toMatch(/fix: commit scripts\/local-checks\.sh \(git add scripts\/local-checks\.sh && git commit\), then: \S.* install; or install without the proof: \S.* install --no-proof\n/);
      expect(r.stderr).not.toMatch(/`exit`, `exec`/);
      expect(r.stderr).toMatch(/rolled back/);
      expect(existsSync(join(s.repo.dir, 'loopgates.yaml'))).toBe(false);
    });
  });

  it('the hook\'s own commands refuse without naming a file: the cause is said, with --no-proof', async () => {
    await withSandbox({ ...APP }, async (s) => {
      s.repo.write('.husky/pre-commit', 'test -f .env.local\n');
      s.repo.git('add', '-A');
      s.repo.git('commit', '-q', '--no-verify', '-m', 'team hook');
      s.repo.write('.env.local', 'A=1\n');
      activateHusky(s);

      const r = await s.cli(['install']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/proof failed: the clean commit was refused \(git exit 1\) by the hook's own commands before loopgates ran; the scratch clone holds only committed files, so perhaps a file they need is not committed/);
      expect(r.stderr).toMatch(/fix: commit what the hook's own commands need, or make them pass \(their output is above\), then: \S.* install; or install without the proof: \S.* install --no-proof\n/);
      expect(r.stderr).not.toMatch(/`exit`, `exec`/);
    });
  });

  it('a smudge filter of the user\'s git config does not run in the clone\'s checkout (git-lfs would fetch, git-crypt fail)', async () => {
    await withSandbox({ ...APP, '.gitattributes': '*.bin filter=boom\n', 'assets/blob.bin': 'stored bytes\n' }, async (s) => {
      // A required filter whose smudge always fails: a checkout that ran it would fail, and install with it.
      s.gitRun(['config', '--global', 'filter.boom.clean', 'cat']);
      s.gitRun(['config', '--global', 'filter.boom.smudge', 'false']);
      s.gitRun(['config', '--global', 'filter.boom.required', 'true']);
      s.repo.write('.husky/pre-commit', 'sh ./scripts/pre-commit.sh\n');
      s.repo.write('scripts/pre-commit.sh', 'grep -q "stored bytes" assets/blob.bin\n');
      s.repo.git('add', '-A');
      s.repo.git('commit', '-q', '--no-verify', '-m', 'team hook');
      activateHusky(s);

      const r = await s.cli(['install']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/proven: /);
    });
  });
});
