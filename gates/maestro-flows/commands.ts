// Maestro's commands as the tap-loop rules see them (https://docs.maestro.dev/api-reference/commands): which act,
// which check the screen with a bound, which only compute. Shared by the rules and the (parser-free) mutation operators.

/** Taps: their effect must be checked before the next action. */
export const TAPS: ReadonlySet<string> = new Set(['tapOn', 'doubleTapOn', 'longPressOn']);
/** Bounded checks: assertions (immediate) and waits bounded by a timeout or Maestro's lookup default. */
export const CHECKS: ReadonlySet<string> = new Set(['assertVisible', 'assertNotVisible', 'extendedWaitUntil', 'waitForAnimationToEnd', 'scrollUntilVisible', 'assertTrue']);
/** Commands that neither act on the UI nor check it: skipped when looking for what follows a tap. */
export const NEUTRAL: ReadonlySet<string> = new Set([
  'evalScript',
  'runScript',
  'takeScreenshot',
  'startRecording',
  'stopRecording',
  'addMedia',
  'assertWithAI',
  'assertNoDefectsWithAI',
  'assertNoDefectsWithAi',
  'extractTextWithAI',
]);
/** The typing sequence after a focus tap; the tap is judged by what follows it. hideKeyboard ends typing. */
export const TYPING: ReadonlySet<string> = new Set(['inputText', 'inputRandomText', 'inputRandomNumber', 'inputRandomEmail', 'inputRandomPersonName', 'eraseText', 'pressKey', 'pasteText', 'hideKeyboard']);
/** Commands that find an element first (Maestro waits for it): by default they count as proof the screen moved on. */
export const SELECTOR_ACTIONS: ReadonlySet<string> = new Set(['tapOn', 'doubleTapOn', 'longPressOn', 'copyTextFrom']);
/** Actions that are neither a check nor part of typing: a tap followed by one is unchecked. */
export const PLAIN_ACTIONS: ReadonlySet<string> = new Set(['back', 'swipe', 'scroll', 'launchApp', 'stopApp', 'killApp', 'openLink', 'setAirplaneMode', 'toggleAirplaneMode', 'setLocation', 'travel', 'clearState', 'clearKeychain', 'setOrientation']);

/** A workspace config file name (config.yaml / config.yml): never a flow when it sits at a workspace's root. */
export const WORKSPACE_CONFIG = /(^|\/)config\.ya?ml$/;

/** `v` as a plain map, or undefined (a command argument may be a string, a list or null). */
export const obj = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);
