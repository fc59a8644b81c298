// gitleaks' `[extend] path` (8.16 config/config.go extendPath, checked against the binary): the named file is read
// with viper.SetConfigFile, so a relative path resolves against gitleaks' working directory (no `~` or `$VAR`
// expansion), its type comes from its extension, and the extension's rules (those the extending config does not
// define) and allowlists are added. Two levels at most: the config's extend and the extended file's own are
// followed, the next file's `[extend]` is ignored (maxExtendDepth 2). The file is part of the config the secrets gate
// is judged by, so it is read from the snapshot like .gitleaks.toml (the index for a commit), handed to gitleaks as a
// copy (writeScanConfig), and compared HEAD vs staged (narrowing.ts). A path outside the repository names a file no
// commit carries and no one judges: refused.
import { extname, posix } from 'node:path';
import { parse, stringify } from 'smol-toml';
import { LoopgatesError } from '../../core/errors.js';
import { redactCredentials } from '../../core/redact.js';
import type { Workspace } from '../../core/types.js';
import { tomlOf, tomlProblem } from './allowlist.js';

/** A file a gitleaks config extends by `[extend] path`: its repository-relative path and its bytes. */
export interface ExtendedFile {
  path: string;
  bytes: Buffer;
}

/** What a config extends (extendChain): the files read, every path named, and why the chain cannot be used. */
export interface ExtendChain {
  files: ExtendedFile[];
  /** Repository-relative paths the chain names, read or not (to tell whether a commit changes one). */
  paths: string[];
  problem?: { message: string; fix: string };
}

/** How the messages of extendChain speak of the side read. */
export interface ChainSide {
  /** `commit` (staged: the index) or `run` (the files checked). */
  refused: 'commit' | 'run';
  /** What a missing file is missing from: `the index`, `the files checked`. */
  from: string;
  /** The command that puts a file there, for a fix (`git add`), or undefined. */
  add?: string;
}

/** The `[extend] path` of a parsed config: a non-empty string, undefined when none, or null when it is no string. */
function extendPath(doc: Record<string, unknown>): string | undefined | null {
  const e = doc.extend;
  if (!e || typeof e !== 'object') return undefined;
  const p = (e as { path?: unknown }).path;
  if (p === undefined || p === '') return undefined;
  return typeof p === 'string' ? p : null;
}

/**
 * The files `config` (the snapshot's .gitleaks.toml; undefined: none) extends, two levels deep as gitleaks follows
 * them, each read by `read` (repository-relative path -> bytes, undefined when absent). A config that does not parse
 * extends nothing here (gitleaks and narrowing.ts report it). `problem` is set, and the chain stops, at a path that is
 * absolute, leaves the top folder, is not a string, names no file of `read`'s, or names a file that does not parse.
 */
export async function extendChain(config: Buffer | undefined, read: (path: string) => Promise<Buffer | undefined>, side: ChainSide, configName = '.gitleaks.toml'): Promise<ExtendChain> {
  const out: ExtendChain = { files: [], paths: [] };
  let from = configName;
  let doc = config === undefined ? null : tomlOf(config);
  for (let depth = 0; depth < 2 && doc; depth++) {
    const p = extendPath(doc);
    if (p === undefined) break;
    const refused = `what the secrets gate reports under it cannot be judged; ${side.refused} refused`;
    const fixIn = `name a TOML file in the repository, relative to its top folder, in ${from} (e.g. [extend] path = "gitleaks-base.toml")${side.add ? `, then: ${side.add} ${from} gitleaks-base.toml` : ''}`;
    if (p === null) {
      out.problem = { message: `${from} has an [extend] path that is no string: ${refused}`, fix: fixIn };
      break;
    }
    const shown = JSON.stringify(redactCredentials(p));
    // gitleaks reads an absolute path wherever it points, and a relative one against its working directory (the
    // top folder for a user's own run): nothing outside the repository is in any commit.
    if (posix.isAbsolute(p) || /^[A-Za-z]:/.test(p) || p.startsWith('\\')) {
      out.problem = { message: `${from} extends ${shown}, a path outside the repository (absolute): gitleaks reads that file wherever it is, staged by no commit and judged by no one, so ${refused}`, fix: fixIn };
      break;
    }
    const rel = posix.normalize(p);
    if (rel === '..' || rel.startsWith('../')) {
      out.problem = { message: `${from} extends ${shown}, a path outside the repository (it leaves the top folder): gitleaks reads that file wherever it is, staged by no commit and judged by no one, so ${refused}`, fix: fixIn };
      break;
    }
    out.paths.push(rel);
    const bytes = rel === '.' ? undefined : await read(rel);
    if (bytes === undefined) {
      out.problem = {
        message: `${from} extends ${shown}, which ${side.from} does not hold: gitleaks could not load it, or would read a file this ${side.refused} does not carry, so ${refused}`,
        fix: side.add ? `${side.add} ${rel} (or take [extend] path out of ${from}, then: ${side.add} ${from})` : `create ${rel} in the repository, or take [extend] path out of ${from}`,
      };
      break;
    }
    const problem = tomlProblem(bytes);
    if (problem !== undefined) {
      out.problem = {
        message: `${rel} (which ${from} extends) does not parse as TOML (${redactCredentials(problem)}): ${refused}`,
        fix: `repair ${rel} (TOML: https://toml.io; gitleaks' keys: https://github.com/gitleaks/gitleaks#configuration)${side.add ? `, then: ${side.add} ${rel}` : ''}`,
      };
      break;
    }
    out.files.push({ path: rel, bytes });
    from = rel;
    doc = tomlOf(bytes);
  }
  return out;
}

/** extendChain, throwing its problem as a LoopgatesError (exit 2). */
export async function extendedFiles(config: Buffer | undefined, read: (path: string) => Promise<Buffer | undefined>, side: ChainSide): Promise<ExtendedFile[]> {
  const chain = await extendChain(config, read, side);
  if (chain.problem) throw new LoopgatesError(chain.problem.message, chain.problem.fix);
  return chain.files;
}

/**
 * The config gitleaks ends up with, as one TOML document, for comparing HEAD's with the staged one (allowlist.ts
 * exemptionsAdded) and naming allowlist entries: `config`'s rules, then each extended file's rules whose id is not
 * defined yet (gitleaks 8.16 Config.extend keeps the extending config's rule), every allowlist of every file (gitleaks
 * appends them; kept as `[[allowlists]]`), `[extend] useDefault` when a level gitleaks follows sets it, the paths as
 * one `path` (`ext.toml -> base.toml`, so a changed link is seen) and every level's disabledRules. `config` itself when
 * it extends nothing or a file does not parse.
 */
export function effectiveConfig(config: Buffer | string, extended: readonly ExtendedFile[]): Buffer | string {
  if (!extended.length) return config;
  const docs = [config, ...extended.map((e) => e.bytes)].map(tomlOf);
  if (docs.some((d) => !d)) return config;
  const top = docs[0]!;
  const list = (v: unknown): Array<Record<string, unknown>> => (Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object') : []);
  const table = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);
  const rules = list(top.rules);
  const ids = new Set(rules.map((r) => r.id));
  const allowlists: Array<Record<string, unknown>> = [];
  const disabled: unknown[] = [];
  let useDefault = false;
  docs.forEach((d, level) => {
    if (level > 0) {
      for (const r of list(d!.rules)) {
        if (ids.has(r.id)) continue;
        ids.add(r.id);
        rules.push(r);
      }
    }
    const own = table(d!.allowlist);
    if (own) allowlists.push(own);
    allowlists.push(...list(d!.allowlists));
    const ext = table(d!.extend);
    // gitleaks follows the extend of the config and of the file it extends, not of the file after that.
    if (ext && level < 2) {
      if (ext.useDefault === true) useDefault = true;
      if (Array.isArray(ext.disabledRules)) disabled.push(...ext.disabledRules);
    }
  });
  const merged: Record<string, unknown> = { ...top, extend: { useDefault, path: extended.map((e) => e.path).join(' -> '), ...(disabled.length ? { disabledRules: disabled } : {}) }, rules, allowlists };
  delete merged.allowlist;
  return stringify(merged);
}

/**
 * `config` (TOML bytes) with its `[extend] path` set to `path`, keys matched as gitleaks reads them (any case), the
 * rest kept as parsed (smol-toml writes it back). For the copy gitleaks is given: the extended file is a copy beside
 * it, not the working tree's file a relative path would reach.
 */
export function withExtendPath(config: Buffer, path: string): string {
  const doc = parse(config.toString('utf8')) as Record<string, unknown>;
  for (const [k, v] of Object.entries(doc)) {
    if (k.toLowerCase() !== 'extend' || !v || typeof v !== 'object') continue;
    for (const kk of Object.keys(v)) if (kk.toLowerCase() === 'path') (v as Record<string, unknown>)[kk] = path;
  }
  return stringify(doc);
}

/** The name of the copy of extended file `level` (1 or 2): gitleaks picks the format by extension, so it is kept. */
export function extendedCopyName(level: number, path: string): string {
  return `loopgates-extend-${level}${extname(path)}`;
}

/**
 * HEAD's copy of a path, for a snapshot with a before side: `ws.before` for a path the change adds, edits or deletes
 * (it answers for those only), the index's copy for one it leaves as it is, undefined for one in neither.
 */
export function headReader(ws: Workspace): (path: string) => Promise<Buffer | undefined> {
  return async (path) => {
    const changed = (await ws.targets()).includes(path) || ((await ws.deletions?.()) ?? []).includes(path);
    if (changed) return ws.before?.(path);
    return (await ws.has(path)) ? ws.read(path) : undefined;
  };
}
