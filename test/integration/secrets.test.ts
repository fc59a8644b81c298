// Integration tests of the secrets gate: real git, real gitleaks 8.16 (.tools/, put on PATH by setup-env.ts), temp
// repositories, generated credentials. Each index test proves the working tree and index are byte-identical after.
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import { indexWorkspace, treeWorkspace } from '../../core/snapshot.js';
import { memoryWorkspace } from '../../core/workspace.js';
import type { GateResult, Workspace } from '../../core/types.js';
import { secretsConfigSchema, secretsGate } from '../../gates/secrets/index.js';
import { fakeAwsAccessKey, fakeGithubToken, fakePemBlock } from '../../gates/secrets/credentials.js';
import { liveScratchDirs, probeGitleaks, resolveGitleaks } from '../../gates/secrets/gitleaks.js';
import { BINARY_SCAN_MAX_BYTES } from '../../gates/secrets/scan.js';
import { runTool } from '../../core/tools.js';
import { ownTmpdir } from '../helpers/own-tmpdir.js';
import { isolatedGitEnv, treeAndIndexDigest, withGitRepo } from '../helpers/git-repo.js';
import type { TempRepo } from '../helpers/git-repo.js';
import { localGitleaksDir } from '../helpers/setup-env.js';
import { l10nCorpus } from '../helpers/corpus.js';

// Scratch dirs of this file go to a temp dir of its own: a test below asserts that none is left behind, and other
// processes (other test runs on the machine, a hook) make loopgates-secrets-* dirs in the shared one at any time.
const ownTmp = ownTmpdir('loopgates-secretstest-');

let cacheRoot: string;
let logs: string[];
beforeEach(() => {
  expect(tmpdir()).toBe(ownTmp);
  cacheRoot = mkdtempSync(join(tmpdir(), 'loopgates-secrets-cache-'));
  logs = [];
});
afterEach(() => rmSync(cacheRoot, { recursive: true, force: true }));

async function gate(ws: Workspace): Promise<GateResult> {
  return runGate({ gate: secretsGate, config: secretsConfigSchema.parse({}), timeoutMs: 60_000 }, { ws, cacheRoot, log: (_g, m) => logs.push(m) });
}

/** Run the gate over the repo's index (as the hook would, with `env` from git) and prove nothing was written. */
async function staged(repo: TempRepo, env: Record<string, string> = {}): Promise<GateResult> {
  const before = treeAndIndexDigest(repo.dir);
  const r = await gate(await indexWorkspace(repo.dir, { ...isolatedGitEnv(join(repo.dir, '..', 'home')), ...env }));
  expect(treeAndIndexDigest(repo.dir)).toBe(before);
  expect(liveScratchDirs()).toEqual([]);
  return r;
}

/** Everything the gate produced, as text: the secret must appear nowhere in it. */
function allOutput(r: GateResult): string {
  return JSON.stringify(r) + logs.join('\n');
}

const spots = (r: GateResult) => r.findings.map((f) => `${f.file}:${f.line}:${f.rule}`);

describe('secrets gate over the index (gitleaks protect --staged)', () => {
  it('refuses a staged AWS key, GitHub token and PEM block with file:line and never shows the value', async () => {
    const aws = fakeAwsAccessKey();
    const gh = fakeGithubToken();
    const pem = fakePemBlock();
    await withGitRepo(
      {
        'app/src/main/java/Config.kt': `package a\n\nconst val KEY = "${aws.value}"\n`,
        'ios/Secrets.swift': `import Foundation\nlet token = "${gh.value}"\n`,
        'app/src/main/res/values/strings.xml': `<resources>\n    <string name="a">A</string>\n    <string name="k">${pem.value}</string>\n</resources>\n`,
      },
      async (repo) => {
        repo.git('add', '-A');
        const r = await staged(repo);
        expect(r.verdict).toBe('fail');
        expect(spots(r)).toEqual(['app/src/main/java/Config.kt:3:aws-access-token', 'app/src/main/res/values/strings.xml:3:private-key', 'ios/Secrets.swift:2:github-pat']);
        const kt = r.findings.find((f) => f.rule === 'aws-access-token')!;
        expect(kt.column).toBe('const val KEY = "'.length + 1);
        expect(r.findings.find((f) => f.rule === 'github-pat')!.column).toBe('let token = "'.length + 1);
        expect(r.counts).toMatchObject({ files: 3, items: 1, findings: 3 });
        const out = allOutput(r);
        for (const v of [aws.value, gh.value, pem.value, ...pem.value.split('\n').slice(1, -1)]) expect(out).not.toContain(v);
      },
    );
  });

  it('judges the staged part only: a secret only in the unstaged part passes, only in the staged part fails', async () => {
    const aws = fakeAwsAccessKey();
    await withGitRepo({ 'a.kt': 'val a = 1\n' }, async (repo) => {
      repo.git('add', 'a.kt');
      repo.write('a.kt', `val a = 1\nval k = "${aws.value}"\n`);
      const clean = await staged(repo);
      expect(clean.verdict).toBe('pass');
      expect(clean.counts.files).toBe(1);
      repo.git('add', 'a.kt');
      repo.write('a.kt', 'val a = 1\n');
      const dirty = await staged(repo);
      expect(dirty.verdict).toBe('fail');
      expect(spots(dirty)).toEqual(['a.kt:2:aws-access-token']);
      expect(allOutput(dirty)).not.toContain(aws.value);
    });
  });

  it('reads the index named by GIT_INDEX_FILE (git commit -a / commit -- path use a temporary index)', async () => {
    const gh = fakeGithubToken();
    await withGitRepo({ 'a.kt': 'val a = 1\n' }, async (repo) => {
      repo.git('add', 'a.kt');
      repo.git('commit', '-q', '-m', 'init');
      repo.write('a.kt', `val a = 1\nval t = "${gh.value}"\n`);
      const tmpIndex = join(repo.dir, '.git', 'next-index-test.lock');
      // Build a temporary index as `git commit -a` would, leaving .git/index clean.
      repo.git('read-tree', `--index-output=${tmpIndex}`, 'HEAD');
      const { execFileSync } = await import('node:child_process');
      execFileSync('git', ['add', 'a.kt'], { cwd: repo.dir, env: { ...process.env, ...isolatedGitEnv(join(repo.dir, '..', 'home')), GIT_INDEX_FILE: tmpIndex } });
      expect((await staged(repo)).verdict).toBe('skip');
      const r = await staged(repo, { GIT_INDEX_FILE: tmpIndex });
      expect(r.verdict).toBe('fail');
      expect(spots(r)).toEqual(['a.kt:2:github-pat']);
    });
  });

  it('still sees with color.ui=always, color.diff=always and diff.noprefix in the repo config', async () => {
    const aws = fakeAwsAccessKey();
    await withGitRepo({ 'src/main/a.kt': `val k = "${aws.value}"\n` }, async (repo) => {
      repo.git('config', 'color.ui', 'always');
      repo.git('config', 'color.diff', 'always');
      repo.git('config', 'diff.noprefix', 'true');
      repo.git('add', '-A');
      const r = await staged(repo);
      expect(r.verdict).toBe('fail');
      expect(spots(r)).toEqual(['src/main/a.kt:1:aws-access-token']);
      // Seen by the staged scan itself, not by the fallback file scan.
      expect(r.notes).toEqual([]);
    });
  });

  it('still sees with diff.external set (falls back to scanning staged files) and with a -diff attribute', async () => {
    const aws = fakeAwsAccessKey();
    const gh = fakeGithubToken();
    await withGitRepo({ 'a.kt': `val k = "${aws.value}"\n`, 'b.env': `T=${gh.value}\n`, '.gitattributes': '*.env -diff\n' }, async (repo) => {
      repo.git('add', '-A');
      const attr = await staged(repo);
      expect(attr.verdict).toBe('fail');
      expect(spots(attr)).toEqual(['a.kt:1:aws-access-token', 'b.env:1:github-pat']);
      expect(attr.notes.join('\n')).toMatch(/diff attribute/);
      repo.git('config', 'diff.external', 'true');
      const ext = await staged(repo);
      expect(ext.verdict).toBe('fail');
      expect(spots(ext)).toEqual(['a.kt:1:aws-access-token', 'b.env:1:github-pat']);
      expect(ext.notes.join('\n')).toMatch(/no staged diff/);
      expect(allOutput(ext)).not.toContain(aws.value);
    });
  });

  it('respects .gitleaksignore (file:rule:line) and the repo .gitleaks.toml', async () => {
    const aws = fakeAwsAccessKey();
    await withGitRepo({ 'a.kt': `val a = 1\nval k = "${aws.value}"\n`, '.gitleaksignore': 'a.kt:aws-access-token:2\n' }, async (repo) => {
      repo.git('add', '-A');
      const r = await staged(repo);
      expect(r.verdict).toBe('pass');
      expect(r.counts.filtered).toBe(1);
    });
    await withGitRepo(
      {
        'a.kt': 'val id = "loopgates-internal-0000000"\n',
        '.gitleaks.toml': '[extend]\nuseDefault = true\n\n[[rules]]\nid = "internal-id"\ndescription = "internal id"\nregex = \'\'\'loopgates-internal-[0-9]{7}\'\'\'\n',
      },
      async (repo) => {
        repo.git('add', '-A');
        const r = await staged(repo);
        expect(r.verdict).toBe('fail');
        expect(spots(r)).toEqual(['a.kt:1:internal-id']);
      },
    );
  });

  it('reads .gitleaksignore from the index: an untracked or unstaged entry cannot silence a finding, a staged one can', async () => {
    const gh = fakeGithubToken();
    await withGitRepo({ 'S.kt': `val t = "${gh.value}"\n` }, async (repo) => {
      repo.git('add', 'S.kt');
      repo.write('.gitleaksignore', `S.kt:${gh.rule}:1\n`); // untracked
      const untracked = await staged(repo);
      expect(untracked.verdict).toBe('fail');
      expect(spots(untracked)).toEqual([`S.kt:1:${gh.rule}`]);
      expect(untracked.counts.filtered).toBe(0);
      // The fix names what is missing: the entry is there, only not staged (fresh-user-7: it said "list … in
      // .gitleaksignore", the line the file already held).
      expect(untracked.findings[0]!.message).toContain(`the work tree's .gitleaksignore lists S.kt:${gh.rule}:1, but only the staged one counts: git add .gitleaksignore`);
      repo.write('.gitleaksignore', '# nothing yet\n');
      repo.git('add', '.gitleaksignore');
      repo.write('.gitleaksignore', `S.kt:${gh.rule}:1\n`); // the entry is not staged
      const unstaged = await staged(repo);
      expect(unstaged.verdict).toBe('fail');
      expect(unstaged.findings[0]!.message).toContain('git add .gitleaksignore');
      repo.git('add', '.gitleaksignore'); // now it is part of the commit
      const listed = await staged(repo);
      expect(listed.verdict).toBe('pass');
      expect(listed.counts.filtered).toBe(1);
    });
  });

  it('reads .gitleaks.toml from the index: an untracked config cannot allow-list a staged credential', async () => {
    const gh = fakeGithubToken();
    const allowS = "[extend]\nuseDefault = true\n\n[allowlist]\npaths = ['''S\\.kt''']\n";
    await withGitRepo({ 'S.kt': `val t = "${gh.value}"\n` }, async (repo) => {
      repo.git('add', 'S.kt');
      repo.write('.gitleaks.toml', allowS); // untracked: gitleaks' default rules apply
      const r = await staged(repo);
      expect(r.verdict).toBe('fail');
      expect(spots(r)).toEqual([`S.kt:1:${gh.rule}`]);
      repo.git('add', '.gitleaks.toml'); // staged with the credential: judged by HEAD's config too (no own exemption)
      const own = await staged(repo);
      expect([own.verdict, ...spots(own)]).toEqual(['fail', `S.kt:1:${gh.rule}`]);
      expect(own.findings[0]?.message).toContain("[allowlist] paths '''S\\.kt''', which this commit adds");
      repo.git('rm', '-q', '--cached', '--', 'S.kt');
      repo.git('commit', '-q', '--no-verify', '-m', 'config');
      repo.git('add', 'S.kt');
      // The allow-list HEAD holds applies: S.kt is not reported. gitleaks then read no file of the commit (the config
      // itself is no input), so the run cannot say pass: every staged file is one the team's committed allow-list
      // exempts, so it is a skip naming the entry (7506017, fresh-user-6 G7; it was vacuous, exit 2, every such commit).
      const allowed = await staged(repo);
      expect([allowed.verdict, allowed.counts.files, ...spots(allowed)]).toEqual(['skip', 0]);
      expect(allowed.reason).toContain("exempted by .gitleaks.toml [allowlist] paths '''S\\.kt''': S.kt");
      expect(allowed.notes).toContain("1 of 1 staged file(s) NOT SCANNED, a credential there is not seen: the [allowlist] paths of .gitleaks.toml skip them: S.kt ([allowlist] paths entry '''S\\.kt''')");
    });
  });

  it('a staged .gitleaks.toml that allow-lists everything blinds the scanner: error naming the config, not gitleaks', async () => {
    const blinding = "[extend]\nuseDefault = true\n\n[allowlist]\nregexes = ['''.*''']\n";
    await withGitRepo({ 'A.kt': 'val a = 1\n', '.gitleaks.toml': blinding }, async (repo) => {
      repo.git('add', '-A');
      const r = await staged(repo);
      expect(r.verdict).toBe('error');
      expect(r.error?.message).toMatch(/scanner is blind.*canary.*check that \.gitleaks\.toml still detects these/);
      expect(r.error?.fix).toMatch(/^the staged \.gitleaks\.toml is the likely cause/);
      expect(r.error?.fix).not.toMatch(/^repair or reinstall gitleaks/);
    });
  });

  it('reads UTF-16 files (git shows them as binary) and the text runs of binary files, naming both', async () => {
    const aws = fakeAwsAccessKey();
    const utf16le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`/* keys */\n"key" = "${aws.value}";\n`, 'utf16le')]);
    const blob = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]), Buffer.from('IHDR')]);
    await withGitRepo({ 'en.lproj/Keys.strings': utf16le, 'logo.png': blob }, async (repo) => {
      repo.git('add', '-A');
      const before = treeAndIndexDigest(repo.dir);
      const r = await staged(repo);
      expect(r.verdict).toBe('fail');
      expect(spots(r)).toEqual([`en.lproj/Keys.strings:2:${aws.rule}`]);
      expect(r.notes.join('\n')).toContain('1 staged UTF-16 file(s) decoded to UTF-8 and scanned as files');
      // logo.png (NUL bytes) used to be 'not scanned' yet counted; it is now read as the text between its control bytes.
      expect(r.notes.join('\n')).toContain('1 binary file(s) (NUL bytes) scanned as the text between their control bytes: logo.png');
      expect(r.counts).toMatchObject({ files: 2, findings: 1 });
      expect(allOutput(r)).not.toContain(aws.value);
      expect(treeAndIndexDigest(repo.dir)).toBe(before);
    });
  });

  it('reads a UTF-16 BE file without a byte-order mark (editors guess it from the NUL pattern): the token is found', async () => {
    const gh = fakeGithubToken();
    const be = Buffer.from(`/* keys */\n"token" = "${gh.value}";\n`, 'utf16le').swap16();
    await withGitRepo({ 'be.strings': be }, async (repo) => {
      repo.git('add', '-A');
      const r = await staged(repo);
      expect(r.verdict).toBe('fail');
      expect(spots(r)).toEqual([`be.strings:2:${gh.rule}`]);
      expect(r.counts).toMatchObject({ files: 1, findings: 1 });
      expect(r.notes.join('\n')).toContain('1 staged UTF-16 file(s) decoded to UTF-8 and scanned as files');
      expect(r.notes.join('\n')).not.toMatch(/not scanned/);
      expect(allOutput(r)).not.toContain(gh.value);
    });
  });

  it('reads UTF-32 files with a byte-order mark (FF FE 00 00 was taken for UTF-16 LE and the key passed) at the right line and column', async () => {
    const aws = fakeAwsAccessKey();
    const gh = fakeGithubToken();
    // What `printf 'val k = "%s"\n' <key> | iconv -t utf-32` writes on a little-endian machine: FF FE 00 00, then LE units.
    const utf32 = (s: string, order: 'le' | 'be') => {
      const cps = [0xfeff, ...[...s].map((c) => c.codePointAt(0)!)];
      const b = Buffer.alloc(cps.length * 4);
      cps.forEach((cp, i) => (order === 'le' ? b.writeUInt32LE(cp, i * 4) : b.writeUInt32BE(cp, i * 4)));
      return b;
    };
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`// ключи\nval t = "ü" + "${gh.value}"\n`, 'utf16le')]);
    await withGitRepo(
      { 'Keys.kt': utf32(`package a\n// é \u{1F511}\nval k = "é\u{1F511}" + "${aws.value}"\n`, 'le'), 'Be.kt': utf32(`val t = "${gh.value}"\n`, 'be'), 'U16.kt': utf16 },
      async (repo) => {
        repo.git('add', '-A');
        const r = await staged(repo);
        expect(r.verdict).toBe('fail');
        expect(r.findings.map((f) => `${f.file}:${f.line}:${f.column}:${f.rule}`)).toEqual([
          `Be.kt:1:${'val t = "'.length + 1}:${gh.rule}`,
          `Keys.kt:3:${'val k = "é\u{1F511}" + "'.length + 1}:${aws.rule}`,
          `U16.kt:2:${'val t = "ü" + "'.length + 1}:${gh.rule}`,
        ]);
        expect(r.counts).toMatchObject({ files: 3, findings: 3 });
        expect(r.notes).toContain('2 staged UTF-32 file(s) decoded to UTF-8 and scanned as files: Be.kt, Keys.kt');
        expect(r.notes.join('\n')).toContain('1 staged UTF-16 file(s) decoded to UTF-8 and scanned as files');
        expect(allOutput(r)).not.toContain(aws.value);
        expect(allOutput(r)).not.toContain(gh.value);
      },
    );
  });

  it('run --all reads a UTF-32 file too', async () => {
    const aws = fakeAwsAccessKey();
    const cps = [0xfeff, ...[...`// keys\nval k = "${aws.value}"\n`].map((c) => c.codePointAt(0)!)];
    const le = Buffer.alloc(cps.length * 4);
    cps.forEach((cp, i) => le.writeUInt32LE(cp, i * 4));
    await withGitRepo({ 'Keys.kt': le, 'ok.kt': 'val a = 1\n' }, async (repo) => {
      const r = await gate(await treeWorkspace(repo.dir, 'all', undefined, isolatedGitEnv(join(repo.dir, '..', 'home'))));
      expect(r.verdict).toBe('fail');
      expect(r.findings.map((f) => `${f.file}:${f.line}:${f.column}:${f.rule}`)).toEqual([`Keys.kt:2:${'val k = "'.length + 1}:${aws.rule}`]);
      expect(r.counts).toMatchObject({ files: 2, items: 2 });
    });
  });

  it('reads the text between NUL bytes of a binary file (a token is ASCII), also behind a zip signature gitleaks would skip', async () => {
    const gh = fakeGithubToken();
    const aws = fakeAwsAccessKey();
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0x14, 0]), Buffer.from(`\nAWS_ACCESS_KEY_ID=${aws.value}\n`)]);
    await withGitRepo({ 'nul.env': Buffer.from(`x\0y\nGITHUB_TOKEN=${gh.value}\n`), 'bundle.pak': zip }, async (repo) => {
      repo.git('add', '-A');
      const r = await staged(repo);
      expect(r.verdict).toBe('fail');
      expect(spots(r)).toEqual([`bundle.pak:2:${aws.rule}`, `nul.env:2:${gh.rule}`]);
      expect(r.findings.find((f) => f.file === 'nul.env')!.column).toBe('GITHUB_TOKEN='.length + 1);
      expect(r.counts).toMatchObject({ files: 2, findings: 2 });
      expect(r.notes.join('\n')).toContain('2 binary file(s) (NUL bytes) scanned as the text between their control bytes: bundle.pak, nul.env');
      expect(allOutput(r)).not.toContain(gh.value);
      expect(allOutput(r)).not.toContain(aws.value);
    });
  });

  it('counts only files it scanned, and a binary file too large to scan refuses the commit, alone or with other files (was: vacuous alone, pass with another file)', async () => {
    // A memory workspace, as the self-tests and mutations use; the index and tree cases are below.
    const big = Buffer.alloc(BINARY_SCAN_MAX_BYTES + 1); // all NUL: binary, not UTF-16
    const message = '1 staged file(s) too large for the secrets scan (binary, larger than 32 MiB), so the commit cannot be judged clean: big.bin';
    const alone = await gate(memoryWorkspace({ files: { 'big.bin': big } }));
    expect([alone.verdict, alone.counts.files, alone.reason]).toEqual(['error', 0, message]);
    expect(alone.notes.join('\n')).toContain('1 of 1 staged file(s) not scanned (binary, larger than 32 MiB): big.bin');
    const both = await gate(memoryWorkspace({ files: { 'big.bin': big, 'a.kt': 'val a = 1\n' } }));
    expect([both.verdict, both.counts.files, both.reason]).toEqual(['error', 1, message]);
    expect(both.notes.join('\n')).toContain('1 of 2 staged file(s) not scanned (binary, larger than 32 MiB): big.bin');
  });

  it('a 34 MB binary staged with a one-line .kt change is refused (was: pass with a warning), naming the file, the fix and any finding', async () => {
    const aws = fakeAwsAccessKey();
    const gh = fakeGithubToken();
    const { randomBytes } = await import('node:crypto');
    const big = Buffer.concat([randomBytes(17 * 1024 * 1024), Buffer.from(`\0\naws_access_key_id=${aws.value}\n`), randomBytes(17 * 1024 * 1024)]);
    await withGitRepo({ 'app/Main.kt': 'val a = 1\n' }, async (repo) => {
      repo.git('add', '-A');
      repo.git('commit', '-q', '--no-verify', '-m', 'init');
      repo.write('assets/model.bin', big);
      repo.write('app/Main.kt', 'val a = 2\n');
      repo.git('add', '-A');
      const r = await staged(repo);
      expect([r.verdict, r.counts.files, ...spots(r)]).toEqual(['error', 1]);
      expect(r.reason).toBe('1 staged file(s) too large for the secrets scan (binary, larger than 32 MiB), so the commit cannot be judged clean: assets/model.bin');
      expect(r.error?.fix).toBe(
        "keep it out of this commit (git restore --staged -- 'assets/model.bin') and commit the rest, or commit it unscanned on purpose: LOOPGATES_SKIP=secrets git commit … (Git LFS does not help: an LFS object over 32 MiB is not scanned either)",
      );
      expect(r.notes).toContain('1 of 2 staged file(s) not scanned (binary, larger than 32 MiB): assets/model.bin');
      // A credential in the other files is still reported next to the error.
      repo.write('app/Main.kt', `val t = "${gh.value}"\n`);
      repo.git('add', '-A');
      const withKey = await staged(repo);
      expect([withKey.verdict, withKey.counts.files, ...spots(withKey)]).toEqual(['error', 1, `app/Main.kt:1:${gh.rule}`]);
      expect(allOutput(withKey)).not.toContain(gh.value);
    });
  });

  it('run --all over a tree holding a binary too large to scan is an error too: the whole tree cannot be judged clean', async () => {
    await withGitRepo({ 'ok.kt': 'val a = 1\n', 'big.bin': Buffer.alloc(BINARY_SCAN_MAX_BYTES + 1) }, async (repo) => {
      const r = await gate(await treeWorkspace(repo.dir, 'all', undefined, isolatedGitEnv(join(repo.dir, '..', 'home'))));
      expect([r.verdict, r.counts.files]).toEqual(['error', 1]);
      expect(r.reason).toBe('1 file(s) too large for the secrets scan (binary, larger than 32 MiB), so the files checked cannot be judged clean: big.bin');
      expect(r.error?.fix).toBe(
        'a file over 32 MiB is never scanned (also not as a Git LFS object): check the others with loopgates run --files <paths>, or bypass the secrets gate on purpose: LOOPGATES_SKIP=secrets loopgates run --all',
      );
      expect(r.notes).toContain('1 of 2 file(s) not scanned (binary, larger than 32 MiB): big.bin');
    });
  });

  it('handles awkward paths: spaces, a leading dash, unicode', async () => {
    const aws = fakeAwsAccessKey();
    await withGitRepo({ 'dir/-x y.kt': `val k = "${aws.value}"\n`, 'dir/é ü.kt': `// é\nval k = "${aws.value}"\n` }, async (repo) => {
      repo.git('add', '-A');
      const r = await staged(repo);
      expect(spots(r)).toEqual(['dir/-x y.kt:1:aws-access-token', 'dir/é ü.kt:2:aws-access-token']);
      expect(r.findings[1]!.column).toBe('val k = "'.length + 1);
    });
  });

  it('passes a clean commit, with the canary proof cached after the first run', async () => {
    await withGitRepo({ 'a.kt': 'val a = 1\n' }, async (repo) => {
      repo.git('add', '-A');
      const first = await staged(repo);
      expect(first.verdict).toBe('pass');
      expect(logs.join('\n')).toMatch(/canary reported/);
      logs = [];
      const second = await staged(repo);
      expect(second.verdict).toBe('pass');
      expect(logs.join('\n')).toMatch(/canary proof cached/);
    });
  });
});

describe('secrets gate fails closed', () => {
  const saved = { PATH: process.env.PATH, LOOPGATES_GITLEAKS: process.env.LOOPGATES_GITLEAKS };
  let bin: string;
  beforeEach(() => {
    bin = mkdtempSync(join(tmpdir(), 'loopgates-fake-gitleaks-'));
  });
  afterEach(() => {
    process.env.PATH = saved.PATH;
    if (saved.LOOPGATES_GITLEAKS === undefined) delete process.env.LOOPGATES_GITLEAKS;
    else process.env.LOOPGATES_GITLEAKS = saved.LOOPGATES_GITLEAKS;
    rmSync(bin, { recursive: true, force: true });
  });

  /** A fake gitleaks: answers --help like the real one, then does `body` for scans. */
  function fake(body: string): string {
    const path = join(bin, 'gitleaks');
    writeFileSync(
      path,
      `#!/bin/sh\nfor a in "$@"; do [ "$a" = "--help" ] && exec "${join(localGitleaksDir, 'gitleaks')}" "$@"; done\nprev=""; report=""\nfor a in "$@"; do [ "$prev" = "--report-path" ] && report="$a"; prev="$a"; done\n${body}\n`,
    );
    chmodSync(path, 0o755);
    return path;
  }

  const dirty = async (fn: (r: GateResult, value: string) => void) => {
    const aws = fakeAwsAccessKey();
    await withGitRepo({ 'a.kt': `val k = "${aws.value}"\n` }, async (repo) => {
      repo.git('add', '-A');
      fn(await staged(repo), aws.value);
    });
  };

  it('gitleaks missing from PATH -> error with the install hint', async () => {
    process.env.PATH = (saved.PATH ?? '').split(delimiter).filter((d) => d !== localGitleaksDir && !existsSync(join(d, 'gitleaks'))).join(delimiter);
    delete process.env.LOOPGATES_GITLEAKS;
    await dirty((r) => {
      expect(r.verdict).toBe('error');
      expect(r.error?.message).toMatch(/gitleaks was not found/);
      expect(r.error?.fix).toMatch(/install gitleaks/);
    });
  });

  it('a fake gitleaks that exits 0 without scanning -> error (canary not reported)', async () => {
    process.env.LOOPGATES_GITLEAKS = fake(`printf '[]' > "$report"\nexit 0`);
    await dirty((r) => {
      expect(r.verdict).toBe('error');
      expect(r.error?.message).toMatch(/scanner is blind.*canary/);
      expect(r.error?.fix).toMatch(/gitleaks/);
    });
  });

  it('an unexpected exit code -> error, also when the canary proof is cached', async () => {
    process.env.LOOPGATES_GITLEAKS = fake(`printf '[]' > "$report"\nexit 3`);
    await dirty((r) => {
      expect(r.verdict).toBe('error');
      expect(r.error?.message).toMatch(/exited with 3/);
    });
  });

  it('an ERR line in the log -> error even with exit 0', async () => {
    process.env.LOOPGATES_GITLEAKS = fake(`printf '[]' > "$report"\necho "3:00PM ERR [git] fatal: bad object" >&2\nexit 0`);
    await dirty((r) => {
      expect(r.verdict).toBe('error');
      expect(r.error?.message).toMatch(/logged an error/);
    });
  });

  it('a missing or unparsable report -> error', async () => {
    process.env.LOOPGATES_GITLEAKS = fake('exit 0');
    await dirty((r) => expect(r.error?.message).toMatch(/wrote no report/));
    process.env.LOOPGATES_GITLEAKS = fake(`printf 'not json' > "$report"\nexit 0`);
    await dirty((r) => expect(r.error?.message).toMatch(/not valid JSON/));
  });

  it('a timeout -> error', async () => {
    process.env.LOOPGATES_GITLEAKS = fake('exec sleep 30');
    await withGitRepo({ 'a.kt': 'val a = 1\n' }, async (repo) => {
      repo.git('add', '-A');
      const ws = await indexWorkspace(repo.dir, isolatedGitEnv(join(repo.dir, '..', 'home')));
      const r = await runGate({ gate: secretsGate, config: { scanTimeoutMs: 1500 }, timeoutMs: 60_000 }, { ws, cacheRoot });
      expect(r.verdict).toBe('error');
      expect(r.error?.message).toMatch(/did not finish within 1500 ms/);
      expect(liveScratchDirs()).toEqual([]);
    });
  });
});

describe('secrets gate over the tree and in memory', () => {
  it('run --all: scans exactly the files in a scratch dir and maps paths back', async () => {
    const gh = fakeGithubToken();
    await withGitRepo({ 'src/a b.kt': `val a = 1\nval t = "${gh.value}"\n`, 'src/ok.kt': 'val b = 2\n', 'ignored.log': `t=${gh.value}\n`, '.gitignore': '*.log\n' }, async (repo) => {
      const before = treeAndIndexDigest(repo.dir);
      const r = await gate(await treeWorkspace(repo.dir, 'all', undefined, isolatedGitEnv(join(repo.dir, '..', 'home'))));
      expect(treeAndIndexDigest(repo.dir)).toBe(before);
      expect(r.verdict).toBe('fail');
      expect(spots(r)).toEqual(['src/a b.kt:2:github-pat']);
      expect(r.findings[0]!.column).toBe('val t = "'.length + 1);
      expect(r.counts).toMatchObject({ files: 3, items: 3 });
      expect(r.itemUnit).toBe('files');
      expect(allOutput(r)).not.toContain(gh.value);
      expect(liveScratchDirs()).toEqual([]);
    });
  });

  it('run --all: decodes a BOM-less UTF-16 LE file and reads the text runs of a binary one', async () => {
    const gh = fakeGithubToken();
    const aws = fakeAwsAccessKey();
    const le = Buffer.from(`<?xml version="1.0"?>\n<k>${gh.value}</k>\n`, 'utf16le');
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), Buffer.from(`IHDR\nkey=${aws.value}\n`)]);
    await withGitRepo({ 'le.xml': le, 'logo.png': png }, async (repo) => {
      const r = await gate(await treeWorkspace(repo.dir, 'all', undefined, isolatedGitEnv(join(repo.dir, '..', 'home'))));
      expect(r.verdict).toBe('fail');
      expect(spots(r)).toEqual([`le.xml:2:${gh.rule}`, `logo.png:4:${aws.rule}`]);
      expect(r.counts).toMatchObject({ files: 2, items: 2 });
    });
  });

  it('memory workspace: a BOM-less UTF-16 file and a file with a NUL byte are read, staged into a scratch index', async () => {
    const gh = fakeGithubToken();
    const r = await gate(memoryWorkspace({ files: { 'be.strings': Buffer.from(`"t" = "${gh.value}";\n`, 'utf16le').swap16(), 'nul.env': Buffer.from(`x\0y\nT=${gh.value}\n`) } }));
    expect(r.verdict).toBe('fail');
    expect(spots(r)).toEqual([`be.strings:1:${gh.rule}`, `nul.env:2:${gh.rule}`]);
    expect(r.counts.files).toBe(2);
  });

  it('memory workspace (self-tests, mutations): staged into a scratch index', async () => {
    const aws = fakeAwsAccessKey();
    const r = await gate(memoryWorkspace({ files: { 'x/.env': `A=1\nAWS_ACCESS_KEY_ID=${aws.value}\n`, 'y.kt': 'val a = 1\n' } }));
    expect(r.verdict).toBe('fail');
    expect(spots(r)).toEqual(['x/.env:2:aws-access-token']);
    expect(r.findings[0]!.column).toBe('AWS_ACCESS_KEY_ID='.length + 1);
    expect(allOutput(r)).not.toContain(aws.value);
    expect(readdirSync(tmpdir()).filter((d) => d.startsWith('loopgates-secrets-') && !d.startsWith('loopgates-secrets-cache'))).toEqual([]);
  });

  it('the shipped self-test cases: green passes, every red fails at its expected file:line:rule', async () => {
    for (const c of await secretsGate.selfTest()) {
      const r = await gate(memoryWorkspace({ files: c.files }));
      if (c.kind === 'green') {
        expect(r.verdict, c.name).toBe('pass');
      } else {
        expect(r.verdict, c.name).toBe('fail');
        expect(spots(r), c.name).toContain(`${c.expect!.file}:${c.expect!.line}:${c.expect!.rule}`);
      }
    }
  });

  it('the mutation operator is killed on a real corpus strings.xml', async () => {
    const { readFileSync } = await import('node:fs');
    const corpus = `${l10nCorpus}/AntennaPod__AntennaPod`;
    const { execFileSync } = await import('node:child_process');
    const file = execFileSync('find', [corpus, '-path', '*res/values/strings.xml', '-print', '-quit'], { encoding: 'utf8' }).trim();
    expect(file).not.toBe('');
    const content = readFileSync(file, 'utf8');
    const m = secretsGate.mutations[0]!.mutate('app/src/main/res/values/strings.xml', content, Math.random)!;
    const r = await gate(memoryWorkspace({ files: { 'app/src/main/res/values/strings.xml': m.content } }));
    expect(r.verdict).toBe('fail');
    expect(spots(r)).toContain(`app/src/main/res/values/strings.xml:${m.line}:${m.rule}`);
  });

  it('probes the real gitleaks 8.16 as protect --staged / detect --no-git', async () => {
    const p = await probeGitleaks({ bin: resolveGitleaks(), runTool, signal: new AbortController().signal, timeoutMs: 30_000, cacheDir: cacheRoot });
    expect(p).toEqual({ staged: 'protect', dir: 'detect', ignorePathFlag: false, ignoreAllowFlag: false });
  });
});
