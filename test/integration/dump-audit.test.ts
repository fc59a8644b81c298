// dump-audit through the built CLI: `run --all` in a repository with and without dump files, and `dump-audit --device`
// on the scripted device (test/helpers/fake-adb).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { uiautomatorCorpus } from '../helpers/corpus.js';
import { fakeDevice, fixture, type FakeDevice, type Scenario } from '../helpers/fake-device.js';

let devices: FakeDevice[] = [];
const device = (s: Scenario) => {
  const d = fakeDevice(s);
  devices.push(d);
  return d;
};
afterEach(() => {
  for (const d of devices) d.remove();
  devices = [];
});
const screens = { home: { dump: fixture('home.xml') }, editor: { dump: fixture('editor.xml') }, busy: { output: 'ERROR: could not get idle state.' } };

describe('loopgates run --all with dump-audit', () => {
  it('skips (exit 0) in a repository without dump files, and fails at the file:line of a committed dump', async () => {
    const d = device({ start: 'home', screens });
    const repo = join(d.dir, 'repo');
    mkdirSync(repo);
    const git = (...a: string[]) => execFileSync('git', a, { cwd: repo, env: d.env });
    git('init', '-q');
    writeFileSync(join(repo, 'README.md'), '# app\n');
    const none = await d.cli(['run', '--all', '--gate', 'dump-audit', '--format', 'json'], { cwd: repo });
    expect(none.code, none.stderr).toBe(0);
    const r0 = JSON.parse(none.stdout).results[0];
    expect(r0).toMatchObject({ gate: 'dump-audit', verdict: 'skip', reason: 'no inputs; allowed by allowEmpty: no uiautomator dump files (*.uix, window_dump*.xml) in this repository' });
    mkdirSync(join(repo, 'app', 'src', 'androidTest', 'assets'), { recursive: true });
    copyFileSync(join(uiautomatorCorpus(), 'Matth33w__js-adb', 'history', '6cc6d73', 'window_dump.xml'), join(repo, 'app', 'src', 'androidTest', 'assets', 'window_dump.xml'));
    const some = await d.cli(['run', '--all', '--gate', 'dump-audit', '--format', 'json'], { cwd: repo });
    expect(some.code).toBe(1);
    const r1 = JSON.parse(some.stdout).results[0];
    expect(r1.verdict).toBe('fail');
    expect(r1.counts).toMatchObject({ files: 1, items: 89 });
    expect(r1.findings.map((f: any) => `${f.file}:${f.line}:${f.column} ${f.rule}`)).toEqual([
      'app/src/androidTest/assets/window_dump.xml:1:22674 ambiguous-label',
      'app/src/androidTest/assets/window_dump.xml:1:24424 ambiguous-label',
    ]);
  });
});

describe('loopgates dump-audit --device', () => {
  it('exit 1 with the findings of the current screen, exit 0 on a clean one, one fresh dump each', async () => {
    const d = device({ start: 'home', screens });
    const r = await d.cli(['dump-audit', '--device']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('screen:27:9  unlabeled-control  clickable ImageButton [780,1731][870,1878] has no text');
    expect(r.stdout).toContain('screen:28:9  zero-area-control');
    expect(r.stdout).toContain('emulator-5554: 21 nodes, 8 clickable, 1 unlabeled, 6 labels on several controls, 1 zero-area: 2 findings\n');
    expect(d.dumps()).toBe(1);
    const clean = await device({ start: 'editor', screens }).cli(['dump-audit', '--device', '--format', 'json']);
    expect(clean.code, clean.stderr).toBe(0);
    expect(JSON.parse(clean.stdout)).toMatchObject({ device: 'emulator-5554', findings: [], counts: { nodes: 10 } });
  });

  it('is red naming the cause when the screen never goes idle (3 attempts)', async () => {
    const d = device({ start: 'busy', screens });
    const r = await d.cli(['dump-audit', '--device']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('RED: the screen of emulator-5554 could not be dumped (3 attempts, flake signature uiautomator-idle-state of rules/flakes.yaml): ERROR: could not get idle state.\n');
    expect(d.dumps()).toBe(3);
  });
});
