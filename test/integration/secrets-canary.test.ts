// The secrets gate's canary proof against a team's .gitleaks.toml. A config with its own [[rules]] and no
// `[extend] useDefault = true` replaces gitleaks' default rules: with only a PEM rule left, the canary (an AWS key, a
// GitHub token and a PEM block) was still "reported" through its PEM block, so the scan was trusted and an AWS key
// in prod.env passed ("scanned 1 file, 0 findings"). Every planted credential must now be reported. Real git, real
// gitleaks 8.16.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GateResult } from '../../core/types.js';
import { fakeAwsAccessKey } from '../../gates/secrets/credentials.js';
import { probeGitleaks, resolveGitleaks, sha256 } from '../../gates/secrets/gitleaks.js';
import { runTool } from '../../core/tools.js';
import { secretsHarness } from '../helpers/secrets-gate.js';
import { withGitRepo } from '../helpers/git-repo.js';

const { check, cacheRoot } = secretsHarness('loopgates-canary-test-');
const spots = (r: GateResult) => r.findings.map((f) => `${f.file}:${f.line}:${f.rule}`);

/** A team config with rules of its own and no [extend] useDefault = true: gitleaks' default rules are gone. */
const OWN_RULES = [
  '[[rules]]',
  'id = "internal-token"',
  'description = "internal token"',
  "regex = '''acme_int_[0-9a-f]{32}'''",
  '',
  '[[rules]]',
  'id = "private-key"',
  'description = "private key"',
  "regex = '''(?i)-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY( BLOCK)?-----[\\s\\S-]*KEY( BLOCK)?----'''",
  "keywords = ['-----begin']",
  '',
].join('\n');

describe('secrets: the canary proof needs every planted credential reported', () => {
  const key = fakeAwsAccessKey().value;

  it('red: a committed .gitleaks.toml without the default rules blinds the scan to AWS keys and GitHub tokens: error naming them', async () => {
    await withGitRepo({ '.gitleaks.toml': OWN_RULES, 'README.md': '# app\n' }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '--no-verify', '-m', 'config');
      repo.write('prod.env', `aws_access_key_id=${key}\n`);
      repo.git('add', '--', 'prod.env');
      const r = await check(repo, 'staged');
      expect([r.verdict, ...spots(r)]).toEqual(['error']);
      expect(r.error?.message).toMatch(/^the secrets scanner is blind: gitleaks protect --staged on a scratch index did not report the aws-access-token and github-pat canaries \(/);
      expect(r.error?.message).toContain('reported: private-key');
      expect(r.error?.message).toContain('check that .gitleaks.toml still detects these (e.g. [extend] useDefault = true)');
      expect(r.error?.fix).toMatch(/^the staged \.gitleaks\.toml is the likely cause: add \(or keep\) \[extend\] useDefault = true, so gitleaks' default rules/);
      expect(JSON.stringify(r)).not.toContain(key);
    });
  });

  it('red: the same in run --all (directory scan)', async () => {
    await withGitRepo({ '.gitleaks.toml': OWN_RULES, 'prod.env': `aws_access_key_id=${key}\n` }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '--no-verify', '-m', 'app');
      const r = await check(repo, 'all');
      expect([r.verdict, ...spots(r)]).toEqual(['error']);
      expect(r.error?.message).toMatch(/^the secrets scanner is blind: gitleaks detect --no-git on a scratch directory did not report the aws-access-token and github-pat canaries \(/);
      expect(r.error?.fix).toMatch(/^the \.gitleaks\.toml of the files checked is the likely cause/);
    });
  });

  it('green: the same rules on top of [extend] useDefault = true: the AWS key is reported at its line', async () => {
    await withGitRepo({ '.gitleaks.toml': `[extend]\nuseDefault = true\n\n${OWN_RULES}`, 'README.md': '# app\n' }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '--no-verify', '-m', 'config');
      repo.write('prod.env', `aws_access_key_id=${key}\n`);
      repo.git('add', '--', 'prod.env');
      const r = await check(repo, 'staged');
      expect([r.verdict, r.counts.files, ...spots(r)]).toEqual(['fail', 1, 'prod.env:1:aws-access-token']);
    });
  });

  it('a canary proof cached by an older loopgates (one planted credential was enough) is not reused', async () => {
    // The entry recipe 1 wrote for this config and binary after the PEM block alone was reported (see ensureCanary's key).
    const cacheDir = join(cacheRoot(), 'secrets');
    mkdirSync(cacheDir, { recursive: true });
    const bin = resolveGitleaks();
    const probe = await probeGitleaks({ bin, runTool, signal: new AbortController().signal, timeoutMs: 30_000, cacheDir });
    const oldKey = sha256(JSON.stringify([1, bin.path, bin.size, bin.mtimeMs, probe, 'staged', sha256(Buffer.from(OWN_RULES)), null]));
    writeFileSync(join(cacheDir, 'gitleaks-canary.json'), JSON.stringify({ [oldKey]: { columnShift: 1 } }));
    await withGitRepo({ '.gitleaks.toml': OWN_RULES, 'prod.env': `aws_access_key_id=${key}\n` }, async (repo) => {
      repo.git('add', '--', '.');
      const r = await check(repo, 'staged');
      expect([r.verdict, ...spots(r)]).toEqual(['error']);
      expect(r.error?.message).toContain('did not report the aws-access-token and github-pat canaries');
    });
  });
});
