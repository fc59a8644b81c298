// Android text resources the code names that no module defines (issue 15 item 7, Android half): `R.string.x` in
// Kotlin/Java (`stringResource`, `getString`, any use), `R.plurals.x`, `R.array.x`, `@string/x` / `@array/x` in layouts,
// menus, preference XML and the manifest. Reported as `missing-catalog-key` at the reference. Fixtures in the shapes of
// element-x-android (non-transitive R, feature modules with a literal namespace, values/localazy.xml), FossifyOrg/Notes
// (namespace from gradle.properties, org.fossify.commons.R from a library) and AntennaPod (transitive R, Java).
import { describe, expect, it } from 'vitest';
import { runHardcoded } from '../helpers/hardcoded-jsx.js';
import { codeReference, xmlReferences } from '../../gates/hardcoded-strings/android-references.js';
import { editDistance, resValueNames, valuesNames } from '../../gates/hardcoded-strings/android-resources.js';

const at = (r: Awaited<ReturnType<typeof runHardcoded>>) => r.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.rule} ${f.severity}`);

// element-x-android: gradle.properties sets non-transitive R; each feature module has its own namespace and catalog.
const ELEMENT = {
  'gradle.properties': 'org.gradle.jvmargs=-Xmx4g\nandroid.nonTransitiveRClass=true\n',
  'features/logout/impl/build.gradle.kts': `plugins {
    id("io.element.android-compose-library")
}

android {
    namespace = "io.element.android.features.logout.impl"
}
`,
  'features/logout/impl/src/main/res/values/localazy.xml': `<?xml version="1.0" encoding="utf-8"?>
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
  <string name="screen_signout_confirmation_dialog_content">"Are you sure you want to remove this device?"</string>
  <string name="screen_signout_in_progress_dialog_content">"Removing device…"</string>
  <plurals name="screen_signout_sessions">
    <item quantity="one">"%1$d session"</item>
    <item quantity="other">"%1$d sessions"</item>
  </plurals>
</resources>
`,
  'features/logout/impl/src/main/res/values-de/translations.xml': `<?xml version="1.0" encoding="utf-8"?>
<resources>
  <string name="screen_signout_only_german">"Nur Deutsch"</string>
</resources>
`,
  'libraries/ui-strings/build.gradle.kts': 'android {\n    namespace = "io.element.android.libraries.ui.strings"\n}\n',
  'libraries/ui-strings/src/main/res/values/localazy.xml': `<?xml version="1.0" encoding="utf-8"?>
<resources>
  <string name="action_signout">"Sign out"</string>
  <string-array name="screen_signout_reasons">
    <item>"Lost device"</item>
  </string-array>
</resources>
`,
  'app/build.gradle.kts': `android {
    namespace = "io.element.android.x"
    buildTypes {
        getByName("debug") {
            resValue("string", "app_name", "Element X dbg")
        }
    }
}
`,
  'app/src/debug/res/values/strings.xml': '<resources>\n  <string name="debug_menu_title">Debug</string>\n</resources>\n',
};

const LOGOUT_VIEW = `package io.element.android.features.logout.impl.ui

import androidx.compose.runtime.Composable
import androidx.compose.ui.res.pluralStringResource
import androidx.compose.ui.res.stringResource
import io.element.android.features.logout.impl.R
import io.element.android.libraries.ui.strings.R as StringsR

@Composable
fun LogoutActionDialog(count: Int) {
    ProgressDialog(text = stringResource(id = R.string.screen_signout_in_progress_dialog_content))
    ConfirmationDialog(
        title = stringResource(id = R.string.screen_signout_confirmaton_dialog_content),
        content = stringResource(R.string.screen_signout_submit_anyway),
        sessions = pluralStringResource(R.plurals.screen_signout_sessions, count, count),
        reasons = stringArrayResource(StringsR.array.screen_signout_reasons),
        submitText = stringResource(id = StringsR.string.action_signout),
        cancelText = stringResource(id = android.R.string.cancel),
        appName = stringResource(R.string.app_name),
        debug = stringResource(R.string.debug_menu_title),
        german = stringResource(R.string.screen_signout_only_german),
        other = stringResource(io.element.android.libraries.ui.strings.R.string.action_sign_out),
        lib = stringResource(com.google.android.material.R.string.mtrl_picker_save),
    )
}
`;

describe('hardcoded-strings: Android resources the code names that no module defines', () => {
  it('reports R.string / R.plurals names no module defines, at the reference (was a pass)', async () => {
    const file = 'features/logout/impl/src/main/kotlin/io/element/android/features/logout/impl/ui/LogoutActionDialog.kt';
    const r = await runHardcoded({ ...ELEMENT, [file]: LOGOUT_VIEW }, {}, [file]);
    expect(r.verdict).toBe('fail');
    expect(at(r)).toEqual([`${file}:13:37 missing-catalog-key error`, `${file}:14:34 missing-catalog-key error`, `${file}:22:32 missing-catalog-key error`]);
    expect(r.findings[0]!.message).toBe(
      'R.string.screen_signout_confirmaton_dialog_content is a string resource no module of the repository defines (no res/values*/ <string> of that name, no resValue), so the build fails; did you mean "screen_signout_confirmation_dialog_content", which a module defines?',
    );
    expect(r.findings[1]!.message).toContain('add a <string> named "screen_signout_submit_anyway" to the module\'s res/values/ catalog');
    expect(r.findings[2]!.message).toContain('io.element.android.libraries.ui.strings.R.string.action_sign_out is a string resource');
    expect(r.notes).toContain("10 Android resource references (R.string.x, @string/x) were looked up in the repository's res/values*/ files");
    expect(r.notes).toContain('1 reference names the R class of a library or of a package no module declares (namespace, manifest package): not looked up');
  });

  it('finds names in any module, source set, qualifier folder or resValue; android.R is the platform', async () => {
    const file = 'app/src/main/java/io/element/android/x/Main.kt';
    const src = `package io.element.android.x

fun labels() = listOf(
    getString(R.string.app_name),
    getString(R.string.debug_menu_title),
    getString(android.R.string.ok),
    getString(R.string.screen_signout_only_german),
)
`;
    const r = await runHardcoded({ ...ELEMENT, [file]: src }, {}, [file]);
    expect(r.findings).toEqual([]);
    expect(r.verdict).toBe('pass');
  });

  it('Fossify: the namespace read from gradle.properties; org.fossify.commons.R and layouts\' library names are not judged', async () => {
    const files = {
      'gradle.properties': 'android.nonTransitiveRClass=true\nAPP_ID=org.fossify.notes\n',
      'app/build.gradle.kts': 'android {\n    namespace = project.property("APP_ID").toString()\n}\n',
      'app/src/main/res/values/strings.xml': '<resources>\n    <string name="app_name">Notes</string>\n    <string name="new_note">Add a new note</string>\n</resources>\n',
      'app/src/main/kotlin/org/fossify/notes/activities/MainActivity.kt': `package org.fossify.notes.activities

import org.fossify.commons.extensions.toast
import org.fossify.notes.R

class MainActivity : SimpleActivity() {
    private fun displayNewNoteDialog() {
        toast(org.fossify.commons.R.string.no_entries_for_exporting)
        title = getString(R.string.new_note)
        subtitle = getString(R.string.new_nte)
    }
}
`,
      'app/src/main/res/layout/activity_main.xml': `<?xml version="1.0" encoding="utf-8"?>
<androidx.coordinatorlayout.widget.CoordinatorLayout xmlns:android="http://schemas.android.com/apk/res/android"
    xmlns:app="http://schemas.android.com/apk/res-auto"
    xmlns:tools="http://schemas.android.com/tools">
    <TextView
        android:id="@+id/main_title"
        android:text="@string/new_note"
        android:hint="@string/insert_text_here"
        android:contentDescription="@string/new_notte"
        tools:text="@string/tools_only_name"
        app:layout_behavior="@string/appbar_scrolling_view_behavior" />
</androidx.coordinatorlayout.widget.CoordinatorLayout>
`,
    };
    const r = await runHardcoded(files);
    expect(at(r)).toEqual([
      'app/src/main/kotlin/org/fossify/notes/activities/MainActivity.kt:10:30 missing-catalog-key error',
      'app/src/main/res/layout/activity_main.xml:9:36 missing-catalog-key error',
    ]);
    expect(r.findings[1]!.message).toBe(
      '@string/new_notte in android:contentDescription is a string resource no module of the repository defines (no res/values*/ <string> of that name, no resValue), so the build fails; did you mean "new_note", which a module defines?',
    );
    expect(r.notes).toContain("2 references name resources no module defines, resolved against merged resources (XML, or a transitive R class) where a library may define them: not reported");
  });

  it('AntennaPod: a transitive R class reports only a near miss of a defined name (Java)', async () => {
    const files = {
      'gradle.properties': 'android.useAndroidX=true\nandroid.nonTransitiveRClass=false\n',
      'app/build.gradle': "android {\n    namespace 'de.danoeh.antennapod'\n}\n",
      'ui/i18n/src/main/res/values/strings.xml': '<resources>\n    <string name="feed_refresh_label">Refresh podcast</string>\n    <plurals name="num_episodes">\n        <item quantity="one">%d episode</item>\n        <item quantity="other">%d episodes</item>\n    </plurals>\n    <string-array name="feed_order_options">\n        <item>Newest</item>\n    </string-array>\n</resources>\n',
      'app/src/main/java/de/danoeh/antennapod/activity/MainActivity.java': `package de.danoeh.antennapod.activity;

import android.os.Bundle;
import de.danoeh.antennapod.R;

public class MainActivity extends CastEnabledActivity {
    void refresh(int n) {
        setTitle(getString(R.string.feed_refresh_lable));
        toolbar.setSubtitle(getResources().getQuantityString(R.plurals.num_episode, n, n));
        String[] options = getResources().getStringArray(R.array.feed_order_option);
        Snackbar.make(view, getString(R.string.abc_action_bar_home_description), 1);
        getString(R.string.feed_refresh_label);
    }
}
`,
    };
    const r = await runHardcoded(files);
    expect(at(r)).toEqual([
      'app/src/main/java/de/danoeh/antennapod/activity/MainActivity.java:8:28 missing-catalog-key error',
      'app/src/main/java/de/danoeh/antennapod/activity/MainActivity.java:9:62 missing-catalog-key error',
      'app/src/main/java/de/danoeh/antennapod/activity/MainActivity.java:10:58 missing-catalog-key error',
    ]);
    expect(r.findings[1]!.message).toContain('R.plurals.num_episode is a plurals resource');
    expect(r.findings[1]!.message).toContain('did you mean "num_episodes"');
    expect(r.notes).toContain("1 reference names a resource no module defines, resolved against merged resources (XML, or a transitive R class) where a library may define it: not reported");
  });

  it('AGP 8 without the property is non-transitive; a wildcard import leaves R unknown', async () => {
    const files = {
      'gradle/libs.versions.toml': '[versions]\nagp = "8.5.2"\n',
      'app/build.gradle.kts': 'android {\n    namespace = "com.example.app"\n}\n',
      'app/src/main/res/values/strings.xml': '<resources>\n    <string name="ok">OK</string>\n</resources>\n',
      'app/src/main/java/com/example/app/A.kt': 'package com.example.app\n\nval a = R.string.checkout_cta\n',
      'app/src/main/java/com/example/app/ui/B.kt': 'package com.example.app.ui\n\nimport com.example.app.*\n\nval b = R.string.checkout_cta\n',
    };
    const r = await runHardcoded(files);
    expect(at(r)).toEqual(['app/src/main/java/com/example/app/A.kt:3:9 missing-catalog-key error']);
  });

  it('a repository without values files gets a note, no finding', async () => {
    const r = await runHardcoded({ 'app/src/main/java/com/example/A.kt': 'package com.example\n\nval a = R.string.x\n' });
    expect(r.findings).toEqual([]);
    expect(r.notes).toContain('no Android res/values*/ file in the repository: 1 resource reference was not looked up');
  });

  it('reads references and names as aapt2 spells them', () => {
    const scope = { package: 'a.b', imports: new Map([['R', 'a.b'], ['UtilsR', 'c.d']]), wildcard: false };
    expect(codeReference('R.string.x', scope)).toEqual({ type: 'string', name: 'x', rPackage: 'a.b' });
    expect(codeReference('UtilsR.plurals.y', scope)).toEqual({ type: 'plurals', name: 'y', rPackage: 'c.d' });
    expect(codeReference('android.R.string.ok', scope)).toBeUndefined();
    expect(codeReference('R.id.toolbar', scope)).toBeUndefined();
    expect(xmlReferences('@string/a')).toEqual([{ type: 'string', name: 'a', offset: 0 }]);
    expect(xmlReferences('@android:string/ok')).toEqual([]);
    expect(xmlReferences('\\@string/a')).toEqual([]);
    expect(xmlReferences('@{cond ? @string/a : @string/b}').map((x) => x.name)).toEqual(['a', 'b']);
    expect(valuesNames('<resources><string name="a.b">x</string><item type="string" name="c">d</item><integer-array name="e"/></resources>')).toEqual([
      { type: 'string', name: 'a.b' },
      { type: 'string', name: 'c' },
      { type: 'array', name: 'e' },
    ]);
    expect(resValueNames('resValue "string", "app_name", "X"\nresValue(type = "string", name = "b", value = "c")\nresValue("string", nameVar, "x")')).toEqual({ names: ['app_name', 'b'], dynamic: true });
    expect([editDistance('feed_refresh_lable', 'feed_refresh_label'), editDistance('ok', 'no'), editDistance('abc', 'abcdef')]).toEqual([1, 2, 3]);
  });
});
