// Which paths gitleaks never reads because of where they are. A gitleaks config's global `[allowlist] paths` skips
// files by path before any rule runs, and gitleaks 8.16's built-in default (config/gitleaks.toml of its release) skips
// every path that contains `vendor` or `node_modules`, go.mod/go.sum, and names ending in jpg|gif|doc|docx|zip|xls|
// pdf|bin|svg|socket (without a dot: `cabin` too); later releases ship other lists. Such a file was counted as scanned
// although gitleaks never looked at it: `app/vendor/Keys.kt` with an AWS key passed. The lists differ by release and a
// team's own .gitleaks.toml adds its own, so they are not copied here but measured: a canary credential is placed at
// each path in a scratch directory and scanned once; a path whose canary gitleaks does not report is skipped by path.
// gitleaks README "Configuration" (allowlist): https://github.com/gitleaks/gitleaks#configuration
import { join } from 'node:path';
import { LoopgatesError } from '../../core/errors.js';
import type { ExtendedFile } from './extend.js';
import { extendsDigest, extraRulesDigest, GITLEAKS_FIX, type GitleaksBinary, type GitleaksCall, type GitleaksProbe, makeCanary, readJson, type ScanFiles, scanFiles, sha256, writeJson } from './gitleaks.js';

/** Bumped when what a cached answer means changes. */
const PROBE_VERSION = 1;
/** Paths remembered per binary and config; past this the oldest answers are dropped. */
export const PATH_PROBE_MAX_ENTRIES = 16_384;
/**
 * The name the `i`-th (0-based) skipped file's content is scanned under (scan.ts); scan.ts probes the names it uses
 * and refuses when the config skips one of them too.
 */
export function neutralPath(i: number): string {
  return `loopgates-neutral/${i}/content`;
}

/**
 * The subset of `paths` (repository-relative, `/`-separated) that gitleaks, with `files.config` (absent: its
 * built-in default), skips by path in a directory scan (`kind` dir; the staged scan applies the same allowlist).
 * Answers are cached in `<call.cacheDir>/gitleaks-paths.json` per binary (path, size, mtime), probe and config bytes;
 * a miss costs one scan of one small canary file per unknown path. Throws LoopgatesError when the scan fails or
 * gitleaks prints a canary value (it must redact), as every scan of the gate does.
 */
export async function pathsSkipped(
  call: GitleaksCall,
  probe: GitleaksProbe,
  paths: readonly string[],
  files: ScanFiles,
  baseEnv: Readonly<Record<string, string | undefined>>,
): Promise<Set<string>> {
  const key = pathProbeKey(call.bin, probe, files.config, files.extends);
  const cacheFile = join(call.cacheDir, 'gitleaks-paths.json');
  const cache = readCache(cacheFile);
  const known = cache.key === key ? cache.paths : {};
  const unknown = [...new Set(paths)].filter((p) => !(p in known));
  if (unknown.length) {
    const canary = makeCanary();
    const bytes = Buffer.from(canary.content, 'utf8');
    const scanned = await scanFiles(call, probe, 'dir', new Map(unknown.map((p) => [p, bytes])), { config: files.config, extends: files.extends }, baseEnv, (text) => {
      for (const v of canary.values) if (text.includes(v)) throw new LoopgatesError('gitleaks printed a credential although --redact was given', GITLEAKS_FIX);
    });
    const reported = new Set(scanned.findings.map((f) => f.file));
    for (const p of unknown) known[p] = !reported.has(p);
    const entries = Object.entries(known);
    writeJson(cacheFile, { key, paths: Object.fromEntries(entries.slice(Math.max(0, entries.length - PATH_PROBE_MAX_ENTRIES))) });
  }
  return new Set(paths.filter((p) => known[p] === true));
}

function pathProbeKey(bin: GitleaksBinary, probe: GitleaksProbe, config: Buffer | undefined, extended?: readonly ExtendedFile[]): string {
  // The files a config extends join the key only when there are some: the default config's key stays what the stored hook computes.
  const ext = extendsDigest(extended);
  return sha256(JSON.stringify([PROBE_VERSION, extraRulesDigest(), bin.path, bin.size, bin.mtimeMs, probe, config ? sha256(config) : null, ...(ext ? [ext] : [])]));
}

/**
 * The paths the cache (`<cacheDir>/gitleaks-paths.json`) has proven gitleaks does NOT skip under its default config
 * with `bin` and `probe` (for the stored hook's node-free pass, fast.ts); none when the cache is for another key.
 */
export function knownScanned(cacheDir: string, bin: GitleaksBinary, probe: GitleaksProbe): string[] {
  const cache = readCache(join(cacheDir, 'gitleaks-paths.json'));
  if (cache.key !== pathProbeKey(bin, probe, undefined)) return [];
  return Object.entries(cache.paths)
    .filter(([, skipped]) => skipped === false)
    .map(([p]) => p);
}

function readCache(file: string): { key: string; paths: Record<string, boolean> } {
  const c = readJson(file) as { key?: unknown; paths?: unknown } | null;
  const paths: Record<string, boolean> = {};
  if (!c || typeof c.key !== 'string' || !c.paths || typeof c.paths !== 'object' || Array.isArray(c.paths)) return { key: '', paths };
  for (const [p, v] of Object.entries(c.paths as Record<string, unknown>)) if (typeof v === 'boolean') paths[p] = v;
  return { key: c.key, paths };
}
