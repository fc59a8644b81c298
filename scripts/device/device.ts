// The device behind the loops: what `tap`, `dump-audit --device` and `device verify-install` need from a phone or an
// emulator, in words free of any one platform's tool, so an iOS simulator (idb ui describe-all / idb ui tap) can be
// added beside the Android one (scripts/device/android.ts, over adb).

/** One screen read: the window hierarchy as text, or why it could not be read. */
export type ScreenRead =
  | { ok: true; xml: string }
  | {
      ok: false;
      /** One line naming the cause, as the device tool said it (`ERROR: could not get idle state.`). */
      cause: string;
      /** Everything the screen tool printed, when the cause came from its output: what flake signatures are matched against. */
      output?: string;
    };

/** What the device says about an app package. */
export interface PackageState {
  package: string;
  installed: boolean;
  /**
   * Whether the app may run: PackageManager's enabled state for the user (0 default, 1 enabled: may run; 2 disabled,
   * 3 disabled by the user, 4 disabled until used: may not). undefined when not installed or not reported.
   */
  enabled: boolean | undefined;
  /** The state as the device printed it (`enabled=3`), for the report. */
  detail: string;
}

/** The installed app's package files and their sha256 digests (hex), base first. */
export interface InstalledApp {
  package: string;
  files: Array<{ path: string; sha256: string }>;
}

/** A device a loop drives. Every method throws LoopgatesError (exit 2) when the device or its tool breaks. */
export interface Device {
  /** Stable id of the device (Android: its serial), the key of its lease. */
  readonly id: string;
  /** The platform, for messages (`android`). */
  readonly platform: string;
  /**
   * Read the active window's hierarchy once, fresh: never a file left by an earlier read. A read the device reports
   * as failed is `ok: false` (not thrown), so the loop can retry it within its bound.
   */
  readScreen(signal?: AbortSignal): Promise<ScreenRead>;
  /** Tap once at screen pixel (x, y). */
  tap(x: number, y: number, signal?: AbortSignal): Promise<void>;
  /** Whether `pkg` is installed and enabled. */
  packageState(pkg: string, signal?: AbortSignal): Promise<PackageState>;
  /** The installed files of `pkg` with their digests; undefined when `pkg` is not installed. */
  installedApp(pkg: string, signal?: AbortSignal): Promise<InstalledApp | undefined>;
}
