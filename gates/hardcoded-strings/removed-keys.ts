// A staged commit that removes keys from a catalog breaks the code still asking for them (fresh-user-4 F1): the
// references are in files the commit does not stage, so the gate would read nothing. This finds, for the base
// catalogs a commit changes, the keys HEAD holds that the index no longer does, and the tracked code files that
// spell one of them; the gate judges those files too, so missing-catalog-key is reported at each reference exactly
// as `run --all` reports it (whether the key is really gone, from every module or catalog, is the judge's call).
import type { Workspace } from '../../core/types.js';

/** Android resource XML of a values folder (`res/values/strings.xml`, `res/values-de/arrays.xml`). */
const ANDROID_VALUES = /(?:^|\/)res\/values[^/]*\/[^/]+\.xml$/iu;
/** i18next / FormatJS JSON catalogs (`locales/en/translation.json`, `lang/en.json`); package manifests are not. */
const WEB_JSON = /\.json$/iu;
const NOT_CATALOG_JSON = /(?:^|\/)(?:package|package-lock|tsconfig[^/]*|composer|app|eas|jsconfig|\.eslintrc|renovate|turbo|lerna)\.json$/iu;

/** i18next plural and context suffixes: `t('x')` resolves `x_one`, `x_other`. */
const PLURAL_SUFFIX = /_(?:zero|one|two|few|many|other|ordinal_(?:zero|one|two|few|many|other))$/u;

/** Names of the text resources an Android values file defines. */
function androidNames(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/<(?:string|plurals|string-array|array)\b[^>]*?\bname\s*=\s*["']([^"']+)["']/gu)) out.add(m[1]!);
  return out;
}

/** Keys of a JSON catalog: nested objects joined by `.`, plural suffixes dropped; undefined when not JSON. */
function jsonKeys(text: string): Set<string> | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/u, ''));
  } catch {
    return undefined;
  }
  const out = new Set<string>();
  const walk = (v: unknown, prefix: string) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return;
    for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
      const key = prefix ? `${prefix}.${k}` : k;
      if (typeof child === 'string') out.add(key.replace(PLURAL_SUFFIX, ''));
      else walk(child, key);
    }
  };
  walk(data, '');
  return out;
}

/** Whether `path` is a catalog whose removed keys are worth looking for. */
export function isKeyCatalog(path: string): boolean {
  return ANDROID_VALUES.test(path) || (WEB_JSON.test(path) && !NOT_CATALOG_JSON.test(path) && !path.split('/').includes('node_modules'));
}

/**
 * Staged mode: the keys the commit's changed or deleted catalogs held at HEAD and no longer hold (Android names and
 * web keys apart); empty outside staged mode or without a HEAD side. Unreadable or unparsable sides are skipped
 * (string-parity reports an unparsable catalog).
 */
export async function removedKeys(ws: Workspace): Promise<{ android: Set<string>; web: Set<string> }> {
  const out = { android: new Set<string>(), web: new Set<string>() };
  if (ws.mode !== 'staged' || !ws.before) return out;
  const changed = [...(await ws.targets()), ...((await ws.deletions?.()) ?? [])].filter(isKeyCatalog);
  for (const path of changed) {
    const old = await ws.before(path);
    if (!old) continue;
    const now = (await ws.has(path)) ? (await ws.read(path)).toString('utf8') : '';
    if (ANDROID_VALUES.test(path)) {
      const kept = androidNames(now);
      for (const k of androidNames(old.toString('utf8'))) if (!kept.has(k)) out.android.add(k);
    } else {
      const was = jsonKeys(old.toString('utf8'));
      if (!was) continue;
      const kept = jsonKeys(now) ?? new Set<string>();
      for (const k of was) if (!kept.has(k)) out.web.add(k);
    }
  }
  return out;
}

/** Code files that may read a web key (where t() calls are written). */
const WEB_CODE = /\.(?:tsx|jsx|[mc]?ts|[mc]?js|vue|svelte)$/iu;
/** Code files that may name an Android resource (`R.string.x`, `@string/x` in a layout). */
const ANDROID_CODE = /\.(?:kt|java|xml)$/iu;

/**
 * Of `candidates` (the snapshot's paths the gate could read), those whose text spells a removed key: `R.<type>.<name>`
 * or `/<name>` for Android names, the key between quotes or backticks for web keys. Reads each candidate of the
 * matching kind once; only called when some key was removed.
 */
export async function filesReferencing(ws: Workspace, candidates: readonly string[], keys: { android: Set<string>; web: Set<string> }): Promise<string[]> {
  const out: string[] = [];
  const android = [...keys.android];
  const web = [...keys.web];
  for (const path of candidates) {
    const isAndroid = android.length > 0 && ANDROID_CODE.test(path) && !ANDROID_VALUES.test(path);
    const isWeb = web.length > 0 && WEB_CODE.test(path);
    if (!isAndroid && !isWeb) continue;
    const text = await ws.readText(path);
    const hit =
      (isAndroid && android.some((n) => text.includes(`.${n}`) || text.includes(`/${n}`))) ||
      (isWeb && web.some((k) => ['"', "'", '`'].some((q) => text.includes(`${q}${k}${q}`) || text.includes(`${q}${k.slice(k.lastIndexOf('.') + 1)}${q}`))));
    if (hit) out.push(path);
  }
  return out;
}
