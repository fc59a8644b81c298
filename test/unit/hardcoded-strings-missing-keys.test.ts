// Keys the code asks for that no catalog holds (issue 15 item 7): i18next `t('…')` / `<Trans i18nKey>` and react-intl
// `id`s absent from every web base catalog show the raw key (or, with a default, the default in every locale). Reported
// at the code reference as `missing-catalog-key`, the rule SwiftUI keys already use. Literal keys only; computed keys
// are counted in a note. Fixtures in the shape of a React Native app with react-i18next (app/i18n/locales/en.json)
// and a react-intl web app (app/javascript/locales/en.json).
import { describe, expect, it } from 'vitest';
import { runHardcoded } from '../helpers/hardcoded-jsx.js';

const run = (files: Record<string, string>, targets?: string[]) => runHardcoded(files, {}, targets);

const EN = `{
  "checkout": {
    "title": "Checkout",
    "pay": "Pay now"
  },
  "items_one": "{{count}} item",
  "items_other": "{{count}} items",
  "friend_male": "A boyfriend",
  "Delete it": "Delete it"
}
`;
const DE = `{
  "checkout": { "title": "Kasse", "pay": "Jetzt zahlen", "cta": "Weiter" }
}
`;

const SCREEN = `import { useTranslation, Trans } from 'react-i18next';

export function CheckoutScreen({ step, count }: Props) {
  const { t } = useTranslation();
  return (
    <View>
      <Text>{t('checkout.title')}</Text>
      <Text>{t('checkout.cta')}</Text>
      <Text>{t(\`checkout.step_\${step}\`)}</Text>
      <Text>{t('items', { count })}</Text>
      <Text>{t('friend', { context: 'male' })}</Text>
      <Text>{t('checkout.back', 'Back')}</Text>
      <Button title={i18n.t('Delete it')} onPress={onDelete} />
      <Trans i18nKey="checkout.terms">By paying you accept the terms</Trans>
      <Text>{t(labelKey)}</Text>
    </View>
  );
}
`;

describe('hardcoded-strings: catalog keys the code asks for (item 7)', () => {
  it('reports a literal t() key no web base catalog holds, at the reference (was a pass)', async () => {
    const r = await run({ 'app/i18n/locales/en.json': EN, 'app/i18n/locales/de.json': DE, 'app/views/CheckoutScreen.tsx': SCREEN }, ['app/views/CheckoutScreen.tsx']);
    expect(r.verdict).toBe('fail');
    expect(r.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.rule} ${f.severity}`)).toEqual([
      'app/views/CheckoutScreen.tsx:8:16 missing-catalog-key error',
      'app/views/CheckoutScreen.tsx:12:16 missing-catalog-key warning',
      'app/views/CheckoutScreen.tsx:14:22 missing-catalog-key warning',
    ]);
    expect(r.findings[0]!.message).toBe(
      't() key "checkout.cta" is in no base catalog of the app (app/i18n/locales/en.json), so users see the key itself; add it to app/i18n/locales/en.json',
    );
    expect(r.findings[1]!.message).toContain('so every locale shows its default text');
    // A count of what was looked up is information (a note), not a warning about the gate's blindness (fresh-user-3 F6).
    expect(r.info).toEqual(['7 catalog keys the code asks for were looked up; 2 computed keys (t(`…${}`), t(variable)) were not']);
    expect(r.notes.join('\n')).not.toContain('were looked up');
  });

  it('reads react-intl ids: FormattedMessage and formatMessage without a defaultMessage are errors', async () => {
    const en = `{
  "compose.publish": "Publish",
  "compose.draft": { "defaultMessage": "Save draft", "description": "button" }
}
`;
    const src = `import { FormattedMessage, useIntl } from 'react-intl';
export const Compose = () => {
  const intl = useIntl();
  return (
    <div>
      <FormattedMessage id="compose.publish" />
      <FormattedMessage id="compose.schedule" />
      <FormattedMessage id="compose.later" defaultMessage="Later" />
      <button aria-label={intl.formatMessage({ id: 'compose.draft' })} />
      <button aria-label={intl.formatMessage({ id: 'compose.close' })} />
    </div>
  );
};
`;
    const r = await run({ 'app/javascript/locales/en.json': en, 'app/javascript/components/Compose.jsx': src }, ['app/javascript/components/Compose.jsx']);
    expect(r.findings.map((f) => `${f.line}:${f.column} ${f.rule} ${f.severity}`)).toEqual([
      '7:28 missing-catalog-key error',
      '8:28 missing-catalog-key warning',
      '10:52 missing-catalog-key error',
    ]);
  });

  it('green: every key present, or no web catalog in the repository (keys may come from a backend), suppressions honoured', async () => {
    const ok = `export const A = () => <Text>{t('checkout.title')}{t('checkout.pay')}</Text>;\n`;
    const r1 = await run({ 'app/i18n/locales/en.json': EN, 'app/A.tsx': ok }, ['app/A.tsx']);
    expect(r1.verdict).toBe('pass');
    const r2 = await run({ 'app/A.tsx': `export const A = () => <Text>{t('checkout.cta')}</Text>;\n` });
    expect(r2.verdict).toBe('pass');
    expect(r2.notes.join('\n')).toContain('no i18next or FormatJS catalog in the repository: 1 catalog key the code asks for was not looked up');
    const suppressed = `export const A = () => (
  <View>
    {/* loopgates-ignore hardcoded-strings: key added by the CMS at build time */}
    <Text>{t('checkout.cta')}</Text>
  </View>
);
`;
    const r3 = await run({ 'app/i18n/locales/en.json': EN, 'app/A.tsx': suppressed }, ['app/A.tsx']);
    expect(r3.verdict).toBe('pass');
    expect(r3.counts).toMatchObject({ suppressed: 1, findings: 0 });
  });

  it('a namespace prefix (ns:key) and useTranslation keyPrefix resolve as i18next does', async () => {
    const common = `{ "save": "Save", "settings": { "title": "Settings" } }\n`;
    const src = `export const A = () => {
  const { t } = useTranslation('common', { keyPrefix: 'settings' });
  return <Text>{t('common:save')}{t('title')}{t('common:missing')}</Text>;
};
`;
    const r = await run({ 'public/locales/en/common.json': common, 'public/locales/de/common.json': common, 'src/A.tsx': src }, ['src/A.tsx']);
    expect(r.findings.map((f) => `${f.line}:${f.column} ${f.rule}`)).toEqual(['3:49 missing-catalog-key']);
  });

  it('a key present verbatim that ends in a plural suffix is found (linkwarden by_author_and_other: was missing-catalog-key)', async () => {
    const en = `{\n  "by_author_and_other": "By {{author}} and {{count}} other.",\n  "by_author_and_others": "By {{author}} and {{count}} others."\n}\n`;
    const src = `export const A = () => <p>{t("by_author_and_other", { author: "x", count: 1 })}{t("by_author_and_few")}</p>;\n`;
    const r = await run({ 'apps/web/public/locales/en/common.json': en, 'apps/web/public/locales/de/common.json': en, 'apps/web/pages/A.tsx': src }, ['apps/web/pages/A.tsx']);
    // by_author_and_few is in no catalog: still missing.
    expect(r.findings.map((f) => `${f.line}:${f.column} ${f.rule}`)).toEqual(['1:83 missing-catalog-key']);
  });
});

describe('hardcoded-strings: an app wrapper of FormattedMessage (Mattermost <FormattedText>)', () => {
  it('reads no prop of an element with defaultMessage (was 1 hardcoded-text per defaultMessage), and looks its id up', async () => {
    const en = `{ "channel.header.title": "Header" }\n`;
    const src = `export const Header = () => (
  <View>
    <FormattedText id="channel.header.title" defaultMessage="Header" style={styles.title} />
    <FormattedText id="channel.header.purpose" defaultMessage="Purpose" />
  </View>
);
`;
    const r = await run({ 'assets/base/i18n/en.json': en, 'app/screens/Header.tsx': src }, ['app/screens/Header.tsx']);
    expect(r.findings.map((f) => `${f.line}:${f.column} ${f.rule} ${f.severity}`)).toEqual(['4:23 missing-catalog-key warning']);
    expect(r.findings[0]!.message).toContain('<FormattedText id> key "channel.header.purpose" is in no base catalog');
  });
});

describe('hardcoded-strings: react-intl message descriptors held for later (Mattermost)', () => {
  it('an object with a literal id and a defaultMessage is a key reference (was not read: 3 of 20 injected typos missed)', async () => {
    const en = `{ "mobile.create_direct_message.start": "Start Conversation" }\n`;
    const src = `const messages = defineMessages({
  start: { id: 'mobile.create_direct_message.start', defaultMessage: 'Start Conversation' },
  failed: { id: 'mobile.create_direct_message.failed', defaultMessage: 'Could not start' },
});
export const B = () => <Text>{intl.formatMessage({ id: 'mobile.create_direct_message.failed', defaultMessage: 'Could not start' })}</Text>;
`;
    const r = await run({ 'assets/base/i18n/en.json': en, 'app/screens/B.tsx': src }, ['app/screens/B.tsx']);
    expect(r.findings.map((f) => `${f.line}:${f.column} ${f.rule} ${f.severity}`)).toEqual(['3:17 missing-catalog-key warning', '5:56 missing-catalog-key warning']);
  });
});

describe('a web + Expo monorepo: the fix names the catalog of the file\'s own package (fresh-user-3 F15, linkwarden)', () => {
  // linkwarden: apps/web (Next.js, next-i18next: apps/web/public/locales/<lng>/common.json) and apps/mobile (Expo, no
  // catalog) are sibling workspaces; the mobile app was told `use key "dashboard"` of the web catalog, which it never loads.
  const files = {
    'package.json': '{ "private": true, "workspaces": ["apps/*"] }\n',
    'apps/web/package.json': '{ "name": "@linkwarden/web" }\n',
    'apps/web/public/locales/en/common.json': '{ "dashboard": "Dashboard", "add_link": "Add link" }\n',
    'apps/web/public/locales/de/common.json': '{ "dashboard": "Übersicht", "add_link": "Link hinzufügen" }\n',
    'apps/web/components/Nav.tsx': 'export const Nav = () => <nav><a href="/">Dashboard</a></nav>;\n',
    'apps/mobile/package.json': '{ "name": "mobile", "dependencies": { "expo": "~54.0.0", "react-native": "0.81.5" } }\n',
    'apps/mobile/app/tabs.tsx': 'import { Text } from "react-native";\nexport const Tabs = () => <Text>Dashboard</Text>;\nexport const K = ({ t }) => <Text>{t("share_sheet")}</Text>;\n',
  };

  it('the web file is told the web key; the mobile file is told its package has no catalog, not the web key', async () => {
    const r = await run(files, ['apps/web/components/Nav.tsx', 'apps/mobile/app/tabs.tsx']);
    expect(r.findings.map((f) => `${f.file}:${f.line} ${f.rule}: ${f.message}`)).toEqual([
      'apps/mobile/app/tabs.tsx:2 hardcoded-text: hard-coded text "Dashboard" in <Text> child; move it to a string catalog of apps/mobile (it has none: apps/web/public/locales/en/common.json belongs to apps/web)',
      'apps/mobile/app/tabs.tsx:3 missing-catalog-key: t() key "share_sheet" is in no base catalog of the repository (apps/web/public/locales/en/common.json, of apps/web), so users see the key itself; add it to a string catalog of apps/mobile (it has none)',
      'apps/web/components/Nav.tsx:1 hardcoded-text: hard-coded text "Dashboard" in <a> child; the base catalog apps/web/public/locales/en/common.json already has it: use key "dashboard"',
    ]);
  });
});
