// Compose text that reaches the screen, committed by real git through the installed pre-commit hook (fresh6, a new
// user's pass on element-x-android): what the hook refuses and how it prints the literal.
import { describe, expect, it } from 'vitest';
import { inTempRepo, runVerb } from '../helpers/cli.js';
import { assertBuilt, gitThroughHooks, head, letGitRefreshIndex, type Sandbox } from './install-support.js';

const SCREEN = 'app/src/main/java/org/example/Screen.kt';
const BASE = {
  'app/src/main/res/values/strings.xml': '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="app_name">Notes</string>\n</resources>\n',
  [SCREEN]: 'package org.example\n',
};

/** Install (no proof), commit it, then commit `source` as the screen through the hook: exit, output, landed. */
async function commitScreen(s: Sandbox, source: string) {
  expect((await runVerb(s, ['install', '--no-proof'])).exit).toBe(0);
  s.repo.git('add', '-A');
  s.repo.git('commit', '-q', '-m', 'loopgates');
  s.repo.write(SCREEN, source);
  s.repo.git('add', '-A');
  letGitRefreshIndex(s);
  const before = head(s);
  const r = await gitThroughHooks(s, ['commit', '-m', 'screen'], {});
  return { ...r, landed: head(s) !== before };
}

describe('Compose text through the hook', () => {
  it('a literal ending in an emoji is printed whole, not as U+FFFD and a byte escape (fresh6 F-NIT-1)', async () => {
    assertBuilt();
    await inTempRepo(BASE, async (s) => {
      const r = await commitScreen(s, 'package org.example\n\n@Composable\nfun Dev() {\n    Text("Crash the app 💥")\n}\n');
      expect(r.status, r.output).toBe(1);
      expect(r.landed).toBe(false);
      expect(r.output).toContain(`${SCREEN}:5:10  hardcoded-text  hard-coded text "Crash the app 💥" in Text()`);
      expect(r.output).not.toMatch(/\ufffd|\\245/u);
    });
  });

  it('AnnotatedString text is refused: buildAnnotatedString { append }, nested withStyle, AnnotatedString("…") (fresh6 F1)', async () => {
    assertBuilt();
    await inTempRepo(BASE, async (s) => {
      const src = [
        'package org.example',
        '',
        '@Composable',
        'fun Zz1(log: StringBuilder) {',
        '    Text(buildAnnotatedString { append("Delete your account now") })',
        '    Text(AnnotatedString("Delete your account now"))',
        '    Text(buildAnnotatedString { withStyle(SpanStyle()) { append("Bold words here") } })',
        '    log.append("Not shown to anyone")',
        '}',
        '',
      ].join('\n');
      const r = await commitScreen(s, src);
      expect(r.status, r.output).toBe(1);
      expect(r.landed).toBe(false);
      expect(r.output.split('\n').filter((l) => l.includes('hardcoded-text')).map((l) => l.trim())).toEqual([
        `${SCREEN}:5:40  hardcoded-text  hard-coded text "Delete your account now" in append() in buildAnnotatedString; move it to the string catalog`,
        `${SCREEN}:6:26  hardcoded-text  hard-coded text "Delete your account now" in AnnotatedString(); move it to the string catalog`,
        `${SCREEN}:7:65  hardcoded-text  hard-coded text "Bold words here" in append() in buildAnnotatedString; move it to the string catalog`,
      ]);
    });
  });

  it('a literal bound to a local val and only shown is refused at the literal; one also logged is not read (fresh6 F2)', async () => {
    assertBuilt();
    await inTempRepo(BASE, async (s) => {
      const src = [
        'package org.example',
        '',
        '@Composable',
        'fun Zz1() {',
        '    val label = "Delete your account now"',
        '    Text(label)',
        '    val tag = "Account screen tag"',
        '    Log.d(tag, "shown")',
        '    Text(tag)',
        '}',
        '',
      ].join('\n');
      const r = await commitScreen(s, src);
      expect(r.status, r.output).toBe(1);
      expect(r.landed).toBe(false);
      expect(r.output.split('\n').filter((l) => l.includes('hardcoded-text')).map((l) => l.trim())).toEqual([
        `${SCREEN}:5:17  hardcoded-text  hard-coded text "Delete your account now" in Text() via val label; move it to the string catalog`,
      ]);
    });
  });
  it('a literal under a text-preserving String call, BasicText and ClickableText are refused; a substring is not read (fresh6 F12)', async () => {
    assertBuilt();
    await inTempRepo(BASE, async (s) => {
      const src = [
        'package org.example',
        '',
        '@Composable',
        'fun Zz1(key: String) {',
        '    Text("Delete your account".uppercase())',
        '    Text("""',
        '        Delete your account',
        '        right now""".trimIndent())',
        '    BasicText("Delete your account now")',
        '    ClickableText(text = AnnotatedString("Tap here to continue"), onClick = {})',
        '    Text("Not the shown words".substring(4))',
        '    Text(key.uppercase())',
        '}',
        '',
      ].join('\n');
      const r = await commitScreen(s, src);
      expect(r.status, r.output).toBe(1);
      expect(r.landed).toBe(false);
      expect(r.output.split('\n').filter((l) => l.includes('hardcoded-text')).map((l) => l.trim())).toEqual([
        `${SCREEN}:5:10  hardcoded-text  hard-coded text "Delete your account" in Text(); move it to the string catalog`,
        `${SCREEN}:6:10  hardcoded-text  hard-coded text "\\n        Delete your account\\n        right now" in Text(); move it to the string catalog`,
        `${SCREEN}:9:15  hardcoded-text  hard-coded text "Delete your account now" in BasicText(); move it to the string catalog`,
        `${SCREEN}:10:42  hardcoded-text  hard-coded text "Tap here to continue" in AnnotatedString(); move it to the string catalog`,
      ]);
    });
  });
});
