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

/** A required external tool is not on PATH (execa's ENOENT). Exit 2; the fix says how to install it. */
export class ToolMissingError extends LoopgatesError {
  readonly tool: string;
  constructor(tool: string, fix: string) {
    super(`${tool} was not found on PATH`, fix);
    this.name = 'ToolMissingError';
    this.tool = tool;
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
