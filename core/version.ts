// The package version, read once from package.json (one directory above dist/ or above the source tree).
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** loopgates' version from its package.json; `0.0.0` when it cannot be read. */
export function packageVersion(): string {
  if (cached) return cached;
  const here = dirname(fileURLToPath(import.meta.url));
  for (const p of [join(here, '..', '..', 'package.json'), join(here, '..', 'package.json')]) {
    try {
      const j = JSON.parse(readFileSync(p, 'utf8')) as { name?: string; version?: string };
      if (j.name === 'loopgates' && j.version) return (cached = j.version);
    } catch {
      /* try the next */
    }
  }
  return (cached = '0.0.0');
}

let stamp: string | undefined;
/**
 * Size and mtime (ms) of this module's file, as `"<size> <mtimeMs>"` (`unknown` when it cannot be stat'ed): every
 * `tsc` build rewrites dist/, so a cache keyed with it (core/config-cache.ts, string-parity's parse cache) is never
 * read by another build of loopgates, even one that kept the version number.
 */
export function buildStamp(): string {
  if (stamp !== undefined) return stamp;
  try {
    const st = statSync(fileURLToPath(import.meta.url));
    stamp = `${st.size} ${st.mtimeMs}`;
  } catch {
    stamp = 'unknown';
  }
  return stamp;
}
