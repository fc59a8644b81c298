// The retry engine's rule for command gates (loopgates.yaml `commands[].retry: {signatures, max}`): a failed run is
// re-run only when its output matches one of the named flake signatures, at most `max` times; the outcome is
// written in the retry runner's words (FLAKY(<id>) n/m, FAILED-AFTER-RETRY(<id>) n/m) as a note the hook prints.
import type { ToolResult } from '../../core/types.js';
import type { CommandRetrySpec } from './config.js';
import { compileSignature, firstMatch } from './match.js';
import { TAIL_BYTES } from './tail.js';

const tail = (s: string) => (s.length > TAIL_BYTES ? s.slice(-TAIL_BYTES) : s);

/**
 * Run `once` and, while it fails with a known flake of `block` and retries are left, again. Pushes one note per
 * forgiven attempt and the outcome to `notes`. Without a block (or unresolved ids) it runs exactly once.
 */
export async function withFlakeRetry(block: CommandRetrySpec | undefined, once: () => Promise<ToolResult>, notes: string[]): Promise<ToolResult> {
  const signatures = (block?.resolved ?? []).map((s) => compileSignature(s, 'flake', 'repository'));
  const maxAttempts = 1 + (signatures.length ? block!.max : 0);
  let forgiven: string | undefined;
  for (let n = 1; ; n++) {
    const r = await once();
    if (r.exitCode === 0 && !r.timedOut) {
      if (forgiven) notes.push(`FLAKY(${forgiven}) ${n}/${maxAttempts}: passed after a retry the known flake ${forgiven} earned`);
      return r;
    }
    const flake = r.timedOut ? null : firstMatch(signatures, [tail(r.stdout), tail(r.stderr)], r.exitCode);
    if (flake && n < maxAttempts) {
      notes.push(`TRY ${n} FAIL exit ${r.exitCode ?? 'none'}: known flake ${flake.spec.id}, retrying`);
      forgiven = flake.spec.id;
      continue;
    }
    if (forgiven) notes.push(`FAILED-AFTER-RETRY(${forgiven}) ${n}/${maxAttempts}`);
    return r;
  }
}
