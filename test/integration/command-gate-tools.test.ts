// Command gates get the repository's tools (issue 14, item 11): an npm-script gate committed through a real
// `git commit` used to run in a scratch dir without node_modules ("sh: 1: vitest: not found"). The tool here is a
// real local bin (node_modules/<pkg>/bin.js linked from node_modules/.bin, as npm lays it out), never committed.
import { chmodSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtinGates } from '../../gates/registry.js';
import { repoRoot } from '../helpers/setup-env.js';
import { assertBuilt, withSandbox, type Sandbox } from './install-support.js';

const bin = join(repoRoot, 'bin', 'loopgates.js');

/** A linter: every `debugger` line under the folders it is given is printed as `path:line: …`, exit 1. */
const linter = [
  '#!/usr/bin/env node',
  "const fs = require('fs'), path = require('path');",
  'let bad = 0;',
  'const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const f = path.join(d, e.name);',
  "  if (e.isDirectory()) walk(f); else fs.readFileSync(f, 'utf8').split('\\n').forEach((l, i) => { if (l.includes('debugger')) { console.log(`${f}:${i + 1}: debugger statement`); bad = 1; } }); } };",
  'for (const d of process.argv.slice(2)) walk(d);',
  'process.exit(bad);',
  '',
].join('\n');

const off = ['gates:', ...builtinGates.flatMap((g) => [`  ${g.id}:`, '    enabled: false'])];
const gate = (command: string, files: string, mutationFile: string) => [
  '  - id: lint',
  `    command: ${command}`,
  '    loop: {runs: the team linter, reads: staged js, ends: one pass; exit 0 passes, asks: never}',
  `    files: ${files}`,
  '    timeoutMs: 60000',
  '    mutations:',
  `      - {file: ${mutationFile}, append: "debugger;"}`,
];

/** Lay out `<dir>/node_modules/nodebug` with its bin linked from `<dir>/node_modules/.bin/nodebug`, as npm does. */
function installTool(s: Sandbox, dir: string): void {
  const pkg = join(s.repo.dir, dir, 'node_modules', 'nodebug');
  s.repo.write(join(dir, 'node_modules', 'nodebug', 'package.json'), JSON.stringify({ name: 'nodebug', version: '1.0.0', bin: { nodebug: 'bin.js' } }));
  s.repo.write(join(dir, 'node_modules', 'nodebug', 'bin.js'), linter);
  chmodSync(join(pkg, 'bin.js'), 0o755);
  const link = join(s.repo.dir, dir, 'node_modules', '.bin', 'nodebug');
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync('../nodebug/bin.js', link);
}

function installTestHook(s: Sandbox): void {
  s.repo.write('.git/hooks/pre-commit', `#!/bin/sh\nexec node "${bin}" hook pre-commit\n`);
  chmodSync(join(s.repo.dir, '.git', 'hooks', 'pre-commit'), 0o755);
}

const commit = (s: Sandbox) => s.gitRun(['commit', '-q', '-m', 'change']);

describe('command gates run with the repository tools under git commit', () => {
  beforeAll(assertBuilt);

  it('an npm script whose bin lives in node_modules/.bin: a clean commit lands, a staged defect is refused at its line', async () => {
    const files = {
      '.gitignore': 'node_modules/\n',
      'package.json': JSON.stringify({ name: 'tools-fixture', private: true, scripts: { lint: 'nodebug src' } }, null, 2),
      'src/a.js': 'export const a = 1;\n',
      'loopgates.yaml': ['version: 1', ...off, 'commands:', ...gate('[npm, run, --silent, lint]', '["src/**/*.js", package.json]', 'src/a.js'), ''].join('\n'),
    };
    await withSandbox(files, async (s) => {
      installTool(s, '.');
      installTestHook(s);
      s.repo.write('src/a.js', 'export const a = 2;\n');
      s.repo.git('add', 'src/a.js');
      const clean = commit(s);
      expect(clean.output).not.toContain('not found');
      expect(clean.status).toBe(0);
      // Staged defect, clean working tree: the gate must judge the index.
      s.repo.write('src/a.js', 'export const a = 3;\ndebugger;\n');
      s.repo.git('add', 'src/a.js');
      s.repo.write('src/a.js', 'export const a = 3;\n');
      const refused = commit(s);
      expect(refused.status).toBe(1);
      expect(refused.output).toMatch(/lint\s+fail/);
      expect(refused.output).toContain('src/a.js:2');
    });
  });

  it('a monorepo: a workspace package with its own node_modules/.bin, and a bare argv found through the root node_modules/.bin', async () => {
    const files = {
      '.gitignore': 'node_modules/\n',
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }, null, 2),
      'packages/app/package.json': JSON.stringify({ name: 'app', private: true, scripts: { lint: 'nodebug src' } }, null, 2),
      'packages/app/src/a.js': 'export const a = 1;\n',
      'tools/b.js': 'export const b = 1;\n',
      'loopgates.yaml': [
        'version: 1',
        ...off,
        'commands:',
        ...gate('[npm, run, --silent, lint, --workspace, packages/app]', '["packages/app/**"]', 'packages/app/src/a.js'),
        ...gate('[nodebug, tools]', '["tools/**"]', 'tools/b.js').map((l) => l.replace('id: lint', 'id: tools-lint')),
        '',
      ].join('\n'),
    };
    await withSandbox(files, async (s) => {
      installTool(s, 'packages/app');
      installTool(s, '.');
      installTestHook(s);
      s.repo.write('packages/app/src/a.js', 'export const a = 2;\n');
      s.repo.write('tools/b.js', 'export const b = 2;\n');
      s.repo.git('add', '-A');
      const clean = commit(s);
      expect(clean.output).not.toContain('not found');
      expect(clean.status).toBe(0);
      s.repo.write('packages/app/src/a.js', 'export const a = 3;\ndebugger;\n');
      s.repo.write('tools/b.js', 'debugger;\n');
      s.repo.git('add', '-A');
      s.repo.write('packages/app/src/a.js', 'export const a = 3;\n');
      s.repo.write('tools/b.js', 'export const b = 3;\n');
      const refused = commit(s);
      expect(refused.status).toBe(1);
      expect(refused.output).toMatch(/\blint\s+fail/);
      expect(refused.output).toMatch(/tools-lint\s+fail/);
      expect(refused.output).toContain('packages/app/src/a.js:2');
      expect(refused.output).toContain('tools/b.js:1');
    });
  });
});
