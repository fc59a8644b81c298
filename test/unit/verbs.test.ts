// core/verbs.ts is the one list of verb names: cli.ts's loaders are keyed by it, and cli-word rewrites only
// `loopgates <verb>` for a name in it.
import { describe, expect, it } from 'vitest';
import { verbLoaders } from '../../cli.js';
import { runnable } from '../../core/cli-word.js';
import { VERB_NAMES } from '../../core/verbs.js';

describe('the verb names', () => {
  it('cli.ts loads, in this order, a verb named as its key for every name', async () => {
    expect(verbLoaders.map(([name]) => name)).toEqual([...VERB_NAMES]);
    for (const [name, load] of verbLoaders) expect((await load()).name).toBe(name);
  });

  it('cli-word rewrites `loopgates <verb>` for each of them, and nothing else', () => {
    for (const verb of VERB_NAMES) expect(runnable(`run: loopgates ${verb}`, 'npx loopgates')).toBe(`run: npx loopgates ${verb}`);
    expect(runnable('run: loopgates is not installed', 'npx loopgates')).toBe('run: loopgates is not installed');
    expect(runnable('run: loopgates dump-audits', 'npx loopgates')).toBe('run: loopgates dump-audits');
    // A verb's own message label is not a command (cli.ts passes every line a verb prints through runnable).
    expect(runnable('loopgates install: proof failed: x\n  fix: loopgates install', 'npx loopgates')).toBe('loopgates install: proof failed: x\n  fix: npx loopgates install');
  });
});
