// Small typed errors, after changesets' GitError/ExitError/InternalError. Every error a user sees names what broke
// and the one command that fixes it. Exit codes follow DESIGN.md: 1 gate failed, 2 loopgates/config/tool broken.

/** Base error: `message` says what broke, `fix` the one command or step that repairs it; `exitCode` 2 unless set. */
export class LoopgatesError extends Error {
  readonly fix: string;
  readonly exitCode: number;
  constructor(message: string, fix: string, exitCode = 2) {
    super(message);
    this.name = 'LoopgatesError';
    this.fix = fix;
    this.exitCode = exitCode;
  }
}

/** One config problem: dotted key path (`gates.secrets.timeoutMs`), 1-based line (0 when unknown), message. */
export interface ConfigProblem {
  path: string;
  line: number;
  message: string;
}

/** loopgates.yaml is invalid; carries every problem found at once. Exit 2. */
export class ConfigError extends LoopgatesError {
  readonly file: string;
  readonly problems: readonly ConfigProblem[];
  constructor(file: string, problems: readonly ConfigProblem[]) {
    const lines = problems.map((p) => `  ${file}:${p.line || '?'}  ${p.path || '(root)'}: ${p.message}`);
    super(
      `${file} is invalid (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${lines.join('\n')}`,
      `edit ${file}, then run: loopgates doctor`,
    );
    this.name = 'ConfigError';
    this.file = file;
    this.problems = problems;
  }
}

/**
 * What a missing tool's message says, from how `tool` names it:
 * - `name (VAR=path)`, a tool an environment variable points at (`gitleaks (LOOPGATES_GITLEAKS=/opt/gl)`): the file
 *   that variable names does not exist or is not a file (PATH was never searched);
 * - a path (holds `/` or `\`): that file does not exist, or it is a script whose `#!` interpreter does not (spawn's
 *   ENOENT is the same for both; see execve(2));
 * - a bare name: it was not found on PATH.
 */
export function toolMissingMessage(tool: string): string {
  const named = /^(.+?) \(([A-Za-z_][A-Za-z0-9_]*)=(.*)\)$/s.exec(tool);
  if (named) return `${named[1]}: ${named[2]} names ${named[3]}, which does not exist or is not a file (PATH is not searched while ${named[2]} is set)`;
  if (/[/\\]/.test(tool)) return `${tool} does not exist (or it is a script whose #! interpreter does not)`;
  return `${tool} was not found on PATH`;
}

/**
 * A required external tool could not be found (spawn's ENOENT, or a path named by an environment variable that is not
 * a file). Exit 2; the message is `toolMissingMessage(tool)`, the fix says how to install it.
 */
export class ToolMissingError extends LoopgatesError {
  readonly tool: string;
  constructor(tool: string, fix: string) {
    super(toolMissingMessage(tool), fix);
    this.name = 'ToolMissingError';
    this.tool = tool;
  }
}

/** A tool exists but cannot be executed (spawn's EACCES: no execute bit, or a noexec mount). Exit 2; fix: chmod +x. */
export class ToolNotExecutableError extends LoopgatesError {
  readonly tool: string;
  constructor(tool: string) {
    super(`${tool} cannot be run: permission denied (it is not executable, or it is on a noexec mount)`, `chmod +x ${tool}, or point loopgates at an executable copy`);
    this.name = 'ToolNotExecutableError';
    this.tool = tool;
  }
}

/**
 * A child process could not start because the directory it was to run in does not exist (spawn's ENOENT, which is
 * otherwise read as a missing binary). Exit 2; the fix says to change to the repository.
 */
export class DirectoryMissingError extends LoopgatesError {
  readonly dir: string;
  constructor(dir: string, tool: string) {
    super(`${tool} cannot run in ${dir}: that directory does not exist (removed or renamed while loopgates ran?)`, 'cd to your repository and run the command again');
    this.name = 'DirectoryMissingError';
    this.dir = dir;
  }
}

/** A git command failed. `args` is the argument array (never a shell string); stderr is trimmed. */
export class GitError extends LoopgatesError {
  readonly args: readonly string[];
  constructor(args: readonly string[], stderr: string, fix = 'check the repository with: git status') {
    super(`git ${args.join(' ')} failed: ${stderr.trim() || 'no message'}`, fix);
    this.name = 'GitError';
    this.args = args;
  }
}

/** A path was read that the workspace does not hold. */
export class WorkspaceError extends LoopgatesError {
  constructor(path: string) {
    super(`${path} is not in the snapshot being checked`, 'report this: it is a loopgates bug', 2);
    this.name = 'WorkspaceError';
  }
}

/** A bug in loopgates itself; the fix points at the issue tracker. */
export class InternalError extends LoopgatesError {
  constructor(message: string) {
    super(message, 'report this with the output of: loopgates doctor', 2);
    this.name = 'InternalError';
  }
}
