// Where the shipped rules/ live, apart from signatures.ts (YAML, zod) so the cached path (cache.ts) needs neither.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LoopgatesError } from '../../core/errors.js';

/** The folder of the shipped rules (`rules/` at the package root, beside dist/ or the source tree). */
export function rulesDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  // dist/scripts/retry -> ../../../rules; scripts/retry (vitest on the sources) -> ../../rules.
  for (const up of [join(here, '..', '..', '..', 'rules'), join(here, '..', '..', 'rules')]) {
    try {
      readFileSync(join(up, 'flakes.yaml'));
      return up;
    } catch {
      /* try the next */
    }
  }
  throw new LoopgatesError(`the shipped rules (rules/flakes.yaml) are missing beside ${here}`, 'reinstall loopgates (its package ships rules/)');
}
