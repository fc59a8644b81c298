// The repository's Android resources as hardcoded-strings needs them to judge `R.string.x` / `@string/x`
// references (issue 15 item 7): which string, plurals and array names some module defines, which packages are the
// R classes of the repository's own modules, and whether a module's R also holds its dependencies' resources.
// Sources: developer.android.com/guide/topics/resources/more-resources (resource types), /build/gradle-tips
// ("resValue"), /build/optimize-your-build#use-non-transitive-r-classes (AGP 8.0 made non-transitive R the default),
// developers.google.com/android/guides/google-services-plugin (the string resources the plugin generates).
import { posix } from 'node:path';
import { SaxesParser } from 'saxes';
import type { Workspace } from '../../core/types.js';
import { androidQualifiers } from '../string-parity/catalogs.js';
import { ANDROID_VALUES } from '../string-parity/defaults.js';
import type { AndroidResourceType } from './model.js';

/** Names the google-services Gradle plugin writes into `values.xml` at build time from google-services.json. */
export const GOOGLE_SERVICES_STRINGS: readonly string[] = [
  'default_web_client_id',
  'firebase_database_url',
  'gcm_defaultSenderId',
  'google_api_key',
  'google_app_id',
  'google_crash_reporting_api_key',
  'google_storage_bucket',
  'project_id',
  'ga_trackingId',
];

/** What the repository defines, and how its R classes are built. */
export interface AndroidResources {
  /** Values files (`res/values*` / `*.xml`) in the repository; 0: nothing to look names up in. */
  readonly files: number;
  /** Whether some module of the repository defines `name` as `type` (any source set, any qualifier, a resValue). */
  defines(type: AndroidResourceType, name: string): Promise<boolean>;
  /** A defined name of `type` one or two edits from `name` (a mistyped reference), the closest first; else undefined. */
  near(type: AndroidResourceType, name: string): Promise<string | undefined>;
  /** Whether `pkg` is the R package of a module of the repository (its `namespace`, or its manifest `package`). */
  ownsPackage(pkg: string): boolean;
  /**
   * Whether each module's R class holds only that module's resources (`android.nonTransitiveRClass=true`, or
   * AGP 8+ without the property): then a name the repository does not define cannot come from a library.
   */
  readonly nonTransitive: boolean;
  /** Whether a `resValue` names its resource with an expression, not a literal: any name may be generated. */
  readonly dynamicResValue: boolean;
}

const TYPE_OF: Readonly<Record<string, AndroidResourceType>> = {
  string: 'string',
  plurals: 'plurals',
  'string-array': 'array',
  'integer-array': 'array',
  array: 'array',
};

/** The names one values file defines, by type: children of `<resources>` (and `<item type="…">`). */
export function valuesNames(text: string): Array<{ type: AndroidResourceType; name: string }> {
  const out: Array<{ type: AndroidResourceType; name: string }> = [];
  if (!/<(?:string|plurals|string-array|integer-array|array|item)[\s>]/u.test(text)) return out;
  const parser = new SaxesParser({ xmlns: false });
  let depth = 0;
  parser.on('opentag', (tag) => {
    depth++;
    if (depth !== 2) return;
    const name = tag.attributes['name'];
    const kind = tag.name === 'item' ? tag.attributes['type'] : tag.name;
    const type = typeof kind === 'string' && Object.hasOwn(TYPE_OF, kind) ? TYPE_OF[kind] : undefined;
    if (type && typeof name === 'string' && name) out.push({ type, name });
  });
  parser.on('closetag', () => {
    depth--;
  });
  try {
    parser.write(text).close();
  } catch {
    // A malformed values file: the names read before the error still count (string-parity reports the file).
  }
  return out;
}

/** The literal string resources a Gradle build file generates: `resValue("string", "name", …)`, Groovy or Kotlin. */
export function resValueNames(text: string): { names: string[]; dynamic: boolean } {
  const names: string[] = [];
  let dynamic = false;
  const re = /\bresValue\s*\(?\s*(?:type\s*=\s*)?(["'])string\1\s*,\s*(?:name\s*=\s*)?(?:(["'])([^"'$]+)\2)?/gu;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[3]) names.push(m[3]);
    else dynamic = true;
  }
  return { names, dynamic };
}

/** Optimal string alignment distance (Damerau-Levenshtein without repeated edits of one substring), capped at 3. */
export function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d.push([i]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return Math.min(3, d[a.length]![b.length]!);
}

/** The R field a resource name becomes: aapt2 writes `.` (and `-`) as `_` (`name="a.b"` is `R.string.a_b`). */
const fieldName = (name: string) => name.replace(/[.-]/gu, '_');

/** Edits a reference may be from a defined name and still read as a typo of it: one, or two in names of 10+. */
const maxEdits = (name: string) => (name.length >= 10 ? 2 : 1);

/**
 * Read the repository's Android resources from `ws.allPaths()` (the base catalog is context, staged or not). Values
 * folders without a locale qualifier (`values`, `values-night`, `values-v21`) are read first; locale folders only
 * when a name is not found there (a name only a translation defines still compiles). Never throws on content.
 */
export async function loadAndroidResources(ws: Workspace): Promise<AndroidResources> {
  const paths = await ws.allPaths();
  const skip = (p: string) => /(?:^|\/)(?:node_modules|build|\.gradle|\.git)\//u.test(p);
  const defaults: string[] = [];
  const locales: string[] = [];
  for (const p of paths) {
    if (skip(p)) continue;
    const mm = ANDROID_VALUES.exec(p);
    if (!mm) continue;
    const q = androidQualifiers((mm[2] ?? '').slice(1));
    (q && q.locale !== null ? locales : defaults).push(p);
  }
  const names = new Map<AndroidResourceType, Set<string>>([
    ['string', new Set()],
    ['plurals', new Set()],
    ['array', new Set()],
  ]);
  const readValues = async (files: readonly string[]) => {
    for (const f of files) for (const n of valuesNames(await ws.readText(f))) names.get(n.type)!.add(fieldName(n.name));
  };
  await readValues(defaults);
  let localesRead = locales.length === 0;
  const all = async () => {
    if (!localesRead) {
      localesRead = true;
      await readValues(locales);
    }
  };

  const gradleProps = new Map<string, string>();
  const props = paths.filter((p) => posix.basename(p) === 'gradle.properties' && !skip(p)).sort((a, b) => a.split('/').length - b.split('/').length);
  for (const p of props) {
    for (const line of (await ws.readText(p)).split(/\r?\n/u)) {
      const m = /^\s*([\w.-]+)\s*[=:]\s*(.*?)\s*$/u.exec(line);
      if (m && !gradleProps.has(m[1]!)) gradleProps.set(m[1]!, m[2]!);
    }
  }
  const packages = new Set<string>();
  let dynamicResValue = false;
  let agp: number | undefined;
  let googleServices = false;
  for (const p of paths) {
    if (skip(p)) continue;
    const base = posix.basename(p);
    if (base === 'google-services.json') googleServices = true;
    if (base === 'AndroidManifest.xml') {
      const m = /<manifest\b[^>]*?\spackage\s*=\s*["']([\w.]+)["']/u.exec(await ws.readText(p));
      if (m) packages.add(m[1]!);
    } else if (/^build\.gradle(?:\.kts)?$/u.test(base) || /\.gradle(?:\.kts)?$/u.test(base)) {
      const text = await ws.readText(p);
      for (const m of text.matchAll(/\bnamespace\s*=?\s*(?:["']([\w.]+)["']|(?:project\.)?(?:findProperty|property)\s*\(\s*["']([\w.-]+)["']\s*\)|providers\.gradleProperty\s*\(\s*["']([\w.-]+)["']\s*\))/gu)) {
        const value = m[1] ?? gradleProps.get(m[2] ?? m[3] ?? '');
        if (value && /^[\w.]+$/u.test(value)) packages.add(value);
      }
      const rv = resValueNames(text);
      for (const n of rv.names) names.get('string')!.add(fieldName(n));
      dynamicResValue ||= rv.dynamic;
      if (/com\.google\.gms\.google-services|google\.services|gms\.google\.services/u.test(text)) googleServices = true;
      for (const m of text.matchAll(/com\.android\.tools\.build:gradle:(\d+)|id\s*\(?\s*["']com\.android\.(?:application|library)["']\s*\)?\s*version\s*["'](\d+)/gu)) agp = Math.max(agp ?? 0, Number(m[1] ?? m[2]));
    } else if (base.endsWith('.versions.toml')) {
      for (const m of (await ws.readText(p)).matchAll(/^\s*(?:agp|android-?[Gg]radle(?:-?[Pp]lugin)?|androidGradlePlugin|android-?[Pp]lugin|androidTools)\s*=\s*["'](\d+)/gmu)) agp = Math.max(agp ?? 0, Number(m[1]));
    }
  }
  if (googleServices) for (const n of GOOGLE_SERVICES_STRINGS) names.get('string')!.add(n);
  const flag = gradleProps.get('android.nonTransitiveRClass');
  const nonTransitive = flag === 'true' || (flag === undefined && agp !== undefined && agp >= 8);

  return {
    files: defaults.length + locales.length,
    async defines(type, name) {
      if (names.get(type)!.has(fieldName(name))) return true;
      await all();
      return names.get(type)!.has(fieldName(name));
    },
    async near(type, ref) {
      await all();
      const name = fieldName(ref);
      let best: { name: string; d: number } | undefined;
      for (const n of names.get(type)!) {
        const d = editDistance(name, n);
        if (d <= maxEdits(name) && (!best || d < best.d || (d === best.d && n < best.name))) best = { name: n, d };
      }
      return best?.name;
    },
    ownsPackage: (pkg) => packages.has(pkg),
    nonTransitive,
    dynamicResValue,
  };
}
