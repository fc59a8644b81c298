// A staged commit that removes keys from a catalog breaks the code still asking for them (fresh-user-4 F1, issue 15
// item 7): the references are in files the commit does not stage, so the gate would read nothing. This finds, for the
// catalogs a commit changes, the keys HEAD holds that the index no longer does, and the tracked code files that
// spell one of them; the gate judges those files too, so missing-catalog-key is reported at each reference exactly
// as `run --all` reports it (whether the key is really gone, from every module or catalog, is the judge's call).
// Both sides are read with the readers the judge looks keys up with, not a reader of this file's: Android names with
// android-resources.ts valuesNames (every type R holds text in), the other catalogs with string-parity's decoding
// step and parsers (catalogs.ts parseCatalogBytes).
import type { Workspace } from '../../core/types.js';
import type { CatalogFormat } from '../string-parity/model.js';
import { valuesNames } from './android-resources.js';

/** Android resource XML of a values folder (`res/values/strings.xml`, `res/values-de/arrays.xml`). */
const ANDROID_VALUES = /(?:^|\/)res\/values[^/]*\/[^/]+\.xml$/iu;
/** i18next / FormatJS JSON catalogs (`locales/en/translation.json`, `lang/en.json`); package manifests are not. */
const WEB_JSON = /\.json$/iu;
const NOT_CATALOG_JSON = /(?:^|\/)(?:package|package-lock|tsconfig[^/]*|composer|app|eas|jsconfig|\.eslintrc|renovate|turbo|lerna)\.json$/iu;
/** Apple string tables: `.strings` / `.stringsdict` in an `.lproj` folder, and String Catalogs. */
const APPLE_TABLE = /(?:^|\/)[^/]+\.lproj\/[^/]+\.(?:strings|stringsdict)$/iu;
const XCSTRINGS = /\.xcstrings$/iu;

/** The removed keys of one kind of code: Android resource names, web (i18next / FormatJS) keys, Apple table keys. */
export interface RemovedKeys {
  android: Set<string>;
  web: Set<string>;
  apple: Set<string>;
}

/** Whether `path` is a catalog whose removed keys are worth looking for. */
export function isKeyCatalog(path: string): boolean {
  return formatOf(path) !== undefined;
}

function formatOf(path: string): CatalogFormat | undefined {
  if (ANDROID_VALUES.test(path)) return 'android-xml';
  if (APPLE_TABLE.test(path)) return path.toLowerCase().endsWith('.stringsdict') ? 'apple-stringsdict' : 'apple-strings';
  if (XCSTRINGS.test(path)) return 'xcstrings';
  // i18next reading: nested keys joined by `.`, `_one`/`_other` folded into the key t() is called with.
  if (WEB_JSON.test(path) && !NOT_CATALOG_JSON.test(path) && !path.split('/').includes('node_modules')) return 'i18next-json';
  return undefined;
}

/**
 * The keys a catalog file defines, as code asks for them: Android names of every text type; an i18next plural or
 * ordinal by its bare key; for an `.xcstrings`, the keys of every locale it holds. Undefined when a catalog other than
 * Android's cannot be read (a malformed values file keeps the names read before the error, as the judge's lookup does).
 */
async function keysOf(path: string, format: CatalogFormat, bytes: Buffer): Promise<Set<string> | undefined> {
  if (format === 'android-xml') {
    const { catalogText } = await import('../string-parity/encoding.js');
    return new Set(valuesNames(catalogText(bytes, format)).map((n) => n.name));
  }
  const { parseCatalogBytes } = await import('../string-parity/catalogs.js');
  const loaded = await parseCatalogBytes(path, format, bytes);
  const out = new Set<string>();
  for (const l of loaded.locales) for (const e of l.entries) out.add(e.ordinal ? e.key.replace(/_ordinal$/u, '') : e.key);
  if (out.size === 0 && loaded.problems.some((p) => p.rule === 'unparsable')) return undefined;
  return out;
}

/**
 * Staged mode: the keys the commit's changed or deleted catalogs held at HEAD and no longer hold (Android names, web
 * keys and Apple keys apart); empty outside staged mode or without a HEAD side. A HEAD side that cannot be read is
 * skipped (string-parity reports an unparsable catalog); an index side that cannot be read holds no key.
 */
export async function removedKeys(ws: Workspace): Promise<RemovedKeys> {
  const out: RemovedKeys = { android: new Set(), web: new Set(), apple: new Set() };
  if (ws.mode !== 'staged' || !ws.before) return out;
  const changed = [...(await ws.targets()), ...((await ws.deletions?.()) ?? [])];
  for (const path of changed) {
    const format = formatOf(path);
    if (!format) continue;
    const old = await ws.before(path);
    if (!old) continue;
    const was = await keysOf(path, format, old);
    if (!was) continue;
    const kept = ((await ws.has(path)) ? await keysOf(path, format, await ws.read(path)) : undefined) ?? new Set<string>();
    const into = format === 'android-xml' ? out.android : format === 'i18next-json' ? out.web : out.apple;
    for (const k of was) if (!kept.has(k)) into.add(k);
  }
  return out;
}

/** Code files that may read a web key (where t() calls are written). */
const WEB_CODE = /\.(?:tsx|jsx|[mc]?ts|[mc]?js|vue|svelte)$/iu;
/** Code files that may name an Android resource (`R.string.x`, `@string/x` in a layout). */
const ANDROID_CODE = /\.(?:kt|java|xml)$/iu;
/** Code files that may look an Apple key up (`Text("key")`, `String(localized: "key")`). */
const APPLE_CODE = /\.swift$/iu;

/**
 * Of `candidates` (the snapshot's paths the gate could read), those whose text spells a removed key: `R.<type>.<name>`
 * or `/<name>` for Android names, the key between quotes or backticks for web keys, the key in double quotes for Apple
 * keys (a key with a format specifier, `greeting %@`, by its text before the `%`: Swift writes `\(name)` there). Reads
 * each candidate of the matching kind once; only called when some key was removed.
 */
export async function filesReferencing(ws: Workspace, candidates: readonly string[], keys: RemovedKeys): Promise<string[]> {
  const out: string[] = [];
  const android = [...keys.android];
  const web = [...keys.web];
  const apple = [...keys.apple].map((k) => (k.includes('%') ? `"${k.slice(0, k.indexOf('%'))}` : `"${k}"`)).filter((s) => s.length > 2);
  for (const path of candidates) {
    const isAndroid = android.length > 0 && ANDROID_CODE.test(path) && !ANDROID_VALUES.test(path);
    const isWeb = web.length > 0 && WEB_CODE.test(path);
    const isApple = apple.length > 0 && APPLE_CODE.test(path);
    if (!isAndroid && !isWeb && !isApple) continue;
    const text = await ws.readText(path);
    const hit =
      (isAndroid && android.some((n) => text.includes(`.${n}`) || text.includes(`/${n}`))) ||
      (isWeb && web.some((k) => ['"', "'", '`'].some((q) => text.includes(`${q}${k}${q}`) || text.includes(`${q}${k.slice(k.lastIndexOf('.') + 1)}${q}`)))) ||
      (isApple && apple.some((s) => text.includes(s)));
    if (hit) out.push(path);
  }
  return out;
}
