// dump-audit: exact counts per corpus dump and per fixture, the shipped cases through the runner, the mutation
// operators on the real dumps, the catalog text rule, and zero inputs under the default globs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import type { SelfTestCase } from '../../core/types.js';
import { memoryWorkspace } from '../../core/workspace.js';
import { auditDump, RULES } from '../../gates/dump-audit/audit.js';
import { dumpAuditGate } from '../../gates/dump-audit/index.js';
import { duplicateLabel, stripLabel } from '../../gates/dump-audit/mutations.js';
import { parseDump } from '../../scripts/device/dump.js';
import { uiautomatorCorpus } from '../helpers/corpus.js';
import { fixture } from '../helpers/fake-device.js';

const corpus = join(uiautomatorCorpus(), 'Matth33w__js-adb');
const LAUNCHER = join(corpus, 'window_dump.xml');
const YOUTUBE = join(corpus, 'history', '6cc6d73', 'window_dump.xml');
const audit = (path: string) => auditDump(parseDump(readFileSync(path, 'utf8')));
const gate = async (files: Record<string, string>, config: unknown = {}, mode: 'staged' | 'all' = 'staged') =>
  runGate({ gate: dumpAuditGate, config: dumpAuditGate.configSchema.parse(config), timeoutMs: 30_000, allowEmpty: dumpAuditGate.emptyAllowed?.(dumpAuditGate.configSchema.parse(config)) }, { ws: memoryWorkspace({ files, mode }), cacheRoot: '/tmp/loopgates-test-cache' });

describe('auditDump counts', () => {
  it('over the corpus dumps: nodes, clickable, unlabeled, duplicate labels, zero-area', () => {
    expect(audit(LAUNCHER).counts).toEqual({ nodes: 25, clickable: 5, unlabeled: 0, duplicateLabels: 0, zeroArea: 0 });
    expect(audit(LAUNCHER).findings).toEqual([]);
    const yt = audit(YOUTUBE);
    expect(yt.counts).toEqual({ nodes: 89, clickable: 20, unlabeled: 0, duplicateLabels: 7, zeroArea: 0 });
    // 7 labels tap several controls (menu_item_view on Notifications and Search, "More actions" twice, ...), but only
    // the two "More actions" buttons have no label of their own.
    expect(yt.findings.map((f) => `${f.rule} ${f.line}:${f.column}`)).toEqual([`${RULES.ambiguous} 1:22674`, `${RULES.ambiguous} 1:24424`]);
  });

  it('over our fixtures', () => {
    const home = audit(fixture('home.xml'));
    expect(home.counts).toEqual({ nodes: 21, clickable: 8, unlabeled: 1, duplicateLabels: 6, zeroArea: 1 });
    expect(home.findings.map((f) => `${f.rule} ${f.line}:${f.column}`)).toEqual([`${RULES.unlabeled} 27:9`, `${RULES.zeroArea} 28:9`]);
    expect(audit(fixture('trash.xml')).counts).toEqual({ nodes: 11, clickable: 2, unlabeled: 0, duplicateLabels: 1, zeroArea: 0 });
    expect(audit(fixture('editor.xml')).findings).toEqual([]);
  });
});

describe('dump-audit self-test cases', async () => {
  const cases: SelfTestCase[] = await dumpAuditGate.selfTest();
  it('ships one green case and a red case per rule', () => {
    expect(cases.filter((c) => c.kind === 'green')).toHaveLength(1);
    expect(cases.filter((c) => c.kind === 'red').map((c) => c.expect!.rule)).toEqual([RULES.unlabeled, RULES.ambiguous, RULES.zeroArea, RULES.unparsable]);
  });
  for (const c of cases) {
    it(`${c.kind}: ${c.name}`, async () => {
      const r = await gate(c.files as Record<string, string>);
      const errors = r.findings.filter((f) => f.severity === 'error');
      if (c.kind === 'green') {
        expect(r.verdict).toBe('pass');
        expect(r.counts).toMatchObject({ files: 1, items: 3 });
      } else {
        expect(r.verdict).toBe('fail');
        expect(errors.map((f) => `${f.file}:${f.line} ${f.rule}`)).toContain(`${c.expect!.file}:${c.expect!.line} ${c.expect!.rule}`);
      }
    });
  }
});

describe('dump-audit mutations on the real dumps', () => {
  for (const [name, path] of [
    ['launcher', LAUNCHER],
    ['youtube', YOUTUBE],
  ] as const) {
    for (const op of [stripLabel, duplicateLabel]) {
      it(`${op.id} on the ${name} dump is caught at the mutated node`, async () => {
        const content = readFileSync(path, 'utf8');
        const m = op.mutate('app/src/androidTest/assets/window_dump.xml', content, () => 0.5)!;
        expect(m).not.toBeNull();
        const r = await gate({ 'app/src/androidTest/assets/window_dump.xml': m.content });
        expect(r.verdict).toBe('fail');
        expect(r.findings.filter((f) => f.rule === m.rule).map((f) => f.line)).toContain(m.line);
        // The same file unmutated: the launcher passes; YouTube keeps only its two real findings.
        const clean = await gate({ 'app/src/androidTest/assets/window_dump.xml': content });
        expect(clean.findings.length).toBe(name === 'launcher' ? 0 : 2);
        expect(r.findings.length).toBeGreaterThan(clean.findings.length);
      });
    }
  }
});

describe('dump-audit in a repository', () => {
  it('zero inputs under the default globs is a skip in --all, not vacuous; with own globs it is vacuous', async () => {
    const none = await gate({ 'src/App.kt': 'fun main() {}\n' }, {}, 'all');
    expect(none.verdict).toBe('skip');
    expect(none.reason).toBe('no inputs; allowed by allowEmpty: no uiautomator dump files (*.uix, window_dump*.xml) in this repository');
    const own = await gate({ 'src/App.kt': 'fun main() {}\n' }, { include: ['dumps/**/*.xml'] }, 'all');
    expect(own.verdict).toBe('vacuous');
  });

  it('reports on-screen text no base catalog holds, naming the key when a translation holds it', async () => {
    const strings = '<resources>\n  <string name="save">Save</string>\n  <string name="delete">Delete</string>\n</resources>\n';
    const de = '<resources>\n  <string name="save">Speichern</string>\n  <string name="delete">Löschen</string>\n</resources>\n';
    const dump = readFileSync(fixture('trash.xml'), 'utf8').replace('text="Delete"', 'text="Löschen"');
    const r = await gate({ 'app/src/main/res/values/strings.xml': strings, 'app/src/main/res/values-de/strings.xml': de, 'app/src/androidTest/assets/window_dump.xml': dump });
    const text = r.findings.filter((f) => f.rule === RULES.notInCatalog).map((f) => `${f.line} ${f.severity} ${f.message}`);
    expect(text).toEqual([
      '7 warning text "Trash" on screen: no base catalog holds it (hard-coded text?)',
      '10 warning text "Groceries" on screen: no base catalog holds it (hard-coded text?)',
      '11 warning text "Löschen" on screen: it is the translation of key delete in app/src/main/res/values-de/strings.xml, not the base text (hard-coded text?)',
      '14 warning text "Trip plan" on screen: no base catalog holds it (hard-coded text?)',
    ]);
    // The other "Delete" is a base value; the warnings alone do not fail the gate.
    expect(r.findings.filter((f) => f.severity === 'error').map((f) => f.rule)).toEqual([]);
    expect(r.verdict).toBe('pass');
    const strict = await runGate(
      { gate: dumpAuditGate, config: dumpAuditGate.configSchema.parse({ catalogText: 'error' }), timeoutMs: 30_000 },
      { ws: memoryWorkspace({ files: { 'app/src/main/res/values/strings.xml': strings, 'app/src/androidTest/assets/window_dump.xml': dump }, mode: 'staged' }), cacheRoot: '/tmp/loopgates-test-cache' },
    );
    expect(strict.verdict).toBe('fail');
  });
});
