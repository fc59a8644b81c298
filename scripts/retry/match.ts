// Matching a failed attempt's output against signatures: the part of the retry runner the commit path (command
// gates with a `retry:` block) and issue 13's tap loop load, without YAML or zod.

/** A flake signature as data (plain JSON). */
export interface SignatureSpec {
  id: string;
  description: string;
  /** Regexes (JavaScript, flag `m`) over the output tail; any one matching is a match. */
  match: string[];
  /** When given, the attempt's exit code must be one of these as well. */
  exitCodes?: number[] | undefined;
  /** The public issue, log or source the message was taken from. */
  source: string;
  samples: { match: string[]; nearMiss: string[] };
  /** Human blockers: what a person must do. */
  ask?: string | undefined;
}
/** Which list a signature belongs to. */
export type SignatureKind = 'flake' | 'ask-human';

/** A loaded signature: its data, its compiled regexes, where it came from. */
export interface Signature {
  kind: SignatureKind;
  spec: SignatureSpec;
  regexes: RegExp[];
  /** `shipped` (rules/*.yaml) or `repository` (loopgates.yaml). */
  origin: 'shipped' | 'repository';
}

/** Compile one signature's regexes (flag `m`). The spec was validated, so every regex compiles. */
export function compileSignature(spec: SignatureSpec, kind: SignatureKind, origin: Signature['origin']): Signature {
  return { kind, spec, origin, regexes: spec.match.map((r) => new RegExp(r, 'm')) };
}

/**
 * Does `output` (one or more lines, as a tool printed them) match `signature`: one of its regexes matches, and, when
 * the signature names exit codes, `exitCode` is one of them (an unknown exit code, `undefined`, does not satisfy a
 * signature that names codes). The function issue 13's tap loop uses on a failed `uiautomator dump` attempt.
 */
export function outputMatches(signature: Pick<Signature, 'regexes' | 'spec'>, output: string, exitCode?: number | null): boolean {
  if (signature.spec.exitCodes && (exitCode === undefined || exitCode === null || !signature.spec.exitCodes.includes(exitCode))) return false;
  return signature.regexes.some((r) => r.test(output));
}

/** The first signature of `signatures` (in order) that matches any of `tails` with `exitCode`; null when none does. */
export function firstMatch(signatures: readonly Signature[], tails: readonly string[], exitCode: number | null): Signature | null {
  for (const s of signatures) if (tails.some((t) => outputMatches(s, t, exitCode))) return s;
  return null;
}

