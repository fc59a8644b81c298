// Input selection for gates that read files by path: include/exclude globs (picomatch, `dot: true`,
// repository-relative), the refusal of an exclude that blinds the gate to everything it could read, and the note a
// gate prints when its filters removed every candidate (DESIGN.md: a filter that drops every candidate is itself a
// warning). Used by hardcoded-strings and string-parity; a new gate with include/exclude keys calls these.
import { join } from 'node:path';
import picomatch from 'picomatch';
import { excludeMatcher } from './exclude.js';
import { LoopgatesError } from './errors.js';
import type { GateSettings } from './runner.js';
import { runTool } from './tools.js';
import type { Gate, GateContext, Workspace } from './types.js';

export { excludeMatcher, outputFolderExcludes } from './exclude.js';

/** How a gate selects its inputs from a run's targets. */
export interface InputGlobs {
  /** The gate id, for the config key path in the refusal (`gates.<gate>.exclude[i]`). */
  gate: string;
  /** Globs of the files judged; a path must match one. */
  include: readonly string[];
  /** Globs of paths never judged. */
  exclude: readonly string[];
  /** Paths the gate can read at all (by extension, say), tested before the globs, which cost more to compile. */
  reads?: (path: string) => boolean;
  /**
   * One ordinary path of each kind the gate reads: when the globs leave nothing and an exclude entry matches every
   * one of these and every candidate, that entry blinds the gate and the selection refuses (LoopgatesError: verdict
   * `error`, the commit refused) instead of a quiet skip. Empty: never refuses.
   */
  probePaths?: readonly string[];
  /** What the probe paths stand for, in the refusal: `layouts, Kotlin, Java, Swift, JSX`. */
  probeWhat?: string;
  /** What the gate could then never find, in the refusal: `a hard-coded string`. */
  blindTo?: string;
}

/**
 * The `targets` the gate reads: `reads`, included, not excluded, in the targets' order. Throws LoopgatesError naming
 * the exclude entry when it matches every probe path and every candidate (`**`, `*`): that config can never judge.
 */
export function selectInputs(targets: readonly string[], globs: InputGlobs): string[] {
  const candidates = globs.reads ? targets.filter(globs.reads) : [...targets];
  if (candidates.length === 0) return [];
  const inc = globs.include.length > 0 ? picomatch([...globs.include], { dot: true }) : () => false;
  const exc = excludeMatcher(globs.exclude);
  const selected = candidates.filter((p) => inc(p) && !exc(p));
  const probes = globs.probePaths ?? [];
  if (selected.length === 0 && probes.length > 0) {
    globs.exclude.forEach((glob, i) => {
      // A `!` entry takes paths back: it never blinds, and a probe it takes back is readable.
      if (glob.startsWith('!')) return;
      const m = picomatch(glob, { dot: true });
      if (probes.every((p) => m(p) && exc(p)) && candidates.every((p) => m(p))) {
        throw new LoopgatesError(
          `gates.${globs.gate}.exclude[${i}] ${JSON.stringify(glob)} excludes every file this gate could read${globs.probeWhat ? ` (${globs.probeWhat})` : ''}: it can never find ${globs.blindTo ?? 'anything'}`,
          `narrow gates.${globs.gate}.exclude[${i}] in loopgates.yaml, or turn the gate off out loud: gates.${globs.gate}.enabled: false`,
        );
      }
    });
  }
  return selected;
}

/**
 * The blindness note when `filter` removed every one of `total` candidates (`removed === total > 0`), else
 * undefined: `<filter> removed every <unit> (<removed> of <total>)<tail>`. Printed as a warning with the verdict
 * (GateOutput.notes); mutate names such notes when a mutant survives.
 */
export function removedEveryNote(filter: string, unit: string, removed: number, total: number, tail = ''): string | undefined {
  return total > 0 && removed === total ? `${filter} removed every ${unit} (${removed} of ${total})${tail}` : undefined;
}

/** What one gate's `inputs()` finds in a repository as `run --all` sees it. `error`: inputs() threw (kept enabled). */
export interface InputDiscovery {
  gate: Gate<any>;
  inputs: number;
  /** The first few inputs (at most 3, sorted), for messages that name what a gate would read. */
  sample: string[];
  error?: string;
  /** Files shaped like its inputs that its selection leaves out (Gate.unselected), sorted, with the fix. */
  unselected?: { files: string[]; fix: string; settings?: Record<string, unknown> };
}

/**
 * Each gate's inputs over `ws` (a tree workspace in `all` mode, as `run --all` reads the repository): the discovery
 * install uses to enable the gates that have something to judge, and doctor to say which enabled gate would be
 * vacuous. Reads only; gate caches go under `cacheRoot`.
 */
export async function discoverInputs(list: ReadonlyArray<GateSettings<any>>, ws: Workspace, cacheRoot: string, signal: AbortSignal = new AbortController().signal): Promise<InputDiscovery[]> {
  const out: InputDiscovery[] = [];
  for (const s of list) {
    const ctx: GateContext<any> = { ws, config: s.config, signal, runTool, cacheDir: join(cacheRoot, s.gate.id), log: () => {} };
    try {
      const inputs = await s.gate.inputs(ctx);
      const unselected = (await s.gate.unselected?.(ctx, inputs)) ?? undefined;
      out.push({ gate: s.gate, inputs: inputs.length, sample: [...inputs].sort().slice(0, 3), ...(unselected ? { unselected } : {}) });
    } catch (err) {
      out.push({ gate: s.gate, inputs: 0, sample: [], error: err instanceof Error ? err.message : String(err) });
    }
  }
  return out;
}
