// `loopgates device lease | release | status | verify-install`: one owner at a time per device, and the proof that
// the app on it is this build.
import type { CommandIO, Verb } from '../core/command.js';
import { parseVerbArgs } from './args.js';
import { LoopgatesError } from '../core/errors.js';
import { messages } from '../core/messages.js';
import { chooseSerial, connectAndroid, isAttached } from '../scripts/device/android.js';
import { clockFrom } from '../scripts/device/clock.js';
import { proveInstall } from '../scripts/device/install-proof.js';
import { DEFAULT_TTL_MS, describeHolder, leaseDir, leaseState, listLeases, MAX_TTL_MS, processName, processStart, readLease, releaseLease, takeLease } from '../scripts/device/lease.js';
import type { LeaseOwner } from '../scripts/device/lease.js';
import { adbContext, appendDeviceLedger, parseDuration, worktreeOf } from '../scripts/device/session.js';
import { hostname } from 'node:os';

export const deviceUsage = `Usage: loopgates device <lease | release | status | verify-install> [options]

  lease [--serial S] [--ttl DUR] [--pid N]
      Take the device for this worktree: one owner at a time, shared by every repository and worktree of this user.
      A device leased to another worktree is refused, naming the holder. Taking it again from the same worktree
      renews it. The lease ends after --ttl (default 30m, at most 24h) or when its owner process is gone: --pid
      (default: the process that ran loopgates, e.g. your shell; name a longer-lived one if each of your commands
      runs in a fresh shell, as agents and CI steps do, or the lease ends with that shell). With --serial the device
      need not be attached (a lease may be taken before it boots: lease says so). \`loopgates tap\` refuses a device
      leased to another worktree.
  release [--serial S] [--force]
      End this worktree's lease (without --serial: the one it holds; --force: anyone's, said loudly).
  status [--serial S] [--format text|json]
      Every lease (or the one of S): holder, pid, whether it still holds, expiry. Needs no device.
  verify-install --apk <path> --package <pkg> [--serial S]
      Compare the sha256 of the APK the build produced with the installed one (pm path + sha256sum on the device,
      or a pull): exit 1 "the app on the device is not this build" when they differ.

Without --serial, the one attached device (adb devices); several attached refuse (exit 2).
The lease folder: LOOPGATES_LEASE_DIR, else $XDG_STATE_HOME/loopgates/leases, else ~/.local/state/loopgates/leases.

Exit codes: 0 done · 1 refused: held by another worktree, or not this build · 2 adb, the device, the lease folder
or the arguments are broken`;

const SUBCOMMANDS = ['lease', 'release', 'status', 'verify-install'] as const;

async function serialFor(io: CommandIO, serial: string | undefined): Promise<string> {
  return serial ?? (await chooseSerial(adbContext(io), undefined));
}

/** The `device` verb. */
export const deviceVerb: Verb = {
  name: 'device',
  summary: 'Lease a device to this worktree (lease/release/status) and prove the app on it is this build (verify-install).',
  usage: deviceUsage,
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub === undefined || sub === '--help' || sub === '-h') {
      io.stdout(`${deviceUsage}\n`);
      return sub === undefined ? 2 : 0;
    }
    if (!(SUBCOMMANDS as readonly string[]).includes(sub)) throw new LoopgatesError(messages.badArgs(`unknown subcommand '${sub}' (use ${SUBCOMMANDS.join(', ')})`, 'device'), 'loopgates device --help');
    const verb = `device ${sub}`;
    const { values } = parseVerbArgs(
      verb,
      rest,
      {
        serial: { type: 'string' },
        ttl: { type: 'string' },
        pid: { type: 'string' },
        force: { type: 'boolean' },
        apk: { type: 'string' },
        package: { type: 'string' },
        format: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      false,
    );
    if (values.help) {
      io.stdout(`${deviceUsage}\n`);
      return 0;
    }
    const allowed: Record<string, readonly string[]> = { lease: ['serial', 'ttl', 'pid'], release: ['serial', 'force'], status: ['serial', 'format'], 'verify-install': ['serial', 'apk', 'package'] };
    for (const k of Object.keys(values)) {
      if (k !== 'help' && !allowed[sub]!.includes(k)) throw new LoopgatesError(messages.badArgs(`--${k} does not apply to device ${sub}`, 'device'), 'loopgates device --help');
    }
    const clock = clockFrom(io.env);
    const dir = leaseDir(io.env);
    const where = await worktreeOf(io);

    if (sub === 'status') {
      const format = values.format ?? 'text';
      if (format !== 'text' && format !== 'json') throw new LoopgatesError(messages.badFormat(format, ['text', 'json']), 'use --format text or json (loopgates device --help)');
      const all = listLeases(dir, clock).filter((l) => values.serial === undefined || l.lease.device === values.serial);
      if (format === 'json') {
        io.stdout(`${JSON.stringify({ leaseDir: dir, leases: all.map((l) => ({ ...l.lease, state: l.state, mine: l.lease.owner.worktree === where.root })) }, null, 2)}\n`);
        return 0;
      }
      if (all.length === 0) io.stdout(`no leases${values.serial ? ` on ${values.serial}` : ''} (lease folder ${dir})\n`);
      for (const { lease, state } of all) {
        const mine = lease.owner.worktree === where.root ? ' (this worktree)' : '';
        io.stdout(`${lease.device}: ${state === 'held' ? 'held' : state === 'expired' ? 'expired' : 'free: its owner process is gone'} by ${describeHolder(lease)}${mine}\n`);
      }
      return 0;
    }

    if (sub === 'release') {
      // Which lease: the one named, else the one this worktree holds; no device needs to be attached to let go.
      const mine = listLeases(dir, clock).filter((l) => l.lease.owner.worktree === where.root);
      if (values.serial === undefined && mine.length !== 1) {
        if (mine.length === 0) {
          io.stdout(`this worktree holds no lease: nothing to release (loopgates device status)\n`);
          return 0;
        }
        throw new LoopgatesError(messages.badArgs(`this worktree holds ${mine.length} leases (${mine.map((l) => l.lease.device).join(', ')}): name one with --serial`, 'device'), 'loopgates device status');
      }
      const serial = values.serial ?? mine[0]!.lease.device;
      const r = releaseLease(dir, serial, where.root, values.force === true, clock);
      if (r.released) {
        const other = r.lease.owner.worktree !== where.root;
        if (other) io.stderr(`WARNING: released the lease of ${serial} held by ${describeHolder(r.lease)}${values.force ? ' (--force)' : ' (it no longer held)'}\n`);
        else io.stdout(`released ${serial}\n`);
        await appendDeviceLedger(io, where, [{ ts: new Date().toISOString(), kind: 'device', gate: 'lease', verdict: 'released', device: serial, forced: other }]);
        return 0;
      }
      if (r.why === 'none') {
        io.stdout(`${serial} is not leased: nothing to release\n`);
        return 0;
      }
      throw new LoopgatesError(`${serial} is leased to ${describeHolder(r.holder)}, not to this worktree`, `leave it to its holder, or take it from them loudly: loopgates device release --serial ${serial} --force`, 1);
    }

    if (sub === 'lease') {
      const ttlMs = values.ttl === undefined ? DEFAULT_TTL_MS : parseDuration('--ttl', values.ttl, 'device', 1000, MAX_TTL_MS);
      const pid = values.pid === undefined ? process.ppid : Number(values.pid);
      if (!Number.isSafeInteger(pid) || pid <= 0) throw new LoopgatesError(messages.badArgs(`--pid ${values.pid}: not a process id`, 'device'), 'loopgates device --help');
      const serial = await serialFor(io, values.serial);
      // A named serial need not be attached (a lease may be taken before the emulator boots), but say so (F8).
      const attached = values.serial === undefined ? true : await isAttached(adbContext(io), serial);
      const owner: LeaseOwner = { worktree: where.root, pid, pidStart: processStart(pid), host: hostname() };
      const before = readLease(dir, serial);
      const r = takeLease(dir, serial, owner, ttlMs, clock);
      if (!r.taken) {
        throw new LoopgatesError(`${serial} is leased to ${describeHolder(r.holder)}: one owner at a time`, `wait until it is released or expires (loopgates device status), or use another device with --serial`, 1);
      }
      if (r.replaced) io.stderr(`note: the previous lease of ${serial} (${describeHolder(r.replaced.lease)}) ${r.replaced.state === 'expired' ? 'had expired' : 'had lost its owner process'}; replaced\n`);
      // The owner is named with its command and the hint, because the default owner (the parent shell) ends at once
      // when every command runs in a fresh shell (agents, CI steps), and the lease with it (fresh-user F7).
      const comm = processName(pid);
      io.stdout(`${r.renewed ? 'renewed' : 'leased'} ${serial} to ${where.root}: held while pid ${pid}${comm ? ` (${comm})` : ''} lives, until ${new Date(r.lease.expiresAt).toISOString()}; pass --pid <pid> for a longer-lived owner\n`);
      if (attached === false) io.stderr(`note: ${serial} is not attached now (adb devices does not list it); leased anyway: a lease may be taken before the device boots\n`);
      await appendDeviceLedger(io, where, [{ ts: new Date().toISOString(), kind: 'device', gate: 'lease', verdict: r.renewed ? 'renewed' : 'leased', device: serial, ttlMs, replaced: before !== undefined && leaseState(before, clock.now()) !== 'held' }]);
      return 0;
    }

    // verify-install
    if (values.apk === undefined || values.package === undefined) throw new LoopgatesError(messages.badArgs('verify-install needs --apk <path> and --package <pkg>', 'device'), 'loopgates device --help');
    const device = await connectAndroid(adbContext(io), values.serial);
    const proof = await proveInstall(device, values.apk, values.package, io.signal);
    await appendDeviceLedger(io, where, [{ ts: new Date().toISOString(), kind: 'device', gate: 'verify-install', verdict: proof.same ? 'pass' : 'fail', device: device.id, package: proof.package, built: proof.built }]);
    if (!proof.same) {
      io.stdout(`NOT THIS BUILD: ${proof.reason}\n`);
      return 1;
    }
    const splits = proof.installed!.files.length - 1;
    io.stdout(`same build: ${proof.package} on ${device.id} is ${values.apk} (sha256 ${proof.built})${splits ? `; ${splits} split APK${splits === 1 ? '' : 's'} installed beside it, not compared` : ''}\n`);
    return 0;
  },
};
