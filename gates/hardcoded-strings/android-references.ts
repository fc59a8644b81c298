// Android text-resource references as Kotlin and Java write them (`R.string.x`, `a.b.R.plurals.x`, `AliasR.array.x`)
// and as resource XML writes them (`@string/x`, `@{@string/x}` in data binding). Pure text functions: the extractors
// find the nodes, these read them. Resource reference syntax: developer.android.com/guide/topics/resources/
// providing-resources#Accessing ("[<package_name>.]R.<resource_type>.<resource_name>",
// "@[<package_name>:]<resource_type>/<resource_name>").
import type { AndroidResourceType } from './model.js';

/** What a file's header says about the R classes it can name. */
export interface RScope {
  /** The file's `package`, `''` for none. */
  package: string;
  /** Simple name in scope -> package of the R class it names: `R` from `import a.b.R`, `UtilsR` from `… as UtilsR`. */
  imports: Map<string, string>;
  /** Whether a wildcard import (`import a.b.*`) could bring some R into scope. */
  wildcard: boolean;
}

/** Read an import of an R class (`a.b.R`, with an optional alias) into `scope`; other imports only set `wildcard`. */
export function addImport(scope: RScope, path: string, alias: string | undefined, wildcard: boolean): void {
  if (wildcard) {
    scope.wildcard = true;
    return;
  }
  const parts = path.split('.');
  if (parts.at(-1) !== 'R' || parts.length < 2) return;
  scope.imports.set(alias ?? 'R', parts.slice(0, -1).join('.'));
}

const CODE_REFERENCE = /^((?:[A-Za-z_]\w*\.)*)([A-Za-z_]\w*)\.(string|plurals|array)\.([A-Za-z_]\w*)$/u;

/**
 * The reference a code expression spells (whitespace removed), resolved against `scope`; undefined when it names no
 * R class's text resource or names the platform's (`android.R.string.ok`, or `R` imported from `android`).
 */
export function codeReference(expression: string, scope: RScope): { type: AndroidResourceType; name: string; rPackage: string } | undefined {
  const m = CODE_REFERENCE.exec(expression.replace(/\s+/gu, ''));
  if (!m) return undefined;
  const qualifier = m[1]!.replace(/\.$/u, '');
  const cls = m[2]!;
  let rPackage: string | undefined;
  if (qualifier) rPackage = cls === 'R' ? qualifier : undefined;
  else if (scope.imports.has(cls)) rPackage = scope.imports.get(cls);
  else if (cls === 'R') rPackage = scope.wildcard ? '' : scope.package;
  if (rPackage === undefined || rPackage === 'android') return undefined;
  return { type: m[3] as AndroidResourceType, name: m[4]!, rPackage };
}

/** `@string/x`, `@array/x`, `@plurals/x` (optionally `@+…`), without a package: the app's merged resources. */
const XML_REFERENCE = /@\+?(string|array|plurals)\/([A-Za-z_][\w.]*)/gu;

/**
 * The text-resource references in one XML attribute value, with their offsets in it: the whole value (`@string/x`)
 * or inside a data-binding expression (`@{@string/x}`, `@{cond ? @string/a : @string/b}`). A package-qualified
 * one (`@android:string/x`, `@com.lib:string/x`) is not the app's: never returned. An escaped `\@string/x` is text.
 */
export function xmlReferences(value: string): Array<{ type: AndroidResourceType; name: string; offset: number }> {
  const trimmed = value.trimStart();
  if (!trimmed.startsWith('@')) return [];
  const out: Array<{ type: AndroidResourceType; name: string; offset: number }> = [];
  if (trimmed.startsWith('@{')) {
    for (const m of value.matchAll(XML_REFERENCE)) out.push({ type: m[1] as AndroidResourceType, name: m[2]!, offset: m.index });
    return out;
  }
  const whole = /^@\+?(string|array|plurals)\/([A-Za-z_][\w.]*)\s*$/u.exec(trimmed);
  if (whole) out.push({ type: whole[1] as AndroidResourceType, name: whole[2]!, offset: value.length - trimmed.length });
  return out;
}

/** How a reference is written, for messages: `R.string.x` or `@string/x`. */
export function spellReference(type: AndroidResourceType, name: string, xml: boolean): string {
  return xml ? `@${type}/${name}` : `R.${type}.${name}`;
}
