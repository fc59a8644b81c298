// The secrets gate run over a real temp repository, as the secrets integration tests use it: the file's own TMPDIR
// (own-tmpdir.ts), a fresh cache root per test, and proof after each run that nothing in the tree or index was
// written and no scratch dir was left.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { runGate } from '../../core/runner.js';
import { indexWorkspace, treeWorkspace } from '../../core/snapshot.js';
import type { GateResult } from '../../core/types.js';
import { liveScratchDirs } from '../../gates/secrets/gitleaks.js';
import { secretsConfigSchema, secretsGate } from '../../gates/secrets/index.js';
import { isolatedGitEnv, treeAndIndexDigest, type TempRepo } from './git-repo.js';
import { ownTmpdir } from './own-tmpdir.js';

/** What `secretsHarness` gives a test file. */
export interface SecretsHarness {
  /** The current test's cache root (the gate's cache is `<cacheRoot>/secrets`). */
  cacheRoot(): string;
  /** The gate over `repo`'s index (`staged`, as the hook runs it) or its tree (`all`); asserts nothing was written. */
  check(repo: TempRepo, how: 'staged' | 'all'): Promise<GateResult>;
}

/** Register the hooks of a secrets test file (call at its top level); `tmpPrefix` names its own temp dir. */
export function secretsHarness(tmpPrefix: string): SecretsHarness {
  ownTmpdir(tmpPrefix);
  let cacheRoot = '';
  beforeEach(() => {
    cacheRoot = mkdtempSync(join(tmpdir(), 'cache-'));
  });
  afterEach(() => rmSync(cacheRoot, { recursive: true, force: true }));
  return {
    cacheRoot: () => cacheRoot,
    async check(repo, how) {
      const before = treeAndIndexDigest(repo.dir);
      const env = isolatedGitEnv(join(repo.dir, '..', 'home'));
      const ws = how === 'staged' ? await indexWorkspace(repo.dir, env) : await treeWorkspace(repo.dir, 'all', undefined, env);
      const r = await runGate({ gate: secretsGate, config: secretsConfigSchema.parse({}), timeoutMs: 60_000 }, { ws, cacheRoot });
      expect(treeAndIndexDigest(repo.dir)).toBe(before);
      expect(liveScratchDirs()).toEqual([]);
      return r;
    },
  };
}
