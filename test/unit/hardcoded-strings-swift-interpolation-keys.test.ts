// SwiftUI interpolation keys (fresh-user-6 G11): LocalizedStringKey.StringInterpolation writes each `\(…)` as one
// format specifier of the value's type (Int -> %lld, UInt -> %llu, Double/CGFloat -> %lf, Float -> %f, String/Text/
// Image/AttributedString -> %@, `format:` / `formatter:` -> %@, `specifier: "…"` -> that specifier), and the catalog key
// must be that exact string. Types not knowable from the file are an unknown slot (written %?) that any specifier fills.
// Fixtures in the shape of IceCubesApp (Packages/Account/Sources/Account/AccountsList/AccountsListRow.swift:70 and
// IceCubesApp/Resources/Localization/Localizable.xcstrings).
import { describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import { memoryWorkspace } from '../../core/workspace.js';
import { configSchema, hardcodedStringsGate } from '../../gates/hardcoded-strings/index.js';
import { extractSwift } from '../../gates/hardcoded-strings/swift.js';

async function run(files: Record<string, string>, targets: string[]) {
  const ws = memoryWorkspace({ files, mode: 'staged', targets });
  return runGate({ gate: hardcodedStringsGate, config: configSchema.parse({}), timeoutMs: 30_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache' });
}

const view = (...lines: string[]) =>
  `import SwiftUI\n\nstruct ProbeView: View {\n  let count: Int\n  let total: UInt\n  let ratio: Double\n  let scale: Float\n  let name: String\n  @State private var draft = ""\n  var body: some View {\n    VStack {\n${lines.map((l) => `      ${l}\n`).join('')}    }\n  }\n}\n`;

describe('hardcoded-strings: SwiftUI interpolation keys carry the specifier of each value (G11)', () => {
  it('builds the key SwiftUI looks up: one specifier per \\(…), by the type the file declares', async () => {
    const src = view(
      'Text("account.label.followers \\(count) \\(count, format: .number.notation(.compactName))")',
      'Text("Uploaded \\(count) photos")',
      'Text("account.detail.n-fields \\(String(count))")',
      'Text("\\(fields.count) fields")',
      'Text("Total \\(total), \\(42) max")',
      'Text("Ratio \\(ratio) or \\(ratio, specifier: "%.1f") at \\(scale)")',
      'Text("Hello \\(name), \\(draft) \\(Image(systemName: "star")) \\(date.formatted())")',
      'Text("By \\(account.displayName) \\(viewModel.n, format: .number)")',
    );
    const e = await extractSwift(src);
    expect(e.candidates.map((c) => `${c.line} ${c.lookupKey}`)).toEqual([
      '12 account.label.followers %lld %@',
      '13 Uploaded %lld photos',
      '14 account.detail.n-fields %@',
      '15 %lld fields',
      '16 Total %llu, %lld max',
      '17 Ratio %lf or %.1f at %f',
      '18 Hello %@, %@ %@ %@',
      '19 By %? %@',
    ]);
  });

  const xcstrings = (...keys: string[]) =>
    JSON.stringify(
      { sourceLanguage: 'en', version: '1.0', strings: Object.fromEntries(keys.map((k) => [k, { extractionState: 'manual', localizations: { en: { stringUnit: { state: 'translated', value: k } } } }])) },
      null,
      2,
    );

  it('finds the catalog key of a known Int, refuses a String(...) in its place, and names the key to add', async () => {
    const swift = 'Packages/Account/Sources/Account/Probe/ProbeView.swift';
    const r = await run(
      {
        [swift]: view(
          'Text("account.label.followers \\(count) \\(count, format: .number.notation(.compactName))")',
          'Text("account.label.followers \\(viewModel.account.followersCount ?? 0) \\(viewModel.account.followersCount ?? 0, format: .number.notation(.compactName))")',
          'Text("account.detail.n-fields \\(fields.count)")',
          'Text("account.detail.n-fields \\(String(count))")',
          'Text("Uploaded \\(count) photos")',
          'Text("Sent \\(viewModel.n) posts")',
        ),
        'IceCubesApp/Resources/Localization/Localizable.xcstrings': xcstrings('account.label.followers %lld %@', 'account.detail.n-fields %lld', 'Sent %lld replies'),
      },
      [swift],
    );
    expect(r.findings.map((f) => `${f.line}:${f.column} ${f.rule} ${f.severity}`)).toEqual([
      '15:12 missing-catalog-key error',
      '16:12 missing-catalog-key error',
      '17:12 missing-catalog-key error',
    ]);
    expect(r.findings[0]!.message).toMatch(/^Text\(\) key "account\.detail\.n-fields %@" is not in table `Localizable`/u);
    expect(r.findings[0]!.message).toContain('; table `Localizable` has "account.detail.n-fields %lld": the same text with other specifiers, so the value passed has another type than the key was made for');
    expect(r.findings[1]!.message).toMatch(/^Text\(\) key "Uploaded %lld photos" is not in table `Localizable`/u);
    expect(r.findings[2]!.message).toMatch(/^Text\(\) key "Sent %\? posts" is not in table `Localizable`/u);
    expect(r.findings[2]!.message).toContain('(%? marks a \\(…) whose type this file does not show: SwiftUI writes %lld for an Int');
  });
});
