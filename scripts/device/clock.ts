// Time for the device loops (tap polling, lease expiry). The real clock waits; a virtual clock, named by
// LOOPGATES_CLOCK=<file>, keeps "now" in that file and advances it by each sleep without waiting, so a scripted device
// (a fake adb reading the same file) and the loop agree on time exactly: "red at 10 s" is then an exact figure, and a
// test of a 10 s bound takes no 10 s.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

/** Milliseconds since the epoch, and waiting. */
export interface Clock {
  /** ms since the Unix epoch. */
  now(): number;
  /** Wait `ms` (or until `signal` aborts, which rejects with its reason). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Whether time is virtual (LOOPGATES_CLOCK): reports say so, since nothing really waited. */
  readonly virtual: boolean;
}

/** The wall clock. */
export const realClock: Clock = {
  now: () => Date.now(),
  virtual: false,
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(t);
        reject(signal!.reason);
      };
      const t = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, Math.max(0, ms));
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/**
 * A virtual clock kept in `file` (one integer: ms since the epoch; a missing or empty file starts at 0). `sleep`
 * adds `ms` to it (written atomically: temp file + rename) and returns at once.
 */
export function fileClock(file: string): Clock {
  const read = (): number => {
    let text = '';
    try {
      text = readFileSync(file, 'utf8').trim();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    const n = text === '' ? 0 : Number(text);
    if (!Number.isFinite(n)) throw new Error(`LOOPGATES_CLOCK file ${file} holds ${JSON.stringify(text)}, not a number of ms`);
    return n;
  };
  return {
    now: read,
    virtual: true,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, String(read() + Math.max(0, Math.round(ms))));
      renameSync(tmp, file);
    },
  };
}

/** The clock `env` asks for: LOOPGATES_CLOCK=<file> for a virtual one (scripted devices), else the wall clock. */
export function clockFrom(env: Readonly<Record<string, string | undefined>>): Clock {
  const file = env.LOOPGATES_CLOCK;
  return file ? fileClock(file) : realClock;
}
