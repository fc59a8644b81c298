// A scripted device for tests: a scenario folder, the fake adb (test/helpers/fake-adb/adb) first on PATH, a virtual
// clock file shared by loopgates and the fake (LOOPGATES_CLOCK), and a lease folder of its own. Tests run the real
// CLI against it and read back what the device received (calls, taps) from the fake's state folder.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
export const fakeAdbDir = join(repoRoot, 'test', 'helpers', 'fake-adb');
/** Our own test dumps (see test/fixtures/uiautomator/MANIFEST.md). */
export const dumpFixtures = join(repoRoot, 'test', 'fixtures', 'uiautomator');

/**
 * A scenario, as the fake adb reads it. File names are relative to the scenario file (use absolute paths or
 * `fixture('home.xml')`).
 * - `screens`: name -> `{ dump: file }` (a real dump XML) or `{ output: text }` (every dump of it prints this, exit 0).
 * - `start`: the first screen. `transitions`: a tap inside the node labelled `tapInside` (or inside `[x1,y1][x2,y2]`)
 *   on screen `from` shows `to` after `afterMs` (virtual ms).
 * - `dumpFailures`: the first `times` dumps of `screen` print `output` instead.
 * - `files`: device path -> local file present before the run (a stale dump). `devices`: `adb devices` lines.
 * - `packages`: id -> `{ enabled, installed, apk, splits }` for pm dump / pm path / sha256sum / pull.
 * - `sha256sum: false`: the device has no sha256sum (the APK is pulled instead).
 */
export interface Scenario {
  devices?: Array<{ serial: string; state: string }>;
  start: string;
  screens: Record<string, { dump: string } | { output: string }>;
  transitions?: Array<{ from: string; tapInside: string; to: string; afterMs?: number }>;
  dumpFailures?: Array<{ screen: string; times: number; output: string }>;
  files?: Record<string, string>;
  packages?: Record<string, { enabled?: number; installed?: boolean; apk?: string; splits?: Record<string, string> }>;
  sha256sum?: boolean;
}

export const fixture = (name: string): string => join(dumpFixtures, name);

/** One call the fake adb received. `at`: virtual ms. */
export interface AdbCall {
  argv: string[];
  at: number;
}

export interface FakeDevice {
  dir: string;
  /** Environment for the CLI: PATH with the fake adb first, the scenario, the clock, the lease folder. */
  env: Record<string, string>;
  calls(): AdbCall[];
  taps(): Array<{ x: number; y: number; at: number; screen: string; to: string | null }>;
  /** `uiautomator dump` calls received. */
  dumps(): number;
  /** Run the built CLI (`bin/loopgates.js`) with `args` in `cwd` (default: a scratch folder). */
  cli(args: string[], opts?: { cwd?: string; env?: Record<string, string> }): Promise<{ code: number | null; stdout: string; stderr: string }>;
  clockMs(): number;
  remove(): void;
}

/** Make a scripted device for `scenario`. `clock: 'virtual'` (default) shares LOOPGATES_CLOCK, starting at 0. */
export function fakeDevice(scenario: Scenario, options: { clock?: 'virtual' | 'real' } = {}): FakeDevice {
  const dir = mkdtempSync(join(tmpdir(), 'loopgates-device-'));
  const state = join(dir, 'state');
  const work = join(dir, 'work');
  mkdirSync(state);
  mkdirSync(work);
  const scenarioFile = join(dir, 'scenario.json');
  writeFileSync(scenarioFile, JSON.stringify(scenario, null, 2));
  const clock = join(dir, 'clock');
  const env: Record<string, string> = {
    PATH: `${fakeAdbDir}${delimiter}${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
    HOME: join(dir, 'home'),
    FAKE_ADB_SCENARIO: scenarioFile,
    FAKE_ADB_STATE: state,
    LOOPGATES_LEASE_DIR: join(dir, 'leases'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CEILING_DIRECTORIES: dir,
    NO_COLOR: '1',
  };
  if ((options.clock ?? 'virtual') === 'virtual') {
    writeFileSync(clock, '0');
    env.LOOPGATES_CLOCK = clock;
  }
  const lines = <T>(name: string): T[] => {
    try {
      return readFileSync(join(state, name), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as T);
    } catch {
      return [];
    }
  };
  const calls = () => lines<AdbCall>('calls.jsonl');
  return {
    dir,
    env,
    calls,
    taps: () => lines('taps.jsonl'),
    dumps: () => calls().filter((c) => c.argv.includes('uiautomator') && c.argv.includes('dump')).length,
    // Asynchronous: a worker blocked in spawnSync for minutes misses vitest's RPC deadline.
    cli: (args, opts = {}) =>
      new Promise((done) => {
        execFile(
          process.execPath,
          [join(repoRoot, 'bin', 'loopgates.js'), ...args],
          { cwd: opts.cwd ?? work, env: { ...env, ...opts.env }, encoding: 'utf8', timeout: 240_000, maxBuffer: 64 * 1024 * 1024 },
          (err, stdout, stderr) => done({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
        );
      }),
    clockMs: () => Number(readFileSync(clock, 'utf8')),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A PATH holding only `git` and `node` (links into a scratch folder): no adb anywhere on it. */
export function pathWithoutAdb(dir: string): string {
  const bin = join(dir, 'bin-no-adb');
  mkdirSync(bin, { recursive: true });
  for (const tool of ['git', 'node']) {
    const where = (process.env.PATH ?? '').split(delimiter).map((d) => join(d, tool)).find((p) => existsSync(p));
    if (where) symlinkSync(where, join(bin, tool));
  }
  return bin;
}
