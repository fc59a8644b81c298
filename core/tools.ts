// The one tool runner (DESIGN.md "two process boundaries only"): argument arrays, never shell strings; a timeout
// on every call; ENOENT becomes ToolMissingError so a missing scanner refuses the commit instead of passing.
import { execa } from 'execa';
import { ToolMissingError } from './errors.js';
import type { RunTool, ToolOptions, ToolResult } from './types.js';

/** How to install each tool loopgates shells out to; used in ToolMissingError.fix. */
export const installHints: Readonly<Record<string, string>> = {
  gitleaks:
    'install gitleaks (Debian/Ubuntu: apt-get install gitleaks; macOS: brew install gitleaks), or set LOOPGATES_GITLEAKS=/path/to/gitleaks',
  git: 'install git and make sure it is on PATH',
  node: 'install Node.js 20 or newer',
};

/**
 * Run `file` with `args` (no shell). Resolves with the exit code and output whatever the exit code; never throws
 * for a non-zero exit. Throws ToolMissingError when the binary does not exist (ENOENT).
 * `timeoutMs` kills the process (SIGTERM, then SIGKILL after 2000 ms) and reports `timedOut: true`.
 */
export const runTool: RunTool = async (file: string, args: readonly string[], options: ToolOptions): Promise<ToolResult> => {
  const started = performance.now();
  const result = await execa(file, [...args], {
    cwd: options.cwd,
    env: options.env ?? {},
    extendEnv: options.extendEnv ?? true,
    timeout: options.timeoutMs,
    forceKillAfterDelay: 2000,
    reject: false,
    stripFinalNewline: false,
    ...(options.input !== undefined ? { input: options.input } : { stdin: 'ignore' as const }),
    ...(options.signal ? { cancelSignal: options.signal } : {}),
    windowsHide: true,
  });
  const code = (result as { code?: string }).code;
  if (code === 'ENOENT' || (result.failed && result.exitCode === undefined && /ENOENT/.test(String(result.message)))) {
    throw new ToolMissingError(file, installHints[basename(file)] ?? `install ${file} and make sure it is on PATH`);
  }
  return {
    exitCode: result.exitCode ?? null,
    stdout: String(result.stdout ?? ''),
    stderr: String(result.stderr ?? ''),
    timedOut: result.timedOut === true,
    durationMs: performance.now() - started,
  };
};

function basename(file: string): string {
  const i = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
  return i >= 0 ? file.slice(i + 1) : file;
}
