// Shipped self-test cases of maestro-flows (DESIGN.md "self-test"): one clean workspace (a tap, a check, a focus tap
// with typing, a bounded retry, a subflow) and one red case per rule, each expecting its finding at the injected line.
import type { SelfTestCase } from '../../core/types.js';

/** 1-based line of the first line of `content` containing `needle`; throws when absent (a broken case is a bug). */
export function lineOf(content: string, needle: string): number {
  const i = content.split('\n').findIndex((l) => l.includes(needle));
  if (i === -1) throw new Error(`self-test case: ${JSON.stringify(needle)} not found`);
  return i + 1;
}

const MAIN = '.maestro/create-note.yaml';
const SUB = '.maestro/subflows/open-settings.yaml';

/** A clean entry-point flow: cold launch, taps each followed by a check, a focus tap, a bounded retry, a subflow. */
export const GREEN_MAIN = `appId: com.example.notes
tags:
  - smoke
---
- launchApp:
    clearState: true
- tapOn:
    id: "new_note"
- assertVisible: "New note"
- tapOn:
    id: "title"
- inputText: "Groceries"
- hideKeyboard
- assertVisible: "Groceries"
- retry:
    maxRetries: 2
    commands:
      - tapOn: "Save"
      - extendedWaitUntil:
          visible: "Saved"
          timeout: 5000
- repeat:
    times: 2
    commands:
      - tapOn: "Undo"
      - waitForAnimationToEnd
- runFlow: subflows/open-settings.yaml
- assertVisible: "Settings"
- tapOn: "Close"
- assertVisible: "Notes"
- back
`;

/** A subflow ending in a tap: its caller's next command must check it. */
export const GREEN_SUB = `appId: com.example.notes
---
- tapOn: "More"
- assertVisible: "Settings"
- tapOn: "Settings"
`;

const green = { [MAIN]: GREEN_MAIN, [SUB]: GREEN_SUB };

/** `GREEN_MAIN` with `from` replaced by `to` (which must occur once). */
function variant(from: string, to: string, base = GREEN_MAIN): string {
  if (!base.includes(from)) throw new Error(`self-test case: ${JSON.stringify(from)} not found`);
  return base.replace(from, to);
}

function red(name: string, rule: string, file: string, content: string, needle: string, extra: Partial<SelfTestCase> = {}): SelfTestCase {
  return { name, kind: 'red', files: { ...green, [file]: content }, expect: { file, line: lineOf(content, needle), rule }, ...extra };
}

export function maestroFlowsSelfTest(): SelfTestCase[] {
  const noCheck = variant('- assertVisible: "New note"\n', '- back\n');
  const noCheckSub = variant('- tapOn: "Settings"\n', '- tapOn: "Settings"\n- back\n', GREEN_SUB);
  const callerAfterSub = variant('- runFlow: subflows/open-settings.yaml\n- assertVisible: "Settings"\n', '- runFlow: subflows/open-settings.yaml\n- back\n');
  const whileOnly = variant('    times: 2\n', '    while:\n      notVisible: "Nothing to undo"\n');
  const retries = variant('    maxRetries: 2\n', '    maxRetries: 10\n');
  const retryExpr = variant('    maxRetries: 2\n', '    maxRetries: ${RETRIES}\n');
  const retryNoCheck = variant('      - extendedWaitUntil:\n          visible: "Saved"\n          timeout: 5000\n', '      - tapOn: "Close"\n');
  const retap = variant('- tapOn:\n    id: "new_note"\n', '- tapOn:\n    id: "new_note"\n    retryTapIfNoChange: true\n');
  const tapRepeat = variant('- tapOn:\n    id: "new_note"\n', '- tapOn:\n    id: "new_note"\n    repeat: 2\n');
  const point = variant('- tapOn:\n    id: "new_note"\n', '- tapOn:\n    point: "540,1200"\n');
  const regex = variant('- assertVisible: "New note"\n', '- assertVisible: "Note (1)"\n');
  const missing = variant('- runFlow: subflows/open-settings.yaml\n', '- runFlow: subflows/close-dialog.yaml\n- runFlow: subflows/open-settings.yaml\n');
  const warm = variant('- launchApp:\n    clearState: true\n', '- launchApp:\n    stopApp: false\n');
  const selectorNext = variant('- assertVisible: "Settings"\n', '', GREEN_SUB);
  const sameSelector = variant('- assertVisible: "Settings"\n', '- tapOn: "More"\n', GREEN_SUB);
  const platformSub = `appId: com.example.notes
---
- runFlow:
    when:
      platform: Android
    commands:
      - tapOn: "Menu"
- runFlow:
    when:
      platform: iOS
    commands:
      - back
- assertVisible: "Settings"
`;
  const noConfig = GREEN_SUB.replace('appId: com.example.notes\n---\n', '');
  return [
    { name: 'clean flow: taps checked, focus tap typed then checked, bounded retry and repeat, subflow checked by its caller', kind: 'green', files: green },
    { name: 'clean flow, only the subflow staged: its last tap is checked by the caller', kind: 'green', files: green, targets: [SUB] },
    red('tap followed by back with no check', 'tap-without-check', MAIN, noCheck, '- tapOn:'),
    red('subflow tap followed by back', 'tap-without-check', SUB, noCheckSub, '- tapOn: "Settings"'),
    {
      name: 'caller changed, subflow unstaged: the subflow\'s last tap is now followed by back (judged through the caller)',
      kind: 'red',
      files: { [MAIN]: callerAfterSub, [SUB]: GREEN_SUB },
      targets: [MAIN],
      expect: { file: SUB, line: lineOf(GREEN_SUB, '- tapOn: "Settings"'), rule: 'tap-without-check' },
    },
    { name: 'a tap in an Android-only block is not judged by the iOS-only block after it', kind: 'green', files: { ...green, [SUB]: platformSub } },
    red('the same tap followed by back outside the platform blocks', 'tap-without-check', SUB, platformSub.replace('- assertVisible: "Settings"\n', '- back\n'), '- tapOn: "Menu"'),
    { name: 'a tap followed by a selector tap passes by default (Maestro waits for that element)', kind: 'green', files: { ...green, [SUB]: selectorNext } },
    red('strictChecks: a following selector tap does not count as the check', 'tap-without-check', SUB, selectorNext, '- tapOn: "More"', { config: { strictChecks: true } }),
    red('a tap followed by a tap on the same selector (rule raised to error)', 'same-selector-tap', SUB, sameSelector, '- tapOn: "More"', { config: { rules: { 'same-selector-tap': 'error' } } }),
    red('repeat with while and no times', 'unbounded-repeat', MAIN, whileOnly, '- repeat:'),
    red('retry maxRetries above 3', 'retry-bound', MAIN, retries, 'maxRetries: 10'),
    red('retry maxRetries not a literal', 'retry-bound', MAIN, retryExpr, 'maxRetries: ${RETRIES}'),
    red('retry body ends in a tap', 'retry-bound', MAIN, retryNoCheck, '- tapOn: "Close"'),
    red('retryTapIfNoChange: true', 'blind-retap', MAIN, retap, 'retryTapIfNoChange: true'),
    red('a tap\'s own repeat: 2 (two taps, no check between)', 'blind-retap', MAIN, tapRepeat, 'repeat: 2'),
    red('tap at a pixel point', 'point-tap', MAIN, point, 'point: "540,1200"'),
    red('selector with regex metacharacters (rule raised to error)', 'regex-selector', MAIN, regex, 'Note (1)', { config: { rules: { 'regex-selector': 'error' } } }),
    red('runFlow at a file that does not exist', 'missing-file', MAIN, missing, 'close-dialog.yaml'),
    red('entry flow that starts warm (rule raised to error)', 'cold-start', MAIN, warm, '- launchApp:', { config: { rules: { 'cold-start': 'error' } } }),
    red('flow without its config section', 'invalid-flow', SUB, noConfig, '- tapOn: "More"'),
  ];
}
