// One attempt of `loopgates retry`: the command as an argument array (no shell) in a process group of its own
// (spawn `detached`, i.e. setsid(2)), its output streamed to ours while a bounded tail is kept, the whole group
// ended when it is over. Killing the group, not the pid, is what reaches a Gradle wrapper's children or an emulator
// script's adb child (kill(2) with a negative pid, POSIX). Processes that start a session of their own (setsid, as
// Gradle's daemon does) are outside the group and outlive the attempt by design.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { DirectoryMissingError, ToolMissingError, ToolNotExecutableError } from '../../core/errors.js';
import { TailBuffer, TAIL_BYTES } from './tail.js';

/** After SIGTERM to the group, SIGKILL follows this many ms later if any member is still running. */
export const KILL_GRACE_MS = 2000;

/** Bytes of both streams kept in arrival order, for the printed last lines and the fingerprint: 64 KiB. */
export const COMBINED_TAIL_BYTES = 64 * 1024;

/** Where a stream of the command goes: process.stdout / process.stderr, or a test's collector. */
export interface Sink {
  write(chunk: Buffer): boolean;
  once(event: 'drain', listener: () => void): unknown;
  /** The file descriptor behind it (process.stdout.fd), when there is one: see `sinkOf`. */
  readonly fd?: number;
}

/**
 * How an attempt's stream reaches its sink, cheapest first (DESIGN.md: streaming must cost next to nothing):
 * - `file`: the sink is a regular file we can open again for reading (Linux /proc/self/fd/N): the command gets our
 *   fd itself and writes there as it would bare; the tail is read back from the file (pread of its last bytes) when
 *   the attempt is over. No byte passes through loopgates.
 * - `null`: the sink is /dev/null: the command writes into a pipe we read for the tail; nothing is written on.
 * - `copy`: anything else (a pipe, a terminal, a socket, a test's collector): the pipe is read and each chunk
 *   written on, with backpressure.
 */
export type SinkRoute = { route: 'file'; fd: number; reader: number; dev: number; ino: number; start: number } | { route: 'null' } | { route: 'copy' };

let devNull: { dev: number; rdev: number } | null | undefined;

/** The route for `sink` (see SinkRoute). Never throws: anything it cannot prove is `copy`. */
export function sinkOf(sink: Sink): SinkRoute {
  const fd = sink.fd;
  if (typeof fd !== 'number' || process.platform === 'win32') return { route: 'copy' };
  try {
    const st = fstatSync(fd);
    if (st.isFile()) {
      // Opened again read-only: the shell's `> log` gave us a write-only fd, which pread cannot use.
      const reader = openSync(`/proc/self/fd/${fd}`, 'r');
      const again = fstatSync(reader);
      if (again.dev !== st.dev || again.ino !== st.ino) {
        closeSync(reader);
        return { route: 'copy' };
      }
      return { route: 'file', fd, reader, dev: st.dev, ino: st.ino, start: st.size };
    }
    if (st.isCharacterDevice()) {
      if (devNull === undefined) {
        try {
          const n = statSync('/dev/null');
          devNull = { dev: n.dev, rdev: n.rdev };
        } catch {
          devNull = null;
        }
      }
      if (devNull && st.rdev === devNull.rdev) return { route: 'null' };
    }
  } catch {
    /* not a file we can read back (or no /proc): copy */
  }
  return { route: 'copy' };
}

/** The last `cap` bytes the attempt wrote to a `file` route (from its size before the attempt to its size now). */
function fileTail(r: Extract<SinkRoute, { route: 'file' }>, cap: number): string {
  try {
    const end = fstatSync(r.reader).size;
    // Truncated under us (a log rotated): read what the file holds now.
    const from = end >= r.start ? Math.max(r.start, end - cap) : Math.max(0, end - cap);
    const buf = Buffer.allocUnsafe(end - from);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(r.reader, buf, got, buf.length - got, from + got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got).toString('utf8');
  } catch {
    return '';
  }
}

/** Options of one attempt. */
export interface AttemptOptions {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Per-attempt bound in ms; past it the group gets SIGTERM, then SIGKILL after KILL_GRACE_MS. */
  timeoutMs?: number;
  /** Aborted on SIGINT/SIGTERM to loopgates: the same signal goes to the group. `reason.message` names it. */
  signal?: AbortSignal;
  stdout: Sink;
  stderr: Sink;
}

/** How one attempt ended. `exitCode` null when the command ended by a signal (`termSignal`). Durations in ms. */
export interface AttemptResult {
  exitCode: number | null;
  termSignal: NodeJS.Signals | null;
  timedOut: boolean;
  /** SIGINT / SIGTERM that loopgates received and passed on to the group, or null. */
  interrupted: NodeJS.Signals | null;
  durationMs: number;
  /** The last TAIL_BYTES of stdout and of stderr, and the last COMBINED_TAIL_BYTES of both in arrival order. */
  stdoutTail: string;
  stderrTail: string;
  combinedTail: string;
  /** Members of the group were still running when the command ended (they were ended with it). */
  leftovers: boolean;
}

function killGroup(pgid: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, sig);
    return true;
  } catch {
    return false; // ESRCH: nobody left in the group (EPERM cannot happen for our own session)
  }
}

const signalOf = (s: AbortSignal): NodeJS.Signals => {
  const m = s.reason instanceof Error ? s.reason.message : String(s.reason);
  return m === 'SIGINT' ? 'SIGINT' : 'SIGTERM';
};

/**
 * Run `file` with `args` once. Resolves when the command has ended and its group is gone (or did not go within
 * KILL_GRACE_MS after SIGKILL). Throws ToolMissingError (ENOENT), DirectoryMissingError (no `cwd`),
 * ToolNotExecutableError (EACCES) before anything ran.
 */
export function runAttempt(file: string, args: readonly string[], options: AttemptOptions): Promise<AttemptResult> {
  const started = performance.now();
  return new Promise<AttemptResult>((resolve, reject) => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(options.env)) if (v !== undefined) env[k] = v;
    const outRoute = sinkOf(options.stdout);
    const errRoute = sinkOf(options.stderr);
    const closeReaders = () => {
      for (const r of [outRoute, errRoute]) if (r.route === 'file') closeSync(r.reader);
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(file, [...args], { cwd: options.cwd, env, stdio: ['ignore', outRoute.route === 'file' ? outRoute.fd : 'pipe', errRoute.route === 'file' ? errRoute.fd : 'pipe'], detached: true });
    } catch (e) {
      closeReaders();
      throw e;
    }
    const out = new TailBuffer(TAIL_BYTES);
    const err = new TailBuffer(TAIL_BYTES);
    const both = new TailBuffer(COMBINED_TAIL_BYTES);
    let timedOut = false;
    let interrupted: NodeJS.Signals | null = null;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let leftovers = false;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const pgid = child.pid;
    // loopgates exiting for any reason (a second Ctrl-C calls process.exit) takes the group with it.
    const onExit = () => {
      if (pgid !== undefined) killGroup(pgid, 'SIGKILL');
    };
    const stop = (sig: NodeJS.Signals) => {
      if (pgid === undefined) return;
      killGroup(pgid, sig);
      timers.push(setTimeout(() => killGroup(pgid, 'SIGKILL'), KILL_GRACE_MS));
    };
    const onAbort = () => {
      interrupted = signalOf(options.signal!);
      stop(interrupted);
    };
    const finish = () => {
      if (settled || !exit) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      process.removeListener('exit', onExit);
      options.signal?.removeEventListener('abort', onAbort);
      const stdoutTail = outRoute.route === 'file' ? fileTail(outRoute, TAIL_BYTES) : out.text();
      const stderrTail = errRoute.route === 'file' ? fileTail(errRoute, TAIL_BYTES) : err.text();
      let combinedTail: string;
      if (outRoute.route !== 'file' && errRoute.route !== 'file') combinedTail = both.text();
      else if (outRoute.route === 'file' && errRoute.route === 'file' && outRoute.dev === errRoute.dev && outRoute.ino === errRoute.ino) {
        // `> log 2>&1`: one file holds both streams in the order they were written.
        combinedTail = fileTail(outRoute, COMBINED_TAIL_BYTES);
      } else {
        // One stream read back from its file, the other piped: the order between them is not known; stderr last.
        const half = COMBINED_TAIL_BYTES / 2;
        combinedTail = `${stdoutTail.slice(-half)}${stdoutTail.endsWith('\n') || stdoutTail === '' ? '' : '\n'}${stderrTail.slice(-half)}`;
      }
      closeReaders();
      resolve({
        exitCode: exit.code,
        termSignal: exit.signal,
        timedOut,
        interrupted,
        durationMs: performance.now() - started,
        stdoutTail,
        stderrTail,
        combinedTail,
        leftovers,
      });
    };
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (child.pid !== undefined || settled) return;
      settled = true;
      closeReaders();
      if (e.code === 'ENOENT') reject(!existsSync(options.cwd) ? new DirectoryMissingError(options.cwd, file) : new ToolMissingError(file, `install ${file} or check the command after --`));
      else if (e.code === 'EACCES') reject(new ToolNotExecutableError(file));
      else reject(e);
    });
    if (pgid === undefined) return;
    process.on('exit', onExit);
    if (options.timeoutMs !== undefined) {
      timers.push(
        setTimeout(() => {
          timedOut = true;
          stop('SIGTERM');
        }, options.timeoutMs),
      );
    }
    if (options.signal) {
      if (options.signal.aborted) onAbort();
      else options.signal.addEventListener('abort', onAbort, { once: true });
    }
    const pipe = (stream: NodeJS.ReadableStream | null, route: SinkRoute, tail: TailBuffer, sink: Sink) => {
      if (!stream || route.route === 'file') return;
      if (route.route === 'null') {
        stream.on('data', (chunk: Buffer) => {
          tail.push(chunk);
          both.push(chunk);
        });
        return;
      }
      stream.on('data', (chunk: Buffer) => {
        tail.push(chunk);
        both.push(chunk);
        // Backpressure: a slow reader of our output slows the command, it never grows our memory.
        if (!sink.write(chunk)) {
          stream.pause();
          sink.once('drain', () => stream.resume());
        }
      });
    };
    pipe(child.stdout, outRoute, out, options.stdout);
    pipe(child.stderr, errRoute, err, options.stderr);
    let closed = false;
    child.on('close', () => {
      closed = true;
      finish();
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // The attempt is over: whatever it left running in its group is ended with it (no orphan survives a retry).
      if (killGroup(pgid, 0)) {
        leftovers = true;
        killGroup(pgid, 'SIGTERM');
        timers.push(setTimeout(() => killGroup(pgid, 'SIGKILL'), KILL_GRACE_MS));
      }
      // A process outside the group (its own session) may hold our pipes open: do not wait for it past the grace.
      const deadline = performance.now() + KILL_GRACE_MS + 1000;
      const wait = () => {
        if (closed || settled) return;
        if (!killGroup(pgid, 0) || performance.now() > deadline) {
          timers.push(
            setTimeout(() => {
              child.stdout?.destroy();
              child.stderr?.destroy();
              finish();
            }, 200),
          );
          return;
        }
        timers.push(setTimeout(wait, 50));
      };
      wait();
    });
  });
}
