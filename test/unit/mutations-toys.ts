// Deliberately broken toy gates for the self-test and mutation engines (issue 4 "Tests"): a working gate, and
// gates that never report, report everything, crash, read nothing, hang, or ship no red case.
import picomatch from 'picomatch';
import { z } from 'zod';
import type { Gate, MutationOperator } from '../../core/types.js';

export const toyConfigSchema = z
  .object({
    /** Regexes; a line matching one is not reported (the allow-list). */
    allow: z.array(z.string()).default([]),
    /** Globs of files the gate reads. */
    include: z.array(z.string()).default(['**/*.txt']),
    exclude: z.array(z.string()).default([]),
  })
  .strict();
export type ToyConfig = z.output<typeof toyConfigSchema>;

/** Injects a line `BAD` at a seeded line of a .txt file. */
export const injectBad: MutationOperator = {
  id: 'inject-bad',
  description: 'insert a line with the word BAD',
  appliesTo: (p) => p.endsWith('.txt'),
  mutate: (_p, content, random) => {
    const lines = content.split('\n');
    const at = Math.floor(random() * lines.length);
    lines.splice(at, 0, 'BAD');
    return { content: lines.join('\n'), line: at + 1, rule: 'bad-word', description: `inserted BAD at line ${at + 1}` };
  },
};

/** A gate that works: reports every line containing BAD in the files its include/exclude globs select. */
export const goodGate: Gate<ToyConfig> = {
  id: 'good',
  title: 'Reports the word BAD',
  loop: { runs: 'a scan for BAD', reads: 'included .txt files', ends: 'after one pass; pass when no BAD', asks: 'never' },
  configSchema: toyConfigSchema,
  inputs: async (ctx) => {
    const inc = picomatch(ctx.config.include, { dot: true });
    const exc = ctx.config.exclude.length > 0 ? picomatch(ctx.config.exclude, { dot: true }) : () => false;
    return (await ctx.ws.targets()).filter((p) => inc(p) && !exc(p));
  },
  run: async (ctx, inputs) => {
    const allow = ctx.config.allow.map((r) => new RegExp(r));
    const findings = [];
    let filtered = 0;
    for (const p of inputs) {
      const lines = (await ctx.ws.readText(p)).split('\n');
      for (const [i, l] of lines.entries()) {
        if (!l.includes('BAD')) continue;
        if (allow.some((r) => r.test(l))) {
          filtered++;
          continue;
        }
        findings.push({ rule: 'bad-word', file: p, line: i + 1, column: l.indexOf('BAD') + 1, message: 'the word BAD', severity: 'error' as const });
      }
    }
    return { findings, counts: { files: inputs.length, items: inputs.length, filtered } };
  },
  selfTest: () => [
    { name: 'clean text passes', kind: 'green', files: { 'a.txt': 'fine\n' } },
    { name: 'BAD on line 2 is reported', kind: 'red', files: { 'a.txt': 'fine\nBAD\n' }, expect: { file: 'a.txt', line: 2, rule: 'bad-word' } },
  ],
  mutations: [injectBad],
  filters: { candidates: ['allow'], inputs: ['exclude'], includes: ['include'] },
};

/** Never reports anything, but reads its inputs. */
export const neverGate: Gate<ToyConfig> = { ...goodGate, id: 'never', run: async (_ctx, inputs) => ({ findings: [], counts: { files: inputs.length } }) };

/** Reports every line of every input. */
export const everythingGate: Gate<ToyConfig> = {
  ...goodGate,
  id: 'everything',
  run: async (ctx, inputs) => {
    const findings = [];
    for (const p of inputs) {
      const lines = (await ctx.ws.readText(p)).split('\n');
      for (let i = 0; i < lines.length; i++) findings.push({ rule: 'bad-word', file: p, line: i + 1, column: 1, message: 'everything', severity: 'error' as const });
    }
    return { findings, counts: { files: inputs.length } };
  },
};

/** Throws inside run(). */
export const crashGate: Gate<ToyConfig> = {
  ...goodGate,
  id: 'crash',
  run: async () => {
    throw new TypeError("Cannot read properties of undefined (reading 'length')");
  },
};

/** Selects inputs but reads none of them (counts.files 0): the runner calls it vacuous. */
export const blindGate: Gate<ToyConfig> = { ...goodGate, id: 'blind', run: async () => ({ findings: [], counts: { files: 0 } }) };

/** Never finishes (honours nothing): the runner's timeout ends it. */
export const hangGate: Gate<ToyConfig> = { ...goodGate, id: 'hang', run: () => new Promise(() => {}) };

/** Ships only a green case: nothing shows it can fail. */
export const decorationGate: Gate<ToyConfig> = {
  ...goodGate,
  id: 'decoration',
  selfTest: () => [{ name: 'clean text passes', kind: 'green', files: { 'a.txt': 'fine\n' } }],
};

/** Ships only a red case. */
export const noGreenGate: Gate<ToyConfig> = { ...goodGate, id: 'no-green', selfTest: async () => [(await goodGate.selfTest())[1]!] };

/** A red case whose expected line is wrong (the finding is on line 2, the case says 3). */
export const wrongSpotGate: Gate<ToyConfig> = {
  ...goodGate,
  id: 'wrong-spot',
  selfTest: () => [
    { name: 'clean text passes', kind: 'green', files: { 'a.txt': 'fine\n' } },
    { name: 'BAD expected on line 3', kind: 'red', files: { 'a.txt': 'fine\nBAD\n' }, expect: { file: 'a.txt', line: 3 } },
  ],
};

export const settings = <C>(gate: Gate<C>, config: Partial<ToyConfig> = {}, timeoutMs = 5000) => ({
  gate: gate as Gate<any>,
  config: toyConfigSchema.parse(config),
  timeoutMs,
});
