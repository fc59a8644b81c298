// hardcoded-strings' per-gate timeout is real: the built CLI parses in a worker thread (gates/hardcoded-strings/
// extract.ts) that the run's signal terminates, so a file whose parse takes many times the bound ends the gate with the
// runner's timeout error at about the bound, and Ctrl-C ends it at once. Before the worker, the parse held the main
// thread: the run lasted the whole parse, and the late timer's grace then let the gate pass.
// No assertion here depends on machine speed: the file is sized from a parse timed on this machine to take at least
// PARSE_OVER_BOUND times the bound, and the run must end before a third of that parse could have.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractSource } from '../../gates/hardcoded-strings/extract.js';
import { configSchema } from '../../gates/hardcoded-strings/index.js';
import { withGitRepo } from '../helpers/git-repo.js';
import { repoRoot } from '../helpers/setup-env.js';
import { bigKotlin } from '../helpers/generated.js';

const cli = join(repoRoot, 'bin', 'loopgates.js');
const BOUND_MS = 1000;
const PARSE_OVER_BOUND = 15;
const defaults = configSchema.parse({});
const options = { attributes: defaults.attributes, textComponents: defaults.textComponents, honorLintIgnore: defaults.honorLintIgnore };


/**
 * A Kotlin file whose parse on one thread takes at least PARSE_OVER_BOUND x BOUND_MS here, and that parse time (ms):
 * a 512 KB slice timed on this thread with the grammar warm, scaled linearly (V8's baseline tier, as the CLI parses:
 * tree-sitter.ts).
 */
async function slowFile(): Promise<{ source: string; parseMs: number }> {
  await extractSource('kotlin', bigKotlin(4096), options);
  const slice = bigKotlin(512 << 10);
  const t0 = performance.now();
  await extractSource('kotlin', slice, options);
  const perByte = (performance.now() - t0) / slice.length;
  const source = bigKotlin(Math.max(4 << 20, Math.ceil((PARSE_OVER_BOUND * BOUND_MS) / perByte)));
  return { source, parseMs: perByte * source.length };
}

interface Run {
  code: number | null;
  wallMs: number;
  report: { notes?: string[]; results: Array<{ gate: string; verdict: string; reason?: string; error?: { message: string; fix: string } }> };
}

/** Run the CLI in `cwd`; `interruptAfterMs`: send SIGINT that long after the start. */
function runCli(cwd: string, args: string[], interruptAfterMs?: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn('node', [cli, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = interruptAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGINT'), interruptAfterMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const wallMs = performance.now() - t0;
      try {
        resolve({ code, wallMs, report: JSON.parse(stdout) });
      } catch {
        reject(new Error(`no JSON report (exit ${code}):\n${stdout}\n${stderr}`));
      }
    });
  });
}

describe('hardcoded-strings timeout (built CLI, worker thread)', () => {
  it('a file whose parse takes many times the bound ends the gate with the timeout error, long before the parse could', async () => {
    expect(existsSync(join(repoRoot, 'dist', 'gates', 'hardcoded-strings', 'extract-worker.js')), 'run `npm run build` first').toBe(true);
    const { source, parseMs } = await slowFile();
    expect(parseMs).toBeGreaterThanOrEqual(PARSE_OVER_BOUND * BOUND_MS);
    const config = `version: 1\ngates:\n  hardcoded-strings:\n    timeoutMs: ${BOUND_MS}\n`;
    await withGitRepo({ 'loopgates.yaml': config, 'app/src/main/java/org/example/Generated.kt': source }, async (repo) => {
      const r = await runCli(repo.dir, ['run', '--files', 'app/src/main/java/org/example/Generated.kt', '--gate', 'hardcoded-strings', '--format', 'json']);
      expect(r.code).toBe(2);
      const hs = r.report.results.find((x) => x.gate === 'hardcoded-strings')!;
      expect(hs.verdict).toBe('error');
      expect(hs.reason).toBe(`hardcoded-strings did not finish within ${BOUND_MS} ms`);
      expect(hs.error?.message).toBe(hs.reason);
      expect(hs.error?.fix).toMatch(/gates\.hardcoded-strings\.timeoutMs/);
      // Start-up, the bound and the worker's termination; the parse alone would take parseMs.
      expect(r.wallMs).toBeLessThan(parseMs / 3);
    });
  });

  it('Ctrl-C during the parse ends the run at once: the worker is terminated, the gate is an error, never a pass', async () => {
    const { source, parseMs } = await slowFile();
    await withGitRepo({ 'loopgates.yaml': 'version: 1\n', 'app/src/main/java/org/example/Generated.kt': source }, async (repo) => {
      // The default bound (60 s) is far away; SIGINT arrives while the worker parses: late enough that a loaded
      // machine has started the CLI (and its SIGINT handler), early enough that the run ends before a third of the parse.
      const r = await runCli(repo.dir, ['run', '--files', 'app/src/main/java/org/example/Generated.kt', '--gate', 'hardcoded-strings', '--format', 'json'], Math.max(1500, parseMs / 6));
      expect(r.code).toBe(2);
      const hs = r.report.results.find((x) => x.gate === 'hardcoded-strings')!;
      expect(hs.verdict).toBe('error');
      expect(hs.reason).toBe('hardcoded-strings was interrupted (SIGINT) before it finished: nothing it judged counts');
      expect(r.report.notes).toContain('the run was interrupted (SIGINT): its verdicts are incomplete');
      expect(r.wallMs).toBeLessThan(parseMs / 3);
    });
  });
});
