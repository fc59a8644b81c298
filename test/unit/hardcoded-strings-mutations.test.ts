// Mutation operators of hardcoded-strings: every mutant they make from real inputs (AntennaPod's layouts, menus and
// preference screens) and from realistic source fixtures must be killed by the gate at the mutant's line.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import { treeWorkspace } from '../../core/snapshot.js';
import type { MutationOperator } from '../../core/types.js';
import { memoryWorkspace } from '../../core/workspace.js';
import { seededRandom } from '../../mutations/random.js';
import { l10nProject } from '../helpers/corpus.js';
import { configSchema, hardcodedStringsGate, selectInputs } from '../../gates/hardcoded-strings/index.js';
import {
  hardcodedStringsMutations,
  injectComposeText,
  injectContentDescription,
  injectJavaSetText,
  injectJsxLabel,
  injectSwiftText,
  inlineJsxChildText,
  inlineStringReference,
  lex,
  mistypeCatalogKey,
} from '../../gates/hardcoded-strings/mutations.js';

/** The engine's own seeded generator, so these tests draw what `loopgates mutate --seed` draws. */
const seeded = seededRandom;

const config = configSchema.parse({});

/** Run the gate on `path` holding `content` alone; the findings at `line`. */
async function findingsAt(path: string, content: string, line: number) {
  const ws = memoryWorkspace({ files: { [path]: content } });
  const r = await runGate({ gate: hardcodedStringsGate, config, timeoutMs: 30_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache' });
  return { verdict: r.verdict, at: r.findings.filter((f) => f.line === line).map((f) => f.rule), all: r.findings };
}

async function expectKilled(op: MutationOperator, path: string, content: string, seed = 1) {
  expect(op.appliesTo(path)).toBe(true);
  const m = op.mutate(path, content, seeded(seed));
  expect(m, `${op.id} found no place in ${path}`).not.toBeNull();
  const before = await findingsAt(path, content, m!.line);
  expect(before.at).toEqual([]);
  const after = await findingsAt(path, m!.content, m!.line);
  expect(after.verdict, `${op.id} on ${path}: ${m!.description}`).toBe('fail');
  expect(after.at, `${op.id} on ${path}: ${m!.description}`).toEqual([m!.rule]);
  return m!;
}

const ANTENNAPOD = l10nProject('AntennaPod__AntennaPod');

describe('hardcoded-strings mutation operators on AntennaPod', () => {
  it('kills a contentDescription injected into each of the 117 layouts', async () => {
    const ws = await treeWorkspace(ANTENNAPOD, 'all');
    const layouts = selectInputs(await ws.targets(), config).filter((p) => injectContentDescription.appliesTo(p));
    expect(layouts).toHaveLength(117);
    let made = 0;
    for (const [i, path] of layouts.entries()) {
      const content = await ws.readText(path);
      const m = injectContentDescription.mutate(path, content, seeded(i));
      if (!m) continue;
      made++;
      const after = await findingsAt(path, m.content, m.line);
      expect(after.at, m.description).toEqual(['hardcoded-text']);
    }
    expect(made).toBe(117);
  });

  it('kills an inlined @string reference in every layout, menu and preference screen that has one', async () => {
    const ws = await treeWorkspace(ANTENNAPOD, 'all');
    const files = selectInputs(await ws.targets(), config).filter((p) => inlineStringReference.appliesTo(p));
    expect(files).toHaveLength(167);
    let made = 0;
    for (const [i, path] of files.entries()) {
      const m = inlineStringReference.mutate(path, await ws.readText(path), seeded(i));
      if (!m) continue;
      made++;
      const after = await findingsAt(path, m.content, m.line);
      expect(after.at, m.description).toEqual(['hardcoded-text']);
    }
    expect(made).toBeGreaterThan(100);
  });

  it('is reproducible for a seed and pure', () => {
    const path = 'app/src/main/res/layout/feeditemlist_item.xml';
    const content = readFileSync(join(ANTENNAPOD, path), 'utf8');
    const a = injectContentDescription.mutate(path, content, seeded(7));
    const b = injectContentDescription.mutate(path, content, seeded(7));
    expect(a).toEqual(b);
    expect(a!.content.split('\n')[a!.line - 1]).toContain('android:contentDescription="Hello from loopgates"');
  });

  it('leaves alone elements Lint already excuses', () => {
    const xml = `<FrameLayout xmlns:android="http://schemas.android.com/apk/res/android" xmlns:tools="http://schemas.android.com/tools" tools:ignore="HardcodedText">\n  <TextView android:text="x" />\n</FrameLayout>\n`;
    expect(injectContentDescription.mutate('res/layout/a.xml', xml, seeded(1))).toBeNull();
  });
});

const KOTLIN = `package de.danoeh.antennapod.ui.episodes

import androidx.compose.runtime.Composable

/* fun commented() { } */
private const val TEMPLATE = "fun \${ if (true) "{" else "}" } {"

fun interface Listener { fun onEvent() }

val square: (Int) -> Int = { it * it }

fun expressionBody(x: Int) = x + 1

@Composable
fun EpisodeRow(
    title: String,
    onClick: () -> Unit = {},
): Unit {
    Row(Modifier.clickable(onClick = onClick)) {
        Text(title)
    }
}
`;

const KOTLIN_VIEWS = `package de.danoeh.antennapod.view

class PlayerHolder(private val view: View) {
    fun <T : Any> bind(item: T, labels: Map<String, List<String>>): Boolean where T : Comparable<T> {
        val raw = """ { fun } """
        return true
    }
}
`;

const JAVA = `package de.danoeh.antennapod.core;

public class Downloader implements Runnable {
    private final Handler handler = new Handler() {
        @Override
        public void handleMessage(Message msg) {
            String s = "){";
        }
    };

    public Downloader(Context context) throws IOException, IllegalStateException {
        super();
    }

    @Override
    public void run() {
        if (ready) {
            switch (state) {
                case 1:
                    break;
            }
        }
    }
}
`;

const SWIFT = `import SwiftUI

protocol Loader { func load() }

struct TimelineView: View {
    let title: String
    var body: some View {
        List {
            Text("timeline.title")
        }
    }

    private func refresh() async throws -> Int {
        let s = "func x() {"
        return 1
    }
}
`;

const UIKIT = `import UIKit

final class SettingsViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        let r = #"raw "func" {"#
    }
}
`;

const TSX = `import React, { useState } from 'react';
import { Text, View } from 'react-native';

// <View> in a comment is not an element
export function Counter<T,>(props: { items: T[] }) {
  const [n, setN] = useState<number>(0);
  const ok = n < 3 && n > 1;
  return (
    <View style={{ flex: 1 }}>
      {ok ? <Text>{n}</Text> : null}
    </View>
  );
}
`;

describe('hardcoded-strings mutation operators on source fixtures', () => {
  it('Kotlin: Text("…") in a @Composable body, never in an interface, lambda or expression body', async () => {
    const m = await expectKilled(injectComposeText, 'app/src/main/java/EpisodeRow.kt', KOTLIN);
    expect(m.content.split('\n')[m.line - 1]).toBe('    Text("Hello from loopgates")');
    expect(m.content.split('\n')[m.line - 2]).toBe('): Unit {');
  });

  it('Kotlin: never in preview code (the gate skips it: a mutant there would survive), whatever the seed', async () => {
    const src = `@Preview
@Composable
fun RowPreview() {
    Row(title = stringResource(R.string.t))
}

@Composable
fun Row(title: String) {
    Text(title)
}

class Names : PreviewParameterProvider<String> {
    fun more(): List<String> {
        return emptyList()
    }
}

@PreviewLightDark
@Composable
fun RowDarkPreview() {
    Row(title = stringResource(R.string.t))
}
`;
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const m = await expectKilled(injectComposeText, 'app/src/main/java/Row.kt', src, seed);
      expect(m.content.split('\n')[m.line - 2]).toBe('fun Row(title: String) {');
    }
  });

  it('Kotlin: Toast.makeText(…) in a plain function body when nothing is @Composable', async () => {
    for (const seed of [1, 2, 3]) {
      const m = await expectKilled(injectComposeText, 'app/src/main/java/PlayerHolder.kt', KOTLIN_VIEWS, seed);
      expect(m.content.split('\n')[m.line - 1]).toContain('Toast.makeText(context, "Hello from loopgates"');
    }
  });

  it('Java: setText in a method or constructor body, not in if/switch blocks or anonymous classes', async () => {
    const lines = new Set<number>();
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const m = await expectKilled(injectJavaSetText, 'app/src/main/java/Downloader.java', JAVA, seed);
      lines.add(m.line - 1);
      const prev = m.content.split('\n')[m.line - 2]!;
      expect(prev).toMatch(/(handleMessage\(Message msg\)|Downloader\(Context context\) throws IOException, IllegalStateException|run\(\)) \{$/);
    }
    expect(lines.size).toBe(3);
  });

  it('Swift: Text(verbatim:) in a SwiftUI body; label.text in a UIKit method', async () => {
    const ui = await expectKilled(injectSwiftText, 'App/TimelineView.swift', SWIFT);
    expect(ui.content.split('\n')[ui.line - 1]).toBe('        Text(verbatim: "Hello from loopgates")');
    const kit = await expectKilled(injectSwiftText, 'App/SettingsViewController.swift', UIKIT);
    expect(kit.content.split('\n')[kit.line - 1]).toBe('        label.text = "Hello from loopgates"');
  });

  it('TSX: an accessibilityLabel on a real element, not on generics or in comments', async () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 16; seed++) {
      const m = await expectKilled(injectJsxLabel, 'src/Counter.tsx', TSX, seed);
      seen.add(m.content.split('\n')[m.line - 1]!.trim());
    }
    expect([...seen].sort()).toEqual([
      '<View accessibilityLabel="Hello from loopgates" style={{ flex: 1 }}>',
      '{ok ? <Text accessibilityLabel="Hello from loopgates">{n}</Text> : null}',
    ]);
  });

  it('lexes comments, strings, templates and raw strings away', () => {
    expect(lex('fun a() { val s = "x${ "}" }y" /* { */ }', 'kotlin').map((t) => t.text).join(' ')).toBe('fun a ( ) { val s = }');
    expect(lex('let r = #"a"b"# ; let s = "\\(f("}"))"', 'swift').map((t) => t.text).join(' ')).toBe('let r = ; let s =');
  });

  it('registers every operator with a distinct id', () => {
    expect(new Set(hardcodedStringsMutations.map((o) => o.id)).size).toBe(hardcodedStringsMutations.length);
    expect(hardcodedStringsMutations).toHaveLength(8);
  });
});

// fresh-user-3 F14: operators for the web rules (a literal t() key no catalog holds; a t() call's text moved into a
// literal JSX child). Fixture in outline's shape: a component and its i18next base catalog.
describe('hardcoded-strings web operators: mistype-catalog-key, jsx-child-text', () => {
  const catalog = 'shared/i18n/locales/en_US/translation.json';
  const CATALOG = '{\n  "Share": "Share",\n  "Skip navigation": "Skip navigation",\n  "Documents": "Documents"\n}\n';
  const page = 'app/scenes/Document/Header.tsx';
  const PAGE = [
    'import { useTranslation } from "react-i18next";',
    '',
    'export default function Header({ onShare }: Props) {',
    '  const { t } = useTranslation();',
    '  // t("Not a call") in a comment',
    '  return (',
    '    <Flex>',
    '      <SkipNavLink>{t("Skip navigation")}</SkipNavLink>',
    '      <Heading>{ t("Documents") }</Heading>',
    '      <code>{t("Share")}</code>',
    '      <Button onClick={onShare} aria-label={t("Share")}>',
    '        {t("Share")}',
    '      </Button>',
    '    </Flex>',
    '  );',
    '}',
    '',
  ].join('\n');
  const files = { [catalog]: CATALOG, [page]: PAGE };
  const run = async (content: string) => {
    const ws = memoryWorkspace({ files: { ...files, [page]: content }, targets: [page] });
    return runGate({ gate: hardcodedStringsGate, config, timeoutMs: 30_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache' });
  };
  const factsOf = async (op: typeof mistypeCatalogKey) => {
    const ws = memoryWorkspace({ files, mode: 'all' });
    return op.facts!({ ws, config, signal: new AbortController().signal, runTool: (() => { throw new Error('no tools'); }) as never, cacheDir: '/tmp/loopgates-test-cache/hs', log: () => {} }, page);
  };

  it('the unmutated page passes (every key is in the base catalog)', async () => {
    const r = await run(PAGE);
    expect(r.findings.map((f) => `${f.line} ${f.rule}`)).toEqual([]);
    expect(r.verdict).toBe('pass');
  });

  it('mistype-catalog-key: every one-argument t("…") call (not the comment) is mistyped, and each is killed as missing-catalog-key at its line', async () => {
    const facts = await factsOf(mistypeCatalogKey);
    const seen = new Set<number>();
    for (let seed = 1; seed <= 24; seed++) {
      const m = mistypeCatalogKey.mutate(page, PAGE, seeded(seed), facts)!;
      expect(m.rule).toBe('missing-catalog-key');
      seen.add(m.line);
      const r = await run(m.content);
      expect(r.findings.filter((f) => f.severity === 'error').map((f) => `${f.line} ${f.rule}`), m.description).toEqual([`${m.line} missing-catalog-key`]);
    }
    expect([...seen].sort((a, b) => a - b)).toEqual([8, 9, 10, 11, 12]);
    expect(mistypeCatalogKey.mutate(page, PAGE, seeded(3), await factsOf(mistypeCatalogKey))!.description).toMatch(/^mistyped t\('[^']+'\) as t\('[^']+_typo'\) in app\/scenes\/Document\/Header\.tsx$/);
  });

  it('mistype-catalog-key in a plain .ts store (the gate reads its t() keys), not in a .d.ts', async () => {
    const store = 'app/stores/DocumentsStore.ts';
    const STORE = 'import { t } from "i18next";\n\nexport function shareLabel(): string {\n  return t("Share");\n}\n';
    expect(mistypeCatalogKey.appliesTo(store)).toBe(true);
    expect(mistypeCatalogKey.appliesTo('app/typings/i18n.d.ts')).toBe(false);
    const m = mistypeCatalogKey.mutate(store, STORE, seeded(1), await factsOf(mistypeCatalogKey))!;
    expect(m.line).toBe(4);
    const ws = memoryWorkspace({ files: { ...files, [store]: m.content }, targets: [store] });
    const r = await runGate({ gate: hardcodedStringsGate, config, timeoutMs: 30_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache' });
    expect(r.findings.filter((f) => f.severity === 'error').map((f) => `${f.file}:${f.line} ${f.rule}`)).toEqual([`${store}:4 missing-catalog-key`]);
  });

  it('mistype-catalog-key finds no place where the repository has no web catalog (keys are counted, not judged)', () => {
    expect(mistypeCatalogKey.mutate(page, PAGE, seeded(1), { webCatalogs: 0 })).toBeNull();
  });

  it('jsx-child-text: a {t()} child of an element or component becomes literal text, killed as hardcoded-text; never inside <code>', async () => {
    const seen = new Set<number>();
    for (let seed = 1; seed <= 24; seed++) {
      const m = inlineJsxChildText.mutate(page, PAGE, seeded(seed))!;
      expect(m.rule).toBe('hardcoded-text');
      seen.add(m.line);
      const r = await run(m.content);
      expect(r.findings.filter((f) => f.severity === 'error').map((f) => `${f.line} ${f.rule}`), m.description).toEqual([`${m.line} hardcoded-text`]);
    }
    // Line 10 is <code>; line 12's child sits on its own line between the tags.
    expect([...seen].sort((a, b) => a - b)).toEqual([8, 9, 12]);
  });
});
