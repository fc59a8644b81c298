import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { memoryWorkspace } from '../../core/workspace.js';
import { runGate } from '../../core/runner.js';
import type { Gate } from '../../core/types.js';
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
    const findings = [];
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
});
