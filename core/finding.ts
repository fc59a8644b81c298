// Building findings with stable fingerprints (DESIGN.md "finding").
import { createHash } from 'node:crypto';
import type { Finding } from './types.js';

/**
 * sha256 hex of gate, rule, file and `subject` (what the finding is about: a key, a literal, a rule match id;
 * never a secret value). Lines are left out so the fingerprint survives edits above the finding.
 */
export function fingerprint(gate: string, rule: string, file: string, subject: string): string {
  return createHash('sha256').update(`${gate}\0${rule}\0${file}\0${subject}`).digest('hex');
}

/**
 * Complete a gate's raw finding: fills `gate` and, when empty, `fingerprint` (subject = message). `members` is kept
 * non-enumerable: the split of a staged run reads it (core/introduced.ts), reports and the ledger never show it.
 */
export function completeFinding(gate: string, f: Omit<Finding, 'gate' | 'fingerprint'> & Partial<Finding>): Finding {
  const out: Finding = {
    gate,
    rule: f.rule,
    file: f.file,
    line: f.line,
    column: f.column,
    message: f.message,
    severity: f.severity,
    fingerprint: f.fingerprint || fingerprint(gate, f.rule, f.file, f.message),
  };
  if (f.members) Object.defineProperty(out, 'members', { value: f.members, enumerable: false });
  return out;
}

/**
 * `copy` (a rebuilt result, e.g. redacted) with each finding's non-enumerable `members` taken back from `from`, the
 * findings it was built from, index by index (a rebuild through Object.entries drops them). Returns `copy`.
 */
export function keepMembers<T extends { findings: Finding[] }>(from: readonly Finding[], copy: T): T {
  from.forEach((f, i) => {
    const to = copy.findings[i];
    if (f.members && to && !to.members) Object.defineProperty(to, 'members', { value: f.members, enumerable: false });
  });
  return copy;
}
