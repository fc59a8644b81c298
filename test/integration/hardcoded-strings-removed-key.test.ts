// hardcoded-strings in --staged mode: a commit that removes a catalog key still read by code the commit does not
// stage is refused at each reference (fresh-user-4 F1: mastodon-android report_title_post, lossless-cut t() key).
import { describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import { indexWorkspace } from '../../core/snapshot.js';
import { configSchema, hardcodedStringsGate } from '../../gates/hardcoded-strings/index.js';
import { withGitRepo } from '../helpers/git-repo.js';

const strings = (names: string[]) => `<?xml version="1.0" encoding="utf-8"?>
<resources>
${names.map((n) => `    <string name="${n}">Text of ${n}</string>`).join('\n')}
</resources>
`;
const FRAGMENT = `package org.example.app;

import android.widget.TextView;

public class ReportFragment {
    void bind(TextView title) {
        title.setText(R.string.report_title_post);
    }
}
`;
const COMPONENT = `import { useTranslation } from 'react-i18next';

export function Menu() {
  const { t } = useTranslation();
  return <button type="button">{t('Keyboard shortcuts')}</button>;
}
`;

async function staged(dir: string) {
  const ws = await indexWorkspace(dir, {});
  return runGate({ gate: hardcodedStringsGate, config: configSchema.parse({}), timeoutMs: 60_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache' });
}

describe('hardcoded-strings --staged: removed catalog keys', () => {
  it('refuses removing an Android string a Java file still reads, at the reference', async () => {
    const files = {
      'app/src/main/res/values/strings.xml': strings(['report_title_post', 'unused_label']),
      'app/src/main/res/values-de/strings.xml': strings(['report_title_post', 'unused_label']),
      'app/src/main/java/org/example/app/ReportFragment.java': FRAGMENT,
      'app/build.gradle': "plugins { id 'com.android.application' version '8.2.0' }\nandroid { namespace 'org.example.app' }\n",
    };
    await withGitRepo(files, async (repo) => {
      repo.git('add', '-A');
      repo.git('commit', '-q', '-m', 'init');
      repo.write('app/src/main/res/values/strings.xml', strings(['unused_label']));
      repo.write('app/src/main/res/values-de/strings.xml', strings(['unused_label']));
      repo.git('add', '-A');
      const r = await staged(repo.dir);
      expect(r.verdict).toBe('fail');
      expect(r.findings.map((f) => `${f.file}:${f.line} ${f.rule}`)).toEqual(['app/src/main/java/org/example/app/ReportFragment.java:7 missing-catalog-key']);
      expect(r.findings[0]!.message).toContain('R.string.report_title_post');
    });
  });

  it('passes removing an Android string no code reads', async () => {
    const files = {
      'app/src/main/res/values/strings.xml': strings(['report_title_post', 'unused_label']),
      'app/src/main/java/org/example/app/ReportFragment.java': FRAGMENT,
    };
    await withGitRepo(files, async (repo) => {
      repo.git('add', '-A');
      repo.git('commit', '-q', '-m', 'init');
      repo.write('app/src/main/res/values/strings.xml', strings(['report_title_post']));
      repo.git('add', '-A');
      const r = await staged(repo.dir);
      expect(r.findings).toEqual([]);
      expect(r.verdict).not.toBe('fail');
    });
  });

  it('refuses removing an i18next key a .tsx still asks for, and passes removing an unused one', async () => {
    const files = {
      'src/locales/en/translation.json': JSON.stringify({ 'Keyboard shortcuts': 'Keyboard shortcuts', Unused: 'Unused' }, null, 2) + '\n',
      'src/locales/de/translation.json': JSON.stringify({ 'Keyboard shortcuts': 'Tastenkürzel', Unused: 'Unbenutzt' }, null, 2) + '\n',
      'src/Menu.tsx': COMPONENT,
      'package.json': '{"name":"app","dependencies":{"i18next":"23.0.0","react-i18next":"13.0.0"}}\n',
    };
    await withGitRepo(files, async (repo) => {
      repo.git('add', '-A');
      repo.git('commit', '-q', '-m', 'init');
      repo.write('src/locales/en/translation.json', JSON.stringify({ 'Keyboard shortcuts': 'Keyboard shortcuts' }, null, 2) + '\n');
      repo.write('src/locales/de/translation.json', JSON.stringify({ 'Keyboard shortcuts': 'Tastenkürzel' }, null, 2) + '\n');
      repo.git('add', '-A');
      const green = await staged(repo.dir);
      expect(green.findings).toEqual([]);
      expect(green.verdict).not.toBe('fail');
      repo.git('commit', '-q', '-m', 'drop unused');
      repo.write('src/locales/en/translation.json', '{}\n');
      repo.write('src/locales/de/translation.json', '{}\n');
      repo.git('add', '-A');
      const r = await staged(repo.dir);
      expect(r.verdict).toBe('fail');
      expect(r.findings.map((f) => `${f.file}:${f.line} ${f.rule}`)).toEqual(['src/Menu.tsx:5 missing-catalog-key']);
    });
  });
});

// Issue 15 item 7 for Apple catalogs: a commit that removes a key from the base `.strings` / `.xcstrings` while a
// Swift file the commit does not stage still asks for it by literal (`Text("checkout.cta")`) showed the raw key.
const VIEW = `import SwiftUI

struct CheckoutView: View {
    var body: some View {
        Text("checkout.cta")
    }
}
`;
const appleStrings = (pairs: Record<string, string>) => Object.entries(pairs).map(([k, v]) => `/* ${k} */\n"${k}" = "${v}";\n`).join('\n');
const xcstrings = (keys: Record<string, string>) =>
  JSON.stringify({ sourceLanguage: 'en', version: '1.0', strings: Object.fromEntries(Object.entries(keys).map(([k, v]) => [k, { localizations: { en: { stringUnit: { state: 'translated', value: v } }, de: { stringUnit: { state: 'translated', value: `${v} (de)` } } } }])) }, null, 2) + '\n';

const stringsdict = (keys: Record<string, string>) => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
${Object.entries(keys).map(([k, v]) => `\t<key>${k}</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%#@n@</string>\n\t\t<key>n</key>\n\t\t<dict>\n\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>d</string>\n\t\t\t<key>one</key>\n\t\t\t<string>${v}</string>\n\t\t\t<key>other</key>\n\t\t\t<string>${v}</string>\n\t\t</dict>\n\t</dict>\n`).join('')}</dict>
</plist>
`;

describe('hardcoded-strings --staged: keys removed from Apple catalogs', () => {
  const cases: Array<[string, (keys: Record<string, string>) => Record<string, string>]> = [
    ['.strings', (keys) => ({ 'App/en.lproj/Localizable.strings': appleStrings(keys), 'App/de.lproj/Localizable.strings': appleStrings(Object.fromEntries(Object.entries(keys).map(([k, v]) => [k, `${v} (de)`]))) })],
    ['.xcstrings', (keys) => ({ 'App/Localizable.xcstrings': xcstrings(keys) })],
    ['.stringsdict', (keys) => ({ 'App/en.lproj/Localizable.stringsdict': stringsdict(keys) })],
  ];
  for (const [name, catalogs] of cases) {
    it(`red: removing a ${name} key an unstaged Swift file still asks for is refused at the reference; removing an unused one passes`, async () => {
      await withGitRepo({ ...catalogs({ 'checkout.cta': 'Check out', unused: 'Unused' }), 'App/CheckoutView.swift': VIEW }, async (repo) => {
        repo.git('add', '-A');
        repo.git('commit', '-q', '-m', 'init');
        for (const [p, c] of Object.entries(catalogs({ 'checkout.cta': 'Check out' }))) repo.write(p, c);
        repo.git('add', '-A');
        const green = await staged(repo.dir);
        expect(green.findings).toEqual([]);
        expect(green.verdict).not.toBe('fail');
        repo.git('commit', '-q', '-m', 'drop unused');
        for (const [p, c] of Object.entries(catalogs({ other: 'Other' }))) repo.write(p, c);
        repo.git('add', '-A');
        const r = await staged(repo.dir);
        expect(r.verdict).toBe('fail');
        expect(r.findings.map((f) => `${f.file}:${f.line} ${f.rule}/${f.severity}`)).toEqual(['App/CheckoutView.swift:5 missing-catalog-key/error']);
        expect(r.findings[0]!.message).toMatch(/^Text\(\) key "checkout\.cta" is not in table `Localizable`/);
      });
    });
  }
});
