// The ledger: where it goes (ignored path in the tree, else inside .git), what a line holds (never a message).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoFacts } from '../../core/git.js';
import { appendLedger, cacheRoot, entriesFor, ledgerPath, readLedger } from '../../core/ledger.js';
import { BYPASS_REASON } from '../../core/runner.js';
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
