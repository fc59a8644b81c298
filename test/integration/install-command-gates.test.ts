// `install` in a repository that already has command gates (issue 14, item 13): the proof's scratch clone checked
// out only the files that steer the hook, so a command gate's self-test found no mutation file ("mutation file …
// does not exist in …/loopgates-proof-…/repo") and the install was rolled back. The clone must hold what the gates
// read, as the user's own working tree has it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtinGates } from '../../gates/registry.js';
import { assertBuilt, withSandbox } from './install-support.js';

const strings = ['<resources>', '  <string name="a">Hello</string>', '</resources>', ''].join('\n');
// Every built-in but secrets off: the proof's canary needs secrets; the rest would only cost time here.
const off = builtinGates.filter((g) => g.id !== 'secrets').flatMap((g) => [`  ${g.id}:`, '    enabled: false']);
const config = (mutationFile: string) =>
  [
    'version: 1',
    'gates:',
    '  secrets: {}',
    ...off,
    'commands:',
    '  - id: no-todo',
    '    command: [sh, scripts/check.sh]',
    '    loop: {runs: a team script, reads: res xml, ends: one pass; exit 0 passes, asks: never}',
    '    files: ["res/**/*.xml"]',
    '    timeoutMs: 60000',
    '    mutations:',
    `      - {file: ${mutationFile}, append: "<!-- TODO -->"}`,
    '',
  ].join('\n');
const check = 'for f in res/values*/strings.xml; do\n  if grep -Hn TODO "$f"; then exit 1; fi\ndone\necho OK\n';

describe('install proves a repository that has command gates', () => {
  beforeAll(assertBuilt);

  it('the proof clone holds the files the command gate and its self-test read: install proves and keeps the hook', async () => {
    const files = { 'loopgates.yaml': config('res/values/strings.xml'), 'res/values/strings.xml': strings, 'scripts/check.sh': check, 'notes.txt': 'x\n' };
    await withSandbox(files, async (s) => {
      const r = await s.cli(['install']);
      const out = r.stdout + r.stderr;
      expect(out).not.toContain('does not exist in');
      expect(out).not.toContain('rolled back');
      expect(r.code).toBe(0);
      expect(existsSync(join(s.repo.dir, '.git', 'hooks', 'pre-commit'))).toBe(true);
      // The installed hook still guards the command gate's files.
      s.repo.write('res/values/strings.xml', strings.replace('Hello', 'TODO'));
      s.repo.git('add', 'res/values/strings.xml');
      s.repo.write('res/values/strings.xml', strings);
      const refused = s.gitRun(['commit', '-q', '-m', 'todo']);
      expect(refused.status).toBe(1);
      expect(refused.output).toMatch(/no-todo\s+fail/);
    });
  });
});
