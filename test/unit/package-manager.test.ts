// core/package-manager.ts: the one detection install's messages and cli-word's runner (`npx loopgates`, …) share.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectPackageManager } from '../../core/package-manager.js';

let top: string;
beforeEach(() => {
  top = mkdtempSync(join(tmpdir(), 'loopgates-pm-'));
});
afterEach(() => rmSync(top, { recursive: true, force: true }));

const runner = (pkg: Record<string, unknown> | null) => detectPackageManager(pkg, top).runBin('loopgates');

describe('detectPackageManager: the runner of a local bin', () => {
  it('each manager runs the project bin its own way; npm (npx) by default and without package.json', () => {
    expect(runner(null)).toBe('npx loopgates');
    expect(runner({})).toBe('npx loopgates');
    expect(['npm@10.9.0', 'yarn@4.1.0', 'yarn@1.22.22', 'pnpm@9.12.0', 'bun@1.1.30'].map((f) => runner({ packageManager: f }))).toEqual(['npx loopgates', 'yarn loopgates', 'yarn loopgates', 'pnpm exec loopgates', 'bunx loopgates']);
  });

  it('the packageManager field wins over a lockfile; an unknown field falls back to the lockfiles, in pnpm, yarn, bun order', () => {
    writeFileSync(join(top, 'bun.lockb'), '');
    expect(runner({})).toBe('bunx loopgates');
    writeFileSync(join(top, 'yarn.lock'), '');
    expect(runner({})).toBe('yarn loopgates');
    expect(runner({ packageManager: 'npm@10.9.0' })).toBe('npx loopgates');
    expect(runner({ packageManager: 'deno@2' })).toBe('yarn loopgates');
    expect(runner({ packageManager: 42 })).toBe('yarn loopgates');
    writeFileSync(join(top, 'pnpm-lock.yaml'), '');
    expect(runner({})).toBe('pnpm exec loopgates');
  });
});
