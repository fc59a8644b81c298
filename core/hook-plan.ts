// The hook plan: what the stored hook (hooks/pre-commit) needs to pass a commit without starting node when no
// enabled gate reads any staged path. Compiled by node from the staged loopgates.yaml on every hook run whose config
// blob id differs from the plan's, written to `<git common dir>/loopgates/cache/hook-plan.sh` (a cache: deleting it
// only means node starts on the next commit): sh assignments the hook sources (hookPlanText).
//
// The shell hands over to node on any doubt: a plan of another version or format, for another CLI, for another
// config blob; an unstaged config edit; a pending install journal; a ledger place it cannot vouch for; LOOPGATES_SKIP
// or a repository-/config-selecting GIT_* variable set; a staged path git must quote; no HEAD; and, of course, any
// staged path one of the `pattern` lines matches (Gate.stagedPatterns; a gate without them matches every path).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILE, type ConfiguredGate } from './config-model.js';
import { blobId } from './git.js';
import { messages } from './messages.js';

/** The plan file's name inside the cache root (core/ledger.ts cacheRoot). Another name than format 2's line file
 * (`hook-plan`), which the stored hook of another version may still read: a sourced file must never be read as lines,
 * nor a line file sourced. */
export const HOOK_PLAN_FILE = 'hook-plan.sh';

/** Bumped whenever the stored hook would read a plan differently. */
export const HOOK_PLAN_FORMAT = 3;

/** What one plan says. */
export interface HookPlanInput {
  version: string;
  /** The CLI entry the stored hook ran (LOOPGATES_HOOK_CLI): a plan serves only the hook that runs that CLI. */
  cli: string;
  /** Blob id of the staged loopgates.yaml the plan was compiled from. */
  configOid: string;
  /** Where this repository's ledger is (core/ledger.ts ledgerPath), absolute. */
  ledger: string;
  /**
   * The exact lines `.loopgates/.gitignore` must hold for `ledger` to be the right place (install's file when the
   * ledger is in the tree), or null when the ledger is in the git dir: then `.loopgates/.gitignore` must not exist.
   */
  ignoreLines: readonly string[] | null;
  /** Every gate of the config, enabled or not. */
  gates: readonly ConfiguredGate[];
  /**
   * The gate the shell can judge itself in its plain case (secrets: gates/secrets/fast.ts): its patterns and its skip
   * ledger line are written apart (loopgates_p_shell_patterns / _shell_line), so the shell knows a commit only it reads.
   */
  shellGate?: string;
}

/** A `case` pattern for files ending in `.<ext>`, letters in either case (`*.[kK][tT]`), for Gate.stagedPatterns. */
export function anyCaseExtension(ext: string): string {
  return `*.${[...ext].map((c) => (c.toLowerCase() === c.toUpperCase() ? c : `[${c.toLowerCase()}${c.toUpperCase()}]`)).join('')}`;
}

/** A character no value of the plan may hold: each is one line of a `case` list or of the ledger. */
const UNSAFE = /[\n\r\0]/;

/** `v` as one sh word in single quotes (a `'` as `'\''`). */
const quoted = (v: string): string => `'${v.replace(/'/g, "'\\''")}'`;

/** The plan's first lines: what writeHookPlan compares to keep a current plan, and what the shell checks first. */
export function hookPlanHeader(version: string, cli: string, configOid: string): string {
  return `# loopgates hook plan (core/hook-plan.ts), sourced by the stored hook\nloopgates_p_format=${HOOK_PLAN_FORMAT}\nloopgates_p_version=${quoted(version)}\nloopgates_p_cli=${quoted(cli)}\nloopgates_p_config=${quoted(configOid)}\n`;
}

/**
 * The plan text: sh assignments the stored hook sources (one buffered read, where `read` costs a system call a
 * byte), each value single-quoted, lists one item a line; or null when an item cannot be held (a path with a newline):
 * then no plan is written and node judges every commit. The last line, `loopgates_p_end=1`, tells a whole file.
 */
export function hookPlanText(p: HookPlanInput): string | null {
  const items: string[] = [p.version, p.cli, p.configOid, p.ledger, ...(p.ignoreLines ?? [])];
  const list = (xs: readonly string[]) => quoted(xs.map((x) => `${x}\n`).join(''));
  const notes: string[] = [];
  const ledgerLines: string[] = [];
  const patterns: string[] = [];
  const shellPatterns: string[] = [];
  const deleted: string[] = [];
  let shellLine = '';
  for (const g of p.gates) {
    if (!g.enabled) {
      notes.push(messages.disabledGate(g.gate.id));
      continue;
    }
    // A gate with globs the user wrote (Gate.selects) has its blind-glob warning said on every run (core/blind.ts):
    // only node can say it, so such a gate reads every path here.
    const userGlobs = (g.gate.selects?.(g.settings.config) ?? []).some((s) => s.globs.length > 0);
    const gatePatterns = g.gate.stagedPatterns && !userGlobs ? g.gate.stagedPatterns(g.settings.config) : ['*'];
    // The ledger line a shell skip appends for this gate: what entriesFor (core/ledger.ts) writes for a skip, with
    // `@TS@` for the time the shell fills in and `via` naming who judged. The shell's own gate's line is `@SHELL@`
    // in the list: the shell puts its skip or its pass there.
    const line = JSON.stringify({ ts: '@TS@', kind: 'run', gate: g.gate.id, verdict: 'skip', mode: 'staged', counts: { files: 0, items: 0, filtered: 0, suppressed: 0, findings: 0 }, durationMs: 0, findings: [], via: 'hook-plan' });
    if (g.gate.id === p.shellGate) {
      shellLine = line;
      ledgerLines.push('@SHELL@');
      shellPatterns.push(...gatePatterns);
    } else {
      ledgerLines.push(line);
      patterns.push(...gatePatterns);
    }
    // Patterns only a staged deletion must match (the shell tests them on `D` lines of diff-index).
    if (g.gate.stagedPatterns && !userGlobs && g.gate.deletedPatterns) deleted.push(...g.gate.deletedPatterns(g.settings.config));
  }
  // A commit that changes loopgates.yaml is node's whatever the gates read: only node compares it with HEAD's and
  // refuses a gate switched off or narrowed by it (commands/hook.ts refuseQuietDisable), and node writes this plan
  // from the staged config even when that refusal stands.
  patterns.push(CONFIG_FILE);
  items.push(...notes, ...ledgerLines, ...patterns, ...shellPatterns, ...deleted, shellLine);
  if (items.some((l) => UNSAFE.test(l))) return null;
  const lines = [
    hookPlanHeader(p.version, p.cli, p.configOid).replace(/\n$/, ''),
    `loopgates_p_ledger=${quoted(p.ledger)}`,
    p.ignoreLines ? `loopgates_p_ignore=${list(p.ignoreLines)}` : 'loopgates_p_ignore_absent=1',
    `loopgates_p_notes=${list(notes)}`,
    `loopgates_p_lines=${list(ledgerLines)}`,
    `loopgates_p_shell_line=${quoted(shellLine)}`,
    `loopgates_p_patterns=${list(patterns)}`,
    `loopgates_p_shell_patterns=${list(shellPatterns)}`,
    `loopgates_p_deleted=${list(deleted)}`,
    'loopgates_p_end=1',
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * Write (atomically) or remove the plan in `cacheRoot`. `text` null removes it: node judges every commit until a
 * plan can be written again. Errors are swallowed: a missing plan only costs node's start-up.
 */
export function storeHookPlan(cacheRoot: string, text: string | null): void {
  const file = join(cacheRoot, HOOK_PLAN_FILE);
  try {
    if (text === null) {
      rmSync(file, { force: true });
      return;
    }
    mkdirSync(cacheRoot, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  } catch {
    /* no plan: node starts next time */
  }
}

/** The prefix of the kept copy of a staged loopgates.yaml, `<prefix><blob id>`, in the cache root. */
export const CONFIG_COPY_PREFIX = 'hook-plan-config-';

/**
 * Keeps, under its blob id, a copy of the staged loopgates.yaml (`configOid`) when the work tree's file is byte for
 * byte that blob, so the stored hook can tell an unstaged config edit by reading both files, with no git call: the
 * work tree's file equals the copy exactly when it equals the staged blob. Never written otherwise (an unstaged edit, a
 * CRLF checkout, a NUL byte): then the shell hands every commit to node, which refuses or judges it. A cache: any failure only
 * means node starts.
 */
export function keepConfigCopy(cacheRoot: string, topLevel: string, configOid: string, objectFormat: string): void {
  const file = join(cacheRoot, `${CONFIG_COPY_PREFIX}${configOid}`);
  try {
    if (existsSync(file)) return;
    const bytes = readFileSync(join(topLevel, CONFIG_FILE));
    // The shell compares texts with `read`, which drops NUL bytes: such a config is node's to judge every time.
    if (bytes.includes(0) || blobId(bytes, objectFormat) !== configOid) return;
    mkdirSync(cacheRoot, { recursive: true });
    for (const f of readdirSync(cacheRoot)) if (f.startsWith(CONFIG_COPY_PREFIX)) rmSync(join(cacheRoot, f), { force: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, bytes);
    renameSync(tmp, file);
  } catch {
    /* no copy: node judges the next commit */
  }
}

/** The file the stored hook reads the boot's wall-clock time from (hooks/pre-commit loopgates_now). */
export const HOOK_CLOCK_FILE = 'hook-clock';

/**
 * On Linux, keeps `<cacheRoot>/hook-clock` for this boot: the boot id (/proc/sys/kernel/random/boot_id), then the
 * UTC ms the machine booted at (Date.now() minus /proc/uptime), so the stored hook can time its ledger lines as
 * boot time plus /proc/uptime without forking date(1). Rewritten when the boot id differs; elsewhere (no /proc) never
 * written. A cache: any failure only means the hook runs date(1).
 */
export function keepHookClock(cacheRoot: string): void {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    if (!/^[0-9a-f-]{36}$/.test(boot)) return;
    const file = join(cacheRoot, HOOK_CLOCK_FILE);
    let current = '';
    try {
      current = readFileSync(file, 'utf8');
    } catch {
      /* none yet */
    }
    if (current.startsWith(`${boot}\n`)) return;
    const uptime = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
    if (!Number.isFinite(uptime)) return;
    mkdirSync(cacheRoot, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${boot}\n${Math.round(Date.now() - uptime * 1000)}\n`);
    renameSync(tmp, file);
  } catch {
    /* no /proc, or no cache: the hook runs date(1) */
  }
}
