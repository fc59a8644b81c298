// The staged and tree snapshots against real git: what is a target, which bytes are read, GIT_INDEX_FILE.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { GitError } from '../../core/errors.js';
import { gitEnv, looseBlob, repoFacts } from '../../core/git.js';
import { indexWorkspace, treeWorkspace } from '../../core/snapshot.js';
import { treeAndIndexDigest, withGitRepo } from '../helpers/git-repo.js';

describe('indexWorkspace', () => {
  it('reads staged content, not the working tree, and lists only added/modified/renamed paths', async () => {
    await withGitRepo({ 'keep.txt': 'same\n', 'mod.txt': 'v1\n', 'gone.txt': 'bye\n', 'old-name.txt': 'moving\n' }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'base');
      repo.write('mod.txt', 'v2 staged\n');
      repo.git('add', '--', 'mod.txt');
      repo.write('mod.txt', 'v2 staged\nunstaged tail\n');
      repo.git('rm', '-q', '--', 'gone.txt');
      repo.git('mv', '--', 'old-name.txt', 'new-name.txt');
      repo.write('untracked.txt', 'not staged\n');
      const before = treeAndIndexDigest(repo.dir);
      const ws = await indexWorkspace(repo.dir, {});
      expect(ws.backing.kind).toBe('index');
      expect(await ws.targets()).toEqual(['mod.txt', 'new-name.txt']);
      expect(await ws.allPaths()).toEqual(['keep.txt', 'mod.txt', 'new-name.txt']);
      expect(await ws.readText('mod.txt')).toBe('v2 staged\n');
      expect(await ws.has('untracked.txt')).toBe(false);
      await expect(ws.read('gone.txt')).rejects.toThrow(/not in the snapshot/);
      expect(treeAndIndexDigest(repo.dir)).toBe(before);
    });
  });

  it('reads a wholly staged file from the working tree without git cat-file, and the blob whenever the tree differs', async () => {
    await withGitRepo({ 'whole.txt': 'staged as is\n', 'part.txt': 'v1\n', 'crlf.txt': 'a\nb\n', '.gitattributes': 'crlf.txt text eol=crlf\n' }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'base');
      repo.write('whole.txt', 'staged as is, v2\n');
      repo.write('part.txt', 'v2 staged\n');
      repo.git('add', '--', 'whole.txt', 'part.txt');
      repo.write('part.txt', 'v2 staged\nand an unstaged line\n');
      // eol=crlf: the working tree holds CRLF, the blob LF (a filter's output is never the blob).
      rmSync(join(repo.dir, 'crlf.txt'));
      repo.git('checkout', '--', 'crlf.txt');
      // A `git` first on PATH that logs each subcommand, then runs the real git.
      const bin = join(repo.dir, '..', 'logging-git');
      const log = join(repo.dir, '..', 'git-calls.txt');
      mkdirSync(bin);
      const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
      writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$1" >> '${log}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
      writeFileSync(log, '');
      const path = process.env.PATH;
      process.env.PATH = `${bin}:${path}`;
      try {
        const ws = await indexWorkspace(repo.dir, {});
        expect(await ws.readText('whole.txt')).toBe('staged as is, v2\n');
        expect(readFileSync(log, 'utf8')).not.toContain('cat-file');
        expect(await ws.readText('part.txt')).toBe('v2 staged\n');
        expect(readFileSync(log, 'utf8')).toContain('cat-file');
        expect(readFileSync(join(repo.dir, 'crlf.txt'), 'utf8')).toBe('a\r\nb\r\n');
        expect(await ws.readText('crlf.txt')).toBe('a\nb\n');
      } finally {
        process.env.PATH = path;
      }
    });
  });

  it("reads HEAD's side of a changed file from its loose object without git cat-file (and through git once it is packed), the index without git ls-files", async () => {
    await withGitRepo({ 'a.txt': 'head side\n' }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'base');
      repo.write('a.txt', 'index side\n');
      repo.git('add', '--', 'a.txt');
      const bin = join(repo.dir, '..', 'logging-git');
      const log = join(repo.dir, '..', 'git-calls.txt');
      mkdirSync(bin);
      const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
      writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$1" >> '${log}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
      writeFileSync(log, '');
      const path = process.env.PATH;
      process.env.PATH = `${bin}:${path}`;
      try {
        const ws = await indexWorkspace(repo.dir, {});
        expect((await ws.before!('a.txt'))?.toString('utf8')).toBe('head side\n');
        expect(readFileSync(log, 'utf8')).not.toContain('cat-file');
        // The index listing, from the index file itself (core/git.ts readIndexFile).
        expect(await ws.allPaths()).toEqual(['a.txt']);
        expect(readFileSync(log, 'utf8')).not.toContain('ls-files');
        // Packed (git gc): no loose file left, so git reads it.
        repo.git('gc', '-q', '--prune=now');
        const packed = await indexWorkspace(repo.dir, {});
        expect((await packed.before!('a.txt'))?.toString('utf8')).toBe('head side\n');
        expect(readFileSync(log, 'utf8')).toContain('cat-file');
      } finally {
        process.env.PATH = path;
      }
    });
  });

  it('a loose object is taken only when it is a blob whose bytes hash to the id asked for', async () => {
    await withGitRepo({ 'a.txt': 'one\n', 'b.txt': 'two\n' }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'base');
      const objects = join(repo.dir, '.git', 'objects');
      const id = (spec: string) => repo.git('rev-parse', spec).trim();
      const a = id('HEAD:a.txt');
      const b = id('HEAD:b.txt');
      expect(looseBlob(objects, a, 'sha1')?.toString('utf8')).toBe('one\n');
      // A tree and a commit are loose objects too, but no blob.
      expect(looseBlob(objects, id('HEAD^{tree}'), 'sha1')).toBeUndefined();
      expect(looseBlob(objects, id('HEAD'), 'sha1')).toBeUndefined();
      // Another blob's bytes under a's name: they do not hash to a's id.
      const file = (oid: string) => join(objects, oid.slice(0, 2), oid.slice(2));
      rmSync(file(a), { force: true });
      copyFileSync(file(b), file(a));
      expect(looseBlob(objects, a, 'sha1')).toBeUndefined();
      // Not zlib data, an id of the other format, no such object: undefined, never a throw.
      writeFileSync(file(a), 'not zlib');
      expect(looseBlob(objects, a, 'sha1')).toBeUndefined();
      expect(looseBlob(objects, b, 'sha256')).toBeUndefined();
      expect(looseBlob(objects, '0'.repeat(40), 'sha1')).toBeUndefined();
    });
  });

  it('reads a multi-megabyte blob that arrives in many chunks byte for byte, and the next blob after it', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024 + 17);
    for (let i = 0; i < big.length; i++) big[i] = (i * 2654435761) >>> 24;
    await withGitRepo({ 'big.bin': big, 'small.txt': 'small\n' }, async (repo) => {
      repo.git('add', '--', '.');
      // Working copies that differ from the index, so both are read through git cat-file.
      repo.write('big.bin', Buffer.concat([big, Buffer.from('unstaged')]));
      repo.write('small.txt', 'changed\n');
      const ws = await indexWorkspace(repo.dir, {});
      const [a, b] = await Promise.all([ws.read('big.bin'), ws.read('small.txt')]);
      expect(a.equals(big)).toBe(true);
      expect(b.toString('utf8')).toBe('small\n');
    });
  });

  it('a FIFO in the working tree where a staged file was is not opened (it would block): the blob is read from git', async () => {
    await withGitRepo({ 'a.txt': 'staged\n' }, async (repo) => {
      repo.git('add', '--', '.');
      rmSync(join(repo.dir, 'a.txt'));
      execFileSync('mkfifo', [join(repo.dir, 'a.txt')]);
      const ws = await indexWorkspace(repo.dir, {});
      expect(await ws.readText('a.txt')).toBe('staged\n');
    });
  }, 10_000);

  it('handles the initial commit (no HEAD): every staged file is a target', async () => {
    await withGitRepo({ 'a.txt': 'a\n', 'b/c.txt': 'c\n' }, async (repo) => {
      repo.git('add', '--', '.');
      const ws = await indexWorkspace(repo.dir, {});
      expect(ws.facts?.hasHead).toBe(false);
      expect(await ws.targets()).toEqual(['a.txt', 'b/c.txt']);
    });
  });

  it('works in a SHA-256 repository before its first commit (empty tree id of that format)', async () => {
    await withGitRepo({}, async (repo) => {
      rmSync(join(repo.dir, '.git'), { recursive: true, force: true });
      repo.git('init', '-q', '--object-format=sha256');
      repo.write('a.txt', 'x\n');
      repo.git('add', '--', 'a.txt');
      const ws = await indexWorkspace(repo.dir, {});
      expect([ws.facts?.objectFormat, await ws.targets(), await ws.readText('a.txt')]).toEqual(['sha256', ['a.txt'], 'x\n']);
    });
  });

  it('keeps paths with spaces, newlines, unicode and a leading dash intact', async () => {
    const names = ['sp ace.txt', 'new\nline.txt', 'ünïcödé/日本.txt', '-x y.kt', '"quoted".txt', 'tab\there.txt'];
    await withGitRepo(Object.fromEntries(names.map((n, i) => [n, `content ${i}\n`])), async (repo) => {
      repo.git('add', '--', '.');
      const ws = await indexWorkspace(repo.dir, {});
      expect(await ws.targets()).toEqual([...names].sort());
      for (const [i, n] of names.entries()) expect(await ws.readText(n)).toBe(`content ${i}\n`);
    });
  });

  it('reads binary blobs byte for byte through one cat-file process, many at once', async () => {
    const bin = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));
    const files: Record<string, string | Buffer> = { 'bin.dat': bin };
    for (let i = 0; i < 200; i++) files[`many/f${i}.txt`] = `file ${i}\n`.repeat(i % 5);
    await withGitRepo(files, async (repo) => {
      repo.git('add', '--', '.');
      const ws = await indexWorkspace(repo.dir, {});
      const reads = await Promise.all((await ws.targets()).map((p) => ws.read(p)));
      expect(reads.length).toBe(201);
      expect(Buffer.compare(await ws.read('bin.dat'), bin)).toBe(0);
      expect((await ws.readText('many/f13.txt'))).toBe('file 13\n'.repeat(3));
    });
  });

  it('honours GIT_INDEX_FILE, relative to the top level as git reads it, and hands it on in backing.env', async () => {
    await withGitRepo({ 'a.txt': 'a\n', 'sub/b.txt': 'b\n' }, async (repo) => {
      repo.git('add', '--', 'a.txt');
      copyFileSync(join(repo.dir, '.git', 'index'), join(repo.dir, '.git', 'other-index'));
      repo.git('add', '--', 'sub/b.txt');
      const fromSub = await indexWorkspace(join(repo.dir, 'sub'), { GIT_INDEX_FILE: '.git/other-index' });
      expect(await fromSub.targets()).toEqual(['a.txt']);
      expect(fromSub.backing.kind === 'index' && fromSub.backing.env.GIT_INDEX_FILE).toBe(join(repo.dir, '.git', 'other-index'));
      expect(await (await indexWorkspace(repo.dir, {})).targets()).toEqual(['a.txt', 'sub/b.txt']);
    });
  });

  it('refuses a GIT_INDEX_FILE that does not exist (git would read it as an empty index)', async () => {
    await withGitRepo({ 'a.txt': 'a\n' }, async (repo) => {
      repo.git('add', '--', '.');
      await expect(indexWorkspace(repo.dir, { GIT_INDEX_FILE: '.git/nope' })).rejects.toThrow(GitError);
    });
  });

  it('throws GitError outside a work tree', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopgates-nogit-'));
    try {
      await expect(indexWorkspace(dir, { GIT_CEILING_DIRECTORIES: tmpdir() })).rejects.toThrow(GitError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('treeWorkspace', () => {
  it('--files with a folder judges every file under it that --all would read; a folder with none is an error', async () => {
    await withGitRepo({ 'App/a.kt': 'a\n', 'App/sub/b.kt': 'b\n', 'Other/c.kt': 'c\n', 'Ignored/d.kt': 'd\n', '.gitignore': 'Ignored/\n' }, async (repo) => {
      repo.git('add', '--', '.');
      const ws = await treeWorkspace(repo.dir, 'files', ['App', 'Other/c.kt']);
      expect(await ws.targets()).toEqual(['App/a.kt', 'App/sub/b.kt', 'Other/c.kt']);
      await expect(treeWorkspace(repo.dir, 'files', ['Ignored'])).rejects.toThrow(/Ignored holds no file to check/);
      await expect(treeWorkspace(repo.dir, 'files', ['Nope'])).rejects.toThrow(/Nope is not a file/);
    });
  });

  it('--all lists tracked and untracked-not-ignored files that exist, reading the working tree', async () => {
    await withGitRepo({ '.gitignore': 'ignored.txt\n', 'a.txt': 'a\n', 'deleted.txt': 'x\n' }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'base');
      rmSync(join(repo.dir, 'deleted.txt'));
      repo.write('new.txt', 'new\n');
      repo.write('ignored.txt', 'no\n');
      repo.write('a.txt', 'worktree a\n');
      const ws = await treeWorkspace(repo.dir, 'all');
      expect(await ws.targets()).toEqual(['.gitignore', 'a.txt', 'new.txt']);
      expect(await ws.readText('a.txt')).toBe('worktree a\n');
    });
  });

  it('a sparse checkout: --all also judges the tracked files outside the cone, read from the index, and says so', async () => {
    await withGitRepo({ 'app/res/values/strings.xml': '<resources/>\n', 'app/res/values-de/strings.xml': 'de\n', 'docs/a.md': 'a\n' }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'base');
      repo.git('sparse-checkout', 'set', 'docs');
      // Sanity: the cone really left app/ out of the working tree.
      expect(() => readFileSync(join(repo.dir, 'app/res/values-de/strings.xml'))).toThrow();
      const before = treeAndIndexDigest(repo.dir);
      const ws = await treeWorkspace(repo.dir, 'all');
      expect(await ws.targets()).toEqual(['app/res/values-de/strings.xml', 'app/res/values/strings.xml', 'docs/a.md']);
      expect(await ws.readText('app/res/values-de/strings.xml')).toBe('de\n');
      expect(await ws.readText('docs/a.md')).toBe('a\n');
      expect(ws.notes).toEqual([
        'sparse checkout: 2 tracked files outside it (app/res/values-de/strings.xml, app/res/values/strings.xml) were read from the index',
      ]);
      // --files may name such a file, and a folder holding only such files.
      const named = await treeWorkspace(repo.dir, 'files', ['app/res/values-de/strings.xml']);
      expect(await named.targets()).toEqual(['app/res/values-de/strings.xml']);
      expect(await named.readText('app/res/values-de/strings.xml')).toBe('de\n');
      expect(treeAndIndexDigest(repo.dir)).toBe(before);
    });
  });

  it('--files takes paths relative to the cwd, including one starting with a dash', async () => {
    await withGitRepo({ 'dir/-x y.kt': 'k\n', 'dir/other.kt': 'o\n' }, async (repo) => {
      const ws = await treeWorkspace(join(repo.dir, 'dir'), 'files', ['-x y.kt']);
      expect(await ws.targets()).toEqual(['dir/-x y.kt']);
      expect(await ws.allPaths()).toEqual(['dir/-x y.kt', 'dir/other.kt']);
      await expect(treeWorkspace(repo.dir, 'files', ['missing.kt'])).rejects.toThrow(/not a file/);
      await expect(treeWorkspace(repo.dir, 'files', ['../outside.kt'])).rejects.toThrow(/outside/);
    });
  });

  it('a bare repository (or .git itself) is refused, not walked: its files are git objects, not the project', async () => {
    await withGitRepo({ 'creds.env': 'x\n' }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'base');
      const bare = `${repo.dir}.git`;
      execFileSync('git', ['clone', '-q', '--bare', repo.dir, bare]);
      try {
        await expect(treeWorkspace(bare, 'all', undefined, { GIT_CEILING_DIRECTORIES: tmpdir() })).rejects.toThrow(/is inside a git directory \(a bare repository or \.git\), not a work tree/);
        await expect(treeWorkspace(join(repo.dir, '.git'), 'all')).rejects.toThrow(/not a work tree/);
      } finally {
        rmSync(bare, { recursive: true, force: true });
      }
    });
  });

  it('outside git walks the folder, skipping .git and node_modules', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loopgates-plain-'));
    try {
      for (const p of ['a.txt', 'res/values/strings.xml', 'node_modules/x/index.js', '.git/config']) {
        mkdirSync(join(dir, p, '..'), { recursive: true });
        writeFileSync(join(dir, p), 'x');
      }
      const ws = await treeWorkspace(dir, 'all', undefined, { GIT_CEILING_DIRECTORIES: tmpdir() });
      expect(ws.facts).toBeNull();
      expect(await ws.targets()).toEqual(['a.txt', 'res/values/strings.xml']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('repoFacts', () => {
  it('reports git dir, common dir and hooks path of a linked worktree, detached HEAD and a merge', async () => {
    await withGitRepo({ 'a.txt': 'a\n' }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'base');
      const main = await repoFacts(repo.dir);
      expect(main).toMatchObject({ topLevel: repo.dir, gitDir: join(repo.dir, '.git'), commonDir: join(repo.dir, '.git'), hooksDir: join(repo.dir, '.git', 'hooks'), hasHead: true, detached: false, linkedWorktree: false, mergeInProgress: false });
      const wt = join(repo.dir, '..', 'wt');
      repo.git('worktree', 'add', '-q', '--detach', wt);
      const linked = await repoFacts(wt);
      expect(linked).toMatchObject({ topLevel: wt, commonDir: join(repo.dir, '.git'), linkedWorktree: true, detached: true, hooksDir: join(repo.dir, '.git', 'hooks') });
      expect(linked.gitDir).toBe(join(repo.dir, '.git', 'worktrees', 'wt'));
      expect(gitEnv({ GIT_DIR: '.git', GIT_INDEX_FILE: 'x' }, '/r/sub', '/r')).toEqual({ GIT_DIR: '/r/sub/.git', GIT_INDEX_FILE: '/r/x' });
    });
  });
});
