// An inline suppression needs a reason a reviewer can check (README "Inline suppression ... needs a reason"): a
// placeholder (`ok`, `x`, `fix later`, `none`) is no reason, so the comment is void, suppresses nothing and is itself
// an error finding at its file:line with the fix. A suppression a staged change adds is named in the verdict
// (file:line, "suppression added"), as a bypass is loud. The built CLI over a real temp git repository.
import { describe, expect, it } from 'vitest';
import { withSandbox } from './install-support.js';
import { ownTmpdir } from '../helpers/own-tmpdir.js';

ownTmpdir('loopgates-suppression-');

const layout = 'app/src/main/res/layout/player.xml';
const LAYOUT = (comment: string) =>
  [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<LinearLayout xmlns:android="http://schemas.android.com/apk/res/android"',
    '    android:layout_width="match_parent"',
    '    android:layout_height="wrap_content">',
    `    <!-- loopgates-ignore hardcoded-strings: ${comment} -->`,
    '    <TextView',
    '        android:layout_width="wrap_content"',
    '        android:layout_height="wrap_content"',
    '        android:text="Play" />',
    '</LinearLayout>',
    '',
  ].join('\n');
const strings = '<resources>\n    <string name="app_name">Player</string>\n</resources>\n';

describe('a suppression with a placeholder for a reason', () => {
  for (const reason of ['ok', 'x', 'fix later', 'none', 'TODO', 'n/a', 'wip']) {
    it(`"${reason}": refused at its file:line with the fix, and the text it covers is a finding again`, async () => {
      await withSandbox({ [layout]: LAYOUT(reason), 'app/src/main/res/values/strings.xml': strings }, async (s) => {
        const r = await s.cli(['run', '--all', '--gate', 'hardcoded-strings', '--format', 'json']);
        expect(r.code).toBe(1);
        const doc = JSON.parse(r.stdout);
        const findings = doc.results[0].findings.map((f: { rule: string; file: string; line: number; message: string }) => [f.rule, `${f.file}:${f.line}`, f.message]);
        expect(findings.map((f: string[]) => f.slice(0, 2))).toEqual([
          ['suppression-without-reason', `${layout}:5`],
          ['hardcoded-text', `${layout}:9`],
        ]);
        expect(findings[0][2]).toContain(`"${reason}" is a placeholder, not a reason`);
        expect(findings[0][2]).toContain('fix: say why the text stays as it is, in two words or more (loopgates-ignore hardcoded-strings: brand name)');
      });
    });
  }

  it('a reason of two words or more suppresses: exit 0, one suppressed', async () => {
    for (const reason of ['brand name', 'product name shown as is']) {
      await withSandbox({ [layout]: LAYOUT(reason), 'app/src/main/res/values/strings.xml': strings }, async (s) => {
        const r = await s.cli(['run', '--all', '--gate', 'hardcoded-strings', '--format', 'json']);
        expect(r.code).toBe(0);
        const doc = JSON.parse(r.stdout);
        expect(doc.results[0].findings).toEqual([]);
        expect(doc.results[0].counts.suppressed).toBe(1);
      });
    }
  });
});

describe('a suppression the staged change adds is named', () => {
  it('added to a modified file: "file:line: suppression added" in the verdict; one HEAD already had is not named', async () => {
    const two = LAYOUT('brand name').replace('</LinearLayout>', '    <!-- loopgates-ignore hardcoded-strings: shown as the logo -->\n    <TextView android:text="Beat" />\n</LinearLayout>');
    await withSandbox({ [layout]: LAYOUT('brand name'), 'app/src/main/res/values/strings.xml': strings }, async (s) => {
      s.repo.write(layout, two);
      s.repo.git('add', '--', layout);
      for (const format of ['text', 'json']) {
        const r = await s.cli(['run', '--staged', '--gate', 'hardcoded-strings', '--format', format]);
        expect(r.code).toBe(0);
        const out = format === 'json' ? JSON.parse(r.stdout).results[0].notes.join('\n') : r.stdout + r.stderr;
        expect(out).toContain(`${layout}:10: suppression added (loopgates-ignore hardcoded-strings: shown as the logo)`);
        expect(out).not.toContain(`${layout}:5: suppression added`);
      }
      // --all judges no change: nothing is "added".
      const all = await s.cli(['run', '--all', '--gate', 'hardcoded-strings']);
      expect(all.stdout + all.stderr).not.toContain('suppression added');
    });
  });

  it('in a file the change adds: each of its suppressions is named', async () => {
    await withSandbox({ 'app/src/main/res/values/strings.xml': strings }, async (s) => {
      s.repo.write(layout, LAYOUT('brand name'));
      s.repo.git('add', '--', layout);
      const r = await s.cli(['run', '--staged', '--gate', 'hardcoded-strings']);
      expect(r.code).toBe(0);
      expect(r.stdout + r.stderr).toContain(`${layout}:5: suppression added (loopgates-ignore hardcoded-strings: brand name)`);
    });
  });
});

// fresh5 F6 nit: a suppression placed where it covers no text (above the root element, a blank line before the call)
// was named "suppression added" as if it took effect; it suppresses nothing, so it is named as such, to be moved.
describe('an added suppression that covers nothing', () => {
  const main = 'app/src/main/res/layout/main.xml';
  const ROOT = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<!-- loopgates-ignore hardcoded-strings: brand name -->',
    '<LinearLayout xmlns:android="http://schemas.android.com/apk/res/android"',
    '    android:layout_width="match_parent"',
    '    android:layout_height="wrap_content">',
    '    <TextView android:text="Acme" />',
    '</LinearLayout>',
    '',
  ].join('\n');
  const screen = 'app/src/main/java/com/example/Hello.kt';
  const KOTLIN = ['package com.example', '', 'import androidx.compose.material3.Text', '', 'fun Hello() {', '    // loopgates-ignore hardcoded-strings: brand name', '', '    Text("Acme")', '}', ''].join('\n');

  for (const [what, file, text, line, hit, applies] of [
    ['above the root element with no text', main, ROOT, 2, 6, 'the start tag of the element right after it'],
    ['a blank line before the Text call', screen, KOTLIN, 6, 8, 'its own line and the statement or line right after it'],
  ] as const) {
    it(`${what}: "file:line: suppression covers nothing", not "suppression added", and the text stays a finding`, async () => {
      await withSandbox({ 'app/src/main/res/values/strings.xml': strings }, async (s) => {
        s.repo.write(file, text);
        s.repo.git('add', '--', file);
        const r = await s.cli(['run', '--staged', '--gate', 'hardcoded-strings', '--format', 'json']);
        expect(r.code).toBe(1);
        const res = JSON.parse(r.stdout).results[0];
        expect(res.findings.map((f: { rule: string; file: string; line: number }) => `${f.rule} ${f.file}:${f.line}`)).toEqual([`hardcoded-text ${file}:${hit}`]);
        expect(res.notes).toContain(`${file}:${line}: suppression covers nothing (loopgates-ignore hardcoded-strings: brand name): it applies only to ${applies}; move it above the text it is for`);
        expect(res.notes.join('\n')).not.toContain('suppression added');
      });
    });
  }
});

