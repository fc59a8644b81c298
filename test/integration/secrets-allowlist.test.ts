// The secrets gate and gitleaks' path allowlist. gitleaks 8.16's built-in default config skips, by path and before
// any rule, every file whose path contains `vendor` or `node_modules` or whose name ends in bin|zip|pdf|… (`cabin`
// too), yet such files were counted as scanned: a key in app/vendor/Keys.kt passed. Real git, real gitleaks.
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countsPhrase } from '../../core/messages.js';
import type { GateResult } from '../../core/types.js';
import { fakeAwsAccessKey } from '../../gates/secrets/credentials.js';
import { secretsHarness } from '../helpers/secrets-gate.js';
import { withGitRepo } from '../helpers/git-repo.js';

const { check } = secretsHarness('loopgates-allowlist-test-');
const spots = (r: GateResult) => r.findings.map((f) => `${f.file}:${f.line}:${f.column}:${f.rule}`);

describe('secrets: files gitleaks skips by path', () => {
  const key = fakeAwsAccessKey().value;
  const files = {
    'app/src/main/java/com/acme/vendor/Keys.kt': `package com.acme.vendor\nval key = "${key}"\n`,
    'lib/cabin': `${key}\n`,
    'README.md': '# app\n',
  };

  it('red: a staged key in a vendor/ path and in a file named cabin is reported at its line (was a pass, counted as scanned)', async () => {
    await withGitRepo(files, async (repo) => {
      repo.git('add', '--', '.');
      const r = await check(repo, 'staged');
      expect([r.verdict, r.counts.files, ...spots(r)]).toEqual(['fail', 3, 'app/src/main/java/com/acme/vendor/Keys.kt:2:12:aws-access-token', 'lib/cabin:1:1:aws-access-token']);
      expect(r.notes).toContain(
        "2 staged file(s) skipped by the path allowlist of gitleaks' default config (app/src/main/java/com/acme/vendor/Keys.kt, lib/cabin): scanned their content under a neutral name",
      );
    });
  });

  it('red: the same in run --all', async () => {
    await withGitRepo(files, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '--no-verify', '-m', 'app');
      const r = await check(repo, 'all');
      expect([r.verdict, r.counts.files, ...spots(r)]).toEqual(['fail', 3, 'app/src/main/java/com/acme/vendor/Keys.kt:2:12:aws-access-token', 'lib/cabin:1:1:aws-access-token']);
      // The files scanned under a neutral name are scanned files too: the verdict line said "scanned 3 files, 1 files"
      // (fresh-user-3 F2: "scanned 704 files, 703 files" on linkwarden, one .gif under gitleaks' default allowlist).
      expect(countsPhrase(r.counts, r.itemUnit)).toBe('scanned 3 files, 2 findings');
    });
  });

  it('green: the same paths without a credential pass, counted', async () => {
    await withGitRepo({ ...files, 'app/src/main/java/com/acme/vendor/Keys.kt': 'package com.acme.vendor\nval key = BuildConfig.KEY\n', 'lib/cabin': 'wood\n' }, async (repo) => {
      repo.git('add', '--', '.');
      const r = await check(repo, 'staged');
      expect([r.verdict, r.counts.files, ...spots(r)]).toEqual(['pass', 3]);
    });
  });

  it("a team's own [allowlist] paths are honoured, but the files are not counted as scanned and a note names them", async () => {
    const config = "[extend]\nuseDefault = true\n[allowlist]\npaths = ['''^fixtures/''']\n";
    // The entry is HEAD's: one staged with its file is judged by HEAD's config too (secrets-own-exemption.test.ts).
    await withGitRepo({ '.gitleaks.toml': config }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '--no-verify', '-m', 'config');
      repo.write('fixtures/fake.env', `KEY=${key}\n`);
      repo.write('src/app.kt', 'val x = 1\n');
      repo.git('add', '--', '.');
      const r = await check(repo, 'staged');
      // .gitleaks.toml is the gate's config, no input (gitleaks' default allowlist skips it too).
      expect([r.verdict, r.counts.files, ...spots(r)]).toEqual(['pass', 1]);
      expect(r.notes).toContain("1 of 2 staged file(s) NOT SCANNED, a credential there is not seen: the [allowlist] paths of .gitleaks.toml skip them: fixtures/fake.env ([allowlist] paths entry '''^fixtures/''')");
    });
    // Only such files staged, exempted by the entry HEAD holds: nothing was read, so the run cannot say pass; nothing
    // the team left to judge was staged, so a skip naming them (fresh-user-6 G7: was vacuous, exit 2).
    await withGitRepo({ '.gitleaks.toml': config, 'src/app.kt': 'val x = 1\n' }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '--no-verify', '-m', 'app');
      repo.write('fixtures/fake.env', `KEY=${key}\n`);
      repo.git('add', '--', 'fixtures/fake.env');
      const r = await check(repo, 'staged');
      expect([r.verdict, r.counts.files, r.reason]).toEqual(['skip', 0, "not scanned: exempted by .gitleaks.toml [allowlist] paths '''^fixtures/''': fixtures/fake.env (the .gitleaks.toml HEAD holds; no other file staged)"]);
    });
    // Only a file gitleaks' default allowlist (kept by useDefault) skips: not an entry of the team's, still vacuous.
    await withGitRepo({ '.gitleaks.toml': config, 'src/app.kt': 'val x = 1\n' }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '--no-verify', '-m', 'app');
      repo.write('lib/vendor/readme.txt', 'vendored\n');
      repo.git('add', '--', 'lib/vendor/readme.txt');
      const r = await check(repo, 'staged');
      expect([r.verdict, r.counts.files]).toEqual(['vacuous', 0]);
    });
    // The same file in run --all: the tree is judged whole, no skip.
    await withGitRepo({ '.gitleaks.toml': config, 'fixtures/fake.env': 'KEY=none\n' }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '--no-verify', '-m', 'app');
      const r = await check(repo, 'all');
      expect([r.verdict, r.counts.files]).toEqual(['vacuous', 0]);
    });
    // Only the config staged: no input, a skip (never a pass over nothing).
    await withGitRepo({ '.gitleaks.toml': config, 'src/app.kt': 'val x = 1\n' }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '--no-verify', '-m', 'app');
      repo.write('.gitleaks.toml', `${config}# more\n`);
      repo.git('add', '--', '.gitleaks.toml');
      const r = await check(repo, 'staged');
      expect([r.verdict, r.counts.files]).toEqual(['skip', 0]);
    });
  });
});

describe('secrets: symbolic links', () => {
  it('red: a credential written as a symlink\'s target is reported, staged and in run --all (was: 0 files, skip)', async () => {
    const key = fakeAwsAccessKey().value;
    await withGitRepo({ 'README.md': '# app\n' }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'base');
      symlinkSync(`aws_access_key_id="${key}"`, join(repo.dir, 'creds-link'));
      repo.git('add', '--', 'creds-link');
      const staged = await check(repo, 'staged');
      expect([staged.verdict, staged.counts.files, ...spots(staged)]).toEqual(['fail', 1, 'creds-link:1:20:aws-access-token']);
      repo.git('commit', '-q', '--no-verify', '-m', 'link');
      const all = await check(repo, 'all');
      expect([all.verdict, all.counts.files, ...spots(all)]).toEqual(['fail', 2, 'creds-link:1:20:aws-access-token']);
    });
  });
});
