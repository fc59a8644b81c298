// What the `hook` verb loads before it knows what the commit needs: the static-import closure of commands/hook.ts
// (esbuild's metafile: the modules the CommonJS bundle initialises when the verb loads, scripts/bundle.mjs). The
// config validator (core/config.ts: yaml, the root zod schema), the command-gate module, the other verbs and Maestro
// flow discovery load only through `await import()` when a run needs them. Issue 17, item "zod and the gates' heavy
// parsers loaded only when the run needs them".
import { build } from 'esbuild';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/setup-env.js';

type Meta = { inputs: Record<string, { imports: Array<{ path: string; kind: string; external?: boolean }> }> };

/** Every module reached from `entry` by static imports (what loads with it), repository-relative. */
function staticClosure(meta: Meta, entry: string): Set<string> {
  const seen = new Set([entry]);
  const queue = [entry];
  while (queue.length) {
    for (const e of meta.inputs[queue.shift()!]?.imports ?? []) {
      if (e.external || (e.kind !== 'import-statement' && e.kind !== 'require-call') || seen.has(e.path)) continue;
      seen.add(e.path);
      queue.push(e.path);
    }
  }
  return seen;
}

let hook: Set<string>;
let cliHook: string[];
beforeAll(async () => {
  const r = await build({
    entryPoints: [join(repoRoot, 'cli.ts')],
    absWorkingDir: repoRoot,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    splitting: true,
    outdir: join(repoRoot, '.lazy-closure-out'),
    logLevel: 'silent',
  });
  const meta = r.metafile as Meta;
  hook = staticClosure(meta, 'commands/hook.ts');
  // The modules cli.ts's `hook` verb loader imports (dynamic imports of cli.ts that lead to hookVerb / makeHookVerb).
  cliHook = meta.inputs['cli.ts']!.imports.filter((e) => e.kind === 'dynamic-import').map((e) => e.path);
}, 120_000);

describe('the hook verb loads no module a run may not need', () => {
  it('cli.ts loads the hook verb from commands/hook.ts, not through commands/index.ts (run and explain with it)', () => {
    expect(cliHook).toContain('commands/hook.ts');
    expect(hook.has('commands/explain.ts')).toBe(false);
    expect(hook.has('commands/run.ts')).toBe(false);
  });

  it.each([
    ['core/config.ts', 'the config validator: only on a config-cache miss or a staged loopgates.yaml'],
    ['gates/command/index.ts', 'the command-gate module: only when loopgates.yaml has command gates'],
    ['gates/maestro-flows/discovery.ts', 'Maestro flow discovery: only when a staged path is a flow'],
  ])('%s is not in the static closure of commands/hook.ts (%s)', (module) => {
    expect(hook.size).toBeGreaterThan(50);
    expect([...hook].filter((m) => m === module)).toEqual([]);
  });
});
