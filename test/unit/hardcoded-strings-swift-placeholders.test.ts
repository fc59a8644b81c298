// Swift placeholders (issue 15 item 9): text of a `.redacted(reason: .placeholder)` loading skeleton is never read by a
// user (SwiftUI draws it as grey bars), so it is not a candidate; `.unredacted()` inside one shows its text again.
// `Text("…", comment: "…")` keys missing from an app whose searched table is a String Catalog are a warning: Xcode
// extracts them into the `.xcstrings` at build time. Fixtures in the shape of IceCubesApp's timeline views.
import { describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import { memoryWorkspace } from '../../core/workspace.js';
import { configSchema, hardcodedStringsGate } from '../../gates/hardcoded-strings/index.js';
import { extractSwift } from '../../gates/hardcoded-strings/swift.js';

async function run(files: Record<string, string>, targets: string[]) {
  const ws = memoryWorkspace({ files, mode: 'staged', targets });
  return runGate({ gate: hardcodedStringsGate, config: configSchema.parse({}), timeoutMs: 30_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache' });
}

const TIMELINE = `import SwiftUI

struct StatusRowPlaceholder: View {
    var body: some View {
        VStack(alignment: .leading) {
            Text(verbatim: "Placeholder display name")
            Text(verbatim: "Lorem ipsum dolor sit amet, consectetur adipiscing elit")
                .font(.body)
        }
        .redacted(reason: .placeholder)
    }
}

struct TimelineView: View {
    @State var isLoading = true
    var body: some View {
        List {
            Text(verbatim: "Loading the timeline")
                .redacted(reason: isLoading ? .placeholder : [])
            VStack {
                Text(verbatim: "Skeleton row")
                Text(verbatim: "Fetching…").unredacted()
            }
            .redacted(reason: .placeholder)
        }
    }
}
`;

describe('hardcoded-strings: Swift placeholders and catalogs built by Xcode (item 9)', () => {
  it('skips the text of .redacted(reason: .placeholder) skeletons, not of a conditional one or an .unredacted() child', async () => {
    const e = await extractSwift(TIMELINE);
    expect(e.candidates.map((c) => `${c.line}:${c.column} ${c.literal}`)).toEqual(['18:28 Loading the timeline', '22:32 Fetching…']);
  });

  const xcstrings = (...keys: string[]) =>
    JSON.stringify({ sourceLanguage: 'en', version: '1.0', strings: Object.fromEntries(keys.map((k) => [k, { localizations: { en: { stringUnit: { state: 'translated', value: k } } } }])) }, null, 2);
  const view = (...lines: string[]) => `import SwiftUI\n\nstruct SettingsView: View {\n    var body: some View {\n        Form {\n${lines.map((l) => `            ${l}\n`).join('')}        }\n    }\n}\n`;

  it('a Text(_:comment:) key missing from the String Catalog it is looked up in is a warning that the catalog needs a build', async () => {
    const swift = 'App/Views/SettingsView.swift';
    const r = await run(
      {
        [swift]: view('Text("Display name", comment: "Settings row title")', 'Text("Sign out")', 'Text("Theme", comment: "Settings row title")'),
        'App/Resources/Localizable.xcstrings': xcstrings('Theme'),
      },
      [swift],
    );
    expect(r.findings.map((f) => `${f.line}:${f.column} ${f.rule} ${f.severity}`)).toEqual(['6:18 missing-catalog-key warning', '7:18 missing-catalog-key error']);
    expect(r.findings[0]!.message).toBe(
      'Text() key "Display name" is not in `Localizable.xcstrings` yet: Xcode adds a String Catalog\'s keys when it builds the app (its comment: becomes the translator note); build once and commit App/Resources/Localizable.xcstrings',
    );
  });

  it('stays an error with a comment when the table is a .strings file (Xcode does not extract into it)', async () => {
    const swift = 'App/Views/SettingsView.swift';
    const r = await run({ [swift]: view('Text("Display name", comment: "Settings row title")'), 'App/Base.lproj/Localizable.strings': '"Theme" = "Theme";\n' }, [swift]);
    expect(r.findings.map((f) => `${f.line}:${f.column} ${f.rule} ${f.severity}`)).toEqual(['6:18 missing-catalog-key error']);
  });
});
