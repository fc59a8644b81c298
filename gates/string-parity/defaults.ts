// The string-parity gate's rule ids, default excludes and the path shapes of catalog files, apart from the parsers
// so that loading the gate (its config schema and inputs(), on every commit) does not load them.
import { outputFolderExcludes } from '../../core/exclude.js';

/** Every rule id the gate reports (stable, kebab-case), with its default severity. */
export const RULES = {
  'placeholder-mismatch': 'error',
  'invalid-specifier': 'error',
  'icu-syntax': 'error',
  'icu-keyword': 'error',
  'plural-missing-category': 'error',
  'android-unescaped-apostrophe': 'error',
  'untranslatable-translated': 'error',
  unparsable: 'error',
  'unknown-locale': 'warning',
  'missing-key': 'warning',
  'coverage-below-floor': 'error',
  'extra-key': 'warning',
  'empty-value': 'warning',
  'needs-review': 'warning',
  'duplicate-key': 'error',
  'duplicate-resource': 'error',
  'placeholder-added': 'warning',
  'kind-mismatch': 'warning',
  'array-item-count': 'error',
  'missing-default': 'error',
  'missing-base': 'error',
  'untranslated-copy': 'warning',
  'markup-mismatch': 'error',
} as const;
export type RuleId = keyof typeof RULES;

/** Paths never read by default: build output and Pods (not below src/: core/exclude.ts), installed packages, git's own data. */
export const DEFAULT_EXCLUDE: readonly string[] = [...outputFolderExcludes('build', 'Pods', 'DerivedData'), '**/node_modules/**', '**/.git/**', '**/.dart_tool/**'];

/** Android `res/values[-qualifiers]/<name>.xml` (developer.android.com/guide/topics/resources/providing-resources). */
export const ANDROID_VALUES = /^(?:(.*)\/)?res\/values((?:-[^/]+)?)\/([^/]+\.xml)$/;
/** Apple `<locale>.lproj/<table>.strings|.stringsdict` (developer.apple.com/documentation/xcode/localization). */
export const APPLE_LPROJ = /^(?:(.*)\/)?([^/]+)\.lproj\/([^/]+\.(?:strings|stringsdict))$/;
const OTHER_CATALOG = /\.(?:xcstrings|arb|po|pot|json)$/;

/**
 * Whether `path` has the shape of a catalog file discovery could keep (a necessary condition only: discovery also reads
 * contents, locales and base files). False means no catalog group can ever hold it.
 */
export function mightBeCatalog(path: string): boolean {
  return ANDROID_VALUES.test(path) || APPLE_LPROJ.test(path) || OTHER_CATALOG.test(path);
}
