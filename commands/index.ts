// The core verbs: run / hook / explain (each in its own module), over the built-in gate registry.
import type { Verb } from '../core/command.js';
import { makeExplainVerb } from './explain.js';
import { makeHookVerb } from './hook.js';
import { makeRunVerb } from './run.js';

export { makeExplainVerb } from './explain.js';
export { HANDLED_HOOKS, makeHookVerb, preflight } from './hook.js';
export { makeRunVerb } from './run.js';
export { executeRun } from './execute.js';
export type { PreflightContext, PreflightOutcome, PreflightStep, RunRequest, VerbDeps } from './execute.js';

export const runVerb: Verb = makeRunVerb();
export const hookVerb: Verb = makeHookVerb();
export const explainVerb: Verb = makeExplainVerb();
