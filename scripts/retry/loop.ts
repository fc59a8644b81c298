// The retry runner's four answers (DESIGN.md "the four answers"), as data: `loopgates explain` prints them with
// the bounds in force.
import type { LoopAnswers } from '../../core/types.js';
import type { RetryBounds } from './signatures.js';
import { TAIL_BYTES } from './tail.js';

/** The four answers of `loopgates retry` under `bounds` (the defaults or loopgates.yaml `retry.bounds`). */
export function retryLoopAnswers(bounds: RetryBounds): LoopAnswers {
  return {
    runs: 'the command after --, as an argument array (no shell), in a process group of its own; its output is streamed as it runs',
    reads: `each attempt's exit code and the last ${TAIL_BYTES / 1024} KiB of its stdout and of its stderr, against the flake signatures (rules/flakes.yaml, loopgates.yaml retry.signatures) and the human blockers (rules/ask-human.yaml, retry.askHuman); the ledger's earlier attempts for the anti-loop bounds`,
    ends: 'a pass; at once on a failure no flake signature matches (the change is to blame); after --max retries (default 1, at most 3) of a matched flake; on the per-attempt --timeout (the whole process group is ended)',
    asks: `a human-blocker match (signing, credentials, a missing SDK, a licence, a full disk): ASK-HUMAN(<id>) at once; the same failure fingerprint ${bounds.sameCause} times in a row for one command and task: ASK-HUMAN(same-cause); ${bounds.taskFailures} failed attempts for one task within ${bounds.taskWindowHours} h: ASK-HUMAN(task-budget); exit 3 with the evidence`,
  };
}
