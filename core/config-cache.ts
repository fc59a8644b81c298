// loopgates.yaml as the commit path reads it: the validated, defaulted configuration cached as JSON under
// `<git common dir>/loopgates/cache/config.json`, keyed by sha256 of the file's bytes, loopgates' version and build,
// and the built-in gate ids. A hit skips YAML parsing and zod validation (core/config.ts, ~100 ms of CPU to load and
// run); a miss is exactly core/config.ts loadConfig (same strictness, same errors) and then writes the cache. A
// config with problems is never cached, so it is refused on every commit.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CONFIG_FILE, refuseIncompleteGates } from './config-model.js';
import type { ConfiguredGate, GateRegistry, LoadedConfig } from './config-model.js';
import { STAGED_POLICIES } from './types.js';
import type { Gate, StagedPolicy } from './types.js';
import { buildStamp, packageVersion } from './version.js';

/** Bumped when the key recipe or the file layout changes. */
const FORMAT = 2;

/** One gate of the cached configuration: what `ConfiguredGate` holds besides the gate object. */
interface CachedGate {
  id: string;
  source: 'builtin' | 'command';
  enabled: boolean;
  timeoutMs: number;
  allowEmpty: string | null;
  /** The `staged:` policy in force for the gate (its own, else the global one, else introduced). */
  staged: StagedPolicy;
  /** The gate's validated config; for a command gate, its spec (the gate is rebuilt from it). */
  config: unknown;
}

interface CacheFile {
  format: number;
  key: string;
  found: boolean;
  gates: CachedGate[];
}

/** Options of `loadConfigCached`. Without `cacheDir`, or with `gates` (toy registries in tests), nothing is cached. */
export interface CachedConfigOptions {
  /** The built-in gates and the command-gate kind (gates/registry.ts gateRegistry). */
  registry: GateRegistry;
  /** Replaces the registry's built-in gates (tests register toy gates this way). */
  gates?: ReadonlyArray<Gate<any>>;
  /** Directory of the cache file (RunOptions.cacheRoot: `<git common dir>/loopgates/cache`). */
  cacheDir?: string;
}

/** `<cacheDir>/config.json`. */
export function configCachePath(cacheDir: string): string {
  return join(cacheDir, 'config.json');
}

/** The cache key (sha256 hex) of a loopgates.yaml with these bytes (`null`: no file) under the built-in `gates`. */
export function configCacheKey(bytes: Buffer | null, gates: ReadonlyArray<Gate<any>>): string {
  const h = createHash('sha256');
  h.update(`loopgates-config\0format ${FORMAT}\0version ${packageVersion()}\0build ${buildStamp()}\0gates ${gates.map((g) => g.id).join(',')}\0`);
  h.update(bytes === null ? 'absent\0' : 'file\0');
  if (bytes !== null) h.update(bytes);
  return h.digest('hex');
}

/**
 * Load `<root>/loopgates.yaml` for a run. With `cacheDir` and the built-in registry: a cached configuration whose
 * key matches is used as is; otherwise core/config.ts `loadConfig` validates it (throwing ConfigError /
 * LoopgatesError exactly as it does, nothing cached) and the result is cached when it round-trips through JSON.
 * A cache file that is unreadable, corrupt or of another key is ignored and rewritten. The cache is an
 * optimisation only: failing to write it changes nothing. Gates lacking one of their four answers are refused
 * (LoopgatesError) on a hit as on a miss.
 */
export async function loadConfigCached(root: string, options: CachedConfigOptions): Promise<LoadedConfig> {
  const { cacheDir, registry } = options;
  const loadFresh = async (): Promise<LoadedConfig> =>
    (await import('./config.js')).loadConfig(root, { gates: options.gates ?? registry.builtins, commands: await registry.commands() });
  if (cacheDir === undefined || options.gates !== undefined) return loadFresh();
  const gates = registry.builtins;
  refuseIncompleteGates(gates);
  const file = join(root, CONFIG_FILE);
  let bytes: Buffer | null;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    // Absent: the defaults (cached like a file). Any other read error: loadConfig reports it (ConfigError).
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return loadFresh();
    bytes = null;
  }
  const key = configCacheKey(bytes, gates);
  const path = configCachePath(cacheDir);
  const hit = readCached(path, key, gates);
  if (hit) {
    const configured = await configuredFrom(hit, registry);
    if (configured) return { file, found: hit.found, gates: configured };
  }
  const loaded = await loadFresh();
  try {
    await writeCached(path, key, loaded, registry);
  } catch {
    /* an unwritable cache only costs the next commit a parse */
  }
  return loaded;
}

function readCached(path: string, key: string, gates: ReadonlyArray<Gate<any>>): CacheFile | null {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
  const c = data as Partial<CacheFile> | null;
  if (!c || typeof c !== 'object' || c.format !== FORMAT || c.key !== key || typeof c.found !== 'boolean' || !Array.isArray(c.gates)) return null;
  const builtin = c.gates.filter((g) => g?.source === 'builtin');
  if (builtin.length !== gates.length || builtin.some((g, i) => g.id !== gates[i]!.id)) return null;
  for (const g of c.gates as unknown[]) if (!isCachedGate(g)) return null;
  return c as CacheFile;
}

function isCachedGate(v: unknown): v is CachedGate {
  const g = v as Partial<CachedGate> | null;
  return (
    !!g &&
    typeof g === 'object' &&
    typeof g.id === 'string' &&
    (g.source === 'builtin' || g.source === 'command') &&
    typeof g.enabled === 'boolean' &&
    typeof g.timeoutMs === 'number' &&
    Number.isSafeInteger(g.timeoutMs) &&
    g.timeoutMs > 0 &&
    (g.allowEmpty === null || typeof g.allowEmpty === 'string') &&
    STAGED_POLICIES.includes(g.staged as StagedPolicy) &&
    'config' in g
  );
}

/** The configured gates of a cache hit; command gates are rebuilt from their specs. Null when they do not match. */
async function configuredFrom(c: CacheFile, registry: GateRegistry): Promise<ConfiguredGate[] | null> {
  const gates = registry.builtins;
  const out: ConfiguredGate[] = [];
  for (const g of c.gates) {
    if (g.source !== 'builtin') continue;
    const gate = gates.find((x) => x.id === g.id)!;
    out.push(configured(gate, g));
  }
  const commands = c.gates.filter((g) => g.source === 'command');
  if (commands.length) {
    // Loaded only for repositories that define command gates.
    const built = (await registry.commands()).build(commands.map((g) => g.config) as never);
    if (built.length !== commands.length || built.some((b, i) => b.id !== commands[i]!.id)) return null;
    built.forEach((gate, i) => out.push(configured(gate, commands[i]!)));
  }
  return out;
}

function configured(gate: Gate<any>, g: CachedGate): ConfiguredGate {
  return {
    gate,
    enabled: g.enabled,
    source: g.source,
    settings: { gate, config: g.config, timeoutMs: g.timeoutMs, allowEmpty: g.allowEmpty ?? undefined, staged: g.staged },
  };
}

async function writeCached(path: string, key: string, loaded: LoadedConfig, registry: GateRegistry): Promise<void> {
  const gates: CachedGate[] = [];
  for (const g of loaded.gates) {
    let config = g.settings.config;
    if (g.source === 'command') {
      config = (await registry.commands()).specOf(g.gate);
      if (config === undefined) return;
    }
    // Only plain JSON data is cached: a config holding anything else (a RegExp, a Map) is re-validated every time.
    if (!plainJson(config)) return;
    gates.push({ id: g.gate.id, source: g.source, enabled: g.enabled, timeoutMs: g.settings.timeoutMs, allowEmpty: g.settings.allowEmpty ?? null, staged: g.settings.staged ?? 'introduced', config });
  }
  const body: CacheFile = { format: FORMAT, key, found: loaded.found, gates };
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(body)}\n`);
  renameSync(tmp, path);
}

/**
 * Whether `v` survives JSON.stringify + JSON.parse unchanged: null, booleans, finite numbers, strings, arrays of
 * those, and plain objects (an `undefined` property is dropped, which is how an absent optional key reads anyway).
 */
export function plainJson(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0);
  if (Array.isArray(v)) return Object.keys(v).length === v.length && v.every((x) => x !== undefined && plainJson(x));
  if (typeof v === 'object') {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return false;
    return Object.values(v as Record<string, unknown>).every((x) => x === undefined || plainJson(x));
  }
  return false;
}
