// The ledger: where it goes (ignored path in the tree, else inside .git), what a line holds (never a message).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoFacts } from '../../core/git.js';
import { appendLedger, cacheRoot, entriesFor, LEDGER_KEEP_BYTES, LEDGER_MAX_BYTES, LOOPGATES_GITIGNORE, ledgerPath, moveLedger, readLedger, type LedgerEntry } from '../../core/ledger.js';
import { indexWorkspace } from '../../core/snapshot.js';
import { BYPASS_REASON } from '../../core/runner.js';
import { REDACTED } from '../../core/redact.js';
import { fakeGithubToken } from '../../gates/secrets/credentials.js';
import type { GateResult } from '../../core/types.js';
import { withGitRepo } from '../helpers/git-repo.js';

const result = (over: Partial<GateResult>): GateResult => ({
  gate: 'secrets',
  title: 'Secrets',
  verdict: 'fail',
  counts: { files: 2, items: 0, filtered: 0, suppressed: 0, findings: 1 },
  itemUnit: 'items',
  findings: [{ gate: 'secrets', rule: 'aws-key', file: 'a.env', line: 3, column: 7, message: 'AKIA-looking value REDACTED-SECRET-TEXT', severity: 'error', fingerprint: 'abc' }],
  notes: ['note that could quote REDACTED-SECRET-TEXT'],
  reason: 'reason REDACTED-SECRET-TEXT',
  durationMs: 12.7,
  ...over,
});

describe('ledger lines', () => {
  it('hold file:line:rule and fingerprint, counts, verdict, mode; never a message, note or reason', () => {
    const [e] = entriesFor([result({})], 'staged', new Date('2026-01-02T03:04:05Z'));
    expect(e).toEqual({ ts: '2026-01-02T03:04:05.000Z', kind: 'run', gate: 'secrets', verdict: 'fail', mode: 'staged', counts: result({}).counts, durationMs: 13, findings: [{ file: 'a.env', line: 3, rule: 'aws-key', fingerprint: 'abc' }] });
    expect(JSON.stringify(e)).not.toContain('REDACTED-SECRET-TEXT');
  });

  it('a LOOPGATES_SKIP bypass is a bypass line', () => {
    const [e] = entriesFor([result({ verdict: 'skip', reason: BYPASS_REASON, findings: [] })], 'staged');
    expect(e!.kind).toBe('bypass');
  });
});

describe('ledger sink', () => {
  it('writes no credential, whatever field holds it (a --task key, a path); the fingerprint is kept as is', async () => {
    const gh = fakeGithubToken().value;
    await withGitRepo({}, async (repo) => {
      const path = join(repo.dir, 'l.jsonl');
      appendLedger(path, [{ ts: '2026-01-02T03:04:05.000Z', kind: 'retry', gate: 'retry', task: `deploy-${gh}`, verdict: 'fail', fingerprint: '0123456789abcdef', findings: [{ file: `keys/${gh}.txt`, line: 1, rule: 'r', fingerprint: 'f1' }] } as LedgerEntry]);
      const text = readFileSync(path, 'utf8');
      expect(text).not.toContain(gh.slice(4));
      const [e] = readLedger(path);
      expect(e).toMatchObject({ task: `deploy-ghp_${REDACTED}`, fingerprint: '0123456789abcdef', findings: [{ file: `keys/ghp_${REDACTED}.txt`, fingerprint: 'f1' }] });
    });
  });
});

describe('ledger placement', () => {
  it('goes to .loopgates/ledger.jsonl only when git ignores it, else into the git common dir', async () => {
    await withGitRepo({ 'a.txt': 'a\n' }, async (repo) => {
      const facts = await repoFacts(repo.dir);
      expect(await ledgerPath(repo.dir, facts)).toBe(join(repo.dir, '.git', 'loopgates', 'ledger.jsonl'));
      repo.write('.gitignore', '/.loopgates/ledger.jsonl\n');
      expect(await ledgerPath(repo.dir, facts)).toBe(join(repo.dir, '.loopgates', 'ledger.jsonl'));
      expect(cacheRoot(repo.dir, facts)).toBe(join(repo.dir, '.git', 'loopgates', 'cache'));
    });
  });

  it("with install's .loopgates/.gitignore a commit places the ledger in the tree without git check-ignore", async () => {
    await withGitRepo({ 'a.txt': 'a\n', '.loopgates/.gitignore': LOOPGATES_GITIGNORE, '.loopgates/hooks/pre-commit': '#!/bin/sh\n' }, async (repo) => {
      // As install leaves it: the folder's .gitignore and stored hook tracked.
      repo.git('add', '-A');
      repo.git('commit', '-q', '-m', 'install');
      const facts = await repoFacts(repo.dir);
      const ws = await indexWorkspace(repo.dir, {});
      const bin = join(repo.dir, '..', 'logging-git');
      const log = join(repo.dir, '..', 'git-calls.txt');
      mkdirSync(bin);
      const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
      writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$1" >> '${log}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
      writeFileSync(log, '');
      const path = process.env.PATH;
      process.env.PATH = `${bin}:${path}`;
      try {
        expect(await ledgerPath(repo.dir, facts, {}, ws.tracks)).toBe(join(repo.dir, '.loopgates', 'ledger.jsonl'));
        expect(readFileSync(log, 'utf8')).not.toContain('check-ignore');
      } finally {
        process.env.PATH = path;
      }
    });
  });

  it('the place known without git is the one git gives, in every case around install\'s .gitignore', async () => {
    /** ledgerPath with the index's word and without it (git check-ignore): the same path, or the same throw. */
    const agree = async (dir: string) => {
      const facts = await repoFacts(dir);
      const ws = await indexWorkspace(dir, {});
      const settle = (p: Promise<string>) => p.then((v) => `path ${v}`, (e: Error) => `throws ${e.constructor.name}`);
      const fast = await settle(ledgerPath(dir, facts, {}, ws.tracks));
      expect(fast).toBe(await settle(ledgerPath(dir, facts, {})));
      return fast;
    };
    const inTree = (dir: string) => `path ${join(dir, '.loopgates', 'ledger.jsonl')}`;
    const inGit = (dir: string) => `path ${join(dir, '.git', 'loopgates', 'ledger.jsonl')}`;
    await withGitRepo({ 'a.txt': 'a\n', '.loopgates/.gitignore': LOOPGATES_GITIGNORE }, async (repo) => {
      expect(await agree(repo.dir)).toBe(inTree(repo.dir));
      repo.git('add', '-A');
      expect(await agree(repo.dir)).toBe(inTree(repo.dir));
      // A ledger the index tracks is no ignored file.
      repo.write('.loopgates/ledger.jsonl', '');
      repo.git('add', '-f', '--', '.loopgates/ledger.jsonl');
      expect(await agree(repo.dir)).toBe(inGit(repo.dir));
      repo.git('rm', '-q', '--cached', '--', '.loopgates/ledger.jsonl');
      expect(await agree(repo.dir)).toBe(inTree(repo.dir));
      // Edited: a later line takes it back.
      repo.write('.loopgates/.gitignore', `${LOOPGATES_GITIGNORE}!ledger.jsonl\n`);
      expect(await agree(repo.dir)).toBe(inGit(repo.dir));
    });
    await withGitRepo({ 'a.txt': 'a\n', 'elsewhere/.gitignore': LOOPGATES_GITIGNORE }, async (repo) => {
      // .loopgates a symlink to a folder holding install's .gitignore.
      symlinkSync('elsewhere', join(repo.dir, '.loopgates'));
      await agree(repo.dir);
    });
  });

  it('appends JSON lines and reads them back, skipping a torn line', async () => {
    await withGitRepo({}, async (repo) => {
      const path = join(repo.dir, '.git', 'loopgates', 'ledger.jsonl');
      appendLedger(path, entriesFor([result({})], 'all'));
      appendLedger(path, entriesFor([result({ verdict: 'pass', findings: [] })], 'all'));
      writeFileSync(path, `${readFileSync(path, 'utf8')}{"kind":"run","ga`);
      expect(readLedger(path).map((e) => e.verdict)).toEqual(['fail', 'pass']);
      expect(existsSync(join(repo.dir, '.loopgates'))).toBe(false);
    });
  });
});

/** A ledger entry whose JSON line is exactly 100 bytes (newline included); `n` tells lines apart. */
function entry100(n: number): LedgerEntry {
  const e: LedgerEntry = { ts: '2026-01-02T03:04:05.000Z', kind: 'run', gate: 'g', verdict: 'pass', n, pad: '' };
  const len = Buffer.byteLength(`${JSON.stringify(e)}\n`);
  return { ...e, pad: 'x'.repeat(100 - len) };
}

describe('ledger bound', () => {
  it('defaults: at most 2 MiB, rotated down to the newest 1 MiB', () => {
    expect([LEDGER_MAX_BYTES, LEDGER_KEEP_BYTES]).toEqual([2_097_152, 1_048_576]);
  });

  it('appends up to maxBytes; the append that would pass it keeps the newest whole lines within keepBytes', async () => {
    await withGitRepo({}, async (repo) => {
      const path = join(repo.dir, '.git', 'loopgates', 'ledger.jsonl');
      const bound = { maxBytes: 1000, keepBytes: 450 };
      for (let n = 1; n <= 10; n++) appendLedger(path, [entry100(n)], bound);
      expect(statSync(path).size).toBe(1000);
      expect(readLedger(path).map((e) => e.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      appendLedger(path, [entry100(11)], bound);
      // 1100 bytes would pass 1000: the newest 4 lines (400 bytes <= 450) stay.
      expect(statSync(path).size).toBe(400);
      expect(readLedger(path).map((e) => e.n)).toEqual([8, 9, 10, 11]);
      for (let n = 12; n <= 17; n++) appendLedger(path, [entry100(n)], bound);
      expect(statSync(path).size).toBe(1000);
      appendLedger(path, [entry100(18), entry100(19)], bound);
      expect(readLedger(path).map((e) => e.n)).toEqual([16, 17, 18, 19]);
      expect(existsSync(`${path}.${process.pid}.tmp`)).toBe(false);
    });
  });

  it('one append larger than keepBytes keeps its newest line; a torn last line is not glued to the next entry', async () => {
    await withGitRepo({}, async (repo) => {
      const path = join(repo.dir, '.git', 'loopgates', 'ledger.jsonl');
      appendLedger(path, [1, 2, 3, 4, 5, 6].map(entry100), { maxBytes: 300, keepBytes: 50 });
      expect(readLedger(path).map((e) => e.n)).toEqual([6]);
      expect(statSync(path).size).toBe(100);
      writeFileSync(path, `${readFileSync(path, 'utf8')}{"kind":"run","ga`);
      appendLedger(path, [entry100(7)], { maxBytes: 10_000, keepBytes: 5_000 });
      expect(readLedger(path).map((e) => e.n)).toEqual([6, 7]);
    });
  });

  it('moveLedger appends the moved lines after the ones already there and removes the source', async () => {
    await withGitRepo({}, async (repo) => {
      const from = join(repo.dir, '.loopgates', 'ledger.jsonl');
      const to = join(repo.dir, '.git', 'loopgates', 'ledger.jsonl');
      appendLedger(to, [entry100(1)]);
      appendLedger(from, [entry100(2), entry100(3)]);
      expect(moveLedger(from, to)).toBe(true);
      expect(existsSync(from)).toBe(false);
      expect(readLedger(to).map((e) => e.n)).toEqual([1, 2, 3]);
      expect(statSync(to).size).toBe(300);
      expect(moveLedger(from, to)).toBe(false);
    });
  });
});
