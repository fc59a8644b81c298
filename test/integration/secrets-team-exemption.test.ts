// A team's committed .gitleaks.toml [allowlist] paths entry (fastlane store metadata, fresh-user-6 G7): a commit
// whose only staged files it exempts has nothing the secrets gate must judge, so the gate is a `skip` naming the
// files and the entry (never `pass`: it read nothing), not `vacuous` (exit 2, "fix: LOOPGATES_SKIP=secrets", which
// would unscan every other file too). A staged file the entry does not exempt is still scanned; an exemption the
// commit adds itself is judged by HEAD's config too (secrets-own-exemption.test.ts). Real git, hook and gitleaks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeGithubToken } from '../../gates/secrets/credentials.js';
import { assertBuilt, gitThroughHooks, head, withSandbox, type Sandbox } from './install-support.js';
import { localGitleaksDir } from '../helpers/setup-env.js';
import { ownTmpdir } from '../helpers/own-tmpdir.js';

ownTmpdir('loopgates-team-exemption-');
const YAML = 'version: 1\ngates:\n  secrets: {}\n  hardcoded-strings: {enabled: false}\n  string-parity: {enabled: false}\n';
const BASE = '[extend]\nuseDefault = true\n';
const TEAM = `${BASE}[allowlist]\ndescription = "store metadata has no secrets"\npaths = ['''^fastlane/metadata/''']\n`;
const LOG = 'fastlane/metadata/android/en-US/changelogs/1.txt';
const APP = { 'loopgates.yaml': YAML, 'README.md': '# notes\n', 'src/notes.txt': 'first\n', [LOG]: '* First release\n' };

interface Commit {
  status: number;
  output: string;
  landed: boolean;
  secrets?: { verdict: string; counts: { files: number } };
}

/** Install the hook in a sandbox of APP plus `files` (committed), then run `fn` with a committer through the hook. */
async function withHook(files: Record<string, string>, fn: (s: Sandbox, commit: (env?: Record<string, string>) => Promise<Commit>) => Promise<void>): Promise<void> {
  assertBuilt();
  await withSandbox({ ...APP, ...files }, async (s) => {
    const env = { LOOPGATES_GITLEAKS: join(localGitleaksDir, 'gitleaks') };
    expect((await s.cli(['install', '--no-proof'], env)).code).toBe(0);
    s.repo.git('add', '-A');
    s.repo.git('commit', '-q', '--no-verify', '-m', 'loopgates');
    const ledger = join(s.repo.dir, '.loopgates', 'ledger.jsonl');
    const lines = () => { try { return readFileSync(ledger, 'utf8').split('\n').filter(Boolean); } catch { return []; } };
    await fn(s, async (extra = {}) => {
      const before = head(s);
      const seen = lines().length;
      const r = await gitThroughHooks(s, ['commit', '-q', '-m', 'change'], { ...env, ...extra });
      const secrets = lines().slice(seen).map((l) => JSON.parse(l) as { kind: string; gate: string; verdict: string; counts: { files: number } }).find((l) => l.gate === 'secrets' && l.kind !== 'disable');
      return { ...r, landed: head(s) !== before, ...(secrets ? { secrets: { verdict: secrets.verdict, counts: { files: secrets.counts.files } } } : {}) };
    });
  });
}

describe("secrets: files the team's committed .gitleaks.toml [allowlist] paths exempts", () => {
  it('a commit touching only exempted files is a skip naming the files and the entry, exit 0 (was vacuous, exit 2)', async () => {
    await withHook({ '.gitleaks.toml': TEAM }, async (s, commit) => {
      // Node judges it (LOOPGATES_NO_FAST_PATH), and so does the shell hand it over (a .gitleaks.toml is node's).
      for (const env of [{ LOOPGATES_NO_FAST_PATH: '1' }, {}]) {
        s.repo.write(LOG, `* First release\n* Fixed a typo ${Object.keys(env).length}\n`);
        s.repo.git('add', '--', LOG);
        const r = await commit(env);
        expect([r.status, r.landed, r.secrets], r.output).toEqual([0, true, { verdict: 'skip', counts: { files: 0 } }]);
        expect(r.output).toContain(`not scanned: exempted by .gitleaks.toml [allowlist] paths '''^fastlane/metadata/''': ${LOG}`);
        expect(r.output).not.toContain('vacuous');
        expect(r.output).not.toContain('LOOPGATES_SKIP');
      }
    });
  });

  it('green control: a credential in a file the entry does not exempt, staged with an exempted file, is refused (exit 1)', async () => {
    const tok = fakeGithubToken();
    await withHook({ '.gitleaks.toml': TEAM }, async (s, commit) => {
      s.repo.write(LOG, '* First release\n* Fixed a typo\n');
      s.repo.write('src/keys.env', `GITHUB_TOKEN=${tok.value}\n`);
      s.repo.git('add', '-A');
      const r = await commit();
      expect([r.status, r.landed, r.secrets?.verdict], r.output).toEqual([1, false, 'fail']);
      expect(r.output).toContain('src/keys.env:1');
      expect(r.output).not.toContain(tok.value);
    });
  });

  it('a mix without a credential is judged on the scanned file: pass, 1 file scanned, the exempted one named', async () => {
    await withHook({ '.gitleaks.toml': TEAM }, async (s, commit) => {
      s.repo.write(LOG, '* First release\n* Fixed a typo\n');
      s.repo.write('src/notes.txt', 'first\nsecond\n');
      s.repo.git('add', '-A');
      const r = await commit();
      expect([r.status, r.landed, r.secrets], r.output).toEqual([0, true, { verdict: 'pass', counts: { files: 1 } }]);
      expect(r.output).toContain('NOT SCANNED');
    });
  });

  it('the allowlist added in the same commit as a credential in the path it exempts: refused as before (exit 1)', async () => {
    const tok = fakeGithubToken();
    await withHook({ '.gitleaks.toml': BASE }, async (s, commit) => {
      s.repo.write('.gitleaks.toml', TEAM);
      s.repo.write(LOG, `* First release\nGITHUB_TOKEN=${tok.value}\n`);
      s.repo.git('add', '-A');
      const r = await commit();
      expect([r.status, r.landed, r.secrets?.verdict], r.output).toEqual([1, false, 'fail']);
      expect(r.output).toContain(`if it is not a secret, list it in .gitleaksignore from the repository's top folder (printf '${LOG}:github-pat:2\\n' >> .gitleaksignore), stage it with this file (git add .gitleaksignore) and say so for this commit: LOOPGATES_ALLOW_DISABLE=secrets git commit …`);
      expect(r.output).toContain('refused: this commit narrows secrets');
      expect(r.output).not.toContain(tok.value);
    });
  });

  // G1: the entry narrows secrets for every later commit, so it is refused even with nothing to exempt staged now;
  // the change itself is still scanned under HEAD's config (pass), and goes in once said on purpose.
  it('the allowlist added in the same commit as a clean change to the path it exempts: scanned under HEAD\'s config, pass, and refused as a narrowing unless acknowledged', async () => {
    await withHook({ '.gitleaks.toml': BASE }, async (s, commit) => {
      s.repo.write('.gitleaks.toml', TEAM);
      s.repo.write(LOG, '* First release\n* Fixed a typo\n');
      s.repo.git('add', '-A');
      const r = await commit();
      expect([r.status, r.landed, r.secrets], r.output).toEqual([1, false, { verdict: 'pass', counts: { files: 1 } }]);
      expect(r.output).toContain("this commit keeps secrets enabled but its .gitleaks.toml adds [allowlist] paths '''^fastlane/metadata/'''");
      const ack = await commit({ LOOPGATES_ALLOW_DISABLE: 'secrets' });
      expect([ack.status, ack.landed, ack.secrets], ack.output).toEqual([0, true, { verdict: 'pass', counts: { files: 1 } }]);
    });
  });
});
