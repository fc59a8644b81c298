// Paths are bytes: a latin-1 file name (`caf\xe9.txt`, not valid UTF-8) holding a token used to be skipped by
// `run --all` ("pass", exit 0) and refused by `--files` ("is not a file"), while `gitleaks detect` finds it. Every mode
// must read it, report it at its path (quoted in text as git quotes it, escaped in JSON), and never print the token.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeGithubToken } from '../../gates/secrets/credentials.js';
import { decodePath, fsPath, pathBytes, shownPath, lossyPath } from '../../core/paths.js';
import { materialiseSync } from '../../mutations/scratch.js';
import { builtinGates } from '../../gates/registry.js';
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

/** loopgates.yaml with one command gate `no-forbidden` (sh check.sh over *.txt); a mutation of notes.txt unless waived. */
function commandYaml(o: { waived: boolean; secrets?: boolean }): string {
  return [
    'version: 1',
    'gates:',
    ...builtinGates.flatMap((g) => (g.id === 'secrets' && o.secrets ? ['  secrets: {}'] : [`  ${g.id}: {enabled: false}`])),
    'commands:',
    '  - id: no-forbidden',
    '    command: [sh, check.sh]',
    "    loop: {runs: a team script, reads: the .txt files, ends: one pass; exit 0 passes, asks: never}",
    '    files: ["*.txt"]',
    ...(o.waived ? ["    selfTest: {waived: 'the test stages the file it judges'}"] : ['    mutations:', '      - {file: notes.txt, append: "FORBIDDEN"}']),
    '    timeoutMs: 10000',
    '',
  ].join('\n');
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

  it('a plain folder outside git: run --all lists the latin-1 name by its bytes and reports the token there, git-quoted', async () => {
    const tok = fakeGithubToken();
    await withSandbox({ 'loopgates.yaml': YAML, 'README.md': 'x\n' }, async (s) => {
      // A folder beside the repository, in no work tree (a corpus, an unpacked archive).
      const dir = mkdtempSync(join(tmpdir(), 'plain-'));
      try {
        writeFileSync(join(dir, 'loopgates.yaml'), YAML);
        writeLatin1(dir, `TOKEN=${tok.value}\n`);
        const j = await s.cli(['run', '--all', '--gate', 'secrets', '--format', 'json'], {}, dir);
        expect(j.code).toBe(1);
        const g = (JSON.parse(j.stdout) as Json).results.find((x) => x.gate === 'secrets')!;
        expect(g.findings.map((f) => `${f.file}:${f.line}:${f.rule}`)).toEqual([`${PATH}:1:github-pat`]);
        const t = await s.cli(['run', '--all', '--gate', 'secrets'], {}, dir);
        expect(t.code).toBe(1);
        expect(t.stdout + t.stderr).toContain('"caf\\351.txt":1');
        expect(t.stdout + t.stderr).not.toMatch(/[\ufffd\udc80-\udcff]/);
        expect(t.stdout + t.stderr).not.toContain(tok.value);
        const f = await s.cli(['run', '--files', join(dir, lossyPath(PATH)), '--gate', 'secrets', '--format', 'json'], {}, dir);
        expect(f.code).toBe(1);
        expect((JSON.parse(f.stdout) as Json).results.find((x) => x.gate === 'secrets')!.findings.map((x) => `${x.file}:${x.line}`)).toEqual([`${PATH}:1`]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  it("a command gate's output naming the latin-1 file places the finding at that file and line (read from the output's bytes)", async () => {
    assertBuilt();
    // The script prints the name's exact bytes (printf '\\351'); decoded with U+FFFD it named no file.
    const script = "f=$(printf 'caf\\351.txt')\nif grep -q FORBIDDEN \"$f\"; then echo \"$f:2: forbidden\"; exit 1; fi\necho OK\n";
    await withSandbox({ 'loopgates.yaml': commandYaml({ waived: true }), 'check.sh': script, 'README.md': 'x\n' }, async (s) => {
      writeLatin1(s.repo.dir, 'ok\nFORBIDDEN\n');
      s.repo.git('add', '-A');
      const j = await s.cli(['run', '--gate', 'no-forbidden', '--format', 'json']);
      expect(j.code).toBe(1);
      const g = (JSON.parse(j.stdout) as Json).results.find((x) => x.gate === 'no-forbidden')!;
      expect(g.findings.map((f) => `${f.file}:${f.line}`)).toEqual([`${PATH}:2`]);
      expect(j.stdout).not.toContain('named no file:line');
    });
  });

  it("a command gate's self-test and install's proof clone read a latin-1 file the command needs (it was left out: the clean case failed)", async () => {
    assertBuilt();
    // The command needs the latin-1 file; a self-test or proof clone that cannot read it by its bytes leaves it out.
    const script = "f=$(printf 'caf\\351.txt')\n[ -f \"$f\" ] || { echo \"the latin-1 file is missing\"; exit 1; }\nfor g in *.txt; do if grep -Hn FORBIDDEN \"$g\"; then exit 1; fi; done\necho OK\n";
    await withSandbox({ 'loopgates.yaml': commandYaml({ waived: false, secrets: true }), 'check.sh': script, 'notes.txt': 'x\n', 'README.md': 'x\n' }, async (s) => {
      writeLatin1(s.repo.dir, 'ok\n');
      s.repo.git('add', '-A');
      s.repo.git('commit', '-q', '--no-verify', '-m', 'latin-1 name');
      const t = await s.cli(['selftest', '--gate', 'no-forbidden']);
      expect(t.stdout + t.stderr).toMatch(/no-forbidden\s+PROVEN/);
      expect(t.code).toBe(0);
      const i = await s.cli(['install']);
      expect(i.stdout + i.stderr).not.toContain('rolled back');
      expect(i.code).toBe(0);
      expect(existsSync(join(s.repo.dir, '.git', 'hooks', 'pre-commit'))).toBe(true);
    });
  });

  it('mutate: the secrets audit injects into a latin-1 file too, and the mutant is killed there', async () => {
    assertBuilt();
    const name = Buffer.from('caf\xe9.properties', 'latin1');
    await withSandbox({ 'loopgates.yaml': YAML, 'README.md': 'x\n' }, async (s) => {
      writeFileSync(Buffer.concat([Buffer.from(`${s.repo.dir}/`), name]), 'API_BASE_URL=https://api.example.com\n');
      s.repo.git('add', '-A');
      s.repo.git('commit', '-q', '--no-verify', '-m', 'latin-1 name');
      const r = await s.cli(['mutate', '--gate', 'secrets', '--all-inputs', '--format', 'json']);
      const files = (JSON.parse(r.stdout) as { files: Record<string, { mutants: Array<{ status: string }> }> }).files;
      expect(Object.keys(files).sort()).toEqual([decodePath(name), 'loopgates.yaml']);
      expect(files[decodePath(name)]!.mutants.map((m) => m.status)).toEqual(['Killed']);
      expect(r.code).toBe(0);
    });
  });

  it('materialiseSync writes a latin-1 name (and its folder) by its bytes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mat-'));
    try {
      const folder = decodePath(Buffer.from('d\xe9j\xe0', 'latin1'));
      materialiseSync({ [PATH]: 'a\n', [`${folder}/${PATH}`]: 'b\n' }, dir);
      expect(readFileSync(Buffer.concat([Buffer.from(`${dir}/`), NAME]), 'utf8')).toBe('a\n');
      expect(readFileSync(fsPath(dir, `${folder}/${PATH}`), 'utf8')).toBe('b\n');
      expect(existsSync(join(dir, lossyPath(PATH)))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
