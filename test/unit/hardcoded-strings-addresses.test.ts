// A literal that is only a URL, an e-mail address, a domain name or a domain suffix is the same in every language:
// not text to translate (issue 15 sample: "a domain suffix, an example URL" were 2 of 3 noise findings). Shapes from
// AntennaPod (preferences_about.xml summary "www.antennapod.org/privacy"), linkwarden (support@linkwarden.app in an
// <a>, placeholder "https://example.com/rss", cloud.linkwarden.app) and a custom-domain field's ".com" suffix.
import { describe, expect, it } from 'vitest';
import { runHardcoded } from '../helpers/hardcoded-jsx.js';
import { isAddress } from '../../gates/hardcoded-strings/judge.js';

const ABOUT = `<?xml version="1.0" encoding="utf-8"?>
<PreferenceScreen xmlns:android="http://schemas.android.com/apk/res/android">
    <Preference
        android:key="about_privacy_policy"
        android:summary="www.antennapod.org/privacy"
        android:title="@string/privacy_policy" />
    <Preference
        android:summary="Read it at antennapod.org"
        android:title="Privacy" />
</PreferenceScreen>
`;

const BILLING = `export default function Billing() {
  return (
    <div>
      <p>
        Contact us at{" "}
        <a className="font-semibold" href="mailto:support@linkwarden.app">
          support@linkwarden.app
        </a>
      </p>
      <TextInput placeholder="https://example.com/rss" />
      <a href="https://cloud.linkwarden.app">cloud.linkwarden.app</a>
      <span className="suffix">.com</span>
      <Text>Write to support@linkwarden.app for help</Text>
    </div>
  );
}
`;

describe('hardcoded-strings: URLs, e-mail addresses and domain names are not UI text', () => {
  it('filters literals that are only an address, and counts them (were findings)', async () => {
    const files = { 'ui/preferences/src/main/res/xml/preferences_about.xml': ABOUT, 'apps/web/pages/settings/billing.tsx': BILLING };
    const r = await runHardcoded(files);
    expect(r.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.message.split(';')[0]}`)).toEqual([
      'apps/web/pages/settings/billing.tsx:5:9 hard-coded text "Contact us at" in <p> child',
      'apps/web/pages/settings/billing.tsx:13:13 hard-coded text "Write to support@linkwarden.app for help" in <Text> child',
      'ui/preferences/src/main/res/xml/preferences_about.xml:8:25 hard-coded text "Read it at antennapod.org" in android:summary',
      'ui/preferences/src/main/res/xml/preferences_about.xml:9:23 hard-coded text "Privacy" in android:title',
    ]);
    expect(r.counts).toMatchObject({ items: 9, filtered: 5, findings: 4 });
    expect(r.notes).toContain('5 literals are only a URL, an e-mail address or a domain name (the same in every language): not judged');
  });

  it('tells addresses from text', () => {
    const yes = ['https://example.com/rss', 'www.antennapod.org/privacy', 'support@linkwarden.app', 'mailto:a@b.io', 'cloud.linkwarden.app', '.com', ' https://.../room ', 'https://${host}/api'];
    const no = ['Mr.Smith', 'e.g.', 'Loading...', 'Visit example.org', 'Version 1.2', 'i.e', 'Sign in with user@host', 'OK', 'README.md is missing', 'settings.about.title', 'status.row.was-boosted', '.title'];
    expect(yes.filter((s) => !isAddress(s))).toEqual([]);
    expect(no.filter((s) => isAddress(s))).toEqual([]);
  });
});
