// The shipped extra gitleaks rules (rules/gitleaks-extra.toml, gitleaks' own format): kinds mobile repositories leak
// that gitleaks 8.16's default rules miss. Every rule has red lines (reported under its id) and near misses (not
// reported), run through the real gitleaks binary; the differential shows the default rules alone miss every red
// line; a team .gitleaks.toml still applies (its allowlist to the extra rules too).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { resolveGitleaks } from '../../gates/secrets/gitleaks.js';
import { redactCredentials } from '../../core/redact.js';
import { assertBuilt, withSandbox } from './install-support.js';
import { ownTmpdir } from '../helpers/own-tmpdir.js';

ownTmpdir('loopgates-extra-rules-');
const YAML = 'version: 1\ngates:\n  secrets: {}\n  hardcoded-strings: {enabled: false}\n  string-parity: {enabled: false}\n';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `n` random characters of `alphabet` (generated per run: no credential-shaped value is committed). */
function rand(n: number, alphabet = ALNUM): string {
  return [...randomBytes(n)].map((b) => alphabet[b % alphabet.length]).join('');
}

/** Red files (path -> content, each red line marked by its rule) and near misses, with fresh values. */
function fixtures() {
  const google = `AIza${rand(35, `${ALNUM}_-`)}`;
  const fb = `EAAB${rand(180)}`;
  const stripe = `rk_live_${rand(99)}`;
  const urlPass = `${rand(10)}!${rand(6)}`;
  const aws = `${rand(5)}/${rand(14)}+${rand(19)}`;
  const pw = `${rand(6)}!&${rand(4)}`;
  // `echo -n ghp_… | base64` and `echo ghp_… | base64` (a trailing newline encoded too).
  const b64 = Buffer.from(`ghp_${rand(36)}`).toString('base64');
  const b64nl = Buffer.from(`gho_${rand(36)}\n`).toString('base64');
  const red: Record<string, string> = {
    'ios/App/GoogleService-Info.plist': `<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n\t<key>API_KEY</key>\n\t<string>${google}</string>\n</dict>\n</plist>\n`,
    'app/src/main/res/values/keys.xml': `<resources>\n    <string name="google_maps_key" translatable="false">${google}</string>\n</resources>\n`,
    'app/src/main/assets/graph.json': `{\n  "graph": "${fb}"\n}\n`,
    'server/billing.yaml': `billing:\n  stripe: ${stripe}\n`,
    'app/src/main/java/Db.kt': `val url = "postgres://app:${urlPass}@db.internal.example.com:5432/app"\n`,
    'deploy/credentials': `[default]\naws_secret_access_key = ${aws}\n`,
    'config/app.properties': `spring.datasource.username=app\nspring.datasource.password=${pw}\n`,
    '.github/ci.yaml': `env:\n  GITHUB_B64: "${b64}"\n  DEPLOY: ${b64nl}\n`,
  };
  const expected = [
    '.github/ci.yaml:2:loopgates-github-token-base64',
    '.github/ci.yaml:3:loopgates-github-token-base64',
    'app/src/main/assets/graph.json:2:loopgates-facebook-access-token',
    'app/src/main/java/Db.kt:1:loopgates-url-credentials',
    'app/src/main/res/values/keys.xml:2:loopgates-google-api-key-xml',
    'config/app.properties:2:loopgates-password-assignment',
    'deploy/credentials:2:loopgates-aws-secret-access-key',
    'ios/App/GoogleService-Info.plist:5:loopgates-google-api-key-xml',
    'server/billing.yaml:2:loopgates-stripe-restricted-key',
  ];
  const near: Record<string, string> = {
    'near/strings.xml': `<resources>\n  <string name="google_api_key">YOUR_API_KEY</string>\n  <string name="short">AIza${rand(34)}</string>\n</resources>\n`,
    'near/fb.json': `{ "a": "EAAB${rand(20)}", "b": "EAA${'A'.repeat(120)}" }\n`,
    'near/stripe.yaml': `a: rk_live_xxxxxxxx\nb: rk_live_YOUR_KEY_HERE\n`,
    'near/urls.kt': 'val a = "https://user:${DB_PASSWORD}@db.example.com"\nval b = "https://example.com:8443/path"\nval c = "https://user:password@host.example.com"\nval d = "git@github.com:org/repo.git"\n',
    'near/aws.env': `AWS_SECRET_ACCESS_KEY=\${AWS_SECRET_ACCESS_KEY}\naws_secret_access_key = ${rand(30)}EXAMPLEKEY\nchecksum = ${rand(40)}\n`,
    'near/db.yaml': 'password: ${DB_PASSWORD}\npassword: ""\npassword: changeme\npassword_hint: first pet\n',
    // A string catalog translating the word (mattermost-mobile's assets/base/i18n/*.json had 17 such lines).
    'near/assets/i18n/da.json': '{\n  "login.password": "Adgangskode",\n  "pdf.enter_password": "Wprowadź hasło, aby odblokować."\n}\n',
    'near/config/locales/nl.yml': 'nl:\n  login:\n    password: Wachtwoord1\n',
    'near/Login.kt': `val password = "${rand(6)}!&${rand(4)}"\n`,
    // Text that starts like a token, base64-encoded: too short, and a longer value (not a token on its own).
    'near/b64.yaml': `a: ${Buffer.from(`ghp_${rand(10)}`).toString('base64')}\nb: ${Buffer.from(`ghp_${rand(36)} and then the rest of a readme paragraph`).toString('base64')}\n`,
  };
  return { red, near, expected, values: [google, fb, stripe, urlPass, aws, pw, b64, b64nl] };
}

interface Json {
  results: Array<{ gate: string; verdict: string; findings: Array<{ file: string; line: number; rule: string }> }>;
}

describe('secrets: the shipped extra gitleaks rules', () => {
  it('run --all reports every red line under its loopgates- rule and no near miss, with no value printed', async () => {
    assertBuilt();
    const f = fixtures();
    await withSandbox({ 'loopgates.yaml': YAML, ...f.red, ...f.near }, async (s) => {
      const r = await s.cli(['run', '--all', '--gate', 'secrets', '--format', 'json']);
      const doc = JSON.parse(r.stdout) as Json;
      const g = doc.results.find((x) => x.gate === 'secrets')!;
      expect(g.findings.map((x) => `${x.file}:${x.line}:${x.rule}`).sort()).toEqual(f.expected);
      expect(r.code).toBe(1);
      for (const v of f.values) expect(r.stdout + r.stderr).not.toContain(v);
    });
  });

  it('gitleaks 8.16 with its default rules alone reports none of the red lines (the differential)', () => {
    const f = fixtures();
    const dir = mkdtempSync(join(tmpdir(), 'loopgates-extra-default-'));
    try {
      for (const [p, c] of Object.entries(f.red)) {
        mkdirSync(dirname(join(dir, p)), { recursive: true });
        writeFileSync(join(dir, p), c);
      }
      const report = join(dir, '..', `${randomBytes(4).toString('hex')}-report.json`);
      try {
        execFileSync(resolveGitleaks().path, ['detect', '--no-git', '--source', dir, '--redact', '--no-banner', '--report-format', 'json', '--report-path', report, '--exit-code', '0'], { stdio: 'pipe' });
        expect(JSON.parse(readFileSync(report, 'utf8'))).toEqual([]);
      } finally {
        rmSync(report, { force: true });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the staged hook reports an extra-rule credential (a Stripe restricted key) at its line', async () => {
    assertBuilt();
    const f = fixtures();
    await withSandbox({ 'loopgates.yaml': YAML, 'README.md': 'x\n' }, async (s) => {
      s.repo.write('server/billing.yaml', f.red['server/billing.yaml']!);
      s.repo.git('add', '-A');
      const r = await s.cli(['run', '--gate', 'secrets', '--format', 'json']);
      const g = (JSON.parse(r.stdout) as Json).results.find((x) => x.gate === 'secrets')!;
      expect(g.findings.map((x) => `${x.file}:${x.line}:${x.rule}`)).toEqual(['server/billing.yaml:2:loopgates-stripe-restricted-key']);
      expect(r.code).toBe(1);
    });
  });

  it("with a team .gitleaks.toml: the team's rules and its allowlist (paths, stopwords) apply, the extra rules too", async () => {
    assertBuilt();
    const f = fixtures();
    const stop = 'billing-fixture';
    const team = `[extend]\nuseDefault = true\n\n[[rules]]\nid = "acme-internal"\nregex = '''acme_int_[a-z0-9]{20}'''\n\n[allowlist]\npaths = ['''^fixtures/''']\nstopwords = ['${stop}']\n`;
    const stripe = `rk_live_${rand(40)}`;
    await withSandbox(
      {
        'loopgates.yaml': YAML,
        '.gitleaks.toml': team,
        'server/billing.yaml': f.red['server/billing.yaml']!,
        'fixtures/billing.yaml': f.red['server/billing.yaml']!,
        'server/stopped.yaml': `stripe: rk_live_${stop}${rand(30)}\n`,
        'server/acme.env': 'ACME=acme_int_q8w7e6r5t4y3u2i1o0p9\n',
        'server/plain.yaml': `stripe: ${stripe}\n`,
      },
      async (s) => {
        const r = await s.cli(['run', '--all', '--gate', 'secrets', '--format', 'json']);
        const g = (JSON.parse(r.stdout) as Json).results.find((x) => x.gate === 'secrets')!;
        expect(g.findings.map((x) => `${x.file}:${x.line}:${x.rule}`).sort()).toEqual([
          'server/acme.env:1:acme-internal',
          'server/billing.yaml:2:loopgates-stripe-restricted-key',
          'server/plain.yaml:1:loopgates-stripe-restricted-key',
        ]);
      },
    );
  });

  it('core/redact.ts redacts every red value the extra rules find', () => {
    const f = fixtures();
    for (const [p, c] of Object.entries(f.red)) {
      const out = redactCredentials(c);
      for (const v of f.values) expect(out, p).not.toContain(v);
    }
  });
});
