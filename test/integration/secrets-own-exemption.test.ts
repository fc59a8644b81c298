// A commit must not wave its own credential through: a .gitleaks.toml allowlist entry (paths, regexes, stopwords)
// staged together with the file or token it exempts used to pass with only a NOT SCANNED note. The staged commit is
// judged by HEAD's .gitleaks.toml as well as its own: an exemption applies from the commit after the one adding it.
import { describe, expect, it } from 'vitest';
import { fakeGithubToken } from '../../gates/secrets/credentials.js';
import { assertBuilt, withSandbox } from './install-support.js';
import { ownTmpdir } from '../helpers/own-tmpdir.js';

ownTmpdir('loopgates-own-exemption-');
const YAML = 'version: 1\ngates:\n  secrets: {}\n  hardcoded-strings: {enabled: false}\n  string-parity: {enabled: false}\n';
const BASE = "[extend]\nuseDefault = true\n";

interface Json {
  results: Array<{ gate: string; verdict: string; findings: Array<{ file: string; line: number; rule: string; message: string }>; notes?: string[] }>;
}

async function stagedRun(files: Record<string, string>, staged: Record<string, string>): Promise<{ code: number; doc: Json; out: string }> {
  let res: { code: number; doc: Json; out: string } | undefined;
  await withSandbox({ 'loopgates.yaml': YAML, 'README.md': 'x\n', ...files }, async (s) => {
    for (const [p, c] of Object.entries({ ...staged, 'src/notes.txt': 'nothing here\n' })) s.repo.write(p, c);
    s.repo.git('add', '-A');
    const r = await s.cli(['run', '--gate', 'secrets', '--format', 'json']);
    res = { code: r.code, doc: JSON.parse(r.stdout) as Json, out: r.stdout + r.stderr };
  });
  return res!;
}

describe('secrets: an exemption staged with the credential it exempts', () => {
  it('a new [allowlist] paths entry staged with the file it exempts: the token is reported, naming the entry', async () => {
    assertBuilt();
    const tok = fakeGithubToken();
    const r = await stagedRun({ '.gitleaks.toml': BASE }, { '.gitleaks.toml': `${BASE}\n[allowlist]\npaths = ['''^deploy/''']\n`, 'deploy/prod.env': `GITHUB_TOKEN=${tok.value}\n` });
    expect(r.code).toBe(1);
    const g = r.doc.results.find((x) => x.gate === 'secrets')!;
    expect(g.verdict).toBe('fail');
    expect(g.findings.map((f) => `${f.file}:${f.line}:${f.rule}`)).toEqual(['deploy/prod.env:1:github-pat']);
    expect(g.findings[0]!.message).toContain("[allowlist] paths '''^deploy/'''");
    expect(g.findings[0]!.message).toContain(`a .gitleaks.toml that reports less is refused as a narrowing: remove the credential and rotate it; if it is not a secret, list it in .gitleaksignore from the repository's top folder (printf 'deploy/prod.env:github-pat:1\\n' >> .gitleaksignore), stage it with this file (git add .gitleaksignore) and say so for this commit: LOOPGATES_ALLOW_DISABLE=secrets git commit …`);
    expect(r.out).not.toContain(tok.value);
    expect(r.out).not.toContain('NOT SCANNED');
  });

  // (A regex matching every GitHub token is refused already: the canary goes unreported, the scanner is blind.)
  it('a first .gitleaks.toml whose [allowlist] regexes match the staged token: reported under the defaults', async () => {
    assertBuilt();
    const tok = fakeGithubToken();
    const re = tok.value.slice(4, 20);
    const r = await stagedRun({}, { '.gitleaks.toml': `${BASE}\n[allowlist]\nregexes = ['''${re}''']\n`, 'app/keys.env': `GITHUB_TOKEN=${tok.value}\n` });
    expect(r.code).toBe(1);
    const g = r.doc.results.find((x) => x.gate === 'secrets')!;
    expect(g.findings.map((f) => `${f.file}:${f.line}:${f.rule}`)).toEqual(['app/keys.env:1:github-pat']);
    expect(g.findings[0]!.message).toContain(`[allowlist] regexes '''${re}'''`);
  });

  it('a new stopword staged with the token holding it: reported, naming the stopword', async () => {
    assertBuilt();
    const tok = fakeGithubToken();
    const stop = tok.value.slice(8, 14);
    const r = await stagedRun({ '.gitleaks.toml': BASE }, { '.gitleaks.toml': `${BASE}\n[allowlist]\nstopwords = ['${stop}']\n`, 'app/keys.env': `GITHUB_TOKEN=${tok.value}\n` });
    expect(r.code).toBe(1);
    const g = r.doc.results.find((x) => x.gate === 'secrets')!;
    expect(g.findings.map((f) => `${f.file}:${f.line}:${f.rule}`)).toEqual(['app/keys.env:1:github-pat']);
    expect(g.findings[0]!.message).toContain(`[allowlist] stopwords '${stop}'`);
    expect(r.out).not.toContain(tok.value);
  });

  it('an entry HEAD already holds exempts the file as before (green): the exemption applies from the next commit', async () => {
    assertBuilt();
    const tok = fakeGithubToken();
    const r = await stagedRun({ '.gitleaks.toml': `${BASE}\n[allowlist]\npaths = ['''^deploy/''']\n` }, { 'deploy/prod.env': `GITHUB_TOKEN=${tok.value}\n` });
    expect(r.code).toBe(0);
    const g = r.doc.results.find((x) => x.gate === 'secrets')!;
    expect(g.findings).toEqual([]);
    expect(JSON.stringify(g.notes)).toContain('NOT SCANNED');
  });

  it('a staged .gitleaks.toml that only adds a rule: its rule applies at once (the stricter of both)', async () => {
    assertBuilt();
    const rule = `${BASE}\n[[rules]]\nid = "acme-internal"\ndescription = "ACME internal token"\nregex = '''acme_int_[a-z0-9]{20}'''\n`;
    const r = await stagedRun({ '.gitleaks.toml': BASE }, { '.gitleaks.toml': rule, 'app/acme.env': 'ACME=acme_int_q8w7e6r5t4y3u2i1o0p9\n' });
    expect(r.code).toBe(1);
    const g = r.doc.results.find((x) => x.gate === 'secrets')!;
    expect(g.findings.map((f) => `${f.file}:${f.line}:${f.rule}`)).toEqual(['app/acme.env:1:acme-internal']);
  });

  it('a .gitleaksignore entry staged with its line is filtered as gitleaks would, and a note names it', async () => {
    assertBuilt();
    const tok = fakeGithubToken();
    const r = await stagedRun({}, { '.gitleaksignore': 'app/keys.env:github-pat:1\n', 'app/keys.env': `GITHUB_TOKEN=${tok.value}\n` });
    expect(r.code).toBe(0);
    const g = r.doc.results.find((x) => x.gate === 'secrets')!;
    expect(g.findings).toEqual([]);
    expect(JSON.stringify(g.notes)).toContain('1 finding(s) waved through by .gitleaksignore entries this commit adds: app/keys.env:github-pat:1');
  });

  it('a gitleaks:allow comment staged on the token line is counted and named, not silent', async () => {
    assertBuilt();
    const tok = fakeGithubToken();
    const r = await stagedRun({}, { 'app/keys.env': `GITHUB_TOKEN=${tok.value} # gitleaks:allow\n` });
    const g = r.doc.results.find((x) => x.gate === 'secrets')!;
    expect(g.findings).toEqual([]);
    expect(JSON.stringify(g.notes)).toContain('1 finding(s) waved through by a gitleaks:allow comment on their line: app/keys.env:1');
    expect(r.out).not.toContain(tok.value);
  });
});
