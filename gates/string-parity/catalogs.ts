// Catalog discovery and loading for every string-catalog format the string-parity gate reads (see model.ts for the
// formats and their source documents). This is the stable API other gates use (hardcoded-strings reads the base
// catalog through `loadBaseIndex`): keep its signatures stable.
import { posix } from 'node:path';
import picomatch from 'picomatch';
import type { Workspace } from '../../core/types.js';
import { excludeMatcher } from '../../core/exclude.js';
import { overlayWorkspace } from '../../core/workspace.js';
import { ANDROID_VALUES as ANDROID, APPLE_LPROJ as APPLE, DEFAULT_EXCLUDE } from './defaults.js';
import type { CatalogEntry, CatalogFormat, Grammar, LoadedCatalog } from './model.js';
import { normaliseLocale } from './locale.js';
import { decodeCatalog, type DecodedCatalog } from './encoding.js';
import { chooseBase, configOption, declarationFor, readBaseDeclarations, type BaseDeclaration, type DeclarationKind } from './base-declarations.js';

export type { CatalogEntry, CatalogFormat, Grammar, LoadedCatalog, LocaleCatalog, ParseProblem, PluralCategory, PluralVariable, Variant } from './model.js';
export { normaliseLocale } from './locale.js';
export { DEFAULT_EXCLUDE } from './defaults.js';

/** One catalog file found by discovery. */
export interface CatalogFile {
  /** Repository-relative path. */
  path: string;
  format: CatalogFormat;
  /**
   * Normalised BCP 47 tag of the file's locale (`pt-BR`); for `Base.lproj` the group's base locale; for
   * `.xcstrings` (all locales in one file) the source language.
   */
  locale: string;
  /** The locale as the path spells it (`values-pt-rBR` -> `pt-rBR`, `Base`, `zh_TW`); `''` for Android `values/`. */
  rawLocale: string;
  /** Whether this file is the group's base (source) catalog. */
  isBase: boolean;
  /** Parse options found by discovery: placeholder grammar for PO files, ARB `use-escaping`. */
  grammar?: Grammar;
  useEscaping?: boolean;
}

/** Files that translate one another: one Android `strings.xml` per values folder, one `.strings` table per `.lproj`... */
export interface CatalogGroup {
  /**
   * Stable id: the base path with the locale part replaced by `*`, e.g. `res/values*` + `/strings.xml`,
   * `*.lproj/localizable.strings` (table names lowercased), `lib/l10n/app_*.arb`.
   */
  id: string;
  format: CatalogFormat;
  /** Normalised base locale tag (the language the keys are written in). */
  baseLocale: string;
  /** How the base was found: `Base.lproj`, `values/`, `.xcstrings sourceLanguage`, `l10n.yaml template-arb-file`... */
  baseSource: string;
  /** The base file, or null when the group has none (then only each file's own syntax is checked). */
  base: CatalogFile | null;
  /** Every file of the group, base included, sorted by path. */
  files: CatalogFile[];
}

/** Result of `discoverCatalogs`. */
export interface CatalogSet {
  groups: CatalogGroup[];
  /** Every catalog file by path. */
  byPath: Map<string, { group: CatalogGroup; file: CatalogFile }>;
  /** Things discovery wants a human to know (a group without base, a config override that matched nothing). */
  notes: string[];
}

/** Discovery options (the string-parity gate's config supplies them; every field optional). */
export interface DiscoveryOptions {
  /** Globs (picomatch) of catalog paths to read; empty = every path. */
  include?: readonly string[];
  /** Globs of paths never read. Default: node_modules, build output, Pods, .git. */
  exclude?: readonly string[];
  /** Force the base locale of every group (`en-US`); else auto-detected per group, falling back to `en`. */
  baseLocale?: string;
  /** Locale of `Base.lproj` (Xcode's development language). Default: the nearest `project.pbxproj` `developmentRegion`, else `en`. */
  developmentLanguage?: string;
  /** JSON catalog flavour; `auto` looks for `{{` or `_one`/`_other` keys in the base (i18next), else ICU. */
  jsonFormat?: 'auto' | 'i18next' | 'icu';
  /**
   * Build only the groups that can hold one of these repository-relative paths (a staged run's targets), and read
   * only their files. Default: every group of the snapshot. Groups are matched by path shape (`groupShapes`), a
   * superset of the real grouping, so a focused set holds each focus path's whole group: its base and every translation.
   */
  focus?: readonly string[];
}

/**
 * Path-only keys of the groups `path` could belong to: two catalog files that discovery can put in one group always
 * share a key (the converse need not hold). Empty for a path no format claims. Used by `DiscoveryOptions.focus`.
 */
export function groupShapes(path: string): string[] {
  let mm: RegExpExecArray | null;
  // One key per res folder, not per file name: Android merges every values file, so a translation's key may be
  // defined in a sibling base file (judge-files.ts androidSiblings).
  if ((mm = ANDROID.exec(path))) return [`android\0${mm[1] ?? ''}`];
  if ((mm = APPLE.exec(path))) return [`apple\0${mm[1] ?? ''}\0${mm[3]!.toLowerCase()}`];
  if (path.endsWith('.xcstrings')) return [`xcstrings\0${path}`];
  const dir = posix.dirname(path);
  if (path.endsWith('.arb')) return [`arb\0${dir}`];
  if (path.endsWith('.po') || path.endsWith('.pot')) {
    // `<dir>/*.po`, or `<parent>/*/[LC_MESSAGES/]<name>.po` (see discover()).
    const localeDir = posix.basename(dir) === 'LC_MESSAGES' ? posix.dirname(dir) : dir;
    return [`po\0${dir}`, `po\0${posix.dirname(localeDir)}\0${posix.basename(path).replace(/\.pot?$/, '')}`];
  }
  if (path.endsWith('.json')) return [`json\0${dir}`, `json\0${posix.dirname(dir)}\0${posix.basename(path)}`];
  return [];
}

// Per-workspace memo: each file is read and parsed once per run, whoever asks (the gate, hardcoded-strings).
// Keyed by the Workspace object, so an overlay (self-test, mutation) never sees a stale parse.
const memo = new WeakMap<
  Workspace,
  { bytes: Map<string, Promise<Buffer>>; parsed: Map<string, Promise<LoadedCatalog>>; sets: Map<string, Promise<CatalogSet>>; disk?: { dir: string; skip: ReadonlySet<string> } }
>();
function memoOf(ws: Workspace) {
  let m = memo.get(ws);
  if (!m) memo.set(ws, (m = { bytes: new Map(), parsed: new Map(), sets: new Map() }));
  return m;
}
function readBytes(ws: Workspace, path: string): Promise<Buffer> {
  const m = memoOf(ws);
  let p = m.bytes.get(path);
  if (!p) m.bytes.set(path, (p = ws.read(path)));
  return p;
}
/** The bytes of `path` in `ws`, read once per workspace (shared with discovery and `loadCatalog`). Throws what `ws.read` throws. */
export function catalogBytes(ws: Workspace, path: string): Promise<Buffer> {
  return readBytes(ws, path);
}
/** The text of `path`, decoded as `format`'s parser gets it (encoding.ts: BOM, UTF-16, declared encoding) when given. */
async function readText(ws: Workspace, path: string, format?: CatalogFormat): Promise<string> {
  const bytes = await readBytes(ws, path);
  return (format && decodedAs(bytes, format).text) || decode(bytes);
}

// Across workspaces, by content: `loopgates mutate` judges one changed file per overlay of a snapshot whose other
// files are the same Buffer objects (mutations/mutate.ts reads each once), and the self-tests reuse texts. So each
// Buffer is decoded once, and a catalog whose bytes were parsed before (same path, format options and bytes) is not
// parsed again: an unchanged base is parsed once per process. Bytes are compared, not hashed: a run that parses each
// file once (run --all) pays nothing (a sha1 of every file cost ~5% of the whole-corpus run), and a hit costs one
// memcmp of a file with the same path and length. Parsed catalogs are shared, never mutated.
const decoded = new WeakMap<Buffer, string>();
/**
 * Parsed catalogs by (path, options, byte length), each with the bytes it was parsed from; bounded (least recently used
 * key first out) so a long run over many catalogs stays small.
 */
const parsedByContent = new Map<string, Array<{ bytes: Buffer; parsed: Promise<LoadedCatalog> }>>();
const PARSED_BY_CONTENT_MAX = 512;

// decodeCatalog's answer per Buffer and format: discovery (androidHoldsStrings) and parsing read the same bytes.
const decodedFormats = new WeakMap<Buffer, Map<CatalogFormat, DecodedCatalog>>();
function decodedAs(bytes: Buffer, format: CatalogFormat): DecodedCatalog {
  let m = decodedFormats.get(bytes);
  if (!m) decodedFormats.set(bytes, (m = new Map()));
  let d = m.get(format);
  if (!d) m.set(format, (d = decodeCatalog(bytes, format)));
  return d;
}

function decode(bytes: Buffer): string {
  let t = decoded.get(bytes);
  if (t === undefined) {
    t = bytes.toString('utf8');
    if (t.charCodeAt(0) === 0xfeff) t = t.slice(1);
    decoded.set(bytes, t);
  }
  return t;
}

const ANDROID_RESOURCE = /<(?:string|plurals|string-array)[\s>]|<item\s[^>]*\btype\s*=\s*["']string["']/;

/**
 * Whether an Android values file is read as a catalog: its text (decoded as its parser gets it: a UTF-16 file is
 * text too, fresh6 F13) holds string resources, or it is no text we can read (bytes invalid in their encoding, or
 * NULs: UTF-32, an encoding no XML parser detects), which parsing then reports as `unparsable` instead of the file
 * being silently left out.
 */
async function androidHoldsStrings(ws: Workspace, path: string): Promise<string | undefined> {
  const bytes = await readBytes(ws, path);
  const d = decodedAs(bytes, 'android-xml');
  const text = d.text ?? decode(bytes);
  return ANDROID_RESOURCE.test(text) || d.problem || text.includes('\0') ? text : undefined;
}

/** `app_pt_BR` -> prefix `app_`, locale `pt-BR` (gen-l10n names ARB files `<prefix>_<locale>.arb`). */
function splitArbName(name: string): { prefix: string; raw: string; locale: string } | null {
  for (let i = name.indexOf('_'); i !== -1; i = name.indexOf('_', i + 1)) {
    const raw = name.slice(i + 1);
    const locale = normaliseLocale(raw);
    if (locale) return { prefix: name.slice(0, i + 1), raw, locale };
  }
  const whole = normaliseLocale(name);
  return whole ? { prefix: '', raw: name, locale: whole } : null;
}

/**
 * The unstaged Android translations a staged commit can leave without defaults, each with the changed path to blame:
 * every translation (a file that is not a base) of every Android group in a res folder where `lost`
 * (`lostAndroidDefaults`) holds a key, or, for a deleted default values file whose HEAD side is unknown (`lost` null),
 * the translations of its res folder all the same. A translation may take its keys from any values file of the
 * folder (Android merges them), so the whole folder is pulled, not only the changed file's group. Pure.
 */
export function pulledByLostDefaults(set: CatalogSet, lost: Readonly<Record<string, Readonly<Record<string, string>> | null>>, deleted: readonly string[]): Map<string, string> {
  const blame = new Map<string, string>();
  for (const [folder, keys] of Object.entries(lost)) {
    const first = keys ? Object.values(keys)[0] : deleted.find((d) => ANDROID.test(d) && groupShapes(d)[0] === folder);
    if (first !== undefined) blame.set(folder, first);
  }
  const out = new Map<string, string>();
  if (!blame.size) return out;
  for (const g of set.groups) {
    if (g.format !== 'android-xml' || !g.files.length) continue;
    const by = blame.get(groupShapes(g.files[0]!.path)[0]!);
    if (by === undefined) continue;
    for (const f of g.files) if (!f.isBase && !out.has(f.path)) out.set(f.path, by);
  }
  return out;
}

/** A translation whose base a staged commit deletes (`orphanedByBaseDeletion`). */
export interface OrphanedTranslation {
  /** The deleted base's path. */
  base: string;
  /** The translation's locale (normalised) and its group's base locale. */
  locale: string;
  baseLocale: string;
}

const orphanMemo = new WeakMap<Workspace, Map<string, Promise<Map<string, OrphanedTranslation>>>>();

/**
 * Translations a staged commit leaves without their base catalog, outside Android (Android: `lostAndroidDefaults`,
 * rule `missing-default`). For each `deleted` path (a staged deletion, non-Android) that discovery over the snapshot
 * with the deleted files put back from HEAD (`ws.before`) makes the base of a group: that group's other files still
 * in the snapshot, unless discovery over the snapshot as staged finds a base for the same group (a base renamed or
 * replaced in the same commit). A gettext template (`.pot`) is no base a program reads at run time, so deleting one
 * orphans nothing. Result: translation path -> the deleted base and the locales; empty when the workspace has no HEAD side
 * (`ws.before`). Memoised per workspace and `deleted` (the gate's inputs() and run() both ask). Throws what
 * `ws.read` / `ws.before` throw.
 */
export function orphanedByBaseDeletion(ws: Workspace, options: DiscoveryOptions, deleted: readonly string[]): Promise<Map<string, OrphanedTranslation>> {
  const memoKey = deleted.join('\0');
  let perWs = orphanMemo.get(ws);
  if (!perWs) orphanMemo.set(ws, (perWs = new Map()));
  let p = perWs.get(memoKey);
  if (!p) {
    p = (async () => {
      const out = new Map<string, OrphanedTranslation>();
      const before = ws.before?.bind(ws);
      const gone = deleted.filter((d) => !ANDROID.test(d) && !d.endsWith('.pot'));
      if (!before || !gone.length) return out;
      const restored = new Map<string, Buffer>();
      for (const d of gone) {
        const bytes = await before(d);
        if (bytes) restored.set(d, bytes);
      }
      if (!restored.size) return out;
      const focus = [...restored.keys()];
      const then = await discoverCatalogs(overlayWorkspace(ws, restored), { ...options, focus });
      const now = await discoverCatalogs(ws, { ...options, focus });
      for (const d of focus) {
        const hit = then.byPath.get(d);
        if (!hit || !hit.file.isBase) continue;
        const after = now.groups.find((g) => g.id === hit.group.id);
        if (after?.base) continue;
        for (const f of hit.group.files) {
          if (f.path !== d && !restored.has(f.path) && !out.has(f.path) && (await ws.has(f.path))) out.set(f.path, { base: d, locale: f.locale, baseLocale: hit.group.baseLocale });
        }
      }
      return out;
    })();
    perWs.set(memoKey, p);
  }
  return p;
}

const lostMemo = new WeakMap<Workspace, Map<string, Promise<Record<string, Record<string, string> | null>>>>();

/**
 * Keys a staged commit takes away from Android defaults. For each `changed` path (staged or deleted) that is a values
 * file of a folder with no locale qualifier: the keys its HEAD version (`ws.before`) defined that no base file of the
 * same folder defines now. Result: res folder key (`groupShapes`) -> key -> the changed path that defined it; a folder
 * whose HEAD side cannot be read (no `ws.before`, unparsable) maps to null (unknown). A translation that still
 * defines a lost key has no default for it: on a device in another locale getString throws Resources.NotFoundException.
 * Memoised per workspace and `changed` (the gate's inputs() and run() both ask). Throws what `ws.read` / `ws.before` throw.
 */
export function lostAndroidDefaults(ws: Workspace, set: CatalogSet, changed: readonly string[]): Promise<Record<string, Record<string, string> | null>> {
  let m = lostMemo.get(ws);
  if (!m) lostMemo.set(ws, (m = new Map()));
  const key = changed.join('\0');
  let p = m.get(key);
  if (!p) m.set(key, (p = computeLostDefaults(ws, set, changed)));
  return p;
}

async function computeLostDefaults(ws: Workspace, set: CatalogSet, changed: readonly string[]): Promise<Record<string, Record<string, string> | null>> {
  const out: Record<string, Record<string, string> | null> = {};
  for (const p of changed) {
    const mm = ANDROID.exec(p);
    if (!mm || androidQualifiers(mm[2] ?? '')?.locale !== null) continue;
    const folderKey = groupShapes(p)[0]!;
    if (out[folderKey] === null) continue;
    // Unknown (HEAD cannot be read, or does not parse): null; added, or empty at HEAD: nothing lost.
    const head = await headAndroidEntries(ws, p);
    if (head === null) {
      out[folderKey] = null;
      continue;
    }
    if (!head.length) continue;
    const dir = p.slice(0, p.lastIndexOf('/') + 1);
    const now = new Set<string>();
    for (const g of set.groups) {
      if (g.format !== 'android-xml' || !g.base || g.base.path.slice(0, g.base.path.lastIndexOf('/') + 1) !== dir) continue;
      for (const l of (await loadCatalog(ws, g.base)).locales) for (const e of l.entries) now.add(e.key);
    }
    const lost = (out[folderKey] ??= {});
    for (const e of head) if (!now.has(e.key) && lost[e.key] === undefined) lost[e.key] = p;
  }
  return out;
}

/**
 * The entries of HEAD's version of the Android values file `path`: `[]` when HEAD does not hold it, null when the
 * workspace cannot tell or HEAD's file does not parse.
 */
export async function headAndroidEntries(ws: Workspace, path: string): Promise<CatalogEntry[] | null> {
  if (!ws.before) return null;
  const old = await ws.before(path);
  if (!old) return [];
  const { parseAndroidXml } = await import('./parsers/android.js');
  const parsed = parseAndroidXml(path, decodeCatalog(old, 'android-xml').text ?? decode(old), 'en');
  return parsed.problems.some((x) => x.rule === 'unparsable') ? null : parsed.locales.flatMap((l) => l.entries);
}

/** A locale the gate's config names, as a declaration covering the whole repository. */
function configBase(locale: string, option = 'baseLocale'): BaseDeclaration {
  return { locale: normaliseLocale(locale) ?? locale, source: `gates.string-parity.${option}`, scope: '' };
}

/** `de, fr, …`: the distinct locales of `files`, sorted, at most six named. */
function localesOf(files: ReadonlyArray<{ locale: string }>): string {
  const all = [...new Set(files.map((f) => f.locale || '?'))].sort();
  return all.length > 6 ? `${all.slice(0, 6).join(', ')}, …` : all.join(', ');
}

/** Split Android resource qualifiers (`-pt-rBR-land`) into the locale part and the rest. */
export function androidQualifiers(q: string): { raw: string; locale: string | null; rest: string } | null {
  const parts = q.split('-').filter(Boolean);
  if (parts.length === 0) return { raw: '', locale: null, rest: '' };
  const first = parts[0]!;
  if (first.startsWith('b+')) {
    const loc = normaliseLocale(first);
    return loc ? { raw: first, locale: loc, rest: parts.slice(1).join('-') } : null;
  }
  if (!/^[a-z]{2,3}$/.test(first) || /^(?:v\d+|ldrtl|ldltr|night|notnight|land|port|car|desk|television|appliance|watch|vrheadset|round|notround|nokeys|nonav)$/.test(first)) {
    return { raw: '', locale: null, rest: parts.join('-') };
  }
  let n = 1;
  if (parts[1] && /^r[A-Z]{2}$/.test(parts[1])) n = 2;
  const raw = parts.slice(0, n).join('-');
  const loc = normaliseLocale(raw);
  return loc ? { raw, locale: loc, rest: parts.slice(n).join('-') } : null;
}

/**
 * Find every string catalog of the snapshot (`ws.allPaths()`, so a staged translation finds its unstaged base),
 * group files that translate one another, and detect each group's base locale:
 * Android `values/` (its `tools:locale`, else `en`); `Base.lproj`, else `en.lproj`; `.xcstrings` `sourceLanguage`;
 * `en.json`; l10n.yaml `template-arb-file` (and `use-escaping`); `.linguirc` `sourceLocale`. `options.baseLocale`
 * overrides the detection. Reads Android values XML, `.xcstrings`, JSON bases and config files to decide (memoised
 * per workspace). Throws only what `ws.read` throws.
 */
export async function discoverCatalogs(ws: Workspace, options: DiscoveryOptions = {}): Promise<CatalogSet> {
  const memoKey = JSON.stringify(options);
  const m = memoOf(ws);
  let p = m.sets.get(memoKey);
  if (!p) m.sets.set(memoKey, (p = discover(ws, options)));
  return p;
}

interface Draft {
  id: string;
  format: CatalogFormat;
  files: CatalogFile[];
  baseLocale?: string;
  baseSource?: string;
  basePath?: string;
}

async function discover(ws: Workspace, options: DiscoveryOptions): Promise<CatalogSet> {
  const all = await ws.allPaths();
  const isExcluded = excludeMatcher(options.exclude ?? DEFAULT_EXCLUDE);
  const isIncluded = options.include && options.include.length ? picomatch([...options.include], { dot: true }) : () => true;
  const paths = all.filter((p) => !isExcluded(p));
  let catalogPaths = paths.filter((p) => isIncluded(p));
  if (options.focus) {
    const wanted = new Set(options.focus.flatMap(groupShapes));
    catalogPaths = catalogPaths.filter((p) => groupShapes(p).some((k) => wanted.has(k)));
  }
  const notes: string[] = [];
  const drafts = new Map<string, Draft>();
  const draft = (id: string, format: CatalogFormat): Draft => {
    let d = drafts.get(id);
    if (!d) drafts.set(id, (d = { id, format, files: [] }));
    return d;
  };
  // Declarations of the source language (project.pbxproj, i18next/Lingui configs), read once per kind when a group
  // of that kind needs its base (a staged Android commit reads none of them).
  const declared = new Map<DeclarationKind, Promise<BaseDeclaration[]>>();
  const declarationsOf = (kind: DeclarationKind): Promise<BaseDeclaration[]> => {
    let p = declared.get(kind);
    if (!p) declared.set(kind, (p = readBaseDeclarations(kind, paths, (f) => readText(ws, f), notes)));
    return p;
  };
  const declaredFor = async (kind: DeclarationKind, path: string) => declarationFor(await declarationsOf(kind), path);

  // Config files that name a base.
  const l10nYamls = paths.filter((p) => posix.basename(p) === 'l10n.yaml');
  const linguircs = paths.filter((p) => posix.basename(p) === '.linguirc');
  const arbConfig = new Map<string, { template: string; useEscaping: boolean; source: string }>();
  for (const y of l10nYamls) {
    try {
      const { parse: parseYaml } = await import('yaml');
      const doc = (parseYaml(await readText(ws, y)) ?? {}) as Record<string, unknown>;
      const dir = posix.join(posix.dirname(y), String(doc['arb-dir'] ?? 'lib/l10n'));
      arbConfig.set(dir, { template: String(doc['template-arb-file'] ?? 'app_en.arb'), useEscaping: doc['use-escaping'] === true, source: y });
    } catch {
      notes.push(`${y} is not valid YAML; its ARB settings were ignored`);
    }
  }
  const lingui = new Map<string, string>();
  for (const r of linguircs) {
    try {
      const doc = JSON.parse(await readText(ws, r)) as { sourceLocale?: unknown };
      if (typeof doc.sourceLocale === 'string') lingui.set(posix.dirname(r), doc.sourceLocale);
    } catch {
      notes.push(`${r} is not valid JSON; its sourceLocale was ignored`);
    }
  }
  // lingui.config.{js,ts} (Lingui 4+): code, so its literal `sourceLocale: "en"` is read, not run.
  for (const r of paths.filter((p) => /^lingui\.config\.[cm]?[jt]s$/.test(posix.basename(p)))) {
    const source = configOption(await readText(ws, r), 'sourceLocale');
    if (source && !lingui.has(posix.dirname(r))) lingui.set(posix.dirname(r), source);
  }
  const linguiFor = (p: string): string | undefined => {
    for (let d = posix.dirname(p); ; d = posix.dirname(d)) {
      const s = lingui.get(d === '.' ? '.' : d);
      if (s) return s;
      if (d === '.' || d === '/' || d === '') return lingui.get('.');
    }
  };

  const jsonCandidates: Array<{ path: string; id: string; raw: string; locale: string }> = [];
  const androidCandidates = new Map<string, Array<{ path: string; locale: string | null; raw: string }>>();
  // Every branch below must match a path `mightBeCatalog` (defaults.ts) accepts: the gate's inputs() skips discovery
  // when no staged path passes that test.
  for (const path of catalogPaths) {
    let mm: RegExpExecArray | null;
    if ((mm = ANDROID.exec(path))) {
      const q = androidQualifiers(mm[2]!.slice(1));
      if (!q || (q.locale === null && q.rest !== '')) continue; // values-night etc.: overrides, not translations
      const res = mm[1] ? `${mm[1]}/res` : 'res';
      const id = `${res}/values${q.rest ? `-${q.rest}` : ''}*/${mm[3]}`;
      let list = androidCandidates.get(id);
      if (!list) androidCandidates.set(id, (list = []));
      list.push({ path, locale: q.locale, raw: q.raw });
    } else if ((mm = APPLE.exec(path))) {
      const lproj = mm[2]!;
      const file = mm[3]!;
      const format: CatalogFormat = file.endsWith('.stringsdict') ? 'apple-stringsdict' : 'apple-strings';
      // Case-insensitive table name: Xcode builds `infoPlist.strings` and `InfoPlist.strings` into one table.
      const id = `${mm[1] ? `${mm[1]}/` : ''}*.lproj/${file.toLowerCase()}`;
      const isBaseDir = lproj === 'Base';
      const locale = isBaseDir ? '' : normaliseLocale(lproj);
      if (locale === null) {
        notes.push(`${path}: \`${lproj}.lproj\` is not a locale name; skipped`);
        continue;
      }
      draft(id, format).files.push({ path, format, locale, rawLocale: lproj, isBase: isBaseDir });
    } else if (path.endsWith('.xcstrings')) {
      const d = draft(path, 'xcstrings');
      const src = /"sourceLanguage"\s*:\s*"([^"]*)"/.exec(await readText(ws, path, 'xcstrings'))?.[1];
      const locale = options.baseLocale ?? (src ? normaliseLocale(src) ?? src : 'en');
      d.baseLocale = locale;
      d.baseSource = options.baseLocale ? 'config baseLocale' : '.xcstrings sourceLanguage';
      d.basePath = path;
      d.files.push({ path, format: 'xcstrings', locale, rawLocale: src ?? '', isBase: true });
    } else if (path.endsWith('.arb')) {
      const dir = posix.dirname(path);
      const cfg = arbConfig.get(dir);
      const split = splitArbName(posix.basename(path, '.arb'));
      const tsplit = cfg ? splitArbName(posix.basename(cfg.template, '.arb')) : null;
      const prefix = tsplit?.prefix ?? split?.prefix ?? '';
      const raw = split && split.prefix === prefix ? split.raw : posix.basename(path, '.arb');
      let locale = split && split.prefix === prefix ? split.locale : null;
      if (!locale) {
        const declared = /"@@locale"\s*:\s*"([^"]+)"/.exec(await readText(ws, path, 'arb'))?.[1];
        locale = declared ? normaliseLocale(declared) : null;
      }
      if (!locale) {
        notes.push(`${path}: no locale in the file name or @@locale; skipped`);
        continue;
      }
      const id = `${dir}/${prefix}*.arb`;
      const d = draft(id, 'arb');
      const isBase = cfg ? posix.basename(path) === cfg.template : locale === (options.baseLocale ?? 'en');
      if (isBase) {
        d.baseLocale = options.baseLocale ?? locale;
        d.baseSource = cfg ? `${cfg.source} template-arb-file` : 'en .arb';
        d.basePath = path;
      }
      d.files.push({ path, format: 'arb', locale, rawLocale: raw, isBase, useEscaping: cfg?.useEscaping ?? false });
    } else if (path.endsWith('.po') || path.endsWith('.pot')) {
      const name = posix.basename(path).replace(/\.pot?$/, '');
      let dir = posix.dirname(path);
      let raw: string;
      let id: string;
      if (path.endsWith('.pot')) {
        raw = '';
        id = `${dir}/*.po`;
      } else if (normaliseLocale(name) || poModifierLocale(name)) {
        raw = name;
        id = `${dir}/*.po`;
      } else {
        if (posix.basename(dir) === 'LC_MESSAGES') dir = posix.dirname(dir);
        raw = posix.basename(dir);
        id = `${posix.dirname(dir)}/*/${posix.basename(path).includes('LC_MESSAGES') ? 'LC_MESSAGES/' : ''}${name}.po`;
      }
      const locale = raw === '' ? '' : (normaliseLocale(raw) ?? poModifierLocale(raw));
      if (locale === null) continue;
      const source = linguiFor(path);
      const d = draft(id, 'gettext-po');
      if (source && !d.baseLocale) {
        d.baseLocale = options.baseLocale ?? normaliseLocale(source) ?? source;
        d.baseSource = options.baseLocale ? 'config baseLocale' : '.linguirc sourceLocale';
      }
      d.files.push({ path, format: 'gettext-po', locale, rawLocale: raw, isBase: path.endsWith('.pot'), grammar: source ? 'icu' : 'none' });
    } else if (path.endsWith('.json')) {
      const name = posix.basename(path, '.json');
      const parent = posix.basename(posix.dirname(path));
      const byName = normaliseLocale(name);
      if (byName) jsonCandidates.push({ path, id: `${posix.dirname(path)}/*.json`, raw: name, locale: byName });
      else {
        const byDir = normaliseLocale(parent);
        if (byDir) jsonCandidates.push({ path, id: `${posix.dirname(posix.dirname(path))}/*/${name}.json`, raw: parent, locale: byDir });
      }
    }
  }

  // Android: a values file is a catalog when it holds string resources (not colors.xml). A base that holds them vouches
  // for its translations of the same name, which are then not read here (a staged commit of one translation reads
  // that file and the base, not the 50 others); without such a base each file is read and tested.
  for (const [id, list] of androidCandidates) {
    const baseCand = list.find((c) => c.locale === null);
    let baseText: string | undefined;
    if (baseCand) baseText = await androidHoldsStrings(ws, baseCand.path);
    for (const c of list) {
      const isBase = c.locale === null;
      if (isBase ? baseText === undefined : baseText === undefined && (await androidHoldsStrings(ws, c.path)) === undefined) continue;
      const d = draft(id, 'android-xml');
      if (isBase) {
        const toolsLocale = /tools:locale\s*=\s*"([^"]+)"/.exec(baseText!)?.[1];
        d.baseLocale = options.baseLocale ?? (toolsLocale ? normaliseLocale(toolsLocale) ?? 'en' : 'en');
        d.baseSource = options.baseLocale ? 'config baseLocale' : toolsLocale ? 'values/ tools:locale' : 'values/ (default en)';
        d.basePath = c.path;
      }
      d.files.push({ path: c.path, format: 'android-xml', locale: c.locale ?? '', rawLocale: c.raw, isBase });
    }
  }

  // JSON: only groups holding a base-locale file count (so package.json-like files never become catalogs).
  const jsonGroups = new Map<string, typeof jsonCandidates>();
  for (const c of jsonCandidates) {
    const list = jsonGroups.get(c.id) ?? [];
    list.push(c);
    jsonGroups.set(c.id, list);
  }
  for (const [id, list] of jsonGroups) {
    // The base: config baseLocale, else what the project declares (i18next fallbackLng, i18next-parser, Lingui,
    // next-i18next), else en by name; a guess among same-language files is said on every run (chooseBase).
    const decl = options.baseLocale ? configBase(options.baseLocale) : await declaredFor('web', list[0]!.path);
    const jsonBase = decl?.locale ?? 'en';
    const choice = chooseBase(list, decl, jsonBase, id, (c) => posix.basename(c.path) === `${c.raw}.json` ? posix.basename(c.path) : `${c.raw}/`);
    const base = choice.pick;
    if (base && choice.note) notes.push(choice.note);
    if (!base) {
      // Locale-named JSON without the base locale's file may be no catalog at all (so it is not read), but a team
      // whose keys are written in another language must hear why its catalogs are not compared.
      if (list.length > 1) notes.push(choice.note ?? `${id}: JSON files named by locale (${localesOf(list)}) but none for the base locale ${jsonBase}: not read as catalogs; if they are, set gates.string-parity.baseLocale to the language their keys are written in`);
      continue;
    }
    let format: CatalogFormat = options.jsonFormat === 'icu' ? 'icu-json' : 'i18next-json';
    if (!options.jsonFormat || options.jsonFormat === 'auto') {
      // The base decides; a base with no interpolation of either kind says nothing, so then its translations do (a
      // `{{name}}` there read as ICU gave a misleading ICU syntax error).
      const I18NEXT = /\{\{[^}]+\}\}|"[^"\n]*_(?:one|other)"\s*:/;
      const ICU_ARG = /(?<!\{)\{\s*[A-Za-z0-9_]+\s*[,}]/;
      const baseText = await readText(ws, base.path);
      format = I18NEXT.test(baseText) ? 'i18next-json' : 'icu-json';
      if (format === 'icu-json' && !ICU_ARG.test(baseText)) {
        for (const c of list) if (c !== base && I18NEXT.test(await readText(ws, c.path))) (format = 'i18next-json');
      }
    }
    const d = draft(id, format);
    d.baseLocale = base.locale;
    d.baseSource = options.baseLocale ? 'config baseLocale' : choice.source;
    d.basePath = base.path;
    for (const c of list) d.files.push({ path: c.path, format, locale: c.locale, rawLocale: c.raw, isBase: c === base });
  }

  const groups: CatalogGroup[] = [];
  for (const d of drafts.values()) {
    d.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    if (d.format === 'apple-strings' || d.format === 'apple-stringsdict') {
      // Xcode's development language: the config's, else the project's developmentRegion, else en. It is the
      // locale of Base.lproj, and without Base.lproj the table in that locale is the base (`en-US.lproj`).
      const region = options.developmentLanguage ? null : await declaredFor('apple', d.files[0]!.path);
      const devLang = options.developmentLanguage ?? region?.locale ?? 'en';
      let baseFile = d.files.find((f) => f.rawLocale === 'Base');
      let source = options.baseLocale ? 'config baseLocale' : 'Base.lproj';
      if (!baseFile) {
        const choice = chooseBase(
          d.files,
          options.baseLocale ? configBase(options.baseLocale) : options.developmentLanguage ? configBase(options.developmentLanguage, 'developmentLanguage') : region,
          devLang,
          d.id,
          (f) => `${f.rawLocale}.lproj`,
        );
        if (choice.note) notes.push(choice.note);
        baseFile = choice.pick ?? undefined;
        source = options.baseLocale ? 'config baseLocale' : choice.source;
      }
      if (baseFile) {
        baseFile.isBase = true;
        d.basePath = baseFile.path;
        d.baseLocale = options.baseLocale ?? (baseFile.rawLocale === 'Base' ? devLang : baseFile.locale);
        d.baseSource = source;
      }
      for (const f of d.files) if (f.rawLocale === 'Base') f.locale = d.baseLocale ?? devLang;
    } else if (d.format === 'gettext-po') {
      const want = d.baseLocale ?? options.baseLocale;
      const baseFile =
        d.files.find((f) => f.isBase) ??
        (want ? d.files.find((f) => f.locale === want) : undefined) ??
        d.files.find((f) => f.locale === 'en') ??
        d.files.find((f) => f.locale === 'en-US');
      if (baseFile) {
        baseFile.isBase = true;
        d.basePath = baseFile.path;
        d.baseLocale ??= baseFile.locale || 'en';
        d.baseSource ??= baseFile.path.endsWith('.pot') ? '.pot template' : `${baseFile.rawLocale} catalog`;
        if (baseFile.locale === '') baseFile.locale = d.baseLocale;
      }
    }
    const base = d.files.find((f) => f.path === d.basePath) ?? null;
    if (d.format === 'android-xml') for (const f of d.files) if (f.isBase) f.locale = d.baseLocale ?? 'en';
    const count = `${d.files.length} file${d.files.length === 1 ? '' : 's'}`;
    // Android merges every file of values/: a translation's keys are looked up in the other base files of the folder.
    if (!base && d.format === 'android-xml') notes.push(`catalog ${d.id}: no base file of that name (${count}); its keys are compared with the other files of the default values folder, and a key none of them defines has no default`);
    else if (!base) notes.push(`catalog ${d.id}: no base file found (${count}: ${localesOf(d.files)}); only their own syntax is checked; if their keys are written in one of these languages, set gates.string-parity.baseLocale`);
    groups.push({ id: d.id, format: d.format, baseLocale: d.baseLocale ?? options.baseLocale ?? 'en', baseSource: d.baseSource ?? 'none', base, files: d.files });
  }
  groups.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const byPath = new Map<string, { group: CatalogGroup; file: CatalogFile }>();
  for (const g of groups) for (const f of g.files) byPath.set(f.path, { group: g, file: f });
  return { groups, byPath, notes };
}

/**
 * Parse one catalog file (memoised per workspace: each file is parsed once per run). For `.xcstrings` the result
 * holds every locale of the file, source first; for the other formats one locale, `file.locale`.
 * Never throws on bad content (problems are returned); throws only what `ws.read` throws.
 */
export function loadCatalog(ws: Workspace, file: CatalogFile): Promise<LoadedCatalog> {
  const m = memoOf(ws);
  const key = catalogKey(file);
  let p = m.parsed.get(key);
  if (!p) {
    const disk = m.disk && !m.disk.skip.has(file.path) ? m.disk.dir : null;
    p = readBytes(ws, file.path).then((bytes) => (disk ? parsedViaDisk(disk, key, file, bytes) : parsedOnce(`${key}\0${bytes.length}`, file, bytes)));
    m.parsed.set(key, p);
  }
  return p;
}

/**
 * Keep the parses of `ws`'s catalog files on disk in `dir` (parse-cache.ts), except those of `skip` (a commit's
 * staged files: new content, rarely seen twice). For staged runs, where the unchanged files (the base of a staged
 * translation, the translations of a staged base) are the same from one commit to the next. Never throws.
 */
export function useParseCache(ws: Workspace, dir: string, skip: ReadonlySet<string>): void {
  memoOf(ws).disk = { dir, skip };
}

async function parsedViaDisk(dir: string, key: string, file: CatalogFile, bytes: Buffer): Promise<LoadedCatalog> {
  const { parseCacheKey, readParsed, writeParsed } = await import('./parse-cache.js');
  const diskKey = parseCacheKey(key, bytes);
  const hit = readParsed(dir, diskKey, file.path);
  if (hit) return hit;
  const parsed = await parsedOnce(`${key}\0${bytes.length}`, file, bytes);
  writeParsed(dir, diskKey, parsed);
  return parsed;
}

function catalogKey(file: CatalogFile): string {
  return `${file.format}\0${file.path}\0${file.locale}\0${file.grammar ?? ''}\0${file.useEscaping ?? ''}\0${file.isBase}`;
}

/**
 * Forget `file`'s bytes and parse in `ws`'s memo and in the by-content memo, once it is judged and nothing else of
 * the run needs it (a translation in `run --all`): a run over many catalogs then holds the bases and one file at a
 * time, not every parse, which halved garbage-collection time on the whole l10n corpus. A later `loadCatalog` reads
 * and parses it again. Never throws.
 */
export async function releaseCatalog(ws: Workspace, file: CatalogFile): Promise<void> {
  const m = memoOf(ws);
  const key = catalogKey(file);
  const bytes = await m.bytes.get(file.path)?.catch(() => undefined);
  m.parsed.delete(key);
  m.bytes.delete(file.path);
  if (bytes) parsedByContent.delete(`${key}\0${bytes.length}`);
}

function parsedOnce(key: string, file: CatalogFile, bytes: Buffer): Promise<LoadedCatalog> {
  let list = parsedByContent.get(key);
  if (list) {
    parsedByContent.delete(key);
    parsedByContent.set(key, list);
    const hit = list.find((e) => e.bytes === bytes || e.bytes.equals(bytes));
    if (hit) return hit.parsed;
  } else {
    parsedByContent.set(key, (list = []));
    if (parsedByContent.size > PARSED_BY_CONTENT_MAX) parsedByContent.delete(parsedByContent.keys().next().value!);
  }
  const entry = { bytes, parsed: parseBytes(file, bytes) };
  // Same path and length, other bytes (mutants of one file): keep the latest few.
  list.push(entry);
  if (list.length > 4) list.shift();
  entry.parsed.catch(() => {
    const at = list.indexOf(entry);
    if (at !== -1) list.splice(at, 1);
  });
  return entry.parsed;
}

// Each format's parser (and its library: saxes, plist, gettext-parser...) is imported on first use: a commit that
// stages one Android translation loads only the Android parser (bench/l10n measures that path).
async function parseBytes(file: CatalogFile, bytes: Buffer): Promise<LoadedCatalog> {
  // One decoding step for every format (encoding.ts): bytes that are not text in the file's encoding are an
  // `unparsable` error first, and the rest is read with U+FFFD there. `text` null: valid UTF-8, read as such.
  const decoded = decodedAs(bytes, file.format);
  const loaded = await parseDecoded(file, bytes, decoded.text);
  return decoded.problem ? { ...loaded, problems: [decoded.problem, ...loaded.problems] } : loaded;
}

async function parseDecoded(file: CatalogFile, bytes: Buffer, text: string | null): Promise<LoadedCatalog> {
  switch (file.format) {
    case 'android-xml':
      return (await import('./parsers/android.js')).parseAndroidXml(file.path, text ?? decode(bytes), file.locale);
    case 'apple-strings':
      return (await import('./parsers/apple-strings.js')).parseAppleStrings(file.path, text ?? decode(bytes), file.locale);
    case 'apple-stringsdict':
      return (await import('./parsers/stringsdict.js')).parseStringsdict(file.path, text ?? decode(bytes), file.locale);
    case 'xcstrings':
      return (await import('./parsers/xcstrings.js')).parseXcstrings(file.path, text ?? decode(bytes));
    case 'arb':
      return (await import('./parsers/json-catalogs.js')).parseArb(file.path, text ?? bytes, file.locale, file.useEscaping ?? false);
    case 'i18next-json':
    case 'icu-json':
      return (await import('./parsers/json-catalogs.js')).parseJsonCatalog(file.path, text ?? bytes, file.locale, file.format);
    case 'gettext-po':
      return (await import('./parsers/po.js')).parsePo(file.path, text ?? bytes, file.locale, file.grammar ?? 'none', file.isBase);
  }
}

/**
 * Parse one catalog file's bytes outside discovery (a HEAD side a commit changes: hardcoded-strings removed-keys.ts),
 * with the decoding step and parser `loadCatalog` uses; not memoised. Never rejects on bad content.
 */
export function parseCatalogBytes(path: string, format: CatalogFormat, bytes: Buffer, locale = 'en'): Promise<LoadedCatalog> {
  return parseBytes({ path, format, locale, rawLocale: '', isBase: true }, bytes);
}

/** Where a base-catalog key lives. `line` is 1-based. */
export interface KeyRef {
  key: string;
  /** The base text of the key (for a plural: its `other` variant). */
  value: string;
  file: string;
  line: number;
  format: CatalogFormat;
  /** CatalogGroup id. */
  catalog: string;
}

/** Index of the base catalogs: which keys exist, and which keys hold a given text. */
export interface BaseIndex {
  set: CatalogSet;
  /** Base text (exact, as the app shows it) -> keys whose base value is that text; plural variants included. */
  byValue: Map<string, KeyRef[]>;
  /** Key -> where it is defined (a key may exist in several catalogs). `.xcstrings` keys include SwiftUI literal keys. */
  byKey: Map<string, KeyRef[]>;
}

/**
 * Load every base catalog of the snapshot and index it by text and by key: for hardcoded-strings ("the key to use
 * instead" of a literal; whether a SwiftUI `Text("…")` key exists). Translatable entries only.
 * Memoised per workspace with `discoverCatalogs`/`loadCatalog`. Throws only what `ws.read` throws.
 */
export async function loadBaseIndex(ws: Workspace, options: DiscoveryOptions = {}): Promise<BaseIndex> {
  const set = await discoverCatalogs(ws, options);
  const byValue = new Map<string, KeyRef[]>();
  const byKey = new Map<string, KeyRef[]>();
  const add = (map: Map<string, KeyRef[]>, k: string, r: KeyRef) => {
    const l = map.get(k);
    if (l) l.push(r);
    else map.set(k, [r]);
  };
  for (const g of set.groups) {
    if (!g.base) continue;
    const loaded = await loadCatalog(ws, g.base);
    const cat = loaded.locales.find((l) => l.locale === g.baseLocale) ?? loaded.locales[0];
    if (!cat) continue;
    for (const e of cat.entries) {
      if (!e.translatable) continue;
      const ref: KeyRef = { key: e.key, value: e.value, file: g.base.path, line: e.line, format: g.format, catalog: g.id };
      add(byKey, e.key, ref);
      const texts = new Set<string>([e.value, ...Object.values(e.plurals ?? {}).map((v) => v.text)]);
      for (const t of texts) if (t) add(byValue, t, ref);
    }
  }
  return { set, byValue, byKey };
}

/** `loadBaseIndex(ws).byValue`: base text -> keys holding it. */
export async function baseValues(ws: Workspace, options: DiscoveryOptions = {}): Promise<Map<string, KeyRef[]>> {
  return (await loadBaseIndex(ws, options)).byValue;
}

/** The base-locale LocaleCatalog of a loaded group base, or undefined. */
export function baseLocaleCatalog(group: CatalogGroup, loaded: LoadedCatalog) {
  return loaded.locales.find((l) => l.locale === group.baseLocale) ?? loaded.locales[0];
}

export type { CatalogEntry as Entry };

/**
 * A gettext catalog name with an `@modifier` (`sr@latin.po`, `be@latin.po`, `ca@valencia.po`, `en@shaw.po`,
 * gnu.org/software/gettext/manual/html_node/Locale-Names.html) as a BCP 47 tag: script modifiers become the script
 * subtag (`sr-Latn`), others a variant-less language (`ca`); null when the part before `@` is no locale. Before,
 * such files took their folder's name (`po`) as their locale.
 */
function poModifierLocale(name: string): string | null {
  const at = name.indexOf('@');
  if (at <= 0) return null;
  const base = normaliseLocale(name.slice(0, at));
  if (!base) return null;
  const SCRIPTS: Record<string, string> = { latin: 'Latn', cyrillic: 'Cyrl', shaw: 'Shaw', arabic: 'Arab', devanagari: 'Deva' };
  const tail = name.slice(at + 1).toLowerCase();
  const script = Object.hasOwn(SCRIPTS, tail) ? SCRIPTS[tail] : undefined;
  return script ? (normaliseLocale(`${base.split('-')[0]}-${script}`) ?? base) : base;
}
