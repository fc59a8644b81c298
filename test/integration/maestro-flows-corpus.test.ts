// maestro-flows over the real Maestro flow corpus (../shared/corpus/maestro or LOOPGATES_CORPUS, read-only), in --all
// mode: every flow and both workspace configs parse without a crash, and the counts per project are exact so a
// behaviour change shows here. Findings sampled by hand are in /work/notes/issue-12.md.
import { describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import { treeWorkspace } from '../../core/snapshot.js';
import type { GateContext } from '../../core/types.js';
import { maestroFlowsGate } from '../../gates/maestro-flows/index.js';
import { judge } from '../../gates/maestro-flows/judge.js';
import type { FlowStats } from '../../gates/maestro-flows/rules.js';
import { maestroProject, sharedParent } from '../helpers/corpus.js';

/** Maestro's own repository has no .maestro/: its e2e workspace and engine test flows are named by config. */
const MAESTRO_REPO = { flows: ['e2e/workspaces/demo_app/**/*.yaml', 'maestro-test/src/test/resources/*.yaml'] };

const projects: Record<string, { config?: unknown; stats: FlowStats; findings: Record<string, number>; errors: number }> = {
  'RocketChat__Rocket.Chat.ReactNative': {
    stats: { flows: 24, taps: 74, tapsChecked: 69, focusTaps: 30, tapsAcrossRunFlow: 10, retries: 1, unboundedRepeats: 0, pointTaps: 2, missingFiles: 4, sameSelectorTaps: 0 },
    findings: { 'missing-file': 4, 'point-tap': 2, 'regex-selector': 14, 'tap-without-check': 5 },
    errors: 9,
  },
  duckduckgo__Android: {
    stats: { flows: 27, taps: 174, tapsChecked: 165, focusTaps: 67, tapsAcrossRunFlow: 39, retries: 14, unboundedRepeats: 2, pointTaps: 0, missingFiles: 4, sameSelectorTaps: 7 },
    // same-selector-tap: a list's "Delete" then the dialog's "Delete" (4), "Navigate up" twice to go two screens up (3):
    // other elements of the same label, so a warning and not an error.
    findings: { 'missing-file': 4, 'regex-selector': 41, 'retry-bound': 7, 'same-selector-tap': 7, 'tap-without-check': 2, 'unbounded-repeat': 2 },
    errors: 15,
  },
  'element-hq__element-x-android': {
    stats: { flows: 23, taps: 82, tapsChecked: 77, focusTaps: 14, tapsAcrossRunFlow: 16, retries: 2, unboundedRepeats: 0, pointTaps: 0, missingFiles: 1, sameSelectorTaps: 0 },
    findings: { 'missing-file': 1, 'regex-selector': 1, 'tap-without-check': 5 },
    errors: 6,
  },
  'mobile-dev-inc__maestro': {
    config: MAESTRO_REPO,
    stats: { flows: 44, taps: 44, tapsChecked: 33, focusTaps: 11, tapsAcrossRunFlow: 0, retries: 2, unboundedRepeats: 3, pointTaps: 2, missingFiles: 3, sameSelectorTaps: 0 },
    // blind-retap: commands_optional_tournee.yaml's `tapOn: {id: non-existent-id, repeat: 3, optional: true}`: three
    // taps with no look between whenever the element is there (optional only forgives its absence) (fresh6 F4).
    findings: { 'blind-retap': 1, 'cold-start': 7, 'missing-file': 3, 'point-tap': 2, 'regex-selector': 10, 'retry-bound': 1, 'tap-without-check': 11, 'unbounded-repeat': 3 },
    errors: 20,
  },
};

const env = { GIT_CEILING_DIRECTORIES: sharedParent };
const byRule = (fs: ReadonlyArray<{ rule: string }>) => {
  const out: Record<string, number> = {};
  for (const f of [...fs].sort((a, b) => a.rule.localeCompare(b.rule))) out[f.rule] = (out[f.rule] ?? 0) + 1;
  return out;
};

describe('maestro-flows on the Maestro flow corpus (--all)', () => {
  for (const [project, want] of Object.entries(projects)) {
    it(`${project}: exact counts of flows, taps, checks, retries, repeats, point taps, missing files and findings`, async () => {
      const ws = await treeWorkspace(maestroProject(project), 'all', undefined, env);
      const config = maestroFlowsGate.configSchema.parse(want.config ?? {});
      const ctx: GateContext<any> = { ws, config, signal: new AbortController().signal, runTool: async () => { throw new Error('no tool'); }, cacheDir: '/tmp/loopgates-test-cache', log: () => {} };
      const inputs = await maestroFlowsGate.inputs(ctx);
      const out = await judge(ctx, inputs);
      expect(out.stats).toEqual(want.stats);
      expect(byRule(out.findings)).toEqual(want.findings);
      expect(inputs.length).toBe(want.stats.flows);
      // Every flow parsed: no invalid-flow finding anywhere in the corpus (its workspace configs included).
      expect(out.findings.filter((f) => f.rule === 'invalid-flow')).toEqual([]);

      const r = await runGate({ gate: maestroFlowsGate, config, timeoutMs: 60_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache' });
      expect(r.verdict).toBe('fail');
      expect(r.counts).toMatchObject({ files: want.stats.flows, items: want.stats.taps, findings: Object.values(want.findings).reduce((a, b) => a + b, 0) });
      expect(r.findings.filter((f) => f.severity === 'error').length).toBe(want.errors);
      expect(r.itemUnit).toBe('taps');
    });
  }

  it('the 12 dangling script references of the corpus MANIFEST are exactly the missing-file findings', async () => {
    let missing = 0;
    for (const [project, want] of Object.entries(projects)) {
      const ws = await treeWorkspace(maestroProject(project), 'all', undefined, env);
      const config = maestroFlowsGate.configSchema.parse(want.config ?? {});
      const r = await runGate({ gate: maestroFlowsGate, config, timeoutMs: 60_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache' });
      const m = r.findings.filter((f) => f.rule === 'missing-file');
      for (const f of m) expect(f.message, `${f.file}:${f.line}`).toMatch(/^runScript target \S+\.js /);
      missing += m.length;
    }
    expect(missing).toBe(12);
  });

  it('true defects found at their lines: a subflow\'s last tap judged by its caller, a while-only repeat, a retry ending in a tap', async () => {
    const at = async (project: string, config: unknown = {}) => {
      const ws = await treeWorkspace(maestroProject(project), 'all', undefined, env);
      const r = await runGate({ gate: maestroFlowsGate, config: maestroFlowsGate.configSchema.parse(config), timeoutMs: 60_000 }, { ws, cacheRoot: '/tmp/loopgates-test-cache' });
      return r.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.rule}`);
    };
    const element = await at('element-hq__element-x-android');
    // poll.yaml ends with tapOn "Create"; its caller timeline.yaml goes on with `back` (line 13).
    expect(element).toContain('.maestro/tests/roomList/timeline/messages/poll.yaml:12:3 tap-without-check');
    const ddg = await at('duckduckgo__Android');
    expect(ddg).toContain('.maestro/autofill/2_autofill_add_search_update_delete_creds.yaml:22:9 unbounded-repeat');
    expect(ddg).toContain('.maestro/autofill/1_autofill_shown_in_overflow.yaml:14:9 retry-bound');
    // logout.yaml's Android-only `tapOn Logout` is not judged by the iOS-only point tap after it (was a false red).
    const rc = await at('RocketChat__Rocket.Chat.ReactNative');
    expect(rc.filter((f) => f.startsWith('.maestro/helpers/logout.yaml:') && f.endsWith('tap-without-check'))).toEqual([]);
    expect(rc).toContain('.maestro/helpers/logout.yaml:72:11 point-tap');
    const maestro = await at('mobile-dev-inc__maestro', MAESTRO_REPO);
    expect(maestro).toContain('maestro-test/src/test/resources/014_tap_on_point.yaml:4:5 point-tap');
    expect(maestro).toContain('maestro-test/src/test/resources/075_repeat_while.yaml:3:3 unbounded-repeat');
    expect(maestro).toContain('e2e/workspaces/demo_app/commands_optional_tournee.yaml:35:5 blind-retap');
  });

  it('strictChecks: true judges more taps unchecked on every project (a following selector tap no longer counts)', async () => {
    for (const [project, want] of Object.entries(projects)) {
      const ws = await treeWorkspace(maestroProject(project), 'all', undefined, env);
      const config = maestroFlowsGate.configSchema.parse({ ...(want.config as object | undefined), strictChecks: true });
      const ctx: GateContext<any> = { ws, config, signal: new AbortController().signal, runTool: async () => { throw new Error('no tool'); }, cacheDir: '/tmp/loopgates-test-cache', log: () => {} };
      const out = await judge(ctx, await maestroFlowsGate.inputs(ctx));
      expect(out.stats.tapsChecked, project).toBeLessThan(want.stats.tapsChecked);
      expect(out.notes?.[0]).toContain('strictChecks');
    }
  });
});
