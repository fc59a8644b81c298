// core/lazy-schema.ts: a schema built on first use answers as the schema itself (parse, strictness, instanceof,
// composition into another object, core/config.ts objectOf), and is built once.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { objectOf } from '../../core/config.js';
import { lazySchema } from '../../core/lazy-schema.js';
import { configSchema as hardcodedStrings } from '../../gates/hardcoded-strings/index.js';

describe('lazySchema', () => {
  it('is built on first use, once, and parses as the schema it builds', () => {
    let builds = 0;
    const s = lazySchema(() => {
      builds++;
      return z.object({ n: z.number().int().default(3) }).strict();
    });
    expect(builds).toBe(0);
    expect(s.parse({})).toEqual({ n: 3 });
    expect(s.safeParse({ n: 1.5 }).success).toBe(false);
    const unknown = s.safeParse({ m: 1 });
    expect(unknown.success).toBe(false);
    expect(unknown.error?.issues[0]?.code).toBe('unrecognized_keys');
    expect(builds).toBe(1);
  });

  it('is an instance of its zod class, so core/config.ts unwraps and composes it', () => {
    const s = lazySchema(() => z.object({ a: z.string().default('x') }).strict());
    expect(s).toBeInstanceOf(z.ZodObject);
    expect(objectOf(s)).not.toBeNull();
    expect(Object.keys(objectOf(s)!.shape)).toEqual(['a']);
    const outer = z.object({ inner: s.default({}) }).strict();
    expect(outer.parse({})).toEqual({ inner: { a: 'x' } });
    expect(outer.safeParse({ inner: { a: 1 } }).error?.issues[0]?.path).toEqual(['inner', 'a']);
  });

  it('a gate\'s schema keeps its refinements: hardcoded-strings refuses an invalid regular expression in allow', () => {
    expect(hardcodedStrings).toBeInstanceOf(z.ZodObject);
    expect(() => hardcodedStrings.parse({ allow: ['('] })).toThrow(/not a valid regular expression/);
    expect(hardcodedStrings.parse({}).honorLintIgnore).toBe(true);
  });
});
