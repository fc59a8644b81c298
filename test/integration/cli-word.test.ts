// Fix lines name a command the user's shell can run (fresh-user-4 F6): with loopgates a local devDependency and no
// `loopgates` on PATH, `fix: loopgates …` answered "command not found". Real repositories, the CLI in-process.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli.js';
import { gitThroughHooks, withSandbox } from './install-support.js';
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

  // fresh-user F2: messages a verb prints itself (not a report's note, not a thrown error's fix) said bare `loopgates`.
  it("a verb's own messages too: retry's ask-human, doctor's broken loopgates.yaml, install's failed proof and its interruption", async () => {
    await withSandbox({ 'package.json': pkg(), '.gitignore': 'node_modules/\n' }, async (s) => {
      installLocally(s.repo.dir);
      const env = { PATH: pathWithout() };
      let ask = { code: 0, stdout: '', stderr: '' };
      for (let i = 0; i < 3; i++) ask = await s.cli(['retry', '--task', 'develop', '--', 'false'], env);
      expect(ask.code).toBe(3);
      expect(ask.stderr).toContain('then clear the count on purpose: npx loopgates retry --reset --task develop\n');

      s.repo.write('loopgates.yaml', 'version: 1\ngates: [\n');
      const doctor = await s.cli(['doctor'], env);
      expect(doctor.stdout + doctor.stderr).toContain(`fix: edit ${join(s.repo.dir, 'loopgates.yaml')}, then run: npx loopgates doctor\n`);
      rmSync(join(s.repo.dir, 'loopgates.yaml'));

      // A team hook that runs a script that is not committed: the proof fails (install-proof-clone.test.ts).
      const h = spawnSync(process.execPath, [join(repoRoot, 'node_modules/husky/bin.js')], { cwd: s.repo.dir, env: s.env, encoding: 'utf8' });
      expect(h.status).toBe(0);
      s.repo.write('.husky/pre-commit', 'sh ./scripts/local-checks.sh\n');
      s.repo.git('add', '.husky/pre-commit');
      s.repo.git('commit', '-q', '--no-verify', '-m', 'team hook');
      s.repo.write('scripts/local-checks.sh', 'true\n');
      const failed = await s.cli(['install'], env);
      expect(failed.code).toBe(2);
      expect(failed.stderr).toContain('then: npx loopgates install; or install without the proof: npx loopgates install --no-proof\n');
      // The label of install's own lines is not a command.
      expect(failed.stderr).toMatch(/^loopgates install: proof failed: /m);

      // Ctrl-C once install has written its files (paused there for the test): it rolls back and says what to run.
      let stderr = '';
      const ctrlC = new AbortController();
      const onErr = (t: string) => {
        stderr += t;
        if (t.includes('paused at placed')) ctrlC.abort(new Error('SIGINT'));
      };
      const code = await main(['install'], { cwd: s.repo.dir, env: { ...s.env, ...env, LOOPGATES_TEST_INSTALL_PAUSE: 'placed' }, stdout: () => undefined, stderr: onErr, isTTY: false, signal: ctrlC.signal });
      expect(code).toBe(130);
      expect(stderr).toMatch(/^loopgates install: interrupted \(SIGINT\): rolled back/m);
      expect(stderr).toContain('  fix: npx loopgates install   (and let it finish');
    });
  });

  it('inside a husky hook (node_modules/.bin first on PATH, relative): the fix says npx loopgates, as the user\'s shell needs', async () => {
    await withSandbox({ 'package.json': pkg(), '.gitignore': 'node_modules/\n', 'src/a.txt': 'a\n' }, async (s) => {
      installLocally(s.repo.dir);
      const env = { PATH: pathWithout() };
      const h = spawnSync(process.execPath, [join(repoRoot, 'node_modules/husky/bin.js')], { cwd: s.repo.dir, env: s.env, encoding: 'utf8' });
      expect(h.status).toBe(0);
      const r = await s.cli(['install', '--no-proof'], env);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/added the loopgates block in \.husky\/pre-commit \(husky 9\)/);
      // A staged loopgates.yaml that does not parse: the hook refuses with the config error's fix.
      s.repo.write('loopgates.yaml', 'version: 1\ngates: [\n');
      s.repo.git('add', 'loopgates.yaml');
      const commit = await gitThroughHooks(s, ['commit', '-m', 'broken config'], env);
      expect(commit.status).toBe(1);
      expect(commit.output).toContain(`, then run: npx loopgates doctor\n`);
      expect(commit.output).not.toMatch(/then run: loopgates doctor/);
    });
  });
});

// G7: the hook texts themselves (shim, stored hook, husky block) said bare `loopgates install`. The word is worked out
// by the shell when it refuses (hooks/cli-word), so the installed files stay the bytes install renders on any machine.
describe("the hooks' own fix lines start loopgates the way this project can run it", () => {
  const stored = '.loopgates/hooks/pre-commit';

  it('a local devDependency: the shim names npx loopgates (pnpm exec with pnpm-lock.yaml); loopgates on PATH stays loopgates', async () => {
    await withSandbox({ 'package.json': pkg(), '.gitignore': 'node_modules/\n', 'src/a.txt': 'a\n' }, async (s) => {
      installLocally(s.repo.dir);
      const env = { PATH: pathWithout() };
      expect((await s.cli(['install', '--no-proof'], env)).code).toBe(0);
      const hook = readFileSync(join(s.repo.dir, stored), 'utf8');
      // Not committed yet: HEAD has no stored hook to restore.
      rmSync(join(s.repo.dir, stored));
      s.repo.write('src/a.txt', 'b\n');
      s.repo.git('add', 'src/a.txt');
      const missing = await gitThroughHooks(s, ['commit', '-m', 'x'], env);
      expect(missing.status).toBe(1);
      expect(missing.output).toMatch(/^ {2}fix: npx loopgates install {3}\(writes loopgates\.yaml and the stored hook on this branch; commit them with your change\)$/m);
      // Edited: the tamper refusal.
      writeFileSync(join(s.repo.dir, stored), hook.replace(/^set -u$/m, 'set -u\nexit 0'));
      const edited = await gitThroughHooks(s, ['commit', '-m', 'x'], env);
      expect(edited.status).toBe(1);
      expect(edited.output).toMatch(/^ {2}fix: npx loopgates install {3}\(rewrites the hook; then commit \.loopgates\/hooks\/pre-commit if it changed\)$/m);
      // A pnpm repository: its runner.
      s.repo.write('pnpm-lock.yaml', "lockfileVersion: '9.0'\n");
      expect((await gitThroughHooks(s, ['commit', '-m', 'x'], env)).output).toMatch(/^ {2}fix: pnpm exec loopgates install {3}\(rewrites/m);
      rmSync(join(s.repo.dir, 'pnpm-lock.yaml'));
      // yarn from package.json's packageManager field (not committed: the hook reads the work tree, as cliWord does).
      s.repo.write('package.json', pkg({ packageManager: 'yarn@4.1.0' }));
      expect((await gitThroughHooks(s, ['commit', '-m', 'x'], env)).output).toMatch(/^ {2}fix: yarn loopgates install {3}\(rewrites/m);
      s.repo.write('package.json', pkg());
      // loopgates on the user's PATH (outside node_modules/.bin): the bare word.
      const bin = join(s.base, 'bin');
      mkdirSync(bin);
      writeFileSync(join(bin, 'loopgates'), '#!/bin/sh\n');
      chmodSync(join(bin, 'loopgates'), 0o755);
      expect((await gitThroughHooks(s, ['commit', '-m', 'x'], { PATH: pathWithout([bin]) })).output).toMatch(/^ {2}fix: loopgates install {3}\(rewrites/m);
      // Only the project's own node_modules/.bin on PATH, relative, as husky puts it: still npx.
      expect((await gitThroughHooks(s, ['commit', '-m', 'x'], { PATH: pathWithout(['node_modules/.bin']) })).output).toMatch(/^ {2}fix: npx loopgates install {3}\(rewrites/m);

      // The installed files hold no word of this machine's: doctor finds them ok with loopgates on PATH too.
      writeFileSync(join(s.repo.dir, stored), hook);
      expect((await s.cli(['doctor'], env)).code).toBe(0);
      expect((await s.cli(['doctor'], { PATH: pathWithout([bin]) })).code).toBe(0);
    });
  });

  // G7 leftover: the stored hook's refusal for a local devDependency missing from node_modules said `npm install` in
  // every repository. The manager is read from the work tree when it refuses, as loopgates_word does.
  it("node_modules/loopgates missing: the stored hook names the repository's package manager's install", async () => {
    await withSandbox({ 'package.json': pkg(), '.gitignore': 'node_modules/\n', 'src/a.txt': 'a\n' }, async (s) => {
      installLocally(s.repo.dir);
      const env = { PATH: pathWithout() };
      expect((await s.cli(['install', '--no-proof'], env)).code).toBe(0);
      const hook = readFileSync(join(s.repo.dir, stored), 'utf8');
      rmSync(join(s.repo.dir, 'node_modules', 'loopgates'));
      s.repo.write('src/a.txt', 'b\n');
      s.repo.git('add', 'src/a.txt');
      const fixOf = async () => {
        const r = await gitThroughHooks(s, ['commit', '-m', 'x'], env);
        expect(r.status).toBe(1);
        expect(r.output).toMatch(/loopgates: commit refused: loopgates is not installed in .*node_modules\n/);
        return /^ {2}fix: (.*)$/m.exec(r.output)?.[1];
      };
      expect(await fixOf()).toBe('npm install');
      for (const [lock, word] of [['pnpm-lock.yaml', 'pnpm'], ['yarn.lock', 'yarn'], ['bun.lock', 'bun'], ['bun.lockb', 'bun']] as const) {
        s.repo.write(lock, '\n');
        expect(await fixOf()).toBe(`${word} install`);
        rmSync(join(s.repo.dir, lock));
      }
      // package.json's packageManager field wins over a lockfile (core/package-manager.ts).
      s.repo.write('yarn.lock', '\n');
      s.repo.write('package.json', pkg({ packageManager: 'pnpm@9.1.0' }));
      expect(await fixOf()).toBe('pnpm install');
      // Decided by the shell at refusal time: the stored hook is the bytes install wrote.
      expect(readFileSync(join(s.repo.dir, stored), 'utf8')).toBe(hook);
      expect(hook).not.toMatch(/pnpm install|yarn install|bun install/);
    });
  });

  it('the husky block: a missing stored hook names npx loopgates install', async () => {
    await withSandbox({ 'package.json': pkg(), '.gitignore': 'node_modules/\n', 'src/a.txt': 'a\n' }, async (s) => {
      installLocally(s.repo.dir);
      const env = { PATH: pathWithout() };
      const h = spawnSync(process.execPath, [join(repoRoot, 'node_modules/husky/bin.js')], { cwd: s.repo.dir, env: s.env, encoding: 'utf8' });
      expect(h.status).toBe(0);
      expect((await s.cli(['install', '--no-proof'], env)).code).toBe(0);
      rmSync(join(s.repo.dir, stored));
      s.repo.write('src/a.txt', 'b\n');
      s.repo.git('add', 'src/a.txt');
      const missing = await gitThroughHooks(s, ['commit', '-m', 'x'], env);
      expect(missing.status).toBe(1);
      expect(missing.output).toMatch(/^ {2}fix: git checkout HEAD -- \.loopgates\/hooks\/pre-commit {3}\(or: npx loopgates install\)$/m);
    });
  });
  // fresh6 F10: in a repository without loopgates in package.json and none on PATH, the hooks said bare `loopgates`
  // ("command not found" when pasted), while node's own messages named the CLI install recorded.
  it('a native install, none on PATH: the hooks name node and the CLI install recorded, quoted so it runs pasted', async () => {
    await withSandbox({ 'src/a.txt': 'a\n' }, async (s) => {
      const env = { PATH: pathWithout() };
      expect((await s.cli(['install', '--no-proof'], env)).code).toBe(0);
      // The CLI at a path the shell must quote: a link to this package named with a space and a quote.
      const odd = join(s.base, "my lg's");
      symlinkSync(repoRoot, odd, 'dir');
      const entry = join(odd, 'bin', 'loopgates.js');
      writeFileSync(join(s.repo.dir, '.git', 'loopgates', 'cli-path'), `${entry}\n`);
      const hook = readFileSync(join(s.repo.dir, stored), 'utf8');
      writeFileSync(join(s.repo.dir, stored), hook.replace(/^set -u$/m, 'set -u\nexit 0'));
      s.repo.write('src/a.txt', 'b\n');
      s.repo.git('add', 'src/a.txt');
      const edited = await gitThroughHooks(s, ['commit', '-m', 'x'], env);
      expect(edited.status).toBe(1);
      const fix = /^ {2}fix: (.*?) {3}\(rewrites the hook; then commit \.loopgates\/hooks\/pre-commit if it changed\)$/m.exec(edited.output)?.[1];
      expect(fix).toBe(`node '${entry.replace("'", "'\\''")}' install`);
      // Pasted into sh, it runs that CLI: install rewrites the hook and the commit goes through.
      const pasted = spawnSync('sh', ['-c', fix!], { cwd: s.repo.dir, env: { ...s.env, ...env }, encoding: 'utf8' });
      expect(pasted.status).toBe(0);
      expect(readFileSync(join(s.repo.dir, stored), 'utf8')).toBe(hook);
      expect((await gitThroughHooks(s, ['commit', '-m', 'x'], env)).status).toBe(0);
      // The recorded CLI gone: nothing runnable is known, the bare word (and the hook says how to record one).
      writeFileSync(join(s.repo.dir, '.git', 'loopgates', 'cli-path'), `${join(s.base, 'gone', 'loopgates.js')}\n`);
      writeFileSync(join(s.repo.dir, stored), hook.replace(/^set -u$/m, 'set -u\nexit 0'));
      s.repo.write('src/a.txt', 'c\n');
      s.repo.git('add', 'src/a.txt');
      expect((await gitThroughHooks(s, ['commit', '-m', 'x'], env)).output).toMatch(/^ {2}fix: loopgates install {3}\(rewrites/m);
    });
  });
});
