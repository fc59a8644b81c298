// The gate kit's test helpers (test/helpers/gate.ts, test/helpers/cli.ts) and core helpers (core/inputs.ts), as a
// gate author uses them.
import { describe, expect, it } from 'vitest';
import { LoopgatesError } from '../../core/errors.js';
import { excludeMatcher, outputFolderExcludes, removedEveryNote, selectInputs } from '../../core/inputs.js';
import { hardcodedStringsGate } from '../../gates/hardcoded-strings/index.js';
import { errorsAt, runGateOver } from '../helpers/gate.js';
import { runVerbInRepo } from '../helpers/cli.js';
import { builtinGates } from '../../gates/registry.js';

const LAYOUT = 'app/src/main/res/layout/main.xml';
const layout = (text: string) => `<LinearLayout xmlns:android="http://schemas.android.com/apk/res/android">\n  <TextView android:text="${text}" />\n</LinearLayout>\n`;

describe('runGateOver', () => {
  it('judges a map of files staged, with the defaults or a config', async () => {
    const red = await runGateOver(hardcodedStringsGate, { [LAYOUT]: layout('Hello there') });
    expect(red.verdict).toBe('fail');
    expect(errorsAt(red)).toEqual([`${LAYOUT}:2 hardcoded-text`]);
    const allowed = await runGateOver(hardcodedStringsGate, { [LAYOUT]: layout('Hello there') }, { config: { allow: ['^Hello'] } });
    expect(allowed.verdict).toBe('pass');
    expect(allowed.counts.filtered).toBe(1);
  });
  it('gives skip staged and vacuous in --all when the gate reads nothing', async () => {
    expect((await runGateOver(hardcodedStringsGate, { 'README.md': '# x\n' })).verdict).toBe('skip');
    expect((await runGateOver(hardcodedStringsGate, { 'README.md': '# x\n' }, { mode: 'all' })).verdict).toBe('vacuous');
    expect((await runGateOver(hardcodedStringsGate, { 'README.md': '# x\n' }, { mode: 'all', allowEmpty: 'no UI here' })).verdict).toBe('skip');
  });
});

describe('core/inputs.ts', () => {
  const globs = { gate: 'toy', include: ['**/*.txt'], exclude: ['vendor/**'], probePaths: ['a.txt', 'docs/b.txt'], probeWhat: 'text files', blindTo: 'a BAD word' };
  it('selects included, not excluded, readable targets', () => {
    expect(selectInputs(['a.txt', 'vendor/c.txt', 'd.md'], globs)).toEqual(['a.txt']);
    expect(selectInputs(['a.txt', 'b.txt'], { ...globs, reads: (p) => p !== 'b.txt' })).toEqual(['a.txt']);
  });
  it('refuses an exclude that matches everything the gate could read, naming the entry', () => {
    const err = (() => {
      try {
        selectInputs(['a.txt'], { ...globs, exclude: ['vendor/**', '**'] });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(LoopgatesError);
    expect((err as Error).message).toBe('gates.toy.exclude[1] "**" excludes every file this gate could read (text files): it can never find a BAD word');
    // An exclude that hides this commit's files but not every kind of file is a quiet skip, not a refusal.
    expect(selectInputs(['vendor/c.txt'], globs)).toEqual([]);
  });
  it('reads an exclude list as .gitignore does: a `!` entry takes back, the last match decides, and never blinds', () => {
    const exc = excludeMatcher(['**/build/**', '!**/src/**/build/**', '**/*.test.kt']);
    expect(['app/build/generated/A.kt', 'app/src/main/kotlin/com/acme/build/A.kt', 'app/src/main/kotlin/com/acme/build/A.test.kt', 'srcx/build/A.kt', 'app/A.kt'].map(exc)).toEqual([true, false, true, true, false]);
    // picomatch alone reads `!x` as "all but x": a lone take-back entry excludes nothing it did not exclude before.
    expect(['a.txt', 'vendor/c.txt'].map(excludeMatcher(['!vendor/**']))).toEqual([false, false]);
    expect(selectInputs(['a.txt'], { ...globs, exclude: ['!a.txt'] })).toEqual(['a.txt']);
    // A blanket with a take-back that leaves a probe path readable is a narrow exclude: a skip, not a refusal.
    expect(selectInputs(['build/a.txt'], { ...globs, exclude: ['**', '!docs/**'] })).toEqual([]);
    expect(() => selectInputs(['build/a.txt'], { ...globs, exclude: ['**', '!src/**'] })).toThrow('gates.toy.exclude[0] "**" excludes every file');
  });
  it('excludes build output folders by name except below a src/ folder', () => {
    expect(outputFolderExcludes('build')).toEqual([
      '**/build/**',
      '!**/src/**/build/**',
      '**/src/**/{android,ios}/**/build/**',
      '**/src/*/assets/**/build/**',
      '!**/src/*/{java,kotlin}/**/build/**',
      '**/build/**/src/**',
    ]);
    const exc = excludeMatcher(outputFolderExcludes('build', 'dist', 'Pods'));
    const paths = ['build/A.kt', 'app/build/intermediates/A.java', 'ios/Pods/X/Y.swift', 'web/dist/main.js', 'src/build/index.ts', 'src/dist/a.ts', 'lib/src/main/java/com/x/build/B.java'];
    expect(paths.filter(exc)).toEqual(['build/A.kt', 'app/build/intermediates/A.java', 'ios/Pods/X/Y.swift', 'web/dist/main.js']);
  });
  it('keeps build output excluded where a src/ folder sits above or below it: only source shapes are taken back', () => {
    const exc = excludeMatcher(outputFolderExcludes('build', 'dist', 'Pods', 'DerivedData'));
    // Output: a src/ below a Pods or build folder, a native project's build folder inside a top-level src/, a web
    // bundle copied into Android assets, DerivedData's own src/ trees.
    const output = [
      'ios/Pods/Firebase/src/build/Gen.swift',
      'ios/Pods/Lib/src/main/java/build/A.java',
      'src/android/app/build/generated/source/buildConfig/debug/B.java',
      'src/ios/build/Build/Products/C.swift',
      'app/src/main/assets/dist/main.js',
      'build/tmp/src/main/kotlin/D.kt',
      'DerivedData/App/src/build/E.swift',
    ];
    // Source: JVM packages named build/dist (also below a platform folder), web src/build, src/dist, a CLI's build command.
    const source = [
      'app/src/main/kotlin/com/acme/build/A.kt',
      'src/android/app/src/main/java/com/acme/build/B.java',
      'src/build/index.ts',
      'src/dist/a.ts',
      'packages/cli/src/commands/build/index.ts',
      'lib/src/main/java/com/x/Pods/C.java',
    ];
    expect(output.filter((p) => !exc(p))).toEqual([]);
    expect(source.filter(exc)).toEqual([]);
  });
  it('says when a filter removed every candidate, and only then', () => {
    expect(removedEveryNote('gates.toy.allow', 'word', 3, 3)).toBe('gates.toy.allow removed every word (3 of 3)');
    expect(removedEveryNote('gates.toy.allow', 'word', 2, 3)).toBeUndefined();
    expect(removedEveryNote('gates.toy.allow', 'word', 0, 0)).toBeUndefined();
  });
});

describe('runVerbInRepo', () => {
  it('runs a verb in a temp repository: exit, stdout, stderr, ledger, nothing written', async () => {
    // Only hardcoded-strings on: every other built-in gate (from the registry) off, so a new gate changes nothing here.
    const yaml = `version: 1\ngates:\n${builtinGates.filter((g) => g.id !== 'hardcoded-strings').map((g) => `  ${g.id}:\n    enabled: false\n`).join('')}`;
    const r = await runVerbInRepo({ 'loopgates.yaml': yaml, [LAYOUT]: layout('Hello there') }, ['run', '--all', '--format', 'json']);
    expect(r.exit).toBe(1);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).results.map((g: { gate: string; verdict: string }) => `${g.gate} ${g.verdict}`)).toContain('hardcoded-strings fail');
    expect(r.ledger.map((l) => `${l.gate} ${l.verdict}`)).toEqual(['hardcoded-strings fail']);
    expect(r.untouched).toBe(true);
  });
});
