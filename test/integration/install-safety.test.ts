// install / uninstall / doctor must never act outside the repository they run in, never leave a hook that git would
// skip while saying it is healthy, and never strand the user in a set-up install asked them to make.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { treeAndIndexDigest } from '../helpers/git-repo.js';
import { LOOPGATES_RE, repoRoot } from '../helpers/setup-env.js';
import { assertBuilt, dirDigest, withSandbox, type Sandbox } from './install-support.js';

beforeAll(assertBuilt);

const APP = { 'src/App.kt': 'fun main() = println("hi")\n', 'README.md': '# app\n' };

/** Working tree + index, hooks dir and install's git-dir record of the repository at `dir`. */
function repoState(dir: string): string {
  return [treeAndIndexDigest(dir), dirDigest(join(dir, '.git/hooks')), dirDigest(join(dir, '.git/loopgates'))].join('\n');
}

/** `cp -a from to`: a copied (or moved) repository, as a user makes one. */
function copyRepo(from: string, to: string): void {
  const r = spawnSync('cp', ['-a', from, to], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`cp -a failed: ${r.stderr}`);
}

/** What install wrote into a repository is all gone again. */
function expectUninstalled(dir: string): void {
  for (const p of ['.loopgates/hooks/pre-commit', '.loopgates/.gitignore', 'loopgates.yaml', '.gitattributes', '.git/hooks/pre-commit', '.git/loopgates']) {
    expect(existsSync(join(dir, p)), p).toBe(false);
  }
}

describe('uninstall in a copied repository', () => {
  it('restores the copy and leaves the original byte for byte', async () => {
    await withSandbox(APP, async (s: Sandbox) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      const a = s.repo.dir;
      const b = join(s.base, 'copy');
      copyRepo(a, b);
      const aBefore = repoState(a);

      const u = await s.cli(['uninstall'], {}, b);
      expect(u.stderr).toBe('');
      expect(u.code).toBe(0);
      expect(repoState(a)).toBe(aBefore);
      expect(existsSync(join(a, 'loopgates.yaml'))).toBe(true);
      expectUninstalled(b);
      expect(readFileSync(join(b, 'README.md'), 'utf8')).toBe('# app\n');
    });
  });

  it('an older record with absolute paths: resolved into the copy; a path outside the repository is never touched', async () => {
    await withSandbox(APP, async (s: Sandbox) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      const a = s.repo.dir;
      const b = join(s.base, 'copy');
      copyRepo(a, b);
      // Rewrite the copy's record the way loopgates before this fix wrote it: version 1, absolute paths into A.
      const recordPath = join(b, '.git/loopgates/install.json');
      const record = JSON.parse(readFileSync(recordPath, 'utf8')) as {
        version: number;
        changes: { path: string; root?: string; kind: string; before: unknown; afterSha256: string }[];
        dirsCreated: (string | { root: string; path: string })[];
      };
      const abs = (root: string | undefined, p: string) => join(root === 'git' ? join(a, '.git') : a, p);
      const outside = join(s.base, 'outside.txt');
      writeFileSync(outside, 'not loopgates’\n');
      const v1 = {
        version: 1,
        changes: [
          { path: outside, kind: 'config', before: null, afterSha256: 'x' },
          ...record.changes.map((c) => ({ path: abs(c.root, c.path), kind: c.kind, before: c.before, afterSha256: c.afterSha256 })),
        ],
        dirsCreated: record.dirsCreated.map((d) => (typeof d === 'string' ? d : abs(d.root, d.path))),
      };
      writeFileSync(recordPath, `${JSON.stringify(v1, null, 2)}\n`);
      const aBefore = repoState(a);

      const u = await s.cli(['uninstall'], {}, b);
      expect(repoState(a)).toBe(aBefore);
      expect(readFileSync(outside, 'utf8')).toBe('not loopgates’\n');
      expect(u.stderr).toMatch(/outside\.txt is outside this repository: left untouched/);
      expect(u.code).toBe(2);
      for (const p of ['.loopgates/hooks/pre-commit', 'loopgates.yaml', '.gitattributes', '.git/hooks/pre-commit']) expect(existsSync(join(b, p)), p).toBe(false);
    });
  });
});

/** A repository with husky 9 active (real husky from node_modules) and `hook` committed as .husky/pre-commit. */
function withHusky(s: Sandbox, hook: string): void {
  const h = spawnSync(process.execPath, [join(repoRoot, 'node_modules/husky/bin.js')], { cwd: s.repo.dir, env: s.env, encoding: 'utf8' });
  expect(h.status).toBe(0);
  s.repo.write('.husky/pre-commit', hook);
  s.repo.git('add', '.husky/pre-commit');
  s.repo.git('commit', '-q', '--no-verify', '-m', 'husky');
}

/** Everything install may touch: working tree + index, the hooks dir, install's git-dir record, the local config. */
function fullState(s: Sandbox): string {
  return [repoState(s.repo.dir), readFileSync(join(s.repo.dir, '.git/config'), 'utf8')].join('\n');
}

describe('husky 9 with `exit 0` in .husky/pre-commit', () => {
  const HUSKY_PKG = { ...APP, 'package.json': '{\n  "name": "app",\n  "private": true\n}\n' };

  it('install puts the block before a top-level exit, and the proof passes', async () => {
    await withSandbox(HUSKY_PKG, async (s) => {
      withHusky(s, 'echo husky-ran\nexit 0\n');
      const r = await s.cli(['install']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/proven: /);
      const text = s.repo.read('.husky/pre-commit');
      expect(text.startsWith('echo husky-ran\n# >>> loopgates')).toBe(true);
      expect(text.endsWith('# <<< loopgates\nexit 0\n')).toBe(true);
      expect((await s.cli(['uninstall'])).code).toBe(0);
      expect(s.repo.read('.husky/pre-commit')).toBe('echo husky-ran\nexit 0\n');
    });
  });

  it('a proof that fails rolls back everything install wrote, and says why', async () => {
    await withSandbox(HUSKY_PKG, async (s) => {
      // An exit no line-based rule can see ends the script before the block: only the proof catches it.
      withHusky(s, 'echo husky-ran\nif true; then exit 0; fi\n');
      const before = fullState(s);
      const r = await s.cli(['install']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/proof failed: .*canary/i);
      expect(r.stderr).toMatch(/rolled back: nothing install wrote is left/);
      expect(r.stderr).toMatch(/fix: make sure nothing before the loopgates block ends the hook script/);
      expect(fullState(s)).toBe(before);
    });
  });

  it('doctor reports a block after an unconditional exit as a problem with its fix', async () => {
    await withSandbox(HUSKY_PKG, async (s) => {
      withHusky(s, 'echo husky-ran\n');
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      expect((await s.cli(['doctor'])).stdout).toMatch(/ok {7}git will run the hook/);
      // What loopgates before this fix wrote: the block appended after the user's `exit 0`.
      const text = s.repo.read('.husky/pre-commit');
      const at = text.indexOf('# >>> loopgates');
      s.repo.write('.husky/pre-commit', `${text.slice(0, at)}exit 0\n${text.slice(at)}`);
      const d = await s.cli(['doctor']);
      expect(d.stdout).toMatch(new RegExp(String.raw`PROBLEM {2}\.husky\/pre-commit:2 \`exit 0\` ends the script before the loopgates block: git never reaches the hook\n {9}fix: ${LOOPGATES_RE} install`));
      expect(d.stdout).not.toMatch(/ok {7}git will run the hook/);
      expect(d.code).toBe(2);
      // The fix it names works: install moves the block above the exit.
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      expect(s.repo.read('.husky/pre-commit').endsWith('# <<< loopgates\nexit 0\n')).toBe(true);
      expect((await s.cli(['doctor'])).code).toBe(0);
    });
  });
});

describe('doctor and a team hook that exits before the loopgates block', () => {
  // fresh-user 2026-12-04 F2: a later team edit (`[ -n "$SKIPIT" ] || exit 0` above the block in a core.hooksPath
  // hook) let every commit land unchecked, and doctor said "git will run the hook" and healthy.
  it('names a conditional exit 0 above the block as a problem; one inside a function that exits 1 is none', async () => {
    await withSandbox(APP, async (s) => {
      s.repo.write('.githooks/pre-commit', '#!/bin/sh\necho team-hook-ran\nexit 0\n');
      chmodSync(join(s.repo.dir, '.githooks/pre-commit'), 0o755);
      s.repo.git('config', 'core.hooksPath', '.githooks');
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      expect((await s.cli(['doctor'])).code).toBe(0);
      const text = s.repo.read('.githooks/pre-commit');
      s.repo.write('.githooks/pre-commit', text.replace('echo team-hook-ran\n', 'echo team-hook-ran\ndie() { echo "$1"; exit 1; }\n[ -n "$SKIPIT" ] || exit 0   # speed up\n'));
      const d = await s.cli(['doctor']);
      expect(d.stdout).toContain('PROBLEM  .githooks/pre-commit:4 `[ -n "$SKIPIT" ] || exit 0   # speed up` may end the script with success before the loopgates block: a commit it lets through is never judged');
      expect(d.stdout).toMatch(new RegExp(String.raw`\n {9}fix: move that line below the loopgates block \(# <<< loopgates\) or drop the exit, then: ${LOOPGATES_RE} install {3}\(its proof runs a canary commit\)\n`));
      expect(d.stdout).not.toMatch(/pre-commit:3 /);
      expect(d.code).toBe(2);
    });
  });
});

describe('doctor and the cache directory', () => {
  it('a file where the cache directory belongs is a problem with the fix runs would give; removed, doctor is healthy again', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      const cache = join(s.repo.dir, '.git', 'loopgates', 'cache');
      rmSync(cache, { recursive: true, force: true });
      writeFileSync(cache, 'x\n');
      const d = await s.cli(['doctor']);
      expect(d.code).toBe(2);
      expect(d.stdout).toContain(`PROBLEM  the loopgates cache directory ${cache} cannot be used: ${cache} is a file, not a directory\n         fix: rm -rf '${cache}'`);
      rmSync(cache);
      const again = await s.cli(['doctor']);
      expect(again.stdout).toContain(`ok       cache: ${cache}`);
      expect(again.code).toBe(0);
    });
  });
});

describe('core.hooksPath outside the repository', () => {
  it('once the user added the lines install asked for, install accepts the set-up and proves it', async () => {
    await withSandbox(APP, async (s) => {
      const shared = join(s.base, 'shared-hooks');
      s.repo.git('config', 'core.hooksPath', shared);
      const first = await s.cli(['install']);
      expect(first.code).toBe(2);
      const lines = new RegExp(String.raw`add these lines to \S+:\n([\s\S]*?)\n {2}then run: ${LOOPGATES_RE} install`).exec(first.stderr)?.[1];
      expect(lines).toMatch(/# >>> loopgates/);
      // File content to paste, shared by other repositories: printed as written, not with this shell's command word.
      // The word in its fix is the shell's to work out where it refuses (hooks/cli-word), in each repository sharing it.
      expect(lines).toContain(`(or: %s install)\\n' "$loopgates_hook" "$(loopgates_word)"`);
      spawnSync('mkdir', ['-p', shared]);
      writeFileSync(join(shared, 'pre-commit'), `#!/bin/sh\n${lines ?? ''}\n`, { mode: 0o755 });

      const second = await s.cli(['install']);
      expect(second.stderr).toBe('');
      expect(second.code).toBe(0);
      expect(second.stdout).toMatch(/proven: /);
      expect(existsSync(join(s.repo.dir, '.loopgates/hooks/pre-commit'))).toBe(true);
      expect((await s.cli(['doctor'])).code).toBe(0);
    });
  });
});

describe('a proof that fails for a missing tool', () => {
  it('a missing gitleaks is refused before any write or proof, naming that fix, not the hook script', async () => {
    await withSandbox(APP, async (s) => {
      const before = fullState(s);
      const r = await s.cli(['install'], { LOOPGATES_GITLEAKS: join(s.repo.dir, '..', 'no-such-gitleaks') });
      expect(r.code).toBe(2);
      // 863bf48 moved the tool check ahead of the proof (fresh-user F2-old: 15-30 s of proof before saying so).
      expect(r.stderr).toMatch(/^loopgates install: refused, nothing was changed: gitleaks: LOOPGATES_GITLEAKS names .*no-such-gitleaks, which does not exist or is not a file/m);
      expect(r.stderr).not.toMatch(/proving|proof failed/);
      expect(fullState(s)).toBe(before);
      expect(r.stderr).toMatch(new RegExp(String.raw`^ {2}fix: .*install gitleaks .*, then: ${LOOPGATES_RE} install$`, 'm'));
      expect(r.stderr).not.toMatch(/ends the hook script/);
    });
  });
});

describe('a proof whose canary lands because of the configuration, not the hook script', () => {
  it('with the secrets gate disabled in loopgates.yaml: names that cause and its fix, and --no-proof installs', async () => {
    await withSandbox({ ...APP, 'loopgates.yaml': 'version: 1\ngates:\n  secrets: {enabled: false}\n' }, async (s) => {
      const before = fullState(s);
      const r = await s.cli(['install']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        /^loopgates install: proof failed: the commit staging a canary credential LANDED: the secrets gate is disabled in loopgates\.yaml \(gates\.secrets\.enabled: false\), so nothing can refuse the canary commit$/m,
      );
      expect(r.stderr).toMatch(new RegExp(String.raw`^ {2}fix: set gates\.secrets\.enabled: true in loopgates\.yaml .*then: ${LOOPGATES_RE} install; .*: ${LOOPGATES_RE} install --no-proof$`, 'm'));
      expect(r.stderr).not.toMatch(/ends the hook script/);
      expect(r.stderr).toMatch(/rolled back: nothing install wrote is left/);
      expect(fullState(s)).toBe(before);
      // The way out it names for keeping the gate off works.
      const n = await s.cli(['install', '--no-proof']);
      expect(n.stderr).toBe('');
      expect(n.code).toBe(0);
    });
  });

  it('the fix it names works: the secrets gate enabled in a staged loopgates.yaml (not yet committed), install proves the hook', async () => {
    await withSandbox({ ...APP, 'loopgates.yaml': 'version: 1\ngates:\n  secrets: {enabled: false}\n' }, async (s) => {
      const r = await s.cli(['install']);
      expect(r.stderr).toMatch(new RegExp(String.raw`^ {2}fix: set gates\.secrets\.enabled: true in loopgates\.yaml \(or delete that key\) and stage it \(git add loopgates\.yaml\), then: ${LOOPGATES_RE} install; `, 'm'));
      s.repo.write('loopgates.yaml', 'version: 1\ngates:\n  secrets: {enabled: true}\n');
      s.repo.git('add', 'loopgates.yaml');
      const again = await s.cli(['install']);
      expect(again.stderr).toBe('');
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/proving: canary commit refused \(exit 1\), finding at loopgates-proof\/canary\.txt/);
      expect(again.stdout).toMatch(/proven: a commit staging a credential is refused and a clean commit lands/);
    });
  });

  it('with a .gitleaks.toml that replaces the default rules (no useDefault): says the scanner is blind, with the hook\'s fix', async () => {
    const toml = "title = 'ours'\n[[rules]]\nid = 'internal-token'\nregex = '''ITK_[A-Za-z0-9]{32}'''\n";
    await withSandbox({ ...APP, '.gitleaks.toml': toml }, async (s) => {
      const before = fullState(s);
      const r = await s.cli(['install']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^loopgates install: proof failed: the canary commit was refused \(exit 2\) because the secrets scanner is blind under the repository's gitleaks configuration/m);
      expect(r.stderr).toMatch(new RegExp(String.raw`^ {2}fix: .*\[extend\] useDefault = true.*, then: ${LOOPGATES_RE} install$`, 'm'));
      expect(fullState(s)).toBe(before);
    });
  });

  it('with a .gitleaks.toml allow-list that skips the proof paths: says the secrets gate read nothing there, and names the file', async () => {
    const toml = "[extend]\nuseDefault = true\n\n[allowlist]\npaths = ['''\\.txt$''']\n";
    await withSandbox({ ...APP, '.gitleaks.toml': toml }, async (s) => {
      const before = fullState(s);
      const r = await s.cli(['install']);
      expect(r.code).toBe(2);
      // A commit of only files the committed allowlist exempts is a secrets skip (7506017, fresh-user-6 G7): both proof
      // commits land, and the proof names the allowlist as why the canary did, with the fix.
      expect(r.stdout).toMatch(/^proving: clean commit landed \(\d+\.\d s\)$/m);
      expect(r.stdout).toMatch(/^proving: canary commit LANDED \(\d+\.\d s\)$/m);
      expect(r.stderr).toMatch(
        /^loopgates install: proof failed: the canary commit LANDED only because the \[allowlist\] paths of \.gitleaks\.toml skip loopgates-proof\/canary\.txt: gitleaks never looks inside such a file$/m,
      );
      expect(r.stderr).not.toMatch(/the hook does not guard commits/);
      expect(r.stderr).toMatch(new RegExp(String.raw`^ {2}fix: make \.gitleaks\.toml read loopgates-proof\/canary\.txt \(no \[allowlist\] path that matches loopgates-proof\/\*\.txt\), then: ${LOOPGATES_RE} install; .*: ${LOOPGATES_RE} install --no-proof$`, 'm'));
      expect(r.stderr).not.toMatch(/ends the hook script/);
      expect(fullState(s)).toBe(before);
    });
  });
});
