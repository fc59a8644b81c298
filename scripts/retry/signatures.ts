// Flake and human-blocker signatures (DESIGN.md "flake signature"): rules/flakes.yaml, rules/ask-human.yaml and the
// repository's loopgates.yaml `retry:` section, YAML 1.2 read by the `yaml` package. A signature proves it can fail
// like a gate does: it must match each of its real sample lines, miss each near-miss, never match the empty string
// and never match a line of rules/ordinary-failures.yaml (a failing assertion, a compile error, a lint error).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { z } from 'zod';
import { LoopgatesError } from '../../core/errors.js';
import { compileSignature } from './match.js';
import { rulesDir } from './rules-dir.js';

export { rulesDir } from './rules-dir.js';
import type { Signature, SignatureKind, SignatureSpec } from './match.js';

export { compileSignature, firstMatch, outputMatches } from './match.js';
export type { Signature, SignatureKind, SignatureSpec } from './match.js';

const idSchema = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase kebab-case');
const regexSchema = z
  .string()
  .min(1)
  .refine((s) => compiles(s), { message: 'is not a valid JavaScript regular expression' });

/** Schema of one flake signature (rules/flakes.yaml `signatures[]`, loopgates.yaml `retry.signatures[]`). */
export const flakeSignatureSchema = z
  .object({
    id: idSchema,
    description: z.string().trim().min(1),
    /** Regexes (JavaScript, flag `m`) over the output tail; any one matching is a match. */
    match: z.array(regexSchema).min(1),
    /** When given, the attempt's exit code must be one of these as well. */
    exitCodes: z.array(z.number().int().min(0).max(255)).min(1).optional(),
    /** The public issue, log or source the message was taken from. */
    source: z.string().trim().min(1),
    samples: z
      .object({
        /** Real lines as the tool prints them: each must match. */
        match: z.array(z.string().min(1)).min(1, 'give at least one real line the signature must match'),
        /** Real lines that must not match (the failure next door). */
        nearMiss: z.array(z.string().min(1)).min(1, 'give at least one near-miss the signature must not match'),
      })
      .strict(),
  })
  .strict();

/** Schema of one human blocker (rules/ask-human.yaml, loopgates.yaml `retry.askHuman[]`): a flake signature plus `ask`. */
export const humanBlockerSchema = flakeSignatureSchema.extend({ ask: z.string().trim().min(1) }).strict();

/** The proof of one signature against its samples and the ordinary failures. */
export interface SignatureProof {
  id: string;
  kind: SignatureKind;
  origin: Signature['origin'];
  /** PROVEN: every sample as required. DECORATION: a real line it must match does not. NOISY: it matches what it must not. */
  proof: 'PROVEN' | 'DECORATION' | 'NOISY';
  /** One line per broken expectation: which sample, and why. */
  problems: string[];
}

/** A file of rules/ (flakes.yaml, ask-human.yaml) as read: its signatures. */
const rulesFileSchema = (kind: SignatureKind) =>
  z.object({ version: z.literal(1), signatures: z.array(kind === 'flake' ? flakeSignatureSchema : humanBlockerSchema) }).strict();

const ordinarySchema = z
  .object({
    version: z.literal(1),
    failures: z.array(z.object({ tool: z.string().min(1), source: z.string().min(1), lines: z.array(z.string().min(1)).min(1) }).strict()).min(1),
  })
  .strict();

/**
 * The `retry:` section of loopgates.yaml: the repository's own signatures (added, or replacing a shipped one of the
 * same id) and the anti-loop bounds. Every key optional; defaults as in DEFAULT_BOUNDS.
 */
export const retrySectionSchema = z
  .object({
    signatures: z.array(flakeSignatureSchema).default([]),
    askHuman: z.array(humanBlockerSchema).default([]),
    bounds: z
      .object({
        /** The same failure fingerprint this many times in a row (one command, one task) asks a human. */
        sameCause: z.number().int().min(1).max(20).default(3),
        /** This many failed attempts for one task (within taskWindowHours) asks a human. */
        taskFailures: z.number().int().min(1).max(100).default(6),
        taskWindowHours: z.number().positive().max(24 * 30).default(24),
        /** A flake forgiven more than `count` times within `windowHours` is printed, loudly, as a bug to fix. */
        forgiven: z.object({ count: z.number().int().min(1).default(3), windowHours: z.number().positive().default(24) }).strict().default({}),
      })
      .strict()
      .default({}),
  })
  .strict();

export type RetrySection = z.output<typeof retrySectionSchema>;
export type RetryBounds = RetrySection['bounds'];

/** The bounds when loopgates.yaml sets none (iLoop's: 3 for one cause, 6 for one task; a flake forgiven > 3 times in 24 h). */
export const DEFAULT_BOUNDS: RetryBounds = retrySectionSchema.parse({}).bounds;

function compiles(s: string): boolean {
  try {
    new RegExp(s, 'm');
    return true;
  } catch {
    return false;
  }
}


function readYaml(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new LoopgatesError(`cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`, 'reinstall loopgates (its package ships rules/)');
  }
  return parseRulesText(text, path);
}

/** Parse the YAML text of a rules file; throws LoopgatesError naming `path` on a syntax error. */
export function parseRulesText(text: string, path: string): unknown {
  try {
    return parse(text, { maxAliasCount: 100 });
  } catch (e) {
    throw new LoopgatesError(`${path} is not valid YAML: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`, `fix ${path}`);
  }
}

/**
 * The signatures of one rules file's data (`kind` says which list). Throws LoopgatesError naming `path` and every
 * schema problem.
 */
export function signaturesFromData(data: unknown, kind: SignatureKind, path: string, origin: Signature['origin'] = 'shipped'): Signature[] {
  const r = rulesFileSchema(kind).safeParse(data);
  if (!r.success) throw new LoopgatesError(`${path} is invalid:\n${r.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`, `fix ${path}`);
  const seen = new Set<string>();
  for (const s of r.data.signatures) {
    if (seen.has(s.id)) throw new LoopgatesError(`${path}: duplicate signature id ${s.id}`, `fix ${path}`);
    seen.add(s.id);
  }
  return r.data.signatures.map((s) => compileSignature(s, kind, origin));
}

/** The shipped ordinary-failure lines (rules/ordinary-failures.yaml), each with the tool that prints it. */
export function ordinaryFailures(dir: string = rulesDir()): Array<{ tool: string; line: string }> {
  const path = join(dir, 'ordinary-failures.yaml');
  const r = ordinarySchema.safeParse(readYaml(path));
  if (!r.success) throw new LoopgatesError(`${path} is invalid: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`, `fix ${path}`);
  return r.data.failures.flatMap((f) => f.lines.map((line) => ({ tool: f.tool, line })));
}

/** The shipped signatures: rules/flakes.yaml and rules/ask-human.yaml, unproven (see proveSignatures). */
export function shippedSignatures(dir: string = rulesDir()): { flakes: Signature[]; askHuman: Signature[] } {
  const flakes = join(dir, 'flakes.yaml');
  const ask = join(dir, 'ask-human.yaml');
  return { flakes: signaturesFromData(readYaml(flakes), 'flake', flakes), askHuman: signaturesFromData(readYaml(ask), 'ask-human', ask) };
}

/**
 * Prove each signature (DESIGN.md "self-test", for signatures): every `samples.match` line matches, no
 * `samples.nearMiss` line matches, the empty string and a blank line do not match, and no ordinary failure line
 * matches. Exit codes are not part of the sample check (a sample is a line; the code is checked at run time).
 */
export function proveSignatures(signatures: readonly Signature[], ordinary: ReadonlyArray<{ tool: string; line: string }>): SignatureProof[] {
  return signatures.map((s) => {
    const missed: string[] = [];
    const noisy: string[] = [];
    const hit = (line: string) => s.regexes.some((r) => r.test(line));
    for (const line of s.spec.samples.match) if (!hit(line)) missed.push(`does not match its real line ${JSON.stringify(line)}`);
    for (const line of s.spec.samples.nearMiss) if (hit(line)) noisy.push(`matches its near-miss ${JSON.stringify(line)}`);
    if (hit('') || hit('\n')) noisy.push('matches the empty string: it matches every output (a filter that swallows everything)');
    for (const o of ordinary) if (hit(o.line)) noisy.push(`matches an ordinary failure (${o.tool}): ${JSON.stringify(o.line)}`);
    const proof = missed.length ? 'DECORATION' : noisy.length ? 'NOISY' : 'PROVEN';
    return { id: s.spec.id, kind: s.kind, origin: s.origin, proof, problems: [...missed, ...noisy] };
  });
}

/** Every signature in force: shipped ones, then the repository's (one of the same id replaces the shipped one). */
export interface SignatureSet {
  flakes: Signature[];
  askHuman: Signature[];
}

/** Merge the shipped lists with the repository's `retry:` section: a repository signature replaces a shipped one of its id. */
export function mergeSignatures(shipped: SignatureSet, section: Pick<RetrySection, 'signatures' | 'askHuman'> | undefined): SignatureSet {
  const merge = (base: Signature[], own: SignatureSpec[], kind: SignatureKind) => {
    const mine = own.map((s) => compileSignature(s, kind, 'repository'));
    const ids = new Set(mine.map((s) => s.spec.id));
    return [...base.filter((s) => !ids.has(s.spec.id)), ...mine];
  };
  return { flakes: merge(shipped.flakes, section?.signatures ?? [], 'flake'), askHuman: merge(shipped.askHuman, section?.askHuman ?? [], 'ask-human') };
}

/**
 * The signatures in force for a repository whose loopgates.yaml has `section` (or none), proven: throws
 * LoopgatesError (exit 2) naming every signature that is DECORATION or NOISY, with the fix. A repository
 * signature like `match: '.*'` or `match: 'error'` is refused here, at load.
 */
export function loadSignatures(section: RetrySection | undefined, dir: string = rulesDir()): SignatureSet {
  const set = mergeSignatures(shippedSignatures(dir), section);
  const bad = proveSignatures([...set.askHuman, ...set.flakes], ordinaryFailures(dir)).filter((p) => p.proof !== 'PROVEN');
  if (bad.length) {
    const lines = bad.map((p) => `  ${p.kind} signature ${p.id} (${p.origin === 'shipped' ? `rules/${p.kind === 'flake' ? 'flakes' : 'ask-human'}.yaml` : 'loopgates.yaml retry:'}) is ${p.proof}: ${p.problems.join('; ')}`);
    const repo = bad.some((p) => p.origin === 'repository');
    throw new LoopgatesError(
      `${bad.length} retry signature(s) cannot be trusted:\n${lines.join('\n')}`,
      repo
        ? 'make each match regex name the tool\'s own message (not ".*" or "error"), with real samples; then run: loopgates selftest'
        : 'reinstall loopgates: its shipped rules/ were edited',
    );
  }
  return set;
}

/**
 * `loopgates selftest`'s part for signatures: every signature in force (shipped, then the repository's `retry:`)
 * proven against its samples and the ordinary failures. Throws LoopgatesError only when a shipped file cannot be read.
 */
export function proveAll(section: RetrySection | undefined, dir: string = rulesDir()): SignatureProof[] {
  const set = mergeSignatures(shippedSignatures(dir), section);
  return proveSignatures([...set.flakes, ...set.askHuman], ordinaryFailures(dir));
}

/** The text selftest prints for the signature proofs: one line per signature that is not PROVEN, then a tally. */
export function proofsText(proofs: readonly SignatureProof[]): string {
  const lines = ['', 'retry signatures (rules/flakes.yaml, rules/ask-human.yaml, loopgates.yaml retry:)'];
  for (const p of proofs) {
    if (p.proof === 'PROVEN') continue;
    lines.push(`  ${p.proof.padEnd(10)} ${p.kind} ${p.id}${p.origin === 'repository' ? ' (loopgates.yaml)' : ''}`);
    for (const why of p.problems) lines.push(`             ${why}`);
  }
  const bad = proofs.filter((p) => p.proof !== 'PROVEN').length;
  lines.push(`  ${proofs.length} signatures: ${proofs.length - bad} PROVEN${bad ? `, ${bad} not (a signature that misses its real line is DECORATION; one that matches a near-miss or an ordinary failure is NOISY)` : ''}`);
  lines.push(bad ? 'retry signatures FAILED' : 'retry signatures passed');
  return `${lines.join('\n')}\n`;
}
