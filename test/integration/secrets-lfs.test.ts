// Integration tests of the secrets gate on Git LFS files (pointer spec: https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md).
// git-lfs is not needed: each test writes the object under <git common dir>/lfs/objects/<oid[0:2]>/<oid[2:4]>/<oid>
// itself and stages the pointer text, as `git add` with the LFS clean filter leaves them. Real git, real gitleaks.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import { indexWorkspace, treeWorkspace } from '../../core/snapshot.js';
import type { GateResult, Workspace } from '../../core/types.js';
import { fakeAwsAccessKey, fakePemBlock } from '../../gates/secrets/credentials.js';
import { liveScratchDirs } from '../../gates/secrets/gitleaks.js';
import { secretsConfigSchema, secretsGate } from '../../gates/secrets/index.js';
import { parseLfsPointer } from '../../gates/secrets/lfs.js';
import { BINARY_SCAN_MAX_BYTES } from '../../gates/secrets/scan.js';
import { ownTmpdir } from '../helpers/own-tmpdir.js';
import { isolatedGitEnv, treeAndIndexDigest, withGitRepo } from '../helpers/git-repo.js';
import type { TempRepo } from '../helpers/git-repo.js';

// This file's scratch dirs go to a temp dir of its own: secrets.test.ts, which may run at the same time in another
// process, asserts that no loopgates-secrets-* dir is left in the OS temp dir.
const ownTmp = ownTmpdir('loopgates-lfs-test-');

let cacheRoot: string;
let logs: string[];
beforeEach(() => {
  expect(tmpdir()).toBe(ownTmp);
  cacheRoot = mkdtempSync(join(tmpdir(), 'cache-'));
  logs = [];
});
afterEach(() => rmSync(cacheRoot, { recursive: true, force: true }));

async function gate(ws: Workspace): Promise<GateResult> {
  return runGate({ gate: secretsGate, config: secretsConfigSchema.parse({}), timeoutMs: 60_000 }, { ws, cacheRoot, log: (_g, m) => logs.push(m) });
}

const env = (repo: TempRepo) => isolatedGitEnv(join(repo.dir, '..', 'home'));

/** The gate over the repo's index, as the hook runs it; proves nothing in the tree or index was written. */
async function staged(repo: TempRepo): Promise<GateResult> {
  const before = treeAndIndexDigest(repo.dir);
  const r = await gate(await indexWorkspace(repo.dir, env(repo)));
  expect(treeAndIndexDigest(repo.dir)).toBe(before);
  expect(liveScratchDirs()).toEqual([]);
  return r;
}

async function tree(repo: TempRepo): Promise<GateResult> {
  const before = treeAndIndexDigest(repo.dir);
  const r = await gate(await treeWorkspace(repo.dir, 'all', undefined, env(repo)));
  expect(treeAndIndexDigest(repo.dir)).toBe(before);
  expect(liveScratchDirs()).toEqual([]);
  return r;
}

const spots = (r: GateResult) => r.findings.map((f) => `${f.file}:${f.line}:${f.rule}`);
const allOutput = (r: GateResult) => JSON.stringify(r) + logs.join('\n');

/** The attributes `git lfs track "*.json"` writes. */
const LFS_ATTRIBUTES = '*.json filter=lfs diff=lfs merge=lfs -text\n*.pak filter=lfs diff=lfs merge=lfs -text\n';

/** The pointer text git-lfs' clean filter writes for `content` (spec: version, oid, size, each line LF-ended). */
function pointerFor(content: Buffer): { oid: string; text: string } {
  const oid = createHash('sha256').update(content).digest('hex');
  return { oid, text: `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${content.length}\n` };
}

/** Write `content` as an LFS object under `<storage>/objects/..` (default storage: .git/lfs). */
function storeObject(repo: TempRepo, content: Buffer, storage = join(repo.dir, '.git', 'lfs')): string {
  const { oid } = pointerFor(content);
  const path = join(storage, 'objects', oid.slice(0, 2), oid.slice(2, 4), oid);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}

/**
 * Stage `path` as git add with git-lfs would: the object in LFS storage (unless `store` is false), the pointer blob in
 * the index, the real content left in the working tree.
 */
function stageLfs(repo: TempRepo, path: string, content: string | Buffer, store = true): void {
  const bytes = Buffer.from(content);
  if (store) storeObject(repo, bytes);
  // Without the object (GIT_LFS_SKIP_SMUDGE), the working tree holds the pointer as well.
  repo.write(path, store ? bytes : pointerFor(bytes).text);
  const blob = execGit(repo, ['hash-object', '-w', '--no-filters', '--stdin'], pointerFor(bytes).text).trim();
  repo.git('update-index', '--add', '--cacheinfo', `100644,${blob},${path}`);
}

function execGit(repo: TempRepo, args: string[], input: string): string {
  // TempRepo.git has no stdin; the pointer goes through hash-object's.
  return execFileSync('git', args, { cwd: repo.dir, input, encoding: 'utf8', env: { ...process.env, ...env(repo) } });
}

describe('LFS pointer parsing (strict, spec v1)', () => {
  const oid = 'a'.repeat(64);
  it('accepts the pointer git-lfs writes, also with extension lines in order', () => {
    expect(parseLfsPointer(Buffer.from(`version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize 12\n`))).toEqual({ oid, size: 12 });
    expect(parseLfsPointer(Buffer.from(`version https://git-lfs.github.com/spec/v1\next-0-foo sha256:${'b'.repeat(64)}\noid sha256:${oid}\nsize 0\n`))).toEqual({ oid, size: 0 });
  });
  it('refuses anything else: no final LF, CRLF, uppercase or short hex, missing size, wrong order, 1024 bytes or more', () => {
    const base = `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize 12`;
    for (const text of [
      base,
      `${base}\r\n`,
      base.replace(/\n/g, '\r\n') + '\r\n',
      `version https://git-lfs.github.com/spec/v1\noid sha256:${'A'.repeat(64)}\nsize 12\n`,
      `version https://git-lfs.github.com/spec/v1\noid sha256:${'a'.repeat(63)}\nsize 12\n`,
      `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\n`,
      `version https://git-lfs.github.com/spec/v1\nsize 12\noid sha256:${oid}\n`,
      `oid sha256:${oid}\nversion https://git-lfs.github.com/spec/v1\nsize 12\n`,
      `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize 12\nx-note ${'y'.repeat(1000)}\n`,
      `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize -1\n`,
      `version https://example.com/spec/v1\noid sha256:${oid}\nsize 12\n`,
    ]) {
      expect(parseLfsPointer(Buffer.from(text)), JSON.stringify(text)).toBeUndefined();
    }
  });
});

describe('secrets gate over Git LFS files in the index (hook, run --staged)', () => {
  it('refuses a private key and an AWS key behind a staged LFS pointer, at the path and line of the real content', async () => {
    const aws = fakeAwsAccessKey();
    const pem = fakePemBlock();
    const content = `{\n  "aws": "${aws.value}",\n  "key": "${pem.value.split('\n')[0]}",\n${pem.value.split('\n').slice(1).map((l) => `  "${l}",`).join('\n')}\n  "end": 1\n}\n`;
    await withGitRepo({ '.gitattributes': LFS_ATTRIBUTES, 'src/App.kt': 'val a = 1\n' }, async (repo) => {
      repo.git('add', '.gitattributes', 'src/App.kt');
      stageLfs(repo, 'config/keys.json', content);
      const r = await staged(repo);
      expect(r.verdict).toBe('fail');
      expect(spots(r)).toEqual(['config/keys.json:2:aws-access-token', 'config/keys.json:3:private-key']);
      expect(r.findings[0]!.column).toBe('  "aws": "'.length + 1);
      expect(r.counts).toMatchObject({ files: 3, findings: 2 });
      expect(r.notes.join('\n')).toContain('1 Git LFS file(s): scanned the object each pointer names instead of the pointer: config/keys.json');
      expect(allOutput(r)).not.toContain(aws.value);
      for (const l of pem.value.split('\n').slice(1, -1)) expect(allOutput(r)).not.toContain(l);
    });
  });

  it('passes the same pointer over clean content and counts the file', async () => {
    await withGitRepo({ '.gitattributes': LFS_ATTRIBUTES }, async (repo) => {
      repo.git('add', '.gitattributes');
      stageLfs(repo, 'data/big.json', '{\n  "name": "clean"\n}\n');
      const r = await staged(repo);
      expect(r.verdict).toBe('pass');
      expect(r.findings).toEqual([]);
      expect(r.counts).toMatchObject({ files: 2 });
      expect(r.notes.join('\n')).toContain('1 Git LFS file(s): scanned the object each pointer names instead of the pointer: data/big.json');
    });
  });

  // Not `.bin`: gitleaks 8.16's default config allow-lists paths ending in bin, zip, pdf, docx (even `cabin`; measured),
  // whatever they hold.
  it('reads a binary LFS object as its text runs (line of the real bytes), and counts it', async () => {
    const aws = fakeAwsAccessKey();
    const bytes = Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4, 0, 0, 0x0a]), Buffer.from(`x\nkey=${aws.value}\n`), Buffer.alloc(64)]);
    await withGitRepo({ '.gitattributes': LFS_ATTRIBUTES }, async (repo) => {
      repo.git('add', '.gitattributes');
      stageLfs(repo, 'assets/data.pak', bytes);
      const r = await staged(repo);
      expect(r.verdict).toBe('fail');
      expect(spots(r)).toEqual(['assets/data.pak:3:aws-access-token']);
      expect(r.counts).toMatchObject({ files: 2 });
    });
  });

  it('honours lfs.storage (relative to the git common dir, or absolute)', async () => {
    const aws = fakeAwsAccessKey();
    const content = Buffer.from(`{"k": "${aws.value}"}\n`);
    await withGitRepo({ '.gitattributes': LFS_ATTRIBUTES }, async (repo) => {
      repo.git('add', '.gitattributes');
      stageLfs(repo, 'k.json', content, false);
      storeObject(repo, content, join(repo.dir, '.git', 'elsewhere'));
      repo.git('config', 'lfs.storage', 'elsewhere');
      expect(spots(await staged(repo))).toEqual(['k.json:1:aws-access-token']);
      const abs = join(repo.dir, '..', 'lfs-store');
      storeObject(repo, content, abs);
      repo.git('config', 'lfs.storage', abs);
      rmSync(join(repo.dir, '.git', 'elsewhere'), { recursive: true });
      expect(spots(await staged(repo))).toEqual(['k.json:1:aws-access-token']);
    });
  });

  it('new content whose object is missing or does not match its pointer: error (refused) naming the path and the fetch', async () => {
    await withGitRepo({ '.gitattributes': LFS_ATTRIBUTES, 'a.kt': 'val a = 1\n' }, async (repo) => {
      repo.git('add', '.gitattributes', 'a.kt');
      stageLfs(repo, 'cfg/secret.json', '{"k": "unseen"}\n', false);
      const missing = await staged(repo);
      expect(missing.verdict).toBe('error');
      expect(missing.reason).toBe('1 staged Git LFS file(s) add content the secrets scan could not read: cfg/secret.json (its object is not in the LFS storage .git/lfs/objects)');
      expect(missing.error!.fix).toContain("git lfs pull --include='cfg/secret.json'");
      expect(missing.error!.fix).toContain('LOOPGATES_SKIP=secrets');
      // An object whose bytes do not hash to the pointer's oid is not the content the pointer names.
      const path = storeObject(repo, Buffer.from('{"k": "unseen"}\n'));
      writeFileSync(path, '{"k": "other!"}\n');
      const corrupt = await staged(repo);
      expect(corrupt.verdict).toBe('error');
      expect(corrupt.reason).toContain('cfg/secret.json (its object in .git/lfs/objects does not match the pointer: sha256 differs)');
      writeFileSync(path, '{"k": "short"}');
      expect((await staged(repo)).reason).toContain('cfg/secret.json (its object in .git/lfs/objects does not match the pointer: 14 bytes, the pointer says 16)');
    });
  });

  it('a pointer unchanged from HEAD (a rename after GIT_LFS_SKIP_SMUDGE) with no local object: not scanned, not counted, noted; alone it is vacuous', async () => {
    await withGitRepo({ '.gitattributes': LFS_ATTRIBUTES }, async (repo) => {
      repo.git('add', '.gitattributes');
      stageLfs(repo, 'old/name.json', '{"k": 1}\n', false);
      repo.git('commit', '-q', '--no-verify', '-m', 'pointer whose object was never local');
      repo.git('mv', 'old/name.json', 'old/renamed.json');
      const alone = await staged(repo);
      expect(alone.verdict).toBe('vacuous');
      expect(alone.counts.files).toBe(0);
      const note = '1 of 1 staged file(s) not scanned: Git LFS object not in local storage (.git/lfs/objects), content unchanged from HEAD: old/renamed.json; to scan: git lfs pull --include=\'old/renamed.json\'';
      expect(alone.notes).toContain(note);
      repo.write('b.kt', 'val b = 2\n');
      repo.git('add', 'b.kt');
      const both = await staged(repo);
      expect(both.verdict).toBe('pass');
      expect(both.counts.files).toBe(1);
      expect(both.notes.join('\n')).toContain('1 of 2 staged file(s) not scanned: Git LFS object not in local storage');
      // With a HEAD, a pointer HEAD does not hold (a cherry-pick from a clone that never fetched it) is new content: refused.
      stageLfs(repo, 'old/other.json', '{"k": 2}\n', false);
      const added = await staged(repo);
      expect(added.verdict).toBe('error');
      expect(added.reason).toBe('1 staged Git LFS file(s) add content the secrets scan could not read: old/other.json (its object is not in the LFS storage .git/lfs/objects)');
      expect(added.counts.files).toBe(1);
    });
  });

  it('a text file that only looks like a pointer (not LFS-tracked, no object) is an ordinary text file: scanned as text, counted', async () => {
    const { text } = pointerFor(Buffer.from('never stored\n'));
    await withGitRepo({ 'docs/pointer-example.txt': text }, async (repo) => {
      repo.git('add', '-A');
      const r = await staged(repo);
      expect(r.verdict).toBe('pass');
      expect(r.counts.files).toBe(1);
      expect(r.notes).toEqual([]);
    });
  });

  it('a pointer outside the LFS attributes whose object is in storage is scanned too (git lfs push finds pointers by content)', async () => {
    const aws = fakeAwsAccessKey();
    await withGitRepo({}, async (repo) => {
      stageLfs(repo, 'notes.txt', `hello\nAWS=${aws.value}\n`);
      const r = await staged(repo);
      expect(spots(r)).toEqual(['notes.txt:2:aws-access-token']);
    });
  });

  it('an LFS object that is a binary over 32 MiB is not scanned and not counted, and refuses the commit like any such binary (was: pass)', async () => {
    const big = Buffer.alloc(BINARY_SCAN_MAX_BYTES + 1);
    await withGitRepo({ '.gitattributes': LFS_ATTRIBUTES }, async (repo) => {
      repo.git('add', '.gitattributes');
      stageLfs(repo, 'big.pak', big);
      unlinkSync(join(repo.dir, 'big.pak')); // the working tree does not matter; keep the temp dir small
      const r = await staged(repo);
      expect(r.verdict).toBe('error');
      expect(r.reason).toBe('1 staged file(s) too large for the secrets scan (binary, larger than 32 MiB), so the commit cannot be judged clean: big.pak');
      expect(r.counts.files).toBe(1);
      expect(r.notes.join('\n')).toContain('1 of 2 staged file(s) not scanned (binary, larger than 32 MiB): big.pak');
    });
  });
});

describe('secrets gate over Git LFS pointer files in the working tree (run --all)', () => {
  it('scans the object a working-tree pointer names (a GIT_LFS_SKIP_SMUDGE checkout) and maps the finding to its path', async () => {
    const aws = fakeAwsAccessKey();
    const content = Buffer.from(`{\n  "aws": "${aws.value}"\n}\n`);
    await withGitRepo({ '.gitattributes': LFS_ATTRIBUTES, 'ok.kt': 'val a = 1\n' }, async (repo) => {
      storeObject(repo, content);
      repo.write('keys.json', pointerFor(content).text);
      const r = await tree(repo);
      expect(r.verdict).toBe('fail');
      expect(spots(r)).toEqual(['keys.json:2:aws-access-token']);
      expect(r.findings[0]!.column).toBe('  "aws": "'.length + 1);
      expect(r.counts).toMatchObject({ files: 3, items: 3 });
      expect(allOutput(r)).not.toContain(aws.value);
    });
  });

  it('eleven working-tree pointers whose objects are not local: the fix is one plain git lfs pull, not every path on one line', async () => {
    await withGitRepo({ '.gitattributes': LFS_ATTRIBUTES, 'ok.kt': 'val a = 1\n' }, async (repo) => {
      for (let i = 0; i < 11; i++) repo.write(`k${i}.json`, pointerFor(Buffer.from(`{"never": ${i}}\n`)).text);
      const r = await tree(repo);
      const note = r.notes.find((n) => n.startsWith('11 of 13 file(s) not scanned'));
      expect(note).toMatch(/: k0\.json, k1\.json, k10\.json, …; to scan: git lfs pull$/);
    });
  });

  it('a working-tree pointer whose object is not local: not scanned, not counted, noted', async () => {
    await withGitRepo({ '.gitattributes': LFS_ATTRIBUTES, 'ok.kt': 'val a = 1\n' }, async (repo) => {
      repo.write('keys.json', pointerFor(Buffer.from('{"never": "fetched"}\n')).text);
      const r = await tree(repo);
      expect(r.verdict).toBe('pass');
      expect(r.counts).toMatchObject({ files: 2 });
      expect(r.notes.join('\n')).toContain('1 of 3 file(s) not scanned: Git LFS object not in local storage (.git/lfs/objects): keys.json');
    });
  });
});
