// `loopgates device lease | release | status | verify-install` against the scripted device, with the lease folder in
// the test's own temp dir (LOOPGATES_LEASE_DIR) and the virtual clock (LOOPGATES_CLOCK) for TTL expiry.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeDevice, fixture, type FakeDevice, type Scenario } from '../helpers/fake-device.js';
import { LOOPGATES } from '../helpers/setup-env.js';

let devices: FakeDevice[] = [];
const pids: number[] = [];
function device(s: Partial<Scenario> = {}): FakeDevice {
  const d = fakeDevice({ start: 'home', screens: { home: { dump: fixture('home.xml') } }, ...s });
  devices.push(d);
  return d;
}
afterEach(() => {
  for (const d of devices) d.remove();
  devices = [];
  for (const p of pids.splice(0)) {
    try {
      process.kill(p);
    } catch {
      /* already gone */
    }
  }
});

/** A process that lives until killed: the lease's owner. */
function owner(): number {
  const pid = Number(
    execFileSync(process.execPath, ['-e', 'const c=require("child_process").spawn(process.execPath,["-e","setTimeout(()=>{},600000)"],{detached:true,stdio:"ignore"});c.unref();console.log(c.pid)'], { encoding: 'utf8' }).trim(),
  );
  pids.push(pid);
  return pid;
}

function worktree(d: FakeDevice, name: string): string {
  const dir = join(d.dir, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

describe('loopgates device lease', () => {
  it('gives the device to one worktree: a second worktree is refused naming the holder; the holder renews', async () => {
    const d = device();
    const a = worktree(d, 'wt-a');
    const b = worktree(d, 'wt-b');
    const pa = owner();
    const first = await d.cli(['device', 'lease', '--pid', String(pa), '--ttl', '10m'], { cwd: a });
    expect(first.code, first.stderr).toBe(0);
    // The owner and how long it holds are said, with the hint for commands that each run in a fresh shell (F7).
    expect(first.stdout).toBe(`leased emulator-5554 to ${a}: held while pid ${pa} (node) lives, until 1970-01-01T00:10:00.000Z; pass --pid <pid> for a longer-lived owner\n`);
    expect(first.stderr).not.toContain('not attached');
    const second = await d.cli(['device', 'lease', '--pid', String(owner())], { cwd: b });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`emulator-5554 is leased to ${a} (pid ${pa} on `);
    expect(second.stderr).toContain('one owner at a time');
    const again = await d.cli(['device', 'lease', '--pid', String(pa), '--ttl', '20m'], { cwd: a });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('renewed emulator-5554');
    const status = await d.cli(['device', 'status', '--format', 'json'], { cwd: a });
    const leases = JSON.parse(status.stdout).leases;
    expect(leases).toHaveLength(1);
    expect(leases[0]).toMatchObject({ device: 'emulator-5554', state: 'held', mine: true, expiresAt: 20 * 60_000, owner: { worktree: a, pid: pa } });
    // Nothing but the lease file is left in the folder (the temp file it was linked from is gone).
    expect(readdirSync(d.env.LOOPGATES_LEASE_DIR!)).toEqual(['emulator-5554.json']);
  });

  it('--serial of a device adb does not list is leased on purpose (before it boots), and says so (F8)', async () => {
    const d = device();
    const a = worktree(d, 'wt-a');
    const r = await d.cli(['device', 'lease', '--serial', 'emulator-5556', '--pid', String(owner())], { cwd: a });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('leased emulator-5556 to ');
    expect(r.stderr).toBe('note: emulator-5556 is not attached now (adb devices does not list it); leased anyway: a lease may be taken before the device boots\n');
  });

  it('expires by TTL: after it, another worktree takes the device and is told the old lease had expired', async () => {
    const d = device();
    const a = worktree(d, 'wt-a');
    const b = worktree(d, 'wt-b');
    expect((await d.cli(['device', 'lease', '--pid', String(owner()), '--ttl', '1m'], { cwd: a })).code).toBe(0);
    writeFileSync(d.env.LOOPGATES_CLOCK!, String(59_999));
    expect((await d.cli(['device', 'lease', '--pid', String(owner())], { cwd: b })).code).toBe(1);
    writeFileSync(d.env.LOOPGATES_CLOCK!, String(60_000));
    const r = await d.cli(['device', 'lease', '--pid', String(owner())], { cwd: b });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`note: the previous lease of emulator-5554 (${a} (pid `);
    expect(r.stderr).toContain('had expired; replaced');
    expect(r.stdout).toContain(`leased emulator-5554 to ${b}`);
  });

  it('expires when the owner process is gone', async () => {
    const d = device();
    const a = worktree(d, 'wt-a');
    const b = worktree(d, 'wt-b');
    const pa = owner();
    expect((await d.cli(['device', 'lease', '--pid', String(pa)], { cwd: a })).code).toBe(0);
    const held = await d.cli(['device', 'status'], { cwd: b });
    expect(held.stdout).toContain('emulator-5554: held by');
    process.kill(pa);
    await new Promise((r) => setTimeout(r, 200));
    const status = await d.cli(['device', 'status'], { cwd: b });
    expect(status.stdout).toContain(`emulator-5554: free: its owner process is gone by ${a} (pid ${pa} on`);
    const r = await d.cli(['device', 'lease', '--pid', String(owner())], { cwd: b });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('had lost its owner process; replaced');
  });

  it('is taken atomically: of 6 worktrees leasing at once, exactly one wins', async () => {
    const d = device();
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => d.cli(['device', 'lease', '--serial', 'emulator-5554', '--pid', String(owner())], { cwd: worktree(d, `wt-${i}`) })));
    expect(results.map((r) => r.code).sort()).toEqual([0, 1, 1, 1, 1, 1]);
    const winner = results.findIndex((r) => r.code === 0);
    for (const r of results.filter((x) => x.code === 1)) expect(r.stderr).toContain(`emulator-5554 is leased to ${join(d.dir, `wt-${winner + 1}`)} (pid`);
    expect(readdirSync(d.env.LOOPGATES_LEASE_DIR!)).toEqual(['emulator-5554.json']);
  });

  it('release: the holder releases; another worktree is refused unless --force, which warns', async () => {
    const d = device();
    const a = worktree(d, 'wt-a');
    const b = worktree(d, 'wt-b');
    expect((await d.cli(['device', 'lease', '--pid', String(owner())], { cwd: a })).code).toBe(0);
    const refused = await d.cli(['device', 'release', '--serial', 'emulator-5554'], { cwd: b });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`emulator-5554 is leased to ${a}`);
    expect(refused.stderr).toContain(`fix: leave it to its holder, or take it from them loudly: ${LOOPGATES} device release --serial emulator-5554 --force`);
    const forced = await d.cli(['device', 'release', '--serial', 'emulator-5554', '--force'], { cwd: b });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain(`WARNING: released the lease of emulator-5554 held by ${a}`);
    expect((await d.cli(['device', 'status'], { cwd: a })).stdout).toContain('no leases');
    expect((await d.cli(['device', 'lease', '--pid', String(owner())], { cwd: a })).code).toBe(0);
    const mine = await d.cli(['device', 'release'], { cwd: a });
    expect(mine.code, mine.stderr).toBe(0);
    expect(mine.stdout).toBe('released emulator-5554\n');
    expect(readdirSync(d.env.LOOPGATES_LEASE_DIR!)).toEqual([]);
  });

  it('refuses a file in the lease folder that is not a lease, naming it', async () => {
    const d = device();
    mkdirSync(d.env.LOOPGATES_LEASE_DIR!, { recursive: true });
    writeFileSync(join(d.env.LOOPGATES_LEASE_DIR!, 'emulator-5554.json'), 'not json');
    const r = await d.cli(['device', 'lease', '--pid', String(owner())]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the lease file ${join(d.env.LOOPGATES_LEASE_DIR!, 'emulator-5554.json')} is not a loopgates lease`);
  });
});

describe('loopgates device verify-install', () => {
  function withApks(s: Partial<Scenario> = {}) {
    const d = device(s);
    const built = join(d.dir, 'app-debug.apk');
    writeFileSync(built, 'PK\u0003\u0004 build 42');
    return { d, built };
  }

  it('exit 0 when the installed base APK is this build, by the device\'s sha256sum and by a pull without it', async () => {
    for (const sha256sum of [true, false]) {
      const d = device();
      const built = join(d.dir, 'app-debug.apk');
      writeFileSync(built, 'PK\u0003\u0004 build 42');
      const scenario = { start: 'home', screens: { home: { dump: fixture('home.xml') } }, sha256sum, packages: { 'com.example.notes': { apk: built } } };
      writeFileSync(d.env.FAKE_ADB_SCENARIO!, JSON.stringify(scenario));
      const r = await d.cli(['device', 'verify-install', '--apk', built, '--package', 'com.example.notes']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`same build: com.example.notes on emulator-5554 is ${built} (sha256 ${createHash('sha256').update(readFileSync(built)).digest('hex')})\n`);
      expect(d.calls().some((c) => c.argv.includes('pull'))).toBe(!sha256sum);
    }
  });

  it('exit 1 "not this build" when another APK is installed, and when the package is not installed', async () => {
    const { d, built } = withApks();
    const other = join(d.dir, 'other.apk');
    writeFileSync(other, 'PK\u0003\u0004 build 41');
    writeFileSync(d.env.FAKE_ADB_SCENARIO!, JSON.stringify({ start: 'home', screens: { home: { dump: fixture('home.xml') } }, packages: { 'com.example.notes': { apk: other } } }));
    const r = await d.cli(['device', 'verify-install', '--apk', built, '--package', 'com.example.notes']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^NOT THIS BUILD: the app on the device is not this build: com\.example\.notes's \/data\/app\/~~Qx1==\/com\.example\.notes-Zy2==\/base\.apk has sha256 [0-9a-f]{12}…/);
    const missing = await d.cli(['device', 'verify-install', '--apk', built, '--package', 'com.example.absent']);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('NOT THIS BUILD: com.example.absent is not installed on emulator-5554: the app on the device is not this build\n');
  });

  it('exit 2 when the APK file does not exist', async () => {
    const d = device();
    const r = await d.cli(['device', 'verify-install', '--apk', join(d.dir, 'nope.apk'), '--package', 'com.example.notes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no such file');
    expect(r.stderr).toContain('fix: build it first (for example ./gradlew assembleDebug) and pass its path with --apk');
  });
});
