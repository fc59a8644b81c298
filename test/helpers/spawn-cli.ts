// The built CLI (bin/loopgates.js) as a real child process in a temp repository, HOME beside it, system git config off.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './setup-env.js';
import type { TempRepo } from './git-repo.js';

export interface SpawnedRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

const bin = join(repoRoot, 'bin', 'loopgates.js');

/** Runs `loopgates <args>` in `cwd` (default: the repository's top) and collects its output. */
export function spawnCli(repo: TempRepo, args: string[], cwd = repo.dir): Promise<SpawnedRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, env: { ...process.env, HOME: join(repo.dir, '..', 'home'), GIT_CONFIG_NOSYSTEM: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
