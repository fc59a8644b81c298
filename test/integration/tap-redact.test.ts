// A credential a device tool prints (adb, uiautomator) reaches no output of `loopgates tap`: the scripted device
// (test/helpers/fake-adb, a real executable on PATH) prints a GitHub token where a dump was expected.
import { afterEach, describe, expect, it } from 'vitest';
import { REDACTED } from '../../core/redact.js';
import { fakeGithubToken } from '../../gates/secrets/credentials.js';
import { fakeDevice, type FakeDevice } from '../helpers/fake-device.js';

let devices: FakeDevice[] = [];
afterEach(() => {
  for (const d of devices) d.remove();
  devices = [];
});

describe('loopgates tap: device output is redacted', () => {
  it('a dump that prints a token instead of writing its file: the cause holds the redaction mark, not the token (text and json)', async () => {
    const gh = fakeGithubToken().value;
    const d = fakeDevice({ start: 'leak', screens: { leak: { output: `ERROR: GITHUB_TOKEN=${gh} rejected` } } });
    devices.push(d);
    for (const format of ['text', 'json']) {
      const r = await d.cli(['tap', '--label', 'New note', '--expect', 'Title', '--format', format]);
      const out = r.stdout + r.stderr;
      expect(r.code).toBe(1);
      if (format === 'text') expect(out).toContain('RED (dump-failed)');
      if (format === 'json') expect(JSON.parse(r.stdout)).toMatchObject({ verdict: 'fail', rule: 'dump-failed', taps: 0 });
      if (format === 'json') expect(JSON.parse(r.stdout).reason).toContain(`GITHUB_TOKEN=ghp_${REDACTED} rejected`);
      expect(out).toContain(`ghp_${REDACTED}`);
      expect(out).not.toContain(gh.slice(4, 24));
    }
  });
});
