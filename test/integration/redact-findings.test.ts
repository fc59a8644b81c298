// No gate's output holds a credential: a token written as UI text is a finding of hardcoded-strings too, and its
// message quoted the literal in full (text, JSON and SARIF, beside the secrets gate's "value not shown").
import { describe, expect, it } from 'vitest';
import { fakeAwsAccessKey, fakeGithubToken } from '../../gates/secrets/credentials.js';
import { redactCredentials, redactOutput, REDACTED } from '../../core/redact.js';
import { withSandbox } from './install-support.js';
import { ownTmpdir } from '../helpers/own-tmpdir.js';

ownTmpdir('loopgates-redact-');

describe('credentials in other gates\' findings', () => {
  it('a GitHub token written as Compose Text(...) is reported by hardcoded-strings without its value, in text, json and sarif', async () => {
    const tok = fakeGithubToken();
    const screen = `package com.example\n\nimport androidx.compose.material3.Text\nimport androidx.compose.runtime.Composable\n\n@Composable\nfun Token() {\n    Text("${tok.value}")\n    Text("Sign in with ${tok.value} now")\n}\n`;
    await withSandbox({ 'app/src/main/java/com/example/Token.kt': screen, 'app/src/main/res/values/strings.xml': '<resources>\n    <string name="app_name">Notes</string>\n</resources>\n' }, async (s) => {
      for (const format of ['text', 'json', 'sarif', 'github']) {
        const r = await s.cli(['run', '--all', '--format', format]);
        expect(r.code).toBe(1);
        const out = r.stdout + r.stderr;
        expect(out).toMatch(/hardcoded-strings/);
        expect(out).toContain(`ghp_${REDACTED}`);
        expect(out).not.toContain(tok.value);
        expect(out).not.toContain(tok.value.slice(4, 20));
      }
    });
  });
});

describe('redactCredentials', () => {
  it('removes every credential shape and leaves ordinary text alone', () => {
    const gh = fakeGithubToken().value;
    const aws = fakeAwsAccessKey().value;
    const text = `a ${gh} b ${aws} c https://deploy:hunter2secret@git.example.com/x.git d AIza${'A'.repeat(35)} e sk_live_${'a1'.repeat(12)} f rk_live_${'b2'.repeat(12)}`;
    const out = redactCredentials(text);
    for (const s of [gh.slice(4), aws.slice(4), 'hunter2secret', 'A'.repeat(35), 'a1'.repeat(12), 'b2'.repeat(12)]) expect(out).not.toContain(s);
    expect(out).toContain('https://deploy:…[redacted]@git.example.com/x.git');
    expect(redactCredentials('Sign in with Google · https://example.com/a:b · AKIA is a prefix')).toBe('Sign in with Google · https://example.com/a:b · AKIA is a prefix');
    expect(redactCredentials('x -----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY----- y')).toBe(`x ${REDACTED} y`);
  });
});

describe('redactOutput (a child\'s output)', () => {
  it('an Authorization header and a bearer value go, the scheme stays; prose about bearer tokens stays', () => {
    expect(redactCredentials('> Authorization: Bearer abcdefgh12345678')).toBe(`> Authorization: Bearer ${REDACTED}`);
    expect(redactCredentials('proxy-authorization: Basic dXNlcjpwYXNzd29yZA==')).toBe(`proxy-authorization: Basic ${REDACTED}`);
    expect(redactCredentials('curl --oauth2-bearer x -H "bearer tok_9f8e7d6c5b4a"')).toBe(`curl --oauth2-bearer x -H "bearer ${REDACTED}"`);
    expect(redactCredentials('Bearer authentication failed')).toBe('Bearer authentication failed');
  });

  it('a named value and a long opaque token go; a path, a word and a redacted value are left as they are', () => {
    const long = `a1${'b2c3'.repeat(8)}`;
    expect(redactOutput(`//registry.npmjs.org/:_authToken=${long}`)).toBe(`//registry.npmjs.org/:_authToken=${REDACTED}`);
    expect(redactOutput(`session --id ${long} done`)).toBe(`session --id ${REDACTED} done`);
    expect(redactOutput(`Authorization: Bearer ${long}`)).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redactOutput(`token: ghp_${REDACTED}`)).toBe(`token: ghp_${REDACTED}`);
    expect(redactOutput('> Task :app:compileDebugKotlin FAILED at /home/ci/work/app/src/main/Main.kt:12')).toBe('> Task :app:compileDebugKotlin FAILED at /home/ci/work/app/src/main/Main.kt:12');
  });
});
