// The one tool runner (DESIGN.md "two process boundaries only"): argument arrays, never shell strings; a timeout
// on every call; ENOENT becomes ToolMissingError so a missing scanner refuses the commit instead of passing.
// On POSIX it is node:child_process directly: execa costs ~150 ms of CPU to load, on every commit that runs a
// scanner. On Windows execa (through cross-spawn) keeps running `.cmd` / `.bat` shims and PATHEXT lookups.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { DirectoryMissingError, ToolMissingError, ToolNotExecutableError } from './errors.js';
import type { RunTool, ToolOptions, ToolResult } from './types.js';

/**
 * How to install each tool loopgates shells out to; used in ToolMissingError.fix. gitleaks: Debian packages it from
 * 13 (trixie) on and Ubuntu from 24.04 on; Debian 12 (bookworm) and older releases have no gitleaks package, so
 * there the release binary is the way.
 */
export const installHints: Readonly<Record<string, string>> = {
  gitleaks:
    'install gitleaks (Debian 13+ / Ubuntu 24.04+: apt-get install gitleaks; macOS: brew install gitleaks; elsewhere, Debian 12 included: the release binary from https://github.com/gitleaks/gitleaks/releases), or set LOOPGATES_GITLEAKS=/path/to/gitleaks',
  git: 'install git and make sure it is on PATH',
  node: 'install Node.js 20 or newer',
  // Debian and Ubuntu package adb on its own (package `adb`); elsewhere it ships in the SDK's platform-tools.
  adb: 'install adb (Debian/Ubuntu: apt-get install -y adb; macOS: brew install --cask android-platform-tools; elsewhere: Android SDK platform-tools from https://developer.android.com/tools/releases/platform-tools) and put it on PATH',
};

/** After SIGTERM (timeout or abort), SIGKILL follows this many ms later if the process is still running. */
export const FORCE_KILL_AFTER_MS = 2000;

/**
 * After the tool itself exits, how long its output may stay open (ms): a process it left running in the background
 * (`sh -c 'server &'`, a daemon that kept the pipes) holds them until it ends, and the tool's exit code is already
 * known. Past this the streams are closed and stderr says so.
 */
export const OUTPUT_GRACE_MS = 1000;

/** Output kept per stream, in bytes (execa's default maxBuffer); past it the process is killed (exit code null). */
export const MAX_OUTPUT_BYTES = 100_000_000;

/**
 * The process groups of the tools running now (POSIX: each tool is spawned `detached`, i.e. setsid(2), so it and
 * every process it starts share a group that kill(2) with a negative pid reaches). Being in their own session, they
 * no longer get the terminal's Ctrl-C themselves: loopgates passes SIGINT on, and SIGKILLs what is left if it exits
 * while one runs (a second Ctrl-C, process.exit).
 */
const runningGroups = new Set<number>();

function signalGroup(pgid: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, sig);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function onSigint(): void {
  for (const g of runningGroups) signalGroup(g, 'SIGINT');
  // Nobody else handles SIGINT (a library caller): let it end this process as it would have without us.
  if (process.listenerCount('SIGINT') === 1) {
    untrack();
    process.kill(process.pid, 'SIGINT');
  }
}

function onProcessExit(): void {
  for (const g of runningGroups) signalGroup(g, 'SIGKILL');
}

function track(pgid: number): void {
  if (runningGroups.size === 0) {
    process.on('SIGINT', onSigint);
    process.on('exit', onProcessExit);
  }
  runningGroups.add(pgid);
}

function untrack(pgid?: number): void {
  if (pgid === undefined) runningGroups.clear();
  else runningGroups.delete(pgid);
  if (runningGroups.size === 0) {
    process.removeListener('SIGINT', onSigint);
    process.removeListener('exit', onProcessExit);
  }
}

/**
 * Run `file` with `args` (no shell). Resolves with the exit code and output whatever the exit code; never throws
 * for a non-zero exit. Throws ToolMissingError when the binary does not exist (ENOENT), DirectoryMissingError when
 * `options.cwd` does not (spawn says ENOENT for that too), ToolNotExecutableError when it cannot be executed (EACCES).
 * `timeoutMs` kills the tool's whole process group, background grandchildren included (SIGTERM, then SIGKILL after
 * 2000 ms to whatever is left), waits until the group is gone, and reports `timedOut: true`; an aborted `signal`
 * kills it the same way. Processes that start a session of their own (a daemon calling setsid) are not in the group. `exitCode` is null when the process ended by a signal or could not start
 * (`stderr` then says why).
 */
export const runTool: RunTool = async (file: string, args: readonly string[], options: ToolOptions): Promise<ToolResult> => {
  if (process.platform === 'win32') return runWithExeca(file, args, options);
  const started = performance.now();
  const env = (options.extendEnv ?? true) ? { ...process.env, ...options.env } : { ...options.env };
  return new Promise<ToolResult>((resolve, reject) => {
    const child = spawn(file, [...args], { cwd: options.cwd, env, stdio: [options.input !== undefined ? 'pipe' : 'ignore', 'pipe', 'pipe'], detached: true });
    // The child is the leader of its own group: its pid is the group id.
    const pgid = child.pid;
    if (pgid !== undefined) track(pgid);
    const groupAlive = () => pgid !== undefined && signalGroup(pgid, 0);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const size = { out: 0, err: 0 };
    let timedOut = false;
    let forceKill: NodeJS.Timeout | undefined;
    let grace: NodeJS.Timeout | undefined;
    let heldOpen = false;
    let stopping = false;
    // Once stopped, output still held open by a grandchild (`sh -c 'x &'`) is not waited for.
    const dropOutput = () => {
      child.stdout?.destroy();
      child.stderr?.destroy();
    };
    const stop = () => {
      stopping = true;
      if (!groupAlive()) return dropOutput();
      signalGroup(pgid!, 'SIGTERM');
      forceKill ??= setTimeout(() => signalGroup(pgid!, 'SIGKILL'), FORCE_KILL_AFTER_MS);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    const onAbort = () => stop();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const collect = (chunks: Buffer[], key: 'out' | 'err') => (b: Buffer) => {
      size[key] += b.length;
      if (size[key] > MAX_OUTPUT_BYTES) return stop();
      chunks.push(b);
    };
    child.stdout!.on('data', collect(out, 'out'));
    child.stderr!.on('data', collect(err, 'err'));
    let settled = false;
    let waitUntil: number | undefined;
    const finish = (code: number | null, spawnError?: NodeJS.ErrnoException) => {
      if (settled) return;
      // Stopped: no result until the whole group is gone (SIGKILL follows at FORCE_KILL_AFTER_MS), so no process
      // of it outlives the call. Bounded, for a process the kernel cannot kill yet (uninterruptible sleep).
      if (stopping && groupAlive()) {
        waitUntil ??= performance.now() + FORCE_KILL_AFTER_MS + 3000;
        if (performance.now() < waitUntil) {
          setTimeout(() => finish(code, spawnError), 25);
          return;
        }
      }
      settled = true;
      if (pgid !== undefined) untrack(pgid);
      clearTimeout(timer);
      clearTimeout(forceKill);
      clearTimeout(grace);
      options.signal?.removeEventListener('abort', onAbort);
      if (spawnError?.code === 'ENOENT') {
        reject(missing(file, options.cwd));
        return;
      }
      if (spawnError?.code === 'EACCES') {
        reject(new ToolNotExecutableError(file));
        return;
      }
      const errBytes = Buffer.concat(err);
      const outBytes = Buffer.concat(out);
      let stderr = errBytes.toString('utf8');
      if (heldOpen) stderr += `${stderr && !stderr.endsWith('\n') ? '\n' : ''}${basename(file)} exited; its output was still held open by a process it left running, not waited for past ${OUTPUT_GRACE_MS} ms\n`;
      resolve({
        exitCode: spawnError ? null : code,
        stdout: outBytes.toString('utf8'),
        stderr: spawnError ? `${stderr}${stderr && !stderr.endsWith('\n') ? '\n' : ''}${file}: ${spawnError.message}\n` : stderr,
        bytes: { stdout: outBytes, stderr: errBytes },
        timedOut,
        durationMs: performance.now() - started,
      });
    };
    // A process that never started (ENOENT, EACCES) emits 'error' and no exit; one that ran ends with 'close'.
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (child.pid === undefined) finish(null, e);
    });
    let exitCode: number | null = null;
    child.on('exit', (code) => {
      exitCode = code;
      if (stopping) return dropOutput();
      // The timer can fire late, after this thread was busy (other gates parse on it): setImmediate runs after the
      // event loop's poll phase, which reads what the pipes hold, so output the tool wrote before exiting is never
      // cut. Output still arriving re-arms the wait; none arriving in a whole wait means a process left running.
      const check = () => {
        const seen = size.out + size.err;
        setImmediate(() => {
          if (settled) return;
          if (size.out + size.err !== seen) {
            grace = setTimeout(check, OUTPUT_GRACE_MS);
            return;
          }
          heldOpen = true;
          dropOutput();
          // A destroyed stream may end without 'close' on the child when a grandchild holds the other end.
          finish(exitCode);
        });
      };
      grace = setTimeout(check, OUTPUT_GRACE_MS);
    });
    child.on('close', (code) => finish(code ?? exitCode));
    if (child.stdin) {
      child.stdin.on('error', () => {
        /* the tool may exit before reading all of its input; its exit code tells what happened */
      });
      child.stdin.end(options.input);
    }
    if (options.signal?.aborted) stop();
  });
};

/** The Windows path: execa with the same options (cross-spawn resolves `.cmd` shims and PATHEXT). */
async function runWithExeca(file: string, args: readonly string[], options: ToolOptions): Promise<ToolResult> {
  const started = performance.now();
  const { execa } = await import('execa');
  const result = await execa(file, [...args], {
    cwd: options.cwd,
    env: options.env ?? {},
    extendEnv: options.extendEnv ?? true,
    timeout: options.timeoutMs,
    forceKillAfterDelay: FORCE_KILL_AFTER_MS,
    reject: false,
    stripFinalNewline: false,
    ...(options.input !== undefined ? { input: options.input } : { stdin: 'ignore' as const }),
    ...(options.signal ? { cancelSignal: options.signal } : {}),
    windowsHide: true,
  });
  const code = (result as { code?: string }).code;
  if (code === 'ENOENT' || (result.failed && result.exitCode === undefined && /ENOENT/.test(String(result.message)))) {
    throw missing(file, options.cwd);
  }
  return {
    exitCode: result.exitCode ?? null,
    stdout: String(result.stdout ?? ''),
    stderr: String(result.stderr ?? ''),
    timedOut: result.timedOut === true,
    durationMs: performance.now() - started,
  };
}

/** spawn's ENOENT for `file` in `cwd`: a missing directory when `cwd` is gone, else a missing tool with its install hint. */
function missing(file: string, cwd: string | undefined): Error {
  if (cwd !== undefined && !existsSync(cwd)) return new DirectoryMissingError(cwd, basename(file));
  return new ToolMissingError(file, installHints[basename(file)] ?? `install ${file} and make sure it is on PATH`);
}

function basename(file: string): string {
  const i = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
  return i >= 0 ? file.slice(i + 1) : file;
}
