// Where a project declares the language its source strings are written in, read before any file name is guessed:
// Xcode `project.pbxproj` `developmentRegion` (developer.apple.com, "developmentRegion" of PBXProject), i18next
// `init({ fallbackLng })` (i18next.com/overview/configuration-options), i18next-parser `resetDefaultValueLocale`
// (github.com/i18next/i18next-parser#options), next-i18next `i18n.defaultLocale`, Lingui `sourceLocale`
// (lingui.dev/ref/conf). Also the choice among several same-language candidates when nothing declares one.
import { posix } from 'node:path';
import { normaliseLocale } from './locale.js';

/** One declaration found in a project file. */
export interface BaseDeclaration {
  /** Normalised BCP 47 tag. */
  locale: string;
  /** Where it was read, for notes and `CatalogGroup.baseSource`: `App.xcodeproj/project.pbxproj developmentRegion`. */
  source: string;
  /** Folder whose catalogs it covers (`''` = the whole repository); the nearest one wins. */
  scope: string;
}

/** Which catalogs a declaration is about: Apple tables, or web catalogs (i18next / ICU JSON, Lingui PO). */
export type DeclarationKind = 'apple' | 'web';

const PBXPROJ = /(?:^|\/)[^/]+\.xcodeproj\/project\.pbxproj$/;
const I18NEXT_PARSER = /^i18next-parser\.config\.(?:[cm]?[jt]s|json|ya?ml)$/;
const NEXT_I18NEXT = /^next-i18next\.config\.[cm]?[jt]s$/;
const LINGUI = /^(?:lingui\.config\.[cm]?[jt]s|\.linguirc)$/;
// Where apps call i18next.init: `src/i18n.ts`, `i18n/index.ts`, `src/lib/i18n/config.js`, `i18next.js` (the common
// names only: reading every source file of a web app to find one option would cost more than the whole gate).
const I18N_INIT = /^(?:i18n|i18next|i18nConfig|i18n\.config)\.[cm]?[jt]sx?$/;
const I18N_DIR_INIT = /^(?:index|config|setup|init)\.[cm]?[jt]sx?$/;

/** The string value of `name: '…'` (or `"…"`, or the first element of `['…', …]`, or `{ default: ['…'] }`) in `text`. */
export function configOption(text: string, name: string, bare = false): string | undefined {
  const m = new RegExp(`["']?\\b${name}["']?\\s*[:=]\\s*(?:\\{\\s*["']?default["']?\\s*:\\s*)?\\[?\\s*(?:'([^']+)'|"([^"]+)"|([A-Za-z][A-Za-z0-9_-]*)\\s*(?:$|[,;}\\]\\n]))`, 'm').exec(text);
  const v = m?.[1] ?? m?.[2] ?? m?.[3];
  // An unquoted value is an identifier in code (`fallbackLng: lng` in outline): only YAML writes bare strings.
  if (m?.[3] !== undefined && !bare) return undefined;
  return v;
}

function parsePbxRegion(text: string): string | undefined {
  const m = /\bdevelopmentRegion\s*=\s*(?:"([^"]+)"|([A-Za-z0-9_.-]+))\s*;/.exec(text);
  return m?.[1] ?? m?.[2];
}

/**
 * The declarations of `kind` among `paths` (a snapshot's paths), read with `read`. Files that cannot be read as text
 * or declare nothing are skipped; a value that is no locale is named in `notes`. Pure apart from `read`.
 */
export async function readBaseDeclarations(kind: DeclarationKind, paths: readonly string[], read: (p: string) => Promise<string>, notes: string[]): Promise<BaseDeclaration[]> {
  const out: BaseDeclaration[] = [];
  const packageDirs = new Set(paths.filter((p) => posix.basename(p) === 'package.json').map((p) => dirOf(p)));
  // A web config covers its package (the nearest folder with a package.json), where its catalogs live
  // (`src/i18n.ts` names the language of `public/locales/*`).
  const packageOf = (p: string): string => {
    for (let d = dirOf(p); ; d = dirOf(d)) {
      if (packageDirs.has(d)) return d;
      if (d === '') return '';
    }
  };
  const add = (p: string, raw: string | undefined, what: string, scope: string) => {
    if (raw === undefined) return;
    const locale = normaliseLocale(raw);
    if (!locale) {
      notes.push(`${p}: ${what} \`${raw}\` is not a locale name; ignored when choosing base catalogs`);
      return;
    }
    out.push({ locale, source: `${p} ${what}`, scope });
  };
  for (const p of paths) {
    const name = posix.basename(p);
    if (kind === 'apple') {
      // The project folder holds the .xcodeproj and, beside it, the app's folders with the .lproj tables.
      if (PBXPROJ.test(p)) add(p, parsePbxRegion(await read(p)), 'developmentRegion', dirOf(dirOf(p)));
      continue;
    }
    if (I18NEXT_PARSER.test(name)) {
      const text = await read(p);
      const yaml = /\.ya?ml$/.test(name);
      const reset = configOption(text, 'resetDefaultValueLocale', yaml);
      // `output` naming one file, not `$LOCALE`: the parser writes the keys and their default values there, so that
      // file is the base (outline: `output: "shared/i18n/locales/en_US/translation.json"`).
      const output = reset === undefined ? configOption(text, 'output', yaml) : undefined;
      const fromOutput = output && !output.includes('$') ? output.split('/').slice(-2).map((seg) => seg.replace(/\.json$/, '')).reverse().find((seg) => normaliseLocale(seg)) : undefined;
      if (reset !== undefined) add(p, reset, 'resetDefaultValueLocale', packageOf(p));
      else if (fromOutput) add(p, fromOutput, 'output', packageOf(p));
    }
    else if (NEXT_I18NEXT.test(name)) add(p, configOption(await read(p), 'defaultLocale'), 'defaultLocale', packageOf(p));
    else if (LINGUI.test(name)) add(p, configOption(await read(p), 'sourceLocale'), 'sourceLocale', name === '.linguirc' ? dirOf(p) : packageOf(p));
    else if (I18N_INIT.test(name) || (I18N_DIR_INIT.test(name) && posix.basename(dirOf(p)) === 'i18n')) {
      const text = await read(p);
      if (/\bi18n(?:ext)?\b/.test(text)) add(p, configOption(text, 'fallbackLng'), 'fallbackLng', packageOf(p));
    }
  }
  return out;
}

function dirOf(p: string): string {
  const d = posix.dirname(p);
  return d === '.' ? '' : d;
}

/** The declaration covering `path`: the one with the nearest scope; null when none covers it. */
export function declarationFor(decls: readonly BaseDeclaration[], path: string): BaseDeclaration | null {
  let best: BaseDeclaration | null = null;
  for (const d of decls) {
    if (d.scope !== '' && !path.startsWith(`${d.scope}/`)) continue;
    if (!best || d.scope.length > best.scope.length) best = d;
  }
  return best;
}

/** The result of `chooseBase`: the chosen candidate (or none), how it was found, and the note a guess needs. */
export interface BaseChoice<T> {
  pick: T | null;
  /** `CatalogGroup.baseSource` of the pick. */
  source: string;
  /** Set when the pick is a guess or a declaration did not match: every run says it. */
  note?: string;
}

/**
 * Choose a group's base among `list` (one entry per file, `locale` normalised) for the wanted locale: the
 * declaration's (`declared`), else `fallback` (the name convention, `en`). An exact locale match is no guess. Else
 * the candidates of the same language: one is taken with a note; several are decided by CLDR likely subtags (`en`
 * -> `en-US`, `pt` -> `pt-BR`, Intl.Locale.maximize), else the first by name, and the note names the others.
 * `label` names the group in notes; `nameSource(c)` is the baseSource of a name-based pick (`en-US.lproj`).
 */
export function chooseBase<T extends { locale: string }>(
  list: readonly T[],
  declared: BaseDeclaration | null,
  fallback: string,
  label: string,
  nameSource: (c: T) => string,
): BaseChoice<T> {
  const want = declared?.locale ?? fallback;
  const exact = list.find((c) => c.locale === want);
  if (exact) return { pick: exact, source: declared ? declared.source : nameSource(exact) };
  const lang = want.split('-')[0]!;
  const same = list.filter((c) => c.locale.split('-')[0] === lang);
  const why = declared ? `${declared.source} says ${want}, but no catalog of ${label} is ${want}` : `nothing declares the source language and no catalog of ${label} is ${want}`;
  if (!same.length) return declared ? { pick: null, source: 'none', note: `${why} (${label} has ${[...new Set(list.map((c) => c.locale))].sort().join(', ')}); if another file is the base, set gates.string-parity.baseLocale` } : { pick: null, source: 'none' };
  const likely = maximal(want);
  const pick = (same.length > 1 && same.find((c) => maximal(c.locale) === likely)) || same[0]!;
  const others = [...new Set(same.filter((c) => c !== pick).map((c) => c.locale))].sort();
  const how = others.length ? `chosen over ${others.join(', ')} as the likely region of ${lang}` : `the only ${lang} catalog`;
  return {
    pick,
    source: `${nameSource(pick)} (guessed)`,
    note: `${label}: base ${pick.locale} guessed: ${why}; ${pick.locale} is ${how}; if the keys are written in another locale, set gates.string-parity.baseLocale`,
  };
}

/** `en` -> `en-Latn-US` (CLDR likely subtags through Intl); the tag itself when Intl cannot say. */
function maximal(tag: string): string {
  try {
    return new Intl.Locale(tag).maximize().toString();
  } catch {
    return tag;
  }
}
