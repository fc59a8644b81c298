// Fake credentials in the shapes gitleaks' default rules detect (config/gitleaks.toml of gitleaks/gitleaks:
// rules `aws-access-token`, `github-pat`, `private-key`). Generated at run time from random bytes: none is ever
// committed, so no real-looking token sits in this repository's history.
import { randomBytes } from 'node:crypto';

/** A source of uniform [0, 1) numbers; `secureRandom` by default, a seeded generator in mutations. */
export type Random = () => number;

/** Uniform [0, 1) from the OS CSPRNG (canary values must not be guessable or repeat between runs). */
export const secureRandom: Random = () => randomBytes(4).readUInt32BE(0) / 0x1_0000_0000;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BASE64 = `${ALNUM}+/`;

function pick(alphabet: string, length: number, random: Random): string {
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet.charAt(Math.floor(random() * alphabet.length));
  return s;
}

/** Which fake credential; the value is the gitleaks default rule id that reports it. */
export type CredentialKind = 'aws-access-token' | 'github-pat' | 'private-key';

/** One generated credential: `value` (a single line, or several lines for a PEM block) and the rule that finds it. */
export interface FakeCredential {
  kind: CredentialKind;
  /** gitleaks rule id (default config). */
  rule: CredentialKind;
  value: string;
}

/**
 * An AWS access key id: `AKIA` + 16 base32 characters (gitleaks `aws-access-token`:
 * `(A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}`, entropy >= 3 in newer releases; 16 random base32 characters
 * clear that bound with overwhelming probability, and we retry until they do).
 */
export function fakeAwsAccessKey(random: Random = secureRandom): FakeCredential {
  let body = pick(BASE32, 16, random);
  while (shannonEntropy(`AKIA${body}`) < 3.2) body = pick(BASE32, 16, random);
  return { kind: 'aws-access-token', rule: 'aws-access-token', value: `AKIA${body}` };
}

/** A GitHub personal access token: `ghp_` + 36 alphanumerics (gitleaks `github-pat`: `ghp_[0-9a-zA-Z]{36}`). */
export function fakeGithubToken(random: Random = secureRandom): FakeCredential {
  let body = pick(ALNUM, 36, random);
  while (shannonEntropy(body) < 3.5) body = pick(ALNUM, 36, random);
  return { kind: 'github-pat', rule: 'github-pat', value: `ghp_${body}` };
}

/**
 * A PEM private key block (gitleaks `private-key`: `-----BEGIN ... PRIVATE KEY-----` then at least 64 characters,
 * then `KEY-----`): 5 lines of 64 random base64 characters. Reported at the BEGIN line.
 */
export function fakePemBlock(random: Random = secureRandom): FakeCredential {
  const label = 'RSA PRIVATE KEY';
  const lines = Array.from({ length: 5 }, () => pick(BASE64, 64, random));
  return { kind: 'private-key', rule: 'private-key', value: [`-----BEGIN ${label}-----`, ...lines, `-----END ${label}-----`].join('\n') };
}

/** One of the single-line kinds (AWS, GitHub), chosen by `random`. */
export function fakeSingleLineCredential(random: Random = secureRandom): FakeCredential {
  return random() < 0.5 ? fakeAwsAccessKey(random) : fakeGithubToken(random);
}

/** Shannon entropy in bits per character (gitleaks' `entropy` rule field uses the same measure). */
export function shannonEntropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}
