// fresh-user 2026-12-04 F4: a commit is judged by the index, but a command gate's self-test built its cases from the
// working tree, so an unstaged edit in a file the gate reads made the green case fail ("noisy … UNPROVEN", exit 2)
// and refused an unrelated commit, while the gate's own judgement of the commit passed. The cases now read a
// tracked file as staged. Real hook run, real git, real sh.
import { describe, expect, it } from 'vitest';
import { inTempRepo, runVerb } from '../helpers/cli.js';
import { assertBuilt } from './install-support.js';

const strings = '<resources>\n  <string name="a">Hello</string>\n</resources>\n';
const YAML = [
  'version: 1',
  'gates:',
  '  secrets: {enabled: false}',
  '  hardcoded-strings: {enabled: false}',
  '  string-parity: {enabled: false}',
  '  maestro-flows: {enabled: false}',
  '  dump-audit: {enabled: false}',
  'commands:',
  '  - id: no-todo',
  '    command: [sh, scripts/no-todo.sh]',
  '    loop: {runs: a team script, reads: res/values/strings.xml, ends: one pass, asks: never}',
  '    files: ["res/**/*.xml", "scripts/no-todo.sh"]',
  '    mutations:',
  '      - file: res/values/strings.xml',
  '        replace: {from: "Hello", to: "TODO"}',
  '',
].join('\n');
const base = { 'loopgates.yaml': YAML, 'res/values/strings.xml': strings, 'scripts/no-todo.sh': 'if grep -Hn TODO res/values/strings.xml; then exit 1; fi\necho OK\n', 'README.md': 'x\n' };

describe('a command gate self-test reads what the commit stages, not unstaged edits', () => {
  it('green: an unstaged TODO in a file the gate reads does not refuse a commit staging its script; red: the staged TODO does', async () => {
    assertBuilt();
    await inTempRepo(base, async (s) => {
      s.repo.write('scripts/no-todo.sh', 'if grep -Hn TODO res/values/strings.xml; then exit 1; fi\necho OK   # checked\n');
      s.repo.git('add', 'scripts/no-todo.sh');
      s.repo.write('res/values/strings.xml', strings.replace('Hello', 'TODO later'));
      const r = await runVerb(s, ['hook', 'pre-commit']);
      const out = r.stdout + r.stderr;
      expect(out).not.toContain('UNPROVEN');
      expect(out).toMatch(/no-todo +pass/);
      expect(r.exit, out).toBe(0);
      expect(r.untouched).toBe(true);
      s.repo.git('add', 'res/values/strings.xml');
      const refused = await runVerb(s, ['hook', 'pre-commit']);
      expect(refused.stdout + refused.stderr).toMatch(/no-todo +fail/);
      expect(refused.exit).toBe(1);
    });
  });
});
