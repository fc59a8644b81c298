// Paths are bytes: a latin-1 file name (`caf\xe9.txt`, not valid UTF-8) holding a token used to be skipped by
// `run --all` ("pass", exit 0) and refused by `--files` ("is not a file"), while `gitleaks detect` finds it. Every mode
// must read it, report it at its path (quoted in text as git quotes it, escaped in JSON), and never print the token.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeGithubToken } from '../../gates/secrets/credentials.js';
import { decodePath, pathBytes, shownPath, lossyPath } from '../../core/paths.js';
import { assertBuilt, withSandbox, type Sandbox } from './install-support.js';
import { ownTmpdir } from '../helpers/own-tmpdir.js';

ownTmpdir('loopgates-path-bytes-');
const YAML = 'version: 1\ngates:\n  secrets: {}\n  hardcoded-strings: {enabled: false}\n  string-parity: {enabled: false}\n';
const NAME = Buffer.from('caf\xe9.txt', 'latin1');
const PATH = decodePath(NAME);

interface Json {
  results: Array<{ gate: string; verdict: string; findings: Array<{ file: string; line: number; rule: string }> }>;
}

function writeLatin1(dir: string, content: string): void {
  writeFileSync(Buffer.concat([Buffer.from(`${dir}/`, 'utf8'), NAME]), content);
}

/** A sandbox whose one commit holds the latin-1 name with `content`. */
async function withCommittedLatin1(content: string, fn: (s: Sandbox) => Promise<void>): Promise<void> {
  assertBuilt();
  await withSandbox({ 'loopgates.yaml': YAML, 'README.md': 'x\n' }, async (s) => {
    writeLatin1(s.repo.dir, content);
    s.repo.git('add', '-A');
    s.repo.git('commit', '-q', '--no-verify', '-m', 'latin-1 name');
    await fn(s);
  });
}

describe('paths that are not UTF-8', () => {
  it('run --all reads a latin-1 file name and reports the token there (text quoted as git does, JSON escaped)', async () => {
    const tok = fakeGithubToken();
    await withCommittedLatin1(`TOKEN=${tok.value}\n`, async (s) => {
      const j = await s.cli(['run', '--all', '--gate', 'secrets', '--format', 'json']);
      expect(j.code).toBe(1);
      const g = (JSON.parse(j.stdout) as Json).results.find((x) => x.gate === 'secrets')!;
      expect(g.findings.map((f) => `${f.file}:${f.line}:${f.rule}`)).toEqual([`${PATH}:1:github-pat`]);
      expect(j.stdout).toContain('caf\\udce9.txt');
      const t = await s.cli(['run', '--all', '--gate', 'secrets']);
      expect(t.code).toBe(1);
      expect(t.stdout + t.stderr).toContain('"caf\\351.txt":1');
      expect(t.stdout + t.stderr).not.toContain(tok.value);
    });
  });

  it('the staged scan reports it at its path', async () => {
    assertBuilt();
    const tok = fakeGithubToken();
    await withSandbox({ 'loopgates.yaml': YAML, 'README.md': 'x\n' }, async (s) => {
      writeLatin1(s.repo.dir, `TOKEN=${tok.value}\n`);
      s.repo.git('add', '-A');
      const j = await s.cli(['run', '--gate', 'secrets', '--format', 'json']);
      expect(j.code).toBe(1);
      const g = (JSON.parse(j.stdout) as Json).results.find((x) => x.gate === 'secrets')!;
      expect(g.findings.map((f) => `${f.file}:${f.line}:${f.rule}`)).toEqual([`${PATH}:1:github-pat`]);
      const t = await s.cli(['run', '--gate', 'secrets']);
      expect(t.stdout + t.stderr).toContain('"caf\\351.txt":1');
    });
  });

  it('--files takes the name as a shell hands it to node (invalid bytes as U+FFFD) and reads the file', async () => {
    assertBuilt();
    const tok = fakeGithubToken();
    await withSandbox({ 'loopgates.yaml': YAML, 'README.md': 'x\n' }, async (s) => {
      writeLatin1(s.repo.dir, `TOKEN=${tok.value}\n`);
      const j = await s.cli(['run', '--files', join(s.repo.dir, lossyPath(PATH)), '--gate', 'secrets', '--format', 'json']);
      expect(j.code).toBe(1);
      const g = (JSON.parse(j.stdout) as Json).results.find((x) => x.gate === 'secrets')!;
      expect(g.findings.map((f) => `${f.file}:${f.line}:${f.rule}`)).toEqual([`${PATH}:1:github-pat`]);
    });
  });

  it('the github format names it as the text format does (git-quoted), never with U+FFFD or a lone surrogate', async () => {
    const tok = fakeGithubToken();
    await withCommittedLatin1(`TOKEN=${tok.value}\n`, async (s) => {
      const g = await s.cli(['run', '--all', '--gate', 'secrets', '--format', 'github']);
      expect(g.code).toBe(1);
      expect(g.stdout).toContain('::error file="caf\\351.txt",line=1,');
      expect(g.stdout).not.toMatch(/[\ufffd\udc80-\udcff]/);
      expect(g.stdout).not.toContain(tok.value);
    });
  });

  it('a command gate judging staged content reads the latin-1 name with its exact bytes in its scratch copy', async () => {
    assertBuilt();
    // The script reads the file by its exact bytes (printf '\\351'): a scratch copy written as U+FFFD made it pass.
    const script = "f=$(printf 'caf\\351.txt')\nif grep -q FORBIDDEN \"$f\"; then echo \"$f:1: forbidden\"; exit 1; fi\necho OK\n";
    const yaml = [
      'version: 1',
      'gates:',
      '  secrets: {enabled: false}',
      '  hardcoded-strings: {enabled: false}',
      '  string-parity: {enabled: false}',
      'commands:',
      '  - id: no-forbidden',
      '    command: [sh, check.sh]',
      "    loop: {runs: a team script, reads: the .txt files, ends: one pass; exit 0 passes, asks: never}",
      '    files: ["*.txt"]',
      "    selfTest: {waived: 'the test stages the file it judges'}",
      '    timeoutMs: 10000',
      '',
    ].join('\n');
    await withSandbox({ 'loopgates.yaml': yaml, 'check.sh': script, 'README.md': 'x\n' }, async (s) => {
      writeLatin1(s.repo.dir, 'FORBIDDEN\n');
      s.repo.git('add', '-A');
      const r = await s.cli(['run', '--gate', 'no-forbidden']);
      expect(r.stdout + r.stderr).toMatch(/no-forbidden\s+fail/);
      expect(r.code).toBe(1);
    });
  });

  it('decodePath / pathBytes round-trip bytes; shownPath quotes as git core.quotePath', () => {
    expect(pathBytes(PATH).equals(NAME)).toBe(true);
    expect(decodePath(Buffer.from('café/ü.txt', 'utf8'))).toBe('café/ü.txt');
    expect(shownPath(PATH)).toBe('"caf\\351.txt"');
    expect(shownPath('café.txt')).toBe('café.txt');
    expect(shownPath('a"b\tc')).toBe('"a\\"b\\tc"');
    const odd = Buffer.from([0x61, 0xc3, 0x28, 0xe2, 0x82, 0xac, 0xff, 0xed, 0xa0, 0x80]);
    expect(pathBytes(decodePath(odd)).equals(odd)).toBe(true);
  });
});
