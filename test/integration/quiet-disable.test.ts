// A commit is judged by the loopgates.yaml it stages, so a commit that switches a gate off would judge itself without
// it (one commit: secrets off + a token, exit 0). The hook refuses a commit that turns off a gate HEAD's config had
// enabled unless LOOPGATES_ALLOW_DISABLE names it for that commit (issue 14, item 10).
import { describe, expect, it } from 'vitest';
import { inTempRepo, ledgerOf, runVerb } from '../helpers/cli.js';

// A command gate that always passes, so a run with the other gates off still has one gate to judge with.
const config = (hardcoded: boolean) =>
  [
    'version: 1',
    'gates:',
    '  secrets: {enabled: false}',
    `  hardcoded-strings: {enabled: ${hardcoded}}`,
    '  string-parity: {enabled: false}',
    '  maestro-flows: {enabled: false}',
    '  dump-audit: {enabled: false}',
    'commands:',
    '  - id: ok',
    '    command: ["node", "-e", "0"]',
    '    loop: {runs: "node -e 0", reads: "staged *.txt", ends: "one pass", asks: never}',
    '    files: ["**/*.txt"]',
    '    selfTest: {waived: "test fixture"}',
  ].join('\n') + '\n';

const files = { 'loopgates.yaml': config(true), 'a.txt': 'a\n' };

describe('a commit that switches a gate off (LOOPGATES_ALLOW_DISABLE)', () => {
  it('red: staging hardcoded-strings enabled: false is refused, exit 1, naming the gate and the fix', async () => {
    const r = await inTempRepo(files, (s) => runVerb(s, ['hook', 'pre-commit']), { stage: { 'loopgates.yaml': config(false), 'a.txt': 'b\n' } });
    expect(r.exit).toBe(1);
    expect(r.stdout + r.stderr).toContain('this commit switches off hardcoded-strings in loopgates.yaml (enabled in HEAD)');
    expect(r.stdout + r.stderr).toContain('LOOPGATES_ALLOW_DISABLE=hardcoded-strings git commit …; otherwise keep hardcoded-strings enabled in loopgates.yaml)');
    expect(r.untouched).toBe(true);
  });

  it('red: deleting a command gate from commands: is the same change (a built-in gate left out stays on by default)', async () => {
    const second = ['  - id: also-ok', '    command: ["node", "-e", "0"]', '    loop: {runs: "node -e 0", reads: "staged *.txt", ends: "one pass", asks: never}', '    files: ["**/*.txt"]', '    selfTest: {waived: "test fixture"}'].join('\n');
    const r = await inTempRepo({ ...files, 'loopgates.yaml': `${config(true)}${second}\n` }, (s) => runVerb(s, ['hook', 'pre-commit']), { stage: { 'loopgates.yaml': config(true), 'a.txt': 'b\n' } });
    expect(r.exit).toBe(1);
    expect(r.stdout + r.stderr).toContain('this commit switches off also-ok in loopgates.yaml (enabled in HEAD)');
  });

  it('green: acknowledged with LOOPGATES_ALLOW_DISABLE, the commit goes on with a warning', async () => {
    const r = await inTempRepo(files, (s) => runVerb(s, ['hook', 'pre-commit'], { LOOPGATES_ALLOW_DISABLE: 'hardcoded-strings' }), {
      stage: { 'loopgates.yaml': config(false), 'a.txt': 'b\n' },
    });
    expect(r.stdout + r.stderr).toContain('WARNING: this commit switches off hardcoded-strings in loopgates.yaml, acknowledged by LOOPGATES_ALLOW_DISABLE');
    expect(r.exit).toBe(0);
  });

  it('the acknowledgement is on the record: one ledger line per gate switched off, naming LOOPGATES_ALLOW_DISABLE', async () => {
    const lines = await inTempRepo(
      files,
      async (s) => {
        const r = await runVerb(s, ['hook', 'pre-commit'], { LOOPGATES_ALLOW_DISABLE: 'hardcoded-strings' });
        expect(r.exit).toBe(0);
        return ledgerOf(s.repo.dir).filter((e) => e.kind === 'disable');
      },
      { stage: { 'loopgates.yaml': config(false), 'a.txt': 'b\n' } },
    );
    expect(lines.map((e) => `${e.gate} ${e.verdict} ${String(e.acknowledgedBy)} ${String(e.mode)}`)).toEqual(['hardcoded-strings disabled LOOPGATES_ALLOW_DISABLE staged']);
  });

  it('green: a commit that leaves loopgates.yaml as HEAD has it is not asked anything', async () => {
    const r = await inTempRepo(files, (s) => runVerb(s, ['hook', 'pre-commit']), { stage: { 'a.txt': 'b\n' } });
    expect(r.stdout + r.stderr).not.toContain('switches off');
    expect(r.exit).toBe(0);
  });
});

// The same change by other keys (fresh-user-6 G2): the gate stays enabled, but an exclude takes every file it read,
// or a new allow entry lets its own red case through; the next commit's hard-coded text then lands.
const hsConfig = (extra: string) =>
  ['version: 1', 'gates:', '  secrets: {enabled: false}', `  hardcoded-strings: {enabled: true${extra}}`, '  string-parity: {enabled: false}', '  maestro-flows: {enabled: false}', '  dump-audit: {enabled: false}'].join('\n') + '\n';
const kt = 'app/src/main/kotlin/org/example/Main.kt';
const kotlin = { 'loopgates.yaml': hsConfig(''), [kt]: 'package org.example\n\nfun title(): Int = R.string.app_name\n' };

describe('a commit that keeps a gate on but narrows what it reads (LOOPGATES_ALLOW_DISABLE)', () => {
  it('red: an exclude that takes every Kotlin file the gate read is refused, exit 1, naming the gate, the count and a file', async () => {
    const r = await inTempRepo(kotlin, (s) => runVerb(s, ['hook', 'pre-commit']), { stage: { 'loopgates.yaml': hsConfig(', exclude: ["**/*.kt", "**/*.xml"]') } });
    expect(r.stdout + r.stderr).toContain(`this commit keeps hardcoded-strings enabled in loopgates.yaml but takes from it 1 file it reads under HEAD's loopgates.yaml (${kt})`);
    expect(r.stdout + r.stderr).toContain('LOOPGATES_ALLOW_DISABLE=hardcoded-strings git commit');
    expect(r.exit).toBe(1);
    expect(r.untouched).toBe(true);
  });

  it("red: a new allow entry that matches the gate's own red case is refused, exit 1, naming the entry", async () => {
    const r = await inTempRepo(kotlin, (s) => runVerb(s, ['hook', 'pre-commit']), { stage: { 'loopgates.yaml': hsConfig(', allow: ["[A-Za-z]"]') } });
    expect(r.stdout + r.stderr).toMatch(/this commit keeps hardcoded-strings enabled in loopgates\.yaml but takes from it allow entry "\[A-Za-z\]" hides its own red case "[^"]+"/);
    expect(r.exit).toBe(1);
  });

  it('green: an exclude of files the gate never read, and an allow entry no red case matches, ask nothing', async () => {
    const r = await inTempRepo(kotlin, (s) => runVerb(s, ['hook', 'pre-commit']), { stage: { 'loopgates.yaml': hsConfig(', exclude: ["**/generated/**"], allow: ["^ZZ-internal-code$"]') } });
    expect(r.stdout + r.stderr).not.toContain('takes from it');
    expect(r.exit).toBe(0);
  });

  it('green: acknowledged, the commit goes on with a warning and a ledger line saying narrowed', async () => {
    const r = await inTempRepo(kotlin, (s) => runVerb(s, ['hook', 'pre-commit'], { LOOPGATES_ALLOW_DISABLE: 'hardcoded-strings' }), {
      stage: { 'loopgates.yaml': hsConfig(', exclude: ["**/*.kt"]') },
    });
    expect(r.stdout + r.stderr).toContain(`WARNING: this commit narrows hardcoded-strings in loopgates.yaml (1 file it reads under HEAD's loopgates.yaml (${kt})), acknowledged by LOOPGATES_ALLOW_DISABLE`);
    expect(r.ledger.filter((e) => e.kind === 'disable').map((e) => `${e.gate} ${e.verdict}`)).toEqual(['hardcoded-strings narrowed']);
    expect(r.exit).toBe(0);
  });
});

// fresh-user-8 F1: an allow entry no shipped red case matches, but which exempts exactly the literal the same commit
// adds, is the same narrowing: judged by the findings the gate reports on the commit's staged files under HEAD's
// settings that the staged settings no longer report.
const about = 'app/src/main/kotlin/org/example/About.kt';
const aboutKt = 'package org.example\n\nclass About : Activity() {\n  fun show() {\n    setTitle("About this app")\n  }\n}\n';

describe("a commit whose allow entry hides its own finding (fresh-user-8 F1)", () => {
  it("red: allow ['^About'] staged with setTitle(\"About this app\") is refused, exit 1, naming the finding's file:line", async () => {
    const r = await inTempRepo(kotlin, (s) => runVerb(s, ['hook', 'pre-commit']), { stage: { 'loopgates.yaml': hsConfig(", allow: ['^About']"), [about]: aboutKt } });
    expect(r.stdout + r.stderr).toContain(`this commit keeps hardcoded-strings enabled in loopgates.yaml but takes from it 1 finding it reports under HEAD's loopgates.yaml (${about}:5`);
    expect(r.stdout + r.stderr).toContain('LOOPGATES_ALLOW_DISABLE=hardcoded-strings git commit');
    expect(r.exit).toBe(1);
    expect(r.untouched).toBe(true);
  });

  it('green: acknowledged, the commit goes on with a warning and a ledger line saying narrowed', async () => {
    const r = await inTempRepo(kotlin, (s) => runVerb(s, ['hook', 'pre-commit'], { LOOPGATES_ALLOW_DISABLE: 'hardcoded-strings' }), {
      stage: { 'loopgates.yaml': hsConfig(", allow: ['^About']"), [about]: aboutKt },
    });
    expect(r.stdout + r.stderr).toContain(`WARNING: this commit narrows hardcoded-strings in loopgates.yaml (1 finding it reports under HEAD's loopgates.yaml (${about}:5`);
    expect(r.ledger.filter((e) => e.kind === 'disable').map((e) => `${e.gate} ${e.verdict}`)).toEqual(['hardcoded-strings narrowed']);
    expect(r.exit).toBe(0);
  });

  it('green: the same allow entry committed alone, hiding nothing in the tracked tree, asks nothing (judged against the tree, said so)', async () => {
    const r = await inTempRepo({ ...kotlin, [about]: aboutKt.replace('"About this app"', 'getString(R.string.about)') }, (s) => runVerb(s, ['hook', 'pre-commit']), {
      stage: { 'loopgates.yaml': hsConfig(", allow: ['^About']") },
    });
    expect(r.stdout + r.stderr).not.toContain('takes from it');
    expect(r.stderr).toContain('hardcoded-strings: loopgates.yaml changes its settings (allow entry "^About"): judging them against the tracked tree (2 files)');
    expect(r.exit).toBe(0);
  });

  it('red: the literal still refuses when the allow entry does not match it (the check adds no pass)', async () => {
    const r = await inTempRepo(kotlin, (s) => runVerb(s, ['hook', 'pre-commit']), { stage: { 'loopgates.yaml': hsConfig(", allow: ['^ZZ-internal$']"), [about]: aboutKt } });
    expect(r.stdout + r.stderr).not.toContain('takes from it');
    expect(r.exit).toBe(1);
  });
});

// G1b: an allow entry committed alone, with no staged file it exempts, still hides what the tree already holds (a
// hard-coded text HEAD reports, let through by the `introduced` staged policy); committed first, it waves that text and
// the next commit's through. The staged settings are judged against the whole tracked tree (read from the index).
const aboutLayout = 'app/src/main/res/layout/about.xml';
const aboutXml = (n: number) =>
  '<LinearLayout xmlns:android="http://schemas.android.com/apk/res/android">\n' +
  Array.from({ length: n }, (_, i) => `    <TextView android:text="About part ${i + 1}" />\n`).join('') +
  '</LinearLayout>\n';

describe('a loopgates.yaml change judged against the tracked tree (G1b)', () => {
  it("red: allow ['^About'] committed alone while the tree holds setTitle(\"About this app\") is refused, exit 1, naming the finding, the entry and the fix", async () => {
    const r = await inTempRepo({ ...kotlin, [about]: aboutKt }, (s) => runVerb(s, ['hook', 'pre-commit']), { stage: { 'loopgates.yaml': hsConfig(", allow: ['^About']") } });
    expect(r.stdout + r.stderr).toContain(
      `this commit keeps hardcoded-strings enabled in loopgates.yaml but takes from it 1 finding it reports under HEAD's loopgates.yaml (${about}:5 hardcoded-text), hidden by allow entry "^About" (judged against the tracked tree, 2 files)`,
    );
    expect(r.stdout + r.stderr).toContain(
      '(fix: if it is on purpose, say so for this commit: LOOPGATES_ALLOW_DISABLE=hardcoded-strings git commit …; otherwise take the narrowing out of loopgates.yaml (or unstage it: git restore --staged -- loopgates.yaml))',
    );
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('1 skip — refused: this commit narrows hardcoded-strings (exit 1)');
    expect(r.exit).toBe(1);
    expect(r.untouched).toBe(true);
  });

  it('red: the count is of every hidden finding, three named and the rest elided', async () => {
    const r = await inTempRepo({ ...kotlin, [aboutLayout]: aboutXml(4) }, (s) => runVerb(s, ['hook', 'pre-commit']), { stage: { 'loopgates.yaml': hsConfig(", allow: ['^About part']") } });
    expect(r.stdout + r.stderr).toContain(
      `takes from it 4 findings it reports under HEAD's loopgates.yaml (${aboutLayout}:2 hardcoded-text, ${aboutLayout}:3 hardcoded-text, ${aboutLayout}:4 hardcoded-text, …), hidden by allow entry "^About part" (judged against the tracked tree, 2 files)`,
    );
    expect(r.exit).toBe(1);
  });

  it('red: an attribute list that drops android:text is the same narrowing, named by its key', async () => {
    const r = await inTempRepo({ ...kotlin, [aboutLayout]: aboutXml(1) }, (s) => runVerb(s, ['hook', 'pre-commit']), {
      stage: { 'loopgates.yaml': hsConfig(', attributes: {android: ["android:contentDescription"]}') },
    });
    expect(r.stdout + r.stderr).toMatch(
      new RegExp(`takes from it 1 finding it reports under HEAD's loopgates\\.yaml \\(${aboutLayout.replace(/[./]/g, '\\$&')}:2 hardcoded-text\\), hidden by attributes\\.android without "android:text"`),
    );
    expect(r.exit).toBe(1);
  });

  it('green: acknowledged with LOOPGATES_ALLOW_DISABLE, the commit goes on with a warning and a ledger line saying narrowed', async () => {
    const r = await inTempRepo({ ...kotlin, [about]: aboutKt }, (s) => runVerb(s, ['hook', 'pre-commit'], { LOOPGATES_ALLOW_DISABLE: 'hardcoded-strings' }), {
      stage: { 'loopgates.yaml': hsConfig(", allow: ['^About']") },
    });
    expect(r.stdout + r.stderr).toContain(`WARNING: this commit narrows hardcoded-strings in loopgates.yaml (1 finding it reports under HEAD's loopgates.yaml (${about}:5 hardcoded-text), hidden by allow entry "^About"`);
    expect(r.ledger.filter((e) => e.kind === 'disable').map((e) => `${e.gate} ${e.verdict}`)).toEqual(['hardcoded-strings narrowed']);
    expect(r.exit).toBe(0);
  });

  it("red: a tree run that cannot judge (HEAD's exclude blinds the gate) refuses, naming why, rather than calling the change harmless", async () => {
    const r = await inTempRepo({ ...kotlin, [about]: aboutKt, 'loopgates.yaml': hsConfig(', exclude: ["**"]') }, (s) => runVerb(s, ['hook', 'pre-commit']), {
      stage: { 'loopgates.yaml': hsConfig(", allow: ['^About']") },
    });
    expect(r.stdout + r.stderr).toMatch(/takes from it settings \(allow entry "\^About", exclude entries [^)]*, exclude without "\*\*"\) whose effect could not be judged against the tracked tree: gates\.hardcoded-strings\.exclude\[0\] "\*\*" excludes every file/);
    expect(r.stdout + r.stderr).toContain('LOOPGATES_ALLOW_DISABLE=hardcoded-strings git commit');
    expect(r.exit).toBe(1);
  });

  it("red: the same for another built-in gate: string-parity's placeholder-mismatch turned to warning while the tree holds one", async () => {
    const spConfig = (extra: string) =>
      ['version: 1', 'gates:', '  secrets: {enabled: false}', '  hardcoded-strings: {enabled: false}', `  string-parity: {enabled: true${extra}}`, '  maestro-flows: {enabled: false}', '  dump-audit: {enabled: false}'].join('\n') + '\n';
    const xml = (text: string) => `<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="greeting">${text}</string>\n</resources>\n`;
    const tree = { 'loopgates.yaml': spConfig(''), 'app/src/main/res/values/strings.xml': xml('Hello, %1$s!'), 'app/src/main/res/values-de/strings.xml': xml('Hallo, %1$d!') };
    const r = await inTempRepo(tree, (s) => runVerb(s, ['hook', 'pre-commit']), { stage: { 'loopgates.yaml': spConfig(', rules: {placeholder-mismatch: warning}') } });
    expect(r.stdout + r.stderr).toContain(
      `this commit keeps string-parity enabled in loopgates.yaml but takes from it 1 finding it reports under HEAD's loopgates.yaml (app/src/main/res/values-de/strings.xml:3 placeholder-mismatch), hidden by rules.placeholder-mismatch: "warning" (HEAD: unset) (judged against the tracked tree, 2 files)`,
    );
    expect(r.exit).toBe(1);
  });

  it('green: an allow entry that matches nothing the tree reports passes, and an ordinary commit never judges the tree', async () => {
    const narrowing = await inTempRepo({ ...kotlin, [about]: aboutKt }, (s) => runVerb(s, ['hook', 'pre-commit']), { stage: { 'loopgates.yaml': hsConfig(", allow: ['^Settings$']") } });
    expect(narrowing.stdout + narrowing.stderr).not.toContain('takes from it');
    expect(narrowing.stderr).toContain('judging them against the tracked tree');
    expect(narrowing.exit).toBe(0);
    const ordinary = await inTempRepo({ ...kotlin, [about]: aboutKt }, (s) => runVerb(s, ['hook', 'pre-commit']), { stage: { 'a.txt': 'b\n' } });
    expect(ordinary.stderr).not.toContain('tracked tree');
    expect(ordinary.exit).toBe(0);
  });
});

// fresh-user F3: a commit switching a gate off was refused before any other gate ran ("no gates — refused: a gate
// failed"), so its hard-coded text showed only after a second commit with LOOPGATES_ALLOW_DISABLE. The gates left on
// run in the same commit, and the verdict line names what refused it.
const layout = 'app/src/main/res/layout/activity_about.xml';
const deviceInfo = '<TextView xmlns:android="http://schemas.android.com/apk/res/android"\n    android:text="Device info" />\n';

describe('a refused switch-off still runs the gates left on, and the verdict line says what refused (fresh-user F3)', () => {
  it('red: secrets switched off with a hard-coded "Device info" staged: hardcoded-strings reports it in the same commit; the verdict names the switch-off', async () => {
    const r = await inTempRepo({ ...kotlin, 'loopgates.yaml': hsConfig('').replace('secrets: {enabled: false}', 'secrets: {enabled: true}') }, (s) => runVerb(s, ['hook', 'pre-commit']), {
      stage: { 'loopgates.yaml': hsConfig(''), [layout]: deviceInfo },
    });
    expect(r.stdout).toContain('this commit switches off secrets in loopgates.yaml (enabled in HEAD)');
    expect(r.stdout).toMatch(/^hardcoded-strings +fail +scanned 1 file, /m);
    expect(r.stdout).toContain(`${layout}:2:`);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('1 fail — refused: this commit switches off secrets; a gate failed too (exit 1)');
    expect(r.exit).toBe(1);
    expect(r.untouched).toBe(true);
  });

  it('red: with nothing else wrong, the gates left on pass and the verdict line says the switch-off alone refused', async () => {
    const r = await inTempRepo(files, (s) => runVerb(s, ['hook', 'pre-commit']), { stage: { 'loopgates.yaml': config(false), 'a.txt': 'b\n' } });
    expect(r.stdout).toMatch(/^ok +pass /m);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('1 pass — refused: this commit switches off hardcoded-strings (exit 1)');
    expect(r.exit).toBe(1);
  });

  it("red: the narrowing of fresh-user-8 F1 (allow ['^About']): the verdict line says the narrowing refused, not a gate", async () => {
    const r = await inTempRepo(kotlin, (s) => runVerb(s, ['hook', 'pre-commit']), { stage: { 'loopgates.yaml': hsConfig(", allow: ['^About']"), [about]: aboutKt } });
    expect(r.stdout).toMatch(/^hardcoded-strings +pass /m);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('1 pass — refused: this commit narrows hardcoded-strings (exit 1)');
    expect(r.exit).toBe(1);
  });

  it('the json report names the refusal too', async () => {
    const r = await inTempRepo(files, (s) => runVerb(s, ['hook', 'pre-commit', '--format', 'json']), { stage: { 'loopgates.yaml': config(false), 'a.txt': 'b\n' } });
    const j = JSON.parse(r.stdout) as { exitCode: number; refusals?: string[]; results: Array<{ gate: string; verdict: string }> };
    expect([j.exitCode, j.refusals, j.results.map((x) => `${x.gate} ${x.verdict}`)]).toEqual([1, ['this commit switches off hardcoded-strings'], ['ok pass']]);
  });
});
