// `loopgates tap` against the scripted device (test/helpers/fake-adb: a real executable on PATH), with the virtual
// clock shared through LOOPGATES_CLOCK, so "red at 10 s" is an exact figure and takes no 10 s. Every case asserts the
// exit code, the node chosen, the tap point, the taps the device received (never more than 1) and the dumps it served.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { uiautomatorCorpus } from '../helpers/corpus.js';
import { fakeDevice, fixture, pathWithoutAdb, type FakeDevice, type Scenario } from '../helpers/fake-device.js';

const IDLE = 'ERROR: could not get idle state.';
const NULL_ROOT = 'ERROR: null root node returned by UiTestAutomationBridge.';
const launcher = join(uiautomatorCorpus(), 'Matth33w__js-adb', 'window_dump.xml');

const screens = {
  home: { dump: fixture('home.xml') },
  editor: { dump: fixture('editor.xml') },
  settings: { dump: fixture('settings.xml') },
  trash: { dump: fixture('trash.xml') },
  pager: { dump: fixture('pager.xml') },
  launcher: { dump: launcher },
  busy: { output: IDLE },
};

let devices: FakeDevice[] = [];
function device(s: Omit<Scenario, 'screens'> & { screens?: Scenario['screens'] }, options?: Parameters<typeof fakeDevice>[1]): FakeDevice {
  const d = fakeDevice({ screens, ...s }, options);
  devices.push(d);
  return d;
}
afterEach(() => {
  for (const d of devices) d.remove();
  devices = [];
});

const json = (stdout: string) => JSON.parse(stdout) as Record<string, any>;

describe('loopgates tap on a scripted device', () => {
  it('taps the centre of the labelled node once and passes when the expected label appears 3 s later', async () => {
    const d = device({ start: 'home', transitions: [{ from: 'home', tapInside: 'New note', to: 'editor', afterMs: 3000 }] });
    const r = await d.cli(['tap', '--label', 'New note', '--expect', 'Title', '--poll', '1s', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const rep = json(r.stdout);
    expect(rep.verdict).toBe('pass');
    expect(rep.chosen).toMatchObject({ className: 'android.widget.ImageButton', contentDesc: 'New note', bounds: '[891,1731][1038,1878]' });
    expect(rep.tap).toEqual({ x: 964, y: 1804, atMs: 0 });
    expect(rep.timeToExpectMs).toBe(3000);
    expect(rep.polls.map((p: any) => `${p.atMs}:${p.outcome}`)).toEqual(['1000:not-yet', '2000:not-yet', '3000:seen']);
    expect(rep.taps).toBe(1);
    expect(rep.dumps).toBe(4);
    expect(d.taps()).toEqual([{ x: 964, y: 1804, at: 0, screen: 'home', to: 'editor' }]);
    expect(d.dumps()).toBe(4);
  });

  it('is red at exactly the 10 s default bound when the label never appears, having tapped once', async () => {
    const d = device({ start: 'home' });
    const r = await d.cli(['tap', '--label', 'Settings', '--expect', 'Preferences', '--poll', '2s']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('RED (expect-timeout): "Preferences" not seen within 10000 ms of the tap; the tap was not repeated');
    expect(r.stdout).toContain('1 tap, 6 dumps, 10000 ms (virtual clock)');
    expect(r.stdout).toContain('note: uiautomator dump sees only the active window: popups, toasts and some dialogs');
    expect(d.taps()).toEqual([{ x: 996, y: 136, at: 0, screen: 'home', to: null }]);
    expect(d.dumps()).toBe(6);
    expect(d.clockMs()).toBe(10_000);
  });

  it('refuses to guess when two clickable nodes carry the label, listing both, and taps nothing', async () => {
    const d = device({ start: 'trash' });
    const r = await d.cli(['tap', '--label', 'Delete', '--expect', 'Trash is empty', '--format', 'json']);
    expect(r.code, r.stderr).toBe(1);
    const rep = json(r.stdout);
    expect(rep.rule).toBe('ambiguous');
    expect(rep.reason).toBe('"Delete" labels 2 clickable nodes: which one to tap is not guessed; nothing was tapped');
    expect(rep.candidates.map((c: any) => `${c.text} ${c.bounds}`)).toEqual(['Delete [750,250][1038,380]', 'Delete [750,460][1038,590]']);
    expect(rep.taps).toBe(0);
    expect(d.taps()).toEqual([]);
    expect(d.dumps()).toBe(1);
  });

  it('taps the nearest clickable ancestor when the label is on a child node', async () => {
    const d = device({ start: 'home', transitions: [{ from: 'home', tapInside: '[0,210][1080,420]', to: 'editor', afterMs: 500 }] });
    const r = await d.cli(['tap', '--label', 'Groceries', '--expect', 'Title', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const rep = json(r.stdout);
    expect(rep.labelled).toMatchObject({ className: 'android.widget.TextView', text: 'Groceries', bounds: '[42,231][1038,294]' });
    expect(rep.chosen).toMatchObject({ className: 'android.widget.LinearLayout', resourceId: 'com.example.notes:id/note_row', bounds: '[0,210][1080,420]' });
    expect(rep.tap).toMatchObject({ x: 540, y: 315 });
    expect(rep.timeToExpectMs).toBe(500);
    expect(d.taps().length).toBe(1);
    expect(d.dumps()).toBe(2);
  });

  it('matches a Compose testTag as the part of resource-id after "/" and a bare id as it is', async () => {
    const d = device({ start: 'home', transitions: [{ from: 'home', tapInside: 'sync_button', to: 'settings', afterMs: 0 }] });
    const r = await d.cli(['tap', '--label', 'sync_button', '--expect', 'Dark theme', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r.stdout).tap).toMatchObject({ x: 221, y: 1804 });
    const r2 = await device({ start: 'home', transitions: [{ from: 'home', tapInside: 'New note', to: 'editor' }] }).cli(['tap', '--label', 'fab_new_note', '--expect', 'Title', '--format', 'json']);
    expect(r2.code, r2.stderr).toBe(0);
    expect(json(r2.stdout).chosen.resourceId).toBe('com.example.notes:id/fab_new_note');
  });

  it('is red at the bound, naming the cause, when the screen never goes idle after the tap', async () => {
    const d = device({ start: 'home', transitions: [{ from: 'home', tapInside: 'New note', to: 'busy' }] });
    const r = await d.cli(['tap', '--label', 'New note', '--expect', 'Title', '--poll', '2s', '--format', 'json']);
    expect(r.code, r.stderr).toBe(1);
    const rep = json(r.stdout);
    expect(rep.rule).toBe('expect-timeout');
    expect(rep.reason).toBe(`"Title" not seen within 10000 ms of the tap: every dump since the tap failed (5 times; last: ${IDLE}, flake signature uiautomator-idle-state); the tap was not repeated`);
    expect(rep.polls.map((p: any) => p.outcome)).toEqual(['dump-failed', 'dump-failed', 'dump-failed', 'dump-failed', 'dump-failed']);
    expect(rep.polls.map((p: any) => p.signature)).toEqual(Array(5).fill('uiautomator-idle-state'));
    expect(rep.elapsedMs).toBe(10_000);
    expect(d.taps().length).toBe(1);
    expect(d.dumps()).toBe(6);
  });

  it('is red without tapping when the screen never goes idle before the tap (3 dump attempts)', async () => {
    const d = device({ start: 'busy' });
    const r = await d.cli(['tap', '--label', 'New note', '--expect', 'Title']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain(`RED (dump-failed): the screen could not be dumped before the tap (3 attempts, flake signature uiautomator-idle-state of rules/flakes.yaml): ${IDLE}; nothing was tapped`);
    expect(r.stdout).toContain('0 taps, 3 dumps, 1000 ms (virtual clock)');
    expect(d.taps()).toEqual([]);
    expect(d.dumps()).toBe(3);
  });

  it('does not retry a dump failure no flake signature matches: red at once after one dump, naming that none matched', async () => {
    // uiautomator printing only "Killed" (dtmilano/AndroidViewClient#181): not a known transient cause.
    const d = device({ start: 'home', dumpFailures: [{ screen: 'home', times: 3, output: 'Killed' }] });
    const r = await d.cli(['tap', '--label', 'New note', '--expect', 'Title']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('RED (dump-failed): the screen could not be dumped before the tap (no flake signature of rules/flakes.yaml matched, so not retried): uiautomator dump did not say it wrote the file: Killed; nothing was tapped');
    expect(d.dumps()).toBe(1);
    expect(d.taps()).toEqual([]);
  });

  it('retries a dump on a repository signature that replaces the shipped one by id (loopgates.yaml retry.signatures)', async () => {
    const d = device({ start: 'home', dumpFailures: [{ screen: 'home', times: 1, output: 'ERROR: could not get idle state (vendor build).' }], transitions: [{ from: 'home', tapInside: 'New note', to: 'editor' }] });
    const shipped = await d.cli(['tap', '--label', 'New note', '--expect', 'Title']);
    expect(shipped.code, shipped.stderr).toBe(1);
    expect(d.dumps()).toBe(1);
    const work = join(d.dir, 'own');
    mkdirSync(work);
    writeFileSync(
      join(work, 'loopgates.yaml'),
      [
        'version: 1',
        'retry:',
        '  signatures:',
        '    - id: uiautomator-idle-state',
        '      description: this vendor build words the idle time-out its own way',
        "      match: ['^ERROR: could not get idle state\\b']",
        '      source: our device farm log',
        '      samples:',
        "        match: ['ERROR: could not get idle state (vendor build).']",
        "        nearMiss: ['W QueryController: Could not detect idle state.']",
        '',
      ].join('\n'),
    );
    const d2 = device({ start: 'home', dumpFailures: [{ screen: 'home', times: 1, output: 'ERROR: could not get idle state (vendor build).' }], transitions: [{ from: 'home', tapInside: 'New note', to: 'editor' }] });
    const own = await d2.cli(['tap', '--label', 'New note', '--expect', 'Title', '--format', 'json'], { cwd: work });
    expect(own.code, own.stderr).toBe(0);
    expect(json(own.stdout)).toMatchObject({ taps: 1, dumps: 3 });
    expect(d2.dumps()).toBe(3);
  });

  it('retries a null-root dump once and then taps on the good dump', async () => {
    const d = device({ start: 'home', dumpFailures: [{ screen: 'home', times: 1, output: NULL_ROOT }], transitions: [{ from: 'home', tapInside: 'New note', to: 'editor' }] });
    const r = await d.cli(['tap', '--label', 'New note', '--expect', 'Title', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const rep = json(r.stdout);
    expect(rep.tap).toEqual({ x: 964, y: 1804, atMs: 500 });
    expect(rep.dumps).toBe(3);
    expect(rep.timeToExpectMs).toBe(500);
    expect(d.taps().length).toBe(1);
    expect(d.dumps()).toBe(3);
  });

  it('never reads a dump file left from an earlier run: the stale screen\'s label is not tapped', async () => {
    // The device holds an earlier run's dump showing "Export"; the first dump now fails (busy) and writes nothing.
    const d = device({ start: 'home', files: { '/sdcard/window_dump.xml': fixture('stale-home.xml') }, dumpFailures: [{ screen: 'home', times: 1, output: IDLE }] });
    const r = await d.cli(['tap', '--label', 'Export', '--expect', 'Exported', '--format', 'json']);
    expect(r.code, r.stderr).toBe(1);
    const rep = json(r.stdout);
    expect(rep.rule).toBe('no-match');
    expect(rep.candidates.map((c: any) => c.contentDesc || c.text || c.resourceId)).toEqual([
      'Settings',
      'com.example.notes:id/note_row',
      'com.example.notes:id/note_row',
      'com.example.notes:id/note_row',
      'sync_button',
      'Hidden action',
      'New note',
    ]);
    expect(rep.dumps).toBe(2);
    expect(d.taps()).toEqual([]);
    // The file was removed before each dump.
    expect(d.calls().filter((c) => c.argv.join(' ') === '-s emulator-5554 shell rm -f /sdcard/window_dump.xml').length).toBe(2);
  });

  it('refuses a zero-area node and a node whose centre is below the screen, tapping nothing', async () => {
    const d = device({ start: 'home' });
    const zero = await d.cli(['tap', '--label', 'Hidden action', '--expect', 'x', '--format', 'json']);
    expect(zero.code, zero.stderr).toBe(1);
    expect(json(zero.stdout)).toMatchObject({ rule: 'zero-area', taps: 0, chosen: { bounds: '[0,0][0,0]' } });
    const below = await d.cli(['tap', '--label', 'Old ideas', '--expect', 'x', '--format', 'json']);
    expect(below.code, below.stderr).toBe(1);
    const rep = json(below.stdout);
    expect(rep.rule).toBe('off-screen');
    expect(rep.reason).toBe('the centre (540, 1995) of the node "Old ideas" taps lies outside the screen [0,0][1080,1920]: scroll it into view first; nothing was tapped');
    expect(d.taps()).toEqual([]);
    expect(d.dumps()).toBe(2);
  });

  it('looks at pm dump when the app is not in front: a disabled package is named before the build is blamed', async () => {
    const d = device({ start: 'home', transitions: [{ from: 'home', tapInside: 'Settings', to: 'launcher', afterMs: 200 }], packages: { 'com.example.notes': { enabled: 3 } } });
    const r = await d.cli(['tap', '--label', 'Settings', '--expect', 'Preferences', '--timeout', '2s', '--poll', '1s', '--package', 'com.example.notes', '--format', 'json']);
    expect(r.code, r.stderr).toBe(1);
    const rep = json(r.stdout);
    expect(rep.rule).toBe('expect-timeout');
    expect(rep.packageState).toEqual({ package: 'com.example.notes', installed: true, enabled: false, detail: 'installed, enabled=3', foreground: 'com.google.android.apps.nexuslauncher' });
    expect(rep.notes).toContain(
      'com.example.notes is not in the foreground (the screen shows com.google.android.apps.nexuslauncher); pm dump: installed, enabled=3: it is disabled, so it cannot start: enable it (adb shell pm enable com.example.notes) before suspecting the build',
    );
    expect(d.taps().length).toBe(1);
    expect(d.dumps()).toBe(3);
  });

  it('takes the package from loopgates.yaml device.package; --package overrides it; a bad device section is refused at its line', async () => {
    const scenario = { start: 'home', transitions: [{ from: 'home', tapInside: 'Settings', to: 'launcher', afterMs: 200 }], packages: { 'com.example.notes': { enabled: 3 } } };
    const d = device(scenario);
    const work = join(d.dir, 'repo');
    mkdirSync(work);
    writeFileSync(join(work, 'loopgates.yaml'), 'version: 1\ndevice:\n  package: com.example.notes\n');
    const args = ['tap', '--label', 'Settings', '--expect', 'Preferences', '--timeout', '2s', '--poll', '1s', '--format', 'json'];
    const r = await d.cli(args, { cwd: work });
    expect(r.code, r.stderr).toBe(1);
    expect(json(r.stdout).packageState).toEqual({ package: 'com.example.notes', installed: true, enabled: false, detail: 'installed, enabled=3', foreground: 'com.google.android.apps.nexuslauncher' });
    expect(d.calls().filter((c) => c.argv.join(' ') === '-s emulator-5554 shell pm dump com.example.notes').length).toBe(1);

    const d2 = device(scenario);
    const over = await d2.cli([...args, '--package', 'com.example.other'], { cwd: work });
    expect(over.code, over.stderr).toBe(1);
    expect(json(over.stdout).packageState).toMatchObject({ package: 'com.example.other', installed: false });
    expect(d2.calls().some((c) => c.argv.join(' ').includes('pm dump com.example.notes'))).toBe(false);

    writeFileSync(join(work, 'loopgates.yaml'), 'version: 1\ndevice:\n  packge: com.example.notes\n');
    const bad = await device(scenario).cli(args, { cwd: work });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('loopgates.yaml:3');
    expect(bad.stderr).toContain("device.packge: unknown key 'packge'");
  });

  it('refuses when the expected label is on screen before the tap', async () => {
    const d = device({ start: 'home' });
    const r = await d.cli(['tap', '--label', 'New note', '--expect', 'Notes']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('RED (expect-present)');
    expect(d.taps()).toEqual([]);
  });

  it('does not count E that is in the dump only off the screen or with no area: polls to the bound, red naming where E was', async () => {
    // pager.xml: "Title" on the next page (right of the screen), "Collapsed" zero-area, "Behind" at negative bounds,
    // "Below" below it, "Edge" starting at x=1080 (the screen's exclusive edge), "Peeking" half on screen.
    const where: Record<string, string> = {
      Title: 'bounds [1122,231][1380,294], outside the screen [0,0][1080,1920]',
      Collapsed: 'zero area (bounds [42,441][42,504])',
      Behind: 'bounds [-500,-500][-100,-100], outside the screen [0,0][1080,1920]',
      Below: 'bounds [2000,3000][2100,3100], outside the screen [0,0][1080,1920]',
      Edge: 'bounds [1080,600][1300,700], outside the screen [0,0][1080,1920]',
    };
    const lines: Record<string, number> = { Title: 8, Collapsed: 9, Behind: 10, Below: 11, Edge: 12 };
    for (const e of Object.keys(where)) {
      const d = device({ start: 'home', transitions: [{ from: 'home', tapInside: 'New note', to: 'pager', afterMs: 0 }] });
      const r = await d.cli(['tap', '--label', 'New note', '--expect', e, '--timeout', '2s', '--poll', '1s', '--format', 'json']);
      expect(r.code, `${e}: ${r.stderr}`).toBe(1);
      const rep = json(r.stdout);
      expect(rep.rule, e).toBe('expect-off-screen');
      expect(rep.reason, e).toBe(`${JSON.stringify(e)} not seen on the screen within 2000 ms of the tap: the last dump (2000 ms after the tap) holds ${JSON.stringify(e)} only off the screen: ${where[e]} at line ${lines[e]}:9; the tap was not repeated`);
      expect(rep.polls.map((p: any) => `${p.atMs}:${p.outcome}`), e).toEqual(['1000:off-screen', '2000:off-screen']);
      expect(rep.taps).toBe(1);
      expect(d.taps().length).toBe(1);
      expect(d.dumps()).toBe(3);
    }
    const r = await device({ start: 'home', transitions: [{ from: 'home', tapInside: 'New note', to: 'pager', afterMs: 0 }] }).cli(['tap', '--label', 'New note', '--expect', 'Peeking', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject({ verdict: 'pass', timeToExpectMs: 500, taps: 1 });
  });

  it('E only off the screen before the tap is not "on screen already": the tap that brings it on screen passes', async () => {
    const d = device({ start: 'pager', transitions: [{ from: 'pager', tapInside: 'Next', to: 'editor', afterMs: 1000 }] });
    const r = await d.cli(['tap', '--label', 'Next', '--expect', 'Title', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject({ verdict: 'pass', timeToExpectMs: 1000, taps: 1 });
    // Partly on the screen is on it: refused before the tap.
    const d2 = device({ start: 'pager' });
    const on = await d2.cli(['tap', '--label', 'Next', '--expect', 'Peeking']);
    expect(on.code, on.stderr).toBe(1);
    expect(on.stdout).toContain('RED (expect-present)');
    expect(d2.taps()).toEqual([]);
  });

  it('passes with --expect-gone when the label disappears', async () => {
    const d = device({ start: 'home', transitions: [{ from: 'home', tapInside: 'New note', to: 'editor', afterMs: 1000 }] });
    const r = await d.cli(['tap', '--label', 'New note', '--expect-gone', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject({ verdict: 'pass', timeToExpectMs: 1000, taps: 1, dumps: 3 });
  });

  it('runs on the wall clock when LOOPGATES_CLOCK is not set', async () => {
    const d = device({ start: 'home', transitions: [{ from: 'home', tapInside: 'New note', to: 'editor', afterMs: 200 }] }, { clock: 'real' });
    const r = await d.cli(['tap', '--label', 'New note', '--expect', 'Title', '--timeout', '60s', '--poll', '100ms', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const rep = json(r.stdout);
    expect(rep.virtualClock).toBe(false);
    expect(rep.taps).toBe(1);
    expect(d.taps().length).toBe(1);
  });
});

describe('loopgates tap refuses before touching the device', () => {
  it('exits 2 with the install hint when adb is missing', async () => {
    const d = device({ start: 'home' });
    const r = await d.cli(['tap', '--label', 'New note', '--expect', 'Title'], { env: { PATH: pathWithoutAdb(d.dir) } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('loopgates tap: adb was not found on PATH');
    expect(r.stderr).toContain('fix: install adb (Debian/Ubuntu: apt-get install -y adb;');
    expect(d.calls()).toEqual([]);
  });

  it('exits 2 when no device is attached, and when several are attached without --serial', async () => {
    const none = device({ start: 'home', devices: [] });
    const r = await none.cli(['tap', '--label', 'New note', '--expect', 'Title']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no Android device is attached (adb devices lists none)');
    const two = device({ start: 'home', devices: [{ serial: 'emulator-5554', state: 'device' }, { serial: 'R58M12', state: 'device' }], transitions: [{ from: 'home', tapInside: 'New note', to: 'editor' }] });
    const r2 = await two.cli(['tap', '--label', 'New note', '--expect', 'Title']);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain('2 devices are attached (emulator-5554 (device), R58M12 (device)): which one to drive is not guessed');
    expect(r2.stderr).toContain('fix: name one with --serial emulator-5554');
    expect(two.dumps()).toBe(0);
    const r3 = await two.cli(['tap', '--label', 'New note', '--expect', 'Title', '--serial', 'R58M12']);
    expect(r3.code, r3.stderr).toBe(0);
    expect(two.calls().filter((c) => c.argv[0] === '-s').every((c) => c.argv[1] === 'R58M12')).toBe(true);
    expect(two.taps().length).toBe(1);
  });

  it('exits 2 on a device leased to another worktree, and drives it once the lease is released', async () => {
    const d = device({ start: 'home', transitions: [{ from: 'home', tapInside: 'New note', to: 'editor' }] });
    const other = join(d.dir, 'other-worktree');
    mkdirSync(other);
    const sleeper = execFileSync(process.execPath, ['-e', 'const c=require("child_process").spawn(process.execPath,["-e","setTimeout(()=>{},600000)"],{detached:true,stdio:"ignore"});c.unref();console.log(c.pid)'], { encoding: 'utf8' }).trim();
    try {
      const lease = await d.cli(['device', 'lease', '--pid', sleeper], { cwd: other });
      expect(lease.code, lease.stderr).toBe(0);
      const r = await d.cli(['tap', '--label', 'New note', '--expect', 'Title']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`device emulator-5554 is leased to ${other} (pid ${sleeper} on`);
      expect(d.dumps()).toBe(0);
      expect((await d.cli(['device', 'release'], { cwd: other })).code).toBe(0);
      expect((await d.cli(['tap', '--label', 'New note', '--expect', 'Title'])).code).toBe(0);
      expect(d.taps().length).toBe(1);
    } finally {
      process.kill(Number(sleeper));
    }
  });

  it('--apk: exit 1 "not this build" before any dump when the installed APK differs; taps when it is the same', async () => {
    const d = device({ start: 'home', transitions: [{ from: 'home', tapInside: 'New note', to: 'editor' }] });
    const built = join(d.dir, 'app-debug.apk');
    const installed = join(d.dir, 'installed.apk');
    writeFileSync(built, 'PK\u0003\u0004 this build');
    writeFileSync(installed, 'PK\u0003\u0004 another agent\'s build');
    const scenario = JSON.parse(readFileSync(d.env.FAKE_ADB_SCENARIO!, 'utf8'));
    scenario.packages = { 'com.example.notes': { apk: installed } };
    writeFileSync(d.env.FAKE_ADB_SCENARIO!, JSON.stringify(scenario));
    const r = await d.cli(['tap', '--label', 'New note', '--expect', 'Title', '--apk', built, '--package', 'com.example.notes', '--format', 'json']);
    expect(r.code, r.stderr).toBe(1);
    const rep = json(r.stdout);
    expect(rep.rule).toBe('not-this-build');
    expect(rep.reason).toMatch(/^the app on the device is not this build: com\.example\.notes's \/data\/app\/~~Qx1==\/com\.example\.notes-Zy2==\/base\.apk has sha256 [0-9a-f]{12}…, .*app-debug\.apk has [0-9a-f]{12}…; nothing was dumped or tapped$/);
    expect(d.dumps()).toBe(0);
    writeFileSync(installed, readFileSync(built));
    const ok = await d.cli(['tap', '--label', 'New note', '--expect', 'Title', '--apk', built, '--package', 'com.example.notes']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(d.taps().length).toBe(1);
  });

  it('refuses bad arguments with exit 2: no --label, no expectation, a duration without unit', async () => {
    const d = device({ start: 'home' });
    expect((await d.cli(['tap', '--expect', 'x'])).stderr).toContain('--label <L> is required');
    const noExpect = await d.cli(['tap', '--label', 'x']);
    expect(noExpect.code).toBe(2);
    expect(noExpect.stderr).toContain('--expect <E> or --expect-gone');
    const unit = await d.cli(['tap', '--label', 'x', '--expect', 'y', '--timeout', '10']);
    expect(unit.code).toBe(2);
    expect(unit.stderr).toContain('--timeout "10" is not a duration (write it with a unit: 500ms, 10s, 2m, 1h)');
    expect(d.calls()).toEqual([]);
  });
});

describe('the tap ledger', () => {
  it('writes the tap and every poll, with the labels and no other screen text', async () => {
    const d = device({ start: 'home', transitions: [{ from: 'home', tapInside: '[0,210][1080,420]', to: 'editor', afterMs: 1000 }] });
    const repo = join(d.dir, 'repo');
    mkdirSync(repo);
    execFileSync('git', ['init', '-q'], { cwd: repo, env: d.env });
    const r = await d.cli(['tap', '--label', 'Groceries', '--expect', 'Title'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(join(repo, '.git', 'loopgates', 'ledger.jsonl'), 'utf8');
    const lines = text.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => `${l.kind}:${l.event}:${l.verdict}:${l.atMs}`)).toEqual(['tap:dump:ok:0', 'tap:tap:sent:0', 'tap:poll:not-yet:500', 'tap:poll:seen:1000', 'tap:end:pass:1000']);
    expect(lines.every((l) => l.label === 'Groceries' && l.expect === 'Title' && l.device === 'emulator-5554')).toBe(true);
    // Other text of the screens (a note's preview, the editor's "Body") never reaches the ledger.
    expect(text).not.toContain('Milk, eggs');
    expect(text).not.toContain('Body');
  });
});
