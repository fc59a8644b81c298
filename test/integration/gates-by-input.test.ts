// Which gates run where: install enables the built-in gates whose inputs it finds (each gate's own inputs() over the
// repository as run --all reads it) and names the ones it left off and why; doctor runs the same discovery, so it is
// not healthy while an enabled gate would make run --all vacuous. Red before: install enabled every gate, doctor said
// healthy, and run --all exited 2 (vacuous) in a repository with no recognised platform.
import { describe, expect, it } from 'vitest';
import { builtinGates } from '../../gates/registry.js';
import { inTempRepo, runVerb } from '../helpers/cli.js';
import { assertBuilt } from './install-support.js';

const KOTLIN_UI = 'app/src/main/java/org/example/Main.kt';

describe('gates by input', () => {
  it('in a repository with no recognised platform: only secrets is enabled, doctor is healthy, run --all passes', async () => {
    assertBuilt();
    await inTempRepo({ 'README.md': '# notes\n', 'docs/howto.md': 'steps\n' }, async (s) => {
      const install = await runVerb(s, ['install', '--no-proof']);
      expect(install.exit, install.stderr).toBe(0);
      expect(install.stdout).toContain('enabled: secrets\n');
      const leftOff = builtinGates.filter((g) => g.id !== 'secrets').map((g) => g.id);
      for (const id of leftOff) expect(install.stdout).toMatch(new RegExp(`^left off: ${id}: no input in this repository \\(it reads: .+\\) \\(gates\\.${id}\\.enabled: false\\)$`, 'm'));
      for (const id of leftOff) expect(s.repo.read('loopgates.yaml')).toMatch(new RegExp(`^  ${id}:\\n    # left off by loopgates install: no input in this repository.*\\n    enabled: false$`, 'm'));
      const doctor = await runVerb(s, ['doctor']);
      expect(doctor.stdout).toMatch(/^ok {7}inputs for every enabled gate: secrets \d+$/m);
      expect(doctor.stdout).toMatch(/^healthy$/m);
      expect(doctor.exit).toBe(0);
      const run = await runVerb(s, ['run', '--all']);
      expect(run.exit, run.stdout).toBe(0);
      expect(run.ledger.map((l) => `${l.gate} ${l.verdict}`)).toEqual(['secrets pass']);
    });
  });

  it('doctor refuses a config that enables a gate with no input here (run --all would be vacuous), naming the fix', async () => {
    await inTempRepo({ 'README.md': '# notes\n', 'loopgates.yaml': 'version: 1\ngates:\n  string-parity:\n    enabled: false\n' }, async (s) => {
      const doctor = await runVerb(s, ['doctor']);
      expect(doctor.stdout).toMatch(/^PROBLEM {2}hardcoded-strings is enabled but has no input in this repository \(it reads: .+\): loopgates run --all is vacuous \(exit 2\)$/m);
      expect(doctor.stdout).toContain('fix: set gates.hardcoded-strings.enabled: false in loopgates.yaml (or allowEmpty: "<why zero inputs is fine>")');
      expect(doctor.stdout).toMatch(/^info {5}off: string-parity \(gates\.string-parity\.enabled: false\)$/m);
      expect(doctor.stdout).not.toMatch(/^healthy$/m);
      expect(doctor.exit).toBe(2);
      expect(doctor.untouched).toBe(true);
    });
  });

  it('install enables a gate once the repository holds its input (Kotlin UI code: hardcoded-strings on)', async () => {
    await inTempRepo({ 'README.md': '# notes\n', [KOTLIN_UI]: 'fun main() = println(1)\n' }, async (s) => {
      const install = await runVerb(s, ['install', '--no-proof']);
      expect(install.exit, install.stderr).toBe(0);
      expect(install.stdout).toContain('enabled: secrets, hardcoded-strings\n');
      expect(install.stdout).toMatch(/^left off: string-parity: /m);
      expect(install.stdout).not.toMatch(/^left off: hardcoded-strings/m);
    });
  });
});
