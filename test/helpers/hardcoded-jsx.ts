// Shared by the hardcoded-strings JSX tests: candidates as `line:column literal (context)`, each checked to point at
// the first character of its JSX text or at a literal's opening quote; and one gate run over files in memory.
import { expect } from 'vitest';
import { runGate } from '../../core/runner.js';
import { memoryWorkspace } from '../../core/workspace.js';
import { configSchema, hardcodedStringsGate } from '../../gates/hardcoded-strings/index.js';
import type { Extraction } from '../../gates/hardcoded-strings/model.js';

export function at(src: string, e: Extraction): string[] {
  const lines = src.split('\n');
  for (const c of e.candidates) {
    const ch = lines[c.line - 1]?.[c.column - 1];
    expect([c.literal[0], '"', "'", '`'], `${c.line}:${c.column} ${c.literal}`).toContain(ch);
  }
  return e.candidates.map((c) => `${c.line}:${c.column} ${c.literal} (${c.context})`);
}

/** Run hardcoded-strings (staged mode) over `files`, judging `targets` (default: every file). */
export async function runHardcoded(files: Record<string, string>, config: unknown = {}, targets?: string[]) {
  const ws = memoryWorkspace({ files, mode: 'staged', ...(targets ? { targets } : {}) });
  return runGate({ gate: hardcodedStringsGate, config: configSchema.parse(config), timeoutMs: 30_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache' });
}
