// The ledger is shared by every worktree, so two processes append to it at once (two agents' retry runs). Each
// append is one O_APPEND write(2) of whole lines: lines from two real processes never tear or interleave.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/setup-env.js';

const dir = mkdtempSync(join(tmpdir(), 'loopgates-ledger-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const writer = (path: string, who: string, n: number) => `
import { appendLedger } from ${JSON.stringify(pathToFileURL(join(repoRoot, 'dist', 'core', 'ledger.js')).href)};
const pad = 'x'.repeat(700);
for (let i = 0; i < ${n}; i++) {
  appendLedger(${JSON.stringify(path)}, [{ ts: new Date().toISOString(), kind: 'retry', gate: 'retry', verdict: 'fail', task: 't', who: ${JSON.stringify(who)}, i, pad }]);
}
`;

function run(code: string): Promise<number | null> {
  return new Promise((resolve) => spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: 'inherit' }).on('close', resolve));
}

describe('ledger appends from two processes', () => {
  it('keep every line whole: 2 x 600 entries, 1,200 parseable lines, none lost', async () => {
    const path = join(dir, 'ledger.jsonl');
    // 1,200 lines of ~850 bytes stay under the 2 MiB bound, so no rotation happens during the race.
    const codes = await Promise.all([run(writer(path, 'a', 600)), run(writer(path, 'b', 600))]);
    expect(codes).toEqual([0, 0]);
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(1200);
    const seen = { a: new Set<number>(), b: new Set<number>() };
    for (const l of lines) {
      const e = JSON.parse(l) as { who: 'a' | 'b'; i: number; pad: string };
      expect(e.pad).toHaveLength(700);
      seen[e.who].add(e.i);
    }
    expect([seen.a.size, seen.b.size]).toEqual([600, 600]);
  });
});
