// core/git.ts blobId: the id `git hash-object` gives the same bytes, in SHA-1 and SHA-256 repositories, so the hook
// can compare the working tree's loopgates.yaml with the staged one by id (commands/execute.ts).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blobId } from '../../core/git.js';

const samples = [Buffer.alloc(0), Buffer.from('version: 1\n'), Buffer.from('a\r\nb\0c\u00e9\n'), Buffer.alloc(70_000, 0x61)];

describe('blobId', () => {
  for (const format of ['sha1', 'sha256']) {
    it(`equals git hash-object in a ${format} repository`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'loopgates-blobid-'));
      try {
        execFileSync('git', ['init', '-q', `--object-format=${format}`, dir]);
        for (const bytes of samples) {
          const want = execFileSync('git', ['hash-object', '--no-filters', '--stdin'], { cwd: dir, input: bytes }).toString().trim();
          expect(blobId(bytes, format)).toBe(want);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it('is undefined for an object format it does not know', () => {
    expect(blobId(Buffer.from('x'), 'sha512')).toBeUndefined();
  });
});
