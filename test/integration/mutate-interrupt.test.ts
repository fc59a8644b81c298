// `loopgates mutate` through the built CLI (dist/, built by `npm test`): Ctrl-C mid-run and a crashing gate leave
// the working tree and the index byte-identical and no scratch directory behind (DESIGN.md "Lose nothing").
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/setup-env.js';
import { isolatedGitEnv, treeAndIndexDigest, withGitRepo } from '../helpers/git-repo.js';

const cli = join(repoRoot, 'bin', 'loopgates.js');
const strings = '<resources>\n  <string name="a">Hello</string>\n</resources>\n';
const gate = (id: string, script: string) =>
  [
    `  - id: ${id}`,
    `    command: [sh, scripts/${script}]`,
    '    loop: {runs: a team script, reads: res xml, ends: one pass, asks: never}',
    '    files: ["res/**/*.xml"]',
    '    mutations:',
    '      - {file: res/values/strings.xml, append: "<!-- TODO -->"}',
    '      - {file: res/values/strings.xml, replace: {from: Hello, to: TODO}}',
  ].join('\n');

/** Run the CLI in `cwd` with a private TMPDIR; `onStart` may signal the child. Resolves with exit code and output. */
function runCli(args: string[], cwd: string, tmp: string, home: string, onStart?: (child: ReturnType<typeof spawn>) => void) {
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, env: { ...process.env, ...isolatedGitEnv(home), TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (out += b));
    child.on('close', (code, signal) => resolve({ code, signal, out }));
    onStart?.(child);
  });
}

const scratchIn = (tmp: string) => readdirSync(tmp).filter((n) => n.startsWith('loopgates-'));

describe.skipIf(!existsSync(join(repoRoot, 'dist', 'cli.js')))('mutate leaves nothing behind', () => {
  it('Ctrl-C mid-run: tree and index byte-identical, scratch removed, exit 130 as install and retry', async () => {
    const files = {
      'loopgates.yaml': `version: 1\ncommands:\n${gate('slow-check', 'slow.sh')}\n`,
      'res/values/strings.xml': strings,
      'scripts/slow.sh': 'sleep 3\nif grep -Hn TODO res/values/strings.xml; then exit 1; fi\n',
    };
    await withGitRepo(files, async (repo) => {
      repo.git('add', '-A');
      repo.git('commit', '-q', '--no-verify', '-m', 'init');
      repo.write('res/values/strings.xml', strings.replace('Hello', 'Hello, unstaged edit'));
      repo.git('add', 'scripts/slow.sh');
      const before = treeAndIndexDigest(repo.dir);
      const tmp = mkdtempSync(join(tmpdir(), 'loopgates-sigint-tmp-'));
      try {
        let sawScratch = false;
        const r = await runCli(['mutate', '--gate', 'slow-check'], repo.dir, tmp, join(repo.dir, '..', 'home'), (child) => {
          const poll = setInterval(() => {
            // Interrupt while the command runs in its scratch directory: the worst moment for leftovers.
            if (scratchIn(tmp).some((n) => n.startsWith('loopgates-cmd-slow-check-'))) {
              sawScratch = true;
              clearInterval(poll);
              setTimeout(() => child.kill('SIGINT'), 300);
            }
          }, 25);
          child.on('close', () => clearInterval(poll));
        });
        expect(sawScratch).toBe(true);
        // 128 + SIGINT, as a shell reports a Ctrl-C'd tool and as install and retry exit (README "Exit codes").
        expect(r.code).toBe(130);
        expect(r.out).toContain('interrupted: nothing was written to the working tree or the index');
        expect(scratchIn(tmp)).toEqual([]);
        expect(treeAndIndexDigest(repo.dir)).toBe(before);
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    });
  });

  it('a gate that crashes (its command killed by a signal): error outcomes, tree and index unchanged', async () => {
    const files = {
      'loopgates.yaml': `version: 1\ncommands:\n${gate('crashing', 'crash.sh')}\n`,
      'res/values/strings.xml': strings,
      'scripts/crash.sh': 'kill -SEGV $$\n',
    };
    await withGitRepo(files, async (repo) => {
      repo.git('add', '-A');
      const before = treeAndIndexDigest(repo.dir);
      const tmp = mkdtempSync(join(tmpdir(), 'loopgates-crash-tmp-'));
      try {
        const r = await runCli(['mutate', '--gate', 'crashing'], repo.dir, tmp, join(repo.dir, '..', 'home'));
        expect(r.code).toBe(1);
        expect(r.out).toMatch(/crashing\s+append#0\s+0\s+0\s+0\s+1\s+0/);
        expect(r.out).toContain('was killed by a signal');
        expect(scratchIn(tmp)).toEqual([]);
        expect(treeAndIndexDigest(repo.dir)).toBe(before);
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    });
  });
});
