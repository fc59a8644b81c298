// The scripted device: a fake `adb` (a real executable on PATH, so every call crosses a real process boundary) that
// replays a scenario file. Screens are real `uiautomator dump` XML; transitions say "a tap inside node X leads to
// screen Y after T ms". It records every call and every tap so tests can assert how many dumps and taps were sent.
// It parses dumps with @xmldom/xmldom, not with the saxes parser under test.
//
// Environment: FAKE_ADB_SCENARIO (the scenario JSON; file names in it are relative to it), FAKE_ADB_STATE (a folder it
// keeps its state in: the device's files, calls.jsonl, taps.jsonl, state.json), LOOPGATES_CLOCK (the virtual clock
// file shared with loopgates; without it, the wall clock). Scenario shape: see test/helpers/fake-device.ts.
import { createHash } from 'node:crypto';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

const scenarioFile = process.env.FAKE_ADB_SCENARIO;
const stateDir = process.env.FAKE_ADB_STATE;
if (!scenarioFile || !stateDir) {
  process.stderr.write('fake adb: FAKE_ADB_SCENARIO and FAKE_ADB_STATE must be set\n');
  process.exit(99);
}
const scenario = JSON.parse(readFileSync(scenarioFile, 'utf8'));
const here = dirname(scenarioFile);
const at = (p) => (isAbsolute(p) ? p : resolve(here, p));
const now = () => {
  const f = process.env.LOOPGATES_CLOCK;
  if (!f) return Date.now();
  try {
    return Number(readFileSync(f, 'utf8').trim() || '0');
  } catch {
    return 0;
  }
};

mkdirSync(join(stateDir, 'fs'), { recursive: true });
const stateFile = join(stateDir, 'state.json');
const devices = scenario.devices ?? [{ serial: 'emulator-5554', state: 'device' }];
let state;
if (existsSync(stateFile)) state = JSON.parse(readFileSync(stateFile, 'utf8'));
else {
  state = { screen: scenario.start, pending: null, failures: {} };
  // Files on the device before the run (a stale dump left by an earlier one).
  for (const [remote, local] of Object.entries(scenario.files ?? {})) copyFileSync(at(local), fsPath(remote));
}
const save = () => writeFileSync(stateFile, JSON.stringify(state));
function fsPath(remote) {
  return join(stateDir, 'fs', encodeURIComponent(remote));
}

const argv = process.argv.slice(2);
appendFileSync(join(stateDir, 'calls.jsonl'), `${JSON.stringify({ argv, at: now() })}\n`);
const out = (s) => process.stdout.write(s);
const err = (s) => process.stderr.write(s);

// A pending transition takes effect once its time has come.
if (state.pending && now() >= state.pending.at) {
  state.screen = state.pending.to;
  state.pending = null;
}

async function main() {
  let args = argv;
  if (args[0] === 'devices') {
    out(`List of devices attached\n${devices.map((d) => `${d.serial}\t${d.state}\n`).join('')}\n`);
    return 0;
  }
  if (args[0] === '-s') {
    const serial = args[1];
    const d = devices.find((x) => x.serial === serial);
    if (!d) return fail(`error: device '${serial}' not found\n`);
    if (d.state !== 'device') return fail(`error: device ${d.state}\n`);
    args = args.slice(2);
  } else if (devices.length !== 1) {
    return fail(devices.length ? 'error: more than one device/emulator\n' : 'error: no devices/emulators found\n');
  }
  const [cmd, ...rest] = args;
  if (cmd === 'shell') return await shell(rest);
  if (cmd === 'exec-out' && rest[0] === 'cat') return cat(rest[1]);
  if (cmd === 'pull') return pull(rest[0], rest[1]);
  return fail(`fake adb: unsupported: ${argv.join(' ')}\n`, 99);
}

function fail(text, code = 1) {
  err(text);
  return code;
}

async function shell(args) {
  const [cmd, ...rest] = args;
  if (cmd === 'rm' && rest[0] === '-f') {
    rmSync(fsPath(rest[1]), { force: true });
    return 0;
  }
  if (cmd === 'uiautomator' && rest[0] === 'dump') return dump(rest[1] ?? '/sdcard/window_dump.xml');
  if (cmd === 'input' && rest[0] === 'tap') return await tap(Number(rest[1]), Number(rest[2]));
  if (cmd === 'pm' && rest[0] === 'dump') return pmDump(rest[1]);
  if (cmd === 'pm' && rest[0] === 'path') return pmPath(rest[1]);
  if (cmd === 'sha256sum') return sha256sum(rest[rest.length - 1]);
  if (cmd === 'cat') return cat(rest[0]);
  return fail(`fake adb: unsupported shell command: ${args.join(' ')}\n`, 99);
}

function screenOf(name) {
  const s = scenario.screens[name];
  if (!s) throw new Error(`fake adb: scenario has no screen ${name}`);
  return s;
}

function dump(remote) {
  const screen = screenOf(state.screen);
  // Failures scripted for the first N dumps of a screen (a null root once, then a good dump).
  const scripted = (scenario.dumpFailures ?? []).find((f) => f.screen === state.screen);
  const used = state.failures[state.screen] ?? 0;
  let output;
  if (scripted && used < scripted.times) {
    state.failures[state.screen] = used + 1;
    output = scripted.output;
  } else if (screen.output !== undefined) output = screen.output;
  save();
  // uiautomator prints its errors as text and exits 0, leaving whatever file was there.
  if (output !== undefined) {
    out(`${output}\n`);
    return 0;
  }
  copyFileSync(at(screen.dump), fsPath(remote));
  out(`UI hierchary dumped to: ${remote}\n`);
  return 0;
}

function cat(remote) {
  const p = fsPath(remote);
  if (!existsSync(p)) return fail(`cat: ${remote}: No such file or directory\n`);
  process.stdout.write(readFileSync(p));
  return 0;
}

/** Bounds of the nodes labelled `label` (text, content-desc, resource-id or its part after '/') in a screen's dump. */
async function boundsOfLabel(xml, label) {
  // Loaded only for a tap: every other call stays as cheap as a node start.
  const { DOMParser } = await import('@xmldom/xmldom');
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const found = [];
  const nodes = doc.getElementsByTagName('node');
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes.item(i);
    const id = n.getAttribute('resource-id') ?? '';
    const labels = [n.getAttribute('text'), n.getAttribute('content-desc'), id, id.includes('/') ? id.slice(id.indexOf('/') + 1) : ''];
    if (!labels.includes(label)) continue;
    const m = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/.exec(n.getAttribute('bounds') ?? '');
    if (m) found.push(m.slice(1).map(Number));
  }
  return found;
}

async function tap(x, y) {
  const t = now();
  const from = state.screen;
  let to = null;
  for (const tr of scenario.transitions ?? []) {
    if (tr.from !== from) continue;
    const screen = screenOf(from);
    const boxes = tr.tapInside.startsWith('[')
      ? [tr.tapInside.match(/-?\d+/g).map(Number)]
      : await boundsOfLabel(readFileSync(at(screen.dump), 'utf8'), tr.tapInside);
    if (boxes.some(([x1, y1, x2, y2]) => x >= x1 && x < x2 && y >= y1 && y < y2)) {
      to = tr;
      break;
    }
  }
  appendFileSync(join(stateDir, 'taps.jsonl'), `${JSON.stringify({ x, y, at: t, screen: from, to: to?.to ?? null })}\n`);
  if (to) {
    if ((to.afterMs ?? 0) <= 0) state.screen = to.to;
    else state.pending = { to: to.to, at: t + to.afterMs };
  }
  save();
  return 0;
}

function pmDump(pkg) {
  const p = (scenario.packages ?? {})[pkg];
  // An unknown package: pm dump prints the service's other sections and no "Package [pkg]" block.
  out('Activity Resolver Table:\n  Non-Data Actions:\n\nDexopt state:\n');
  if (!p) return 0;
  out(
    `Packages:\n  Package [${pkg}] (4a1b2c3):\n    userId=10123\n    pkg=Package{7d8e9f0 ${pkg}}\n    codePath=/data/app/~~Qx1==/${pkg}-Zy2==\n` +
      `    versionCode=1 minSdk=24 targetSdk=34\n    flags=[ HAS_CODE ALLOW_CLEAR_USER_DATA ]\n` +
      `    User 0: ceDataInode=123456 installed=${p.installed === false ? 'false' : 'true'} hidden=false suspended=false distractionFlags=0 stopped=false notLaunched=false enabled=${p.enabled ?? 0} instant=false virtual=false\n`,
  );
  return 0;
}

function remotePaths(pkg) {
  const p = (scenario.packages ?? {})[pkg];
  if (!p || p.installed === false) return [];
  const base = `/data/app/~~Qx1==/${pkg}-Zy2==/base.apk`;
  return [[base, p.apk], ...Object.entries(p.splits ?? {}).map(([name, file]) => [`/data/app/~~Qx1==/${pkg}-Zy2==/${name}`, file])];
}

function pmPath(pkg) {
  const paths = remotePaths(pkg);
  if (!paths.length) return 1;
  out(paths.map(([r]) => `package:${r}\n`).join(''));
  return 0;
}

function localOf(remote) {
  for (const pkg of Object.keys(scenario.packages ?? {})) for (const [r, l] of remotePaths(pkg)) if (r === remote) return at(l);
  return undefined;
}

function sha256sum(remote) {
  if (scenario.sha256sum === false) return fail('/system/bin/sh: sha256sum: inaccessible or not found\n', 127);
  const l = localOf(remote);
  if (!l) return fail(`sha256sum: ${remote}: No such file or directory\n`);
  out(`${createHash('sha256').update(readFileSync(l)).digest('hex')}  ${remote}\n`);
  return 0;
}

function pull(remote, local) {
  const l = localOf(remote);
  if (!l) return fail(`adb: error: failed to stat remote object '${remote}': No such file or directory\n`);
  copyFileSync(l, local);
  out(`${remote}: 1 file pulled, 0 skipped.\n`);
  return 0;
}

process.exitCode = await main();
