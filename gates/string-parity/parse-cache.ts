// string-parity's parse cache for the commit path. A staged run judges a changed translation against its base,
// and a changed base against every translation; the files the commit does not change are the same from one commit
// to the next, so their parse (LoadedCatalog) is kept on disk, keyed by sha256 of their bytes, the parse options,
// loopgates' version and build (core/version.ts buildStamp). A hit replaces a cold parse (AntennaPod's 77 KB
// values/strings.xml: ~35 ms of saxes plus its garbage, on a process that exits after one commit) by one JSON.parse.
// Layout: `<ctx.cacheDir>/parsed/<key>.json` (the gate's cache directory: `<git common dir>/loopgates/cache/string-parity`).
// The cache is an optimisation only: an unreadable, corrupt or foreign file is a miss, and a failed write changes nothing.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildStamp, packageVersion } from '../../core/version.js';
import { localeCatalog, type CatalogEntry, type LoadedCatalog } from './model.js';

/** Bumped when the file layout or the key recipe changes. */
const FORMAT = 2;
/** Most parses kept: a write that finds more removes the least recently used (mtime; a hit touches its file). */
export const PARSE_CACHE_MAX_FILES = 256;

interface CacheFile {
  format: number;
  key: string;
  /** The LoadedCatalog with each locale's `byKey` left out (rebuilt on read); any other field is kept as is. */
  catalog: Omit<LoadedCatalog, 'locales'> & { locales: Array<{ locale: string; entries: CatalogEntry[] }> };
}

/**
 * The cache key (sha256, 64 hex characters) of a parse of `bytes` with the options `optionsKey` (catalogs.ts
 * catalogKey: format, path, locale, grammar, escaping, base or not). Pure; never throws.
 */
export function parseCacheKey(optionsKey: string, bytes: Buffer): string {
  const h = createHash('sha256');
  h.update(`loopgates-parse\0format ${FORMAT}\0version ${packageVersion()}\0build ${buildStamp()}\0${optionsKey}\0`);
  h.update(bytes);
  return h.digest('hex');
}

function fileOf(dir: string, key: string): string {
  return join(dir, 'parsed', `${key}.json`);
}

/**
 * The parse stored under `key` in `dir`, or null on any miss (no file, unreadable, corrupt, another key or path).
 * The result is a fresh LoadedCatalog (its `byKey` maps rebuilt), equal to the parse it was made from
 * (test/unit/string-parity-parse-cache.test.ts checks every corpus catalog). Never throws.
 */
export function readParsed(dir: string, key: string, path: string): LoadedCatalog | null {
  const file = fileOf(dir, key);
  let c: Partial<CacheFile> | null;
  try {
    c = JSON.parse(readFileSync(file, 'utf8')) as Partial<CacheFile> | null;
  } catch {
    return null;
  }
  const cat = c?.catalog;
  if (!c || typeof c !== 'object' || c.format !== FORMAT || c.key !== key || !cat || typeof cat !== 'object' || cat.path !== path || typeof cat.format !== 'string' || !Array.isArray(cat.locales) || !Array.isArray(cat.problems)) return null;
  for (const l of cat.locales) if (!l || typeof l.locale !== 'string' || !Array.isArray(l.entries)) return null;
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    /* recency is a hint for pruning only */
  }
  const loaded: LoadedCatalog = { ...cat, locales: cat.locales.map((l) => localeCatalog(l.locale, l.entries)) };
  return loaded;
}

/**
 * Store `loaded` under `key` in `dir` (write to a temporary file, then rename: a concurrent reader sees the whole
 * file or none), then keep at most PARSE_CACHE_MAX_FILES parses. Never throws.
 */
export function writeParsed(dir: string, key: string, loaded: LoadedCatalog): void {
  try {
    const parsedDir = join(dir, 'parsed');
    mkdirSync(parsedDir, { recursive: true });
    const data: CacheFile = { format: FORMAT, key, catalog: { ...loaded, locales: loaded.locales.map((l) => ({ locale: l.locale, entries: l.entries })) } };
    const file = fileOf(dir, key);
    const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(tmp, JSON.stringify(data));
    renameSync(tmp, file);
    prune(parsedDir);
  } catch {
    /* an unwritable cache only costs the next commit a parse */
  }
}

function prune(parsedDir: string): void {
  const names = readdirSync(parsedDir).filter((n) => n.endsWith('.json'));
  if (names.length <= PARSE_CACHE_MAX_FILES) return;
  const aged = names.map((n) => {
    try {
      return { n, t: statSync(join(parsedDir, n)).mtimeMs };
    } catch {
      return { n, t: 0 };
    }
  });
  aged.sort((a, b) => a.t - b.t);
  for (const { n } of aged.slice(0, aged.length - PARSE_CACHE_MAX_FILES)) rmSync(join(parsedDir, n), { force: true });
}
