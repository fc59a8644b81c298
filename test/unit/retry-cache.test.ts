// scripts/retry/cache.ts: the proven signatures are reused only while loopgates' rules and loopgates.yaml keep the
// bytes they were proven from; an edit is proven again (a NOISY signature added after a cached run is still refused).
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors.js';
import { retrySetup } from '../../scripts/retry/cache.js';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});
const scratch = () => {
  const d = mkdtempSync(join(tmpdir(), 'loopgates-retry-cache-'));
  dirs.push(d);
  return d;
};

const own = (match: string) =>
  ['version: 1', 'retry:', '  signatures:', '    - id: our-emulator-flake', '      description: our emulator script loses the device', `      match: ['${match}']`, '      source: https://example.invalid/our-ci-log', '      samples:', "        match: ['emu: lost the device']", "        nearMiss: ['emu: started']", '  bounds: {sameCause: 2}', ''].join('\n');

describe('retrySetup', () => {
  it('proves once, then reads the cache; an edited loopgates.yaml is proven again and replaces the entry', async () => {
    const root = scratch();
    const cache = join(scratch(), 'cache');
    writeFileSync(join(root, 'loopgates.yaml'), own('emu: lost the device'));
    const first = await retrySetup(root, cache);
    expect(first.cached).toBe(false);
    expect(first.bounds.sameCause).toBe(2);
    expect(first.signatures.flakes.map((s) => s.spec.id)).toContain('our-emulator-flake');
    const second = await retrySetup(root, cache);
    expect(second.cached).toBe(true);
    expect(second.bounds).toEqual(first.bounds);
    expect(second.signatures.flakes.map((s) => [s.spec.id, s.origin, s.regexes.map(String)])).toEqual(first.signatures.flakes.map((s) => [s.spec.id, s.origin, s.regexes.map(String)]));
    expect(readdirSync(cache).filter((f) => f.startsWith('retry-signatures-'))).toHaveLength(1);

    writeFileSync(join(root, 'loopgates.yaml'), own('.*'));
    await expect(retrySetup(root, cache)).rejects.toBeInstanceOf(ConfigError);
    writeFileSync(join(root, 'loopgates.yaml'), own('emu: lost'));
    const third = await retrySetup(root, cache);
    expect(third.cached).toBe(false);
    expect(readdirSync(cache).filter((f) => f.startsWith('retry-signatures-'))).toHaveLength(1);
  });

  it('outside git (no cache folder) proves every time and writes nothing', async () => {
    const root = scratch();
    expect((await retrySetup(root, null)).cached).toBe(false);
    expect((await retrySetup(root, null)).cached).toBe(false);
    expect(existsSync(join(root, 'cache'))).toBe(false);
  });
});
