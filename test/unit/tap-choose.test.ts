// The tap loop's pure parts: the dump parser over the real corpus dumps and our fixtures, where a label taps, the
// adb output parsers, durations and the lease folder.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDevices, parsePackageDump } from '../../scripts/device/android.js';
import { centreOf, DumpParseError, labelsOf, parseDump, screenBounds } from '../../scripts/device/dump.js';
import { leaseDir } from '../../scripts/device/lease.js';
import { parseDuration } from '../../scripts/device/session.js';
import { shippedSignatures } from '../../scripts/retry/signatures.js';
import { chooseTarget, dumpFlakes, matcher, retriedAs } from '../../scripts/tap/loop.js';
import { uiautomatorCorpus } from '../helpers/corpus.js';
import { fixture } from '../helpers/fake-device.js';

const corpus = join(uiautomatorCorpus(), 'Matth33w__js-adb');
const dumpOf = (path: string) => parseDump(readFileSync(path, 'utf8'));
const exact = (l: string) => matcher(l, 'exact');

describe('parseDump', () => {
  it('parses both corpus dumps: node counts from their MANIFEST, the launcher screen 1080x1794', () => {
    const launcher = dumpOf(join(corpus, 'window_dump.xml'));
    const youtube = dumpOf(join(corpus, 'history', '6cc6d73', 'window_dump.xml'));
    expect(launcher.nodes.length).toBe(25);
    expect(youtube.nodes.length).toBe(89);
    expect(launcher.hierarchy).toBe(true);
    expect(screenBounds(launcher)).toEqual({ x1: 0, y1: 0, x2: 1080, y2: 1794 });
    expect(launcher.nodes[0]!.packageName).toBe('com.google.android.apps.nexuslauncher');
    // One-line dumps: every node is on line 1; the column is the node's '<'.
    expect(launcher.nodes.every((n) => n.line === 1)).toBe(true);
    expect(launcher.nodes[0]!.column).toBe(readFileSync(join(corpus, 'window_dump.xml'), 'utf8').indexOf('<node') + 1);
  });

  it('gives 1-based line and column of each node in a pretty-printed dump', () => {
    const home = dumpOf(fixture('home.xml'));
    const fab = home.nodes.find((n) => n.contentDesc === 'New note')!;
    const lines = readFileSync(fixture('home.xml'), 'utf8').split('\n');
    expect(lines[fab.line - 1]!.slice(fab.column - 1).startsWith('<node index="5" text="" resource-id="com.example.notes:id/fab_new_note"')).toBe(true);
  });

  it('throws DumpParseError for a torn dump and a non-dump root; an empty hierarchy has zero nodes', () => {
    expect(() => dumpOf(fixture('torn.xml'))).toThrow(DumpParseError);
    expect(() => parseDump('<resources><string name="a">b</string></resources>')).toThrow(/not <hierarchy> or <node>/);
    expect(dumpOf(fixture('empty.xml')).nodes).toEqual([]);
  });

  it('reads labels as tap matches them: text, content-desc, resource-id and the part after "/"', () => {
    const row = dumpOf(fixture('home.xml')).nodes.find((n) => n.text === 'Groceries')!;
    expect(labelsOf(row)).toEqual(['Groceries', 'com.example.notes:id/note_title', 'note_title']);
    expect(centreOf({ x1: 933, y1: 84, x2: 1059, y2: 189 })).toEqual({ x: 996, y: 136 });
  });
});

describe('chooseTarget', () => {
  const home = dumpOf(fixture('home.xml'));
  it('picks the clickable node itself, or the nearest clickable ancestor of a labelled child', () => {
    const fab = chooseTarget(home, 'New note', exact('New note'));
    expect(fab).toMatchObject({ ok: true, point: { x: 964, y: 1804 }, target: { contentDesc: 'New note' } });
    const child = chooseTarget(home, 'Sync now', exact('Sync now'));
    expect(child).toMatchObject({ ok: true, point: { x: 221, y: 1804 }, target: { resourceId: 'sync_button' }, labelled: { text: 'Sync now' } });
  });

  it('is red for a label on several clickable nodes, none, a disabled, zero-area or off-screen node', () => {
    expect(chooseTarget(home, 'note_title', exact('note_title'))).toMatchObject({ ok: false, rule: 'ambiguous' });
    expect((chooseTarget(home, 'note_title', exact('note_title')) as { candidates: unknown[] }).candidates).toHaveLength(3);
    expect(chooseTarget(home, 'Nope', exact('Nope'))).toMatchObject({ ok: false, rule: 'no-match' });
    expect(chooseTarget(home, 'Hidden action', exact('Hidden action'))).toMatchObject({ ok: false, rule: 'zero-area' });
    expect(chooseTarget(home, 'Old ideas', exact('Old ideas'))).toMatchObject({ ok: false, rule: 'off-screen' });
    expect(chooseTarget(home, 'Notes', exact('Notes'))).toMatchObject({ ok: false, rule: 'not-clickable' });
    expect(chooseTarget(dumpOf(fixture('disabled-save.xml')), 'Save', exact('Save'))).toMatchObject({ ok: false, rule: 'disabled' });
  });

  it('matches exactly and case-sensitively; --match regex searches', () => {
    expect(chooseTarget(home, 'new note', exact('new note'))).toMatchObject({ ok: false, rule: 'no-match' });
    expect(chooseTarget(home, 'New', exact('New'))).toMatchObject({ ok: false, rule: 'no-match' });
    expect(chooseTarget(home, '^New', matcher('^New', 'regex'))).toMatchObject({ ok: true, target: { contentDesc: 'New note' } });
    expect(() => matcher('(', 'regex')).toThrow(/not a valid regular expression/);
  });

  it('on the real corpus dumps: Chrome on the launcher; on YouTube "More actions" is ambiguous and "Shorts" taps the tab', () => {
    const launcher = dumpOf(join(corpus, 'window_dump.xml'));
    expect(chooseTarget(launcher, 'Chrome', exact('Chrome'))).toMatchObject({ ok: true, point: { x: 742, y: 1465 } });
    expect(chooseTarget(launcher, 'mic_icon', exact('mic_icon'))).toMatchObject({ ok: true, point: { x: 940, y: 1685 }, target: { contentDesc: 'Voice search' } });
    const youtube = dumpOf(join(corpus, 'history', '6cc6d73', 'window_dump.xml'));
    const more = chooseTarget(youtube, 'More actions', exact('More actions'));
    expect(more).toMatchObject({ ok: false, rule: 'ambiguous' });
    expect((more as { candidates: Array<{ bounds: unknown }> }).candidates.map((c) => c.bounds)).toEqual([
      { x1: 433, y1: 1318, x2: 480, y2: 1365 },
      { x1: 924, y1: 1318, x2: 971, y2: 1365 },
    ]);
    // "Shorts" is also the shelf's heading (focusable, no clickable ancestor): only the tab is a target.
    expect(chooseTarget(youtube, 'Shorts', exact('Shorts'))).toMatchObject({ ok: true, point: { x: 405, y: 1728 }, target: { className: 'android.widget.Button' } });
  });
});

describe('adb output', () => {
  it('parses adb devices, daemon start lines included', () => {
    expect(parseDevices('* daemon not running; starting now at tcp:5037\n* daemon started successfully\nList of devices attached\nemulator-5554\tdevice\nR58M12\tunauthorized\n\n')).toEqual([
      { serial: 'emulator-5554', state: 'device' },
      { serial: 'R58M12', state: 'unauthorized' },
    ]);
  });

  it('parses pm dump: installed and enabled=, and a package it does not list', () => {
    const out = 'Packages:\n  Package [com.example.notes] (4a1b2c3):\n    userId=10123\n    User 0: ceDataInode=1 installed=true hidden=false suspended=false stopped=false notLaunched=false enabled=3 instant=false virtual=false\n';
    expect(parsePackageDump('com.example.notes', out)).toEqual({ package: 'com.example.notes', installed: true, enabled: false, detail: 'installed, enabled=3' });
    expect(parsePackageDump('com.example.notes', out.replace('enabled=3', 'enabled=0')).enabled).toBe(true);
    expect(parsePackageDump('com.example.other', out)).toMatchObject({ installed: false, enabled: undefined });
    // A dot in the id is not a wildcard.
    expect(parsePackageDump('com.example.notez', out.replace('com.example.notes', 'comXexampleXnotez')).installed).toBe(false);
  });

  it('retries a failed dump only on a dump flake signature of rules/flakes.yaml, or on the empty/torn file checks', () => {
    const flakes = dumpFlakes(shippedSignatures().flakes);
    expect(flakes.map((f) => f.spec.id)).toEqual(['uiautomator-idle-state', 'uiautomator-null-root']);
    const said = (output: string) => retriedAs({ cause: output, output: `${output}\n` }, flakes);
    expect(said('ERROR: could not get idle state.')).toEqual({ kind: 'signature', id: 'uiautomator-idle-state', origin: 'shipped' });
    expect(said('ERROR: null root node returned by UiTestAutomationBridge.')).toEqual({ kind: 'signature', id: 'uiautomator-null-root', origin: 'shipped' });
    expect(retriedAs({ cause: 'the dump holds no node (a failed dump, not an empty screen)', check: 'dump-empty' }, flakes)).toEqual({ kind: 'check', id: 'dump-empty' });
    expect(said("error: device 'x' not found")).toBeNull();
    expect(said('Killed')).toBeNull();
    // Other flake signatures (adb-device-offline) are not a dump's: the tap loop retries only its own two.
    expect(said('adb: device offline')).toBeNull();
    const bare = shippedSignatures().flakes.filter((f) => f.spec.id !== 'uiautomator-null-root');
    expect(() => dumpFlakes(bare)).toThrow(/uiautomator-null-root .* is not in rules\/flakes.yaml/);
  });
});

describe('durations and the lease folder', () => {
  it('parses durations with a unit and refuses them without', () => {
    expect(parseDuration('--timeout', '10s', 'tap')).toBe(10_000);
    expect(parseDuration('--poll', '500ms', 'tap')).toBe(500);
    expect(parseDuration('--ttl', '1.5m', 'device')).toBe(90_000);
    expect(() => parseDuration('--timeout', '10', 'tap')).toThrow(/not a duration/);
    expect(() => parseDuration('--timeout', '0ms', 'tap')).toThrow(/outside/);
  });

  it('puts leases in LOOPGATES_LEASE_DIR, else XDG_STATE_HOME, else ~/.local/state', () => {
    expect(leaseDir({ LOOPGATES_LEASE_DIR: '/t/l', XDG_STATE_HOME: '/x' })).toBe('/t/l');
    expect(leaseDir({ XDG_STATE_HOME: '/x', HOME: '/h' })).toBe('/x/loopgates/leases');
    expect(leaseDir({ HOME: '/h' })).toBe('/h/.local/state/loopgates/leases');
  });
});
