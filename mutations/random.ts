// A small seeded generator so `loopgates mutate --seed N` picks the same inputs and mutants on every machine.
// mulberry32 (Tommy Ettinger, public domain): 32-bit state, period 2^32, plenty for sampling files.

/** Default seed when `--seed` is not given; printed with every run so a failure can be replayed. */
export const defaultSeed = 20240401;

/** A generator of uniform [0, 1) numbers from a 32-bit `seed` (non-integers are truncated, negatives wrapped). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Derive a per-stream seed from a base seed and a label (gate id + operator id), so adding a gate does not reshuffle others. */
export function deriveSeed(seed: number, label: string): number {
  let h = (seed ^ 0x811c9dc5) >>> 0;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** `items` in a seeded random order (Fisher–Yates); the input is not modified. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
