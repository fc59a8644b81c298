import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../core/config.js';
import { ConfigError } from '../../core/errors.js';
import { applyMutation, buildCommandGates, commandGateKind, commandGatesSchema, parseLocations, scriptFolders, selfTestWaiver } from '../../gates/command/index.js';

const base = {
  id: 'no-todo',
  command: ['sh', 'scripts/check.sh'],
  loop: { runs: 'scripts/check.sh', reads: 'strings.xml files', ends: 'one pass; exit 0 passes', asks: 'never' },
  files: ['res/**/*.xml'],
};

describe('command gate config', () => {
  it('accepts a gate with a mutation and fills defaults', () => {
    const [spec] = commandGatesSchema.parse([{ ...base, mutations: [{ file: 'res/values/strings.xml', append: 'TODO' }] }]);
    expect(spec!.timeoutMs).toBe(60_000);
  });

  it('refuses a command gate without a mutation, unless waived with a reason', () => {
    const r = commandGatesSchema.safeParse([base]);
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual([0, 'mutations']);
    expect(r.error!.issues[0]!.message).toMatch(/at least one mutation/);
    expect(commandGatesSchema.safeParse([{ ...base, selfTest: { waived: '  ' } }]).success).toBe(false);
    const ok = commandGatesSchema.parse([{ ...base, selfTest: { waived: 'the script is itself tested in CI' } }]);
    expect(selfTestWaiver(buildCommandGates(ok)[0]!)).toBe('the script is itself tested in CI');
  });

  it('refuses a shell string, a mutation with two kinds, a bad regex, a file outside `files`, duplicate ids', () => {
    const bad = (spec: object) => commandGatesSchema.safeParse([{ ...base, mutations: [{ file: 'res/a.xml', append: 'x' }], ...spec }]);
    expect(bad({ command: 'sh scripts/check.sh' }).success).toBe(false);
    expect(bad({ mutations: [{ file: 'res/a.xml', append: 'x', 'delete-line': 'y' }] }).success).toBe(false);
    expect(bad({ mutations: [{ file: 'res/a.xml', 'delete-line': '(' }] }).success).toBe(false);
    expect(bad({ mutations: [{ file: 'src/a.kt', append: 'x' }] }).error!.issues[0]!.message).toMatch(/not matched by files/);
    expect(bad({ loop: { runs: 'x', reads: 'x', ends: 'x' } }).success).toBe(false);
    const spec = { ...base, mutations: [{ file: 'res/a.xml', append: 'x' }] };
    expect(commandGatesSchema.safeParse([spec, spec]).error!.issues[0]!.message).toMatch(/duplicate command gate id no-todo/);
  });

  it('is refused by loopgates.yaml loading with its key path and line', () => {
    const yaml = ['version: 1', 'commands:', '  - id: no-todo', '    command: [sh, scripts/check.sh]', '    loop: {runs: a, reads: b, ends: c, asks: never}', '    files: ["res/**"]', ''].join('\n');
    try {
      parseConfig(yaml, 'loopgates.yaml', { gates: [], commands: commandGateKind });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).problems.map((p) => `${p.path}@${p.line}`)).toEqual(['commands[0].mutations@3']);
    }
  });
});

describe('command gate mutations', () => {
  const text = 'one\ntwo TODO\nthree\n';
  it('append adds a line after the last, with a newline when missing', () => {
    expect(applyMutation({ file: 'a', append: 'X' }, text, () => 0)).toMatchObject({ content: `${text}X`, line: 4 });
    expect(applyMutation({ file: 'a', append: 'X' }, 'one', () => 0)).toMatchObject({ content: 'one\nX', line: 2 });
    expect(applyMutation({ file: 'a', append: 'X' }, '', () => 0)).toMatchObject({ content: 'X', line: 1 });
  });
  it('replace picks an occurrence with the seeded random, null when absent', () => {
    const twice = 'a\nb\na\n';
    expect(applyMutation({ file: 'f', replace: { from: 'a', to: 'Z' } }, twice, () => 0)).toMatchObject({ content: 'Z\nb\na\n', line: 1 });
    expect(applyMutation({ file: 'f', replace: { from: 'a', to: 'Z' } }, twice, () => 0.99)).toMatchObject({ content: 'a\nb\nZ\n', line: 3 });
    expect(applyMutation({ file: 'f', replace: { from: 'q', to: 'Z' } }, twice, () => 0)).toBeNull();
  });
  it('delete-line removes a matching line and names its line', () => {
    expect(applyMutation({ file: 'f', 'delete-line': 'TODO' }, text, () => 0)).toMatchObject({ content: 'one\nthree\n', line: 2 });
    expect(applyMutation({ file: 'f', 'delete-line': '^$' }, text, () => 0)).toBeNull();
  });
});

describe('command output locations', () => {
  const known = new Set(['res/values/strings.xml', 'a b.txt']);
  it('reads file:line and file:line:col for known paths only, relative or under the cwd', () => {
    const out = 'res/values/strings.xml:3: TODO found\n/tmp/x/res/values/strings.xml:7:2: again\nother.xml:1: no\nres/values/strings.xml:3: dup\n';
    expect(parseLocations(out, '/tmp/x', known)).toEqual([
      { file: 'res/values/strings.xml', line: 3 },
      { file: 'res/values/strings.xml', line: 7 },
    ]);
    expect(parseLocations('OK\n', '/tmp/x', known)).toEqual([]);
  });
});

describe('command gates in a workspace folder (issue 14, item 11)', () => {
  it('a package manager run in a workspace prints paths relative to it: they are placed under that folder', () => {
    expect(scriptFolders(['npm', 'run', 'lint', '--workspace', 'packages/app'])).toEqual(['packages/app']);
    expect(scriptFolders(['npm', 'run', 'lint', '-w', 'a', '--prefix=b'])).toEqual(['a', 'b']);
    expect(scriptFolders(['pnpm', '-C', 'web', 'lint'])).toEqual(['web']);
    expect(scriptFolders(['yarn', '--cwd', 'web', 'lint'])).toEqual(['web']);
    expect(scriptFolders(['sh', '-w', 'x'])).toEqual([]);
    const known = new Set(['packages/app/src/a.js', 'src/b.js']);
    expect(parseLocations('src/a.js:2: debugger\nsrc/b.js:1: x\n', '/tmp/x', known, ['packages/app'])).toEqual([
      { file: 'packages/app/src/a.js', line: 2 },
      { file: 'src/b.js', line: 1 },
    ]);
  });
});
