// The app's own string catalogs, as the hardcoded-strings gate needs them: "which base-catalog key already holds
// this text" and "does an Apple catalog hold this SwiftUI key". Catalog discovery and parsing belong to the
// string-parity gate (gates/string-parity/catalogs.ts); this module only indexes what it returns.
import { foldSpecifiers } from './model.js';
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
  /** A base-catalog key whose value equals `literal` (whitespace-trimmed), preferring `platform`'s catalogs. */
  suggest(literal: string, platform: Platform): Suggestion | undefined;
  /** Whether an Apple catalog holds `key` (printf specifiers folded to `%@`, see `foldSpecifiers`). */
  hasAppleKey(key: string): boolean;
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

/** Build a lookup from indexed entries (pure; unit tests feed it directly). */
export function buildLookup(entries: readonly IndexedEntry[], appleKeys: Iterable<string>, catalogs: number, hasAppleCatalog: boolean): CatalogLookup {
  const byValue = new Map<string, IndexedEntry[]>();
  for (const e of entries) {
    if (!e.base) continue;
    for (const v of new Set([e.value, e.value.trim()])) {
      if (!v) continue;
      const list = byValue.get(v) ?? [];
      list.push(e);
      byValue.set(v, list);
    }
  }
  const keys = new Set<string>();
  for (const k of appleKeys) keys.add(foldSpecifiers(k));
  return {
    catalogs,
    hasAppleCatalog,
    suggest(literal, platform) {
      const list = byValue.get(literal) ?? byValue.get(literal.trim());
      if (!list) return undefined;
      const e = list.find((x) => x.platform === platform) ?? list[0];
      return e ? { key: e.key, platform: e.platform, catalog: e.catalog } : undefined;
    },
    hasAppleKey: (key) => keys.has(foldSpecifiers(key)),
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
 * untranslated). Throws only what `ws.read` throws.
 */
export async function loadLookup(ws: Workspace): Promise<CatalogLookup> {
  const index = await loadBaseIndex(ws);
  const entries: IndexedEntry[] = [];
  for (const refs of index.byValue.values()) {
    for (const r of refs) entries.push({ key: r.key, value: r.value, platform: PLATFORM_OF[r.format], catalog: r.file, base: true });
  }
  const appleKeys: string[] = [];
  let hasApple = false;
  let files = 0;
  for (const g of index.set.groups) {
    files += g.files.length;
    if (PLATFORM_OF[g.format] !== 'apple') continue;
    hasApple = true;
    const source = g.base ?? g.files[0];
    if (!source) continue;
    const loaded = await loadCatalog(ws, source);
    for (const l of loaded.locales) for (const e of l.entries) appleKeys.push(e.key);
  }
  return buildLookup(entries, appleKeys, files, hasApple);
}
