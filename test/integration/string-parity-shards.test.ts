// string-parity in worker threads (gates/string-parity/shards.ts): through the built CLI, because the worker is the
// compiled dist/ module. A sharded run must give byte for byte the report one thread gives.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cutPoints, threadBudget } from '../../gates/string-parity/shards.js';
import { l10nCorpus, sharedParent } from '../helpers/corpus.js';
import { repoRoot } from '../helpers/setup-env.js';

const cli = join(repoRoot, 'bin', 'loopgates.js');

async function run(cwd: string, threads: string): Promise<{ code: number; report: { results: Array<Record<string, unknown>> }; stderr: string }> {
  const env = { ...process.env, LOOPGATES_THREADS: threads, GIT_CEILING_DIRECTORIES: sharedParent, NO_COLOR: '1' };
  try {
    const r = await promisify(execFile)('node', [cli, 'run', '--all', '--gate', 'string-parity', '--format', 'json', '--verbose'], { cwd, env, maxBuffer: 64 << 20 });
    return { code: 0, report: JSON.parse(r.stdout), stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, report: e.stdout ? JSON.parse(e.stdout) : { results: [] }, stderr: e.stderr };
  }
}

const withoutTimes = (report: { results: Array<Record<string, unknown>> }) => ({ ...report, results: report.results.map(({ durationMs: _d, ...r }) => r) });

describe('string-parity shards', () => {
  it('cutPoints splits sizes into contiguous runs of about equal bytes', () => {
    expect(cutPoints([5, 5, 5, 5], 2)).toEqual([2]);
    expect(cutPoints([10, 1, 1, 1, 1], 2)).toEqual([1]);
    expect(cutPoints([1, 1, 1, 1, 1, 1], 3)).toEqual([2, 4]);
    expect(cutPoints([3, 3], 1)).toEqual([]);
    // Never an empty run, even when one file outweighs the rest.
    expect(cutPoints([100, 1], 4)).toEqual([1]);
    // The first run can be given a smaller share (the calling thread has other work).
    expect(cutPoints([1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 2, 0.3)).toEqual([3]);
    expect(cutPoints([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 3, 0.2)).toEqual([3, 7]);
  });

  it('LOOPGATES_THREADS: a whole number >= 1, else an error naming it', () => {
    expect(threadBudget({ LOOPGATES_THREADS: '1' })).toBe(1);
    expect(threadBudget({ LOOPGATES_THREADS: '3' })).toBe(3);
    // Off by default: slower on 2 cores (shards.ts).
    expect(threadBudget({})).toBe(1);
    expect(() => threadBudget({ LOOPGATES_THREADS: '0' })).toThrow(/LOOPGATES_THREADS must be a whole number >= 1/);
    expect(() => threadBudget({ LOOPGATES_THREADS: 'two' })).toThrow(/LOOPGATES_THREADS/);
  });

  it('AntennaPod (4.8 MB, 61 catalog files) judged in 2 threads gives the one-thread report exactly', async () => {
    expect(existsSync(join(repoRoot, 'dist', 'gates', 'string-parity', 'shard-worker.js')), 'run `npm run build` first').toBe(true);
    const cwd = join(l10nCorpus, 'AntennaPod__AntennaPod');
    const [one, two] = [await run(cwd, '1'), await run(cwd, '2')];
    // Exit 1: three AntennaPod translations add markup the base has not, 39 hold keys no values/*.xml defines (string-parity-corpus.test.ts).
    expect(one.code).toBe(1);
    expect(two.code).toBe(1);
    const r = one.report.results.find((x) => x.gate === 'string-parity')!;
    expect(r.counts).toMatchObject({ files: 61, items: 32718, findings: 99 });
    expect(withoutTimes(two.report)).toEqual(withoutTimes(one.report));
    // The second run did split (one thread has no shard line); both say what they judge.
    expect(one.stderr).not.toMatch(/shards/);
    expect(one.stderr).toMatch(/^string-parity: 61 catalog files to judge in \d+ group\(s\) of \d+ discovered$/m);
    expect(two.stderr).toMatch(/^string-parity: 61 catalog files \([\d.]+ MB\) in 2 shards: this thread \d+ files, worker 1 \d+ files$/m);
  });

  it('a malformed LOOPGATES_THREADS is an error verdict (exit 2), never a pass', async () => {
    const r = await run(join(l10nCorpus, 'AntennaPod__AntennaPod'), 'lots');
    expect(r.code).toBe(2);
    const sp = r.report.results.find((x) => x.gate === 'string-parity')!;
    expect(sp.verdict).toBe('error');
    expect(sp.reason).toBe('LOOPGATES_THREADS must be a whole number >= 1, not "lots"');
    expect((sp.error as { fix: string }).fix).toMatch(/^unset LOOPGATES_THREADS/);
  });
});
