// The app's own string catalogs, as the hardcoded-strings gate needs them: "which base-catalog key already holds
// this text" and "does the Apple string table searched hold this SwiftUI key". Catalog discovery and parsing belong to the
// string-parity gate (gates/string-parity/catalogs.ts); this module only indexes what it returns.
import { posix } from 'node:path';
import { foldSpecifiers, keyMatcher } from './model.js';
import type { Workspace } from '../../core/types.js';
import { loadBaseIndex, loadCatalog, type CatalogFormat } from '../string-parity/catalogs.js';

/** Which platform a catalog or a source file belongs to; suggestions prefer a catalog of the file's platform. */
export type Platform = 'android' | 'apple' | 'web';

/** A key the literal could use instead, with how to write it. */
export interface Suggestion {
  key: string;
  platform: Platform;
  /** Repository-relative path of the base catalog that holds it. */
  catalog: string;
}

/** The catalog facts the gate asks for. */
export interface CatalogLookup {
  /** Catalog files read. */
  readonly catalogs: number;
  /** Whether any Apple catalog (.xcstrings, .strings) was found: without one, every SwiftUI key is missing. */
  readonly hasAppleCatalog: boolean;
  /**
   * A base-catalog key whose value equals `literal` (whitespace-trimmed), preferring `platform`'s catalogs; with
   * `file`, only from catalogs that serve it (`serves`).
   */
  suggest(literal: string, platform: Platform, file?: string): Suggestion | undefined;
  /**
   * The package (repository-relative folder with a package.json) `path` belongs to: the nearest one above it;
   * `''` when none is (a native repository) or the repository root's.
   */
  packageOf(path: string): string;
  /**
   * Whether `catalog` can serve `file`: its package is the file's or one above it (a root catalog serves every
   * workspace; apps/web's catalog does not serve apps/mobile, a sibling workspace that never loads it).
   */
  serves(catalog: string, file: string): boolean;
  /**
   * Whether `literal` is identifier-shaped (no space; a `_`, `.` or `:`) and a key of one of `platform`'s base catalogs
   * whose value is other text (`Autoplay_gifs` -> "Autoplay GIFs"): a key handed to a component that translates it,
   * not text a user reads. Plain words and keys equal to their own value stay text.
   */
  isKeyOnly(literal: string, platform: Platform): boolean;
  /**
   * Whether the Apple string table `table` holds the SwiftUI lookup key `key` (specifier by specifier, an unknown
   * slot matching any; see `keyMatcher`);
   * with `table` undefined (unknown), whether any Apple table does. Table names compare exactly, case included
   * (CFBundleCopyLocalizedString: "The case of the string must match that of the file name, even on file systems
   * (such as HFS+) that are not case sensitive").
   */
  hasAppleKey(key: string, table?: string): boolean;
  /** Keys of Apple table `table` with the text of `key` and other specifiers (`n %lld` for `n %@`), sorted. */
  appleKeysLike(key: string, table: string): string[];
  /** Names of the Apple tables that hold `key` (as `hasAppleKey` matches it), sorted; `[]` when none does. */
  appleTablesWith(key: string): string[];
  /** Whether some Apple catalog file (any locale) forms `table`: `<table>.strings`, `.stringsdict` or `.xcstrings`. */
  hasAppleTable(table: string): boolean;
  /** The `.xcstrings` file forming Apple table `table` (repository-relative), or undefined when none does. */
  xcstringsOf(table: string): string | undefined;
  /** The web catalogs keys are looked up in (i18next / FormatJS JSON bases, repository-relative), sorted; `[]`: none. */
  readonly webCatalogs: readonly string[];
  /**
   * Whether a web base catalog resolves `key` as i18next and react-intl would: the key itself, a plural or context
   * variant of it (`key_one`, `key_male`: `key_` prefix), an object under it (`key.`), or the part after an i18next
   * namespace prefix (`common:save`). With `keyPrefix` (the file sets `useTranslation(ns, { keyPrefix })`), also any
   * key ending in `.<key>`.
   */
  hasWebKey(key: string, keyPrefix?: boolean): boolean;
}

/** One key of an Apple catalog's base, with the table its file forms. */
export interface AppleKey {
  /** The file's base name: `Localizable` for `en.lproj/Localizable.strings` and for `Localizable.xcstrings`. */
  table: string;
  key: string;
}

/**
 * The string table an Apple catalog file forms: its base name without `.strings`, `.stringsdict` or `.xcstrings`
 * (Bundle.localizedString(forKey:value:table:) reads `<table>.strings` / `.stringsdict` of each `.lproj`, and Xcode
 * compiles `<table>.xcstrings` into those files at build time; developer.apple.com/documentation/xcode/localization).
 */
export function appleTableOf(path: string): string {
  return posix.basename(path).replace(/\.(?:strings|stringsdict|xcstrings)$/u, '');
}

/** One base-catalog entry as the lookup indexes it. */
export interface IndexedEntry {
  key: string;
  value: string;
  platform: Platform;
  catalog: string;
  /** Whether this entry's catalog is the base locale (only base values are suggested). */
  base: boolean;
}

/**
 * Build a lookup from indexed entries (pure; unit tests feed it directly). `appleTables` names every table an Apple
 * catalog file forms (translations included); the tables of `appleKeys` are added to it.
 */
export function buildLookup(
  entries: readonly IndexedEntry[],
  appleKeys: Iterable<AppleKey>,
  catalogs: number,
  hasAppleCatalog: boolean,
  appleTables: Iterable<string> = [],
  webKeys: Iterable<string> = [],
  webCatalogs: readonly string[] = [],
  xcstringsFiles: readonly string[] = [],
  packageDirs: readonly string[] = [],
): CatalogLookup {
  const packages = new Set(packageDirs);
  const packageOf = (path: string): string => {
    for (let dir = posix.dirname(path); dir !== '.' && dir !== '/'; dir = posix.dirname(dir)) if (packages.has(dir)) return dir;
    return '';
  };
  const serves = (catalog: string, file: string): boolean => {
    const own = packageOf(catalog);
    return own === '' || packageOf(file) === own || packageOf(file).startsWith(`${own}/`);
  };
  const xcstringsByTable = new Map<string, string>();
  for (const f of [...xcstringsFiles].sort()) if (!xcstringsByTable.has(appleTableOf(f))) xcstringsByTable.set(appleTableOf(f), f);
  const web = new Set(webKeys);
  const webSorted = [...web].sort();
  // Whether some key starts with `prefix` (binary search over the sorted keys).
  const hasPrefix = (prefix: string) => {
    let lo = 0;
    let hi = webSorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (webSorted[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    return webSorted[lo]?.startsWith(prefix) ?? false;
  };
  const resolves = (k: string) => web.has(k) || hasPrefix(`${k}_`) || hasPrefix(`${k}.`);
  const byValue = new Map<string, IndexedEntry[]>();
  const byKey = new Map<string, IndexedEntry[]>();
  for (const e of entries) {
    if (!e.base) continue;
    byKey.set(e.key, [...(byKey.get(e.key) ?? []), e]);
    for (const v of new Set([e.value, e.value.trim()])) {
      if (!v) continue;
      const list = byValue.get(v) ?? [];
      list.push(e);
      byValue.set(v, list);
    }
  }
  // folded key -> the catalog keys of that shape; a lookup key then matches them slot by slot (keyMatcher)
  const keys = new Map<string, AppleKey[]>();
  const tables = new Set(appleTables);
  for (const k of appleKeys) {
    const folded = foldSpecifiers(k.key);
    const list = keys.get(folded) ?? [];
    list.push(k);
    keys.set(folded, list);
    tables.add(k.table);
  }
  const holders = (key: string): Set<string> => {
    const matches = keyMatcher(key);
    return new Set((keys.get(foldSpecifiers(key)) ?? []).filter((k) => matches(k.key)).map((k) => k.table));
  };
  return {
    catalogs,
    hasAppleCatalog,
    packageOf,
    serves,
    suggest(literal, platform, file) {
      const found = byValue.get(literal) ?? byValue.get(literal.trim());
      const list = file === undefined ? found : found?.filter((e) => serves(e.catalog, file));
      if (!list) return undefined;
      const e = list.find((x) => x.platform === platform) ?? list[0];
      return e ? { key: e.key, platform: e.platform, catalog: e.catalog } : undefined;
    },
    // Only identifier-shaped literals (no space; a `_`, `.` or `:` in them): a plain word such as "Save" that is also a
    // key stays text, since a hard-coded "Save" shows as written whatever the catalog says.
    isKeyOnly: (literal, platform) => /^[^\s]*[_.:][^\s]*$/u.test(literal) && (byKey.get(literal) ?? []).some((e) => e.platform === platform && e.value.trim() !== literal.trim()),
    hasAppleKey: (key, table) => {
      const held = holders(key);
      return table === undefined ? held.size > 0 : held.has(table);
    },
    appleTablesWith: (key) => [...holders(key)].sort(),
    appleKeysLike: (key, table) => [...new Set((keys.get(foldSpecifiers(key)) ?? []).filter((k) => k.table === table).map((k) => k.key))].sort(),
    hasAppleTable: (table) => tables.has(table),
    xcstringsOf: (table) => xcstringsByTable.get(table),
    webCatalogs: [...webCatalogs].sort(),
    hasWebKey: (key, keyPrefix = false) => {
      const colon = key.indexOf(':');
      const candidates = colon > 0 ? [key, key.slice(colon + 1)] : [key];
      return candidates.some((k) => resolves(k) || (keyPrefix && webSorted.some((w) => w.endsWith(`.${k}`))));
    },
  };
}

/** A lookup that knows no catalog. */
export const emptyLookup: CatalogLookup = buildLookup([], [], 0, false);

const PLATFORM_OF: Readonly<Record<CatalogFormat, Platform>> = {
  'android-xml': 'android',
  'apple-strings': 'apple',
  'apple-stringsdict': 'apple',
  xcstrings: 'apple',
  'i18next-json': 'web',
  'icu-json': 'web',
  'gettext-po': 'web',
  arb: 'web',
};

/**
 * Read the app's catalogs from `ws` through string-parity's catalog API (every path of the snapshot, not only the
 * staged ones: the base catalog is context). Suggestions come from base-locale values (`loadBaseIndex`); SwiftUI
 * keys from every key of every Apple catalog's base, `shouldTranslate: false` keys included (they exist, on purpose
 * untranslated), each under the table its base file forms (`appleTableOf`), so `.strings` and `.stringsdict` of one
 * name, in any folder, are one table. Bundles are not told apart. Packages: the folders of every package.json outside
 * node_modules (`serves`). Throws only what `ws.read` throws.
 */
export async function loadLookup(ws: Workspace): Promise<CatalogLookup> {
  const index = await loadBaseIndex(ws);
  const packageDirs = (await ws.allPaths()).filter((p) => posix.basename(p) === 'package.json' && !p.split('/').includes('node_modules')).map((p) => posix.dirname(p));
  const entries: IndexedEntry[] = [];
  for (const refs of index.byValue.values()) {
    for (const r of refs) entries.push({ key: r.key, value: r.value, platform: PLATFORM_OF[r.format], catalog: r.file, base: true });
  }
  const appleKeys: AppleKey[] = [];
  const appleTables: string[] = [];
  const xcstringsFiles: string[] = [];
  let hasApple = false;
  let files = 0;
  const webKeys: string[] = [];
  const webCatalogs: string[] = [];
  for (const g of index.set.groups) {
    files += g.files.length;
    if (g.format === 'i18next-json' || g.format === 'icu-json') {
      // Every key of the base, untranslatable ones included; a group without a known base: any of its files.
      for (const f of g.base ? [g.base] : g.files) {
        webCatalogs.push(f.path);
        const loaded = await loadCatalog(ws, f);
        for (const l of loaded.locales) {
          for (const e of l.entries) {
            webKeys.push(e.key);
            // The parser folds `key_one`/`key_other` into a plural `key`; the code may ask for a form by its full key
            // (i18next resolves it verbatim: linkwarden t("by_author_and_other")).
            if (e.kind === 'plural' && e.plurals) for (const c of Object.keys(e.plurals)) webKeys.push(`${e.key}_${c}`);
          }
        }
      }
      continue;
    }
    if (PLATFORM_OF[g.format] !== 'apple') continue;
    hasApple = true;
    for (const f of g.files) appleTables.push(appleTableOf(f.path));
    if (g.format === 'xcstrings') for (const f of g.files) xcstringsFiles.push(f.path);
    const source = g.base ?? g.files[0];
    if (!source) continue;
    const table = appleTableOf(source.path);
    const loaded = await loadCatalog(ws, source);
    for (const l of loaded.locales) for (const e of l.entries) appleKeys.push({ table, key: e.key });
  }
  return buildLookup(entries, appleKeys, files, hasApple, appleTables, webKeys, webCatalogs, xcstringsFiles, packageDirs);
}
