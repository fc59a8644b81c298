// No output, report or ledger line of `loopgates retry` holds a credential the command printed (DESIGN.md "Rules that
// hold everywhere"): the built CLI runs a real sh script that prints a GitHub token, an AWS access key id and a bearer
// header, then fails; every sink (the printed last lines, the ASK-HUMAN evidence, --format json, --junit, the ledger)
// must hold the redaction mark and not the value. The command's own stream passed through is the command's, not ours.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../core/redact.js';
import { fakeAwsAccessKey, fakeGithubToken } from '../../gates/secrets/credentials.js';
import { withGitRepo, type TempRepo } from '../helpers/git-repo.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { ownTmpdir } from '../helpers/own-tmpdir.js';

ownTmpdir('loopgates-retry-redact-');

const cli = spawnCli;

/** Fresh credentials of the real shapes, and a script that prints them to stderr and stdout and fails. */
function leaky() {
  const gh = fakeGithubToken().value;
  const aws = fakeAwsAccessKey().value;
  const bearer = `tok${fakeGithubToken().value.slice(4, 30)}`;
  const script = [`echo "GITHUB_TOKEN=${gh}"`, `echo "aws_access_key_id = ${aws}" >&2`, `echo "curl: Authorization: Bearer ${bearer}" >&2`, `echo "error: upload rejected" >&2`, 'exit 1', ''].join('\n');
  // What must not appear: each value, and a long piece of it (a mask that kept most of it is no mask).
  const values = [gh, gh.slice(4, 24), aws, aws.slice(4), bearer, bearer.slice(3)];
  return { script, values };
}

async function inRepo<T>(script: string, fn: (repo: TempRepo) => Promise<T>): Promise<T> {
  return withGitRepo({ 'loopgates.yaml': 'version: 1\n', '.gitignore': '*.xml\n', 'leak.sh': script }, async (repo) => {
    repo.git('add', '-A');
    repo.git('commit', '-q', '--no-verify', '-m', 'init');
    return fn(repo);
  });
}

const ledgerText = (repo: TempRepo) => readFileSync(join(repo.dir, '.git', 'loopgates', 'ledger.jsonl'), 'utf8');
const expectClean = (text: string, values: string[]) => {
  for (const v of values) expect(text).not.toContain(v);
};
/** Of `text`, what loopgates itself printed: the command's own streamed lines (no indent) left out. */
const ours = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('loopgates') || l.startsWith('  '))
    .join('\n');

describe('loopgates retry: a credential the command printed reaches no sink', () => {
  it('text: the printed last lines hold the redaction mark, not the token, key or bearer value', async () => {
    const { script, values } = leaky();
    await inRepo(script, async (repo) => {
      const r = await cli(repo, ['retry', '--task', 't', '--', 'sh', 'leak.sh']);
      expect(r.code).toBe(1);
      const printed = ours(r.stderr);
      expect(printed).toContain('last lines of attempt 1:');
      expect(printed).toContain('    error: upload rejected');
      expect(printed).toContain(`    GITHUB_TOKEN=ghp_${REDACTED}`);
      expect(printed).toContain(`    aws_access_key_id = AKIA${REDACTED}`);
      expect(printed).toContain(`    curl: Authorization: Bearer ${REDACTED}`);
      expectClean(printed, values);
      expectClean(ledgerText(repo), values);
    });
  });

  it('--format json and --junit: every attempt\'s last lines and the argv redacted', async () => {
    const { script, values } = leaky();
    const gh = fakeGithubToken().value;
    await inRepo(script, async (repo) => {
      const junit = join(repo.dir, 'report.xml');
      const r = await cli(repo, ['retry', '--format', 'json', '--junit', junit, '--task', 't', '--', 'sh', 'leak.sh', `--token=${gh}`]);
      expect(r.code).toBe(1);
      const doc = JSON.parse(r.stdout);
      expect(doc.outcome).toBe('FAILED');
      expect(doc.argv).toEqual(['sh', 'leak.sh', `--token=ghp_${REDACTED}`]);
      expect(doc.attempts[0].lastLines).toEqual([`GITHUB_TOKEN=ghp_${REDACTED}`, `aws_access_key_id = AKIA${REDACTED}`, `curl: Authorization: Bearer ${REDACTED}`, 'error: upload rejected']);
      expectClean(r.stdout, [...values, gh]);
      expectClean(ours(r.stderr), [...values, gh]);
      const xml = readFileSync(junit, 'utf8');
      expect(xml).toContain(`<system-err>GITHUB_TOKEN=ghp_${REDACTED}\naws_access_key_id = AKIA${REDACTED}\ncurl: Authorization: Bearer ${REDACTED}\nerror: upload rejected</system-err>`);
      expect(xml).toContain(`name="sh leak.sh --token=ghp_${REDACTED}"`);
      expectClean(xml, [...values, gh]);
      expectClean(ledgerText(repo), [...values, gh]);
    });
  });

  it('ASK-HUMAN: a fresh token each run is still the same cause (fingerprint of the redacted text); the evidence holds no token', async () => {
    await inRepo(leaky().script, async (repo) => {
      const codes: Array<number | null> = [];
      const seen: string[] = [];
      let last = '';
      for (let i = 0; i < 3; i++) {
        const { script, values } = leaky();
        writeFileSync(join(repo.dir, 'leak.sh'), script);
        seen.push(...values);
        const r = await cli(repo, ['retry', '--task', 'feature-x', '--', 'sh', 'leak.sh']);
        codes.push(r.code);
        last = r.stderr;
      }
      expect(codes).toEqual([1, 1, 3]);
      expect(last).toContain('evidence (the same failure fingerprint 3 times in a row):');
      expect(last).toContain('  last lines of the latest attempt:');
      expect(ours(last)).toContain(`    GITHUB_TOKEN=ghp_${REDACTED}`);
      expectClean(ours(last), seen);
      const ledger = ledgerText(repo);
      expect(new Set(ledger.trim().split('\n').map((l) => JSON.parse(l).fingerprint)).size).toBe(1);
      expectClean(ledger, seen);
    });
  });
});

describe('an error loopgates reports holds no credential (cli.ts, the last guard of every verb)', () => {
  it('a command that cannot start, named with a token in its argv: text and the json failure document redacted', async () => {
    const gh = fakeGithubToken().value;
    await inRepo('exit 0\n', async (repo) => {
      for (const format of ['text', 'json']) {
        const r = await cli(repo, ['retry', '--format', format, '--task', 't', '--', `./deploy-${gh}`]);
        expect(r.code).toBe(2);
        expect(r.stderr).toContain(`deploy-ghp_${REDACTED}`);
        expectClean(r.stdout + r.stderr, [gh.slice(4, 24)]);
        if (format === 'json') expect(JSON.parse(r.stdout).error.message).toContain(`deploy-ghp_${REDACTED}`);
      }
    });
  });
});
