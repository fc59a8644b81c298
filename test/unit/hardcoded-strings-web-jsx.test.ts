// Web React JSX: text children of intrinsic (lowercase) DOM elements are user text, except inside elements whose text
// is not UI copy (script, style, code, pre, kbd, samp, var) and inside i18n components (<Trans>) whose children are
// the message itself. React Native (<Text>) behaviour is unchanged.
import { describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import { memoryWorkspace } from '../../core/workspace.js';
import { configSchema, hardcodedStringsGate } from '../../gates/hardcoded-strings/index.js';
import { extractJsx } from '../../gates/hardcoded-strings/jsx.js';
import type { Extraction } from '../../gates/hardcoded-strings/model.js';
import { hardcodedStringsSelfTest } from '../../gates/hardcoded-strings/selftest.js';

/** Every candidate's line:column points at the first character of its JSX text, or at a literal's opening quote. */
function at(src: string, e: Extraction): string[] {
  const lines = src.split('\n');
  for (const c of e.candidates) {
    const ch = lines[c.line - 1]?.[c.column - 1];
    expect([c.literal[0], '"', "'", '`'], `${c.line}:${c.column} ${c.literal}`).toContain(ch);
  }
  return e.candidates.map((c) => `${c.line}:${c.column} ${c.literal} (${c.context})`);
}

async function run(files: Record<string, string>, config: unknown = {}) {
  const ws = memoryWorkspace({ files, mode: 'staged' });
  return runGate({ gate: hardcodedStringsGate, config: configSchema.parse(config), timeoutMs: 30_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache' });
}

const REPRO = 'export const App=()=>(<main><h1>Welcome to my app</h1><p>Some paragraph</p><button onClick={()=>{}}>Save</button><label>Email address</label></main>);\n';

describe('hardcoded-strings: web JSX text in DOM elements', () => {
  it('reports each text child of an intrinsic element at its first character (the reported repro)', async () => {
    const r = await run({ 'src/App.tsx': REPRO });
    expect(r.verdict).toBe('fail');
    expect(r.counts).toEqual({ files: 1, items: 4, filtered: 0, suppressed: 0, findings: 4 });
    expect(r.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.rule}`)).toEqual([
      'src/App.tsx:1:33 hardcoded-text',
      'src/App.tsx:1:58 hardcoded-text',
      'src/App.tsx:1:101 hardcoded-text',
      'src/App.tsx:1:121 hardcoded-text',
    ]);
    for (const [f, text] of r.findings.map((f, i) => [f, ['Welcome to my app', 'Some paragraph', 'Save', 'Email address'][i]] as const)) {
      expect(REPRO.slice(f.column - 1).startsWith(text!)).toBe(true);
      expect(f.message).toContain(`"${text}"`);
    }
  });

  it('reads .jsx with the JavaScript grammar the same way, joining runs and literal children', async () => {
    const src = `export function Page({ n }) {
  return (
    <div className="page">
      <p>
        Terms &amp; conditions
        apply
      </p>
      <span>{n} items</span>
      <p>{'Literal child'} {\`Hi \${n}\`}</p>
      <p>{t('key')}</p>
      <p>   </p>
      <p>42 &middot; 7</p>
      <my-widget>Custom element</my-widget>
    </div>
  );
}
`;
    const e = await extractJsx(src, 'javascript');
    expect(at(src, e)).toEqual([
      '5:9 Terms & conditions apply (<p> child)',
      '8:17 items (<span> child)',
      '9:11 Literal child (<p> child)',
      '9:29 Hi ${n} (<p> child)',
      '13:18 Custom element (<my-widget> child)',
    ]);
  });

  it('ignores text that is not UI copy: script, style, code, pre, kbd, samp, var and everything inside them', async () => {
    const src = `export const Doc = () => (
  <article>
    <script>{'window.x = "not copy"'}</script>
    <style>{\`body { color: red }\`}</style>
    <p>Run <code>npm install</code> then press <kbd>Ctrl</kbd>, see <samp>done</samp> and <var>x</var></p>
    <pre><span>const greeting = hello</span></pre>
    <code>{'literal code'}</code>
  </article>
);
`;
    const e = await extractJsx(src, 'tsx');
    expect(at(src, e)).toEqual(['5:8 Run (<p> child)', '5:37 then press (<p> child)', '5:63 , see (<p> child)', '5:87 and (<p> child)']);
  });

  it('reports <title> (a document or SVG title is user-visible) and option/textarea text', async () => {
    const src = `export const H = () => (<><title>My App</title><svg><title>Chart of sales</title></svg><select><option>Pick one</option></select></>);\n`;
    const e = await extractJsx(src, 'tsx');
    expect(at(src, e).map((s) => s.replace(/^\S+ /u, ''))).toEqual(['My App (<title> child)', 'Chart of sales (<title> child)', 'Pick one (<option> child)']);
  });

  it('leaves the children of <Trans> (react-i18next, Lingui) alone, DOM elements inside them included', async () => {
    const src = `export const T = () => (
  <div>
    <Trans i18nKey="welcome">Hello <strong>world</strong>, read <a href="/x">the docs</a>.</Trans>
    <i18n.Trans>Dotted <em>name</em></i18n.Trans>
    <Trans i18nKey="terms" components={[<a href="/terms">placeholder link</a>]} />
  </div>
);
`;
    const e = await extractJsx(src, 'tsx');
    expect(at(src, e)).toEqual([]);
  });

  it('keeps React Native behaviour for <Text> children; text straight in <View> is read too, as any component child (issue 15 item 6)', async () => {
    const src = `export const A = () => (<View>Not text<Text>Hello</Text><Trans><Text>Inside trans</Text></Trans></View>);\n`;
    const e = await extractJsx(src, 'tsx');
    expect(at(src, e)).toEqual(['1:31 Not text (<View> child)', '1:45 Hello (<Text> child)', '1:70 Inside trans (<Text> child)']);
  });

  it('applies suppression comments and the allow-list to DOM text', async () => {
    const src = `export const A = () => (
  <div>
    {/* loopgates-ignore hardcoded-strings: brand name */}
    <h1>AntennaPod</h1>
    <p>Version 1.2</p>
    <p>Keep me</p>
    {/* loopgates-ignore hardcoded-strings */}
    <p>No reason given</p>
  </div>
);
`;
    const r = await run({ 'src/A.tsx': src }, { allow: ['^Version \\d'] });
    expect(r.counts).toEqual({ files: 1, items: 4, filtered: 1, suppressed: 1, findings: 3 });
    expect(r.findings.map((f) => `${f.line}:${f.column} ${f.rule}`)).toEqual(['7:6 suppression-without-reason', '6:8 hardcoded-text', '8:8 hardcoded-text']);
  });

  it('a prop literal that is a base catalog key with other text is a key the component translates; key == text and a plain-word key stay text (Rocket.Chat title=)', async () => {
    const en = JSON.stringify({ Autoplay_gifs: 'Autoplay GIFs', Theme: 'Theme', Save: 'Save changes' }, null, 2);
    const src = `export const V = () => (<List><List.Item title='Autoplay_gifs' /><List.Item title='Theme' /><List.Item title='Autoplay GIFs' /><List.Item title='Save' /></List>);\n`;
    const r = await run({ 'app/i18n/locales/en.json': en, 'app/views/V.tsx': src }, { textComponents: ['Text'], attributes: { jsx: ['title'] } });
    expect(r.findings.map((f) => `${f.line}:${f.column} ${f.message}`)).toStrictEqual([
      `1:83 hard-coded text "Theme" in title; the base catalog app/i18n/locales/en.json already has it: use key "Theme"`,
      `1:110 hard-coded text "Autoplay GIFs" in title; the base catalog app/i18n/locales/en.json already has it: use key "Autoplay_gifs"`,
      `1:145 hard-coded text "Save" in title; move it to the string catalog`,
    ]);
  });

  it('passes a web component whose text comes from t() and attributes from props', async () => {
    const src = `export const A = ({ label }: { label: string }) => (<main><h1>{t('title')}</h1><button aria-label={label}>{t('save')}</button><p>{count}</p></main>);\n`;
    const r = await run({ 'src/A.tsx': src });
    expect(r.verdict).toBe('pass');
    expect(r.counts).toMatchObject({ files: 1, items: 0, findings: 0 });
  });

  it('ships a self-test case for <p>Hello</p> in a .tsx', () => {
    const c = hardcodedStringsSelfTest().find((x) => x.name === 'react dom: <p>Hello</p>');
    expect(c?.kind).toBe('red');
    expect(c?.expect).toMatchObject({ rule: 'hardcoded-text' });
    const file = c!.expect!.file;
    const line = c!.files[file]!.split('\n')[c!.expect!.line - 1];
    expect(line).toContain('<p>Hello</p>');
  });
});
