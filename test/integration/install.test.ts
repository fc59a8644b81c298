// `loopgates install` in real temp repositories, with real git, the real hook scripts and real gitleaks: the hook
// refuses what it must (credential, missing stored script, missing loopgates, invalid config), lands clean commits,
// never writes to the working tree or index, and the install is idempotent.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { treeAndIndexDigest } from '../helpers/git-repo.js';
import { repoRoot } from '../helpers/setup-env.js';
import { assertBuilt, dirDigest, fakeAwsKeyId, gitThroughHooks, head, letGitRefreshIndex, recordedWordPattern, treeIndexDigestExceptLedger, withSandbox, type Sandbox } from './install-support.js';

beforeAll(assertBuilt);

const APP = {
  'app/src/main/res/values/strings.xml': '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="app_name">Notes</string>\n</resources>\n',
  'README.md': '# notes\n',
};

/** Stage `path` with `content` and try to commit; returns the outcome and checks the hook wrote nothing. */
function tryCommit(s: Sandbox, path: string, content: string, env: Record<string, string | undefined> = {}) {
  s.repo.write(path, content);
  s.repo.git('add', '--', path);
  letGitRefreshIndex(s);
  const before = treeIndexDigestExceptLedger(s.repo.dir);
  const headBefore = head(s);
  const r = s.gitRun(['commit', '-m', `add ${path}`], env);
  const landed = head(s) !== headBefore;
  return { ...r, landed, untouched: landed || treeIndexDigestExceptLedger(s.repo.dir) === before };
}

describe('install (no package.json: standalone hook)', () => {
  it('places the hook, proves it, refuses a staged credential and lands a clean commit', async () => {
    await withSandbox(APP, async (s) => {
      const r = await s.cli(['install']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/proving: clean commit landed/);
      expect(r.stdout).toMatch(/proving: canary commit refused \(exit 1\), finding at loopgates-proof\/canary\.txt/);
      expect(r.stdout).toMatch(/proven: /);
      const stored = readFileSync(join(s.repo.dir, '.loopgates/hooks/pre-commit'));
      expect(stored.includes(0x0d)).toBe(false);
      expect(stored.toString()).toMatch(/^#!\/bin\/sh\n/);
      expect(stored.toString()).toMatch(/^set -u$/m);
      // No exec (the trap must run) and no npx start. pnpm's runner, printed by a fix line (hooks/cli-word), is text.
      expect(stored.toString()).toContain("printf 'pnpm exec loopgates'");
      expect(stored.toString().replace("printf 'pnpm exec loopgates'", '')).not.toMatch(/\bexec\b|npx loopgates hook/);
      expect(statSync(join(s.repo.dir, '.git/hooks/pre-commit')).mode & 0o111).not.toBe(0);
      expect(readFileSync(join(s.repo.dir, '.git/loopgates/cli-path'), 'utf8')).toBe(`${join(repoRoot, 'bin', 'loopgates.js')}\n`);
      expect(s.repo.read('.gitattributes')).toBe('.loopgates/hooks/* text eol=lf\n');
      expect(s.repo.read('.loopgates/.gitignore')).toMatch(/^ledger\.jsonl$/m);
      expect(s.repo.read('loopgates.yaml')).toMatch(/^version: 1$/m);

      const key = fakeAwsKeyId();
      const bad = tryCommit(s, 'app/src/main/java/Sync.kt', `package x\n\nconst val KEY = "${key}"\n`);
      expect(bad.landed).toBe(false);
      expect(bad.status).toBe(1);
      expect(bad.output).toMatch(/app\/src\/main\/java\/Sync\.kt:3/);
      expect(bad.output).not.toContain(key);
      expect(bad.untouched).toBe(true);
      s.repo.git('rm', '-q', '--cached', 'app/src/main/java/Sync.kt');

      const good = tryCommit(s, 'notes.txt', 'nothing secret\n');
      expect(good.output).toMatch(/loopgates/);
      expect(good.landed).toBe(true);
      expect(good.status).toBe(0);
      const ledger = join(s.repo.dir, '.loopgates/ledger.jsonl');
      expect(existsSync(ledger)).toBe(true);
      expect(readFileSync(ledger, 'utf8')).not.toContain(key);
    });
  });

  it('refuses the commit when the stored hook script is deleted (never passes silently)', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      rmSync(join(s.repo.dir, '.loopgates/hooks/pre-commit'));
      const r = tryCommit(s, 'notes.txt', 'clean\n');
      expect(r.landed).toBe(false);
      expect(r.status).toBe(1);
      expect(r.output).toMatch(/loopgates: commit refused: .*\.loopgates\/hooks\/pre-commit is missing/);
      expect(r.untouched).toBe(true);
      const d = await s.cli(['doctor']);
      expect(d.code).toBe(2);
      expect(d.stdout).toMatch(/PROBLEM  \.loopgates\/hooks\/pre-commit is missing/);
    });
  });

  it('the shim finds the stored hook where git runs it (the top of the work tree) from a subdirectory and from outside', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      s.repo.git('add', '-A');
      s.gitRun(['commit', '-q', '--no-verify', '-m', 'loopgates']);
      mkdirSync(join(s.repo.dir, 'docs'));
      s.repo.write('docs/a.txt', 'a\n');
      s.repo.git('add', '--', 'docs/a.txt');
      const fromSub = s.gitRun(['commit', '-m', 'a'], {}, join(s.repo.dir, 'docs'));
      expect(fromSub.status).toBe(0);
      expect(fromSub.output).toMatch(/^loopgates 0\.1\.0/m);
      s.repo.write('docs/b.txt', 'b\n');
      s.repo.git('add', '--', 'docs/b.txt');
      const outside = s.gitRun([`--git-dir=${join(s.repo.dir, '.git')}`, `--work-tree=${s.repo.dir}`, 'commit', '-m', 'b'], {}, s.base);
      expect(outside.status).toBe(0);
      expect(outside.output).toMatch(/^loopgates 0\.1\.0/m);
      expect(s.repo.git('rev-list', '--count', 'HEAD')).toBe('4\n');
      // A credential is still refused from outside the work tree (the stored hook ran, not a skip).
      const key = fakeAwsKeyId();
      s.repo.write('leak.env', `KEY=${key}\n`);
      s.repo.git('add', '--', 'leak.env');
      const leak = s.gitRun([`--git-dir=${join(s.repo.dir, '.git')}`, `--work-tree=${s.repo.dir}`, 'commit', '-m', 'leak'], {}, s.base);
      expect(leak.status).toBe(1);
      expect(leak.output).toMatch(/leak\.env:1/);
    });
  });

  it('on a branch that predates loopgates, the refusal says HEAD has no stored hook and names install', async () => {
    await withSandbox(APP, async (s) => {
      s.repo.git('branch', 'release');
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      s.repo.git('add', '-A');
      s.gitRun(['commit', '-q', '--no-verify', '-m', 'loopgates']);
      s.repo.git('checkout', '-q', 'release');
      const r = tryCommit(s, 'notes.txt', 'hotfix\n');
      expect([r.landed, r.status]).toEqual([false, 1]);
      expect(r.output).toMatch(/^loopgates: commit refused: .*\.loopgates\/hooks\/pre-commit is missing, and HEAD has none to restore \(this branch predates loopgates, or a commit removed it\)$/m);
      expect(r.output).toMatch(new RegExp(`^ {2}fix: ${recordedWordPattern()} install {3}\\(writes loopgates\\.yaml and the stored hook on this branch; commit them with your change\\)$`, 'm'));
      // install on that branch puts it back; the hotfix is then judged and lands.
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      s.repo.git('add', '-A');
      expect(tryCommit(s, 'notes.txt', 'hotfix 2\n').landed).toBe(true);
    });
  });

  it('refuses the commit when cmp cannot compare the stored hook (never runs an unchecked hook)', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      // PATH with git only: the shim's cmp is not found (exit 127).
      const bin = join(s.base, 'only-git');
      mkdirSync(bin);
      const gitPath = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
      symlinkSync(gitPath, join(bin, 'git'));
      const r = tryCommit(s, 'notes.txt', 'clean\n', { PATH: bin });
      expect([r.landed, r.status, r.untouched]).toEqual([false, 1, true]);
      expect(r.output).toMatch(/^loopgates: commit refused: .*\.loopgates\/hooks\/pre-commit could not be compared with the hook loopgates installed: cmp exited with 127$/m);
    });
  });

  it('refuses the commit when the stored hook was edited or a commit changed it (it would skip the gates in every clone)', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      s.repo.git('add', '-A');
      s.gitRun(['commit', '-q', '--no-verify', '-m', 'loopgates']);
      const stored = join(s.repo.dir, '.loopgates/hooks/pre-commit');
      const original = readFileSync(stored, 'utf8');
      // A fresh user's edit: `exit 0` right after `set -u`, in a commit of its own; then a credential.
      writeFileSync(stored, original.replace(/^set -u$/m, 'set -u\nexit 0'));
      const tamper = tryCommit(s, '.loopgates/hooks/pre-commit', readFileSync(stored, 'utf8'));
      expect([tamper.landed, tamper.status]).toEqual([false, 1]);
      expect(tamper.output).toMatch(/^loopgates: commit refused: .*\.loopgates\/hooks\/pre-commit is not the hook loopgates installed here \(it was edited, or a commit changed it, or loopgates was upgraded\)$/m);
      expect(tamper.output).toMatch(new RegExp(`^ {2}fix: ${recordedWordPattern()} install {3}\\(rewrites the hook; then commit \\.loopgates/hooks/pre-commit if it changed\\)$`, 'm'));
      const key = fakeAwsKeyId();
      expect(tryCommit(s, 'leak.env', `KEY=${key}\n`).landed).toBe(false);
      // install rewrites it; commits are judged again.
      s.repo.git('rm', '-q', '--cached', 'leak.env');
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      expect(readFileSync(stored, 'utf8')).toBe(original);
      s.repo.git('add', '--', '.loopgates/hooks/pre-commit');
      const leak = tryCommit(s, 'leak.env', `KEY=${key}\n`);
      expect([leak.landed, leak.status]).toEqual([false, 1]);
      expect(leak.output).toMatch(/leak\.env:1/);
      s.repo.git('rm', '-q', '--cached', 'leak.env');
      expect(tryCommit(s, 'notes.txt', 'clean\n').landed).toBe(true);
    });
  });

  it('after a checked commit, runs its checked copy: an edit is still refused, a hook swapped with its old mtime never runs', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      s.repo.git('add', '-A');
      expect(tryCommit(s, 'notes.txt', 'clean\n').landed).toBe(true);
      // The check held: its stamp and the copy it vouches for are in the cache.
      const cache = join(s.repo.dir, '.git/loopgates/cache');
      const stored = join(s.repo.dir, '.loopgates/hooks/pre-commit');
      const original = readFileSync(stored, 'utf8');
      expect(readFileSync(join(cache, 'hook-copy-a'), 'utf8')).toBe(original);
      const stamp = statSync(join(cache, 'hook-checked-a')).mtimeMs;
      // An edit (a newer mtime) after the check: refused, as before any check.
      writeFileSync(stored, original.replace(/^set -u$/m, 'set -u\nexit 0'));
      const edited = tryCommit(s, 'notes.txt', 'clean 2\n');
      expect([edited.landed, edited.status]).toEqual([false, 1]);
      expect(edited.output).toMatch(/\.loopgates\/hooks\/pre-commit is not the hook loopgates installed here/);
      // The same edit with its mtime put back before the stamp (touch -d): the stamp holds, and what runs is the
      // checked copy, which refuses the credential; nothing of the edited hook runs.
      const old = new Date(stamp - 60_000);
      utimesSync(stored, old, old);
      const key = fakeAwsKeyId();
      const leak = tryCommit(s, 'leak.env', `KEY=${key}\n`);
      expect([leak.landed, leak.status]).toEqual([false, 1]);
      expect(leak.output).toMatch(/leak\.env:1/);
      s.repo.git('rm', '-q', '--cached', 'leak.env');
      // Once its mtime moves on, the next check refuses it.
      const now = new Date();
      utimesSync(stored, now, now);
      const next = tryCommit(s, 'notes.txt', 'clean 3\n');
      expect([next.landed, next.status]).toEqual([false, 1]);
      expect(next.output).toMatch(/\.loopgates\/hooks\/pre-commit is not the hook loopgates installed here/);
    });
  });

  it('refuses the commit when loopgates.yaml is invalid, naming the key', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      s.repo.write('loopgates.yaml', 'version: 1\nbogus_key: true\n');
      const r = tryCommit(s, 'notes.txt', 'clean\n');
      expect(r.landed).toBe(false);
      expect(r.output).toMatch(/bogus_key/);
      expect(r.output).toMatch(/loopgates\.yaml:2/);
      expect(r.untouched).toBe(true);
      const d = await s.cli(['doctor']);
      expect(d.code).toBe(2);
      expect(d.stdout).toMatch(/bogus_key/);
    });
  });

  it('refuses when node is not on PATH, and ~/.config/loopgates/init.sh can put it back', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      // A PATH with git, gitleaks and the few tools the hook uses, but no node.
      const bin = join(s.base, 'bin-without-node');
      mkdirSync(bin);
      for (const tool of ['git', 'sh', 'cmp', 'dirname', 'gitleaks']) {
        const found = (process.env.PATH ?? '').split(':').map((d) => join(d, tool)).find((p) => existsSync(p));
        if (found) symlinkSync(found, join(bin, tool));
      }
      const r = tryCommit(s, 'notes.txt', 'clean\n', { PATH: bin });
      expect(r.landed).toBe(false);
      expect(r.output).toMatch(/commit refused: node was not found on PATH/);
      expect(r.output).toMatch(/loopgates\/init\.sh/);
      expect(r.untouched).toBe(true);

      mkdirSync(join(s.home, '.config', 'loopgates'), { recursive: true });
      writeFileSync(join(s.home, '.config', 'loopgates', 'init.sh'), `PATH="${join(process.execPath, '..')}:$PATH"\nexport PATH\n`);
      const ok = s.gitRun(['commit', '-m', 'with init.sh'], { PATH: bin });
      expect(ok.output).toMatch(/loopgates/);
      expect(ok.status).toBe(0);
    });
  });

  // fresh-user 2026-12-04 F1: init.sh is sourced by the hook's own shell, so an `exit 0` at its end (a habit of
  // shell scripts) ended the hook green before any gate ran: a staged credential landed with no output at all.
  it('refuses a commit when ~/.config/loopgates/init.sh exits instead of returning, naming the file', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      mkdirSync(join(s.home, '.config', 'loopgates'), { recursive: true });
      const init = join(s.home, '.config', 'loopgates', 'init.sh');
      writeFileSync(init, '#!/bin/sh\nexport PATH="$HOME/.nvm/versions/node/v20/bin:$PATH"\nexit 0\n');
      const r = tryCommit(s, 'notes.txt', 'clean\n');
      expect(r.landed, r.output).toBe(false);
      expect(r.status).toBe(1);
      expect(r.output).toContain(`commit refused: ${init} ended the hook (exit 0) before any gate ran: a file the hook sources must not exit (fix: remove the exit from ${init}; end it with \`return\` or nothing)`);
      expect(r.untouched).toBe(true);
      writeFileSync(init, '#!/bin/sh\nexport PATH="$HOME/.nvm/versions/node/v20/bin:$PATH"\n');
      const ok = s.gitRun(['commit', '-m', 'init.sh fixed']);
      expect(ok.status, ok.output).toBe(0);
    });
  });

  // fresh-user 2026-12-04 F3: pnpm, yarn, volta and asdf put a shell wrapper on PATH, not the .js file; the hook ran
  // it with node, and every commit was refused with only node's SyntaxError. A wrapper is run as the program it is;
  // the handshake still proves the real CLI answered.
  it('runs a loopgates on PATH that is a shell wrapper as a program: a clean commit lands, a credential is refused', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      writeFileSync(join(s.repo.dir, '.git/loopgates/cli-path'), '/nonexistent/loopgates.js\n');
      const bin = join(s.base, 'wrapper-bin');
      mkdirSync(bin);
      writeFileSync(join(bin, 'loopgates'), `#!/bin/sh\nexec "${process.execPath}" "${join(repoRoot, 'bin', 'loopgates.js')}" "$@"\n`);
      chmodSync(join(bin, 'loopgates'), 0o755);
      const PATH = `${bin}:${process.env.PATH}`;
      const ok = tryCommit(s, 'notes.txt', 'clean\n', { PATH });
      expect(ok.output).not.toContain('SyntaxError');
      expect(ok.landed, ok.output).toBe(true);
      const bad = tryCommit(s, 'keys.txt', `aws_access_key_id = ${fakeAwsKeyId()}\n`, { PATH });
      expect(bad.landed).toBe(false);
      expect(bad.status).toBe(1);
      expect(bad.output).toMatch(/secrets +fail/);
    });
  });

  it('refuses when neither the recorded CLI nor loopgates on PATH exists', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      writeFileSync(join(s.repo.dir, '.git/loopgates/cli-path'), '/nonexistent/loopgates.js\n');
      const r = tryCommit(s, 'notes.txt', 'clean\n');
      expect(r.landed).toBe(false);
      expect(r.output).toMatch(/loopgates was not found/);
      expect(r.output).toMatch(/node \/path\/to\/loopgates\/bin\/loopgates\.js install {3}\(records where the CLI lives; loopgates is not on the npm registry\)/);
      expect(r.output).not.toMatch(/npx loopgates|--global loopgates\b/);
      expect(r.untouched).toBe(true);
    });
  });

  it('install twice leaves exactly what install once leaves', async () => {
    await withSandbox(APP, async (s) => {
      const digest = () => [treeAndIndexDigest(s.repo.dir), dirDigest(join(s.repo.dir, '.git/hooks')), dirDigest(join(s.repo.dir, '.git/loopgates'))].join(' ');
      expect((await s.cli(['install'])).code).toBe(0);
      const once = digest();
      const again = await s.cli(['install']);
      expect(again.code).toBe(0);
      expect(again.stdout).not.toMatch(/^wrote /m);
      expect(again.stdout).toMatch(/kept the shim/);
      expect(digest()).toBe(once);
    });
  });

  it('a checkout with core.autocrlf=true still gets an LF hook that runs', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      s.repo.git('add', '.loopgates', '.gitattributes', 'loopgates.yaml');
      s.repo.git('commit', '-q', '--no-verify', '-m', 'loopgates');
      const clone = join(s.base, 'crlf-clone');
      s.gitRun(['-c', 'core.autocrlf=true', 'clone', '-q', s.repo.dir, clone]);
      s.gitRun(['config', 'core.autocrlf', 'true'], {}, clone);
      // The config file has no eol rule: autocrlf gives it CRLF, proving the checkout really converts.
      expect(readFileSync(join(clone, 'loopgates.yaml')).includes(0x0d)).toBe(true);
      expect(readFileSync(join(clone, '.loopgates/hooks/pre-commit')).includes(0x0d)).toBe(false);
      const r = await s.cli(['install'], {}, clone);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/proven: /);
      expect(readFileSync(join(clone, '.git/hooks/pre-commit')).includes(0x0d)).toBe(false);
    });
  });

  it('LOOPGATES_SKIP=secrets lets a credential through with a loud warning and a ledger line', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      const key = fakeAwsKeyId();
      const r = tryCommit(s, 'Sync.kt', `const val KEY = "${key}"\n`, { LOOPGATES_SKIP: 'secrets' });
      expect(r.landed).toBe(true);
      expect(r.output).toMatch(/WARNING: LOOPGATES_SKIP bypasses secrets/);
      expect(r.output).not.toContain(key);
      const ledger = readFileSync(join(s.repo.dir, '.loopgates/ledger.jsonl'), 'utf8');
      const lines = ledger.trim().split('\n').map((l) => JSON.parse(l) as { kind: string; gate?: string });
      expect(lines.some((l) => l.kind === 'bypass' && l.gate === 'secrets')).toBe(true);
      expect(ledger).not.toContain(key);
    });
  });

  it('a linked worktree runs the same hook', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      s.repo.git('add', '.loopgates', '.gitattributes', 'loopgates.yaml');
      s.repo.git('commit', '-q', '--no-verify', '-m', 'loopgates');
      const wt = join(s.base, 'wt');
      s.repo.git('worktree', 'add', '-q', '-b', 'side', wt);
      const key = fakeAwsKeyId();
      writeFileSync(join(wt, 'k.txt'), `aws_access_key_id = ${key}\n`);
      s.gitRun(['add', 'k.txt'], {}, wt);
      const r = s.gitRun(['commit', '-m', 'key'], {}, wt);
      expect(r.status).toBe(1);
      expect(r.output).toMatch(/k\.txt:1/);
      expect(r.output).not.toContain(key);
    });
  });
});

describe('install in an npm repository', () => {
  const pkg = (extra: object = {}) => `${JSON.stringify({ name: 'app', version: '1.0.0', scripts: { test: 'echo ok' }, devDependencies: { loopgates: `file:${repoRoot}` }, ...extra }, null, 2)}\n`;

  it('takes loopgates from node_modules, adds prepare, and refuses once node_modules/loopgates is gone', async () => {
    await withSandbox({ ...APP, 'package.json': pkg(), '.gitignore': 'node_modules/\n' }, async (s) => {
      mkdirSync(join(s.repo.dir, 'node_modules'));
      symlinkSync(repoRoot, join(s.repo.dir, 'node_modules', 'loopgates'), 'dir');
      const r = await s.cli(['install']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/finds loopgates: node_modules/);
      expect(existsSync(join(s.repo.dir, '.git/loopgates/cli-path'))).toBe(false);
      const scripts = (JSON.parse(s.repo.read('package.json')) as { scripts: Record<string, string> }).scripts;
      expect(scripts.test).toBe('echo ok');
      expect(scripts.prepare).toMatch(/node_modules\/loopgates\/bin\/loopgates\.js.*--from-prepare/);

      rmSync(join(s.repo.dir, 'node_modules', 'loopgates'));
      const bad = tryCommit(s, 'notes.txt', 'clean\n');
      expect(bad.landed).toBe(false);
      expect(bad.output).toMatch(/loopgates is not installed in .*node_modules/);
      expect(bad.output).toMatch(/fix: npm install/);
      expect(bad.untouched).toBe(true);
    });
  });

  it('the prepare script exits 0 where loopgates is absent (npm ci --omit=dev) and where there is no .git (Docker)', async () => {
    await withSandbox({ ...APP, 'package.json': pkg() }, async (s) => {
      mkdirSync(join(s.repo.dir, 'node_modules'));
      symlinkSync(repoRoot, join(s.repo.dir, 'node_modules', 'loopgates'), 'dir');
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      const prepare = (JSON.parse(s.repo.read('package.json')) as { scripts: { prepare: string } }).scripts.prepare;
      const { spawnSync } = await import('node:child_process');
      const sh = (cwd: string) => spawnSync('sh', ['-c', prepare], { cwd, env: s.env, encoding: 'utf8' });

      // Docker: the app copied without .git, loopgates present.
      const docker = join(s.base, 'docker-app');
      mkdirSync(join(docker, 'node_modules'), { recursive: true });
      writeFileSync(join(docker, 'package.json'), s.repo.read('package.json'));
      symlinkSync(repoRoot, join(docker, 'node_modules', 'loopgates'), 'dir');
      const d = sh(docker);
      expect(d.status).toBe(0);
      expect(d.stdout).toMatch(/no git repository here/);

      // npm ci --omit=dev: no node_modules/loopgates.
      const prod = join(s.base, 'prod-app');
      mkdirSync(prod);
      writeFileSync(join(prod, 'package.json'), s.repo.read('package.json'));
      const p = sh(prod);
      expect(p.status).toBe(0);
      expect(p.stdout).toMatch(/not in node_modules/);

      // A fresh clone: prepare places the shim.
      rmSync(join(s.repo.dir, '.git/hooks/pre-commit'));
      const c = sh(s.repo.dir);
      expect(c.stderr).toBe('');
      expect(c.status).toBe(0);
      expect(c.stdout).toMatch(/placed the shim/);
      expect(readFileSync(join(s.repo.dir, '.git/hooks/pre-commit'), 'utf8')).toMatch(/loopgates-shim/);
    });
  });
});

// G12 (fresh-user-6): in a clone where the manager's install ran the committed "prepare" script, uninstall removed the
// hook without saying that the next install of the manager runs prepare again and puts it back.
describe('uninstall where package.json\'s prepare script places the hook', () => {
  const pkg = (extra: object = {}) => `${JSON.stringify({ name: 'app', version: '1.0.0', devDependencies: { loopgates: `file:${repoRoot}` }, ...extra }, null, 2)}\n`;
  const managers = [
    { pm: 'npm', files: { 'package-lock.json': '{}\n' }, install: 'npm install', remove: 'npm uninstall loopgates', lockfile: 'package-lock.json' },
    { pm: 'pnpm', files: { 'pnpm-lock.yaml': "lockfileVersion: '9.0'\n" }, install: 'pnpm install', remove: 'pnpm remove loopgates', lockfile: 'pnpm-lock.yaml' },
    { pm: 'yarn 1', files: { 'yarn.lock': '# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.\n# yarn lockfile v1\n' }, install: 'yarn install', remove: 'yarn remove loopgates', lockfile: 'yarn.lock' },
    { pm: 'bun', files: { 'bun.lock': '{}\n' }, install: 'bun install', remove: 'bun remove loopgates', lockfile: 'bun.lock' },
  ];
  const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  it.each(managers)('$pm: a fresh clone set up by its install says the next $install puts the hook back, and how to remove it for good', async ({ files, install, remove, lockfile }) => {
    await withSandbox({ ...APP, ...files, 'package.json': pkg(), '.gitignore': 'node_modules/\n' }, async (s) => {
      mkdirSync(join(s.repo.dir, 'node_modules'));
      symlinkSync(repoRoot, join(s.repo.dir, 'node_modules', 'loopgates'), 'dir');
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      s.repo.git('add', '-A');
      s.repo.git('commit', '-q', '--no-verify', '-m', 'loopgates for the team');
      // A teammate's clone, and what its package manager's install does: dependencies, then the prepare script.
      const clone = join(s.base, 'clone');
      expect(s.gitRun(['clone', '-q', s.repo.dir, clone]).status).toBe(0);
      mkdirSync(join(clone, 'node_modules'));
      symlinkSync(repoRoot, join(clone, 'node_modules', 'loopgates'), 'dir');
      const prepare = (JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')) as { scripts: { prepare: string } }).scripts.prepare;
      const runPrepare = () => spawnSync('sh', ['-c', prepare], { cwd: clone, env: s.env, encoding: 'utf8' });
      expect(runPrepare().status).toBe(0);
      expect(existsSync(join(clone, '.git/hooks/pre-commit'))).toBe(true);

      const u = await s.cli(['uninstall'], {}, clone);
      expect(u.stderr).toBe('');
      expect(u.code).toBe(0);
      expect(existsSync(join(clone, '.git/hooks/pre-commit'))).toBe(false);
      expect(u.stdout).toMatch(
        new RegExp(
          `\\nnote: package\\.json's "prepare" script still places the hook: the next \`${escape(install)}\` runs it and puts the hook back in this clone\\. ` +
            `To remove loopgates for good, for every clone: remove the loopgates part of scripts\\.prepare in package\\.json and run \`${escape(remove)}\`, then commit package\\.json and ${escape(lockfile)}\\n$`,
        ),
      );
      // What the note says is what happens.
      expect(runPrepare().status).toBe(0);
      expect(readFileSync(join(clone, '.git/hooks/pre-commit'), 'utf8')).toMatch(/loopgates-shim/);
    });
  });

  it('the clone that committed package.json: the team advice uses the manager\'s words and the note is not repeated', async () => {
    await withSandbox({ ...APP, 'pnpm-lock.yaml': "lockfileVersion: '9.0'\n", 'package.json': pkg(), '.gitignore': 'node_modules/\n' }, async (s) => {
      mkdirSync(join(s.repo.dir, 'node_modules'));
      symlinkSync(repoRoot, join(s.repo.dir, 'node_modules', 'loopgates'), 'dir');
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      s.repo.git('add', '-A');
      s.repo.git('commit', '-q', '--no-verify', '-m', 'loopgates for the team');
      const u = await s.cli(['uninstall']);
      expect(u.code).toBe(0);
      expect(u.stdout).toContain('  package.json: remove the loopgates part of scripts.prepare and run `pnpm remove loopgates` (until then, `pnpm install` runs prepare and puts the hook back in every clone, this one included)\n');
      expect(u.stdout).not.toMatch(/(?<!p)npm install|note: package\.json/);
    });
  });

  it('yarn 2 or later runs no prepare script on install: no note that it puts the hook back', async () => {
    await withSandbox({ ...APP, 'yarn.lock': '__metadata:\n  version: 8\n', 'package.json': pkg({ packageManager: 'yarn@4.5.3' }), '.gitignore': 'node_modules/\n' }, async (s) => {
      mkdirSync(join(s.repo.dir, 'node_modules'));
      symlinkSync(repoRoot, join(s.repo.dir, 'node_modules', 'loopgates'), 'dir');
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      s.repo.git('add', '-A');
      s.repo.git('commit', '-q', '--no-verify', '-m', 'loopgates for the team');
      const u = await s.cli(['uninstall']);
      expect(u.code).toBe(0);
      expect(u.stdout).toContain('  package.json: remove the loopgates part of scripts.prepare and run `yarn remove loopgates`\n');
      expect(u.stdout).not.toMatch(/puts the hook back/);
    });
  });
});

describe('doctor', () => {
  it('is healthy after install, and names the fix when the shim loses its run bit', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      const before = treeAndIndexDigest(s.repo.dir);
      const ok = await s.cli(['doctor']);
      expect(ok.stdout).toMatch(/healthy/);
      expect(ok.code).toBe(0);
      chmodSync(join(s.repo.dir, '.git/hooks/pre-commit'), 0o644);
      const bad = await s.cli(['doctor']);
      expect(bad.code).toBe(2);
      expect(bad.stdout).toMatch(/PROBLEM  .*pre-commit is not executable: git skips it\n\s+fix: chmod \+x /);
      expect(treeAndIndexDigest(s.repo.dir)).toBe(before);
    });
  });

  // This checkout ran scripts/setup-gitleaks.sh (the README's set-up): the fix names that copy (fresh-user-3 F9).
  const ownGitleaks = join(repoRoot, '.tools', 'gitleaks', 'usr', 'bin', 'gitleaks');
  const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  it.runIf(existsSync(ownGitleaks))('reports a missing scanner naming the copy this checkout already has, with the line that puts it on PATH', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      const path = (s.env.PATH ?? '').split(':').filter((d) => !existsSync(join(d, 'gitleaks'))).join(':');
      const r = await s.cli(['doctor'], { PATH: path });
      expect(r.code).toBe(2);
      expect(r.stdout).toMatch(new RegExp(`gitleaks was not found on PATH\\n\\s+fix: this loopgates checkout already has gitleaks \\(${escape(ownGitleaks)}\\): export PATH=${escape(join(repoRoot, '.tools', 'gitleaks', 'usr', 'bin'))}:\\$PATH \\(or LOOPGATES_GITLEAKS=${escape(ownGitleaks)}\\)`));
      // And following it makes doctor healthy.
      const fixed = await s.cli(['doctor'], { PATH: `${join(repoRoot, '.tools', 'gitleaks', 'usr', 'bin')}:${path}` });
      expect(fixed.stdout).toMatch(/healthy/);
      expect(fixed.code).toBe(0);
    });
  });

  it.runIf(existsSync(ownGitleaks))('install with gitleaks off PATH fails closed, and its fix names the checkout copy', async () => {
    await withSandbox(APP, async (s) => {
      const path = (s.env.PATH ?? '').split(':').filter((d) => !existsSync(join(d, 'gitleaks'))).join(':');
      const r = await s.cli(['install'], { PATH: path });
      expect(r.code).toBe(2);
      expect(`${r.stdout}${r.stderr}`).toContain(`export PATH=${join(repoRoot, '.tools', 'gitleaks', 'usr', 'bin')}:$PATH`);
    });
  });
});

describe('--help', () => {
  it('every verb of this module has a full help text', async () => {
    await withSandbox({}, async (s) => {
      for (const verb of ['install', 'uninstall', 'doctor']) {
        const r = await s.cli([verb, '--help']);
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(new RegExp(`^loopgates ${verb}`));
        expect(r.stdout).toMatch(/Exit codes: 0 /);
      }
    });
  });
});

describe('uninstall and the run history (ledger)', () => {
  const KOTLIN = { ...APP, 'app/src/main/java/Main.kt': 'fun main() = println(1)\n' };
  it('the in-tree ledger moves into .git/loopgates when git stops ignoring it: no untracked file, every line kept', async () => {
    await withSandbox(KOTLIN, async (s) => {
      const install = await s.cli(['install', '--no-proof']);
      expect(install.code).toBe(0);
      // The gates install enabled here, and those it found no input for yet (run --all skips them), as it says:
      // counted from its output, not hard-coded.
      const enabled = /^enabled: (.+)$/m.exec(install.stdout)![1]!.split(', ');
      const waiting = install.stdout.split('\n').filter((l) => l.startsWith('no input yet: ')).length;
      expect(enabled.length - waiting).toBeGreaterThan(0);
      const run = await s.cli(['run', '--all']);
      expect(run.stdout).toMatch(new RegExp(`^${enabled.length - waiting} pass${waiting ? ` · ${waiting} skip` : ''} — `, 'm'));
      expect(run.code).toBe(0);
      const inTree = join(s.repo.dir, '.loopgates/ledger.jsonl');
      const lines = readFileSync(inTree, 'utf8');
      expect(lines.trim().split('\n').length).toBe(enabled.length);
      expect(s.gitRun(['status', '--porcelain', '--untracked-files=all']).output).not.toContain('ledger.jsonl');

      const u = await s.cli(['uninstall']);
      expect(u.code).toBe(0);
      expect(u.stdout).toContain('moved .loopgates/ledger.jsonl to .git/loopgates/ledger.jsonl (run history: git no longer ignores .loopgates/ledger.jsonl; delete it if you want no trace)');
      expect(s.gitRun(['status', '--porcelain', '--untracked-files=all']).output).toBe('');
      expect(existsSync(join(s.repo.dir, '.loopgates'))).toBe(false);
      expect(readFileSync(join(s.repo.dir, '.git/loopgates/ledger.jsonl'), 'utf8')).toBe(lines);
    });
  });

  it('a commit through the hook leaves no handshake file in .git, and uninstall leaves .git as it found it (fresh-user-6 G4)', async () => {
    await withSandbox(KOTLIN, async (s) => {
      const before = readdirSync(join(s.repo.dir, '.git')).sort();
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      s.gitRun(['add', '-A']);
      const commit = await gitThroughHooks(s, ['commit', '-q', '-m', 'loopgates'], {});
      expect(commit.output).toContain('commit allowed');
      expect(commit.status).toBe(0);
      expect(readdirSync(join(s.repo.dir, '.git'))).not.toContain('loopgates-hook-answer');
      expect((await s.cli(['uninstall'])).code).toBe(0);
      const after = readdirSync(join(s.repo.dir, '.git')).filter((n) => !['COMMIT_EDITMSG', 'ORIG_HEAD', 'logs', 'loopgates'].includes(n) || before.includes(n));
      expect(after.sort()).toEqual(before);
    });
  });

  it('the printed team steps, run literally, then `git add -A`, never stage the ledger (fresh G6)', async () => {
    await withSandbox(KOTLIN, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      s.gitRun(['add', '-A']);
      const commit = await gitThroughHooks(s, ['commit', '-q', '-m', 'loopgates for the team'], {});
      expect(commit.output).toContain('commit allowed');
      expect(commit.status).toBe(0);
      const lines = readFileSync(join(s.repo.dir, '.loopgates/ledger.jsonl'), 'utf8');
      expect(lines).not.toBe('');
      expect(s.repo.git('ls-files')).toContain('.loopgates/.gitignore');
      const u = await s.cli(['uninstall']);
      expect(u.code).toBe(0);
      // Every shell line of the printed steps (the indented `git …` commands), run as printed.
      const steps = u.stdout.split('\n').filter((l) => /^  git /.test(l)).map((l) => l.trim());
      expect(steps).toEqual(['git rm -q -- .gitattributes .loopgates/.gitignore .loopgates/hooks/pre-commit loopgates.yaml']);
      for (const step of steps) expect(spawnSync('sh', ['-c', step], { cwd: s.repo.dir, env: s.env, encoding: 'utf8' }).status).toBe(0);
      s.repo.git('add', '-A');
      expect(s.gitRun(['status', '--porcelain', '--untracked-files=all']).output.split('\n').filter((l) => l !== '').sort()).toEqual(
        ['D  .gitattributes', 'D  .loopgates/.gitignore', 'D  .loopgates/hooks/pre-commit', 'D  loopgates.yaml'],
      );
      // The run history is kept, outside the working tree, every line of it.
      expect(u.stdout).toContain('moved .loopgates/ledger.jsonl to .git/loopgates/ledger.jsonl');
      expect(readFileSync(join(s.repo.dir, '.git/loopgates/ledger.jsonl'), 'utf8')).toBe(lines);
      expect(existsSync(join(s.repo.dir, '.loopgates'))).toBe(false);
    });
  });

  it('a ledger the team ignores itself (.gitignore) stays where it is', async () => {
    await withSandbox({ ...KOTLIN, '.gitignore': '/.loopgates/ledger.jsonl\n' }, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      expect((await s.cli(['run', '--all'])).code).toBe(0);
      const u = await s.cli(['uninstall']);
      expect(u.code).toBe(0);
      expect(u.stdout).toContain('kept .loopgates/ledger.jsonl (run history, still ignored by git; delete it if you want no trace)');
      expect(existsSync(join(s.repo.dir, '.loopgates/ledger.jsonl'))).toBe(true);
      expect(s.gitRun(['status', '--porcelain', '--untracked-files=all']).output).toBe('');
    });
  });
});
