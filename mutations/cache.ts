// The self-test cache consulted before every commit (DESIGN.md "Flow of a commit": self-tests cached by a hash of
// loopgates' version + config + the gate inputs that define them; run on a miss; red -> refuse). One key per gate,
// so a miss re-runs only the affected gates. The key is made of cheap facts only (stat, not content, for files that
// can be large), because a hit must cost at most 20 ms (bench/selftest-cache.mjs measures it).
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync, type Dirent } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GateSettings } from '../core/runner.js';
import type { Gate } from '../core/types.js';
import { packageVersion } from '../core/version.js';
import { commandSpecOf } from '../gates/command/spec.js';
import { isPackageRunner, scriptTokens, toolPathEnv } from '../gates/command/tools.js';

/** Bumped when the key recipe or the file format changes. */
const FORMAT = 1;

/** External scanners a built-in gate shells out to: the env var that overrides the path, and the binary name. */
export const scanners: Readonly<Record<string, { env: string; bin: string }>> = {
  secrets: { env: 'LOOPGATES_GITLEAKS', bin: 'gitleaks' },
};

/** What the cache remembers for one gate: the key and the proof it earned. Only PROVEN / WAIVED are stored. */
interface Entry {
  key: string;
  proof: string;
  cases: number;
  at: string;
}

interface CacheFile {
  format: number;
  gates: Record<string, Entry>;
}

/** `<cacheRoot>/selftest.json`; cacheRoot is `<git common dir>/loopgates/cache` (core/ledger.ts cacheRoot). */
export function selfTestCachePath(cacheRoot: string): string {
  return join(cacheRoot, 'selftest.json');
}

let pkgRootMemo: string | undefined;
/** The directory holding loopgates' package.json (source tree or installed package). */
export function packageRoot(): string {
  if (pkgRootMemo) return pkgRootMemo;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    try {
      const j = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (j.name === 'loopgates') return (pkgRootMemo = dir);
    } catch {
      /* go up */
    }
    dir = dirname(dir);
  }
  return (pkgRootMemo = dirname(dirname(fileURLToPath(import.meta.url))));
}

/** What no run executes or reads: tsc's declaration files and source maps beside the compiled gates in dist/. */
const NOT_RUN = /\.d\.ts$|\.map$/;

/**
 * `path size mtimeMs` of every regular file under `dir` (recursive, sorted) but declarations and source maps
 * (NOT_RUN: two thirds of dist/gates, stat'ed on every commit for nothing); empty when `dir` is absent.
 */
export function statTree(dir: string, out: string[] = []): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return out;
  }
  // Concatenation, not join(): `dir` is already normal (packageRoot() and join below), the names are directory
  // entries, so the string is join's; join costs ~10 µs a call in code this cold, ~300 calls a commit.
  const prefix = dir.endsWith(sep) ? dir : dir + sep;
  for (const e of entries) {
    const p = prefix + e.name;
    // The directory entry's type where it is certain (no stat needed); anything else (a symlink) is stat'ed.
    if (e.isDirectory()) {
      statTree(p, out);
      continue;
    }
    if (e.isFile() && NOT_RUN.test(e.name)) continue;
    let st;
    try {
      st = statSync(p, { throwIfNoEntry: false });
    } catch {
      continue;
    }
    if (!st) continue;
    if (st.isDirectory()) statTree(p, out);
    else if (!NOT_RUN.test(e.name)) out.push(`${p} ${st.size} ${st.mtimeMs}`);
  }
  return out;
}

/** `path size mtimeMs`, or `path absent` for anything stat cannot answer (ENOENT, ENAMETOOLONG for an inline script). */
function statLine(path: string): string {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    return st ? `${path} ${st.size} ${st.mtimeMs}` : `${path} absent`;
  } catch {
    return `${path} absent`;
  }
}

/** `path sha256`, or statLine for what is no regular file of at most 4 MiB (a directory, a device, absent). */
function contentLine(path: string): string {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    if (st?.isFile() && st.size <= 4 * 1024 * 1024) return `${path} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
  } catch {
    /* fall back to stat */
  }
  return statLine(path);
}

/** A file's text, or '' when it cannot be read. */
function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** First `bin` on PATH (PATHEXT on Windows), or undefined. */
export function onPath(bin: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (isAbsolute(bin) || bin.includes('/')) return bin;
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const d of (env.PATH ?? '').split(delimiter)) {
    if (!d) continue;
    for (const e of exts) {
      const p = join(d, bin + e);
      try {
        if (statSync(p, { throwIfNoEntry: false })?.isFile()) return p;
      } catch {
        /* unreadable PATH entry: keep looking */
      }
    }
  }
  return undefined;
}

/**
 * The cache key of one gate's self-test (sha256 hex) from: loopgates' version; the gate's settings (its section of
 * loopgates.yaml, timeout, allowEmpty); the files of its folder (its case definitions, compiled or not) and `rules/`
 * (path, size, mtime); its scanner binary (path, size, mtime); for a command gate, its spec and the repository files
 * its cases are made from (mutation files and argv paths, by stat) plus the command's binary.
 */
export function selfTestKey(settings: GateSettings<any>, repoRoot: string, env: Readonly<Record<string, string | undefined>>): string {
  const { gate } = settings;
  const h = createHash('sha256');
  h.update(`format ${FORMAT}\0version ${packageVersion()}\0gate ${gate.id}\0`);
  h.update(`config ${stableJson({ config: settings.config, timeoutMs: settings.timeoutMs, allowEmpty: settings.allowEmpty ?? null })}\0`);
  const spec = commandSpecOf(gate);
  if (spec) {
    // By content, not stat: what the command resolves to is what the proof proved (a same-size edit within the
    // mtime's resolution, or a restored mtime, must not keep a stale PROVEN).
    for (const m of spec.mutations) h.update(`${contentLine(join(repoRoot, m.file))}\0`);
    for (const a of spec.command) if (!isAbsolute(a)) h.update(`${contentLine(join(repoRoot, a))}\0`);
    // A package manager runs package.json's script text (`npm run lint` -> "eslint ."), and the files that text names.
    if (isPackageRunner(spec.command[0]!)) {
      const pkg = join(repoRoot, 'package.json');
      h.update(`${contentLine(pkg)}\0`);
      for (const token of scriptTokens(readOr(pkg))) if (!isAbsolute(token)) h.update(`${contentLine(join(repoRoot, token))}\0`);
    }
    // The binary as the gate finds it: the repository's node_modules/.bin ahead of the user's PATH.
    const bin = onPath(spec.command[0]!, { ...env, ...toolPathEnv(repoRoot, env) });
    h.update(`bin ${bin ? statLine(bin) : 'absent'}\0`);
  } else {
    const root = packageRoot();
    for (const base of [join(root, 'gates', gate.id), join(root, 'dist', 'gates', gate.id), join(root, 'rules')]) h.update(statTree(base).join('\n'));
  }
  const scanner = scanners[gate.id];
  if (scanner) {
    const bin = env[scanner.env] || onPath(scanner.bin, env);
    h.update(`scanner ${bin ? statLine(bin) : 'absent'}\0`);
  }
  return h.digest('hex');
}

// Keys sorted by code unit, not localeCompare: a collator costs ~9 ms of CPU to create, on every commit.
function stableJson(v: unknown): string {
  return JSON.stringify(v, (_k, val: unknown) =>
    val && typeof val === 'object' && !Array.isArray(val) ? Object.fromEntries(Object.entries(val as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : val,
  );
}

function readCache(path: string): CacheFile {
  try {
    const j = JSON.parse(readFileSync(path, 'utf8')) as CacheFile;
    if (j && j.format === FORMAT && j.gates && typeof j.gates === 'object') return j;
  } catch {
    /* absent or torn: a miss */
  }
  return { format: FORMAT, gates: {} };
}

/** Which gates of `list` have a cached proof under their current key (`hits`) and which must run (`misses`). */
export function checkSelfTestCache(
  list: ReadonlyArray<GateSettings<any>>,
  cacheRoot: string,
  repoRoot: string,
  env: Readonly<Record<string, string | undefined>>,
): { hits: string[]; misses: Array<{ settings: GateSettings<any>; key: string }> } {
  const cache = readCache(selfTestCachePath(cacheRoot));
  const hits: string[] = [];
  const misses: Array<{ settings: GateSettings<any>; key: string }> = [];
  for (const s of list) {
    const key = selfTestKey(s, repoRoot, env);
    if (cache.gates[s.gate.id]?.key === key) hits.push(s.gate.id);
    else misses.push({ settings: s, key });
  }
  return { hits, misses };
}

/**
 * Remember proofs that passed (PROVEN or WAIVED) under their keys; failures are never cached, so a red self-test
 * runs again on the next commit. Written atomically (temp file + rename) so a concurrent hook reads old or new.
 */
export function storeSelfTestResults(cacheRoot: string, results: ReadonlyArray<{ gate: Gate<any> | string; key: string; proof: string; cases: number }>): void {
  const path = selfTestCachePath(cacheRoot);
  const cache = readCache(path);
  for (const r of results) {
    const id = typeof r.gate === 'string' ? r.gate : r.gate.id;
    if (r.proof === 'PROVEN' || r.proof === 'WAIVED') cache.gates[id] = { key: r.key, proof: r.proof, cases: r.cases, at: new Date().toISOString() };
    else delete cache.gates[id];
  }
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(cache, null, 1)}\n`);
  renameSync(tmp, path);
}
