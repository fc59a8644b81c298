// The package version, read once from package.json (one directory above dist/ or above the source tree).
import { readFileSync } from 'node:fs';
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
