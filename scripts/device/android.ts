// The Device of an Android phone or emulator, over adb (developer.android.com/tools/adb) through core/tools.ts, the one
// tool runner. Screens: `uiautomator dump` (developer.android.com/training/testing/other-components/ui-automator),
// which reports its failures as text with exit status 0 and leaves an earlier dump file in place: the file is removed
// before every dump and the command's output read. Taps: `input tap x y`. Package state: `pm dump` / `pm path`.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoopgatesError } from '../../core/errors.js';
import type { RunTool, ToolResult } from '../../core/types.js';
import type { Device, InstalledApp, PackageState, ScreenRead } from './device.js';

/** Where uiautomator writes its dump by default (UiDevice.dumpWindowHierarchy's command-line wrapper). */
export const DUMP_PATH = '/sdcard/window_dump.xml';

/** Bounds of one adb call (ms): a dump waits for the UI to go idle (uiautomator's own wait is about 10 s). */
export const ADB_TIMEOUT_MS = { dump: 30_000, other: 15_000 } as const;

/** One attached device as `adb devices` lists it. */
export interface AttachedDevice {
  serial: string;
  /** `device` (ready), `offline`, `unauthorized`, `no permissions`, `recovery`, ... */
  state: string;
}

/** How AndroidDevice runs adb: the tool runner, the folder and environment to run it in. */
export interface AdbContext {
  runTool: RunTool;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
}

async function adb(ctx: AdbContext, args: readonly string[], timeoutMs: number = ADB_TIMEOUT_MS.other, signal?: AbortSignal): Promise<ToolResult> {
  const s = signal ?? ctx.signal;
  const r = await ctx.runTool('adb', args, { cwd: ctx.cwd, env: ctx.env, extendEnv: false, timeoutMs, ...(s ? { signal: s } : {}) });
  if (r.timedOut) throw new LoopgatesError(`adb ${args.join(' ')} did not finish within ${timeoutMs} ms`, 'check the device answers: adb devices (restart it with: adb kill-server)');
  return r;
}

/** First non-empty line of a tool's output (stderr first), for causes. */
const firstLine = (r: ToolResult): string =>
  `${r.stderr}\n${r.stdout}`.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? `no output, exit ${String(r.exitCode)}`;

/** Parse `adb devices` output: one `serial<TAB>state` line per device after the header. */
export function parseDevices(stdout: string): AttachedDevice[] {
  const out: AttachedDevice[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^(\S+)\t(.+)$/.exec(line.trimEnd());
    if (m) out.push({ serial: m[1]!, state: m[2]!.trim() });
  }
  return out;
}

/**
 * Whether `serial` is in `adb devices` now: true/false, or undefined when adb cannot say (missing, failing). `device
 * lease --serial S` does not need the device (a lease may be taken before the emulator boots); this only lets it say so.
 */
export async function isAttached(ctx: AdbContext, serial: string): Promise<boolean | undefined> {
  try {
    const r = await adb(ctx, ['devices']);
    return r.exitCode === 0 ? parseDevices(r.stdout).some((d) => d.serial === serial) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The serial to drive: `serial` when given and attached in state `device`, else the one device attached. Throws
 * LoopgatesError (exit 2) when adb is missing (ToolMissingError with its install hint), when no device is attached,
 * when several are and `serial` is not given (naming them), or when the chosen one is not ready (offline, unauthorized).
 */
export async function chooseSerial(ctx: AdbContext, serial: string | undefined): Promise<string> {
  const r = await adb(ctx, ['devices']);
  if (r.exitCode !== 0) throw new LoopgatesError(`adb devices failed: ${firstLine(r)}`, 'restart the adb server: adb kill-server && adb devices');
  const all = parseDevices(r.stdout);
  const listed = all.map((d) => `${d.serial} (${d.state})`).join(', ');
  if (serial !== undefined) {
    const d = all.find((x) => x.serial === serial);
    if (!d) throw new LoopgatesError(`device ${serial} is not attached (adb devices lists: ${listed || 'none'})`, 'connect it (adb connect host:port, or start the emulator), or name an attached one with --serial');
    if (d.state !== 'device') throw new LoopgatesError(`device ${serial} is ${d.state}, not ready`, notReadyFix(d.state));
    return serial;
  }
  if (all.length === 0) throw new LoopgatesError('no Android device is attached (adb devices lists none)', 'start an emulator (emulator -avd <name>) or connect a phone with USB debugging on, then check: adb devices');
  if (all.length > 1) throw new LoopgatesError(`${all.length} devices are attached (${listed}): which one to drive is not guessed`, `name one with --serial ${all[0]!.serial}`);
  const only = all[0]!;
  if (only.state !== 'device') throw new LoopgatesError(`device ${only.serial} is ${only.state}, not ready`, notReadyFix(only.state));
  return only.serial;
}

function notReadyFix(state: string): string {
  if (state === 'unauthorized') return 'accept the USB debugging prompt on the device, then check: adb devices';
  if (state === 'offline') return 'reconnect it or restart adb (adb kill-server), then check: adb devices';
  return 'check it with: adb devices';
}

/** Parse `pm dump <pkg>` for whether `pkg` is installed and its enabled state (first user listed). */
export function parsePackageDump(pkg: string, stdout: string): PackageState {
  const header = new RegExp(`^\\s*Package \\[${pkg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\]`, 'm');
  if (!header.test(stdout)) return { package: pkg, installed: false, enabled: undefined, detail: 'not installed (pm dump lists no such package)' };
  const user = /^\s*User \d+:.*$/m.exec(stdout)?.[0] ?? '';
  const installed = /\binstalled=(true|false)\b/.exec(user)?.[1];
  const enabled = /\benabled=(\d+)\b/.exec(user)?.[1];
  if (installed === 'false') return { package: pkg, installed: false, enabled: undefined, detail: 'installed=false for the user (pm dump)' };
  // PackageManager.COMPONENT_ENABLED_STATE_*: 0 DEFAULT and 1 ENABLED run; 2 DISABLED, 3 DISABLED_USER, 4 DISABLED_UNTIL_USED do not.
  const state = enabled === undefined ? undefined : Number(enabled) <= 1;
  return { package: pkg, installed: true, enabled: state, detail: enabled === undefined ? 'installed; pm dump reports no enabled= state' : `installed, enabled=${enabled}` };
}

/** An Android device over adb. Build it with `connectAndroid` (which checks adb and chooses the serial). */
export class AndroidDevice implements Device {
  readonly platform = 'android';
  constructor(
    readonly id: string,
    private readonly ctx: AdbContext,
  ) {}

  private call(args: readonly string[], timeoutMs?: number, signal?: AbortSignal): Promise<ToolResult> {
    return adb(this.ctx, ['-s', this.id, ...args], timeoutMs, signal);
  }

  async readScreen(signal?: AbortSignal): Promise<ScreenRead> {
    // A failed dump leaves the previous file in place: without this, a stale screen would be read as the current one.
    const rm = await this.call(['shell', 'rm', '-f', DUMP_PATH], undefined, signal);
    if (rm.exitCode !== 0) return { ok: false, cause: `could not remove the previous dump file: ${firstLine(rm)}` };
    const dump = await this.call(['shell', 'uiautomator', 'dump', DUMP_PATH], ADB_TIMEOUT_MS.dump, signal);
    const said = `${dump.stdout}\n${dump.stderr}`;
    const error = said.split('\n').map((l) => l.trim()).find((l) => /^ERROR\b/i.test(l) || /^error:/.test(l));
    if (error) return { ok: false, cause: error, output: said };
    if (dump.exitCode !== 0) return { ok: false, cause: `uiautomator dump exited ${String(dump.exitCode)}: ${firstLine(dump)}`, output: said };
    if (!/dumped to/i.test(said)) return { ok: false, cause: `uiautomator dump did not say it wrote the file: ${firstLine(dump)}`, output: said };
    const cat = await this.call(['exec-out', 'cat', DUMP_PATH], undefined, signal);
    if (cat.exitCode !== 0) return { ok: false, cause: `the dump file could not be read: ${firstLine(cat)}` };
    return { ok: true, xml: cat.stdout };
  }

  async tap(x: number, y: number, signal?: AbortSignal): Promise<void> {
    const r = await this.call(['shell', 'input', 'tap', String(x), String(y)], undefined, signal);
    if (r.exitCode !== 0 || /\b(error|exception)\b/i.test(r.stderr)) {
      throw new LoopgatesError(`input tap ${x} ${y} on ${this.id} failed: ${firstLine(r)}`, 'check the device answers: adb devices');
    }
  }

  async packageState(pkg: string, signal?: AbortSignal): Promise<PackageState> {
    const r = await this.call(['shell', 'pm', 'dump', pkg], undefined, signal);
    if (r.exitCode !== 0) throw new LoopgatesError(`pm dump ${pkg} on ${this.id} failed: ${firstLine(r)}`, 'check the device answers: adb devices');
    return parsePackageDump(pkg, r.stdout);
  }

  async installedApp(pkg: string, signal?: AbortSignal): Promise<InstalledApp | undefined> {
    const r = await this.call(['shell', 'pm', 'path', pkg], undefined, signal);
    const paths = r.stdout
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('package:'))
      .map((l) => l.slice('package:'.length));
    if (paths.length === 0) return undefined;
    // base.apk first: it is what a one-APK build compares with; split APKs follow.
    paths.sort((a, b) => Number(!a.endsWith('/base.apk')) - Number(!b.endsWith('/base.apk')) || a.localeCompare(b));
    const files: InstalledApp['files'] = [];
    for (const path of paths) files.push({ path, sha256: await this.digest(path, signal) });
    return { package: pkg, files };
  }

  /** sha256 of a device file: the device's own sha256sum (toybox, Android 6+), else the file pulled and hashed here. */
  private async digest(path: string, signal?: AbortSignal): Promise<string> {
    const r = await this.call(['shell', 'sha256sum', path], undefined, signal);
    const m = /^([0-9a-f]{64})\s/.exec(r.stdout.trim());
    if (r.exitCode === 0 && m) return m[1]!;
    const dir = mkdtempSync(join(tmpdir(), 'loopgates-apk-'));
    try {
      const local = join(dir, 'app.apk');
      const pull = await this.call(['pull', path, local], 120_000, signal);
      if (pull.exitCode !== 0) throw new LoopgatesError(`cannot read ${path} from ${this.id}: sha256sum said ${firstLine(r)}; adb pull said ${firstLine(pull)}`, 'check the device answers: adb devices');
      return createHash('sha256').update(readFileSync(local)).digest('hex');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

/** Choose the device (see chooseSerial) and return it. Throws LoopgatesError (exit 2) as chooseSerial does. */
export async function connectAndroid(ctx: AdbContext, serial: string | undefined): Promise<AndroidDevice> {
  return new AndroidDevice(await chooseSerial(ctx, serial), ctx);
}
