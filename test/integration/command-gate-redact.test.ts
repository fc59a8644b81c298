// A command gate's failure message quotes the command's last lines, cut to 300 characters: a token the command
// printed must be redacted before the cut (a token cut in half no longer has its shape, and half of it leaked).
// The built CLI (`loopgates run --all`) in a real temp git repository, with a real sh script as the gate.
import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../core/redact.js';
import { fakeGithubToken } from '../../gates/secrets/credentials.js';
import { withGitRepo } from '../helpers/git-repo.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { ownTmpdir } from '../helpers/own-tmpdir.js';

ownTmpdir('loopgates-cmd-redact-');

const cli = spawnCli;

const yaml = [
  'version: 1',
  'commands:',
  '  - id: deploy-check',
  '    command: [sh, scripts/check.sh]',
  '    loop: {runs: a team script, reads: config/*.txt, ends: one pass; exit 0 passes, asks: never}',
  '    files: ["config/*.txt"]',
  '    timeoutMs: 10000',
  '    mutations:',
  '      - {file: config/a.txt, append: "x"}',
  '',
].join('\n');

describe('command gate: a token in the quoted last lines', () => {
  it('straddling the 300-character cut: redacted in text and json, no piece of it printed', async () => {
    const gh = fakeGithubToken().value;
    // "sh scripts/check.sh exited 1: " is not part of the cut text; the token starts at character 270 of it.
    const script = `echo "${'x'.repeat(255)} GITHUB_TOKEN=${gh}"\nexit 1\n`;
    await withGitRepo({ 'loopgates.yaml': yaml, 'config/a.txt': 'a\n', 'scripts/check.sh': script }, async (repo) => {
      repo.git('add', '-A');
      repo.git('commit', '-q', '--no-verify', '-m', 'init');
      for (const format of ['text', 'json']) {
        const r = await cli(repo, ['run', '--all', '--gate', 'deploy-check', '--format', format]);
        const out = r.stdout + r.stderr;
        expect(r.code).toBe(1);
        expect(out).toContain('exited 1');
        expect(out).toContain(`GITHUB_TOKEN=ghp_${REDACTED}`);
        expect(out).not.toContain(gh.slice(4, 16));
      }
    });
  });
});
