// A command gate's self-test failure must not hide the commit's findings (issue 14, item 9). When a command gate's
// files change, the hook re-runs its self-test with the files as they are as the clean case; a real lint error then
// showed only as "self-test … UNPROVEN (noisy)", and a credential staged in the same commit was never reported.
// Real git commits through a real hook, real gitleaks, a real sh linter.
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtinGates } from '../../gates/registry.js';
import { repoRoot } from '../helpers/setup-env.js';
import { assertBuilt, fakeAwsKeyId, withSandbox, type Sandbox } from './install-support.js';

const bin = join(repoRoot, 'bin', 'loopgates.js');
const off = builtinGates.filter((g) => g.id !== 'secrets').flatMap((g) => [`  ${g.id}:`, '    enabled: false']);
/** A linter: `path:line: …` for every line holding `var `, exit 1. */
const lint = 'bad=0\nfor f in src/*.js; do\n  if grep -Hn "var " "$f"; then bad=1; fi\ndone\nexit $bad\n';
const config = (mutation: string) =>
  [
    'version: 1',
    'gates:',
    '  secrets: {}',
    ...off,
    'commands:',
    '  - id: lint',
    '    command: [sh, scripts/lint.sh]',
    '    loop: {runs: the team linter, reads: src js, ends: one pass; exit 0 passes, asks: never}',
    '    files: ["src/**/*.js"]',
    '    timeoutMs: 60000',
    '    mutations:',
    `      - ${mutation}`,
    '',
  ].join('\n');

function installTestHook(s: Sandbox): void {
  s.repo.write('.git/hooks/pre-commit', `#!/bin/sh\nexec node "${bin}" hook pre-commit\n`);
  chmodSync(join(s.repo.dir, '.git', 'hooks', 'pre-commit'), 0o755);
}

describe('the commit is judged whatever a command gate self-test says', () => {
  beforeAll(assertBuilt);

  it('a lint error and a credential in one commit: the lint finding and the credential are both reported (exit 1)', async () => {
    const files = { 'loopgates.yaml': config('{file: src/a.js, append: "var x = 1;"}'), 'scripts/lint.sh': lint, 'src/a.js': 'const a = 1;\n' };
    await withSandbox(files, async (s) => {
      installTestHook(s);
      const key = fakeAwsKeyId();
      // The lint error is the user's own content: in the index and in the working tree, so also in the self-test's clean case.
      s.repo.write('src/a.js', 'const a = 1;\nvar b = 2;\n');
      s.repo.write('deploy.env', `AWS_ACCESS_KEY_ID=${key}\n`);
      s.repo.git('add', '-A');
      const r = s.gitRun(['commit', '-q', '-m', 'lint error and a credential']);
      expect(r.status).toBe(1);
      expect(r.output).toMatch(/secrets\s+fail/);
      expect(r.output).toContain('deploy.env:1');
      expect(r.output).toMatch(/lint\s+fail/);
      expect(r.output).toContain('src/a.js:2');
      expect(r.output).not.toContain('UNPROVEN');
      expect(r.output).toContain("self-test of gate lint not judged: its clean case (src/a.js as it is) fails");
      expect(r.output).toContain('refused: a gate failed (exit 1)');
      expect(r.output).not.toContain(key);
    });
  });

  it('a self-test that fails for another reason still refuses (exit 2), and the credential is reported too', async () => {
    // The mutation adds nothing the linter sees: the red case is missed, so the gate is unproven.
    const files = { 'loopgates.yaml': config('{file: src/a.js, append: "// fine"}'), 'scripts/lint.sh': lint, 'src/a.js': 'const a = 1;\n' };
    await withSandbox(files, async (s) => {
      installTestHook(s);
      s.repo.write('src/a.js', 'const a = 2;\n');
      s.repo.write('deploy.env', `AWS_ACCESS_KEY_ID=${fakeAwsKeyId()}\n`);
      s.repo.git('add', '-A');
      const r = s.gitRun(['commit', '-q', '-m', 'unproven gate and a credential']);
      expect(r.status).toBe(1);
      expect(r.output).toMatch(/self-test of gate lint is UNPROVEN: case 'append#0[^']*' missed/);
      expect(r.output).toMatch(/secrets\s+fail/);
      expect(r.output).toContain('deploy.env:1');
      expect(r.output).toContain('(exit 2)');
    });
  });
});
