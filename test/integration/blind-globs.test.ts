// An include glob that matches no tracked file blinds its gate at commit time: every commit was `skip`, exit 0, with
// doctor healthy and selftest PROVEN. Now every run warns, doctor reports a problem and selftest says BLIND.
import { describe, expect, it } from 'vitest';
import { withSandbox } from './install-support.js';
import { ownTmpdir } from '../helpers/own-tmpdir.js';

ownTmpdir('loopgates-blind-');
const SCREEN = 'package com.example\n\nimport androidx.compose.material3.Text\n\nfun Hello() {\n    Text("Welcome back to your notes")\n}\n';

describe('config globs that match no tracked file', () => {
  for (const [name, yaml, glob] of [
    ['a trailing space', 'version: 1\ngates:\n  hardcoded-strings:\n    include: ["app/src/**/*.kt "]\n', 'app/src/**/*.kt '],
    ['a folded YAML scalar', 'version: 1\ngates:\n  hardcoded-strings:\n    include:\n      - >\n        app/src/**/*.kt\n        lib/**/*.kt\n', 'app/src/**/*.kt lib/**/*.kt\n'],
  ] as const) {
    it(`${name}: the hook run warns, doctor has a problem, selftest says BLIND`, async () => {
      await withSandbox({ 'loopgates.yaml': yaml, 'app/src/main/java/com/example/Hello.kt': 'package com.example\n' }, async (s) => {
        s.repo.write('app/src/main/java/com/example/Hello.kt', SCREEN);
        s.repo.git('add', '-A');
        const run = await s.cli(['run', '--gate', 'hardcoded-strings']);
        const out = run.stdout + run.stderr;
        expect(out).toContain(`WARNING hardcoded-strings: include glob ${JSON.stringify(glob)} matches no tracked file`);
        expect(out).toContain('the gate is blind in this repository');
        const doctor = await s.cli(['doctor']);
        expect(doctor.stdout).toContain(`PROBLEM  hardcoded-strings: include glob ${JSON.stringify(glob)} matches no tracked file`);
        expect(doctor.stdout).toContain('fix: correct gates.hardcoded-strings.include in loopgates.yaml');
        const st = await s.cli(['selftest', '--gate', 'hardcoded-strings']);
        expect(st.stdout).toContain(`BLIND in this repository: hardcoded-strings: include glob ${JSON.stringify(glob)}`);
      });
    });
  }

  it('green: an include glob that matches a tracked file says nothing', async () => {
    await withSandbox({ 'loopgates.yaml': 'version: 1\ngates:\n  hardcoded-strings:\n    include: ["app/src/**/*.kt"]\n', 'app/src/main/java/com/example/Hello.kt': 'package com.example\n' }, async (s) => {
      s.repo.write('app/src/main/java/com/example/Hello.kt', SCREEN);
      s.repo.git('add', '-A');
      const run = await s.cli(['run', '--gate', 'hardcoded-strings']);
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).not.toMatch(/matches no tracked file/);
      const doctor = await s.cli(['doctor']);
      expect(doctor.stdout).toContain('ok       loopgates.yaml valid');
    });
  });
});
