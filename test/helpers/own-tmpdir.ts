// A test file's own temp dir: the secrets tests assert that no loopgates-secrets-* scratch dir is left behind, and the
// OS temp dir is shared with other test processes running at the same time, whose scratch dirs would be seen there.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * Make `os.tmpdir()` a fresh folder (named `<prefix>XXXXXX` under the shared temp dir) for the tests of the calling
 * file: TMPDIR is set before its tests and restored after, and the folder is removed. Returns the folder's path.
 * Call at the top level of a test file.
 */
export function ownTmpdir(prefix: string): string {
  const shared = process.env.TMPDIR;
  const own = mkdtempSync(join(tmpdir(), prefix));
  beforeAll(() => {
    process.env.TMPDIR = own;
  });
  afterAll(() => {
    if (shared === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = shared;
    rmSync(own, { recursive: true, force: true });
  });
  return own;
}
