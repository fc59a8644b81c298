// A test runner as a command gate (issue 14, item 12): `node --test` prints the failing test file's own file:line,
// never the mutated source line, so the self-test called the red case "wrong" and the gate could never be proven.
// A mutation's `caught:` says what catching is for such a command: a non-zero exit, optionally with output matching
// a pattern. Real node:test, real temp git repositories, the real selftest and mutate verbs.
import { describe, expect, it } from 'vitest';
import { callVerb } from '../helpers/cli.js';
import { makeMutateVerb, makeSelftestVerb } from '../../commands/selftest.js';
import { withGitRepo, type TempRepo } from '../helpers/git-repo.js';

const deps = { gates: [] };
const selftest = makeSelftestVerb(deps);
const mutate = makeMutateVerb(deps);

const call = callVerb;

const testFile = [
  "const test = require('node:test');",
  "const assert = require('node:assert');",
  "const { sum } = require('../src/sum.js');",
  '',
  "test('sum adds', () => {",
  '  assert.strictEqual(sum(2, 3), 5);',
  '});',
  '',
].join('\n');

const repoFiles = (caught: string) => ({
  'src/sum.js': 'exports.sum = (a, b) => a + b;\n',
  'test/sum.test.js': testFile,
  'loopgates.yaml': [
    'version: 1',
    'commands:',
    '  - id: unit-tests',
    '    command: [node, --test, test/sum.test.js]',
    '    loop: {runs: node --test, reads: src and test, ends: one run; exit 0 passes, asks: never}',
    '    files: ["src/**/*.js", "test/**/*.js"]',
    '    timeoutMs: 60000',
    '    mutations:',
    `      - {file: src/sum.js, replace: {from: "a + b", to: "a - b"}${caught}}`,
    '',
  ].join('\n'),
});

async function committed<T>(f: Record<string, string>, fn: (repo: TempRepo) => Promise<T>): Promise<T> {
  return withGitRepo(f, async (repo) => {
    repo.git('add', '-A');
    repo.git('commit', '-q', '--no-verify', '-m', 'init');
    return fn(repo);
  });
}

describe('a test runner as a command gate: caught by its exit code', () => {
  it('caught: {exit: nonzero, pattern}: the red case is caught although node:test names test/sum.test.js, not src/sum.js', async () => {
    await committed(repoFiles(', caught: {exit: nonzero, pattern: "AssertionError|ERR_ASSERTION"}'), async (repo) => {
      const st = await call(selftest, ['--gate', 'unit-tests'], repo);
      expect(st.stdout + st.stderr).toMatch(/unit-tests {2}PROVEN {2}2 cases: 1 clean, 1 caught/);
      expect(st.stdout).toContain('failed with a finding at src/sum.js:1 (rule command)');
      expect(st.code).toBe(0);
      const mu = await call(mutate, ['--format', 'json', '--gate', 'unit-tests'], repo);
      const mutants = JSON.parse(mu.stdout).files['src/sum.js'].mutants;
      expect(mutants.map((m: any) => `${m.mutatorName}@${m.location.start.line}:${m.status}`)).toEqual(['unit-tests/replace#0@1:Killed']);
      expect(mu.code).toBe(0);
    });
  });

  it('without caught: the red case is wrong, and the detail names the caught: setting that fixes it', async () => {
    await committed(repoFiles(''), async (repo) => {
      const st = await call(selftest, ['--gate', 'unit-tests'], repo);
      expect(st.stdout).toMatch(/unit-tests {2}UNPROVEN/);
      expect(st.stdout).toContain('failed, but not at src/sum.js:1 (rule command)');
      expect(st.stdout).toContain('caught: {exit: nonzero}');
      expect(st.code).toBe(1);
    });
  });

  it('a pattern the output does not match: a non-zero exit for another reason is not a catch', async () => {
    await committed(repoFiles(', caught: {exit: nonzero, pattern: "TypeError: sum is not a function"}'), async (repo) => {
      const st = await call(selftest, ['--gate', 'unit-tests'], repo);
      expect(st.stdout).toMatch(/unit-tests {2}UNPROVEN/);
      expect(st.stdout).toContain('its output does not match caught.pattern /TypeError: sum is not a function/');
      expect(st.code).toBe(1);
    });
  });
});
