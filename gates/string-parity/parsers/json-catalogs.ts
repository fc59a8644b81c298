// JSON catalogs: Flutter `.arb` (github.com/google/app-resource-bundle/wiki/ApplicationResourceBundleSpecification;
// `@key` metadata, `@@locale`), i18next JSON v4 (i18next.com/misc/json-format: nested keys, `_one`/`_other` plural
// suffixes, `{{var}}`), and FormatJS/ICU JSON (formatjs.github.io/docs/getting-started/message-extraction: flat
// `id: message` or `id: {defaultMessage, description}`). Read with our positioned JSON reader for line numbers.
import type { CatalogEntry, Grammar, LoadedCatalog, Variant } from '../model.js';
import { localeCatalog } from '../model.js';
import { isPluralCategory } from '../locale.js';
import { duplicateKeyProblems, type JNode, JsonSyntaxError, member, parseJsonWithPositions, stringOf } from './json-pos.js';

function unparsable(path: string, format: LoadedCatalog['format'], locale: string, err: unknown): LoadedCatalog {
  const e = err as JsonSyntaxError;
  return { path, format, locales: [localeCatalog(locale, [])], problems: [{ rule: 'unparsable', message: `not valid JSON: ${e.message}`, line: e.line ?? 1, column: e.column ?? 1, severity: 'error' }] };
}

/**
 * Parse a Flutter `.arb` file: its text, or its UTF-8 bytes (the same result as their decoded text, BOM dropped, and
 * cheaper: see parseJsonWithPositions). `useEscaping` is l10n.yaml `use-escaping` (false: `'` is a literal character).
 * Entries carry ARB `@key.description` as `comment` and `@key.placeholders` names as `declaredPlaceholders`.
 * `@@locale` is returned as `declaredLocale`. Lines and columns 1-based (columns in UTF-16 code units). Never throws.
 */
export function parseArb(path: string, text: string | Buffer, locale: string, useEscaping: boolean): LoadedCatalog & { declaredLocale?: string } {
  let root: JNode;
  try {
    root = parseJsonWithPositions(text);
  } catch (err) {
    return unparsable(path, 'arb', locale, err);
  }
  if (root.type !== 'object') return unparsable(path, 'arb', locale, new JsonSyntaxError('an .arb file is a JSON object', root.line, root.column));
  const grammar: Grammar = useEscaping ? 'icu' : 'icu-arb';
  const entries: CatalogEntry[] = [];
  const meta = new Map<string, JNode>();
  for (const e of root.entries) if (e.key.startsWith('@') && !e.key.startsWith('@@')) meta.set(e.key.slice(1), e.value);
  for (const e of root.entries) {
    if (e.key.startsWith('@') || e.value.type !== 'string') continue;
    const m = meta.get(e.key);
    const description = stringOf(member(m, 'description'));
    const ph = member(m, 'placeholders');
    const entry: CatalogEntry = { key: e.key, kind: 'string', value: e.value.value, line: e.keyLine, column: e.keyColumn, valueLine: e.value.line, valueColumn: e.value.column, grammar, translatable: true };
    // Assigned, not spread: an object spread per entry cost more than the rest of this loop.
    if (description) entry.comment = description;
    if (ph?.type === 'object') entry.declaredPlaceholders = ph.entries.map((p) => p.key);
    entries.push(entry);
  }
  const declared = stringOf(member(root, '@@locale'));
  return { path, format: 'arb', locales: [localeCatalog(locale, entries)], problems: duplicateKeyProblems(root), ...(declared ? { declaredLocale: declared } : {}) };
}

const PLURAL_SUFFIX = /^(.*?)_(ordinal_)?(zero|one|two|few|many|other)$/;

/**
 * Parse an i18next (`format` `i18next-json`) or FormatJS/ICU (`icu-json`) catalog: its text, or its UTF-8 bytes (the
 * same result as their decoded text, BOM dropped; see parseJsonWithPositions). Nested objects flatten to dotted
 * keys. i18next `key_one`/`key_other` siblings become one plural entry `key` (v4 suffixes; `_ordinal_` too).
 * FormatJS `{defaultMessage|message|string, description}` objects are one entry. Never throws.
 */
export function parseJsonCatalog(path: string, text: string | Buffer, locale: string, format: 'i18next-json' | 'icu-json'): LoadedCatalog {
  let root: JNode;
  try {
    root = parseJsonWithPositions(text);
  } catch (err) {
    return unparsable(path, format, locale, err);
  }
  if (root.type !== 'object') return unparsable(path, format, locale, new JsonSyntaxError('a catalog is a JSON object', root.line, root.column));
  const grammar: Grammar = format === 'i18next-json' ? 'i18next' : 'icu';
  const entries: CatalogEntry[] = [];
  const pluralsByKey = new Map<string, CatalogEntry>();
  const walk = (node: JNode, prefix: string) => {
    if (node.type !== 'object') return;
    for (const e of node.entries) {
      const key = prefix ? `${prefix}.${e.key}` : e.key;
      let value: JNode | undefined = e.value;
      let description: string | undefined;
      if (value.type === 'object' && format === 'icu-json') {
        const msg = member(value, 'defaultMessage') ?? member(value, 'message') ?? member(value, 'string');
        if (msg?.type === 'string') {
          description = stringOf(member(value, 'description'));
          value = msg;
        }
      }
      if (value.type === 'object') {
        walk(value, key);
        continue;
      }
      if (value.type !== 'string') continue;
      const v: Variant = { text: value.value, line: value.line, column: value.column };
      const m = format === 'i18next-json' ? PLURAL_SUFFIX.exec(key) : null;
      if (m && isPluralCategory(m[3]!)) {
        const ordinal = m[2] !== undefined;
        const baseKey = ordinal ? `${m[1]}_ordinal` : m[1]!;
        let p = pluralsByKey.get(baseKey);
        if (!p) {
          p = { key: baseKey, kind: 'plural', value: '', line: e.keyLine, column: e.keyColumn, grammar, translatable: true, plurals: {}, ...(ordinal ? { ordinal: true as const } : {}) };
          pluralsByKey.set(baseKey, p);
          entries.push(p);
        }
        p.plurals![m[3]!] = v;
        p.value = p.plurals!.other?.text ?? v.text;
        continue;
      }
      entries.push({ key, kind: 'string', value: value.value, line: e.keyLine, column: e.keyColumn, valueLine: value.line, valueColumn: value.column, grammar, translatable: true, ...(description ? { comment: description } : {}) });
    }
  };
  walk(root, '');
  return { path, format, locales: [localeCatalog(locale, entries)], problems: duplicateKeyProblems(root) };
}
