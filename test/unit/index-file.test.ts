// The index file read by loopgates itself (core/git.ts readIndexFile) against `git ls-files -s` on the same index:
// the same entries in every format it takes (versions 2, 3, 4, sha1 and sha256, unmerged stages, symlinks, gitlinks,
// skip-worktree, intent-to-add, a non-UTF-8 name), and no answer (git lists it) for what it does not take.
import { execFileSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lsIndex, readIndexFile } from '../../core/git.js';
import { withGitRepo, type TempRepo } from '../helpers/git-repo.js';

const indexOf = (repo: TempRepo) => join(repo.dir, '.git', 'index');
/** readIndexFile's entries, required to be git's own. */
async function same(repo: TempRepo, format = 'sha1') {
  const ours = readIndexFile(indexOf(repo), format);
  expect(ours).toBeDefined();
  expect(ours).toEqual(await lsIndex(repo.dir));
  return ours!;
}

describe('readIndexFile', () => {
  it('lists what git ls-files -s lists, in index versions 2, 3 and 4', async () => {
    await withGitRepo({ 'a.txt': 'a\n', 'dir/b.txt': 'b\n', 'dir/deeper/c.txt': 'c\n', 'run.sh': '#!/bin/sh\n', [`${'long/'.repeat(30)}name.txt`]: 'l\n' }, async (repo) => {
      symlinkSync('a.txt', join(repo.dir, 'link'));
      // A name whose bytes are not UTF-8 (Latin-1 'café.txt').
      writeFileSync(Buffer.concat([Buffer.from(`${repo.dir}/caf`), Buffer.from([0xe9]), Buffer.from('.txt')]), 'latin-1 name\n');
      execFileSync('chmod', ['+x', join(repo.dir, 'run.sh')]);
      repo.git('add', '-A');
      const blob = repo.git('hash-object', '-w', '--stdin').trim();
      // A submodule's gitlink.
      repo.git('update-index', '--add', '--cacheinfo', `160000,${blob},sub`);
      repo.git('update-index', '--index-version', '2');
      const v2 = await same(repo);
      expect(v2.map((e) => e.mode).sort()).toEqual(expect.arrayContaining(['100644', '100755', '120000', '160000']));
      // Version 3: extended flags (skip-worktree, intent-to-add).
      repo.git('update-index', '--skip-worktree', 'a.txt');
      writeFileSync(join(repo.dir, 'new.txt'), 'new\n');
      repo.git('add', '-N', 'new.txt');
      repo.git('update-index', '--index-version', '3');
      expect(readFileSync(indexOf(repo)).readUInt32BE(4)).toBe(3);
      await same(repo);
      // Version 4: prefix-compressed paths.
      repo.git('update-index', '--index-version', '4');
      expect(readFileSync(indexOf(repo)).readUInt32BE(4)).toBe(4);
      await same(repo);
    });
  });

  it('lists unmerged stages 1-3 as git does', async () => {
    await withGitRepo({ 'a.txt': 'base\n' }, async (repo) => {
      repo.git('add', '-A');
      repo.git('commit', '-q', '-m', 'base');
      repo.git('checkout', '-q', '-b', 'other');
      repo.write('a.txt', 'other\n');
      repo.git('commit', '-q', '-am', 'other');
      repo.git('checkout', '-q', 'main');
      repo.write('a.txt', 'main\n');
      repo.git('commit', '-q', '-am', 'main');
      try {
        repo.git('merge', '-q', 'other');
      } catch {
        /* the conflict is the point */
      }
      const entries = await same(repo);
      expect(entries.map((e) => e.stage)).toEqual([1, 2, 3]);
    });
  });

  it('reads a sha256 repository', async () => {
    await withGitRepo({}, async (repo) => {
      execFileSync('rm', ['-rf', join(repo.dir, '.git')]);
      repo.git('init', '-q', '--object-format=sha256');
      repo.write('a.txt', 'a\n');
      repo.git('add', '-A');
      const entries = await same(repo, 'sha256');
      expect(entries[0]!.oid).toHaveLength(64);
      // Read with the wrong object format, the checksum cannot match.
      expect(readIndexFile(indexOf(repo), 'sha1')).toBeUndefined();
    });
  });

  it('gives no answer for a split index, a sparse index, a flipped byte or another object format', async () => {
    await withGitRepo({ 'a.txt': 'a\n', 'dir/b.txt': 'b\n' }, async (repo) => {
      repo.git('add', '-A');
      repo.git('commit', '-q', '-m', 'base');
      await same(repo);
      const good = readFileSync(indexOf(repo));
      const flipped = Buffer.from(good);
      flipped[20]! ^= 1;
      writeFileSync(indexOf(repo), flipped);
      expect(readIndexFile(indexOf(repo), 'sha1')).toBeUndefined();
      writeFileSync(indexOf(repo), good);
      expect(readIndexFile(indexOf(repo), 'sha256')).toBeUndefined();
      expect(readIndexFile(join(repo.dir, 'no-such-index'), 'sha1')).toBeUndefined();
      repo.git('update-index', '--split-index');
      expect(readIndexFile(indexOf(repo), 'sha1')).toBeUndefined();
      repo.git('update-index', '--no-split-index');
      await same(repo);
      repo.git('sparse-checkout', 'init', '--cone', '--sparse-index');
      repo.git('sparse-checkout', 'set', 'nothing');
      expect(readFileSync(indexOf(repo)).includes(Buffer.from('sdir'))).toBe(true);
      expect(readIndexFile(indexOf(repo), 'sha1')).toBeUndefined();
    });
  });
});
