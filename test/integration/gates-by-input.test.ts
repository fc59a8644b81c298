// Which gates run where: install enables every built-in gate; a gate whose own input discovery (its inputs() over the
// repository as run --all reads it) finds nothing yet is written with install's allowEmpty, so run --all says `skip`
// with that reason (not `vacuous`, never `pass`) and the first commit that adds its inputs is judged. doctor runs the
// same discovery over every gate: an enabled gate that would make run --all vacuous, or an off gate whose inputs now
// exist, is a PROBLEM. Red before (item 13): install enabled every gate and run --all exited 2 (vacuous); then
// (fresh-user-3 F10) install left the l10n gates off, a later commit adding catalogs landed unchecked, and doctor
// said healthy.
import { describe, expect, it } from 'vitest';
import { builtinGates } from '../../gates/registry.js';
import { inTempRepo, runVerb } from '../helpers/cli.js';
import { assertBuilt, head, letGitRefreshIndex } from './install-support.js';
import { LOOPGATES, LOOPGATES_RE } from '../helpers/setup-env.js';

const KOTLIN_UI = 'app/src/main/java/org/example/Main.kt';

describe('gates by input', () => {
  it('in a repository with no recognised platform: every gate on, those with no input say skip (not pass), doctor is healthy, run --all passes', async () => {
    assertBuilt();
    await inTempRepo({ 'README.md': '# notes\n', 'docs/howto.md': 'steps\n' }, async (s) => {
      const install = await runVerb(s, ['install', '--no-proof']);
      expect(install.exit, install.stderr).toBe(0);
      expect(install.stdout).toContain(`enabled: ${builtinGates.map((g) => g.id).join(', ')}\n`);
      const waiting = builtinGates.filter((g) => g.id !== 'secrets').map((g) => g.id);
      for (const id of waiting) expect(install.stdout).toMatch(new RegExp(`^no input yet: ${id}: no input in this repository \\(it reads: .+\\); it stays on, so the commit that adds some is judged \\(run --all skips it until then: gates\\.${id}\\.allowEmpty\\)$`, 'm'));
      expect(install.stdout).not.toMatch(/^no input yet: secrets/m);
      for (const id of waiting) expect(s.repo.read('loopgates.yaml')).toMatch(new RegExp(`^  ${id}:\\n(?:    #.*\\n)+    enabled: true\\n    allowEmpty: "no input in this repository when loopgates install ran; the first commit that adds some is judged"$`, 'm'));
      expect(s.repo.read('loopgates.yaml')).not.toMatch(/enabled: false/);
      const doctor = await runVerb(s, ['doctor']);
      expect(doctor.stdout).toMatch(/^ok {7}inputs for every enabled gate: secrets \d+, hardcoded-strings 0 \(allowEmpty: no input in this repository when/m);
      expect(doctor.stdout).toMatch(/^healthy$/m);
      expect(doctor.exit).toBe(0);
      const run = await runVerb(s, ['run', '--all']);
      expect(run.exit, run.stdout).toBe(0);
      expect(run.ledger.map((l) => `${l.gate} ${l.verdict}`)).toEqual(['secrets pass', ...waiting.map((id) => `${id} skip`)]);
      expect(run.stdout).toMatch(/^string-parity +skip .*no inputs; allowed by allowEmpty: no input in this repository when loopgates install ran/m);
    });
  });

  it('fresh-user-3 F10: installed before any catalog, the commit that adds catalogs with a defect is refused (real hook, real git)', async () => {
    assertBuilt();
    await inTempRepo({ 'README.md': '# notes\n' }, async (s) => {
      expect((await runVerb(s, ['install', '--no-proof'])).exit).toBe(0);
      s.repo.git('add', '-A');
      s.repo.git('commit', '-q', '-m', 'loopgates');
      s.repo.write('app/src/main/res/values/strings.xml', '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="greeting">Hello, %1$s!</string>\n</resources>\n');
      s.repo.write('app/src/main/res/values-de/strings.xml', '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="greeting">Hallo!</string>\n</resources>\n');
      s.repo.git('add', '-A');
      letGitRefreshIndex(s);
      const before = head(s);
      const r = s.gitRun(['commit', '-m', 'strings: greeting']);
      expect(r.status, r.output).toBe(1);
      expect(head(s)).toBe(before);
      expect(r.output).toMatch(/^  app\/src\/main\/res\/values-de\/strings\.xml:3:5  placeholder-mismatch /m);
    });
  });

  it('fresh-user-3 F10: doctor reports an off gate whose inputs now exist as a PROBLEM, with the fix', async () => {
    // The config an older install wrote in a repository without catalogs, and the catalogs a later commit added.
    const files = {
      'README.md': '# notes\n',
      'loopgates.yaml': 'version: 1\ngates:\n  string-parity:\n    # left off by loopgates install: no input in this repository\n    enabled: false\n  hardcoded-strings:\n    allowEmpty: "no Kotlin here"\n',
      'app/src/main/res/values/strings.xml': '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="greeting">Hello, %1$s!</string>\n</resources>\n',
      'app/src/main/res/values-de/strings.xml': '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="greeting">Hallo, %1$s!</string>\n</resources>\n',
    };
    await inTempRepo(files, async (s) => {
      const doctor = await runVerb(s, ['doctor']);
      expect(doctor.stdout).toMatch(/^PROBLEM {2}string-parity is off \(gates\.string-parity\.enabled: false\) but this repository now holds 2 files it reads \(app\/src\/main\/res\/values-de\/strings\.xml, app\/src\/main\/res\/values\/strings\.xml\): commits to them land unchecked$/m);
      expect(doctor.stdout).toContain(`fix: set gates.string-parity.enabled: true in loopgates.yaml, then: ${LOOPGATES} run --all --gate string-parity`);
      expect(doctor.stdout).not.toMatch(/^healthy$/m);
      expect(doctor.exit).toBe(2);
      expect(doctor.untouched).toBe(true);
    });
  });

  it('doctor refuses a config that enables a gate with no input here (run --all would be vacuous), naming the fix', async () => {
    await inTempRepo({ 'README.md': '# notes\n', 'loopgates.yaml': 'version: 1\ngates:\n  string-parity:\n    enabled: false\n' }, async (s) => {
      const doctor = await runVerb(s, ['doctor']);
      expect(doctor.stdout).toMatch(new RegExp(String.raw`^PROBLEM {2}hardcoded-strings is enabled but has no input in this repository \(it reads: .+\): ${LOOPGATES_RE} run --all is vacuous \(exit 2\)$`, 'm'));
      expect(doctor.stdout).toContain('fix: set gates.hardcoded-strings.enabled: false in loopgates.yaml (or allowEmpty: "<why zero inputs is fine>")');
      expect(doctor.stdout).toMatch(/^info {5}off: string-parity \(gates\.string-parity\.enabled: false\); it would read nothing here$/m);
      expect(doctor.stdout).not.toMatch(/^healthy$/m);
      expect(doctor.exit).toBe(2);
      expect(doctor.untouched).toBe(true);
    });
  });

  it('install says which gates have input (Kotlin UI code: hardcoded-strings has, string-parity has none yet)', async () => {
    await inTempRepo({ 'README.md': '# notes\n', [KOTLIN_UI]: 'fun main() = println(1)\n' }, async (s) => {
      const install = await runVerb(s, ['install', '--no-proof']);
      expect(install.exit, install.stderr).toBe(0);
      expect(install.stdout).toMatch(/^no input yet: string-parity: /m);
      expect(install.stdout).not.toMatch(/^no input yet: hardcoded-strings/m);
      expect(s.repo.read('loopgates.yaml')).toMatch(/^  hardcoded-strings:\n    enabled: true\n    # timeoutMs/m);
    });
  });

  it('doctor: once a gate install found empty has inputs, an info line says its allowEmpty can go', async () => {
    await inTempRepo({ 'README.md': '# notes\n' }, async (s) => {
      expect((await runVerb(s, ['install', '--no-proof'])).exit).toBe(0);
      s.repo.write(KOTLIN_UI, 'fun main() = println(1)\n');
      const doctor = await runVerb(s, ['doctor']);
      expect(doctor.stdout).toMatch(/^info {5}hardcoded-strings has 1 input now: its allowEmpty from install can go \(gates\.hardcoded-strings\.allowEmpty\)/m);
      expect(doctor.exit).toBe(0);
    });
  });
});
