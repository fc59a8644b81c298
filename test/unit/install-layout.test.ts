// commands/install/layout.ts localLoopgatesFiles: what a fresh clone's `npm install` needs besides package.json when
// loopgates is a dependency given as a file of the repository (a fresh user followed install's "next:" line, committed
// package.json without the tarball, and the clone's npm install failed: no hook, commits unchecked).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localLoopgatesFiles } from '../../commands/install/layout.js';
import { detectPackageManager, strayLockfiles } from '../../core/package-manager.js';

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

// Issue 15, item 13: in a yarn 4 repository the README's `npm i -D` route rewrote yarn.lock, created package-lock.json,
// and install then asked to commit package-lock.json. The manager is read from packageManager, then the lockfiles.
describe('detectPackageManager', () => {
  it('red: a yarn 4 repository (packageManager field) with the package-lock.json npm left: yarn.lock is what to commit', () => {
    const pkg = { packageManager: 'yarn@4.5.3', devDependencies: { loopgates: 'file:loopgates-0.1.0.tgz' } };
    writeFileSync(join(top, 'yarn.lock'), '__metadata:\n  version: 8\n');
    writeFileSync(join(top, 'package-lock.json'), '{}\n');
    expect(localLoopgatesFiles(pkg, top)).toEqual(['loopgates-0.1.0.tgz', 'yarn.lock']);
    const pm = detectPackageManager(pkg, top);
    expect([pm.name, pm.source, pm.install, pm.addDev('./loopgates-0.1.0.tgz')]).toEqual(['yarn', 'packageManager: yarn@4.5.3', 'yarn install', 'yarn add -D ./loopgates-0.1.0.tgz']);
    expect(strayLockfiles(pm, top)).toEqual(['package-lock.json']);
  });
  it('reads the lockfile when there is no packageManager field: pnpm, bun, npm; npm by default', () => {
    expect(detectPackageManager({}, top).name).toBe('npm');
    writeFileSync(join(top, 'bun.lockb'), '');
    expect(['name', 'lockfile', 'install'].map((k) => detectPackageManager({}, top)[k as 'name'])).toEqual(['bun', 'bun.lockb', 'bun install']);
    expect(detectPackageManager({}, top).addDev('x')).toBe('bun add -d x');
    writeFileSync(join(top, 'pnpm-lock.yaml'), 'lockfileVersion: 9.0\n');
    const pm = detectPackageManager({}, top);
    expect([pm.name, pm.source, pm.addDev('x')]).toEqual(['pnpm', 'pnpm-lock.yaml', 'pnpm add -D x']);
    expect(strayLockfiles(pm, top)).toEqual(['bun.lockb']);
    expect(detectPackageManager({ packageManager: 'npm@10.9.0' }, top).name).toBe('npm');
  });
});
