// The stored hook's handshake (hooks/pre-commit, core/hook-answer.ts): a commit passes only when the CLI the hook
// started answered as the loopgates that wrote the hook, with the verdict its exit code says. Issue 14 item 8: before
// it, `LOOPGATES_CLI=/dev/null git commit` (node runs an empty file, exit 0) landed a credential with no output.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FACTS_ARGS, handedFacts, repoFacts } from '../../core/git.js';
import { packageVersion } from '../../core/version.js';
import { withGitRepo } from '../helpers/git-repo.js';
import { repoRoot } from '../helpers/setup-env.js';
import { assertBuilt, fakeAwsKeyId, head, recordedWordPattern, withSandbox, type Sandbox } from './install-support.js';

beforeAll(assertBuilt);

const APP = { 'README.md': '# notes\n' };

/** Stage a credential and try to commit with `env`; whether it landed and what git printed. */
function commitCredential(s: Sandbox, env: Record<string, string>) {
  const key = fakeAwsKeyId();
  s.repo.write('Sync.kt', `package x\n\nconst val KEY = "${key}"\n`);
  s.repo.git('add', '--', 'Sync.kt');
  const before = head(s);
  const r = s.gitRun(['commit', '-m', 'credential'], env);
  return { ...r, landed: head(s) !== before, key };
}

/** A fake CLI (run by the real node) that prints `line` on the answer file, if any, and exits `code`. */
function fakeCli(s: Sandbox, line: string | null, code: number): string {
  const file = join(s.base, 'fake-cli.mjs');
  const write = line === null ? '' : `require('fs').writeFileSync(process.env.LOOPGATES_HOOK_ANSWER, ${JSON.stringify(line)}.replace('NONCE', process.env.LOOPGATES_HOOK_NONCE) + '\\n');`;
  writeFileSync(file, `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); ${write} process.exit(${code});\n`);
  return file;
}

describe('the stored hook requires loopgates\' answer', () => {
  it('LOOPGATES_CLI=/dev/null (node exits 0 saying nothing) refuses the commit, naming the missing answer', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      const r = commitCredential(s, { LOOPGATES_CLI: '/dev/null' });
      expect(r.landed).toBe(false);
      expect(r.status).toBe(1);
      expect(r.output).toMatch(/commit refused: \S+ \/dev\/null exited with 0 without loopgates' answer \(it is not loopgates \d+\.\d+\.\d+/);
      expect(r.output).not.toContain(r.key);
    });
  });

  it('a LOOPGATES_NODE that exits 0 without running anything refuses the commit', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      const fake = join(s.base, 'node-true');
      writeFileSync(fake, '#!/bin/sh\nexit 0\n');
      chmodSync(fake, 0o755);
      const r = commitCredential(s, { LOOPGATES_NODE: fake });
      expect(r.landed).toBe(false);
      expect(r.output).toMatch(/node-true \S+ exited with 0 without loopgates' answer/);
    });
  });

  it('an answer from another loopgates version, or a pass that is not the exit code, refuses with the install fix', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      const other = commitCredential(s, { LOOPGATES_CLI: fakeCli(s, 'loopgates-answer 1 NONCE 9.9.9 pass 0', 0) });
      expect(other.landed).toBe(false);
      expect(other.output).toMatch(new RegExp(`answered as another loopgates or with a verdict that is not its exit code 0 \\(9\\.9\\.9 pass 0\\); this hook was written by loopgates ${packageVersion().replace(/\./g, '\\.')}`));
      expect(other.output).toMatch(new RegExp(`fix: ${recordedWordPattern()} install`));
      const lying = commitCredential(s, { LOOPGATES_CLI: fakeCli(s, `loopgates-answer 1 NONCE ${packageVersion()} pass 0`, 1) });
      expect(lying.landed).toBe(false);
      expect(lying.output).toMatch(/verdict that is not its exit code 1/);
      // A stale answer (another run's nonce) is no answer.
      const stale = commitCredential(s, { LOOPGATES_CLI: fakeCli(s, `loopgates-answer 1 1 ${packageVersion()} pass 0`, 0) });
      expect(stale.landed).toBe(false);
      expect(stale.output).toMatch(/exited with 0 without loopgates' answer/);
    });
  });

  it('the real CLI answers: a clean commit lands, a credential is refused, and the answer file is gone after each (uninstall leaves .git as it was)', async () => {
    await withSandbox(APP, async (s) => {
      expect((await s.cli(['install', '--no-proof'])).code).toBe(0);
      const bad = commitCredential(s, {});
      expect(bad.landed).toBe(false);
      expect(bad.output).toMatch(/Sync\.kt:3/);
      expect(bad.output).not.toMatch(/answer/);
      expect(existsSync(join(s.repo.dir, '.git', 'loopgates-hook-answer'))).toBe(false);
      s.repo.git('rm', '-q', '--cached', 'Sync.kt');
      s.repo.write('notes.md', 'clean\n');
      s.repo.git('add', 'notes.md');
      const before = head(s);
      const good = s.gitRun(['commit', '-m', 'clean']);
      expect(good.status, good.output).toBe(0);
      expect(head(s)).not.toBe(before);
      expect(existsSync(join(s.repo.dir, '.git', 'loopgates-hook-answer'))).toBe(false);
    });
  });
});

describe('handedFacts: the rev-parse answers the stored hook hands to node', () => {
  const call = [...FACTS_ARGS];
  // The call as hooks/pre-commit spells it: node's and the hook's must be the same call.
  it('is the call the stored hook makes', () => {
    expect(readFileSync(join(repoRoot, 'hooks', 'pre-commit'), 'utf8')).toContain(`loopgates_facts=$(git ${call.join(' ')})\n`);
  });
  /** What the hook's `$(git rev-parse …)` and `$?` give, as LOOPGATES_HOOK_FACTS. */
  const handOff = (dir: string) => {
    const r = spawnSync('git', call, { cwd: dir, encoding: 'utf8' });
    return `${r.status}\n${r.stdout.replace(/\n+$/, '')}`;
  };

  it('are used only when they are what repoFacts would ask git for, before and after the first commit', async () => {
    await withGitRepo({}, async (repo) => {
      const unborn = handOff(repo.dir);
      // Exit 0 and five answers: no HEAD commit yet (--revs-only prints nothing for it, nor for what follows).
      expect(unborn).toMatch(/^0\n/);
      expect(unborn.split('\n')).toHaveLength(6);
      expect(handedFacts(repo.dir, { LOOPGATES_HOOK_FACTS: unborn })).toStrictEqual(await repoFacts(repo.dir));
      expect(handedFacts(repo.dir, { LOOPGATES_HOOK_FACTS: unborn })?.hasHead).toBe(false);
      repo.write('a.txt', 'a\n');
      repo.git('add', 'a.txt');
      repo.git('commit', '-q', '-m', 'a');
      const born = handOff(repo.dir);
      expect(born).toMatch(/^0\n/);
      // Six: HEAD's commit; no loopgates.yaml in the index (nor HEAD's name after it: the HEAD file says attached).
      expect(born.split('\n')).toHaveLength(7);
      const facts = handedFacts(repo.dir, { LOOPGATES_HOOK_FACTS: born, GIT_INDEX_FILE: join(repo.dir, '.git', 'index') });
      expect(facts).toStrictEqual(await repoFacts(repo.dir));
      expect(facts?.hasHead).toBe(true);
      expect(facts?.detached).toBe(false);
      // Eight with a staged loopgates.yaml: its blob id, then HEAD's full name; detached or not, as git says.
      repo.write('loopgates.yaml', 'version: 1\n');
      repo.git('add', 'loopgates.yaml');
      const staged = handOff(repo.dir).split('\n');
      expect(staged).toHaveLength(9);
      expect(staged[7]).toBe(repo.git('rev-parse', ':loopgates.yaml').trim());
      expect(staged[8]).toMatch(/^refs\/heads\//);
      expect(handedFacts(repo.dir, { LOOPGATES_HOOK_FACTS: staged.join('\n') })).toStrictEqual(await repoFacts(repo.dir));
      repo.git('checkout', '-q', '--detach');
      for (const hand of [handOff(repo.dir), (() => { repo.git('rm', '-q', '--cached', 'loopgates.yaml'); return handOff(repo.dir); })()]) {
        const detached = handedFacts(repo.dir, { LOOPGATES_HOOK_FACTS: hand });
        expect(detached?.detached).toBe(true);
        expect(detached).toStrictEqual(await repoFacts(repo.dir));
      }
    });
  });

  it('are refused (null: node asks git) when GIT_DIR is set, from another directory, truncated, or naming no git dir', async () => {
    await withGitRepo({ 'sub/a.txt': 'a\n' }, async (repo) => {
      const good = handOff(repo.dir);
      expect(handedFacts(repo.dir, { LOOPGATES_HOOK_FACTS: good })).not.toBeNull();
      expect(handedFacts(repo.dir, { LOOPGATES_HOOK_FACTS: good, GIT_DIR: join(repo.dir, '.git') })).toBeNull();
      expect(handedFacts(repo.dir, { LOOPGATES_HOOK_FACTS: good, GIT_WORK_TREE: repo.dir })).toBeNull();
      expect(handedFacts(join(repo.dir, 'sub'), { LOOPGATES_HOOK_FACTS: good })).toBeNull();
      expect(handedFacts(repo.dir, { LOOPGATES_HOOK_FACTS: good.split('\n').slice(0, 4).join('\n') })).toBeNull();
      expect(handedFacts(repo.dir, { LOOPGATES_HOOK_FACTS: `2\n${good.slice(2)}` })).toBeNull();
      expect(handedFacts(repo.dir, { LOOPGATES_HOOK_FACTS: good.replace(join(repo.dir, '.git'), join(repo.dir, 'sub')) })).toBeNull();
      expect(handedFacts(repo.dir, {})).toBeNull();
    });
  });
});
