// The semantic checks of loopgates.yaml's retry parts, run by the config loader after the schema: a repository
// signature that would swallow every failure is refused at load (with its line), and each command gate's `retry:`
// block is resolved to the signature definitions it names, kept on the gate's spec so the cached configuration
// (core/config-cache.ts) carries them to the commit path.
import { compileSignature, ordinaryFailures, proveSignatures, shippedSignatures } from './signatures.js';
import type { RetrySection, SignatureSpec } from './signatures.js';

/** A command gate's `retry:` block as validated, plus the resolved definitions (added by checkRetryConfig). */
export interface CommandRetrySpec {
  signatures: string[];
  max: number;
  resolved?: SignatureSpec[];
}

/** One problem, at a zod-style path into loopgates.yaml. */
export interface RetryConfigProblem {
  path: Array<string | number>;
  message: string;
}

/**
 * Problems of `retry` (the repository's signatures) and of the command gates' `retry:` blocks. Sets
 * `commands[i].retry.resolved` for every block whose ids are all known. Loads the shipped rules only when there is
 * something to check.
 */
export function flakeSignatureProblems(retry: RetrySection | undefined, commands: Array<{ retry?: CommandRetrySpec }> | undefined): RetryConfigProblem[] {
  const problems: RetryConfigProblem[] = [];
  const withRetry = (commands ?? []).map((c, i) => [c, i] as const).filter(([c]) => c.retry);
  const own = [...(retry?.signatures ?? []).map((s, i) => ['signatures', i, s, 'flake'] as const), ...(retry?.askHuman ?? []).map((s, i) => ['askHuman', i, s, 'ask-human'] as const)];
  if (own.length === 0 && withRetry.length === 0) return problems;
  if (own.length) {
    const ordinary = ordinaryFailures();
    for (const [list, i, spec, kind] of own) {
      const [proof] = proveSignatures([compileSignature(spec, kind, 'repository')], ordinary);
      // DECORATION (a sample it no longer matches) is selftest's to report; NOISY is a filter that swallows failures.
      if (proof && proof.proof === 'NOISY') {
        problems.push({
          path: ['retry', list, i, 'match'],
          message: `signature ${spec.id} is NOISY: ${proof.problems.join('; ')}. Match the tool's own message (e.g. 'Gradle build daemon disappeared unexpectedly'), not '.*' or 'error'`,
        });
      }
    }
  }
  if (withRetry.length) {
    const shipped = shippedSignatures().flakes.map((s) => s.spec);
    const mine = retry?.signatures ?? [];
    const byId = new Map<string, SignatureSpec>([...shipped.map((s) => [s.id, s] as const), ...mine.map((s) => [s.id, s] as const)]);
    for (const [c, i] of withRetry) {
      const block = c.retry!;
      const unknown = block.signatures.map((id, j) => [id, j] as const).filter(([id]) => !byId.has(id));
      for (const [id, j] of unknown) problems.push({ path: ['commands', i, 'retry', 'signatures', j], message: `unknown flake signature ${id} (known: ${[...byId.keys()].join(', ')})` });
      if (unknown.length === 0) block.resolved = block.signatures.map((id) => byId.get(id)!);
    }
  }
  return problems;
}
