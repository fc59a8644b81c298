// The signatures `loopgates retry` runs with, proven once per content: the shipped rules/ and loopgates.yaml are
// hashed, and the proven result is kept as JSON under the git common dir's loopgates cache, so a run whose rules and
// config did not change reads one small file instead of parsing YAML, validating with zod and proving every
// signature again (most of retry's start-up).
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILE } from '../../core/config-model.js';
import { packageVersion } from '../../core/version.js';
import { compileSignature, type Signature, type SignatureKind, type SignatureSpec } from './match.js';
import { rulesDir } from './rules-dir.js';
import type { RetryBounds, RetrySection, SignatureSet } from './signatures.js';

/** What retry needs from its configuration: the repository's `retry:` section, the bounds in force, the proven signatures. */
export interface RetrySetup {
  section: RetrySection | undefined;
  bounds: RetryBounds;
  signatures: SignatureSet;
  /** Whether it came from the cache (for tests and the bench). */
  cached: boolean;
}

interface CachedSignature {
  spec: SignatureSpec;
  kind: SignatureKind;
  origin: Signature['origin'];
}

interface CacheFile {
  section: RetrySection | null;
  bounds: RetryBounds;
  flakes: CachedSignature[];
  askHuman: CachedSignature[];
}

const RULES = ['flakes.yaml', 'ask-human.yaml', 'ordinary-failures.yaml'] as const;

/** The cache key: loopgates' version, the bytes of every shipped rules file and of `<root>/loopgates.yaml` (or its absence). */
export function setupKey(root: string, dir: string = rulesDir()): string {
  const h = createHash('sha256').update(`loopgates ${packageVersion()}\0`);
  for (const f of RULES) h.update(readFileSync(join(dir, f))).update('\0');
  try {
    h.update(readFileSync(join(root, CONFIG_FILE)));
  } catch {
    h.update('(no loopgates.yaml)');
  }
  return h.digest('hex').slice(0, 32);
}

const revive = (list: CachedSignature[]): Signature[] => list.map((s) => compileSignature(s.spec, s.kind, s.origin));
const keep = (list: Signature[]): CachedSignature[] => list.map((s) => ({ spec: s.spec, kind: s.kind, origin: s.origin }));

/**
 * The retry setup for the repository at `root`: from `<cacheDir>/retry-signatures-<key>.json` when present, else
 * loaded and proven (loadSections + loadSignatures: throws ConfigError / LoopgatesError as they do, and nothing is
 * cached) and written there. `cacheDir` null (outside git): never cached. A cache that cannot be written is ignored.
 */
export async function retrySetup(root: string, cacheDir: string | null): Promise<RetrySetup> {
  const file = cacheDir ? join(cacheDir, `retry-signatures-${setupKey(root)}.json`) : null;
  if (file) {
    try {
      const c = JSON.parse(readFileSync(file, 'utf8')) as CacheFile;
      return { section: c.section ?? undefined, bounds: c.bounds, signatures: { flakes: revive(c.flakes), askHuman: revive(c.askHuman) }, cached: true };
    } catch {
      /* absent or unreadable: load and prove */
    }
  }
  const [{ loadSections }, sig] = await Promise.all([import('../../core/config.js'), import('./signatures.js')]);
  const section = loadSections(root).retry;
  const signatures = sig.loadSignatures(section);
  const bounds = section?.bounds ?? sig.DEFAULT_BOUNDS;
  if (file && cacheDir) {
    try {
      mkdirSync(cacheDir, { recursive: true });
      const body: CacheFile = { section: section ?? null, bounds, flakes: keep(signatures.flakes), askHuman: keep(signatures.askHuman) };
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(body));
      renameSync(tmp, file);
      // One entry per content: an older one (before the rules or loopgates.yaml changed) will not be read again.
      for (const f of readdirSync(cacheDir)) if (f.startsWith('retry-signatures-') && f.endsWith('.json') && join(cacheDir, f) !== file) rmSync(join(cacheDir, f), { force: true });
    } catch {
      /* a read-only git dir: run uncached */
    }
  }
  return { section, bounds, signatures, cached: false };
}
