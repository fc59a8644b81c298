// The retry engine's rule for command gates (loopgates.yaml `commands[].retry: {signatures, max}`): a failed run is
// re-run only when its output matches one of the named flake signatures, at most `max` times; the outcome is
// written in the retry runner's words (FLAKY(<id>) n/m, FAILED-AFTER-RETRY(<id>) n/m) as a note the hook prints,
// and every attempt goes to the ledger as `loopgates retry` writes it, so the anti-loop bounds count it.
import { createHash, randomBytes } from 'node:crypto';
import type { ToolResult } from '../../core/types.js';
import type { CommandRetrySpec } from './config.js';
import { failureFingerprint } from './fingerprint.js';
import { compileSignature, firstMatch } from './match.js';
import type { RetryLedgerEntry } from './memory.js';
import { TAIL_BYTES } from './tail.js';

const tail = (s: string) => (s.length > TAIL_BYTES ? s.slice(-TAIL_BYTES) : s);

/** One attempt's ledger line, without what the writer adds (ts, kind, gate, task). */
export type AttemptLine = Omit<RetryLedgerEntry, 'ts' | 'kind' | 'gate' | 'task'>;

/**
 * Run `once` and, while it fails with a known flake of `block` and retries are left, again. Pushes one note per
 * forgiven attempt and the outcome to `notes`. Without a block (or unresolved ids) it runs exactly once. With
 * `record` (and `argv`, the command as run), each attempt is handed over as a retry ledger line: the same `cmd` hash
 * as `loopgates retry -- <argv>`, one `run` id, the attempt, exit code, duration, verdict, failure fingerprint and the
 * matched signature (`forgiven` when it was retried because of it).
 */
export async function withFlakeRetry(
  block: CommandRetrySpec | undefined,
  once: () => Promise<ToolResult>,
  notes: string[],
  ledger?: { argv: readonly string[]; record: (line: AttemptLine) => void },
): Promise<ToolResult> {
  const signatures = (block?.resolved ?? []).map((s) => compileSignature(s, 'flake', 'repository'));
  const maxAttempts = 1 + (signatures.length ? block!.max : 0);
  const cmd = ledger ? createHash('sha256').update(JSON.stringify(ledger.argv)).digest('hex').slice(0, 16) : '';
  const run = randomBytes(6).toString('hex');
  let forgiven: string | undefined;
  for (let n = 1; ; n++) {
    const r = await once();
    const base = { cmd, attempt: n, run, exitCode: r.exitCode, durationMs: Math.round(r.durationMs) };
    if (r.exitCode === 0 && !r.timedOut) {
      ledger?.record({ ...base, verdict: 'pass' });
      if (forgiven) notes.push(`FLAKY(${forgiven}) ${n}/${maxAttempts}: passed after a retry the known flake ${forgiven} earned`);
      return r;
    }
    const flake = r.timedOut ? null : firstMatch(signatures, [tail(r.stdout), tail(r.stderr)], r.exitCode);
    const retrying = !!flake && n < maxAttempts;
    if (ledger) {
      const ending = r.timedOut ? 'timeout' : r.exitCode !== null ? `exit ${r.exitCode}` : 'signal';
      ledger.record({
        ...base,
        verdict: r.timedOut ? 'timeout' : 'fail',
        fingerprint: failureFingerprint(`${tail(r.stdout)}\n${tail(r.stderr)}`, ending),
        ...(flake ? { signature: flake.spec.id } : {}),
        ...(retrying ? { forgiven: true } : {}),
      });
    }
    if (flake && retrying) {
      notes.push(`TRY ${n} FAIL exit ${r.exitCode ?? 'none'}: known flake ${flake.spec.id}, retrying`);
      forgiven = flake.spec.id;
      continue;
    }
    if (forgiven) notes.push(`FAILED-AFTER-RETRY(${forgiven}) ${n}/${maxAttempts}`);
    return r;
  }
}
