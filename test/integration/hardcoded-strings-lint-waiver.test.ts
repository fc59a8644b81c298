// hardcoded-strings honours Android Lint's tools:ignore="HardcodedText". One the commit writes, on the element whose
// hard-coded text it stages, is the commit waiving its own finding (as a .gitleaksignore entry staged with its
// credential): the hook refused nothing and said nothing. Now it is GateOutput.waived and refused unless
// LOOPGATES_ALLOW_DISABLE names the gate; a suppression HEAD already holds keeps covering new text. Real hook run.
import { describe, expect, it } from 'vitest';
import { inTempRepo, runVerb } from '../helpers/cli.js';
import { assertBuilt } from './install-support.js';

const YAML = 'version: 1\ngates:\n  secrets: {enabled: false}\n  string-parity: {enabled: false}\n  hardcoded-strings: {}\n';
const LAYOUT = 'app/src/main/res/layout/activity_main.xml';
const layout = (root: string, ...children: string[]) =>
  `<?xml version="1.0" encoding="utf-8"?>\n<LinearLayout xmlns:android="http://schemas.android.com/apk/res/android"\n    xmlns:tools="http://schemas.android.com/tools"${root}>\n${children.map((c) => `    ${c}\n`).join('')}</LinearLayout>\n`;
const base = (xml: string) => ({ 'loopgates.yaml': YAML, 'README.md': 'x\n', [LAYOUT]: xml });

describe('hardcoded-strings: a tools:ignore="HardcodedText" the commit adds (own waiver)', () => {
  it('red: staged on the TextView whose text it hides: refused, exit 1, naming file:line and LOOPGATES_ALLOW_DISABLE', async () => {
    assertBuilt();
    const head = layout('', '<TextView android:id="@+id/title" android:text="@string/title" />');
    const next = layout('', '<TextView android:id="@+id/title" android:text="@string/title" />', '<TextView android:id="@+id/promo" tools:ignore="HardcodedText" android:text="Buy the premium plan now" />');
    const r = await inTempRepo(base(head), (s) => runVerb(s, ['hook', 'pre-commit']), { stage: { [LAYOUT]: next } });
    const out = r.stdout + r.stderr;
    expect(out).toContain(`this commit keeps hardcoded-strings enabled but waives 1 finding of its own (${LAYOUT}:5 "Buy the premium plan now", by the tools:ignore="HardcodedText" it adds)`);
    expect(out).toContain('LOOPGATES_ALLOW_DISABLE=hardcoded-strings git commit');
    expect(r.exit).toBe(1);
    expect(r.untouched).toBe(true);
  });

  it('red: added on the root, it waives every text below; acknowledged, the commit passes with a warning', async () => {
    assertBuilt();
    const head = layout('', '<TextView android:text="@string/title" />');
    const next = layout(' tools:ignore="HardcodedText"', '<TextView android:text="Debug build only" />', '<Button android:text="Reset all data" />');
    await inTempRepo(base(head), async (s) => {
      const r = await runVerb(s, ['hook', 'pre-commit']);
      expect(r.stdout + r.stderr).toContain(`waives 2 findings of its own (${LAYOUT}:4 "Debug build only", by the tools:ignore="HardcodedText" it adds; ${LAYOUT}:5 "Reset all data", by the tools:ignore="HardcodedText" it adds)`);
      expect(r.exit).toBe(1);
      const ok = await runVerb(s, ['hook', 'pre-commit'], { LOOPGATES_ALLOW_DISABLE: 'hardcoded-strings' });
      expect(ok.stdout + ok.stderr).toContain('WARNING: this commit narrows hardcoded-strings (waives 2 findings of its own');
      expect(ok.exit).toBe(0);
    }, { stage: { [LAYOUT]: next } });
  });

  it('green: new text below a tools:ignore HEAD already has on the root is covered, as Lint covers it', async () => {
    assertBuilt();
    const head = layout(' tools:ignore="HardcodedText"', '<TextView android:text="Debug build only" />');
    const next = layout(' tools:ignore="HardcodedText"', '<TextView android:text="Debug build only" />', '<Button android:text="Reset all data" />');
    const r = await inTempRepo(base(head), (s) => runVerb(s, ['hook', 'pre-commit']), { stage: { [LAYOUT]: next } });
    expect(r.stdout + r.stderr).not.toContain('waives');
    expect(r.exit).toBe(0);
  });
});
