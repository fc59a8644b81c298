// The CLI's error paths as a user meets them: every way loopgates cannot run exits 2 (never 1, which means "a gate
// failed") with a message that names the real cause and its fix, and with --format json|sarif|github stdout still
// carries a document a CI parser can read. The built CLI (bin/loopgates.js -> dist/) where the process matters.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../cli.js';
import type { CommandIO } from '../../core/command.js';
import { DirectoryMissingError, ToolMissingError, ToolNotExecutableError } from '../../core/errors.js';
import { git } from '../../core/git.js';
import { runTool } from '../../core/tools.js';
import { isolatedGitEnv, withGitRepo } from '../helpers/git-repo.js';
import { LOOPGATES } from '../helpers/setup-env.js';

const repoRoot = resolve(import.meta.dirname, '..', '..');
const bin = join(repoRoot, 'bin', 'loopgates.js');
const scratch = mkdtempSync(join(tmpdir(), 'loopgates-cli-errors-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The environment a user's shell gives the CLI: no LOOPGATES_* of the test run, git isolated from ~/.gitconfig. */
function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), ...isolatedGitEnv(join(scratch, 'home')) };
  for (const k of Object.keys(env)) if (k.startsWith('LOOPGATES_')) delete env[k];
  return { ...env, ...extra };
}

/** Run the built CLI in `cwd`; stdout and stderr apart, as a CI step reads them. */
function cli(args: string[], cwd: string, extra: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, env: userEnv(extra), encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** In-process `main` with `cwd`, collecting output. */
async function mainIn(cwd: string, argv: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CommandIO = { cwd, env: userEnv(), stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false, signal: new AbortController().signal };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

describe('a directory that does not exist is not a missing git', () => {
  it('git() in a missing cwd: DirectoryMissingError naming the folder, not "git was not found on PATH"', async () => {
    const gone = join(scratch, 'never-made');
    const err = await git(['status'], { cwd: gone }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DirectoryMissingError);
    expect(err).not.toBeInstanceOf(ToolMissingError);
    expect((err as Error).message).toBe(`git cannot run in ${gone}: that directory does not exist (removed or renamed while loopgates ran?)`);
    expect((err as DirectoryMissingError).fix).toBe('cd to your repository and run the command again');
    expect((err as DirectoryMissingError).exitCode).toBe(2);
  });

  it('runTool in a missing cwd says so too; a real missing tool is still "not found on PATH"', async () => {
    const gone = join(scratch, 'never-made-either');
    const err = await runTool('sh', ['-c', 'true'], { cwd: gone, timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DirectoryMissingError);
    expect((err as Error).message).toBe(`sh cannot run in ${gone}: that directory does not exist (removed or renamed while loopgates ran?)`);
    const missing = await runTool('loopgates-no-such-tool', [], { cwd: scratch, timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ToolMissingError);
    expect((missing as Error).message).toBe('loopgates-no-such-tool was not found on PATH');
  });

  it('`run --all` with a cwd that is gone: exit 2 and the folder named', async () => {
    const gone = join(scratch, 'removed-repo');
    const r = await mainIn(gone, ['run', '--all']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`loopgates run: git cannot run in ${gone}: that directory does not exist`);
    expect(r.stderr).toContain('fix: cd to your repository and run the command again');
    expect(r.stderr).not.toContain('not found on PATH');
  });
});

describe('running from a deleted current directory', () => {
  /** Start the CLI from inside a git repository that the shell removed after entering it. */
  const fromDeleted = (args: string[]) => {
    const dir = join(scratch, `deleted-${Math.random().toString(36).slice(2)}`);
    mkdirSync(dir);
    const script = 'd="$1"; shift; cd "$d" && git init -q && rm -rf "$d" && "$@"';
    const r = spawnSync('sh', ['-c', script, 'sh', dir, process.execPath, bin, ...args], { env: userEnv(), encoding: 'utf8', timeout: 120_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it('exits 2 (not 1) with the cause and the fix, no stack trace', () => {
    const r = fromDeleted(['run', '--all']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'loopgates run: the current directory no longer exists (ENOENT: no such file or directory, uv_cwd): it was removed or renamed after this shell entered it\n  fix: cd to your repository, then run the command again\n',
    );
    expect(r.stdout).toBe('');
  });

  it('with --format json, stdout is the failure document', () => {
    const r = fromDeleted(['hook', 'pre-commit', '--format', 'json']);
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ tool: 'loopgates', verb: 'hook', exitCode: 2, error: { fix: 'cd to your repository, then run the command again' } });
    expect(doc.error.message).toMatch(/^the current directory no longer exists/);
  });

  it('--version still answers', () => {
    const r = fromDeleted(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('an exception nothing caught exits 2, not Node’s 1', () => {
  /** The built CLI's entry point with `trouble` started beside a real run. */
  const withTrouble = (trouble: string, args: string[], cwd: string) => {
    const code = [
      `const m = await import(${JSON.stringify(pathToFileURL(join(repoRoot, 'dist', 'cli.js')).href)});`,
      `process.argv = [process.argv[0], 'loopgates', ...${JSON.stringify(args)}];`,
      trouble,
      'await m.runFromProcess();',
    ].join('\n');
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd, env: userEnv(), encoding: 'utf8', timeout: 120_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it('a throw in a callback and an unawaited rejection: exit 2, "internal error", the fix, and JSON with --format json', async () => {
    await withGitRepo({ 'a.txt': 'a\n' }, async (repo) => {
      const thrown = withTrouble("setTimeout(() => { throw new Error('boom in a callback'); }, 0);", ['run', '--all'], repo.dir);
      expect(thrown.code).toBe(2);
      expect(thrown.stderr).toContain('loopgates run: internal error: Error: boom in a callback');
      expect(thrown.stderr).toContain(`fix: report this with the output of: ${LOOPGATES} doctor`);
      const rejected = withTrouble("Promise.reject(new Error('lost rejection'));", ['run', '--all', '--format', 'json'], repo.dir);
      expect(rejected.code).toBe(2);
      expect(rejected.stderr).toContain('loopgates run: internal error: Error: lost rejection');
      expect(JSON.parse(rejected.stdout)).toMatchObject({ exitCode: 2, error: { message: 'internal error: lost rejection', fix: `report this with the output of: ${LOOPGATES} doctor` } });
    });
  });
});

describe('LOOPGATES_GITLEAKS that names no usable file', () => {
  it('a path that does not exist is said to be that, not "not found on PATH"', async () => {
    await withGitRepo({ 'src/Config.kt': 'val x = 1\n' }, async (repo) => {
      repo.git('add', '-A');
      const r = cli(['run', '--gate', 'secrets'], repo.dir, { LOOPGATES_GITLEAKS: '/nonexistent' });
      expect(r.code).toBe(2);
      expect(r.stdout).toMatch(
        /^secrets +error +scanned 0 files, 0 findings — gitleaks: LOOPGATES_GITLEAKS names \/nonexistent, which does not exist or is not a file \(PATH is not searched while LOOPGATES_GITLEAKS is set\)$/m,
      );
      expect(r.stdout).not.toContain('not found on PATH');
      expect(r.stdout).toContain('fix: point LOOPGATES_GITLEAKS at an existing gitleaks binary');
    });
  });

  it('a file that is not executable is said to be that, with chmod as the fix', async () => {
    const plain = join(scratch, 'gitleaks-not-executable');
    writeFileSync(plain, '#!/bin/sh\necho gitleaks\n');
    chmodSync(plain, 0o644);
    const err = await runTool(plain, ['--help'], { cwd: scratch, timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolNotExecutableError);
    await withGitRepo({ 'src/Config.kt': 'val x = 1\n' }, async (repo) => {
      repo.git('add', '-A');
      const r = cli(['run', '--gate', 'secrets'], repo.dir, { LOOPGATES_GITLEAKS: plain });
      expect(r.code).toBe(2);
      expect(r.stdout).toContain(`secrets  error   scanned 0 files, 0 findings — ${plain} cannot be run: permission denied (it is not executable, or it is on a noexec mount)`);
      expect(r.stdout).toContain(`fix: chmod +x ${plain}, or point loopgates at an executable copy`);
    });
  });
});

describe('--format names what the verb accepts', () => {
  it('explain --format sarif: "use text or json"; run --format xml: all four', async () => {
    await withGitRepo({}, async (repo) => {
      const explain = cli(['explain', '--format', 'sarif'], repo.dir);
      expect(explain.code).toBe(2);
      expect(explain.stderr).toBe("loopgates explain: unknown --format 'sarif' (use text or json)\n  fix: use --format text or json\n");
      const run = cli(['run', '--format', 'xml'], repo.dir);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe("loopgates run: unknown --format 'xml' (use text, json, sarif or github)\n  fix: use --format text, json, sarif or github\n");
      expect(run.stdout).toBe('');
    });
  });
});

describe('--format json|sarif|github: an exit-2 error still prints a document on stdout', () => {
  const badYaml = 'version: 1\nextra: 1\n';

  it('json: invalid loopgates.yaml (with each problem), unknown --gate, outside a repository, bad arguments', async () => {
    await withGitRepo({ 'a.txt': 'a\n', 'loopgates.yaml': badYaml }, async (repo) => {
      repo.git('add', '-A');
      const r = cli(['run', '--all', '--format', 'json'], repo.dir);
      expect(r.code).toBe(2);
      const file = join(repo.dir, 'loopgates.yaml');
      expect(JSON.parse(r.stdout)).toEqual({
        tool: 'loopgates',
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        verb: 'run',
        exitCode: 2,
        error: {
          message: `${file} is invalid (1 problem):\n  ${file}:2  extra: unknown key 'extra'`,
          fix: `edit ${file}, then run: ${LOOPGATES} doctor`,
          problems: [{ path: 'extra', line: 2, message: "unknown key 'extra'" }],
        },
      });
      // stderr keeps the text for people.
      expect(r.stderr).toContain(`${file}:2  extra: unknown key 'extra'`);
      const hook = cli(['hook', 'pre-commit', '--format=json'], repo.dir);
      expect(hook.code).toBe(2);
      expect(JSON.parse(hook.stdout)).toMatchObject({ verb: 'hook', exitCode: 2, error: { problems: [{ path: 'extra', line: 2 }] } });
    });
    await withGitRepo({ 'a.txt': 'a\n' }, async (repo) => {
      const r = cli(['run', '--all', '--gate', 'nope', '--format', 'json'], repo.dir);
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout).error).toEqual({ message: expect.stringMatching(/^unknown gate 'nope' \(known: secrets, /), fix: `run: ${LOOPGATES} explain   to list the gates` });
      const args = cli(['run', '--all', '--staged', '--format', 'json'], repo.dir);
      expect(args.code).toBe(2);
      expect(JSON.parse(args.stdout).error.message).toBe('choose one of --staged, --all, --files\n  see: loopgates run --help');
    });
    const outside = join(scratch, 'not-a-repo');
    mkdirSync(outside, { recursive: true });
    const r = cli(['run', '--format', 'json'], outside, { GIT_CEILING_DIRECTORIES: scratch });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ exitCode: 2, error: { message: 'not inside a git work tree: there is no index to check' } });
  });

  it('explain --format json with an invalid config prints JSON; explain does not take sarif, so nothing is printed for it', async () => {
    await withGitRepo({ 'loopgates.yaml': badYaml }, async (repo) => {
      const r = cli(['explain', '--format', 'json'], repo.dir);
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout)).toMatchObject({ verb: 'explain', exitCode: 2, error: { problems: [{ path: 'extra', line: 2 }] } });
      expect(cli(['explain', '--format', 'sarif'], repo.dir).stdout).toBe('');
    });
  });

  it('sarif: an unsuccessful invocation with the error as a toolExecutionNotification; github: one ::error line', async () => {
    await withGitRepo({ 'a.txt': 'a\n', 'loopgates.yaml': badYaml }, async (repo) => {
      const file = join(repo.dir, 'loopgates.yaml');
      const sarif = cli(['run', '--all', '--format', 'sarif'], repo.dir);
      expect(sarif.code).toBe(2);
      const log = JSON.parse(sarif.stdout);
      expect(log.version).toBe('2.1.0');
      expect(log.runs).toHaveLength(1);
      expect(log.runs[0].results).toEqual([]);
      expect(log.runs[0].invocations).toEqual([
        {
          executionSuccessful: false,
          exitCode: 2,
          toolExecutionNotifications: [
            { level: 'error', message: { text: `${file} is invalid (1 problem):\n  ${file}:2  extra: unknown key 'extra' (fix: edit ${file}, then run: ${LOOPGATES} doctor)` }, descriptor: { id: 'run' } },
          ],
        },
      ]);
      const github = cli(['run', '--all', '--format', 'github'], repo.dir);
      expect(github.code).toBe(2);
      expect(github.stdout).toBe(`::error title=loopgates run::${file} is invalid (1 problem):%0A  ${file}:2  extra: unknown key 'extra' — fix: edit ${file}, then run: ${LOOPGATES} doctor\n`);
    });
  });

  it('text (the default) prints nothing on stdout for an error', async () => {
    await withGitRepo({ 'a.txt': 'a\n', 'loopgates.yaml': badYaml }, async (repo) => {
      const r = cli(['run', '--all'], repo.dir);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain("extra: unknown key 'extra'");
    });
  });
});

describe('a reader that closes the pipe (`loopgates doctor | head`)', () => {
  it('exits 141 (128 + SIGPIPE) without an "internal error" or a stack trace', async () => {
    await withGitRepo({ 'a.txt': 'a\n' }, async (repo) => {
      // The read end is closed before the CLI writes a byte, so its first write meets EPIPE every time.
      const child = spawn(process.execPath, [bin, 'doctor'], { cwd: repo.dir, env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.destroy();
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (t: string) => void (stderr += t));
      const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
      expect(stderr).not.toContain('internal error');
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(code).toBe(141);
    });
  });
});
