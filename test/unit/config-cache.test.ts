// The commit path's cached loopgates.yaml (core/config-cache.ts): a hit skips parsing, any change of the file's bytes
// misses, a corrupt cache is rebuilt, a broken config is refused every time and never cached.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configCachePath, loadConfigCached, plainJson } from '../../core/config-cache.js';
import { loadConfig } from '../../core/config.js';
import { ConfigError, LoopgatesError } from '../../core/errors.js';
import { commandSpecOf } from '../../gates/command/index.js';
import { builtinGates, configOptions, gateRegistry } from '../../gates/registry.js';
import { toys } from '../integration/run-toys.js';

let root: string;
let cacheDir: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'loopgates-cfgcache-'));
  cacheDir = join(root, 'cache');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const yaml = (text: string) => writeFileSync(join(root, 'loopgates.yaml'), text);
const view = (c: Awaited<ReturnType<typeof loadConfigCached>>) =>
  c.gates.map((g) => ({ id: g.gate.id, source: g.source, enabled: g.enabled, timeoutMs: g.settings.timeoutMs, allowEmpty: g.settings.allowEmpty, config: g.settings.config }));
const cached = () => JSON.parse(readFileSync(configCachePath(cacheDir), 'utf8')) as { key: string; gates: Array<{ id: string; enabled: boolean; config: unknown }> };

const commandGate = [
  'commands:',
  '  - id: no-todo',
  '    command: [sh, scripts/check.sh]',
  '    loop: { runs: scripts/check.sh, reads: strings.xml files, ends: one pass, asks: never }',
  '    files: ["res/**/*.xml"]',
  '    timeoutMs: 5000',
  '    mutations: [{ file: res/values/strings.xml, append: TODO }]',
].join('\n');

describe('loadConfigCached', () => {
  it('gives what loadConfig gives, for built-in and command gates, on the miss and on the hit', async () => {
    yaml(`version: 1\ngates:\n  secrets:\n    timeoutMs: 9000\n  string-parity:\n    enabled: false\n    allowEmpty: no catalogs here\n${commandGate}\n`);
    const fresh = loadConfig(root, await configOptions());
    const miss = await loadConfigCached(root, { registry: gateRegistry, cacheDir });
    expect(existsSync(configCachePath(cacheDir))).toBe(true);
    const hit = await loadConfigCached(root, { registry: gateRegistry, cacheDir });
    expect(view(miss)).toEqual(view(fresh));
    expect(view(hit)).toEqual(view(fresh));
    expect(hit.found).toBe(true);
    expect(hit.file).toBe(join(root, 'loopgates.yaml'));
    expect(hit.gates.map((g) => g.gate.id)).toEqual([...builtinGates.map((g) => g.id), 'no-todo']);
    // Built-in gates are the registry's objects; the command gate is rebuilt from its spec.
    const n = builtinGates.length;
    expect(hit.gates.slice(0, n).map((g) => g.gate)).toEqual([...builtinGates]);
    expect(commandSpecOf(hit.gates[n]!.gate)).toEqual(commandSpecOf(fresh.gates[n]!.gate));
    expect(hit.gates[n]!.settings.timeoutMs).toBe(5000);
  });

  it('reads the cache on a hit (no parse): a value only the cache file holds comes back', async () => {
    yaml('version: 1\n');
    await loadConfigCached(root, { registry: gateRegistry, cacheDir });
    const c = cached();
    c.gates[0]!.enabled = false;
    writeFileSync(configCachePath(cacheDir), JSON.stringify(c));
    const hit = await loadConfigCached(root, { registry: gateRegistry, cacheDir });
    expect(hit.gates[0]!.gate.id).toBe('secrets');
    expect(hit.gates[0]!.enabled).toBe(false);
  });

  it('misses when a byte of loopgates.yaml changes, and when the file appears or goes', async () => {
    await loadConfigCached(root, { registry: gateRegistry, cacheDir });
    const absent = cached().key;
    expect((await loadConfigCached(root, { registry: gateRegistry, cacheDir })).found).toBe(false);
    yaml('version: 1\ngates:\n  secrets:\n    enabled: true\n');
    const first = await loadConfigCached(root, { registry: gateRegistry, cacheDir });
    expect(first.found).toBe(true);
    const k1 = cached().key;
    expect(k1).not.toBe(absent);
    yaml('version: 1\ngates:\n  secrets:\n    enabled: false\n');
    const second = await loadConfigCached(root, { registry: gateRegistry, cacheDir });
    expect(cached().key).not.toBe(k1);
    expect(second.gates.find((g) => g.gate.id === 'secrets')!.enabled).toBe(false);
  });

  it('ignores a corrupt or foreign cache file and rewrites it', async () => {
    yaml('version: 1\ngates:\n  hardcoded-strings:\n    allow: ["^OK$"]\n');
    const want = view(loadConfig(root, await configOptions()));
    for (const junk of ['{', 'null', '[]', '{"format":1}', JSON.stringify({ format: 1, key: 'x', found: true, gates: [] })]) {
      writeFileSync(configCachePath((await loadConfigCached(root, { registry: gateRegistry, cacheDir }), cacheDir)), junk);
      expect(view(await loadConfigCached(root, { registry: gateRegistry, cacheDir }))).toEqual(want);
      expect(cached().gates.map((g) => g.id)).toEqual(builtinGates.map((g) => g.id));
    }
    // Right key, wrong shape (a gate entry without its fields): ignored.
    const c = cached() as unknown as { gates: Array<Record<string, unknown>> };
    delete c.gates[1]!.timeoutMs;
    writeFileSync(configCachePath(cacheDir), JSON.stringify(c));
    expect(view(await loadConfigCached(root, { registry: gateRegistry, cacheDir }))).toEqual(want);
    expect(cached().gates[1]).toHaveProperty('timeoutMs', 60_000);
  });

  it('refuses a broken config on every run with every problem, and caches nothing', async () => {
    yaml('version: 2\ngates:\n  secrets:\n    enabled: "yes"\n    bogus: 1\n');
    for (let i = 0; i < 2; i++) {
      const err = await loadConfigCached(root, { registry: gateRegistry, cacheDir }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).exitCode).toBe(2);
      expect((err as ConfigError).problems.map((p) => `${p.line} ${p.path}`)).toEqual(['1 version', '4 gates.secrets.enabled', '5 gates.secrets.bogus']);
    }
    expect(existsSync(configCachePath(cacheDir))).toBe(false);
    // A valid cache from before does not let the broken file through.
    yaml('version: 1\n');
    await loadConfigCached(root, { registry: gateRegistry, cacheDir });
    yaml('version: 1\ngates:\n  nope: {}\n');
    await expect(loadConfigCached(root, { registry: gateRegistry, cacheDir })).rejects.toBeInstanceOf(ConfigError);
  });

  it('does not cache toy registries (tests) and still refuses a gate missing its four answers', async () => {
    yaml('version: 1\n');
    const c = await loadConfigCached(root, { registry: gateRegistry, cacheDir, gates: toys });
    expect(c.gates.map((g) => g.gate.id)).toEqual(['toy', 'toy-kt']);
    expect(existsSync(configCachePath(cacheDir))).toBe(false);
    const half = { ...toys[0]!, id: 'half', loop: { ...toys[0]!.loop, reads: '' } };
    await expect(loadConfigCached(root, { registry: gateRegistry, cacheDir, gates: [...toys, half] })).rejects.toBeInstanceOf(LoopgatesError);
  });
});

describe('plainJson', () => {
  it('accepts JSON data and refuses what JSON would change', () => {
    expect(plainJson({ a: [1, 'x', true, null, { b: undefined }], c: -3.5 })).toBe(true);
    for (const v of [NaN, Infinity, -0, /x/, new Map(), new Set(), new Date(0), [undefined], () => 1, 1n]) expect(plainJson({ v })).toBe(false);
    // eslint-disable-next-line no-sparse-arrays
    expect(plainJson([1, , 3])).toBe(false);
  });
});
