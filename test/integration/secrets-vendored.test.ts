// Vendored yarn files in tree scans (fresh-user-4 F4): `run --all` flagged a committed .yarn/releases/yarn-4.x.cjs
// (an AWS-key shape inside a base64 wasm blob). A tree scan skips yarn's own bundles, counted and named; a commit
// that changes one is still scanned, and so is one named with --files. Real git, real gitleaks.
import { describe, expect, it } from 'vitest';
import { makeRunVerb } from '../../commands/index.js';
import { fakeGithubToken } from '../../gates/secrets/credentials.js';
import type { GateResult } from '../../core/types.js';
import { withGitRepo } from '../helpers/git-repo.js';
import { runVerbIn } from './run-toys.js';

const run = makeRunVerb();
const ONLY_SECRETS = 'version: 1\ngates:\n  hardcoded-strings:\n    enabled: false\n  string-parity:\n    enabled: false\n  maestro-flows:\n    enabled: false\n  dump-audit:\n    enabled: false\n';
const VENDORED = ['.pnp.cjs', '.pnp.loader.mjs', '.yarn/plugins/@yarnpkg/plugin-workspace-tools.cjs', '.yarn/releases/yarn-4.1.0.cjs'];

const secrets = (stdout: string) => (JSON.parse(stdout) as { results: GateResult[] }).results.find((r) => r.gate === 'secrets')!;

describe('secrets: vendored yarn files in tree scans', () => {
  it('run --all skips them, counted and named; staged and --files still scan them', async () => {
    const tok = fakeGithubToken().value;
    const files: Record<string, string> = { 'loopgates.yaml': ONLY_SECRETS, 'src/app.js': 'export const x = 1;\n', 'package.json': '{ "packageManager": "yarn@4.1.0" }\n' };
    for (const p of VENDORED) files[p] = `// vendored\nconst blob = "${tok}";\n`;
    await withGitRepo(files, async (repo) => {
      repo.git('add', '-A');
      repo.git('commit', '-q', '-m', 'base');
      const all = await runVerbIn(run, repo.dir, ['--all', '--gate', 'secrets', '--format', 'json']);
      const r = secrets(all.stdout);
      expect([all.code, r.verdict, r.findings]).toEqual([0, 'pass', []]);
      // loopgates.yaml, package.json and src/app.js: the three files scanned.
      expect(r.counts.files).toBe(3);
      expect(r.notes).toContain(`skipped 4 vendored yarn files (yarn's own bundles: a tree scan does not read them; a commit that changes one is scanned): ${VENDORED.join(', ')}`);
      const text = await runVerbIn(run, repo.dir, ['--all', '--gate', 'secrets']);
      expect(text.stdout).toContain('  warning: skipped 4 vendored yarn files');
      // Named on purpose: scanned.
      const named = await runVerbIn(run, repo.dir, ['--files', '.pnp.cjs', '--gate', 'secrets', '--format', 'json']);
      expect([named.code, secrets(named.stdout).findings.map((f) => f.file)]).toEqual([1, ['.pnp.cjs']]);
      // A commit that changes one: scanned.
      repo.write('.yarn/releases/yarn-4.1.0.cjs', `// vendored\nconst blob = "${tok}";\nconst again = "${fakeGithubToken().value}";\n`);
      repo.git('add', '.yarn/releases/yarn-4.1.0.cjs');
      const staged = await runVerbIn(run, repo.dir, ['--gate', 'secrets', '--format', 'json']);
      expect([staged.code, secrets(staged.stdout).findings.map((f) => `${f.file}:${f.line}`)]).toEqual([1, ['.yarn/releases/yarn-4.1.0.cjs:3']]);
    });
  });
});
