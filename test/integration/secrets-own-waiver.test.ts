// fresh F11: a commit that stages a credential and, with it, the .gitleaksignore entry (or the gitleaks:allow comment)
// that waives it used to pass the hook with a note. That is the config narrowing of quiet-disable.test.ts by another
// file: the hook refuses it (exit 1) unless LOOPGATES_ALLOW_DISABLE names secrets. Real git, real gitleaks.
import { describe, expect, it } from 'vitest';
import { fakeGithubToken } from '../../gates/secrets/credentials.js';
import { inTempRepo, ledgerOf, runVerb } from '../helpers/cli.js';
import { assertBuilt } from './install-support.js';

const YAML = 'version: 1\ngates:\n  secrets: {}\n  hardcoded-strings: {enabled: false}\n  string-parity: {enabled: false}\n';
const base = { 'loopgates.yaml': YAML, 'README.md': 'x\n' };
const keys = 'app/keys.env';

describe('a commit that waives its own credential (fresh F11)', () => {
  it("red: a .gitleaksignore entry staged with the token line it names is refused, exit 1, naming file:line and the fix", async () => {
    assertBuilt();
    const tok = fakeGithubToken();
    const r = await inTempRepo(base, (s) => runVerb(s, ['hook', 'pre-commit']), { stage: { '.gitleaksignore': `${keys}:github-pat:1\n`, [keys]: `GITHUB_TOKEN=${tok.value}\n` } });
    const out = r.stdout + r.stderr;
    expect(out).toContain(`this commit keeps secrets enabled but waives 1 finding of its own (${keys}:1 github-pat, by the .gitleaksignore entry ${keys}:github-pat:1 it adds)`);
    expect(out).toContain('LOOPGATES_ALLOW_DISABLE=secrets git commit');
    expect(out).toContain('refused: this commit narrows secrets');
    expect(r.exit).toBe(1);
    expect(r.untouched).toBe(true);
    expect(out).not.toContain(tok.value);
    expect(JSON.stringify(r.ledger)).not.toContain(tok.value);
  });

  it('red: a gitleaks:allow comment staged on the token line is the same waiver', async () => {
    assertBuilt();
    const tok = fakeGithubToken();
    const r = await inTempRepo(base, (s) => runVerb(s, ['hook', 'pre-commit']), { stage: { [keys]: `A=1\nGITHUB_TOKEN=${tok.value} # gitleaks:allow\n` } });
    const out = r.stdout + r.stderr;
    expect(out).toContain(`this commit keeps secrets enabled but waives 1 finding of its own (${keys}:2 github-pat, by a gitleaks:allow comment on its line)`);
    expect(r.exit).toBe(1);
    expect(out).not.toContain(tok.value);
  });

  it('red: the json report carries the refusal and the waived spot, never the value', async () => {
    assertBuilt();
    const tok = fakeGithubToken();
    const r = await inTempRepo(base, (s) => runVerb(s, ['hook', 'pre-commit', '--format', 'json']), { stage: { '.gitleaksignore': `${keys}:github-pat:1\n`, [keys]: `GITHUB_TOKEN=${tok.value}\n` } });
    const doc = JSON.parse(r.stdout) as { exitCode: number; refusals?: string[]; results: Array<{ gate: string; waived?: string[] }> };
    expect(doc.exitCode).toBe(1);
    expect(doc.refusals).toEqual(['this commit narrows secrets']);
    expect(doc.results.find((x) => x.gate === 'secrets')?.waived).toEqual([`${keys}:1 github-pat, by the .gitleaksignore entry ${keys}:github-pat:1 it adds`]);
    expect(r.stdout).not.toContain(tok.value);
  });

  it('green: acknowledged with LOOPGATES_ALLOW_DISABLE=secrets, the commit goes on with a warning and a ledger line saying narrowed', async () => {
    assertBuilt();
    const tok = fakeGithubToken();
    const r = await inTempRepo(base, (s) => runVerb(s, ['hook', 'pre-commit'], { LOOPGATES_ALLOW_DISABLE: 'secrets' }), {
      stage: { '.gitleaksignore': `${keys}:github-pat:1\n`, [keys]: `GITHUB_TOKEN=${tok.value}\n` },
    });
    expect(r.stdout + r.stderr).toContain(`WARNING: this commit narrows secrets (waives 1 finding of its own (${keys}:1 github-pat, by the .gitleaksignore entry ${keys}:github-pat:1 it adds)), acknowledged by LOOPGATES_ALLOW_DISABLE`);
    expect(r.ledger.filter((e) => e.kind === 'disable').map((e) => `${e.gate} ${e.verdict} ${String(e.acknowledgedBy)}`)).toEqual(['secrets narrowed LOOPGATES_ALLOW_DISABLE']);
    expect(r.exit).toBe(0);
    expect(r.stdout + r.stderr + JSON.stringify(r.ledger)).not.toContain(tok.value);
  });

  it('green: once committed with the acknowledgement, the entry keeps waiving its line; the next commit asks nothing', async () => {
    assertBuilt();
    const tok = fakeGithubToken();
    const r = await inTempRepo(base, async (s) => {
      s.repo.write('.gitleaksignore', `${keys}:github-pat:1\n`);
      s.repo.write(keys, `GITHUB_TOKEN=${tok.value}\n`);
      s.repo.git('add', '-A');
      const first = await runVerb(s, ['hook', 'pre-commit'], { LOOPGATES_ALLOW_DISABLE: 'secrets' });
      expect(first.exit).toBe(0);
      s.repo.git('commit', '-q', '--no-verify', '-m', 'acknowledged');
      // The file scanned whole (a -diff attribute): its listed line is read again, and HEAD's entry covers it.
      s.repo.write('.gitattributes', `${keys} -diff\n`);
      s.repo.write(keys, `GITHUB_TOKEN=${tok.value}\nA=1\n`);
      s.repo.git('add', '-A');
      return runVerb(s, ['hook', 'pre-commit']);
    });
    expect(r.stdout + r.stderr).not.toContain('waives');
    expect(r.exit).toBe(0);
  });

  it('red: the entry committed alone first does not list the line a later commit stages (so the fix is the acknowledgement)', async () => {
    assertBuilt();
    const tok = fakeGithubToken();
    const r = await inTempRepo({ ...base, '.gitleaksignore': `${keys}:github-pat:1\n` }, (s) => runVerb(s, ['hook', 'pre-commit']), { stage: { [keys]: `GITHUB_TOKEN=${tok.value}\n` } });
    expect(r.stdout + r.stderr).toContain(`the .gitleaksignore entry ${keys}:github-pat:1 was written for what this line held before and the line changed`);
    expect(r.stdout + r.stderr).toContain('LOOPGATES_ALLOW_DISABLE=secrets git commit');
    expect(r.exit).toBe(1);
  });

  it('green: a gitleaks:allow line HEAD already holds, in a file the commit edits, asks nothing', async () => {
    assertBuilt();
    const tok = fakeGithubToken();
    const r = await inTempRepo({ ...base, [keys]: `GITHUB_TOKEN=${tok.value} # gitleaks:allow\n` }, (s) => runVerb(s, ['hook', 'pre-commit']), {
      stage: { [keys]: `A=1\nGITHUB_TOKEN=${tok.value} # gitleaks:allow\nB=2\n` },
    });
    expect(r.stdout + r.stderr).not.toContain('waives');
    expect(r.exit).toBe(0);
  });

  it('red: the entry without its line changing anything (another line) still refuses the token (the check adds no pass)', async () => {
    assertBuilt();
    const tok = fakeGithubToken();
    const r = await inTempRepo(base, (s) => runVerb(s, ['hook', 'pre-commit']), { stage: { '.gitleaksignore': `${keys}:github-pat:9\n`, [keys]: `GITHUB_TOKEN=${tok.value}\n` } });
    expect(r.stdout + r.stderr).not.toContain('waives');
    expect(r.stdout + r.stderr).toContain(`${keys}:1`);
    expect(r.exit).toBe(1);
  });
});
