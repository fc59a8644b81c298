// The maestro-flows gate's options in loopgates.yaml (`gates.maestro-flows`), a strict zod schema:
// `configSchema.parse({})` gives the defaults.
import { z } from 'zod';
import { lazySchema } from '../../core/lazy-schema.js';

/** Rule ids and their default severities (README.md beside this file says what each catches and why). */
export const RULES = {
  /** A tapOn / doubleTapOn / longPressOn not followed by a bounded check of its effect before the next action. */
  'tap-without-check': 'error',
  /**
   * A tap whose only following "check" is a tap on the identical selector (it finds the same element whether or not
   * the first tap moved the screen on). A warning: the second is often another element of the same label (a dialog's).
   */
  'same-selector-tap': 'warning',
  /** `repeat` with `while:` and no `times:` (Maestro bounds it at Int.MAX), or a non-literal `times`. */
  'unbounded-repeat': 'error',
  /** `retry` without a literal 0..3 `maxRetries`, or whose body does not end in a check. */
  'retry-bound': 'error',
  /** `retryTapIfNoChange` not literally false, a tap's own `repeat:` above 1, or (Maestro below 1.41) a tapOn without `retryTapIfNoChange: false`. */
  'blind-retap': 'error',
  /** `point:` in pixels (error) or percent (reported as a warning whatever this says, unless off). */
  'point-tap': 'error',
  /** A `text:` / `id:` selector with regex metacharacters and no `.*` (Maestro matches a full regex). */
  'regex-selector': 'warning',
  /** A runFlow / retry.file / runScript target that is not in the snapshot, or is not a literal path. */
  'missing-file': 'error',
  /** An entry-point flow that acts before a cold launch (launchApp, stopApp, clearState). */
  'cold-start': 'warning',
  /** A file that does not parse as a flow (YAML syntax, no config section, malformed command). */
  'invalid-flow': 'error',
} as const;

export type RuleId = keyof typeof RULES;
const ruleIds = Object.keys(RULES) as [RuleId, ...RuleId[]];

/** Flow files found by default: every YAML file under a `.maestro/` folder (the workspace config is not a flow). */
export const DEFAULT_FLOWS: readonly string[] = ['**/.maestro/**/*.yaml', '**/.maestro/**/*.yml'];
export const DEFAULT_EXCLUDE: readonly string[] = ['**/node_modules/**'];

export const configSchema = lazySchema(() =>
  z
    .object({
      flows: z
        .array(z.string().min(1))
        .default([...DEFAULT_FLOWS])
        .describe('Globs (picomatch, repository-relative) of Maestro flow files. A folder outside .maestro/ is a workspace rooted at the glob\'s static base.'),
      exclude: z.array(z.string().min(1)).default([...DEFAULT_EXCLUDE]).describe('Globs of paths never judged as flows; an entry starting with `!` takes back what an earlier one excluded (the last match decides).'),
      entryPoints: z
        .array(z.string().min(1))
        .optional()
        .describe('Globs of the flows run on their own (override the workspace config.yaml `flows` / includeTags / excludeTags).'),
      strictChecks: z
        .boolean()
        .default(false)
        .describe('When true, a following selector command (which Maestro waits for) does not count as the check of a tap: only assertVisible, extendedWaitUntil, … do.'),
      maestroVersion: z
        .string()
        .regex(/^\d+\.\d+(\.\d+)?$/, 'a version such as 1.40.3')
        .optional()
        .describe('Maestro CLI version the flows run on (else detected from a pinned MAESTRO_VERSION in CI files). Below 1.41 every tapOn needs retryTapIfNoChange: false.'),
      ignoreMissing: z
        .array(z.string().min(1))
        .default([])
        .describe('Globs (repository-relative) of runFlow / runScript targets that may be absent from the snapshot (git-ignored local scripts).'),
      rules: z.record(z.enum(ruleIds), z.enum(['error', 'warning', 'off'])).default({}).describe('Severity per rule id (error, warning, off), overriding the defaults.'),
    })
    .strict(),
);

export type MaestroFlowsConfig = z.infer<typeof configSchema>;

/** The severity of `rule` under `config` ('off' drops its findings). */
export function severityOf(config: Pick<MaestroFlowsConfig, 'rules'>, rule: RuleId): 'error' | 'warning' | 'off' {
  return config.rules[rule] ?? RULES[rule];
}
