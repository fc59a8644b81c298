// fresh-user-6 G6 / G5 on mattermost-mobile: an i18n component's exemption covers its message props only, and a
// literal handed to a plain call in a text position is on screen. Fixtures in the shape of mattermost-mobile's
// app/components/settings/block.tsx and app/components/chips/base_chip.tsx.
import { describe, expect, it } from 'vitest';
import { extractJsx } from '../../gates/hardcoded-strings/jsx.js';
import { injectJsxLabel } from '../../gates/hardcoded-strings/mutations.js';
import { seededRandom } from '../../mutations/random.js';
import { at, runHardcoded as run } from '../helpers/hardcoded-jsx.js';

const BLOCK = `const Block = ({footerText, headerText}: Props) => {
    return (
        <View style={styles.container}>
            <FormattedText
                accessibilityLabel="Settings footer"
                accessibilityHint="Opens the settings"
                defaultMessage={footerText.defaultMessage}
                id={footerText.id}
                style={[styles.footer]}
            />
            <FormattedMessage id="app.title" defaultMessage="Welcome back" description="Greeting on the home page" title="Home page" />
            <Trans i18nKey="welcome" defaults="Hello <bold>world</bold>" message="Hello" comment="Greeting" aria-label="Greeting banner">Hello <Bold>world</Bold></Trans>
            <Plural value={n} one="# book" other="# books" accessibilityLabel="Book count" />
        </View>
    );
};
`;

describe('hardcoded-strings: i18n components exempt their message props only (fresh-user-6 G6)', () => {
  it('reads accessibilityLabel / accessibilityHint / title / aria-label on <FormattedText>, <FormattedMessage>, <Trans>, <Plural>', async () => {
    expect(at(BLOCK, await extractJsx(BLOCK, 'tsx'))).toEqual([
      '5:36 Settings footer (accessibilityLabel)',
      '6:35 Opens the settings (accessibilityHint)',
      '11:122 Home page (title)',
      '12:120 Greeting banner (aria-label)',
      '13:79 Book count (accessibilityLabel)',
    ]);
  });

  it('a commit adding accessibilityLabel="…" to <FormattedText> is refused at its line', async () => {
    const r = await run({ 'app/components/settings/block.tsx': BLOCK });
    expect(r.verdict).toBe('fail');
    expect(r.findings.map((f) => `${f.line} ${f.rule}`)).toEqual(['5 hardcoded-text', '6 hardcoded-text', '11 hardcoded-text', '12 hardcoded-text', '13 hardcoded-text']);
  });

  it('the mutate operator that survived on block.tsx:77 is killed', async () => {
    const src = `const Block = ({footerText}: Props) => (\n    <FormattedText\n        defaultMessage={footerText.defaultMessage}\n        id={footerText.id}\n    />\n);\n`;
    const m = injectJsxLabel.mutate('app/components/settings/block.tsx', src, seededRandom(1));
    expect(m?.description).toBe('added accessibilityLabel="Hello from loopgates" to <FormattedText> in app/components/settings/block.tsx');
    expect((await run({ 'app/components/settings/block.tsx': src })).verdict).toBe('pass');
    const r = await run({ 'app/components/settings/block.tsx': m!.content });
    expect(r.verdict).toBe('fail');
    expect(r.findings.map((f) => `${f.line} ${f.rule}`)).toEqual([`${m!.line} hardcoded-text`]);
  });
});

const CHIP = `const BaseChip = ({label, n, intl}: Props) => (
    <View>
        <Text style={textStyle}>{nonBreakingString('Remove member')}</Text>
        <Text>{nonBreakingString(label || 'Unknown user')}</Text>
        <Text>{capitalize(\`\${n} members\`)}</Text>
        <Button title={nonBreakingString('Add members')} />
        <Text>{nonBreakingString(t('mobile.chip.remove'))}</Text>
        <Text>{t('mobile.chip.label')}</Text>
        <Text>{getIcon('arrow-left')}{require('@assets/images/Thumb.png')}</Text>
        <Text>{_('Hello there')}</Text>
        <Text>{intl.formatMessage({id: 'mobile.chip.more', defaultMessage: 'More'})}</Text>
    </View>
);
`;

describe('hardcoded-strings: a literal handed to a plain call in a text position is text (fresh-user-6 G5)', () => {
  it('reads nonBreakingString("Remove member") like the bare text; t("key"), _("…"), a lowercase identifier stay unread', async () => {
    const e = await extractJsx(CHIP, 'tsx');
    expect(at(CHIP, e)).toEqual([
      '3:52 Remove member (<Text> child)',
      '4:43 Unknown user (<Text> child)',
      '5:27 ${n} members (<Text> child)',
      '6:42 Add members (title)',
    ]);
    expect((e.keyReferences ?? []).map((k) => `${k.line} ${k.key}`)).toEqual(['7 mobile.chip.remove', '8 mobile.chip.label', '11 mobile.chip.more']);
  });

  it('a commit wrapping a literal in nonBreakingString() inside <Text> is refused at its line', async () => {
    const src = `const C = () => (\n    <Text>{nonBreakingString('Remove member')}</Text>\n);\n`;
    const r = await run({ 'app/components/chips/base_chip.tsx': src });
    expect(r.verdict).toBe('fail');
    expect(r.findings.map((f) => `${f.line}:${f.column} ${f.rule}`)).toEqual(['2:30 hardcoded-text']);
  });
});

const NAV = `export const opts = {headerTitle: 'Notifications screen', tabBarLabel: 'Home tab', headerTitleAlign: 'center'};
export function AccountScreen({navigation}: Props) {
    useEffect(() => {
        navigation.setOptions({title: 'Account settings', headerRight: () => null, animation: 'slide_from_right'});
    }, []);
    const share = () => Share.share({message: 'Check out this post', url: 'https://example.com'}, {dialogTitle: 'Share post'});
    Toast.show({type: 'success', text1: 'Profile saved', text2: 'Your changes are live', position: 'bottom'});
    return (
        <Stack.Navigator screenOptions={{headerBackTitle: 'Back', presentation: 'modal'}}>
            <Stack.Screen name='Settings' component={Settings} options={{title: 'Settings', headerShown: false}} />
            <Stack.Screen name='About' component={About} options={({route}) => ({title: intl.formatMessage({id: 'about.title', defaultMessage: 'About'})})} />
        </Stack.Navigator>
    );
}
`;

describe('hardcoded-strings: React Native UI text outside JSX text (fresh-user-6 G16)', () => {
  it('reads react-navigation options (setOptions, options=, screenOptions=, headerTitle/tabBarLabel), Toast.show text1/text2, Share.share', async () => {
    expect(at(NAV, await extractJsx(NAV, 'tsx'))).toEqual([
      '1:35 Notifications screen (headerTitle)',
      '1:72 Home tab (tabBarLabel)',
      '4:39 Account settings (navigation.setOptions())',
      '6:47 Check out this post (Share.share())',
      '6:113 Share post (Share.share())',
      '7:41 Profile saved (Toast.show())',
      '7:65 Your changes are live (Toast.show())',
      '9:59 Back (screenOptions)',
      '10:81 Settings (options)',
    ]);
  });

  it('a plain .ts file with navigation.setOptions({title: "…"}) is read too', async () => {
    const src = `export const setTitle = (navigation: Nav) => navigation.setOptions({title: 'Account settings'});\n`;
    expect(at(src, await extractJsx(src, 'typescript'))).toEqual(['1:76 Account settings (navigation.setOptions())']);
  });
});
