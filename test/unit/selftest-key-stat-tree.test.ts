// mutations/cache.ts statTree: what a built-in gate's self-test key covers of its folders, one `path size mtimeMs` line
// per file. Its paths are built by concatenation (join() cost ~3 ms a commit): they must be exactly join's.
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { statTree } from '../../mutations/cache.js';

let dir = '';
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

describe('statTree', () => {
  it('lists every file under the folder as join() names it, with size and mtime; no declarations or maps; links followed', () => {
    dir = mkdtempSync(join(tmpdir(), 'loopgates-stat-tree-'));
    mkdirSync(join(dir, 'b', 'c'), { recursive: true });
    writeFileSync(join(dir, 'a.js'), 'one');
    writeFileSync(join(dir, 'a.d.ts'), 'skip');
    writeFileSync(join(dir, 'a.js.map'), 'skip');
    writeFileSync(join(dir, 'b', 'c', 'd.json'), '{}\n');
    symlinkSync(join(dir, 'b', 'c'), join(dir, 'link'));
    const line = (...p: string[]) => `${join(dir, ...p)} ${statSync(join(dir, ...p)).size} ${statSync(join(dir, ...p)).mtimeMs}`;
    const want = [line('a.js'), line('b', 'c', 'd.json'), line('link', 'd.json')];
    expect(statTree(dir)).toEqual(want);
    // A trailing separator names the same files the same way.
    expect(statTree(`${dir}/`)).toEqual(want);
    expect(statTree(join(dir, 'absent'))).toEqual([]);
  });
});
