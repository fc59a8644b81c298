// Judging what a commit introduces (issue 16): real temp repositories with history, the built-in gates (secrets off:
// gitleaks judges the staged diff anyway) and toy gates for the policy edges. A commit is refused for the findings it
// brings; findings HEAD already has over the same inputs are counted and summarised in one line per gate.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeRunVerb } from '../../commands/index.js';
import type { Gate, GateResult } from '../../core/types.js';
import { treeAndIndexDigest, withGitRepo } from '../helpers/git-repo.js';
import type { TempRepo } from '../helpers/git-repo.js';
import { LOOPGATES } from '../helpers/setup-env.js';
import { BAD, runVerbIn, toyGate } from './run-toys.js';

const run = makeRunVerb();
const NO_SECRETS = 'version: 1\ngates:\n  secrets:\n    enabled: false\n';

const res = 'app/src/main/res';
const base = `${res}/values/strings.xml`;
const xml = (entries: string) => `<?xml version="1.0" encoding="utf-8"?>\n<resources>\n${entries}</resources>\n`;
const str = (name: string, text: string) => `    <string name="${name}">${text}</string>\n`;
const BASE = xml(str('sync', 'Synced %1$d of %2$d notes') + str('hello', 'Hello'));
/** Five translations; values-ca and values-fi drop an argument the base passes (an old placeholder-mismatch each). */
const TRANSLATIONS: Record<string, string> = {
  [`${res}/values-de/strings.xml`]: xml(str('sync', '%1$d von %2$d synchronisiert') + str('hello', 'Hallo')),
  [`${res}/values-ca/strings.xml`]: xml(str('sync', 'Sincronitzades %1$d') + str('hello', 'Hola')),
  [`${res}/values-fi/strings.xml`]: xml(str('sync', 'Synkronoitu %2$d') + str('hello', 'Hei')),
  [`${res}/values-fr/strings.xml`]: xml(str('sync', '%1$d sur %2$d synchronisées') + str('hello', 'Bonjour')),
  [`${res}/values-it/strings.xml`]: xml(str('sync', '%1$d di %2$d sincronizzate') + str('hello', 'Ciao')),
};

async function committed(files: Record<string, string>, fn: (repo: TempRepo) => Promise<void>): Promise<void> {
  await withGitRepo({ 'loopgates.yaml': NO_SECRETS, ...files }, async (repo) => {
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'base');
    await fn(repo);
  });
}

/** `loopgates run` (staged) in `repo`, as json and as text; checks nothing was written. */
async function judge(repo: TempRepo, verb = run) {
  const before = treeAndIndexDigest(repo.dir, ['.loopgates']);
  const j = await runVerbIn(verb, repo.dir, ['--format', 'json']);
  const t = await runVerbIn(verb, repo.dir, []);
  expect(treeAndIndexDigest(repo.dir, ['.loopgates'])).toBe(before);
  expect(t.code).toBe(j.code);
  const results = (JSON.parse(j.stdout) as { results: GateResult[] }).results;
  const of = (id: string) => results.find((r) => r.gate === id)!;
  return { code: j.code, text: t.stdout, of, spots: (id: string) => of(id).findings.map((f) => `${f.file}:${f.line} ${f.rule}`) };
}

describe('a staged commit is judged by what it introduces', () => {
  it('old errors in untouched translations do not refuse a base change that adds a key; they are summarised in one line', async () => {
    await committed({ [base]: BASE, ...TRANSLATIONS }, async (repo) => {
      repo.write(base, BASE.replace('</resources>', `${str('bye', 'Bye')}</resources>`));
      repo.git('add', base);
      const r = await judge(repo);
      expect(r.code).toBe(0);
      const sp = r.of('string-parity');
      expect(sp.verdict).toBe('pass');
      // What the commit brings: the new key no translation has (a warning by default).
      expect(r.spots('string-parity')).toEqual([`${base}:5 missing-key`]);
      expect(sp.staged).toEqual({ policy: 'introduced', preExisting: { errors: 2, warnings: 0, files: [`${res}/values-ca/strings.xml`, `${res}/values-fi/strings.xml`] }, head: 'run' });
      expect(r.text).toMatch(/^string-parity +pass +scanned 6 files, .*1 finding, 2 more already in HEAD \(not introduced by this commit: not counted\)$/m);
      expect(r.text).toContain(`  2 errors already in HEAD, in values-ca, values-fi: \`${LOOPGATES} run --gate string-parity --staged-policy all\` lists them while this change is staged`);
      // Never one by one: no line of the report names the old findings' files.
      expect(r.text).not.toMatch(/values-ca\/strings\.xml:\d/);
      // run --all keeps reporting everything.
      const all = await runVerbIn(run, repo.dir, ['--all', '--gate', 'string-parity', '--format', 'json']);
      const allSp = (JSON.parse(all.stdout) as { results: GateResult[] }).results[0]!;
      expect(allSp.findings.filter((f) => f.rule === 'placeholder-mismatch').map((f) => f.file)).toEqual([`${res}/values-ca/strings.xml`, `${res}/values-fi/strings.xml`]);
    });
  });

  it('the same base change is refused for what it leaves a translation without (missing-key as an error), not for an old missing key', async () => {
    const yaml = `${NO_SECRETS}  string-parity:\n    rules:\n      missing-key: error\n`;
    // values-it already lacks `hello`: an old missing key, refused by --all but not by this commit.
    const it = { ...TRANSLATIONS, [`${res}/values-it/strings.xml`]: xml(str('sync', '%1$d di %2$d sincronizzate')) };
    await committed({ 'loopgates.yaml': yaml, [base]: BASE, ...it }, async (repo) => {
      repo.write(base, BASE.replace('</resources>', `${str('bye', 'Bye')}</resources>`));
      repo.git('add', base);
      const r = await judge(repo);
      expect(r.code).toBe(1);
      expect(r.of('string-parity').verdict).toBe('fail');
      expect(r.spots('string-parity')).toEqual([`${base}:5 missing-key`]);
      expect(r.of('string-parity').findings[0]!.message).toBe('`bye` is missing in 5 of 5 locale files: ca, de, fi, fr, it');
      expect(r.of('string-parity').staged?.preExisting).toEqual({ errors: 3, warnings: 0, files: [`${res}/values-ca/strings.xml`, `${res}/values-fi/strings.xml`, base] });
      // A base change that makes one more locale lack an old missing key is the commit's too (a summary's members).
      repo.git('reset', '-q');
      repo.write(`${res}/values-de/strings.xml`, xml(str('sync', '%1$d von %2$d synchronisiert')));
      repo.git('add', `${res}/values-de/strings.xml`);
      const de = await judge(repo);
      expect(de.code).toBe(1);
      expect(de.spots("string-parity")).toEqual([`${res}/values-de/strings.xml:1 missing-key`]);
    });
  });

  it('an old literal in a touched Kotlin file does not refuse a comment edit; a new literal in the same file does', async () => {
    const kt = 'app/src/main/java/org/example/Header.kt';
    const KT = (extra: string) =>
      `package org.example\n\nimport androidx.compose.material3.Text\nimport androidx.compose.runtime.Composable\n${extra}\n@Composable\nfun Header(title: String) {\n    Text("Hello")\n    Text(text = title)\n}\n`;
    await committed({ [kt]: KT(''), [base]: BASE }, async (repo) => {
      repo.write(kt, KT('// The header of every screen.\n// It shows the title.'));
      repo.git('add', kt);
      const c = await judge(repo);
      expect(c.code).toBe(0);
      expect(c.of('hardcoded-strings').verdict).toBe('pass');
      expect(c.of('hardcoded-strings').staged?.preExisting).toEqual({ errors: 1, warnings: 0, files: [kt] });
      expect(c.text).toContain(`  1 error already in HEAD, in app/src/main/java/org/example/Header.kt: \`${LOOPGATES} run --gate hardcoded-strings --staged-policy all\` lists them while this change is staged`);
      // A new literal next to the old one (which moved down two lines) refuses, at the new literal only.
      repo.write(kt, KT('// The header of every screen.\n// It shows the title.').replace('    Text(text = title)', '    Text("Goodbye")\n    Text(text = title)'));
      repo.git('add', kt);
      const n = await judge(repo);
      expect(n.code).toBe(1);
      expect(n.spots('hardcoded-strings')).toEqual([`${kt}:10 hardcoded-text`]);
      expect(n.of('hardcoded-strings').staged?.preExisting.errors).toBe(1);
    });
  });

  it('a new AppKit label in a macOS file is refused at its line; the file\'s old literals stay pre-existing (fresh-user-5 F1, iina)', async () => {
    const swift = 'iina/AboutWindowController.swift';
    // The shape of iina's AboutWindowController.swift: a header comment, then `import Cocoa`.
    const SWIFT = [
      '//',
      '//  AboutWindowController.swift',
      '//  iina',
      '//',
      '//  Created by lhc on 31/12/2016.',
      '//  Copyright © 2016 lhc. All rights reserved.',
      '//',
      '',
      'import Cocoa',
      'import Just',
      '',
      'class AboutWindowController: NSWindowController {',
      '  override func windowDidLoad() {',
      '    versionLabel.stringValue = "\\(version) Build \\(build)"',
      '    buildBranchButton.title = "NIGHTLY " + buildSHA',
      '  }',
      '}',
      '',
    ].join('\n');
    await committed({ [swift]: SWIFT }, async (repo) => {
      // What the user ran: sed '0,/^import Cocoa/s//import Cocoa\nlet hcTitle = NSTextField(labelWithString: "…")/'.
      repo.write(swift, SWIFT.replace('import Cocoa\n', 'import Cocoa\nlet hcTitle = NSTextField(labelWithString: "Hello hard-coded world")\n'));
      repo.git('add', swift);
      const r = await judge(repo);
      expect(r.code).toBe(1);
      expect(r.spots('hardcoded-strings')).toEqual([`${swift}:10 hardcoded-text`]);
      expect(r.of('hardcoded-strings').findings[0]!.message).toMatch(/^hard-coded text "Hello hard-coded world" in NSTextField\(labelWithString:\)/);
      // HEAD's blob holds the two old literals (the index also holds the new one): only they are pre-existing.
      expect(r.of('hardcoded-strings').staged?.preExisting).toEqual({ errors: 2, warnings: 0, files: [swift] });
      expect(r.text).toMatch(/^hardcoded-strings +fail +scanned 1 file, 3 strings, 1 finding, 2 more already in HEAD \(not introduced by this commit: not counted\)$/m);
    });
  });

  it('a format call\'s literal passed to toast() in a Kotlin file is refused at its line (fresh-user-6 G1, Fossify Notes)', async () => {
    const kt = 'app/src/main/kotlin/org/fossify/notes/activities/MainActivity.kt';
    // The shape of Fossify Notes' MainActivity.checkFile: resource toasts only, no hard-coded text in HEAD.
    const KT = [
      'package org.fossify.notes.activities',
      '',
      'import java.io.File',
      '',
      'class MainActivity : SimpleActivity() {',
      '    private fun checkFile(path: String, onChecksPassed: (file: File) -> Unit) {',
      '        val file = File(path)',
      '        if (file.length() > 1000 * 1000) {',
      '            toast(R.string.file_too_large)',
      '        } else {',
      '            onChecksPassed(file)',
      '        }',
      '    }',
      '}',
      '',
    ].join('\n');
    for (const edit of ['String.format("%d notes deleted", mNotes.size)', '"%d notes deleted".format(mNotes.size)']) {
      await committed({ [kt]: KT }, async (repo) => {
        repo.write(kt, KT.replace('toast(R.string.file_too_large)', `toast(${edit})`));
        repo.git('add', kt);
        const r = await judge(repo);
        expect(r.code, edit).toBe(1);
        expect(r.spots('hardcoded-strings')).toEqual([`${kt}:9 hardcoded-text`]);
        expect(r.of('hardcoded-strings').findings[0]!.message).toMatch(/^hard-coded text "%d notes deleted" in toast\(\)/);
      });
    }
  });

  it('a widget title given to RemoteViews setText(R.id.…, …) in a Kotlin file is refused at its line (fresh-user-6 G3, Fossify Notes)', async () => {
    const kt = 'app/src/main/kotlin/org/fossify/notes/helpers/MyWidgetProvider.kt';
    // The shape of Fossify Notes' MyWidgetProvider.onUpdate (commons' RemoteViews.setText(id, text) extension).
    const KT = [
      'package org.fossify.notes.helpers',
      '',
      'import android.widget.RemoteViews',
      'import org.fossify.commons.extensions.setText',
      '',
      'class MyWidgetProvider : AppWidgetProvider() {',
      '    override fun onUpdate(context: Context, appWidgetManager: AppWidgetManager, appWidgetIds: IntArray) {',
      '        val views = RemoteViews(context.packageName, R.layout.widget)',
      '        views.setText(R.id.widget_note_title, note?.title ?: "")',
      '    }',
      '}',
      '',
    ].join('\n');
    for (const edit of ['"Untitled note"', 'note?.title ?: "Untitled note"']) {
      await committed({ [kt]: KT }, async (repo) => {
        repo.write(kt, KT.replace('note?.title ?: ""', edit));
        repo.git('add', kt);
        const r = await judge(repo);
        expect(r.code, edit).toBe(1);
        expect(r.spots('hardcoded-strings')).toEqual([`${kt}:9 hardcoded-text`]);
        expect(r.of('hardcoded-strings').findings[0]!.message).toMatch(/^hard-coded text "Untitled note" in setText\(\)/);
      });
    }
  });

  it('a renamed file keeps its old findings pre-existing (git mv, also with an edit)', async () => {
    const from = 'app/src/main/java/org/example/Header.kt';
    const to = 'app/src/main/java/org/example/TopBar.kt';
    const KT = `package org.example\n\nimport androidx.compose.material3.Text\n\nfun Header() {\n    Text("Hello")\n}\n`;
    await committed({ [from]: KT, [base]: BASE }, async (repo) => {
      repo.git('mv', from, to);
      const r = await judge(repo);
      expect(r.code).toBe(0);
      expect(r.of('hardcoded-strings').staged?.preExisting).toEqual({ errors: 1, warnings: 0, files: [to] });
      repo.write(to, KT.replace('fun Header', '// moved\nfun Header'));
      repo.git('add', to);
      const e = await judge(repo);
      expect(e.code).toBe(0);
      expect(e.of('hardcoded-strings').staged?.preExisting.errors).toBe(1);
    });
  });

  it('the "already in HEAD" count equals what the command it names lists (fresh-user-4 F7: 836 against 61)', async () => {
    // Translations lacking old keys: a staged base summarises each lacking key in the base (one finding per key), the
    // tree (`run --all`) one finding per locale, so the tree's listing cannot be the one the count names.
    const keys = ['a', 'b', 'c', 'd', 'e'];
    const full = xml(keys.map((k) => str(k, `Text ${k}`)).join('') + str('sync', 'Synced %1$d of %2$d notes'));
    const lacking = (n: number, sync: string) => xml(keys.slice(n).map((k) => str(k, `Texte ${k}`)).join('') + str('sync', sync));
    const files = {
      [base]: full,
      [`${res}/values-de/strings.xml`]: lacking(3, '%1$d von %2$d'),
      [`${res}/values-fr/strings.xml`]: lacking(4, '%1$d sur %2$d'),
      [`${res}/values-ca/strings.xml`]: lacking(2, 'Sincronitzades %1$d'),
    };
    await committed(files, async (repo) => {
      repo.write(base, full.replace('Text a', 'Text A'));
      repo.git('add', base);
      const r = await judge(repo);
      expect(r.code).toBe(0);
      const sp = r.of('string-parity');
      expect(sp.findings).toEqual([]);
      const pre = sp.staged!.preExisting;
      const said = Number(/0 findings, (\d+) already in HEAD/.exec(r.text)?.[1]);
      expect(said).toBe(pre.errors + pre.warnings);
      const named = new RegExp(`\`${LOOPGATES} run ([^\`]+)\` lists them`).exec(r.text)?.[1];
      expect(named).toBeDefined();
      const listed = await runVerbIn(run, repo.dir, [...named!.split(' '), '--format', 'json']);
      const findings = (JSON.parse(listed.stdout) as { results: GateResult[] }).results.find((x) => x.gate === 'string-parity')!.findings;
      expect(findings.length).toBe(said);
      expect(findings.filter((f) => f.severity === 'error').length).toBe(pre.errors);
      // The flag judges a staged run only; an unknown policy is refused.
      const tree = await runVerbIn(run, repo.dir, ['--all', '--staged-policy', 'all']);
      expect([tree.code, tree.stderr]).toEqual([2, expect.stringContaining('--staged-policy judges a staged run: it does not go with --all or --files')]);
      const bad = await runVerbIn(run, repo.dir, ['--staged-policy', 'none']);
      expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining("unknown --staged-policy 'none' (use introduced, touched or all)")]);
    });
  });

  it('a String Catalog key staged with only the source language is a missing-key warning, as a new Android base key is (fresh-user F5, IceCubesApp)', async () => {
    // Shaped like IceCubesApp's Localizable.xcstrings (Xcode writes `" : "`): every key translated into de and fr,
    // one old key that already lacks fr (a gap of HEAD's, not this commit's).
    const cat = 'App/Localizable.xcstrings';
    const unit = (value: string) => ({ stringUnit: { state: 'translated', value } });
    const strings: Record<string, unknown> = {
      'account.follow': { localizations: { de: unit('Folgen'), en: unit('Follow'), fr: unit('Suivre') } },
      'account.old': { localizations: { de: unit('Alt'), en: unit('Old') } },
      'settings.title': { localizations: { de: unit('Einstellungen'), en: unit('Settings'), fr: unit('Réglages') } },
    };
    const xcstrings = (s: Record<string, unknown>) => `${JSON.stringify({ sourceLanguage: 'en', strings: s, version: '1.0' }, null, 2).replace(/": /g, '" : ')}\n`;
    await committed({ [cat]: xcstrings(strings) }, async (repo) => {
      const staged = xcstrings({ ...strings, 'Built with love': { localizations: { en: unit('Built with love') } } });
      repo.write(cat, staged);
      repo.git('add', cat);
      const r = await judge(repo);
      expect(r.code).toBe(0);
      const sp = r.of('string-parity');
      expect(sp.verdict).toBe('pass');
      // At the key's source-language entry, the line the base's other findings use.
      const at = staged.split('\n').findIndex((l, i, all) => l.includes('"en" : {') && all[i - 2]?.includes('"Built with love" : {')) + 1;
      expect(r.spots('string-parity')).toEqual([`${cat}:${at} missing-key`]);
      expect(sp.findings.map((f) => [f.severity, f.message])).toEqual([['warning', '`Built with love` is missing in 2 of 2 locales: de, fr']]);
      // The old gap (account.old lacks fr) is HEAD's: summarised, not counted.
      expect(sp.staged).toEqual({ policy: 'introduced', preExisting: { errors: 0, warnings: 1, files: [cat] }, head: 'run' });
      // A commit that takes a translation away from an old key brings that gap too.
      const { fr: _gone, ...withoutFr } = (strings['settings.title'] as { localizations: Record<string, unknown> }).localizations;
      repo.write(cat, xcstrings({ ...strings, 'settings.title': { localizations: withoutFr } }));
      repo.git('add', cat);
      const dropped = await judge(repo);
      expect(dropped.of('string-parity').findings.map((f) => f.message)).toEqual(['`settings.title` is missing in 1 of 2 locales: fr']);
    });
  });

  it('fingerprints: a placeholder error whose translation text changed is introduced; one whose line moved is not', async () => {
    const ca = `${res}/values-ca/strings.xml`;
    await committed({ [base]: BASE, ...TRANSLATIONS }, async (repo) => {
      // Lines above the old error: it moves down two lines and stays pre-existing. (Comments, not keys: a key the
      // base lacks is missing-default since fresh6 F3.)
      repo.write(ca, xml('    <!-- Sincronització -->\n    <!-- Salutacions -->\n' + str('sync', 'Sincronitzades %1$d') + str('hello', 'Hola')));
      repo.git('add', ca);
      const moved = await judge(repo);
      expect(moved.code).toBe(0);
      expect(moved.of('string-parity').staged?.preExisting.errors).toBe(1);
      // The same error in reworded text: the commit wrote it.
      repo.write(ca, xml(str('sync', 'Notes sincronitzades: %1$d') + str('hello', 'Hola')));
      repo.git('add', ca);
      const reworded = await judge(repo);
      expect(reworded.code).toBe(1);
      expect(reworded.spots('string-parity')).toEqual([`${ca}:3 placeholder-mismatch`]);
    });
  });
});

/** A toy gate whose run throws when a file holds CRASH (so HEAD's side can be made to fail). */
const crashy: Gate<any> = (() => {
  const g = toyGate('toy', '.txt');
  return {
    ...g,
    run: async (ctx, inputs) => {
      for (const p of inputs) if ((await ctx.ws.readText(p)).includes('CRASH')) throw new Error(`cannot read ${p}`);
      return g.run(ctx, inputs);
    },
  };
})();
const toyRun = makeRunVerb({ gates: [crashy] });
const lines = (...xs: string[]) => `${xs.join('\n')}\n`;

describe('staged policies, multiset matching, HEAD cache, fallback, initial commit', () => {
  const setup = async (yaml: string, fn: (repo: TempRepo) => Promise<void>) =>
    withGitRepo({ 'loopgates.yaml': yaml, 'a.txt': lines('one', BAD, 'two', BAD), 'b.txt': lines(BAD) }, async (repo) => {
      repo.git('add', '-A');
      repo.git('commit', '-q', '-m', 'base');
      await fn(repo);
    });

  it('two identical old findings and a new third are one introduced finding, at the new line', async () => {
    await setup('version: 1\n', async (repo) => {
      repo.write('a.txt', lines('zero', 'one', BAD, BAD, 'two', BAD));
      repo.git('add', 'a.txt');
      const r = await judge(repo, toyRun);
      expect(r.code).toBe(1);
      expect(r.spots('toy')).toEqual(['a.txt:4 bad-word']);
      expect(r.of('toy').staged).toMatchObject({ policy: 'introduced', preExisting: { errors: 2, warnings: 0, files: ['a.txt'] } });
    });
  });

  it('each policy: introduced passes an edit beside old findings, touched and all refuse it; touched spares an untouched file', async () => {
    for (const [yaml, code, counted] of [
      ['version: 1\n', 0, []],
      ['version: 1\nstaged: touched\n', 1, ['a.txt:3 bad-word', 'a.txt:5 bad-word']],
      ['version: 1\nstaged: touched\ngates:\n  toy:\n    staged: all\n', 1, ['a.txt:3 bad-word', 'a.txt:5 bad-word']],
      ['version: 1\ngates:\n  toy:\n    staged: all\n', 1, ['a.txt:3 bad-word', 'a.txt:5 bad-word']],
    ] as const) {
      await setup(yaml, async (repo) => {
        repo.write('a.txt', lines('zero', 'one', BAD, 'two', BAD));
        repo.git('add', 'a.txt');
        const r = await judge(repo, toyRun);
        expect([yaml, r.code, r.spots('toy')]).toEqual([yaml, code, counted]);
      });
    }
  });

  it('explain states the policy in force for each gate', async () => {
    await setup('version: 1\nstaged: touched\n', async (repo) => {
      const { makeExplainVerb } = await import('../../commands/index.js');
      const t = await runVerbIn(makeExplainVerb({ gates: [crashy] }), repo.dir, []);
      expect(t.stdout).toContain('  staged touched: a commit is refused for the findings it brings and for every finding in a file it changes');
      const j = await runVerbIn(makeExplainVerb({ gates: [crashy] }), repo.dir, ['--format', 'json']);
      expect((JSON.parse(j.stdout) as { gates: Array<{ staged: string }> }).gates.map((g) => g.staged)).toEqual(['touched']);
    });
  });

  it('a second commit on the same base judges HEAD from the cache', async () => {
    await setup('version: 1\n', async (repo) => {
      repo.write('a.txt', lines('one', BAD, 'two', BAD, BAD));
      repo.git('add', 'a.txt');
      const first = await runVerbIn(toyRun, repo.dir, ['--format', 'json']);
      expect((JSON.parse(first.stdout) as { results: GateResult[] }).results[0]!.staged?.head).toBe('run');
      repo.write('a.txt', lines(BAD, 'one', BAD, 'two', BAD));
      repo.git('add', 'a.txt');
      const second = await runVerbIn(toyRun, repo.dir, ['--format', 'json']);
      const r = (JSON.parse(second.stdout) as { results: GateResult[] }).results[0]!;
      expect([second.code, r.staged?.head, r.findings.map((f) => f.line)]).toEqual([1, 'cache', [1]]);
      // Another base is another key: after a commit HEAD is judged again.
      repo.git('commit', '-q', '-m', 'second', '--no-verify');
      repo.write('b.txt', lines(BAD, 'ok'));
      repo.git('add', 'b.txt');
      const third = await runVerbIn(toyRun, repo.dir, ['--format', 'json']);
      expect((JSON.parse(third.stdout) as { results: GateResult[] }).results[0]!.staged?.head).toBe('run');
    });
  });

  it("HEAD's side failing does not fail open: the commit is judged with staged: all and the note says why", async () => {
    await withGitRepo({ 'loopgates.yaml': 'version: 1\n', 'a.txt': lines('CRASH', BAD) }, async (repo) => {
      repo.git('add', '-A');
      repo.git('commit', '-q', '-m', 'base');
      repo.write('a.txt', lines('fixed', BAD));
      repo.git('add', 'a.txt');
      const r = await judge(repo, toyRun);
      expect(r.code).toBe(1);
      expect(r.spots('toy')).toEqual(['a.txt:2 bad-word']);
      expect(r.of('toy').staged).toMatchObject({ policy: 'all', fallback: 'error: toy crashed: cannot read a.txt' });
      expect(r.text).toContain("warning: HEAD's side of toy could not be judged (error: toy crashed: cannot read a.txt), so this commit is judged with staged: all (every finding counts), not staged: introduced");
    });
  });

  it('the initial commit has nothing pre-existing', async () => {
    await withGitRepo({ 'loopgates.yaml': 'version: 1\n', 'a.txt': lines(BAD) }, async (repo) => {
      repo.git('add', '-A');
      const r = await judge(repo, toyRun);
      expect(r.code).toBe(1);
      expect(r.spots('toy')).toEqual(['a.txt:1 bad-word']);
      expect(r.of('toy').staged).toEqual({ policy: 'introduced', preExisting: { errors: 0, warnings: 0, files: [] }, head: 'none' });
    });
  });

  it('a staged text report prints at most 20 findings per gate, errors first, and says how many were left out', async () => {
    const warnAll: Gate<any> = {
      ...toyGate('toy', '.txt'),
      configSchema: z.object({}).strict(),
      run: async (ctx, inputs) => {
        const findings = [];
        for (const p of inputs) {
          const ls = (await ctx.ws.readText(p)).split('\n');
          for (const [i, l] of ls.entries()) if (l.startsWith('w')) findings.push({ rule: 'w', file: p, line: i + 1, column: 1, message: `warn ${l}`, severity: 'warning' as const });
          for (const [i, l] of ls.entries()) if (l.startsWith('e')) findings.push({ rule: 'e', file: p, line: i + 1, column: 1, message: `err ${l}`, severity: 'error' as const });
        }
        return { findings, counts: { files: inputs.length } };
      },
    };
    await withGitRepo({ 'loopgates.yaml': 'version: 1\n', 'a.txt': 'x\n' }, async (repo) => {
      repo.git('add', '-A');
      repo.git('commit', '-q', '-m', 'base');
      repo.write('a.txt', lines(...Array.from({ length: 30 }, (_, i) => `w${i}`), 'e1', 'e2'));
      repo.git('add', 'a.txt');
      const t = await runVerbIn(makeRunVerb({ gates: [warnAll] }), repo.dir, []);
      const shown = t.stdout.split('\n').filter((l) => /^ {2}a\.txt:\d+:1 /.test(l));
      expect(shown).toHaveLength(20);
      expect(shown.slice(0, 2).map((l) => l.split(' ')[2])).toEqual(['a.txt:31:1', 'a.txt:32:1']);
      expect(t.stdout).toContain(`  … 12 more findings not shown: \`${LOOPGATES} run --gate toy --format json\` lists every one`);
      const j = await runVerbIn(makeRunVerb({ gates: [warnAll] }), repo.dir, ['--format', 'json']);
      expect((JSON.parse(j.stdout) as { results: GateResult[] }).results[0]!.findings).toHaveLength(32);
      // `--staged-policy` is asked for the list (the pre-existing summary names it): every finding is printed.
      const every = await runVerbIn(makeRunVerb({ gates: [warnAll] }), repo.dir, ['--staged-policy', 'all']);
      expect(every.stdout.split('\n').filter((l) => /^ {2}a\.txt:\d+:1 /.test(l))).toHaveLength(32);
      expect(every.stdout).not.toContain('not shown');
    });
  });
});
