// .gitleaksignore against the real gitleaks binary: an entry never waves through more than gitleaks itself would
// (its exact fingerprint semantics), and an entry committed for one content of a line does not cover what the
// line holds after the commit changes it (a different token written on the same line).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTool } from '../../core/tools.js';
import { fakeGithubToken } from '../../gates/secrets/credentials.js';
import { isIgnored, parseIgnore, resolveGitleaks } from '../../gates/secrets/gitleaks.js';
import { withGitRepo } from '../helpers/git-repo.js';
import { secretsHarness } from '../helpers/secrets-gate.js';

const h = secretsHarness('loopgates-secretsignore-');
const spots = (r: { findings: ReadonlyArray<{ file: string; line: number; rule: string }> }) => r.findings.map((f) => `${f.file}:${f.line}:${f.rule}`);

describe('.gitleaksignore entries and changed lines', () => {
  it('an entry committed for one token does not cover a different token later written on the same line', async () => {
    const first = fakeGithubToken();
    const second = fakeGithubToken();
    await withGitRepo({ 'app.env': `GITHUB_TOKEN=${first.value}\n`, '.gitleaksignore': `app.env:${first.rule}:1\n` }, async (repo) => {
      repo.git('add', '-A');
      const together = await h.check(repo, 'staged'); // the entry and the line it covers, in one commit
      expect(together.verdict).toBe('pass');
      expect(together.counts.filtered).toBe(1);
      repo.git('commit', '-qm', 'fixture token, reviewed');
      repo.write('app.env', `GITHUB_TOKEN=${second.value}\n`);
      repo.git('add', 'app.env');
      // Bare gitleaks on the same index reports it (8.16's protect reads no .gitleaksignore at all).
      const bin = resolveGitleaks(process.env);
      const bare = await runTool(bin.path, ['protect', '--staged', '--no-banner', '--redact', '--source', '.'], { cwd: repo.dir, timeoutMs: 60_000 });
      expect(bare.exitCode).toBe(1);
      const r = await h.check(repo, 'staged');
      expect(r.verdict).toBe('fail');
      expect(spots(r)).toEqual([`app.env:1:${second.rule}`]);
      expect(r.counts.filtered).toBe(0);
      expect(r.findings[0]!.message).toMatch(/\.gitleaksignore entry app\.env:github-pat:1 .*line changed/);
      expect(JSON.stringify(r)).not.toContain(second.value);
    });
  });

  it('an entry still covers its line while the line is unchanged (the file scanned whole: a -diff attribute)', async () => {
    const tok = fakeGithubToken();
    await withGitRepo({ '.gitattributes': 'app.env -diff\n', 'app.env': `GITHUB_TOKEN=${tok.value}\nA=1\n`, '.gitleaksignore': `app.env:${tok.rule}:1\n` }, async (repo) => {
      repo.git('add', '-A');
      repo.git('commit', '-qm', 'fixture');
      repo.write('app.env', `GITHUB_TOKEN=${tok.value}\nA=2\n`);
      repo.git('add', 'app.env');
      const r = await h.check(repo, 'staged');
      expect(r.verdict).toBe('pass');
      expect(r.counts.filtered).toBe(1);
    });
  });
});

describe('.gitleaksignore fingerprint semantics, differential against the gitleaks binary', () => {
  it('an entry matches exactly when gitleaks detect --no-git itself drops the finding', async () => {
    const tok = fakeGithubToken();
    const bin = resolveGitleaks(process.env);
    const entries = [
      'sub/app.env:github-pat:1\n',
      'sub/app.env:github-pat:1\r\n',
      'sub/app.env:github-pat:1 \n',
      ' sub/app.env:github-pat:1\n',
      '\tsub/app.env:github-pat:1\n',
      './sub/app.env:github-pat:1\n',
      'SUB/app.env:github-pat:1\n',
      'sub/app.env:github-pat:01\n',
      'sub/app.env:github-pat:1:1\n',
      'sub//app.env:github-pat:1\n',
      'deadbeef:sub/app.env:github-pat:1\n',
      '# sub/app.env:github-pat:1\n',
      '#note\nsub/app.env:github-pat:1',
    ];
    const dir = mkdtempSync(join(tmpdir(), 'ignore-oracle-'));
    try {
      mkdirSync(join(dir, 'sub'));
      writeFileSync(join(dir, 'sub', 'app.env'), `GITHUB_TOKEN=${tok.value}\n`);
      const disagree: string[] = [];
      for (const text of entries) {
        writeFileSync(join(dir, '.gitleaksignore'), text);
        const r = await runTool(bin.path, ['detect', '--no-git', '--no-banner', '--redact', '--report-format', 'json', '--report-path', join(dir, '..', 'oracle.json'), '--source', '.'], { cwd: dir, timeoutMs: 60_000 });
        expect([0, 1]).toContain(r.exitCode);
        const gitleaksDrops = r.exitCode === 0;
        const report = JSON.parse(readFileSync(join(dir, '..', 'oracle.json'), 'utf8')) as unknown[];
        expect(report.length).toBe(gitleaksDrops ? 0 : 1);
        const ours = isIgnored(parseIgnore(text), { file: 'sub/app.env', rule: 'github-pat', line: 1 });
        // Never looser than gitleaks; stricter only for an entry gitleaks reads and a newer release calls a comment.
        if (ours && !gitleaksDrops) disagree.push(`looser: ${JSON.stringify(text)}`);
        if (!ours && gitleaksDrops) disagree.push(`stricter: ${JSON.stringify(text)}`);
      }
      expect(disagree).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(join(dir, '..', 'oracle.json'), { force: true });
    }
  });
});
