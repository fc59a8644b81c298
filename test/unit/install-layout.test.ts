// commands/install/layout.ts localLoopgatesFiles: what a fresh clone's `npm install` needs besides package.json when
// loopgates is a dependency given as a file of the repository (a fresh user followed install's "next:" line, committed
// package.json without the tarball, and the clone's npm install failed: no hook, commits unchecked).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localLoopgatesFiles } from '../../commands/install/layout.js';

let top: string;
beforeEach(() => {
  top = mkdtempSync(join(tmpdir(), 'loopgates-layout-'));
});
afterEach(() => rmSync(top, { recursive: true, force: true }));

describe('localLoopgatesFiles', () => {
  it('names a file: tarball inside the repository, and package-lock.json when there is one', () => {
    const pkg = { devDependencies: { loopgates: 'file:loopgates-0.1.0.tgz' } };
    expect(localLoopgatesFiles(pkg, top)).toEqual(['loopgates-0.1.0.tgz']);
    writeFileSync(join(top, 'package-lock.json'), '{}\n');
    expect(localLoopgatesFiles(pkg, top)).toEqual(['loopgates-0.1.0.tgz', 'package-lock.json']);
    expect(localLoopgatesFiles({ dependencies: { loopgates: 'file:./vendor/loopgates-0.1.0.tgz' } }, top)).toEqual(['vendor/loopgates-0.1.0.tgz', 'package-lock.json']);
  });
  it('names nothing for a registry or URL spec, a file outside the repository, or no package.json', () => {
    expect(localLoopgatesFiles({ devDependencies: { loopgates: '^0.1.0' } }, top)).toEqual([]);
    expect(localLoopgatesFiles({ devDependencies: { loopgates: 'file:../loopgates' } }, top)).toEqual([]);
    expect(localLoopgatesFiles({ devDependencies: { other: 'file:x.tgz' } }, top)).toEqual([]);
    expect(localLoopgatesFiles(null, top)).toEqual([]);
  });
});
