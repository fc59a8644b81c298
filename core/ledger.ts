// The ledger (DESIGN.md "ledger"): JSON Lines (jsonlines.org), one object per gate run, bypass, retry attempt,
// mutation outcome or self-test, appended, never rewritten. It holds file:line:rule and fingerprints, never a finding's
// message (which could quote a secret). It lives where git ignores it, so loopgates never adds an untracked file.
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isIgnored } from './git.js';
import type { RepoFacts } from './git.js';
import { isBypassed } from './runner.js';
import type { Counts, GateResult, Mode } from './types.js';

/** What a ledger line records. */
export type LedgerKind = 'run' | 'bypass' | 'retry' | 'mutation' | 'selftest';

/** A finding as the ledger keeps it: where and which rule, and its fingerprint; no message. */
export interface LedgerFinding {
  file: string;
  line: number;
  rule: string;
  fingerprint: string;
}

/**
 * One ledger line. `ts` is ISO 8601 UTC; `verdict` is a gate verdict (run, bypass, retry, selftest) or a mutation
 * outcome in Stryker's words (killed, survived, no-coverage, error, timeout); `durationMs` in ms.
 */
export interface LedgerEntry {
  ts: string;
  kind: LedgerKind;
  gate: string;
  verdict: string;
  mode?: Mode;
  counts?: Counts;
  durationMs?: number;
  findings?: LedgerFinding[];
  /** Extra machine-readable fields of a kind (attempt number, operator id...); never message text from a gate. */
  [extra: string]: unknown;
}

/** The ledger path inside the work tree, relative to the top level. */
export const LEDGER_IN_TREE = '.loopgates/ledger.jsonl';

/**
 * Where this repository's ledger goes: `<top>/.loopgates/ledger.jsonl` when git ignores that path
 * (`git check-ignore`), else `<git common dir>/loopgates/ledger.jsonl` (inside .git, never an untracked file).
 * Outside git (`facts` null): `<os tmp>/loopgates/ledger-<sha256(root) prefix>.jsonl`. Throws GitError when git fails.
 */
export async function ledgerPath(root: string, facts: RepoFacts | null, env?: Readonly<Record<string, string>>): Promise<string> {
  if (!facts) return join(tmpdir(), 'loopgates', `ledger-${createHash('sha256').update(root).digest('hex').slice(0, 16)}.jsonl`);
  if (await isIgnored(facts.topLevel, LEDGER_IN_TREE, env)) return join(facts.topLevel, LEDGER_IN_TREE);
  return join(facts.commonDir, 'loopgates', 'ledger.jsonl');
}

/**
 * Where per-gate caches go (RunOptions.cacheRoot): `<git common dir>/loopgates/cache`, shared by linked worktrees
 * and outside the tree; outside git `<os tmp>/loopgates/cache-<sha256(root) prefix>`.
 */
export function cacheRoot(root: string, facts: RepoFacts | null): string {
  if (!facts) return join(tmpdir(), 'loopgates', `cache-${createHash('sha256').update(root).digest('hex').slice(0, 16)}`);
  return join(facts.commonDir, 'loopgates', 'cache');
}

/** Ledger lines for one run's results: `bypass` for LOOPGATES_SKIP bypasses, `run` for the rest. */
export function entriesFor(results: readonly GateResult[], mode: Mode, now: Date = new Date()): LedgerEntry[] {
  const ts = now.toISOString();
  return results.map((r) => ({
    ts,
    kind: isBypassed(r) ? 'bypass' : 'run',
    gate: r.gate,
    verdict: r.verdict,
    mode,
    counts: r.counts,
    durationMs: Math.round(r.durationMs),
    findings: r.findings.map((f) => ({ file: f.file, line: f.line, rule: f.rule, fingerprint: f.fingerprint })),
  }));
}

/** Append `entries` to the ledger at `path` (one JSON object per line), creating its directory. Throws on I/O errors. */
export function appendLedger(path: string, entries: readonly LedgerEntry[]): void {
  if (entries.length === 0) return;
  mkdirSync(dirname(path), { recursive: true });
  appendFileSync(path, entries.map((e) => `${JSON.stringify(e)}\n`).join(''), 'utf8');
}

/** Every well-formed line of the ledger at `path` (a torn last line from a crash is skipped); [] when absent. */
export function readLedger(path: string): LedgerEntry[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  const out: LedgerEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const v = JSON.parse(line) as LedgerEntry;
      if (v && typeof v === 'object' && typeof v.kind === 'string' && typeof v.gate === 'string') out.push(v);
    } catch {
      /* torn line */
    }
  }
  return out;
}
