// Unit tests of the hardcoded-strings extractors: one parser per language, on realistic fixtures.
import { describe, expect, it } from 'vitest';
import { DEFAULT_ANDROID_ATTRIBUTES, extractAndroidXml } from '../../gates/hardcoded-strings/android-xml.js';
import { extractJava } from '../../gates/hardcoded-strings/java.js';
import { extractJsx } from '../../gates/hardcoded-strings/jsx.js';
import { extractKotlin } from '../../gates/hardcoded-strings/kotlin.js';
import { parseSuppression } from '../../core/suppression.js';
import { foldSpecifiers, type Extraction } from '../../gates/hardcoded-strings/model.js';
import { extractSwift } from '../../gates/hardcoded-strings/swift.js';

const at = (e: Extraction) => e.candidates.map((c) => `${c.line}:${c.column} ${c.literal}`);

/** Every candidate's line:column must point at an opening quote (literals) or the first character of JSX text. */
function expectAnchored(src: string, e: Extraction): void {
  const lines = src.split('\n');
  for (const c of e.candidates) {
    const ch = lines[c.line - 1]?.[c.column - 1];
    if (c.context.endsWith('child') && ch !== '"' && ch !== "'" && ch !== '`') expect(ch, `${c.line}:${c.column}`).toBe(c.literal[0]);
    else expect(['"', "'", '`'], `${c.line}:${c.column} ${c.literal}`).toContain(ch);
  }
}

describe('parseSuppression', () => {
  it('reads the reason and strips comment closers', () => {
    expect(parseSuppression(' loopgates-ignore hardcoded-strings: brand name ', 'hardcoded-strings')).toEqual({ reason: 'brand name' });
    expect(parseSuppression('/* loopgates-ignore hardcoded-strings: logo text */', 'hardcoded-strings')).toEqual({ reason: 'logo text' });
    expect(parseSuppression('{/* loopgates-ignore hardcoded-strings: x */}', 'hardcoded-strings')).toEqual({ reason: 'x' });
  });
  it('gives no reason for a bare or blank directive, and ignores other gates', () => {
    expect(parseSuppression('// loopgates-ignore hardcoded-strings', 'hardcoded-strings')).toEqual({ reason: undefined });
    expect(parseSuppression('// loopgates-ignore hardcoded-strings:   ', 'hardcoded-strings')).toEqual({ reason: undefined });
    expect(parseSuppression('/* loopgates-ignore hardcoded-strings: */', 'hardcoded-strings')).toEqual({ reason: undefined });
    expect(parseSuppression('// loopgates-ignore secrets: test key', 'hardcoded-strings')).toBeNull();
    expect(parseSuppression('// loopgates-ignore hardcoded-stringsx: y', 'hardcoded-strings')).toBeNull();
  });
  it('is any gate\'s: the id names the gate, and a longer id is another gate', () => {
    expect(parseSuppression('# loopgates-ignore maestro-flows: flaky on the emulator', 'maestro-flows')).toEqual({ reason: 'flaky on the emulator' });
    expect(parseSuppression('// loopgates-ignore secrets-extra: x', 'secrets')).toBeNull();
    expect(parseSuppression('<!-- loopgates-ignore secrets -->', 'secrets')).toEqual({ reason: undefined });
  });
});

describe('foldSpecifiers', () => {
  it('folds printf specifiers to %@ and keeps %%', () => {
    expect(foldSpecifiers('Hello %@, %lld new, %1$@ and %.2f%%')).toBe('Hello %@, %@ new, %@ and %@%%');
  });
});

const NS = 'xmlns:android="http://schemas.android.com/apk/res/android" xmlns:app="http://schemas.android.com/apk/res-auto" xmlns:tools="http://schemas.android.com/tools"';

describe('Android XML', () => {
  it('reports letter-bearing literals of text attributes, at the value', () => {
    const xml = `<LinearLayout ${NS}>
    <TextView android:text="Hello &amp; welcome" android:hint="@string/hint" tools:text="Sample text" />
    <Button android:text="?attr/label" android:contentDescription="30" />
    <com.google.android.material.appbar.MaterialToolbar app:title="Settings" app:subtitle="@{vm.subtitle}" />
    <EditText android:hint="Search podcasts" android:inputType="text" android:id="@+id/search" />
</LinearLayout>`;
    const e = extractAndroidXml(xml);
    expectAnchored(xml, e);
    expect(at(e)).toEqual(['2:28 Hello & welcome', '4:67 Settings', '5:28 Search podcasts']);
    expect(e.candidates.map((c) => c.context)).toEqual(['android:text', 'app:title', 'android:hint']);
  });

  // aapt2 (ResourceUtils::ParseReference / ParseAttributeReference) reads a value as a reference only when, after
  // leading whitespace, it starts with `@` or `?`; a backslash before them escapes the reference and the app shows
  // the text as written minus the backslash ("@string/nope"): user-visible hard-coded text like any literal.
  it('reads escaped references (\\@…, \\?…) as literals in every default text attribute, unescaped ones as references', () => {
    const names = DEFAULT_ANDROID_ATTRIBUTES;
    const lines = names.map((n) => `  <View ${n}="\\@string/nope" />\n  <View ${n}=" \\?attr/nope" />\n  <View ${n}=" @string/ok" />\n  <View ${n}="?attr/ok" />`);
    const xml = `<LinearLayout ${NS}>\n${lines.join('\n')}\n</LinearLayout>`;
    const e = extractAndroidXml(xml);
    expectAnchored(xml, e);
    expect(e.candidates.map((c) => `${c.line} ${c.context} ${c.literal}`)).toEqual(
      names.flatMap((n, i) => [`${2 + 4 * i} ${n} \\@string/nope`, `${3 + 4 * i} ${n}  \\?attr/nope`]),
    );
  });

  it('maps any prefix bound to res-auto to app:, and never reads tools:', () => {
    const xml = `<menu xmlns:android="http://schemas.android.com/apk/res/android" xmlns:custom="http://schemas.android.com/apk/res-auto" xmlns:t="http://schemas.android.com/tools">
  <item android:id="@+id/x" custom:title="Refresh" t:title="Design only" />
</menu>`;
    expectAnchored(xml, extractAndroidXml(xml));
    expect(at(extractAndroidXml(xml))).toEqual(['2:42 Refresh']);
  });

  it('honours tools:ignore="HardcodedText" on the element and its descendants unless turned off', () => {
    const xml = `<FrameLayout ${NS} tools:ignore="ContentDescription,HardcodedText">
  <TextView android:text="Inner" />
</FrameLayout>`;
    expect(extractAndroidXml(xml).candidates.map((c) => c.suppressedBy !== undefined)).toEqual([true]);
    expect(extractAndroidXml(xml, { honorLintIgnore: false }).candidates.map((c) => c.suppressedBy)).toEqual([undefined]);
  });

  it('reads a leading comment as covering the next element start tag, a trailing one its own line', () => {
    const xml = `<LinearLayout ${NS}>
    <!-- loopgates-ignore hardcoded-strings: brand name -->
    <TextView
        android:id="@+id/brand"
        android:text="AntennaPod" />
    <TextView android:text="Other" />
    <TextView android:text="Same line" /> <!-- loopgates-ignore hardcoded-strings: demo -->
    <TextView android:text="Next line" />
    <!-- loopgates-ignore hardcoded-strings -->
    <TextView android:text="No reason" />
</LinearLayout>`;
    const e = extractAndroidXml(xml);
    expect(e.directives.map((d) => [d.line, d.reason, d.ranges])).toEqual([
      [2, 'brand name', [[2, 2], [3, 5]]],
      [7, 'demo', [[7, 7]]],
      [9, undefined, [[9, 9], [10, 10]]],
    ]);
  });

  it('reports malformed XML as fatal with a line', () => {
    const e = extractAndroidXml(`<LinearLayout ${NS}>\n  <TextView android:text="a" android:text="b" />\n</LinearLayout>`);
    expect(e.fatal?.message).toMatch(/redefined/);
    expect(e.fatal?.line).toBeGreaterThanOrEqual(1);
    expect(e.candidates).toEqual([]);
  });
});

describe('Kotlin / Compose', () => {
  const src = `package app

@Composable
fun Screen(count: Int, name: String) {
    Text("Hello")
    Text(text = "Named text", maxLines = 1)
    Icon(Icons.Default.PlayArrow, contentDescription = "Play")
    Box(Modifier.semantics { contentDescription = "Episode cover" })
    Text("$count")
    Text("\${count} episodes")
    Text(stringResource(R.string.title))
    Text(if (count > 1) "Many" else "One")
    val label = "Not UI"
    Log.d("TAG", "debug message")
    Text("\\n")
}

fun legacy(view: TextView, ctx: Context) {
    view.setText("Set text")
    view.text = "Assigned"
    Toast.makeText(ctx, "Saved", Toast.LENGTH_SHORT).show()
    AlertDialog.Builder(ctx).setTitle("Title").setPositiveButton("OK") { _, _ -> }
    Snackbar.make(view, "Undo?", Snackbar.LENGTH_LONG)
}
`;
  it('finds Text, named arguments, semantics, Toast, setters and assignments', async () => {
    const e = await extractKotlin(src);
    expectAnchored(src, e);
    expect(at(e)).toEqual([
      '5:10 Hello',
      '6:17 Named text',
      '7:56 Play',
      '8:51 Episode cover',
      '10:10 ${count} episodes',
      '12:25 Many',
      '12:37 One',
      '19:18 Set text',
      '20:17 Assigned',
      '21:25 Saved',
      '22:39 Title',
      '22:66 OK',
      '23:25 Undo?',
    ]);
    expect(e.syntaxErrors).toEqual([]);
  });

  it('does not take the tooling label of Compose animations for text', async () => {
    const src = `@Composable
fun Fade(visible: Boolean) {
    val alpha by animateFloatAsState(if (visible) 1f else 0f, label = "alpha")
    val t = updateTransition(visible, label = "visibility")
    Crossfade(targetState = visible, label = "crossfade") { }
    AssistChip(onClick = {}, label = { Text("Filter") })
    Tab(selected = true, onClick = {}, text = { Text("Queue") })
    NavigationBarItem(label = "Inbox")
}
`;
    const e = await extractKotlin(src);
    expectAnchored(src, e);
    expect(e.candidates.map((c) => c.literal)).toEqual(['Filter', 'Queue', 'Inbox']);
  });

  it('skips literals inside @Preview functions, multipreview annotations and PreviewParameterProvider classes', async () => {
    const src = `@Preview(showBackground = true)
@Composable
fun EpisodeRowPreview() { EpisodeRow(title = "Episode 1: Pilot"); Text("Preview only text") }

@PreviewLightDark @Composable private fun DarkPreview() = Text("Dark preview")

@DevicePreviews
@Composable
fun PhonePreview() {
    Column { Text(text = "Nested in a lambda") }
}

@androidx.compose.ui.tooling.preview.Preview
@Composable
fun QualifiedPreview() { Text("Qualified") }

class EpisodeProvider : PreviewParameterProvider<Episode> {
    override val values = sequenceOf(Episode(title = "Episode A"))
}

@Composable
fun EpisodeRow(title: String) {
    Text("Shipped")
    Icon(Icons.Default.Star, contentDescription = "Favourite")
}

@Suppress("unused")
@Composable
fun PreviewsAreNotTheOnlyAnnotation() { Text("Also shipped") }
`;
    const e = await extractKotlin(src);
    expectAnchored(src, e);
    expect(at(e)).toEqual(['23:10 Shipped', '24:51 Favourite', '29:46 Also shipped']);
  });

  it('reads message and label as UI text in components and UI helpers, not in logging, exceptions or analytics', async () => {
    const src = `fun events(analytics: Analytics, host: SnackbarHostState) {
    Napier.i("tag", message = "log message text")
    Timber.d(message = "timber text")
    throw IllegalStateException(message = "Exception message")
    val e = ApiException(message = "Wrapped failure", code = 500)
    throw AssertionError(message = "Assertion text")
    analytics.log(event = "screen_view", label = "home screen")
    trackEvent(category = "player", action = "play", label = "mini player")
    println(message = "stdout text")
    host.showSnackbar(message = "Episode deleted", actionLabel = "Undo")
    context.showToast(message = "Saved to queue")
    AlertDialog(onDismissRequest = {}, title = { Text("Delete?") }, text = { Text("Really delete?") }, confirmButton = {})
    Snackbar(message = "Offline")
    ErrorState(message = "Could not load episodes")
    NavigationBarItem(label = "Inbox")
    UiState.Error(message = "Network error")
}
`;
    const e = await extractKotlin(src);
    expectAnchored(src, e);
    expect(e.candidates.map((c) => `${c.line}:${c.column} ${c.literal} ${c.context}`)).toEqual([
      '10:33 Episode deleted showSnackbar(message = …)',
      '10:66 Undo showSnackbar(actionLabel = …)',
      '11:33 Saved to queue showToast(message = …)',
      '12:55 Delete? Text()',
      '12:83 Really delete? Text()',
      '13:24 Offline Snackbar(message = …)',
      '14:26 Could not load episodes ErrorState(message = …)',
      '15:31 Inbox NavigationBarItem(label = …)',
      '16:29 Network error Error(message = …)',
    ]);
  });

  it('reads Notification.Builder titles and texts', async () => {
    const src = `fun notify(ctx: Context) {
    val n = NotificationCompat.Builder(ctx, CHANNEL)
        .setContentTitle("Download complete")
        .setContentText("3 episodes downloaded")
        .setSubText("Downloads")
        .setTicker("Downloading")
        .setStyle(NotificationCompat.BigTextStyle().bigText("Long text").setBigContentTitle("Big title").setSummaryText("Summary"))
        .setContentTitle(getString(R.string.done))
        .build()
}
`;
    const e = await extractKotlin(src);
    expectAnchored(src, e);
    expect(at(e)).toEqual(['3:26 Download complete', '4:25 3 episodes downloaded', '5:21 Downloads', '6:20 Downloading', '7:61 Long text', '7:93 Big title', '7:121 Summary']);
  });

  it('suppresses a multi-line call after a leading comment, not the line after a trailing one', async () => {
    const e = await extractKotlin(`@Composable
fun Brand() {
    // loopgates-ignore hardcoded-strings: product name
    Text(
        "AntennaPod"
    )
    Text("Kept") // loopgates-ignore hardcoded-strings: demo
    Text("Reported")
    /* loopgates-ignore hardcoded-strings */
    Text("No reason")
}
`);
    expect(e.directives.map((d) => [d.line, d.reason, d.ranges])).toEqual([
      [3, 'product name', [[3, 3], [4, 6]]],
      [7, 'demo', [[7, 7]]],
      [9, undefined, [[9, 9], [10, 10]]],
    ]);
  });
});

describe('Kotlin / Compose: AnnotatedString text (fresh6 F1, element-x-android)', () => {
  it('reads AnnotatedString("…") and append("…") inside buildAnnotatedString at any depth of span blocks; not StringBuilder or other append', async () => {
    const src = `@Composable
fun Deactivate(name: String, sb: StringBuilder, items: List<String>) {
    Text(buildAnnotatedString { append("Delete your account now") })
    Text(buildAnnotatedString {
        withStyle(SpanStyle(fontWeight = FontWeight.Bold)) {
            append("Bold words here")
            withLink(LinkAnnotation.Url("https://element.io/help")) { append("Read the help") }
        }
        pushStyle(SpanStyle(color = Color.Red))
        append(if (name.isEmpty()) "No name given" else name)
        pop()
        append(": ")
        append(name)
        append(text = "Named append text")
        items.forEach { append("Each item here") }
        append(stringResource(R.string.title))
        sb.append("Receiver is a StringBuilder")
        append(buildString { append("Plain string builder") })
    })
    Text(AnnotatedString("Delete your account now"))
    Text(AnnotatedString(text = "Named annotated text", spanStyles = emptyList()))
    val b = AnnotatedString.Builder().apply { append("Builder apply text") }
    val c = AnnotatedString.Builder("Builder constructor text")
    val d = StringBuilder().apply { append("Not UI text") }
    sb.append("Log line for debugging")
    append("Bare append outside a builder")
}

fun AnnotatedString.Builder.appendTerms() { withStyle(SpanStyle()) { append("Terms of use") } }
fun StringBuilder.appendLog() { append("Log line text") }
`;
    const e = await extractKotlin(src);
    expectAnchored(src, e);
    expect(e.candidates.map((c) => `${c.line}:${c.column} ${c.literal} ${c.context}`)).toEqual([
      '3:40 Delete your account now append() in buildAnnotatedString',
      '6:20 Bold words here append() in buildAnnotatedString',
      '7:78 Read the help append() in buildAnnotatedString',
      '10:36 No name given append() in buildAnnotatedString',
      '14:23 Named append text append(text = …) in buildAnnotatedString',
      '15:32 Each item here append() in buildAnnotatedString',
      '20:26 Delete your account now AnnotatedString()',
      '21:33 Named annotated text AnnotatedString(text = …)',
      '22:54 Builder apply text append() in AnnotatedString.Builder().apply',
      '23:37 Builder constructor text AnnotatedString.Builder()',
      '29:77 Terms of use append() in an AnnotatedString.Builder extension',
    ]);
  });

  it('applies the same rules as other text: suppressions and previews', async () => {
    const src = `@Composable
fun Brand() {
    Text(buildAnnotatedString {
        // loopgates-ignore hardcoded-strings: product name in every language
        append("Element X")
        append("Shown words")
    })
}

@Preview
@Composable
fun BrandPreview() { Text(buildAnnotatedString { append("Preview only words") }) }
`;
    const e = await extractKotlin(src);
    expect(at(e)).toEqual(['5:16 Element X', '6:16 Shown words']);
    expect(e.directives.map((d) => [d.line, d.ranges])).toEqual([[4, [[4, 4], [5, 5]]]]);
  });
});

describe('Kotlin / Compose: a local val bound to a literal and shown (fresh6 F2)', () => {
  it('reads the literal of a local val used only at text positions, at the literal; not one used elsewhere too, a var or a member', async () => {
    const src = `class Screen {
    val member = "Member text here"

    @Composable
    fun Zz1(view: TextView, enabled: Boolean) {
        val label = "Delete your account now"
        Text(label)
        val title = if (enabled) "Turn it off" else "Turn it on"
        Text(text = title)
        view.text = title
        val tag = "Screen tag name"
        Text(tag)
        Log.d(tag, "shown")
        var changing = "Changing words here"
        Text(changing)
        val key = "settings.title"
        Text(key)
        val unused = "Never shown anywhere"
        Text(member)
        val both = "Shown and logged"
        Text(both)
        println("$both")
        Column { Text(label) }
    }
}
`;
    const e = await extractKotlin(src);
    expectAnchored(src, e);
    expect(e.candidates.map((c) => `${c.line}:${c.column} ${c.literal} ${c.context}`)).toEqual([
      '6:21 Delete your account now Text() via val label',
      '8:34 Turn it off Text(text = …) via val title',
      '8:53 Turn it on Text(text = …) via val title',
      '16:19 settings.title Text() via val key',
    ]);
  });
});

describe('Kotlin / Compose: text-preserving String calls on a literal, BasicText, ClickableText (fresh6 F12, element-x-android)', () => {
  it('reads the literal receiver of trimIndent/trimMargin/uppercase/lowercase/capitalize/replaceFirstChar/trim as the text; not other calls', async () => {
    const src = `@Composable
fun Deactivate(name: String, key: String) {
    Text("Delete your account".uppercase())
    Text("""
        Delete your account
        right now""".trimIndent())
    Text(text = """|Margin text here""".trimMargin())
    Text("Lower case words".lowercase(Locale.ROOT))
    Text("capital words".capitalize())
    Text("first char words".replaceFirstChar { it.titlecase() })
    Text("  Trimmed words  ".trim().uppercase())
    Text(("Joined " + name).uppercase())
    Text("Shown words".substring(1))
    Text(key.uppercase())
    Log.d("Log tag words".uppercase(), name)
    BasicText("Basic text words")
    BasicText(text = "Named basic words", style = TextStyle())
    ClickableText(text = AnnotatedString("Tap here to continue"), onClick = {})
    ClickableText(AnnotatedString("Tap positional words")) {}
}
`;
    const e = await extractKotlin(src);
    expectAnchored(src, e);
    expect(e.candidates.map((c) => `${c.line}:${c.column} ${c.literal} ${c.context}`)).toEqual([
      '3:10 Delete your account Text()',
      '4:10 \n        Delete your account\n        right now Text()',
      '7:17 |Margin text here Text(text = …)',
      '8:10 Lower case words Text()',
      '9:10 capital words Text()',
      '10:10 first char words Text()',
      '11:10   Trimmed words   Text()',
      '12:11 Joined  Text()',
      '16:15 Basic text words BasicText()',
      '17:22 Named basic words BasicText(text = …)',
      '18:42 Tap here to continue AnnotatedString()',
      '19:35 Tap positional words AnnotatedString()',
    ]);
  });

  it('Java reads neither BasicText nor ClickableText (Compose only)', async () => {
    const src = `class A {
    void f(TextView tv) {
        BasicText("Basic words here");
        ClickableText("Clickable words here");
        tv.setText("Set words here");
    }
}
`;
    expect((await extractJava(src)).candidates.map((c) => `${c.line}:${c.column} ${c.literal}`)).toEqual(['5:20 Set words here']);
  });
});

describe('Kotlin / Java: positional toast helpers (Fossify / Simple-Mobile-Tools commons, fresh-user-3 F3)', () => {
  it('Kotlin: toast("…"), showErrorToast("…"), showSnackbar-style helpers read their first positional string; R.string and logs are not text', async () => {
    const src = `class MainActivity : SimpleActivity() {
    fun open(file: File) {
        toast("The file is too large to open")
        showErrorToast("Could not open the file")
        context.toast("Saved", Toast.LENGTH_LONG)
        toast(R.string.file_too_large)
        showUndoSnackbar("Note deleted")
        Log.d("MainActivity", "opened")
        toaster("not a toast callee")
    }
}
`;
    const e = await extractKotlin(src);
    expectAnchored(src, e);
    expect(e.candidates.map((c) => `${c.line}:${c.column} ${c.literal} ${c.context}`)).toEqual([
      '3:15 The file is too large to open toast()',
      '4:24 Could not open the file showErrorToast()',
      '5:23 Saved toast()',
      '7:26 Note deleted showUndoSnackbar()',
    ]);
  });
  it('Java: toast("…") and showErrorToast("…") from the same table', async () => {
    const java = `class MainActivity extends Activity {
    void open() {
        toast("Too large");
        showErrorToast("Failed");
    }
}
`;
    const e = await extractJava(java);
    expectAnchored(java, e);
    expect(e.candidates.map((c) => `${c.line}:${c.column} ${c.literal} ${c.context}`)).toEqual([
      '3:15 Too large toast()',
      '4:24 Failed showErrorToast()',
    ]);
  });
  it('Java: a Kotlin extension called through its file class (ContextKt.toast(this, "…")) reads the argument after the receiver', async () => {
    const java = `import org.fossify.commons.extensions.ContextKt;

public class WidgetConfigureActivity extends SimpleActivity {
    void save() {
        ContextKt.toast(this, "Widget saved", Toast.LENGTH_SHORT);
        ContextKt.toast(getApplicationContext(), R.string.unknown_error_occurred, 0);
        org.fossify.commons.extensions.ActivityKt.showErrorToast(this, "Could not save");
        StringsKt.toast(this, "x");
        Utils.toast(this, "Not a Kotlin file class");
    }
}
`;
    const e = await extractJava(java);
    expectAnchored(java, e);
    expect(e.candidates.map((c) => `${c.line}:${c.column} ${c.literal} ${c.context}`)).toEqual([
      '5:31 Widget saved ContextKt.toast()',
      '7:72 Could not save ActivityKt.showErrorToast()',
      '8:31 x StringsKt.toast()',
    ]);
  });
});

describe('Kotlin / Java: a format call passes its format string to the text sink (fresh-user-6 G1)', () => {
  it('Kotlin: String.format(fmt, …), String.format(Locale, fmt, …), "…".format(…), MessageFormat.format(…) into a sink are text; a resource format and a log are not', async () => {
    const src = `class MainActivity : SimpleActivity() {
    fun deleted(mNotes: List<Note>, n: Int) {
        toast(String.format("%d notes deleted", mNotes.size))
        toast("%d notes deleted".format(mNotes.size))
        Toast.makeText(this, String.format(Locale.US, "%d notes left", n), Toast.LENGTH_SHORT).show()
        binding.title.text = java.lang.String.format("%s selected", name)
        setTitle(MessageFormat.format("{0} files", n))
        toast(String.format(getString(R.string.note_saved_successfully), title))
        Log.d("MainActivity", String.format("%d notes", n))
        val key = String.format("note_%d", n)
        toast(if (n > 1) String.format("%d notes", n) else "One note")
        toast(String.format(appLanguage(), "%d hours played", n))
    }
}
`;
    const e = await extractKotlin(src);
    expectAnchored(src, e);
    expect(e.candidates.map((c) => `${c.line}:${c.column} ${c.literal} ${c.context}`)).toEqual([
      '3:29 %d notes deleted toast()',
      '4:15 %d notes deleted toast()',
      '5:55 %d notes left makeText()',
      '6:54 %s selected text = …',
      '7:39 {0} files setTitle()',
      '11:40 %d notes toast()',
      '11:60 One note toast()',
      '12:44 %d hours played toast()',
    ]);
  });
  it('Java: String.format(fmt, …), String.format(Locale, fmt, …), MessageFormat.format and "…".formatted(…) into setText / Toast.makeText are text', async () => {
    const java = `class EpisodeActivity extends Activity {
    void bind(TextView title, int n) {
        Toast.makeText(this, String.format("%d notes deleted", n), Toast.LENGTH_SHORT).show();
        title.setText(String.format(Locale.US, "%d episodes", n));
        title.setText(MessageFormat.format("{0} episodes", n));
        title.setText("%d episodes left".formatted(n));
        title.setText(java.lang.String.format("%d new", n));
        title.setText(String.format(getString(R.string.episodes), n));
        Log.d(TAG, String.format("bound %d", n));
        String key = String.format("episode_%d", n);
        viewBinding.largeLabel.setText(String.format(getEchoLanguage(), "%d hours", n));
        expandButton.setText(String.format("+%,d", remainingCount));
    }
}
`;
    const e = await extractJava(java);
    expectAnchored(java, e);
    expect(e.candidates.map((c) => `${c.line}:${c.column} ${c.literal} ${c.context}`)).toEqual([
      '3:44 %d notes deleted makeText()',
      '4:48 %d episodes setText()',
      '5:44 {0} episodes setText()',
      '6:23 %d episodes left setText()',
      '7:47 %d new setText()',
      '11:73 %d hours setText()',
    ]);
  });
});

describe('Kotlin / Java: Android text sinks with a view id or menu ids first (fresh-user-6 G3)', () => {
  it('Kotlin: RemoteViews setTextViewText/setContentDescription(id, …), setText(R.id.…, …), Menu.add, SearchView/Preference/TextInputLayout/BiometricPrompt text, addAction titles', async () => {
    const src = `class MyWidgetProvider : AppWidgetProvider() {
    fun update(views: RemoteViews, note: Note?, menu: Menu, viewId: Int) {
        views.setText(R.id.widget_note_title, "Untitled note")
        views.setText(R.id.widget_note_title, note?.title ?: "Untitled note")
        RemoteViews(packageName, R.layout.widget).setTextViewText(R.id.widget_text, "No notes")
        views.setContentDescription(viewId, "Open note")
        menu.add("Export all")
        binding.toolbar.menu.add(Menu.NONE, R.id.export, Menu.NONE, "Export as file")
        popup.menu.addSubMenu("Sort by")
        searchView.setQueryHint("Search notes")
        searchView.queryHint = "Search notes"
        preference.setSummary("Shown on the lock screen")
        textInputLayout.setHelperText("At least 8 characters")
        BiometricPrompt.PromptInfo.Builder().setNegativeButtonText("Use password")
        NotificationCompat.Builder(this, CHANNEL).addAction(R.drawable.ic_stop, "Stop", stopIntent)
        views.setText(R.id.widget_note_title, R.string.untitled)
        list.add("not a menu")
        filter.addAction("org.fossify.notes.ACTION_UPDATE")
        Log.d("Widget", "updated")
    }
}
`;
    const e = await extractKotlin(src);
    expectAnchored(src, e);
    expect(e.candidates.map((c) => `${c.line}:${c.column} ${c.literal} ${c.context}`)).toEqual([
      '3:47 Untitled note setText()',
      '4:62 Untitled note setText()',
      '5:85 No notes setTextViewText()',
      '6:45 Open note setContentDescription()',
      '7:18 Export all add()',
      '8:69 Export as file add()',
      '9:31 Sort by addSubMenu()',
      '10:33 Search notes setQueryHint()',
      '11:32 Search notes queryHint = …',
      '12:31 Shown on the lock screen setSummary()',
      '13:39 At least 8 characters setHelperText()',
      '14:68 Use password setNegativeButtonText()',
      '15:81 Stop addAction()',
    ]);
  });
  it('Java: the same sinks', async () => {
    const java = `class Widget {
    void update(RemoteViews views, Menu menu, int viewId) {
        views.setTextViewText(R.id.widget_text, "No notes");
        views.setContentDescription(R.id.widget_button, "Open note");
        menu.add("Export all");
        getMenu().add(0, R.id.export, 0, "Export as file");
        searchView.setQueryHint("Search episodes");
        findPreference("about_version").setSummary("Version 1.0");
        builder.addAction(R.drawable.ic_stop, "Stop", stopIntent);
        items.add("not a menu");
        filter.addAction("de.danoeh.antennapod.ACTION");
    }
}
`;
    const e = await extractJava(java);
    expectAnchored(java, e);
    expect(e.candidates.map((c) => `${c.line}:${c.column} ${c.literal} ${c.context}`)).toEqual([
      '3:49 No notes setTextViewText()',
      '4:57 Open note setContentDescription()',
      '5:18 Export all add()',
      '6:42 Export as file add()',
      '7:33 Search episodes setQueryHint()',
      '8:52 Version 1.0 setSummary()',
      '9:47 Stop addAction()',
    ]);
  });
});

describe('Java', () => {
  it('finds setText, setContentDescription, setTitle, Toast.makeText and concatenations', async () => {
    const java = `class EpisodeActivity extends Activity {
    void bind(TextView title, ImageView cover, int n) {
        title.setText("Episode " + n);
        cover.setContentDescription("Cover art");
        setTitle("Details");
        Toast.makeText(this, "Downloaded", Toast.LENGTH_SHORT).show();
        title.setText(R.string.episode);
        Log.d("EpisodeActivity", "bound");
        title.setText(n > 1 ? "Many" : "%d");
        // loopgates-ignore hardcoded-strings: debug build only
        title.setText("Debug");
    }
}
`;
    const e = await extractJava(java);
    expectAnchored(java, e);
    expect(at(e)).toEqual(['3:23 Episode ', '4:37 Cover art', '5:18 Details', '6:30 Downloaded', '9:31 Many', '11:23 Debug']);
    expect(e.directives.map((d) => [d.line, d.reason, d.ranges])).toEqual([[10, 'debug build only', [[10, 10], [11, 11]]]]);
  });
  it('finds Notification.Builder titles and texts', async () => {
    const java = `class Notifier {
    Notification build(Context ctx) {
        return new NotificationCompat.Builder(ctx, CHANNEL)
            .setContentTitle("Download complete")
            .setContentText("3 episodes downloaded")
            .setContentText(ctx.getString(R.string.done))
            .build();
    }
}
`;
    const e = await extractJava(java);
    expectAnchored(java, e);
    expect(e.candidates.map((c) => `${c.line}:${c.column} ${c.literal} ${c.context}`)).toEqual([
      '4:30 Download complete setContentTitle()',
      '5:29 3 episodes downloaded setContentText()',
    ]);
  });
});

describe('Swift', () => {
  it('a call named like an Object.prototype member neither crashes nor hides the literals after it (fresh-user-5 F2, iina)', async () => {
    const swift = `import AppKit
final class A {
    func f() {
        let s = toString(1)
        let c = constructor(x: 2)
        let v = hasOwnProperty("k")
        let t = UIAlertAction(title: "Hello world")
    }
}
`;
    const e = await extractSwift(swift);
    expect(e.candidates.map((c) => `${c.line}:${c.column} ${c.literal}`)).toEqual(['7:38 Hello world']);
  });

  it('reads AppKit text: NSTextField/NSButton/NSMenuItem initialisers, NSAlert and menu calls, NSControl/NSView text properties (fresh-user-5 F1, iina)', async () => {
    const src = `import Cocoa
let hcTitle = NSTextField(labelWithString: "Hello hard-coded world")
final class AboutWindowController: NSWindowController {
  static let item = NSUserInterfaceItemIdentifier(rawValue: "dataSourceItem")
  override func windowDidLoad() {
    let wrap = NSTextField(wrappingLabelWithString: "Long text here")
    let field = NSTextField(string: "Untitled")
    let ok = NSButton(title: "Open", target: self, action: #selector(open))
    let box = NSButton(checkboxWithTitle: "Remember me", target: nil, action: nil)
    let radio = NSButton(radioButtonWithTitle: "Left", target: nil, action: nil)
    let item = NSMenuItem(title: "Quit IINA", action: #selector(quit), keyEquivalent: "q")
    menu.addItem(withTitle: "Show Log", action: nil, keyEquivalent: "l")
    menu.insertItem(withTitle: "Recent", action: nil, keyEquivalent: "", at: 0)
    popup.addItem(withTitle: "Default")
    let alert = NSAlert()
    alert.messageText = "Delete the playlist?"
    alert.informativeText = "This cannot be undone."
    alert.addButton(withTitle: "Delete")
    versionLabel.stringValue = "Build \\(build)"
    searchField.placeholderString = "Search"
    button.toolTip = "Play or pause"
    button.alternateTitle = "Pause"
    window.title = "About"
    segments.setLabel("Audio", forSegment: 0)
    segments.setToolTip("Subtitles", forSegment: 1)
    NotificationCenter.default.post(name: Notification.Name("iinaPlayerChanged"), object: nil)
    window.setFrameAutosaveName("AboutWindow")
    setLabel("NotUI")
    // Localised at run time (Rectangle's String.localized, NSLocalizedString): not literals at a text position.
    alert.addButton(withTitle: "Cancel".localized)
    alert.messageText = NSLocalizedString("alert.title", comment: "Shown as the title")
  }
}
`;
    const e = await extractSwift(src);
    expectAnchored(src, e);
    expect(e.candidates.map((c) => `${c.line}:${c.column} ${c.literal} ${c.context}`)).toEqual([
      '2:44 Hello hard-coded world NSTextField(labelWithString:)',
      '6:53 Long text here NSTextField(wrappingLabelWithString:)',
      '7:37 Untitled NSTextField(string:)',
      '8:30 Open NSButton(title:)',
      '9:43 Remember me NSButton(checkboxWithTitle:)',
      '10:48 Left NSButton(radioButtonWithTitle:)',
      '11:34 Quit IINA NSMenuItem(title:)',
      '12:29 Show Log addItem(withTitle:)',
      '13:32 Recent insertItem(withTitle:)',
      '14:30 Default addItem(withTitle:)',
      '16:25 Delete the playlist? .messageText =',
      '17:29 This cannot be undone. .informativeText =',
      '18:32 Delete addButton(withTitle:)',
      '19:32 Build \\(build) .stringValue =',
      '20:37 Search .placeholderString =',
      '21:22 Play or pause .toolTip =',
      '22:29 Pause .alternateTitle =',
      '23:20 About .title =',
      '24:23 Audio setLabel()',
      '25:25 Subtitles setToolTip()',
    ]);
  });

  it('reads AppKit accessibility setters (NSAccessibility setAccessibilityLabel/Title/Help) and the titles of addItems(withTitles: […])', async () => {
    const src = `import Cocoa
final class PrefViewController: NSViewController {
  override func viewDidLoad() {
    playButton.setAccessibilityLabel("Play")
    window.setAccessibilityTitle("Preferences")
    slider.setAccessibilityHelp("Drag to seek")
    popup.addItems(withTitles: ["Auto", "Always", fallback, "Never"])
    button.setAccessibilityLabel(NSLocalizedString("a11y.play", comment: ""))
    button.setAccessibilityIdentifier("playButton")
    popup.selectItem(withTitle: "Auto")
  }
}
`;
    const e = await extractSwift(src);
    expectAnchored(src, e);
    expect(e.candidates.map((c) => `${c.line}:${c.column} ${c.literal} ${c.context}`)).toEqual([
      '4:38 Play setAccessibilityLabel()',
      '5:34 Preferences setAccessibilityTitle()',
      '6:33 Drag to seek setAccessibilityHelp()',
      '7:33 Auto addItems(withTitles:)',
      '7:41 Always addItems(withTitles:)',
      '7:61 Never addItems(withTitles:)',
    ]);
  });

  const src = `import SwiftUI
import UIKit

struct ProfileView: View {
    let name: String
    var body: some View {
        VStack {
            Text(verbatim: "Verbatim")
            Text("profile.title")
            Text("Hello \\(name)!")
            Text("Joined " + name)
            Button("Follow") { }
            Image(systemName: "person")
                .accessibilityLabel("Avatar")
            Text(NSLocalizedString("key", comment: "Not UI"))
            Text(String(localized: "Localized"))
        }
        .navigationTitle("Profile")
    }
}

final class LegacyViewController: UIViewController {
    override func viewDidLoad() {
        label.text = "Welcome"
        button.accessibilityLabel = "Close"
        button.setTitle("Done", for: .normal)
        let alert = UIAlertController(title: "Error", message: "Try again", preferredStyle: .alert)
        print("debug")
    }
}
`;
  it('separates plain Strings (always hard-coded) from LocalizedStringKey literals (key lookup)', async () => {
    const e = await extractSwift(src);
    expectAnchored(src, e);
    expect(e.candidates.map((c) => `${c.line}:${c.column} ${c.literal} ${c.lookupKey === undefined ? 'plain' : `key=${c.lookupKey}`}`)).toEqual([
      '8:28 Verbatim plain',
      '9:18 profile.title key=profile.title',
      '10:18 Hello \\(name)! key=Hello %@!',
      '11:18 Joined  plain',
      '12:20 Follow key=Follow',
      '14:37 Avatar key=Avatar',
      '18:26 Profile key=Profile',
      '24:22 Welcome plain',
      '25:37 Close plain',
      '26:25 Done plain',
      '27:46 Error plain',
      '27:64 Try again plain',
    ]);
  });

  it('reads Text("…") concatenated to another Text (IceCubesApp status rows): the grammar parses `a + Text("…")` as a call of `a + Text`', async () => {
    const src = `import SwiftUI
struct StatusRowHeaderView: View {
    var body: some View {
        Group {
            Text(viewModel.finalStatus.account.displayNameWithoutEmojis) + Text(" status.row.was-boosted")
            Text(Image(systemName: "arrow.left.arrow.right.circle")) + Text(verbatim: " · ") + Text("status.row.edited").font(.caption)
        }
        .accessibilityLabel(Text("Boosted by") + Text(verbatim: name))
    }
}
`;
    const e = await extractSwift(src);
    expectAnchored(src, e);
    expect(e.candidates.map((c) => `${c.line}:${c.column} ${c.literal} ${c.lookupKey === undefined ? 'plain' : `key=${c.lookupKey}`}`)).toEqual([
      '5:81  status.row.was-boosted key= status.row.was-boosted',
      '6:101 status.row.edited key=status.row.edited',
      '8:34 Boosted by key=Boosted by',
    ]);
  });

  it('records the string table each SwiftUI key is looked up in (Localizable unless a literal tableName: names one)', async () => {
    // Apple, Text.init(_:tableName:bundle:comment:): "tableName: The name of the string table to search. If nil, use
    // the table in the Localizable.strings file". `LocalizedStringKey("…")` passed in is the same lookup.
    const src = `import SwiftUI
struct SettingsView: View {
    let table: String
    var body: some View {
        Text("Settings", tableName: "Preferences")
        Text("Account")
        Text("Privacy", tableName: nil, comment: "header")
        Text("Dynamic", tableName: table)
        Text("Built", tableName: "Pref\\(table)")
        Text(LocalizedStringKey("Wrapped"))
        Text(LocalizedStringKey("Wrapped in table"), tableName: "Preferences")
        Button(LocalizedStringKey(stringLiteral: "Labelled")) { }
        Text(LocalizedStringKey("Hello \\(table)"))
        Text(LocalizedStringKey("Joined " + table))
        Text(verbatim: "Plain")
    }
}
`;
    const e = await extractSwift(src);
    expectAnchored(src, e);
    const table = (t: string | undefined) => (t === undefined ? 'any table' : `table ${t}`);
    expect(e.candidates.map((c) => `${c.line}:${c.column} ${c.context} ${c.lookupKey === undefined ? 'plain' : `key=${c.lookupKey} ${table(c.lookupTable)}`}`)).toEqual([
      '5:14 Text() key=Settings table Preferences',
      '6:14 Text() key=Account table Localizable',
      '7:14 Text() key=Privacy table Localizable',
      '8:14 Text() key=Dynamic any table',
      '9:14 Text() key=Built any table',
      '10:33 Text(LocalizedStringKey()) key=Wrapped table Localizable',
      '11:33 Text(LocalizedStringKey()) key=Wrapped in table table Preferences',
      '12:50 Button(LocalizedStringKey()) key=Labelled table Localizable',
      // LocalizedStringKey(_ value: String): an interpolated or concatenated argument is a String first, so the key
      // is the text at run time (no catalog holds it): hard-coded, as `Text("Hi " + name)` is.
      '13:33 Text(LocalizedStringKey()) plain',
      '14:33 Text(LocalizedStringKey()) plain',
      '15:24 Text(verbatim:) plain',
    ]);
  });

  it('skips #Preview macro bodies and PreviewProvider types, which never ship', async () => {
    const src = `import SwiftUI
struct EpisodeRow: View {
    var body: some View { Text(verbatim: "Shipped") }
}

#Preview {
    EpisodeRow()
        .navigationTitle("Preview title")
    Text(verbatim: "Preview verbatim")
}

#if DEBUG
@available(iOS 17, *)
#Preview("Dark", traits: .sizeThatFitsLayout) {
    Text("Preview key")
}
#endif

struct EpisodeRow_Previews: PreviewProvider {
    static var previews: some View {
        Text(verbatim: "Old preview")
    }
}

struct After: View {
    var body: some View { Text(verbatim: "Also shipped") }
}
`;
    const e = await extractSwift(src);
    expectAnchored(src, e);
    expect(at(e)).toEqual(['3:42 Shipped', '26:42 Also shipped']);
  });
});

describe('JSX / React Native', () => {
  const src = `import { Text, View, Image, TextInput } from 'react-native';

export function Card({ name, t }) {
  return (
    <View testID="card" style={styles.card} key="k" className="card">
      <Text>Hello &amp; welcome</Text>
      <Text>
        {name}
      </Text>
      <Text>{"Literal child"} {\`Hi \${name}\`}</Text>
      <Text>{t('title')}</Text>
      <Text>   </Text>
      <Image accessibilityLabel="Avatar" alt={'Photo'} source={img} />
      <TextInput placeholder={\`Search \${name}\`} accessibilityHint={t('hint')} />
      <Animated.Text>Animated</Animated.Text>
      <View>Not a text component, still text</View>
      <button aria-label="Close" title="Close dialog" />
      {/* loopgates-ignore hardcoded-strings: brand */}
      <Text>AntennaPod</Text>
    </View>
  );
}
`;
  it('finds text children of <Text>, of any other component (issue 15 item 6) and text props, not testID/style/key/className', async () => {
    const e = await extractJsx(src, 'javascript');
    expectAnchored(src, e);
    expect(at(e)).toEqual([
      '6:13 Hello & welcome',
      '10:14 Literal child',
      '10:32 Hi ${name}',
      '13:33 Avatar',
      '13:47 Photo',
      '14:31 Search ${name}',
      '15:22 Animated',
      '16:13 Not a text component, still text',
      '17:26 Close',
      '17:40 Close dialog',
      '19:13 AntennaPod',
    ]);
    expect(e.directives.map((d) => [d.line, d.reason, d.ranges])).toEqual([[18, 'brand', [[18, 18], [19, 19]]]]);
  });

  it('parses the same component as TSX', async () => {
    const tsx = `export const A = ({ n }: { n: number }) => <Text accessibilityLabel="Count">{n} items</Text>;\n`;
    const e = await extractJsx(tsx, 'tsx');
    expectAnchored(tsx, e);
    expect(at(e)).toEqual(['1:69 Count', '1:81 items']);
  });
});
