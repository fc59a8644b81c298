// The staged snapshot in the repository states a commit meets: first commit, linked worktree, detached HEAD,
// merge in progress. Each run leaves the working tree and index byte-identical.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRunVerb } from '../../commands/index.js';
import { readLedger } from '../../core/ledger.js';
import type { GateResult } from '../../core/types.js';
import { treeAndIndexDigest, withGitRepo } from '../helpers/git-repo.js';
import { BAD, runVerbIn, toys } from './run-toys.js';

const run = makeRunVerb({ gates: toys });

async function runJson(dir: string) {
  const before = treeAndIndexDigest(dir);
  const r = await runVerbIn(run, dir, ['--format', 'json']);
  expect(treeAndIndexDigest(dir)).toBe(before);
  const j = JSON.parse(r.stdout) as { targets: number; results: GateResult[] };
  return { code: r.code, targets: j.targets, toy: j.results.find((x) => x.gate === 'toy')!, stderr: r.stderr };
}

describe('staged snapshot in repository states', () => {
  it('first commit (no HEAD): staged files are judged', async () => {
    await withGitRepo({ 'a.txt': `${BAD}\n`, 'b.txt': 'ok\n' }, async (repo) => {
      repo.git('add', '--', '.');
      const r = await runJson(repo.dir);
      expect([r.code, r.targets, r.toy.verdict, r.toy.counts.files]).toEqual([1, 2, 'fail', 2]);
      expect(r.toy.findings.map((f) => `${f.file}:${f.line}`)).toEqual(['a.txt:1']);
    });
  });

  it('linked worktree: judges that worktree\'s index; ledger in the common dir', async () => {
    await withGitRepo({ 'a.txt': 'ok\n' }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'base');
      const wt = join(repo.dir, '..', 'wt');
      repo.git('worktree', 'add', '-q', '-b', 'side', wt);
      writeFileSync(join(wt, 'w.txt'), `x\n${BAD}\n`);
      repo.git('-C', wt, 'add', '--', 'w.txt');
      repo.write('main.txt', `${BAD}\n`); // untracked in the main worktree: not in the linked worktree's index
      // treeAndIndexDigest(wt) cannot see this worktree's index (wt/.git is a file): compare it too.
      const wtIndex = join(repo.dir, '.git', 'worktrees', 'wt', 'index');
      const indexBefore = readFileSync(wtIndex);
      const r = await runJson(wt);
      expect(Buffer.compare(readFileSync(wtIndex), indexBefore)).toBe(0);
      expect([r.code, r.targets, r.toy.verdict]).toEqual([1, 1, 'fail']);
      expect(r.toy.findings.map((f) => `${f.file}:${f.line}`)).toEqual(['w.txt:2']);
      const main = await runJson(repo.dir);
      expect([main.code, main.targets, main.toy.verdict]).toEqual([0, 0, 'skip']);
      expect(readLedger(join(repo.dir, '.git', 'loopgates', 'ledger.jsonl')).length).toBe(4);
    });
  });

  it('detached HEAD: diffed against the detached commit', async () => {
    await withGitRepo({ 'a.txt': 'ok\n' }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'one');
      repo.write('a.txt', 'two\n');
      repo.git('commit', '-q', '-am', 'two');
      repo.git('checkout', '-q', '--detach', 'HEAD~1');
      expect((await runJson(repo.dir)).targets).toBe(0);
      repo.write('a.txt', `${BAD}\n`);
      repo.git('add', '--', 'a.txt');
      const r = await runJson(repo.dir);
      expect([r.code, r.targets, r.toy.verdict]).toEqual([1, 1, 'fail']);
    });
  });

  it('merge in progress: the resolved, staged content is judged; unmerged paths are not read', async () => {
    await withGitRepo({ 'c.txt': 'base\n', 'd.txt': 'base\n' }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'base');
      repo.git('checkout', '-q', '-b', 'other');
      repo.write('c.txt', 'other\n');
      repo.write('d.txt', `other ${BAD}\n`);
      repo.git('commit', '-q', '-am', 'other');
      repo.git('checkout', '-q', 'main');
      repo.write('c.txt', 'main\n');
      repo.write('d.txt', 'main\n');
      repo.git('commit', '-q', '-am', 'main');
      try {
        repo.git('merge', '-q', 'other');
      } catch {
        /* conflicts expected */
      }
      // Conflicted: nothing resolved is staged yet, so nothing is read.
      const conflicted = await runJson(repo.dir);
      expect([conflicted.code, conflicted.targets, conflicted.toy.verdict]).toEqual([0, 0, 'skip']);
      repo.write('c.txt', 'resolved\n');
      repo.write('d.txt', `resolved ${BAD}\n`);
      repo.git('add', '--', 'c.txt', 'd.txt');
      const r = await runJson(repo.dir);
      expect([r.code, r.targets, r.toy.verdict]).toEqual([1, 2, 'fail']);
      expect(r.toy.findings.map((f) => `${f.file}:${f.line}:${f.column}`)).toEqual(['d.txt:1:10']);
    });
  });
});
