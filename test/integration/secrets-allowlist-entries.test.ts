// A team .gitleaks.toml [allowlist] paths entry is a Go regexp matched anywhere in a path: '''tests/data''' also
// exempts integration-tests/data-samples/prod.env. The hook names the entry and says the file was not scanned,
// mutate injects into such a file and reports it survived (swallowed by that entry), doctor lists each entry's
// exempted files and flags the one that reaches outside its folder.
import { describe, expect, it } from 'vitest';
import { fakeGithubToken } from '../../gates/secrets/credentials.js';
import { allowlistAudit, allowlistPaths, goRegExp, insideFolder } from '../../gates/secrets/allowlist.js';
import { assertBuilt, withSandbox } from './install-support.js';
import { ownTmpdir } from '../helpers/own-tmpdir.js';

ownTmpdir('loopgates-allowlist-entries-');
const CONFIG = "[extend]\nuseDefault = true\n\n[allowlist]\npaths = ['''tests/data''']\n";

describe('secrets: a team allowlist path that reaches outside its folder', () => {
  it('the hook names the entry for each skipped staged file and says it was not scanned', async () => {
    assertBuilt();
    const tok = fakeGithubToken();
    await withSandbox({ '.gitleaks.toml': CONFIG, 'src/App.kt': 'val x = 1\n', 'loopgates.yaml': 'version: 1\ngates:\n  secrets: {}\n' }, async (s) => {
      s.repo.write('integration-tests/data-samples/prod.env', `GITHUB_TOKEN=${tok.value}\n`);
      s.repo.write('src/Other.kt', 'val y = 2\n');
      s.repo.git('add', '-A');
      const r = await s.cli(['run', '--gate', 'secrets']);
      const out = r.stdout + r.stderr;
      expect(out).toContain("1 of 2 staged file(s) NOT SCANNED, a credential there is not seen: the [allowlist] paths of .gitleaks.toml skip them: integration-tests/data-samples/prod.env ([allowlist] paths entry '''tests/data''' (matches anywhere in a path, not only the folder tests/data))");
      expect(out).not.toContain(tok.value);
    });
  });

  it('mutate injects into a file the allowlist skips and reports survived, naming the entry', async () => {
    assertBuilt();
    const tok = fakeGithubToken();
    await withSandbox(
      {
        '.gitleaks.toml': CONFIG,
        'loopgates.yaml': 'version: 1\ngates:\n  secrets: {}\n  hardcoded-strings: {enabled: false}\n  string-parity: {enabled: false}\n',
        'tests/data/fixture.env': `GITHUB_TOKEN=${tok.value}\n`,
        'integration-tests/data-samples/prod.env': 'API_URL=https://example.invalid\n',
        'src/a.env': 'A=1\n',
        'src/b.env': 'B=1\n',
        'src/c.env': 'C=1\n',
        'src/d.env': 'D=1\n',
      },
      async (s) => {
        const r = await s.cli(['mutate', '--gate', 'secrets', '--format', 'json']);
        expect(r.code).toBe(1);
        const doc = JSON.parse(r.stdout) as { files: Record<string, { mutants: Array<{ status: string; statusReason?: string; description?: string }> }> };
        const prod = doc.files['integration-tests/data-samples/prod.env'];
        expect(prod?.mutants.map((m) => m.status)).toEqual(['Survived']);
        expect(JSON.stringify(prod)).toContain("[allowlist] paths entry '''tests/data'''");
        const fixture = doc.files['tests/data/fixture.env'];
        expect(fixture?.mutants.map((m) => m.status)).toEqual(['Survived']);
        const killed = Object.entries(doc.files).filter(([f]) => f.startsWith('src/')).flatMap(([, v]) => v.mutants.map((m) => m.status));
        expect(killed.length).toBeGreaterThan(0);
        expect(new Set(killed)).toEqual(new Set(['Killed']));
      },
    );
  });

  // The entry in a file .gitleaks.toml extends ([extend] path) is as much the team's config: mutate used to hand
  // gitleaks .gitleaks.toml alone to find the exempt files, and failed ("exemptions() failed") or named none.
  it('mutate names the entry of a file .gitleaks.toml extends, and reports the file it skips survived', async () => {
    assertBuilt();
    const tok = fakeGithubToken();
    await withSandbox(
      {
        '.gitleaks.toml': '[extend]\npath = "gitleaks-base.toml"\n',
        'gitleaks-base.toml': CONFIG,
        'loopgates.yaml': 'version: 1\ngates:\n  secrets: {}\n  hardcoded-strings: {enabled: false}\n  string-parity: {enabled: false}\n',
        'tests/data/fixture.env': `GITHUB_TOKEN=${tok.value}\n`,
        'src/a.env': 'A=1\n',
        'src/b.env': 'B=1\n',
        'src/c.env': 'C=1\n',
      },
      async (s) => {
        const r = await s.cli(['mutate', '--gate', 'secrets', '--format', 'json']);
        expect(r.stderr).not.toContain('exemptions() failed');
        expect(r.code, r.stdout + r.stderr).toBe(1);
        const doc = JSON.parse(r.stdout) as { files: Record<string, { mutants: Array<{ status: string; statusReason?: string }> }> };
        const fixture = doc.files['tests/data/fixture.env'];
        expect(fixture?.mutants.map((m) => m.status)).toEqual(['Survived']);
        expect(JSON.stringify(fixture)).toContain("gitleaks-base.toml [allowlist] paths entry '''tests/data'''");
        const killed = Object.entries(doc.files).filter(([f]) => f.startsWith('src/')).flatMap(([, v]) => v.mutants.map((m) => m.status));
        expect(new Set(killed)).toEqual(new Set(['Killed']));
        expect(r.stdout + r.stderr).not.toContain(tok.value);
      },
    );
  });

  it("doctor audits the entries of the file .gitleaks.toml extends under that file's name", async () => {
    assertBuilt();
    await withSandbox(
      { '.gitleaks.toml': '[extend]\npath = "gitleaks-base.toml"\n', 'gitleaks-base.toml': CONFIG, 'tests/data/a.env': 'A=1\n', 'integration-tests/data-samples/prod.env': 'P=1\n', 'src/x.env': 'X=1\n' },
      async (s) => {
        const r = await s.cli(['doctor']);
        expect(r.code).toBe(2);
        expect(r.stdout).toContain("info     gitleaks-base.toml [allowlist] paths '''tests/data''': exempts 2 tracked files from the secrets scan (integration-tests/data-samples/prod.env, tests/data/a.env)");
        expect(r.stdout).toContain("PROBLEM  gitleaks-base.toml [allowlist] paths '''tests/data''' also exempts 1 tracked file outside the folder tests/data");
        expect(r.stdout).toContain("fix: anchor the entry to the folder in gitleaks-base.toml: '''^tests/data/'''");
      },
    );
  });

  it('doctor lists how many tracked files each entry exempts and flags the one matching outside its folder', async () => {
    assertBuilt();
    await withSandbox(
      { '.gitleaks.toml': "[extend]\nuseDefault = true\n\n[allowlist]\npaths = ['''tests/data''', '''^fixtures/''', '''(?i)\\.PNG$''']\n", 'tests/data/a.env': 'A=1\n', 'app/tests/data/b.env': 'B=1\n', 'integration-tests/data-samples/prod.env': 'P=1\n', 'fixtures/x.env': 'X=1\n', 'img/logo.png': 'png' },
      async (s) => {
        const r = await s.cli(['doctor']);
        expect(r.code).toBe(2);
        expect(r.stdout).toContain("info     .gitleaks.toml [allowlist] paths '''tests/data''': exempts 3 tracked files from the secrets scan (app/tests/data/b.env, integration-tests/data-samples/prod.env, tests/data/a.env)");
        expect(r.stdout).toContain("info     .gitleaks.toml [allowlist] paths '''^fixtures/''': exempts 1 tracked file from the secrets scan (fixtures/x.env)");
        expect(r.stdout).toContain("info     .gitleaks.toml [allowlist] paths '''(?i)\\.PNG$''': exempts 1 tracked file from the secrets scan (img/logo.png)");
        expect(r.stdout).toContain("PROBLEM  .gitleaks.toml [allowlist] paths '''tests/data''' also exempts 1 tracked file outside the folder tests/data (gitleaks matches path regexes anywhere in a path): integration-tests/data-samples/prod.env; a credential there is never scanned");
        expect(r.stdout).toContain("fix: anchor the entry to the folder in .gitleaks.toml: '''^tests/data/'''");
        expect(r.stdout).not.toMatch(/PROBLEM .*\^fixtures/);
      },
    );
  });

  it("doctor reports a PROBLEM for an entry that exempts every tracked file (fresh-user-3 F12: '''.*''' was ok/healthy)", async () => {
    assertBuilt();
    await withSandbox({ '.gitleaks.toml': "[extend]\nuseDefault = true\n\n[allowlist]\npaths = ['''.*''']\n", 'src/a.env': 'A=1\n', 'b.txt': 'B\n' }, async (s) => {
      const r = await s.cli(['doctor']);
      expect(r.stdout).toMatch(/PROBLEM {2}\.gitleaks\.toml \[allowlist\] paths '''\.\*''' exempts every tracked file \(\d+ of \d+\): the secrets scan is blind and refuses every commit/);
      expect(r.stdout).toContain("fix: narrow the entry in .gitleaks.toml to the folder that holds test data (e.g. '''^tests/fixtures/''') or remove it, then: git add .gitleaks.toml");
      expect(r.stdout).not.toContain('ok       .gitleaks.toml [allowlist] paths stay inside');
      expect(r.stdout).not.toContain('healthy');
      expect(r.code).toBe(2);
    });
  });
});

describe('allowlist entries (unit)', () => {
  it('read Go regexps, folders and boundaries', () => {
    const [e] = allowlistPaths(CONFIG);
    expect(e?.folder).toBe('tests/data');
    expect(insideFolder('app/tests/data/x', e!)).toBe(true);
    expect(insideFolder('integration-tests/data-samples/x', e!)).toBe(false);
    expect(goRegExp('(?i)\\.png$')?.test('A.PNG')).toBe(true);
    expect(goRegExp('(?U)a+')).toBeNull();
    expect(allowlistPaths('not = [toml')).toEqual([]);
    expect(allowlistAudit(CONFIG, ['x/y']).problems).toEqual([]);
    // All but a few of many tracked files is as blind as all of them; half of a small repository is not.
    const many = [...Array.from({ length: 20 }, (_, i) => `src/f${i}.kt`), 'README.md'];
    expect(allowlistAudit("[allowlist]\npaths = ['''^src/''']\n", many).problems.map((p) => p.what)).toEqual([
      ".gitleaks.toml [allowlist] paths '''^src/''' exempts all but 1 of 21 tracked files: the secrets scan is blind and refuses every commit",
    ]);
    expect(allowlistAudit("[allowlist]\npaths = ['''^src/f1''']\n", many).problems.filter((p) => p.what.includes('blind'))).toEqual([]);
  });
});
