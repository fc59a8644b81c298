// Config globs that match no tracked file: the gate goes blind at commit time (every commit `skip (1 staged, none
// read by this gate)`, exit 0) while doctor and selftest call it healthy. Named on every run, in doctor and selftest.
import picomatch from 'picomatch';
import type { ConfiguredGate } from './config-model.js';

/** One config glob of an enabled gate that matches no path of the repository. */
export interface BlindGlob {
  gate: string;
  /** The config key holding it (`include`, `files`). */
  key: string;
  glob: string;
  /** True when every glob of that key matches nothing: the gate reads no file of this repository at all. */
  whole: boolean;
}

/**
 * The globs (Gate.selects) of `gates` (enabled ones only) that match none of `paths` (repository-relative: the
 * index's paths, or the tree's), in gate order. picomatch with `dot: true`, as the gates match them. Pure.
 */
export function blindGlobs(gates: readonly ConfiguredGate[], paths: readonly string[]): BlindGlob[] {
  const out: BlindGlob[] = [];
  for (const g of gates) {
    if (!g.enabled || !g.gate.selects) continue;
    for (const { key, globs } of g.gate.selects(g.settings.config)) {
      const dead = globs.filter((glob) => {
        const m = picomatch(glob, { dot: true });
        return !paths.some((p) => m(p));
      });
      for (const glob of dead) out.push({ gate: g.gate.id, key, glob, whole: dead.length === globs.length });
    }
  }
  return out;
}

/** The words for one blind glob, on every run, in doctor and in selftest. */
export function blindGlobMessage(b: BlindGlob): string {
  return `${b.gate}: ${b.key} glob ${JSON.stringify(b.glob)} matches no tracked file${/^\s|\s$/.test(b.glob) ? ' (it starts or ends with a space)' : ''}${b.whole ? `: the gate is blind in this repository, every commit skips it` : ''}`;
}

/** The fix for blind globs of `gate`. */
export function blindGlobFix(gate: string, key: string, source: 'builtin' | 'command'): string {
  const at = source === 'command' ? `commands[id=${gate}].${key}` : `gates.${gate}.${key}`;
  return `correct ${at} in loopgates.yaml (git ls-files lists what a glob can match; quote globs in YAML, no folded scalar), then: git add loopgates.yaml`;
}
