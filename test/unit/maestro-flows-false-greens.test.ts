// fresh6 F4–F6: flows that landed though their taps are not checked as the gate says. Each red case is the user's
// repro (or its minimal form) and must be refused at the named spot; each green case is its honest neighbour.
import { describe, expect, it } from 'vitest';
import { runGate } from '../../core/runner.js';
import { memoryWorkspace } from '../../core/workspace.js';
import type { GateResult } from '../../core/types.js';
import { maestroFlowsGate } from '../../gates/maestro-flows/index.js';

const FLOW = '.maestro/a.yaml';
/** `launchApp`, then `tap` (YAML lines, indented as list items), then `after`. */
const flow = (tap: string, after = '- assertVisible: "Done"\n') => `appId: x\n---\n- launchApp\n${tap}${after}`;
const judged = async (content: string, config: unknown = {}): Promise<GateResult> =>
  runGate(
    { gate: maestroFlowsGate, config: maestroFlowsGate.configSchema.parse(config), timeoutMs: 10_000 },
    { ws: memoryWorkspace({ files: { [FLOW]: content }, mode: 'staged' }), cacheRoot: '/tmp/loopgates-test-cache' },
  );
const spots = (r: GateResult) => r.findings.map((f) => `${f.line}:${f.column} ${f.rule} ${f.severity}`);

// F4: Maestro's tapCommand turns `repeat: N` into TapRepeat(N, delay): N taps at the same point, 100 ms apart, with no
// look at the screen between (maestro-client Maestro.kt); `repeat` <= 0 is one tap. A blind re-tap with no condition.
describe('maestro-flows: a tap\'s own repeat: option (fresh6 F4)', () => {
  it('red: tapOn with repeat: 5 is a blind-retap error at its repeat key', async () => {
    const r = await judged(flow('- tapOn:\n    text: "Go"\n    repeat: 5\n'));
    expect(r.verdict).toBe('fail');
    expect(spots(r)).toEqual(['6:5 blind-retap error']);
    expect(r.findings[0]!.message).toMatch(/^tapOn with repeat: 5 taps 5 times at the same point with no check between/);
  });

  it('red: a repeat Maestro reads as more than one tap (quoted, a float it truncates, not a literal)', async () => {
    for (const v of ['"3"', '2.5', '${TIMES}', 'many']) {
      const r = await judged(flow(`- tapOn:\n    text: "Go"\n    repeat: ${v}\n`));
      expect(spots(r), v).toEqual(['6:5 blind-retap error']);
    }
    expect((await judged(flow('- tapOn:\n    text: "Go"\n    repeat: ${TIMES}\n'))).findings[0]!.message).toContain('not a literal');
  });

  it('red: repeat on doubleTapOn / longPressOn (Maestro ignores it there: the flow does not do what it says)', async () => {
    for (const cmd of ['doubleTapOn', 'longPressOn']) {
      const r = await judged(flow(`- ${cmd}:\n    text: "Go"\n    repeat: 3\n`));
      expect(spots(r), cmd).toEqual(['6:5 blind-retap error']);
      expect(r.findings[0]!.message, cmd).toContain('Maestro ignores repeat');
    }
  });

  it('green: repeat: 1 (or 0, one tap to Maestro), and a repeat block whose tap is re-found each time', async () => {
    for (const v of ['1', '0']) expect(spots(await judged(flow(`- tapOn:\n    text: "Go"\n    repeat: ${v}\n`))), v).toEqual([]);
    const block = flow('- repeat:\n    times: 3\n    commands:\n      - tapOn: "Add"\n', '- assertVisible: "3"\n');
    expect(spots(await judged(block))).toEqual([]);
  });
});

// F5: Maestro reads flows with Jackson: the string "true" is coerced to true, and older YAML readers take yes/on as
// true. Only a literal false (or "false", which Jackson coerces to false) turns the re-tap off.
describe('maestro-flows: retryTapIfNoChange not literally false (fresh6 F5)', () => {
  for (const v of ['"true"', 'yes', 'on', '"True"', '${RETAP}', '1']) {
    it(`red: retryTapIfNoChange: ${v} is a blind-retap error`, async () => {
      const r = await judged(flow(`- tapOn:\n    text: "Go"\n    retryTapIfNoChange: ${v}\n`));
      expect(r.verdict).toBe('fail');
      expect(spots(r)).toEqual(['6:5 blind-retap error']);
      expect(r.findings[0]!.message).toContain('not literally false');
    });
  }

  it('red: a YAML merge key brings retryTapIfNoChange: true in (resolved with yaml\'s merge option); Maestro does not read merge keys', async () => {
    const r = await judged(flow('- tapOn:\n    <<: {retryTapIfNoChange: true}\n    text: "Go"\n'));
    expect(r.verdict).toBe('fail');
    expect(spots(r)).toEqual(['4:3 blind-retap error', '5:5 invalid-flow error']);
    expect(r.findings[1]!.message).toContain('merge key');
  });

  it('red: an alias (Jackson reads *name as the text "name") is an invalid flow', async () => {
    const r = await judged(flow('- tapOn: &go\n    text: "Go"\n- assertVisible: "Next"\n- tapOn: *go\n'));
    expect(spots(r)).toEqual(['7:10 invalid-flow error']);
    expect(r.findings[0]!.message).toContain('alias');
  });

  it('green: false, "false" and False turn it off; no finding', async () => {
    for (const v of ['false', '"false"', 'False']) expect(spots(await judged(flow(`- tapOn:\n    text: "Go"\n    retryTapIfNoChange: ${v}\n`))), v).toEqual([]);
  });

  it('Maestro below 1.41: a quoted "false" counts as the explicit false; "no" does not', async () => {
    const cfg = { maestroVersion: '1.40.0' };
    expect(spots(await judged(flow('- tapOn:\n    text: "Go"\n    retryTapIfNoChange: "false"\n'), cfg))).toEqual([]);
    expect(spots(await judged(flow('- tapOn:\n    text: "Go"\n    retryTapIfNoChange: no\n'), cfg))).toEqual(['6:5 blind-retap error']);
  });
});

// F6: a check that matches any screen (an empty selector, a regex matching any text, attributes only) or waits
// longer than any bound worth the name proves nothing about the tap: the tap is unchecked (tap-without-check, error,
// as for a tap followed by an action). A counted repeat far above any real count is unbounded-repeat.
describe('maestro-flows: checks that check nothing (fresh6 F6)', () => {
  const tap = '- tapOn:\n    text: "Analytics"\n';
  for (const check of ['- assertVisible: ""\n', '- assertVisible: ".*"\n', '- assertVisible: "(.*)"\n', '- assertVisible: {enabled: true}\n', '- assertVisible: {text: ".+", checked: false}\n', '- extendedWaitUntil: {visible: ".*", timeout: 5000}\n', '- scrollUntilVisible: {element: {enabled: true}}\n', '- assertVisible: {below: ""}\n']) {
    it(`red: ${check.trim()} after a tap is not its check`, async () => {
      const r = await judged(flow(tap, check));
      expect(r.verdict).toBe('fail');
      // ".+" is also a regex-selector warning (metacharacters, no .*): only the errors are asserted here.
      expect(spots(r).filter((s) => s.endsWith(' error'))).toEqual(['4:3 tap-without-check error']);
      expect(r.findings[0]!.message).toContain(`${check.slice(2).split(':')[0]} at ${FLOW}:6, which checks nothing`);
      expect(r.notes[0]).toMatch(/^1 flows, 1 taps \(0 checked/);
    });
  }

  it('red: extendedWaitUntil with a timeout of 999999999 ms (11.5 days) is no bound; above the 5-minute cap', async () => {
    const r = await judged(flow(tap, '- extendedWaitUntil: {visible: "Share analytics data", timeout: 999999999}\n'));
    expect(spots(r)).toEqual(['4:3 tap-without-check error']);
    expect(r.findings[0]!.message).toContain('timeout 999999999 ms');
    const quoted = await judged(flow(tap, '- extendedWaitUntil: {visible: "Share analytics data", timeout: "300001"}\n'));
    expect(spots(quoted)).toEqual(['4:3 tap-without-check error']);
  });

  it('red: a retry body ending in a check that checks nothing', async () => {
    const r = await judged(flow('- retry:\n    maxRetries: 2\n    commands:\n      - tapOn: "Sync"\n      - assertVisible: ".*"\n', ''));
    expect(spots(r)).toEqual(['7:9 tap-without-check error', '8:9 retry-bound error']);
    expect(r.findings[1]!.message).toContain('checks nothing');
  });

  it('red: repeat times 100000 is unbounded-repeat (above 1000)', async () => {
    const r = await judged(flow('- repeat:\n    times: 100000\n    commands:\n      - tapOn: "Next"\n      - assertVisible: "Page"\n', ''));
    expect(spots(r)).toEqual(['4:3 unbounded-repeat error']);
    expect(r.findings[0]!.message).toContain('above 1000');
  });

  it('green: checks that name what the tap should show, waits up to the cap, counts up to 1000', async () => {
    for (const check of ['- assertVisible: "Share analytics data"\n', '- assertVisible: "Item .*"\n', '- assertVisible: {id: "switch", checked: true}\n', '- assertVisible: {text: ".*", below: "Analytics"}\n', '- extendedWaitUntil: {visible: "Share analytics data", timeout: 300000}\n', '- extendedWaitUntil: {notVisible: ".*"}\n', '- assertVisible: ${EXPECTED}\n']) {
      const r = await judged(flow(tap, check));
      expect(spots(r).filter((s) => !s.includes('regex-selector')), check).toEqual([]);
      expect(r.notes[0], check).toMatch(/^1 flows, 1 taps \(1 checked/);
    }
    expect(spots(await judged(flow('- repeat:\n    times: 1000\n    commands:\n      - tapOn: "Next"\n      - assertVisible: "Page"\n', '')))).toEqual([]);
  });
});
