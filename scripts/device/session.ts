// What the device verbs (tap, device, dump-audit --device) share: which worktree they run from (a lease's owner), the
// adb context, durations from the command line, and their ledger lines.
import type { CommandIO } from '../../core/command.js';
import { LoopgatesError } from '../../core/errors.js';
import { findTopLevel, gitEnv, resolveRepo } from '../../core/git.js';
import { appendLedger, ledgerPath, type LedgerEntry } from '../../core/ledger.js';
import { messages } from '../../core/messages.js';
import { runTool } from '../../core/tools.js';
import { loadSections } from '../../core/config.js';
import type { Signature } from '../retry/match.js';
import { loadSignatures } from '../retry/signatures.js';
import { dumpFlakes } from '../tap/loop.js';
import type { AdbContext } from './android.js';
import type { DeviceSection } from './config.js';

/** The worktree a device verb runs from: the git top level of the current folder, or the folder itself outside git. */
export async function worktreeOf(io: Pick<CommandIO, 'cwd' | 'env'>): Promise<{ root: string; inGit: boolean }> {
  const top = await findTopLevel(io.cwd, gitEnv(io.env, io.cwd));
  return { root: top ?? io.cwd, inGit: top !== null };
}

/** How the device verbs run adb: the one tool runner, in the current folder, with the verb's environment. */
export function adbContext(io: Pick<CommandIO, 'cwd' | 'env' | 'signal'>): AdbContext {
  return { runTool, cwd: io.cwd, env: io.env, signal: io.signal };
}

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * A duration such as `500ms`, `10s`, `1.5m`, `2h`, in ms (rounded). A unit is required: `10` could mean either.
 * Throws LoopgatesError (exit 2) naming `flag` for anything else, or for a value outside [minMs, maxMs].
 */
export function parseDuration(flag: string, value: string, verb: string, minMs = 1, maxMs = 24 * 3_600_000): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(value.trim());
  if (!m) throw new LoopgatesError(messages.badArgs(`${flag} ${JSON.stringify(value)} is not a duration (write it with a unit: 500ms, 10s, 2m, 1h)`, verb), `loopgates ${verb} --help`);
  const ms = Math.round(Number(m[1]) * UNITS[m[2]!]!);
  if (ms < minMs || ms > maxMs) throw new LoopgatesError(messages.badArgs(`${flag} ${value} is outside ${minMs} ms … ${maxMs} ms`, verb), `loopgates ${verb} --help`);
  return ms;
}

/**
 * Append the device verbs' lines to the ledger of the worktree (DESIGN.md "ledger"; outside git, the temp-folder
 * ledger core/ledger.ts names). A ledger that cannot be written is said on stderr; the verb's outcome stands.
 */
export async function appendDeviceLedger(io: Pick<CommandIO, 'env' | 'stderr'>, where: { root: string; inGit: boolean }, entries: readonly LedgerEntry[]): Promise<void> {
  if (entries.length === 0) return;
  try {
    if (!where.inGit) {
      appendLedger(await ledgerPath(where.root, null), entries);
      return;
    }
    const { facts, env } = await resolveRepo(where.root, io.env);
    appendLedger(await ledgerPath(facts.topLevel, facts, env), entries);
  } catch (e) {
    io.stderr(`${messages.ledgerFailed(e instanceof Error ? e.message : String(e))}\n`);
  }
}

/**
 * What the device verbs take from the loopgates.yaml at `root` (none there: the defaults): its `device:` section and
 * the flake signatures a failed dump is retried on (rules/flakes.yaml, replaced by id by the file's `retry:`), proven.
 * Throws ConfigError (exit 2) for an invalid `device:` or `retry:` section, LoopgatesError for an unproven signature.
 */
export function deviceConfigOf(root: string): { device: DeviceSection | undefined; flakes: Signature[] } {
  const sections = loadSections(root);
  return { device: sections.device, flakes: dumpFlakes(loadSignatures(sections.retry).flakes) };
}
