// Command gates end to end in real temp git repositories: real `sh` scripts, the real selftest/mutate/run verbs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callVerb } from '../helpers/cli.js';
import { makeRunVerb } from '../../commands/run.js';
import { makeMutateVerb, makeSelftestVerb } from '../../commands/selftest.js';
import { liveScratchDirs } from '../../mutations/scratch.js';
import { treeAndIndexDigest, withGitRepo, type TempRepo } from '../helpers/git-repo.js';

const deps = { gates: [] };
const selftest = makeSelftestVerb(deps);
const mutate = makeMutateVerb(deps);
const run = makeRunVerb(deps);

const call = callVerb;

const strings = ['<resources>', '  <string name="a">Hello</string>', '  <string name="b">World</string>', '</resources>', ''].join('\n');
const gateYaml = (id: string, script: string, extra = '') =>
  [
    `  - id: ${id}`,
    `    command: [sh, scripts/${script}]`,
    '    loop: {runs: a team script, reads: res/values*/strings.xml, ends: one pass; exit 0 passes, asks: never}',
    '    files: ["res/**/*.xml"]',
    '    timeoutMs: 10000',
    extra,
  ]
    .filter(Boolean)
    .join('\n');
const files = (commands: string[], scripts: Record<string, string>) => ({
  'loopgates.yaml': ['version: 1', 'commands:', ...commands, ''].join('\n'),
  'res/values/strings.xml': strings,
  'res/values-de/strings.xml': strings.replace('Hello', 'Hallo'),
  ...Object.fromEntries(Object.entries(scripts).map(([k, v]) => [`scripts/${k}`, v])),
});
/** grep -Hn prints file:line:text, so the gate can place its finding. */
const grepScript = 'for f in res/values*/strings.xml; do\n  if grep -Hn TODO "$f"; then exit 1; fi\ndone\necho OK\n';
/** Exits 1 on TODO without saying where. */
const quietScript = 'if grep -q TODO res/values/strings.xml; then exit 1; fi\n';
/** Seed case (3): iterates an empty list, prints OK, always exits 0. */
const emptyListScript = 'files=""\nfor f in $files; do\n  if grep -q TODO "$f"; then exit 1; fi\ndone\necho OK\n';

async function committed<T>(f: Record<string, string>, fn: (repo: TempRepo) => Promise<T>): Promise<T> {
  return withGitRepo(f, async (repo) => {
    repo.git('add', '-A');
    repo.git('commit', '-q', '--no-verify', '-m', 'init');
    return fn(repo);
  });
}

describe('command gates', () => {
  it('a working script: selftest PROVEN, mutate kills every mutation at the spot its output names', async () => {
    const yaml = gateYaml('no-todo', 'check.sh', '    mutations:\n      - {file: res/values/strings.xml, append: "<!-- TODO -->"}\n      - {file: res/values/strings.xml, replace: {from: World, to: TODO}}');
    await committed(files([yaml], { 'check.sh': grepScript }), async (repo) => {
      const before = treeAndIndexDigest(repo.dir);
      const st = await call(selftest, [], repo);
      expect(st.stdout).toMatch(/no-todo {2}PROVEN {2}3 cases: 1 clean, 2 caught/);
      expect(st.stdout).toContain('failed with a finding at res/values/strings.xml:5 (rule command)');
      expect(st.code).toBe(0);
      const mu = await call(mutate, ['--format', 'json'], repo);
      expect(mu.code).toBe(0);
      const json = JSON.parse(mu.stdout);
      expect(json.schemaVersion).toBe('2');
      const mutants = json.files['res/values/strings.xml'].mutants;
      expect(mutants.map((m: any) => `${m.mutatorName}@${m.location.start.line}:${m.status}`)).toEqual(['no-todo/append#0@5:Killed', 'no-todo/replace#1@3:Killed']);
      expect(treeAndIndexDigest(repo.dir)).toBe(before);
      expect(liveScratchDirs()).toEqual([]);
      // The ledger (inside .git: the repo does not ignore .loopgates/) keeps one line per gate proof and per mutant.
      const ledger = readFileSync(join(repo.dir, '.git', 'loopgates', 'ledger.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(ledger.map((e) => `${e.kind}:${e.gate}:${e.verdict}`)).toEqual(['selftest:no-todo:PROVEN', 'mutation:no-todo:killed', 'mutation:no-todo:killed']);
      expect(ledger[1]).toMatchObject({ operator: 'append#0', file: 'res/values/strings.xml', line: 5, seed: 20240401 });
    });
  });

  it('a script that names no file:line: the finding goes where its own mutation injected the defect', async () => {
    const yaml = gateYaml('quiet', 'quiet.sh', '    mutations:\n      - {file: res/values/strings.xml, replace: {from: Hello, to: TODO}}');
    await committed(files([yaml], { 'quiet.sh': quietScript }), async (repo) => {
      const mu = await call(mutate, [], repo);
      expect(mu.stdout).toMatch(/quiet\s+replace#0\s+1\s+0\s+0\s+0\s+0/);
      expect(mu.code).toBe(0);
    });
  });

  it('seed case (3): a script that iterates an empty list and prints OK survives, and its self-test misses', async () => {
    const yaml = gateYaml('empty-list', 'empty.sh', '    mutations:\n      - {file: res/values/strings.xml, append: "<!-- TODO -->"}');
    await committed(files([yaml], { 'empty.sh': emptyListScript }), async (repo) => {
      const before = treeAndIndexDigest(repo.dir);
      const st = await call(selftest, [], repo);
      expect(st.code).toBe(1);
      expect(st.stdout).toMatch(/empty-list {2}UNPROVEN/);
      expect(st.stdout).toMatch(/missed {2}red {3}append#0: .* — passed \(read 1 file\); expected a finding at res\/values\/strings.xml:5/);
      const mu = await call(mutate, [], repo);
      expect(mu.code).toBe(1);
      expect(mu.stdout).toMatch(/empty-list\s+append#0\s+0\s+1\s+0\s+0\s+0/);
      expect(mu.stdout).toMatch(/survived {2}empty-list\/append#0 {2}res\/values\/strings.xml:5 .* stayed green/);
      expect(treeAndIndexDigest(repo.dir)).toBe(before);
    });
  });

  it('a waived gate loads, and its reason is printed by run, selftest and mutate', async () => {
    const yaml = gateYaml('waived', 'check.sh', '    selfTest: {waived: "covered by the CI job lint-strings"}');
    await committed(files([yaml], { 'check.sh': grepScript }), async (repo) => {
      const r = await call(run, ['--all'], repo);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('self-test waived: covered by the CI job lint-strings');
      const st = await call(selftest, [], repo);
      expect(st.stdout).toContain('waived  WAIVED');
      expect(st.stdout).toContain('self-test waived: covered by the CI job lint-strings');
      const mu = await call(mutate, [], repo);
      expect(mu.stdout).toContain('self-test waived: covered by the CI job lint-strings');
    });
  });

  it('a missing command is error, never caught or killed; a slow one is timeout', async () => {
    const missing = [
      '  - id: missing',
      '    command: [loopgates-no-such-tool, --check]',
      '    loop: {runs: a, reads: b, ends: c, asks: never}',
      '    files: ["res/**/*.xml"]',
      '    mutations: [{file: res/values/strings.xml, append: x}]',
    ].join('\n');
    const slow = gateYaml('slow', 'slow.sh', '    mutations: [{file: res/values/strings.xml, append: x}]').replace('timeoutMs: 10000', 'timeoutMs: 300');
    await committed(files([missing, slow], { 'slow.sh': 'sleep 5\n' }), async (repo) => {
      const st = await call(selftest, ['--gate', 'missing'], repo);
      expect(st.code).toBe(2);
      expect(st.stdout).toMatch(/error +red +append#0: .* the gate could not run: loopgates-no-such-tool was not found on PATH/);
      const mu = await call(mutate, ['--sample', '1'], repo);
      expect(mu.code).toBe(1);
      expect(mu.stdout).toMatch(/missing\s+append#0\s+0\s+0\s+0\s+1\s+0/);
      expect(mu.stdout).toMatch(/slow\s+append#0\s+0\s+0\s+0\s+0\s+1/);
    });
  });

  it('an unknown --gate exits 2', async () => {
    const yaml = gateYaml('no-todo', 'check.sh', '    mutations: [{file: res/values/strings.xml, append: TODO}]');
    await committed(files([yaml], { 'check.sh': grepScript }), async (repo) => {
      await expect(call(selftest, ['--gate', 'nope'], repo)).rejects.toMatchObject({ exitCode: 2 });
      await expect(call(mutate, ['--gate', 'nope'], repo)).rejects.toMatchObject({ exitCode: 2 });
    });
  });
});
