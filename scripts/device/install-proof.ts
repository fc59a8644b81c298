// The install proof: is the app on the device the build this worktree produced? A green device run against an APK
// another agent installed proves nothing about this change. Compares the sha256 of the built APK with the installed
// package's base APK (`pm path` + the device's sha256sum, or a pull).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { LoopgatesError } from '../../core/errors.js';
import type { Device, InstalledApp } from './device.js';

/** The outcome of comparing a built APK with what the device has installed. */
export interface InstallProof {
  /** Whether the installed base APK is byte for byte the built one. */
  same: boolean;
  package: string;
  apk: string;
  /** sha256 (hex) of the built APK. */
  built: string;
  installed: InstalledApp | undefined;
  /** Why it is not the same, in one sentence; undefined when it is. */
  reason?: string;
}

/** sha256 (hex) of the file at `path`. Throws LoopgatesError (exit 2) when there is no such file. */
export function fileSha256(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new LoopgatesError(`cannot read the APK ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`, 'build it first (for example ./gradlew assembleDebug) and pass its path with --apk');
  }
  return createHash('sha256').update(bytes).digest('hex');
}

/** Compare `apk` with `pkg` as installed on `device`. Throws LoopgatesError (exit 2) when the APK or the device cannot be read. */
export async function proveInstall(device: Device, apk: string, pkg: string, signal?: AbortSignal): Promise<InstallProof> {
  const built = fileSha256(apk);
  const installed = await device.installedApp(pkg, signal);
  const base = { package: pkg, apk, built, installed };
  if (!installed) return { ...base, same: false, reason: `${pkg} is not installed on ${device.id}: the app on the device is not this build` };
  const first = installed.files[0]!;
  if (first.sha256 !== built) {
    return { ...base, same: false, reason: `the app on the device is not this build: ${pkg}'s ${first.path} has sha256 ${first.sha256.slice(0, 12)}…, ${apk} has ${built.slice(0, 12)}…` };
  }
  return { ...base, same: true };
}
