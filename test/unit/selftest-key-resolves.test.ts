// A command gate's cached proof must not outlive what its command resolves to: `npm run lint` proven, then the
// script changed to `node -e 0`, reused the stale PROVEN (the key hashed only argv paths and the binary).
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCommandGates, commandGatesSchema } from '../../gates/command/index.js';
import { selfTestKey } from '../../mutations/cache.js';

const spec = (command: string[]) =>
  commandGatesSchema.parse([
    { id: 'lint', command, loop: { runs: 'lint', reads: 'src', ends: 'exit 0', asks: 'never' }, files: ['src/**'], mutations: [{ file: 'src/a.js', append: 'x' }] },
  ]);
const keyOf = (root: string, command: string[]) => selfTestKey({ gate: buildCommandGates(spec(command))[0]!, config: {}, timeoutMs: 1000 }, root, process.env);

describe('self-test cache key of a command gate', () => {
  it('changes when the npm script it runs changes, even with the same size and mtime', () => {
    const root = mkdtempSync(join(tmpdir(), 'key-'));
    try {
      writeFileSync(join(root, 'src-a.js'), '');
      const write = (lint: string) => {
        writeFileSync(join(root, 'package.json'), JSON.stringify({ scripts: { lint } }));
        utimesSync(join(root, 'package.json'), 1_000_000, 1_000_000);
      };
      write('eslint src/.');
      const before = keyOf(root, ['npm', 'run', 'lint']);
      write('node -e 0 ;;;;');
      expect(keyOf(root, ['npm', 'run', 'lint'])).not.toBe(before);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('changes when a file the script runs changes (same size and mtime), and stays when nothing changed', () => {
    const root = mkdtempSync(join(tmpdir(), 'key-'));
    try {
      writeFileSync(join(root, 'package.json'), JSON.stringify({ scripts: { lint: 'node scripts/lint.js' } }));
      const lint = (text: string) => {
        writeFileSync(join(root, 'lint.js'), text);
        utimesSync(join(root, 'lint.js'), 1_000_000, 1_000_000);
      };
      mkdirSync(join(root, 'scripts'));
      const script = (text: string) => {
        writeFileSync(join(root, 'scripts', 'lint.js'), text);
        utimesSync(join(root, 'scripts', 'lint.js'), 1_000_000, 1_000_000);
      };
      lint('process.exit(1)');
      script('process.exit(1)');
      const a = keyOf(root, ['npm', 'run', 'lint']);
      expect(keyOf(root, ['npm', 'run', 'lint'])).toBe(a);
      script('process.exit(0)');
      expect(keyOf(root, ['npm', 'run', 'lint'])).not.toBe(a);
      const b = keyOf(root, ['node', 'lint.js']);
      lint('process.exit(0)');
      expect(keyOf(root, ['node', 'lint.js'])).not.toBe(b);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
