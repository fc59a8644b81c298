// Run one gate over a map of files, in memory, as the hook (staged) or `run --all` (all) would judge them: the
// gate's config is its schema's parse of `config` (defaults for `{}`), the runner is core/runner.ts runGate.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGate } from '../../core/runner.js';
import type { Gate, GateResult, Mode, RunTool } from '../../core/types.js';
import { memoryWorkspace } from '../../core/workspace.js';

export interface GateOverOptions {
  /** `staged` (the hook: targets are what the commit changes) or `all` (run --all). Default `staged`. */
  mode?: Extract<Mode, 'staged' | 'all'>;
  /** The gate's section of loopgates.yaml, before validation; default `{}` (the gate's defaults). */
  config?: unknown;
  /** Which of the files are targets (staged); default every file. */
  targets?: readonly string[];
  /** A reason zero inputs is fine in `all` mode (loopgates.yaml allowEmpty). */
  allowEmpty?: string;
  timeoutMs?: number;
  runTool?: RunTool;
}

/** `gate` judged over `files` (repository-relative path -> content); each call has its own cache dir, removed after. */
export async function runGateOver<C>(gate: Gate<C>, files: Readonly<Record<string, string | Buffer>>, options: GateOverOptions = {}): Promise<GateResult> {
  const ws = memoryWorkspace({ files, mode: options.mode ?? 'staged', ...(options.targets ? { targets: options.targets } : {}) });
  const config = gate.configSchema.parse(options.config ?? {});
  const cacheRoot = mkdtempSync(join(tmpdir(), 'loopgates-gate-test-'));
  try {
    return await runGate(
      { gate, config, timeoutMs: options.timeoutMs ?? 30_000, allowEmpty: options.allowEmpty },
      { ws, cacheRoot, ...(options.runTool ? { runTool: options.runTool } : {}) },
    );
  } finally {
    rmSync(cacheRoot, { recursive: true, force: true });
  }
}

/** `file:line rule` of each error finding, for `toEqual` / `toContain` assertions. */
export function errorsAt(result: GateResult): string[] {
  return result.findings.filter((f) => f.severity === 'error').map((f) => `${f.file}:${f.line} ${f.rule}`);
}
