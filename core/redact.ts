// Credential-shaped literals out of everything loopgates prints or records (DESIGN.md "No output/report/ledger line
// holds a credential"). Applied once, where a gate's result is made (core/runner.ts), so every gate's findings,
// notes and errors, in every report format and in the ledger, pass through it. Shapes after gitleaks' default
// rules (config/gitleaks.toml of gitleaks 8.16: github-pat, aws-access-token, slack-*, stripe-access-token,
// gcp-api-key, gitlab-pat, npm-access-token, private-key, jwt, facebook), RFC 3986 userinfo in URLs, and the shapes of
// the shipped extra rules (rules/gitleaks-extra.toml: rk_live_, EAA…, AIza… before `<`, AWS secret keys and passwords
// assigned by name, a base64-encoded GitHub token).

/** Each credential shape, with how much of its start stays visible (a prefix that names the kind, never the secret). */
const SHAPES: ReadonlyArray<{ re: RegExp; keep: number }> = [
  { re: /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|$)/g, keep: 0 },
  { re: /\b(?:ghp|gho|ghu|ghs|ghr)_[0-9A-Za-z]{36}\b/g, keep: 4 },
  { re: /\bgithub_pat_[0-9A-Za-z_]{22,}\b/g, keep: 11 },
  { re: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g, keep: 4 },
  { re: /\bxox[abprs]-[0-9A-Za-z-]{10,}/g, keep: 5 },
  { re: /\b(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{10,}\b/g, keep: 8 },
  { re: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g, keep: 4 },
  { re: /\bglpat-[0-9A-Za-z_-]{20,}/g, keep: 6 },
  { re: /\bnpm_[0-9A-Za-z]{36}\b/g, keep: 4 },
  { re: /\bEAA[0-9A-Za-z]{30,}\b/g, keep: 3 },
  // A GitHub token base64-encoded as a whole value (rules/gitleaks-extra.toml loopgates-github-token-base64).
  { re: /(?<![0-9A-Za-z+/])Z2h[1vwyz]X[0-9A-Za-z+/]{49}(?:==|[0-9A-Za-z+/]=|[0-9A-Za-z+/]{2})(?![0-9A-Za-z+/=])/g, keep: 3 },
  { re: /\beyJ[0-9A-Za-z_-]{8,}\.eyJ[0-9A-Za-z_-]{8,}\.[0-9A-Za-z_-]{8,}/g, keep: 3 },
];

/** `scheme://user:password@` -> the password redacted (the user name stays: it says which account to rotate). */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/:@"'<>]+):[^\s/@"'<>]+@/gi;

/**
 * A value assigned to a name that says it is an AWS secret access key or a password (rules/gitleaks-extra.toml
 * loopgates-aws-secret-access-key, loopgates-password-assignment): the name and the `=` / `:` stay, the value goes.
 * Placeholders (`${VAR}`, `<…>`, `{{…}}`) are left as they are.
 */
const NAMED_SECRET = /((?:aws_?secret_?(?:access_?)?key|secret_?access_?key)["']?[ \t]*(?:=|:|=>|:=)[ \t]*["']?)([0-9A-Za-z/+]{40})(?![0-9A-Za-z/+=])/gi;
const PASSWORD = /((?:^|[^0-9a-z])(?:password|passwd|pwd)["']?[ \t]*[=:][ \t]*["']?)([^\s"'`$<>{}%#;,]{6,128})/gim;

/**
 * An HTTP credential (RFC 9110 §11.6.2 Authorization / §11.7.2 Proxy-Authorization, RFC 6750 Bearer) as curl -v,
 * a client's debug log or a header dump prints it: the header name and the scheme stay, the value goes. A bare
 * `Bearer <value>` only when the value holds a digit (prose says "Bearer authentication").
 */
const AUTH_HEADER = /(\b(?:proxy-)?authorization["']?[ \t]*[:=][ \t]*["']?(?:(?:bearer|basic|digest|token|bot)[ \t]+)?)([^\s"'&,;]{8,})/gi;
const BEARER = /(\bbearer[ \t]+)((?=[A-Za-z._~+/-]*[0-9])[A-Za-z0-9._~+/-]{8,}=*)/gi;

/** The mark left where a credential was. */
export const REDACTED = '…[redacted]';

/**
 * `text` with every credential-shaped literal replaced: its first few characters (`ghp_`, `AKIA`, `sk_live_`) and
 * REDACTED; a PEM private key block and a URL's password in full. Pure; text without such a shape is returned as is.
 */
export function redactCredentials(text: string): string {
  let out = text;
  for (const { re, keep } of SHAPES) out = out.replace(re, (m) => `${m.slice(0, keep)}${REDACTED}`);
  out = out.replace(NAMED_SECRET, (_m, head: string) => `${head}${REDACTED}`);
  out = out.replace(PASSWORD, (m, head: string, value: string) => (value.startsWith(REDACTED) || value.startsWith('…') ? m : `${head}${REDACTED}`));
  out = out.replace(AUTH_HEADER, (m, head: string, value: string) => (value.startsWith('…') ? m : `${head}${REDACTED}`));
  out = out.replace(BEARER, (m, head: string, value: string) => (value.startsWith('…') ? m : `${head}${REDACTED}`));
  return out.replace(URL_USERINFO, (_m, head: string) => `${head}:${REDACTED}@`);
}

/** A value after a word that names it a secret, in a child's output: `token: x`, `--password x`, `_authToken=x`. */
const NAMED_VALUE = /\b(authorization|bearer|token|password|passwd|secret|api[_-]?key|_authToken)([ \t]*[:=][ \t]*|[ \t]+)("?)([^\s"'&]+)/gi;
/** `Authorization: Bearer …`: the scheme is not the secret (its value after it was redacted already). */
const SCHEME = /^(?:bearer|basic|digest|token|bot)$/i;
/** A run of 32+ word characters and dashes; redacted when it mixes digits and letters (an opaque token). */
const LONG_RUN = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32,}(?![A-Za-z0-9_-])/g;

/**
 * A child's output (a command `retry` ran, a command gate's tool) as loopgates may print or report it: the credential
 * shapes of redactCredentials, then two guesses that are fine for a tool's log but too wide for a gate's own
 * messages: a value after a secret-naming word, and any long opaque token (32+ characters mixing digits and letters;
 * leading and trailing dashes stay). Redact before cutting lines: a token cut in half no longer has its shape.
 */
export function redactOutput(text: string): string {
  return redactCredentials(text)
    .replace(NAMED_VALUE, (m, word: string, sep: string, quote: string, value: string) => (value.includes('…') || SCHEME.test(value) ? m : `${word}${sep}${quote}${REDACTED}`))
    .replace(LONG_RUN, (m) => {
      if (!/[0-9]/.test(m) || !/[A-Za-z]/.test(m)) return m;
      const lead = /^-*/.exec(m)![0];
      const trail = /-*$/.exec(m.slice(lead.length))![0];
      return `${lead}${REDACTED}${trail}`;
    });
}

/** Every string inside `value` (objects and arrays, recursively) passed through redactCredentials; a new value. */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redactCredentials(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = k === 'fingerprint' ? v : redactDeep(v);
    return out as T;
  }
  return value;
}
