// What doctor and the hook say of an unfinished install's process (commands/install/pending.ts): still running, gone,
// a pid taken by another process long after, or no pid at all. A real exited child gives a pid that is gone.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pendingIsRunning, pendingProblem } from '../../commands/install/pending.js';

const commonDir = mkdtempSync(join(tmpdir(), 'loopgates-pending-'));
afterAll(() => rmSync(commonDir, { recursive: true, force: true }));
const journal = (text: string) => {
  mkdirSync(join(commonDir, 'loopgates'), { recursive: true });
  writeFileSync(join(commonDir, 'loopgates', 'install.pending.json'), text);
};
const what = () => pendingProblem(commonDir)?.what ?? '';

describe('pending install: is its process alive', () => {
  it('a live process that started just now: still running', () => {
    const startedAt = new Date().toISOString();
    journal(JSON.stringify({ pid: process.ppid, startedAt }));
    expect(what()).toBe(`loopgates install (pid ${process.ppid}, started ${startedAt}; still running) has not finished proving the hook yet: until it does, the hook is unproven`);
    expect(pendingIsRunning({ pid: process.ppid, startedAt })).toBe(true);
  });
  it('the pid of a process that exited: gone, the install interrupted', () => {
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const pid = Number(child.stdout);
    journal(JSON.stringify({ pid, startedAt: new Date().toISOString() }));
    expect(what()).toMatch(new RegExp(`^loopgates install \\(pid ${pid}, started \\S+; process ${pid} is gone: the install was interrupted\\) before its proof passed: what it placed is unproven`));
  });
  it('a live pid, but an install started an hour ago: taken as interrupted, saying why', () => {
    const startedAt = new Date(Date.now() - 3_600_000).toISOString();
    journal(JSON.stringify({ pid: process.ppid, startedAt }));
    expect(what()).toContain(`(pid ${process.ppid}, started ${startedAt}; a process ${process.ppid} exists, but the install started over 15 minutes ago: taken as interrupted) before its proof passed`);
    expect(pendingIsRunning({ pid: process.ppid, startedAt })).toBe(false);
  });
  it('an unreadable journal: no process named', () => {
    journal('{not json');
    expect(what()).toContain('(pid ?, started ?; its journal names no process or start time: taken as interrupted) before its proof passed');
  });
});
