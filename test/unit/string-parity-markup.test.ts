// Markup in translations (issue 15, item 5): a react-i18next <Trans> string translated without its tags, or with
// `</em>` twice, passed; so did Android styled text without its `<b>` / `<xliff:g>` and an Apple `.strings` value that
// lost its HTML link. Tags are compared as placeholders are: names, counts, balance (rule markup-mismatch). Shapes:
// open-webui's i18next translation.json (`Move to <em>{{ location }}</em>`-like keys), AntennaPod's values/strings.xml
// (`<xliff:g id="…">%1$s</xliff:g>`), an iOS `.strings` consent text.
import { describe, expect, it } from 'vitest';
import { memoryWorkspace } from '../../core/workspace.js';
import { runGate } from '../../core/runner.js';
import type { GateResult } from '../../core/types.js';
import { stringParityGate } from '../../gates/string-parity/index.js';
import { markupDifference, tagsInText } from '../../gates/string-parity/placeholders/markup.js';

const run = (files: Record<string, string>): Promise<GateResult> =>
  runGate({ gate: stringParityGate, config: stringParityGate.configSchema.parse({}), timeoutMs: 10_000 }, { ws: memoryWorkspace({ files, mode: 'all' }), cacheRoot: '/tmp/loopgates-test-cache' });
const lines = (r: GateResult) => r.findings.map((f) => `${f.file}:${f.line} ${f.rule}/${f.severity}`);
const json = (o: Record<string, string>) => `${JSON.stringify(o, null, '\t')}\n`;

describe('i18next <Trans> markup', () => {
  const en = json({ 'Archive All Chats': 'Archive All Chats', moveTo: 'Move to <em>{{ location }}</em>', signIn: 'Already have an account? <1>Sign in</1>' });
  const files = (de: Record<string, string>) => ({ 'public/locales/en/translation.json': en, 'public/locales/de/translation.json': json(de) });
  it('red: the tags dropped is markup-mismatch at the line (was pass)', async () => {
    const r = await run(files({ 'Archive All Chats': 'Alle Chats archivieren', moveTo: 'Verschieben nach {{ location }}', signIn: 'Schon ein Konto? <1>Anmelden</1>' }));
    expect([r.verdict, ...lines(r)]).toEqual(['fail', 'public/locales/de/translation.json:3 markup-mismatch/error']);
    expect(r.findings[0]!.message).toBe('de `moveTo`: markup differs: base <em> </em>, translation none: lacks <em> </em> (users see the tags as text, or lose the styling, link or component they mark)');
  });
  it('red: `</em>` twice is markup-mismatch: adds </em>, unbalanced', async () => {
    const r = await run(files({ 'Archive All Chats': 'Alle Chats archivieren', moveTo: 'Verschieben nach <em>{{ location }}</em></em>', signIn: 'Schon ein Konto? <1>Anmelden</1>' }));
    expect(lines(r)).toEqual(['public/locales/de/translation.json:3 markup-mismatch/error']);
    expect(r.findings[0]!.message).toContain('adds </em>, and is unbalanced');
  });
  it('red: an indexed slot closed by the wrong index (`<1>…</2>`)', async () => {
    const r = await run(files({ 'Archive All Chats': 'Alle Chats archivieren', moveTo: 'Nach <em>{{ location }}</em> verschieben', signIn: 'Schon ein Konto? <1>Anmelden</2>' }));
    expect(lines(r)).toEqual(['public/locales/de/translation.json:4 markup-mismatch/error']);
    expect(r.findings[0]!.message).toContain('lacks </1>, adds </2>');
  });
  it('green: the same tags, moved with the phrase, pass', async () => {
    const r = await run(files({ 'Archive All Chats': 'Alle Chats archivieren', moveTo: 'Nach <em>{{ location }}</em> verschieben', signIn: '<1>Anmelden</1>, falls schon ein Konto' }));
    expect([r.verdict, ...lines(r)]).toEqual(['pass']);
  });
});

const xml = (...entries: string[]) => `<?xml version="1.0" encoding="utf-8"?>\n<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">\n${entries.map((e) => `    ${e}\n`).join('')}</resources>\n`;

describe('Android styled text', () => {
  const base = xml('<string name="app_name" translatable="false">AntennaPod</string>', '<string name="delete_episodes_msg">Tap <b>Delete</b> to remove <xliff:g id="count">%1$d</xliff:g> episodes</string>');
  it('red: the translation without <b> is markup-mismatch at its <string> (was pass)', async () => {
    const r = await run({ 'res/values/strings.xml': base, 'res/values-de/strings.xml': xml('<string name="delete_episodes_msg">Tippe auf Löschen, um <xliff:g id="count">%1$d</xliff:g> Episoden zu entfernen</string>') });
    expect([r.verdict, ...lines(r)]).toEqual(['fail', 'res/values-de/strings.xml:3 markup-mismatch/error']);
    expect(r.findings[0]!.message).toContain('lacks <b> </b>');
  });
  // fresh6 F15: <xliff:g> is a translator's note that aapt2 strips (its text kept, no span), so users never see it:
  // with or without it the text is the same. (This case was red, "lacks <xliff:g>", before F15.)
  it('green: the translation without <xliff:g> (the placeholder kept) passes', async () => {
    const r = await run({ 'res/values/strings.xml': base, 'res/values-de/strings.xml': xml('<string name="delete_episodes_msg">Tippe auf <b>Löschen</b>, um %1$d Episoden zu entfernen</string>') });
    expect([r.verdict, ...lines(r)]).toEqual(['pass']);
  });
  it('green: <xliff:g> around a placeholder the base has bare passes (was markup-mismatch, fresh6 F15)', async () => {
    const bare = xml('<string name="app_name" translatable="false">AntennaPod</string>', '<string name="added">Added %1$s</string>');
    const r = await run({ 'res/values/strings.xml': bare, 'res/values-de/strings.xml': xml('<string name="added"><xliff:g id="x">%1$s</xliff:g> hinzugefügt</string>') });
    expect([r.verdict, ...lines(r)]).toEqual(['pass']);
  });
  it('red: the placeholder inside <xliff:g> still counts: dropping it is placeholder-mismatch', async () => {
    const r = await run({ 'res/values/strings.xml': base, 'res/values-de/strings.xml': xml('<string name="delete_episodes_msg">Tippe auf <b>Löschen</b>, um <xliff:g id="count">alle</xliff:g> Episoden zu entfernen</string>') });
    expect([r.verdict, ...lines(r)]).toEqual(['fail', 'res/values-de/strings.xml:3 placeholder-mismatch/error']);
  });
  it('red: an <xliff:g> prefix bound to another namespace is markup (aapt2 strips only the XLIFF namespace)', async () => {
    const other = (e: string) => `<?xml version="1.0" encoding="utf-8"?>\n<resources xmlns:xliff="urn:example:not-xliff">\n    ${e}\n</resources>\n`;
    const r = await run({ 'res/values/strings.xml': other('<string name="added">Added %1$s</string>'), 'res/values-de/strings.xml': other('<string name="added"><xliff:g id="x">%1$s</xliff:g> hinzugefügt</string>') });
    expect([r.verdict, ...lines(r)]).toEqual(['fail', 'res/values-de/strings.xml:3 markup-mismatch/error']);
  });
  it('green: the same elements pass', async () => {
    const r = await run({ 'res/values/strings.xml': base, 'res/values-de/strings.xml': xml('<string name="delete_episodes_msg">Tippe auf <b>Löschen</b>, um <xliff:g id="count">%1$d</xliff:g> Episoden zu entfernen</string>') });
    expect([r.verdict, ...lines(r)]).toEqual(['pass']);
  });
});

describe('escaped tags that are literal text (fresh-user-4 F3)', () => {
  // mastodon-android's nl-NL writes `&lt;head&gt;` as words ("paste it inside the <head> tag"), while the same app
  // escapes `&lt;a href>` as real markup read with Html.fromHtml.
  const base = xml('<string name="verify_link_help">Copy the code below and paste it into the HTML of your website.</string>', '<string name="terms_info">By signing up you agree to the &lt;a href="%1$s">rules&lt;/a>.</string>');
  const nl = (help: string, terms: string) => xml(`<string name="verify_link_help">${help}</string>`, `<string name="terms_info">${terms}</string>`);
  it('green: `&lt;head&gt;` in the translation only, no formatting tag, is text (was markup-mismatch)', async () => {
    const r = await run({ 'res/values/strings.xml': base, 'res/values-nl-rNL/strings.xml': nl('Kopieer de code hieronder. Plak de code binnen de &lt;head&gt;-tag van je website.', 'Door je aan te melden ga je akkoord met de &lt;a href="%1$s">regels&lt;/a>.') });
    expect([r.verdict, ...lines(r)]).toEqual(['pass']);
  });
  it('red: the escaped `&lt;a>` link dropped stays markup-mismatch', async () => {
    const r = await run({ 'res/values/strings.xml': base, 'res/values-nl-rNL/strings.xml': nl('Plak de code binnen de &lt;head&gt;-tag.', 'Door je aan te melden ga je akkoord met de regels (%1$s).') });
    expect([r.verdict, ...lines(r)]).toEqual(['fail', 'res/values-nl-rNL/strings.xml:4 markup-mismatch/error']);
    expect(r.findings[0]!.message).toContain('lacks <a> </a>');
  });
  it('red: an escaped formatting tag the base lacks (`&lt;b>`) stays markup-mismatch', async () => {
    const r = await run({ 'res/values/strings.xml': base, 'res/values-nl-rNL/strings.xml': nl('Plak de code &lt;b>hier&lt;/b>.', 'Door je aan te melden ga je akkoord met de &lt;a href="%1$s">regels&lt;/a>.') });
    expect(lines(r)).toEqual(['res/values-nl-rNL/strings.xml:3 markup-mismatch/error']);
    expect(r.findings[0]!.message).toContain('adds <b> </b>');
  });
  // This JSON reads as ICU, whose own tag comparison (placeholder-mismatch) judges it; the rule above leaves it alone.
  it('red: an i18next component slot the base lacks (`<1>`, `<Link>`) stays an error', async () => {
    const r = await run({ 'public/locales/en/translation.json': json({ signIn: '<b>Sign in</b>' }), 'public/locales/de/translation.json': json({ signIn: '<b>Anmelden</b> <1>hier</1> <Link>oder da</Link>' }) });
    expect(lines(r)).toEqual(['public/locales/de/translation.json:2 placeholder-mismatch/error']);
    expect(r.findings[0]!.message).toContain('translation <b> </b> <1> </1> <Link> </Link>');
  });
});

describe('HTML in Apple .strings', () => {
  const en = '/* Consent */\n"consent.terms" = "I agree to the <a href=\\"%@\\">Terms of Service</a>";\n"consent.title" = "Welcome";\n';
  it('red: the link dropped is markup-mismatch (placeholders agree, so it passed)', async () => {
    const r = await run({ 'App/en.lproj/Localizable.strings': en, 'App/de.lproj/Localizable.strings': '"consent.terms" = "Ich stimme den Nutzungsbedingungen zu: %@";\n"consent.title" = "Willkommen";\n' });
    expect([r.verdict, ...lines(r)]).toEqual(['fail', 'App/de.lproj/Localizable.strings:1 markup-mismatch/error']);
  });
  it('green: the link kept passes', async () => {
    const r = await run({ 'App/en.lproj/Localizable.strings': en, 'App/de.lproj/Localizable.strings': '"consent.terms" = "Ich stimme den <a href=\\"%@\\">Nutzungsbedingungen</a> zu";\n"consent.title" = "Willkommen";\n' });
    expect([r.verdict, ...lines(r)]).toEqual(['pass']);
  });
});

describe('angle-bracketed words in Apple .strings (fresh-user-5 F3)', () => {
  // iina's menus write `"<None>"` as the UI's own text (track.none, MainMenu's NSMenuItem titles) next to real HTML
  // links (`<a href=\"…\">`) shown with NSAttributedString. A lone tag no formatting tag names is text on either side.
  const en = '"track.none" = "<None>";\n"initial.bug_report" = "Report via <a href=\\"https://github.com/iina/iina/issues\\">GitHub issues</a>.";\n"pref.hint" = "Press <b>Enter</b> to apply";\n';
  const af = (none: string, report: string, hint: string) => `"track.none" = "${none}";\n"initial.bug_report" = "${report}";\n"pref.hint" = "${hint}";\n`;
  const link = 'Rapporteer via <a href=\\"https://github.com/iina/iina/issues\\">GitHub issues</a>.';
  const files = (tr: string) => ({ 'iina/Base.lproj/Localizable.strings': en, 'iina/af.lproj/Localizable.strings': tr });
  it('green: `<None>` translated `<Geen>` (or `<Tidak Ada>`) is text, not markup (was markup-mismatch)', async () => {
    for (const none of ['<Geen>', '<Tidak Ada>', '<无>', 'Geen']) {
      const r = await run(files(af(none, link, 'Druk <b>Enter</b> om toe te pas')));
      expect([none, r.verdict, ...lines(r)]).toEqual([none, 'pass']);
    }
  });
  it('red: the `<a href>` link dropped stays markup-mismatch, only at its line', async () => {
    const r = await run(files(af('<Geen>', 'Rapporteer via GitHub issues.', 'Druk <b>Enter</b> om toe te pas')));
    expect([r.verdict, ...lines(r)]).toEqual(['fail', 'iina/af.lproj/Localizable.strings:2 markup-mismatch/error']);
    expect(r.findings[0]!.message).toContain('lacks <a> </a>');
  });
  it('red: `<b>…</b>` dropped, or its `</b>` lost, stays markup-mismatch', async () => {
    const dropped = await run(files(af('<Geen>', link, 'Druk Enter om toe te pas')));
    expect(lines(dropped)).toEqual(['iina/af.lproj/Localizable.strings:3 markup-mismatch/error']);
    expect(dropped.findings[0]!.message).toContain('base <b> </b>, translation none: lacks <b> </b>');
    const unclosed = await run(files(af('<Geen>', link, 'Druk <b>Enter om toe te pas')));
    expect(lines(unclosed)).toEqual(['iina/af.lproj/Localizable.strings:3 markup-mismatch/error']);
    expect(unclosed.findings[0]!.message).toContain('lacks </b>');
  });
  it('tagsInText: a lone tag no formatting tag names is none; formatting, indexed and self-closing tags stay', () => {
    expect(tagsInText('<None>')).toEqual([]);
    expect(tagsInText('Format: <key>=<value>[,<key>=<value>[,…]]')).toEqual([]);
    expect(tagsInText('<b>Enter')).toEqual([{ name: 'b', kind: 'open' }]);
    expect(tagsInText('Skip to <0>content')).toEqual([{ name: '0', kind: 'open' }]);
    expect(tagsInText('<Icon/> <key>')).toEqual([{ name: 'icon', kind: 'self' }]);
    expect(tagsInText('<bold>x</bold>')).toEqual([{ name: 'bold', kind: 'open' }, { name: 'bold', kind: 'close' }]);
  });
});

describe('markupDifference', () => {
  it('reads void elements, self-closing tags and attributes; text with `<` that is no tag is none', () => {
    expect(markupDifference(tagsInText('Zeile<br/>zwei'), tagsInText('Line<br>two'))).toBeUndefined();
    expect(tagsInText('a < b and 3 <4')).toEqual([]);
    expect(tagsInText('<a href="x">y</a>')).toEqual([{ name: 'a', kind: 'open' }, { name: 'a', kind: 'close' }]);
    expect(markupDifference(tagsInText('</b>x<b>'), tagsInText('<b>x</b>'))).toBe('base <b> </b>, translation </b> <b>: its tags do not nest as the base\'s do');
    // outline's base `…<em>{{ documentTitle }}</em> … history</em>.` has a stray </em>: ja/ko/tr that dropped it are right.
    expect(markupDifference(tagsInText('<em>{{ documentTitle }}</em> ドキュメントを削除すると'), tagsInText('Deleting the <em>{{ documentTitle }}</em> document will delete all of its history</em>.'))).toBeUndefined();
  });
});
