// maestro-flows in staged mode over real temp repositories: the index is what is judged (never the working tree),
// a changed subflow is judged through its callers, a deleted subflow makes its callers' runFlow a missing file.
import { describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import { indexWorkspace } from '../../core/snapshot.js';
import type { GateResult } from '../../core/types.js';
import { maestroFlowsGate } from '../../gates/maestro-flows/index.js';
import { treeAndIndexDigest, withGitRepo, type TempRepo } from '../helpers/git-repo.js';

const MAIN = '.maestro/checkout.yaml';
const SUB = '.maestro/steps/open-cart.yaml';
const OTHER = '.maestro/search.yaml';
const main = `appId: com.example.shop
---
- launchApp
- runFlow: steps/open-cart.yaml
- back
- assertVisible: "Home"
`;
const sub = (check: boolean) => `appId: com.example.shop
---
- tapOn:
    id: "cart"
${check ? '- assertVisible: "Your cart"\n' : ''}`;
const other = `appId: com.example.shop
---
- launchApp
- tapOn: "Search"
- assertVisible: "Search products"
`;
const files = { [MAIN]: main, [SUB]: sub(true), [OTHER]: other, 'README.md': '# shop\n' };

const gateOn = async (repo: TempRepo): Promise<GateResult> =>
  runGate({ gate: maestroFlowsGate, config: maestroFlowsGate.configSchema.parse({}), timeoutMs: 30_000 }, { ws: await indexWorkspace(repo.dir, {}), cacheRoot: '/tmp/loopgates-test-cache' });
const spots = (r: GateResult) => r.findings.map((f) => `${f.file}:${f.line} ${f.rule}`);
const committed = <T>(fn: (repo: TempRepo) => Promise<T>) =>
  withGitRepo(files, async (repo) => {
    repo.git('add', '--', '.');
    repo.git('commit', '-q', '-m', 'flows');
    return fn(repo);
  });

describe('maestro-flows staged', () => {
  it('a staged subflow whose check was deleted is judged through its caller (tap then back), read from the index', async () => {
    await committed(async (repo) => {
      repo.write(SUB, sub(false));
      repo.git('add', '--', SUB);
      // The working tree puts the check back; the commit does not have it.
      repo.write(SUB, sub(true));
      const before = treeAndIndexDigest(repo.dir);
      const r = await gateOn(repo);
      expect(r.verdict).toBe('fail');
      expect(spots(r)).toEqual([`${SUB}:3 tap-without-check`]);
      expect(r.findings[0]!.message).toContain(`followed by back at ${MAIN}:5`);
      // The subflow and its caller, not the unrelated flow.
      expect(r.counts.files).toBe(2);
      expect(treeAndIndexDigest(repo.dir)).toBe(before);
    });
  });

  it('the same subflow staged with its check passes, having judged it and its caller', async () => {
    await committed(async (repo) => {
      repo.write(SUB, sub(true).replace('Your cart', 'Your basket'));
      repo.git('add', '--', SUB);
      const r = await gateOn(repo);
      expect(spots(r)).toEqual([]);
      expect(r.verdict).toBe('pass');
      expect(r.counts.files).toBe(2);
    });
  });

  it('a staged caller change breaks the unstaged subflow\'s last tap: reported at the subflow\'s line', async () => {
    await withGitRepo({ ...files, [MAIN]: main.replace('- back\n', '- assertVisible: "Your cart"\n- back\n'), [SUB]: sub(false) }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'flows');
      expect(spots(await gateOn(repo))).toEqual([]);
      repo.write(MAIN, main);
      repo.git('add', '--', MAIN);
      const r = await gateOn(repo);
      expect(r.verdict).toBe('fail');
      expect(spots(r)).toEqual([`${SUB}:3 tap-without-check`]);
      expect(r.counts.files).toBe(1);
    });
  });

  it('a deleted subflow: its caller is judged and its runFlow is a missing file', async () => {
    await committed(async (repo) => {
      repo.git('rm', '-q', '--', SUB);
      const r = await gateOn(repo);
      expect(r.verdict).toBe('fail');
      expect(spots(r)).toEqual([`${MAIN}:4 missing-file`]);
      expect(r.counts.files).toBe(1);
    });
  });

  it('a deleted flow nobody calls, or a staged file that is no flow: skip, nothing read', async () => {
    await committed(async (repo) => {
      repo.git('rm', '-q', '--', OTHER);
      const r = await gateOn(repo);
      expect(r.verdict).toBe('skip');
      repo.git('reset', '-q', '--', OTHER);
      repo.write('README.md', '# shop!\n');
      repo.git('add', '--', 'README.md');
      repo.git('checkout', '-q', '--', OTHER);
      expect((await gateOn(repo)).verdict).toBe('skip');
    });
  });

  it('a staged workspace config judges every flow of its workspace, entry points from it', async () => {
    await committed(async (repo) => {
      repo.write('.maestro/config.yaml', 'flows:\n  - "*"\nexcludeTags:\n  - wip\n');
      repo.git('add', '--', '.maestro/config.yaml');
      const r = await gateOn(repo);
      expect(r.verdict).toBe('pass');
      expect(r.counts.files).toBe(3);
      expect(r.notes[0]).toContain('entry points from workspace config .maestro/config.yaml');
    });
  });
});

// fresh-user F1 (Tusky): `tapOn: "Log in"` twice in a row passed with both taps "checked": the second tap finds the
// element the first one tapped whether or not the screen moved on. A warning (the commit goes on): in the corpus the
// second is a dialog's own button of the same label (duckduckgo's "Delete" after "Delete").
describe('maestro-flows: the same selector tapped twice in a row (fresh-user F1)', () => {
  const LOGIN = '.maestro/login.yaml';
  const flow = (first: string, second: string) => `appId: com.keylesspalace.tusky\n---\n- launchApp\n- tapOn: ${first}\n- tapOn: ${second}\n- assertVisible: "Domain of your instance"\n`;
  const judged = (content: string, config: unknown = {}) =>
    withGitRepo({ 'README.md': '# app\n' }, async (repo) => {
      repo.git('add', '--', '.');
      repo.git('commit', '-q', '-m', 'init');
      repo.write(LOGIN, content);
      repo.git('add', '--', LOGIN);
      return runGate({ gate: maestroFlowsGate, config: maestroFlowsGate.configSchema.parse(config), timeoutMs: 30_000 }, { ws: await indexWorkspace(repo.dir, {}), cacheRoot: '/tmp/loopgates-test-cache' });
    });

  it('red: the second tapOn "Log in" is not the check of the first: a same-selector-tap warning at the first, not counted as checked', async () => {
    const r = await judged(flow('"Log in"', '"Log in"'));
    expect(r.verdict).toBe('pass');
    expect(r.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.rule} ${f.severity}`)).toEqual([`${LOGIN}:4:3 same-selector-tap warning`]);
    expect(r.findings[0]!.message).toBe(`tapOn is followed by tapOn on the same selector at ${LOGIN}:5: the second tap finds the element whether or not this tap moved the screen on, so it does not prove this tap's effect; add an assertVisible or extendedWaitUntil for what this tap should show (a dialog's own button of the same label: assert the dialog) before tapping again`);
    expect(r.notes[0]).toMatch(/^1 flows, 2 taps \(1 checked, 1 followed only by a tap on the same selector, 0 focus taps/);
  });

  it('red: the same selector in another spelling (a map with text:, an option that does not choose the element) is the same', async () => {
    const r = await judged(flow('{text: "Log in", retryTapIfNoChange: false}', '"Log in"'));
    expect(r.findings.map((f) => `${f.file}:${f.line} ${f.rule}`)).toEqual([`${LOGIN}:4 same-selector-tap`]);
  });

  it('green: another selector (another index, another label) still counts as the check, by default', async () => {
    for (const second of ['{text: "Log in", index: 1}', '"Log in with browser"']) {
      const r = await judged(flow('"Log in"', second));
      expect(r.findings, second).toEqual([]);
      expect(r.notes[0]).toMatch(/^1 flows, 2 taps \(2 checked, 0 focus taps/);
    }
  });

  it('strictChecks: the first tap is unchecked (an error), with no warning besides it', async () => {
    const r = await judged(flow('"Log in"', '"Log in"'), { strictChecks: true });
    expect(r.findings.map((f) => `${f.file}:${f.line} ${f.rule} ${f.severity}`)).toEqual([`${LOGIN}:4 tap-without-check error`]);
    expect(r.verdict).toBe('fail');
  });
});
