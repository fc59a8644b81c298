// The ledger (DESIGN.md "ledger"): JSON Lines (jsonlines.org), one object per gate run, bypass, retry attempt,
// mutation outcome or self-test, appended; bounded (LEDGER_MAX_BYTES: the oldest lines are dropped, the file rewritten
// atomically). It holds file:line:rule and fingerprints, never a finding's message (which could quote a secret). It
// lives where git ignores it, so loopgates never adds an untracked file.
import { createHash } from 'node:crypto';
import { appendFileSync, closeSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { redactDeep } from './redact.js';
import { isIgnored } from './git.js';
import type { RepoFacts } from './git.js';
import { isBypassed } from './runner.js';
import type { Counts, GateResult, Mode } from './types.js';

/** What a ledger line records. */
export type LedgerKind = 'run' | 'bypass' | 'retry' | 'mutation' | 'selftest' | 'tap' | 'device' | 'disable';

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

/** The `.loopgates/.gitignore` that `loopgates install` writes (commands/install/render.ts re-exports it). */
export const LOOPGATES_GITIGNORE = '# written by loopgates install: run output, never committed\nledger.jsonl\ncache/\n';

/**
 * Where this repository's ledger goes: `<top>/.loopgates/ledger.jsonl` when git ignores that path
 * (`git check-ignore`), else `<git common dir>/loopgates/ledger.jsonl` (inside .git, never an untracked file).
 * Outside git (`facts` null): `<os tmp>/loopgates/ledger-<sha256(root) prefix>.jsonl`. Throws GitError when git fails.
 * `tracks` (the staged snapshot's index: whether it holds an entry at a path, or below it) lets a commit skip the git
 * call when .loopgates/.gitignore is install's own (`installIgnores`).
 */
export async function ledgerPath(root: string, facts: RepoFacts | null, env?: Readonly<Record<string, string>>, tracks?: (path: string, under?: boolean) => Promise<boolean>): Promise<string> {
  if (!facts) return join(tmpdir(), 'loopgates', `ledger-${createHash('sha256').update(root).digest('hex').slice(0, 16)}.jsonl`);
  if (tracks && (await installIgnores(facts.topLevel, tracks))) return join(facts.topLevel, LEDGER_IN_TREE);
  if (await isIgnored(facts.topLevel, LEDGER_IN_TREE, env)) return join(facts.topLevel, LEDGER_IN_TREE);
  return join(facts.commonDir, 'loopgates', 'ledger.jsonl');
}

/**
 * Whether git ignores `.loopgates/ledger.jsonl` by install's own .loopgates/.gitignore, known without asking git
 * (gitignore(5)): that file's `ledger.jsonl` is the last pattern matching the path in the .gitignore nearest to it,
 * which git weighs above every parent .gitignore, info/exclude and core.excludesFile, so the path is ignored unless
 * the index tracks it. Only when `.loopgates` is a plain directory (no symlink, no repository of its own, nothing the
 * index holds at that name) and the .gitignore a regular file (git reads no symlinked one) with exactly install's
 * bytes; any other case is git's to answer (false).
 */
async function installIgnores(top: string, tracks: (path: string, under?: boolean) => Promise<boolean>): Promise<boolean> {
  try {
    const dir = join(top, '.loopgates');
    if (!lstatSync(dir).isDirectory() || lstatSync(join(dir, '.git'), { throwIfNoEntry: false }) !== undefined) return false;
    const ignore = join(dir, '.gitignore');
    if (!lstatSync(ignore).isFile() || readFileSync(ignore, 'utf8') !== LOOPGATES_GITIGNORE) return false;
  } catch {
    return false;
  }
  // The folder's own files (.gitignore, hooks/) are tracked; an entry named .loopgates itself, or the ledger, is not.
  return !(await tracks('.loopgates')) && !(await tracks(LEDGER_IN_TREE, true));
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

/**
 * The ledger's bound: an append that would take the file past `maxBytes` first drops its oldest whole lines, keeping
 * the newest lines that fit in `keepBytes` (new ones included), and replaces the file atomically (a temp file in the
 * same directory, then rename(2)), so a reader sees the old ledger or the new one, never half of one. Between the two
 * bounds appends are plain O_APPEND writes. Defaults: 2 MiB and 1 MiB (about 35 `run --all` on a repository the size
 * of AntennaPod at ~30 KB a run, or thousands of commits; the anti-loop bound reads only recent lines).
 */
export interface LedgerBound {
  /** Bytes the file may reach (default LEDGER_MAX_BYTES). */
  maxBytes: number;
  /** Bytes kept when it would pass `maxBytes` (default LEDGER_KEEP_BYTES); at least the newest line is kept. */
  keepBytes: number;
}

/** 2 MiB: the most bytes the ledger file holds after an append. */
export const LEDGER_MAX_BYTES = 2 * 1024 * 1024;
/** 1 MiB: what a rotation keeps (the newest whole lines). */
export const LEDGER_KEEP_BYTES = 1024 * 1024;
const DEFAULT_BOUND: LedgerBound = { maxBytes: LEDGER_MAX_BYTES, keepBytes: LEDGER_KEEP_BYTES };

/** Size of `path` and whether its last byte is a newline (true when empty); null when it does not exist. */
function tailState(path: string): { size: number; endsWithNewline: boolean } | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return { size, endsWithNewline: true };
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return { size, endsWithNewline: last[0] === 0x0a };
  } finally {
    closeSync(fd);
  }
}

/** The newest whole lines of `text` (complete lines, ending in '\n') that fit in `keepBytes`; at least the last one. */
function newestLines(text: Buffer, keepBytes: number): Buffer {
  if (text.length <= keepBytes) return text;
  // The first line start at or after length - keepBytes: a cut right after a newline.
  const from = text.indexOf(0x0a, text.length - keepBytes - 1) + 1;
  if (from > 0 && from < text.length) return text.subarray(from);
  const lastStart = text.lastIndexOf(0x0a, text.length - 2) + 1;
  return text.subarray(lastStart);
}

/** Append `data` (whole lines) to the ledger file at `path`, within `bound`. */
function appendBounded(path: string, data: Buffer, bound: LedgerBound): void {
  mkdirSync(dirname(path), { recursive: true });
  const tail = tailState(path);
  // A torn last line (a run killed mid-write) stays a line of its own: the next entry is not glued onto it.
  const chunk = tail && !tail.endsWithNewline ? Buffer.concat([Buffer.from('\n'), data]) : data;
  if ((tail?.size ?? 0) + chunk.length <= bound.maxBytes) {
    appendFileSync(path, chunk);
    return;
  }
  const all = Buffer.concat([tail ? readFileSync(path) : Buffer.alloc(0), chunk]);
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, newestLines(all, bound.keepBytes));
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * Append `entries` to the ledger at `path` (one JSON object per line), creating its directory, within `bound`
 * (LedgerBound; default 2 MiB, rotated down to the newest 1 MiB). Throws on I/O errors.
 */
export function appendLedger(path: string, entries: readonly LedgerEntry[], bound: LedgerBound = DEFAULT_BOUND): void {
  if (entries.length === 0) return;
  // The last guard of this sink: a credential in any field (a bypass reason, a gate's note) is not written.
  appendBounded(path, Buffer.from(entries.map((e) => `${JSON.stringify(redactDeep(e))}\n`).join(''), 'utf8'), bound);
}

/**
 * Move the ledger at `from` to `to`, after any lines already at `to` (within `bound`), and remove `from`. Used by
 * `loopgates uninstall` when the in-tree ledger (.loopgates/ledger.jsonl) would no longer be ignored by git: its run
 * history goes where ledgerPath puts it then, inside the git dir, instead of showing up as an untracked file. Returns
 * false when there is nothing at `from`. Throws on I/O errors.
 */
export function moveLedger(from: string, to: string, bound: LedgerBound = DEFAULT_BOUND): boolean {
  let text: Buffer;
  try {
    text = readFileSync(from);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  if (text.length > 0) appendBounded(to, text[text.length - 1] === 0x0a ? text : Buffer.concat([text, Buffer.from('\n')]), bound);
  rmSync(from, { force: true });
  return true;
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
