// Web React JSX beyond DOM elements (issue 15 items 6 and 8): text children of any component or fragment, text-bearing
// props by name (`submitText=`, `label=`, `message=`), toast / alert calls, and no comparison operands as UI text.
// Fixtures are in the shape of Outline's app/ (outline/outline, React + react-i18next).
import { describe, expect, it } from 'vitest';
import { extractJsx } from '../../gates/hardcoded-strings/jsx.js';
import { at, runHardcoded as run } from '../helpers/hardcoded-jsx.js';

const SCENE = `import { observer } from "mobx-react";
import { useTranslation } from "react-i18next";

function DocumentDelete({ document, onSubmit }: Props) {
  const { t } = useTranslation();
  if (!document) {
    return <Empty>Loading…</Empty>;
  }
  return (
    <>
      <Anchor href="#main">Skip navigation</Anchor>
      <ConfirmationDialog onSubmit={onSubmit} submitText="Delete it" savingText={t("Deleting…")}>
        <Text type="secondary">{t("Are you sure?")}</Text>
      </ConfirmationDialog>
      <Input label="Collection name" placeholder={t("Name")} type="text" name="name" />
      <Notice message="Saved" className="notice" id="saved" />
      Nothing to see here
    </>
  );
}

export default observer(DocumentDelete);
`;

describe('hardcoded-strings: JSX text outside <Text> and DOM elements (item 6)', () => {
  it('reads text children of components and fragments, and text-bearing props by name, at their first character', async () => {
    const e = await extractJsx(SCENE, 'tsx');
    expect(at(SCENE, e)).toEqual([
      '7:19 Loading… (<Empty> child)',
      '11:28 Skip navigation (<Anchor> child)',
      '12:58 Delete it (submitText)',
      '15:20 Collection name (label)',
      '16:23 Saved (message)',
      '17:7 Nothing to see here (<> child)',
    ]);
  });

  it('fails the gate at each of them (was a pass: 0 findings)', async () => {
    const r = await run({ 'app/scenes/DocumentDelete.tsx': SCENE });
    expect(r.verdict).toBe('fail');
    expect(r.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.rule}`)).toEqual([
      'app/scenes/DocumentDelete.tsx:7:19 hardcoded-text',
      'app/scenes/DocumentDelete.tsx:11:28 hardcoded-text',
      'app/scenes/DocumentDelete.tsx:12:58 hardcoded-text',
      'app/scenes/DocumentDelete.tsx:15:20 hardcoded-text',
      'app/scenes/DocumentDelete.tsx:16:23 hardcoded-text',
      'app/scenes/DocumentDelete.tsx:17:7 hardcoded-text',
    ]);
    expect(r.findings[2]!.message).toBe('hard-coded text "Delete it" in submitText; move it to the string catalog');
  });

  it('reads toast, alert and confirm calls (sonner, react-hot-toast, shadcn, React Native Alert)', async () => {
    const src = `export function useActions() {
  const onCopy = () => {
    toast.success("Link copied");
    toast.error(\`Could not copy \${name}\`);
    toast("Plain toast");
    toast({ title: "Saved", description: "Your changes are live", variant: "default" });
    toast.promise(save(), { loading: "Saving…", success: "Done", error: "Failed" });
    if (!window.confirm("Delete this document?")) return;
    alert("Copied");
    Alert.alert("Sign out", "Are you sure?", [{ text: "Cancel", style: "cancel" }, { text: "OK", onPress }]);
    toast.error(t("Could not copy"));
    console.error("not UI");
    logger.warn("not UI either");
  };
  return <button onClick={onCopy}>{t("Copy")}</button>;
}
`;
    const e = await extractJsx(src, 'tsx');
    expect(at(src, e)).toEqual([
      '3:19 Link copied (toast.success())',
      '4:17 Could not copy ${name} (toast.error())',
      '5:11 Plain toast (toast())',
      '6:20 Saved (toast())',
      '6:42 Your changes are live (toast())',
      '7:38 Saving… (toast.promise())',
      '7:58 Done (toast.promise())',
      '7:73 Failed (toast.promise())',
      '8:25 Delete this document? (window.confirm())',
      '9:11 Copied (alert())',
      '10:17 Sign out (Alert.alert())',
      '10:29 Are you sure? (Alert.alert())',
      '10:55 Cancel (Alert.alert())',
      '10:92 OK (Alert.alert())',
    ]);
  });

  it('keeps the non-text props, Trans and react-intl message components, and code elements out (green)', async () => {
    const src = `export const A = () => (
  <Layout title={t("Home")}>
    <Trans i18nKey="welcome" defaults="Hello <bold>world</bold>">Hello <Bold>world</Bold></Trans>
    <FormattedMessage id="app.title" defaultMessage="Welcome back" description="Greeting on the home page" />
    <Input type="email" name="email" className="field" id="email" variant="outline" autoComplete="email" />
    <Route path="/settings" component={Settings} />
    <pre><Highlight>const x = 1;</Highlight></pre>
    <Icon size={24} color="currentColor" />
  </Layout>
);
`;
    const r = await run({ 'app/A.tsx': src });
    expect(r.verdict).toBe('pass');
    expect(r.counts).toMatchObject({ files: 1, items: 0, findings: 0 });
  });

  it('a configured attributes.jsx list replaces the defaults, "*Suffix" entries included', async () => {
    const src = `export const A = () => (<Dialog submitText="Delete it" cancelLabel="Keep it" label="Name" />);\n`;
    const only = await extractJsx(src, 'tsx', ['*Label']);
    expect(at(src, only)).toEqual(['1:68 Keep it (cancelLabel)']);
  });
});

describe('hardcoded-strings: comparison operands are not UI text (item 8)', () => {
  it('reads the branches of a ternary and the right side of &&, never a condition or a comparison operand (Outline)', async () => {
    const src = `export const Actions = ({ resolvedTheme, title, client, obj }: Props) => (
  <>
    <PageTitle title={typeof title === "string" ? title : ""} />
    <Button
      aria-label={
        resolvedTheme === "light"
          ? "Switch to dark"
          : "Switch to light"
      }
    />
    {client.clientType === "confidential" && <SettingRow name="clientSecret" />}
    {"key" in obj ? <p>{"Has key"}</p> : null}
    <p>{client.name !== "default" && "Custom client"}</p>
    <p>{title || "Untitled"}</p>
    <p>{title ?? "No title"}</p>
    <p>{"Hello, " + title}</p>
  </>
);
`;
    const e = await extractJsx(src, 'tsx');
    expect(at(src, e)).toEqual([
      '7:13 Switch to dark (aria-label)',
      '8:13 Switch to light (aria-label)',
      '12:25 Has key (<p> child)',
      '13:38 Custom client (<p> child)',
      '14:18 Untitled (<p> child)',
      '15:18 No title (<p> child)',
      '16:9 Hello,  (<p> child)',
    ]);
  });
});

describe('hardcoded-strings: brand and product names (item 8 policy)', () => {
  // Outline's shared/editor/embeds/index.tsx and plugins/*/client/Settings.tsx: 61 of its 86 alt/title/aria-label
  // findings were one brand word.
  const EMBEDS = `export default [
  new EmbedDescriptor({
    title: "Spotify",
    icon: <Img src="/images/spotify.png" alt="Spotify" />,
  }),
  new EmbedDescriptor({
    icon: <Img src="/images/avatar-placeholder.png" alt="Avatar" />,
  }),
];
export const Settings = () => (
  <IntegrationScene title="GitLab" icon={<GitLabIcon />}>
    <Heading>GitLab</Heading>
    <Img src="/images/figma.png" alt="Figma logo" />
    <Img src="/images/trello.png" alt="Trello" />
  </IntegrationScene>
);
`;

  it('a one-word alt/title/aria-label equal to its own image stem, link host or icon component is a name, filtered and counted (were findings); a generic alt beside another file name stays', async () => {
    const r = await run({ 'shared/editor/embeds/index.tsx': EMBEDS });
    expect(r.findings.map((f) => `${f.line}:${f.column} ${JSON.stringify(f.message.split('"')[1])}`)).toEqual([
      '7:57 "Avatar"',
      '12:14 "GitLab"',
      '13:38 "Figma logo"',
    ]);
    expect(r.counts).toMatchObject({ items: 6, filtered: 3, findings: 3 });
    expect(r.notes.join('\n')).toContain('3 one-word alt/title/aria-label values name their own element (src, icon, href): read as brand or product names, not judged');
  });

  it('gates.hardcoded-strings.names lists the rest: whole literals, any position, counted as filtered', async () => {
    const r = await run({ 'shared/editor/embeds/index.tsx': EMBEDS }, { names: ['GitLab', 'Trello'] });
    expect(r.findings.map((f) => `${f.line}:${f.column}`)).toEqual(['7:57', '13:38']);
    expect(r.counts).toMatchObject({ items: 6, filtered: 4, findings: 2 });
    expect(r.notes.join('\n')).toContain('3 literals are names listed in gates.hardcoded-strings.names');
    expect(r.notes.join('\n')).toContain('1 one-word alt/title/aria-label value names its own element');
  });
});
