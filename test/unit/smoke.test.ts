import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { memoryWorkspace } from '../../core/workspace.js';
import { readFile } from 'node:fs/promises';
import { runGate, runGates } from '../../core/runner.js';
import type { Gate, GateOutput } from '../../core/types.js';
import { z } from 'zod';

describe('test environment', () => {
  it('has the project-local gitleaks on PATH', () => {
    const help = execFileSync('gitleaks', ['--help'], { encoding: 'utf8' });
    expect(help).toMatch(/protect|git/);
  });
});

const toy: Gate<{}> = {
  id: 'toy',
  title: 'toy',
  loop: { runs: 'x', reads: 'x', ends: 'x', asks: 'never' },
  configSchema: z.object({}).strict(),
  inputs: async (ctx) => [...(await ctx.ws.targets())].filter((p) => p.endsWith('.txt')),
  run: async (ctx, inputs) => {
    const findings: GateOutput['findings'] = [];
    for (const p of inputs) {
      const lines = (await ctx.ws.readText(p)).split('\n');
      lines.forEach((l, i) => l.includes('BAD') && findings.push({ rule: 'bad', file: p, line: i + 1, column: l.indexOf('BAD') + 1, message: 'BAD word', severity: 'error' as const }));
    }
    return { findings, counts: { files: inputs.length, items: inputs.length } };
  },
  selfTest: () => [],
  mutations: [],
};

describe('runner verdicts', () => {
  const opts = (files: Record<string, string>, mode: 'staged' | 'all' = 'staged') => ({ ws: memoryWorkspace({ files, mode }), cacheRoot: '/tmp/loopgates-test-cache' });
  it('fails with the finding at file:line', async () => {
    const r = await runGate({ gate: toy, config: {}, timeoutMs: 5000 }, opts({ 'a.txt': 'ok\nBAD\n' }));
    expect(r.verdict).toBe('fail');
    expect(r.findings.map((f) => `${f.file}:${f.line}:${f.column}`)).toEqual(['a.txt:2:1']);
  });
  it('passes a clean input with counts', async () => {
    const r = await runGate({ gate: toy, config: {}, timeoutMs: 5000 }, opts({ 'a.txt': 'ok\n' }));
    expect(r.verdict).toBe('pass');
    expect(r.counts.files).toBe(1);
  });
  it('skips in staged mode with nothing it reads, is vacuous in all mode', async () => {
    expect((await runGate({ gate: toy, config: {}, timeoutMs: 5000 }, opts({ 'a.kt': 'x' }))).verdict).toBe('skip');
    expect((await runGate({ gate: toy, config: {}, timeoutMs: 5000 }, opts({ 'a.kt': 'x' }, 'all'))).verdict).toBe('vacuous');
  });
  it('times out as error', async () => {
    const slow: Gate<{}> = { ...toy, run: () => new Promise(() => {}) };
    const r = await runGate({ gate: slow, config: {}, timeoutMs: 50 }, opts({ 'a.txt': 'x' }));
    expect(r.verdict).toBe('error');
    expect(r.error?.message).toMatch(/within 50 ms/);
  });
  it('a gate whose I/O finished while another gate held the event loop is not blamed for the timeout', async () => {
    // `reader` reads a file (its callback arrives in the poll phase, after timers); `hog` parses synchronously for
    // 600 ms, past reader's 200 ms bound. Without the late-timer grace, reader's timer ran first and reader was called.
    const busy = (ms: number) => {
      const end = Date.now() + ms;
      while (Date.now() < end);
    };
    const reader: Gate<{}> = {
      ...toy,
      id: 'reader',
      run: async () => {
        await new Promise((r) => setTimeout(r, 50)); // due while hog holds the loop: runs just before reader's bound
        await readFile(import.meta.filename);
        return { findings: [], counts: { files: 1, items: 1 } };
      },
    };
    const hog: Gate<{}> = { ...toy, id: 'hog', run: async () => (await new Promise((r) => setTimeout(r, 5)), busy(600), { findings: [], counts: { files: 1, items: 1 } }) };
    const [r, h] = await runGates(
      [
        { gate: reader, config: {}, timeoutMs: 200 },
        { gate: hog, config: {}, timeoutMs: 60_000 },
      ],
      opts({ 'a.txt': 'x' }),
    );
    expect([r!.verdict, h!.verdict]).toEqual(['pass', 'pass']);
  });
  it('a gate that holds the event loop itself past its bound still times out (after one grace period)', async () => {
    const hog: Gate<{}> = {
      ...toy,
      run: async () => {
        for (;;) {
          await new Promise((r) => setTimeout(r, 1));
          const end = Date.now() + 400;
          while (Date.now() < end);
        }
      },
    };
    const r = await runGate({ gate: hog, config: {}, timeoutMs: 100 }, opts({ 'a.txt': 'x' }));
    expect(r.verdict).toBe('error');
    expect(r.error?.message).toMatch(/within 100 ms/);
  });
  it('a gate stopped by Ctrl-C is reported as interrupted, whatever its own error says', async () => {
    const outer = new AbortController();
    const stuck: Gate<{}> = {
      ...toy,
      // What a gate sees when the terminal's SIGINT also hit its child process: an error naming that child.
      run: (ctx) => new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('git cat-file exited with signal SIGINT')))),
    };
    setTimeout(() => outer.abort(new Error('SIGINT')), 20);
    const r = await runGate({ gate: stuck, config: {}, timeoutMs: 60_000 }, { ...opts({ 'a.txt': 'x' }), signal: outer.signal });
    expect(r.verdict).toBe('error');
    expect(r.error?.message).toBe('toy was interrupted (SIGINT) before it finished: nothing it judged counts');
  });
});
