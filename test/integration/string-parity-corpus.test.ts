// string-parity over every l10n corpus project (../shared/corpus/l10n, see its MANIFEST.md) with exact counts, so any
// change in behaviour shows. Each finding class here was read on the corpus and judged a true defect (see
// gates/string-parity/README.md "Corpus results").
import { describe, expect, it } from 'vitest';
import { treeWorkspace } from '../../core/snapshot.js';
import { runGate } from '../../core/runner.js';
import { stringParityGate } from '../../gates/string-parity/index.js';
import { discoverCatalogs } from '../../gates/string-parity/catalogs.js';
import type { GateResult } from '../../core/types.js';
import { l10nCorpus } from '../helpers/corpus.js';

const CORPUS = l10nCorpus;

async function run(project: string): Promise<GateResult> {
  const ws = await treeWorkspace(`${CORPUS}/${project}`, 'all');
  return runGate({ gate: stringParityGate, config: stringParityGate.configSchema.parse({}), timeoutMs: 60_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache' });
}

function byRule(r: GateResult): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of r.findings) out[`${f.rule}/${f.severity}`] = (out[`${f.rule}/${f.severity}`] ?? 0) + 1;
  return out;
}

describe('string-parity on the l10n corpus', () => {
  it('AntennaPod: 52 locales, no placeholder conflicts; three translations add tags the base has not (shown as text)', async () => {
    const ws = await treeWorkspace(`${CORPUS}/AntennaPod__AntennaPod`, 'all');
    const set = await discoverCatalogs(ws);
    const strings = set.groups.find((g) => g.id === 'ui/i18n/src/main/res/values*/strings.xml')!;
    expect(strings.files.length).toBe(53);
    expect(strings.files.filter((f) => !f.isBase).length).toBe(52);
    expect(strings.files.map((f) => f.locale)).toEqual(expect.arrayContaining(['pt-BR', 'zh-CN', 'kn-IN', 'he', 'id']));
    const r = await run('AntennaPod__AntennaPod');
    // Issue 15 item 5: br and ko wrap synchronization_login_status in CDATA `<i>…</i><br/><br/>`, cs writes
    // `Právě přehrávaný&lt;br&gt;`; the base has no markup, so getString shows the tags literally (was pass).
    expect(r.verdict).toBe('fail');
    expect(r.counts).toMatchObject({ files: 61, items: 32718, filtered: 0, findings: 99 });
    expect(byRule(r)).toEqual({ 'missing-default/error': 39, 'missing-key/warning': 52, 'unknown-locale/warning': 1, 'kind-mismatch/warning': 4, 'markup-mismatch/error': 3 });
    // fresh6 F3: three keys that no values/*.xml of the corpus defines (were 115 extra-key warnings, one per key and
    // file): Lint's ExtraTranslation, and Resources.NotFoundException on a device in another locale if looked up.
    const noDefault = r.findings.filter((f) => f.rule === 'missing-default');
    expect(new Set(noDefault.flatMap((f) => f.members ?? []))).toEqual(new Set(['no_inbox_label', 'pref_feed_skip_ending_toast', 'pref_feed_skip_intro_toast']));
    expect(noDefault.reduce((n, f) => n + f.members!.length, 0)).toBe(115);
    expect(r.findings.filter((f) => f.rule === 'markup-mismatch').map((f) => `${f.file.split('/res/')[1]}:${f.line}`)).toEqual(['values-br/strings.xml:520', 'values-cs/strings.xml:21', 'values-ko/strings.xml:519']);
    // zh-CN writes four <plurals> of the base as <string>: never read by getQuantityString, so zh-CN shows English.
    expect(r.findings.filter((f) => f.rule === 'kind-mismatch').map((f) => `${f.file.split('/res/')[1]}:${f.line}`)).toEqual([
      'values-zh-rCN/strings.xml:732',
      'values-zh-rCN/strings.xml:733',
      'values-zh-rCN/strings.xml:734',
      'values-zh-rCN/strings.xml:742',
    ]);
    expect(r.findings.filter((f) => f.rule === 'placeholder-mismatch')).toEqual([]);
    expect(r.findings.find((f) => f.rule === 'unknown-locale')!.message).toMatch(/`tt`/);
  });

  it("IceCubesApp: Catalan `% publicacions` is an invalid specifier", async () => {
    const r = await run('Dimillian__IceCubesApp');
    expect(r.verdict).toBe('fail');
    // 4 plural errors were untranslated English copies (be, uk): one untranslated-copy warning per locale (issue 15).
    expect(r.counts).toMatchObject({ files: 13, items: 12854, findings: 310 });
    expect(byRule(r)).toEqual({
      'extra-key/warning': 5,
      'needs-review/warning': 242,
      'plural-missing-category/error': 37,
      'untranslated-copy/warning': 2,
      'missing-key/warning': 18,
      'placeholder-mismatch/error': 4,
      'invalid-specifier/error': 1,
      'empty-value/warning': 1,
    });
    const inv = r.findings.filter((f) => f.rule === 'invalid-specifier');
    expect(inv.map((f) => `${f.file}:${f.line}`)).toEqual(['IceCubesApp/Resources/Localization/Localizable.xcstrings:33857']);
    expect(inv[0]!.message).toMatch(/^ca .*% p/);
    // Basque writes a bare `%lld` (argument #1, the posts/votes count) in the other variant of the substitution for
    // argument #2 (participants/voters): that form never shows argument #2, so it shows the wrong number.
    const count = r.findings.filter((f) => f.rule === 'placeholder-mismatch' && f.message.includes('which the base\'s other form shows'));
    expect(count.map((f) => `${f.file.split('/').pop()}:${f.line}:${f.column} ${f.message.split(':')[0]}`)).toEqual([
      'Localizable.xcstrings:23536:33 eu `design.tag.n-posts-from-n-participants %lld %lld` %#@count_participants@ [other]',
      'Localizable.xcstrings:74934:33 eu `status.poll.n-votes-voters %lld %lld` %#@count_voters@ [other]',
    ]);
    expect(count[0]!.message).toMatch(/drops %2\$lld \(argument #2\), which the base's other form shows: this form is used for counts such as 0, 2, 3/);
  });

  it('mastodon-ios: zh-Hans has two %@ where the base has one', async () => {
    const r = await run('mastodon__mastodon-ios');
    expect(r.verdict).toBe('fail');
    expect(r.counts).toMatchObject({ files: 185, items: 21383, findings: 122 });
    expect(byRule(r)).toEqual({ 'missing-key/warning': 34, 'invalid-specifier/error': 1, 'placeholder-mismatch/error': 5, 'extra-key/warning': 80, 'placeholder-added/warning': 2 });
    // A `%@` the base does not have: users see it literally (ku-TR "Create Account", nl "Block Account").
    expect(
      r.findings.filter((f) => f.rule === 'placeholder-added').map((f) => `${f.file.replace(/^.*\/Resources\//, '')}:${f.line}`),
    ).toEqual(['ku-TR.lproj/Localizable.strings:271', 'nl.lproj/Localizable.strings:366']);
    const zh = r.findings.filter((f) => f.rule === 'placeholder-mismatch' && f.file.includes('zh-Hans.lproj'));
    expect(zh.map((f) => `${f.file}:${f.line}`)).toEqual(['MastodonSDK/Sources/MastodonLocalization/Resources/zh-Hans.lproj/Localizable.strings:2']);
    expect(zh[0]!.message).toMatch(/base has %@, translation has %@ %@/);
    expect(r.notes.some((n) => n.includes('Mastodon/Resources/*.lproj/localizable.strings: no base'))).toBe(true);
  });

  it('lichess: ARB with Flutter plural semantics and literal apostrophes', async () => {
    const r = await run('lichess-org__mobile');
    expect(r.verdict).toBe('fail');
    expect(r.counts).toMatchObject({ files: 54, items: 95561, findings: 42 });
    expect(byRule(r)).toEqual({ 'missing-key/warning': 41, 'placeholder-mismatch/error': 1 });
    expect(r.findings.filter((f) => f.severity === 'error').map((f) => `${f.file}:${f.line}`)).toEqual(['lib/l10n/app_ar.arb:28']);
  });

  it('Chia: Lingui PO with sourceLocale en-US and pseudo-locales', async () => {
    const r = await run('Chia-Network__chia-blockchain-gui');
    expect(r.verdict).toBe('fail');
    // 5 plural errors were English copies (`{0, plural, one {mojo} other {mojos}}` in ru-RU, uk-UA): 3 untranslated-copy.
    expect(r.counts).toMatchObject({ files: 144, items: 16450, findings: 240 });
    expect(byRule(r)).toEqual({ 'extra-key/warning': 76, 'missing-key/warning': 128, 'plural-missing-category/error': 3, 'untranslated-copy/warning': 3, 'placeholder-mismatch/error': 10, 'duplicate-key/error': 20 });
    // every trimmed gui catalog repeats msgids (e.g. ar-SA `Cancel` translated at 1622, empty again at 3800)
    expect(r.findings.filter((f) => f.rule === 'duplicate-key').every((f) => f.file.startsWith('packages/gui/'))).toBe(true);
    expect(r.findings.some((f) => f.rule === 'unknown-locale')).toBe(false); // lol-US, tlh-AA are pseudo-locales
  });
});
