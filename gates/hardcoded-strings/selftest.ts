// The gate's shipped proof (DESIGN.md "self-test"): per language one clean input that must pass and inputs with
// one injected defect each that must fail with a finding at the injected line.
import type { SelfTestCase } from '../../core/types.js';

const LAYOUT = (description: string) => `<?xml version="1.0" encoding="utf-8"?>
<LinearLayout xmlns:android="http://schemas.android.com/apk/res/android"
    xmlns:tools="http://schemas.android.com/tools"
    android:layout_width="match_parent"
    android:layout_height="wrap_content">
    <ImageButton
        android:id="@+id/butPlay"
        android:contentDescription="${description}"
        android:src="@drawable/ic_play" />
    <TextView
        android:id="@+id/txtvTitle"
        android:text="@string/episode_title"
        tools:text="Episode 42: the long one" />
</LinearLayout>
`;

const STRINGS_XML = `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="play_label">Play</string>
    <string name="episode_title">Episode</string>
</resources>
`;

const COMPOSE = (text: string) => `package de.danoeh.antennapod.ui

import androidx.compose.material3.Text
import androidx.compose.runtime.Composable
import androidx.compose.ui.res.stringResource

@Composable
fun EpisodeHeader(title: String) {
    Text(${text})
    Text(text = title, maxLines = 2)
}
`;

const SWIFT = (line: string) => `import SwiftUI

struct StatusRow: View {
    let author: String

    var body: some View {
        VStack {
            ${line}
            Text("status.action.boost")
        }
    }
}
`;

const XCSTRINGS = JSON.stringify(
  {
    sourceLanguage: 'en',
    version: '1.0',
    strings: {
      'status.action.boost': { localizations: { en: { stringUnit: { state: 'translated', value: 'Boost' } } } },
      'status.posted-by %@': { localizations: { en: { stringUnit: { state: 'translated', value: 'Posted by %@' } } } },
    },
  },
  null,
  2,
);

const TSX = (child: string) => `import React from 'react';
import { Text, View } from 'react-native';
import { useTranslation } from 'react-i18next';

export function Greeting({ name }: { name: string }) {
  const { t } = useTranslation();
  return (
    <View testID="greeting" style={{ padding: 8 }}>
      <Text>${child}</Text>
    </View>
  );
}
`;

const WEB_TSX = (child: string) => `import React from 'react';
import { useTranslation } from 'react-i18next';

export function Welcome() {
  const { t } = useTranslation();
  return (
    <main className="welcome">
      <p>${child}</p>
      <code>npm install</code>
    </main>
  );
}
`;

const WEB_CATALOG = '{\n  "welcome": "Welcome to the notes app"\n}\n';

const JAVA = (arg: string) => `package org.example.app;

import android.widget.TextView;

public class EpisodeView {
    private final TextView title;

    public EpisodeView(TextView title) {
        this.title = title;
    }

    public void bind() {
        title.setText(${arg});
    }
}
`;

/** Self-test cases of hardcoded-strings: green per language, red per injected defect (1-based lines). */
export function hardcodedStringsSelfTest(): SelfTestCase[] {
  const layout = 'app/src/main/res/layout/episode_item.xml';
  const kt = 'app/src/main/java/de/danoeh/antennapod/ui/EpisodeHeader.kt';
  const swift = 'App/Views/StatusRow.swift';
  const catalog = 'App/Resources/Localizable.xcstrings';
  const tsx = 'src/components/Greeting.tsx';
  const java = 'app/src/main/java/org/example/app/EpisodeView.java';
  const web = 'src/pages/Welcome.tsx';
  const webCatalog = 'public/locales/en/translation.json';
  return [
    { name: 'android layout: references only', kind: 'green', files: { [layout]: LAYOUT('@string/play_label'), 'app/src/main/res/values/strings.xml': STRINGS_XML }, targets: [layout] },
    {
      name: 'android layout: android:contentDescription="Play"',
      kind: 'red',
      files: { [layout]: LAYOUT('Play'), 'app/src/main/res/values/strings.xml': STRINGS_XML },
      targets: [layout],
      expect: { file: layout, line: 8, rule: 'hardcoded-text' },
    },
    {
      name: 'android layout: suppression without a reason',
      kind: 'red',
      files: { [layout]: LAYOUT('@string/play_label').replace('    <ImageButton', '    <!-- loopgates-ignore hardcoded-strings -->\n    <ImageButton') },
      expect: { file: layout, line: 6, rule: 'suppression-without-reason' },
    },
    {
      name: 'android layout: suppression with a reason',
      kind: 'green',
      files: { [layout]: LAYOUT('Play').replace('    <ImageButton', '    <!-- loopgates-ignore hardcoded-strings: brand glyph, same in every locale -->\n    <ImageButton') },
    },
    { name: 'compose: stringResource', kind: 'green', files: { [kt]: COMPOSE('stringResource(R.string.episode_title)') } },
    { name: 'compose: Text("Hello")', kind: 'red', files: { [kt]: COMPOSE('"Hello"') }, expect: { file: kt, line: 9, rule: 'hardcoded-text' } },
    {
      name: 'swiftui: catalog keys and verbatim variables',
      kind: 'green',
      files: { [swift]: SWIFT('Text(verbatim: author)'), [catalog]: XCSTRINGS },
      targets: [swift],
    },
    {
      name: 'swiftui: Text(verbatim: "Hello")',
      kind: 'red',
      files: { [swift]: SWIFT('Text(verbatim: "Hello")'), [catalog]: XCSTRINGS },
      targets: [swift],
      expect: { file: swift, line: 8, rule: 'hardcoded-text' },
    },
    {
      name: 'swiftui: Text("…") whose key no catalog holds',
      kind: 'red',
      files: { [swift]: SWIFT('Text("Posted by \\(author) today")'), [catalog]: XCSTRINGS },
      targets: [swift],
      expect: { file: swift, line: 8, rule: 'missing-catalog-key' },
    },
    {
      name: 'swiftui: Text("…", tableName:) whose key only another table holds',
      kind: 'red',
      files: { [swift]: SWIFT('Text("status.action.boost", tableName: "Timeline")'), [catalog]: XCSTRINGS },
      targets: [swift],
      expect: { file: swift, line: 8, rule: 'missing-catalog-key' },
    },
    { name: 'react native: t() in <Text>', kind: 'green', files: { [tsx]: TSX("{t('greeting', { name })}") } },
    { name: 'react native: <Text>Hello</Text>', kind: 'red', files: { [tsx]: TSX('Hello') }, expect: { file: tsx, line: 9, rule: 'hardcoded-text' } },
    { name: "react dom: {t('welcome')} in <p>, a key the base catalog holds", kind: 'green', files: { [web]: WEB_TSX("{t('welcome')}"), [webCatalog]: WEB_CATALOG } },
    { name: "react dom: t('welcom'), a key no catalog holds", kind: 'red', files: { [web]: WEB_TSX("{t('welcom')}"), [webCatalog]: WEB_CATALOG }, expect: { file: web, line: 8, rule: 'missing-catalog-key' } },
    { name: 'react dom: <p>Hello</p>', kind: 'red', files: { [web]: WEB_TSX('Hello') }, expect: { file: web, line: 8, rule: 'hardcoded-text' } },
    { name: 'java: setText(R.string…)', kind: 'green', files: { [java]: JAVA('R.string.episode_title') } },
    { name: 'java: setText("Hello")', kind: 'red', files: { [java]: JAVA('"Hello"') }, expect: { file: java, line: 13, rule: 'hardcoded-text' } },
  ];
}
