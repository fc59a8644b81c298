// Xcode String Catalogs (`.xcstrings`): JSON with `sourceLanguage`, `strings.<key>.localizations.<locale>` holding a
// `stringUnit {state, value}`, `variations` (plural, device) and `substitutions` (`%#@name@` plural arguments).
// Source: developer.apple.com/documentation/xcode/localizing-and-varying-text-with-a-string-catalog; the JSON is
// read with our positioned reader so every value keeps its line.
import type { CatalogEntry, LoadedCatalog, PluralVariable, PluralVariants, Variant } from '../model.js';
import { localeCatalog } from '../model.js';
import { normaliseLocale } from '../locale.js';
import { parsePrintf } from '../placeholders/printf.js';
import { duplicateKeyProblems, type JNode, JsonSyntaxError, member, parseJsonWithPositions, stringOf } from './json-pos.js';

interface Unit {
  variant: Variant;
  state?: string;
}

function unit(node: JNode | undefined): Unit | undefined {
  const su = member(node, 'stringUnit');
  const v = member(su, 'value');
  if (!su || !v || v.type !== 'string') return undefined;
  const state = stringOf(member(su, 'state'));
  return { variant: { text: v.value, line: v.line, column: v.column }, ...(state ? { state } : {}) };
}

const STATE_ORDER = ['translated', 'new', 'needs_review'];
function worse(a: string | undefined, b: string | undefined): string | undefined {
  if (!a) return b;
  if (!b) return a;
  return STATE_ORDER.indexOf(b) > STATE_ORDER.indexOf(a) ? b : a;
}

function plurals(node: JNode | undefined, states: Array<string | undefined>): PluralVariants | undefined {
  if (!node || node.type !== 'object') return undefined;
  const out: PluralVariants = {};
  for (const e of node.entries) {
    const u = unit(e.value);
    if (u) {
      out[e.key] = u.variant;
      states.push(u.state);
    }
  }
  return out;
}

/**
 * Parse an `.xcstrings` file (its text, or its UTF-8 bytes: the same result as their decoded text, BOM dropped; see
 * parseJsonWithPositions): one LocaleCatalog per locale present, plus the source language, whose text for a key
 * with no source `stringUnit` is the key itself (Xcode extracts SwiftUI literals that way). The first locale is the
 * source language. Problems: `unparsable` (JSON syntax, with line). Never throws.
 * `sourceLanguage` is returned for discovery.
 */
export function parseXcstrings(path: string, text: string | Buffer): LoadedCatalog & { sourceLanguage?: string } {
  let root: JNode;
  try {
    root = parseJsonWithPositions(text);
  } catch (err) {
    const e = err as JsonSyntaxError;
    return { path, format: 'xcstrings', locales: [], problems: [{ rule: 'unparsable', message: `.xcstrings is not valid JSON: ${e.message}`, line: e.line ?? 1, column: e.column ?? 1, severity: 'error' }] };
  }
  const rawSource = stringOf(member(root, 'sourceLanguage'));
  const strings = member(root, 'strings');
  if (!rawSource || !strings || strings.type !== 'object') {
    return { path, format: 'xcstrings', locales: [], problems: [{ rule: 'unparsable', message: '.xcstrings lacks `sourceLanguage` or `strings`', line: root.line, column: root.column, severity: 'error' }] };
  }
  const source = normaliseLocale(rawSource) ?? rawSource;
  const byLocale = new Map<string, CatalogEntry[]>([[source, []]]);
  // Locale key as written -> normalised tag: every key of the file repeats the same few dozen locales.
  const locales = new Map<string, string>();
  for (const s of strings.entries) {
    const key = s.key;
    const comment = stringOf(member(s.value, 'comment'));
    const extractionState = stringOf(member(s.value, 'extractionState'));
    const should = member(s.value, 'shouldTranslate');
    const translatable = !(should?.type === 'boolean' && should.value === false);
    // Entries are built by assignment in the order the spread form gave (key, kind, value, line, column, valueLine,
    // valueColumn, comment, extractionState, translatable, grammar, plurals, devices, variables, state): object
    // spreads per entry and locale cost more than the rest of this loop.
    const withCommon = (e: CatalogEntry): CatalogEntry => {
      if (comment) e.comment = comment;
      if (extractionState) e.extractionState = extractionState;
      e.translatable = translatable;
      e.grammar = 'printf-apple';
      return e;
    };
    const locs = member(s.value, 'localizations');
    let sawSource = false;
    if (locs && locs.type === 'object') {
      for (const l of locs.entries) {
        let locale = locales.get(l.key);
        if (locale === undefined) locales.set(l.key, (locale = normaliseLocale(l.key) ?? l.key));
        const states: Array<string | undefined> = [];
        const u = unit(l.value);
        if (u) states.push(u.state);
        const variations = member(l.value, 'variations');
        const pl = plurals(member(variations, 'plural'), states);
        let devices: Record<string, Variant> | undefined;
        const dev = member(variations, 'device');
        if (dev && dev.type === 'object') {
          devices = {};
          for (const d of dev.entries) {
            const du = unit(d.value);
            if (du) {
              devices[d.key] = du.variant;
              states.push(du.state);
            }
            const dp = plurals(member(member(d.value, 'variations'), 'plural'), states);
            for (const [cat, v] of Object.entries(dp ?? {})) devices[`${d.key}.${cat}`] = v;
          }
        }
        let variables: Record<string, PluralVariable> | undefined;
        const subs = member(l.value, 'substitutions');
        if (subs && subs.type === 'object') {
          variables = {};
          // `%arg` inside a substitution's variants stands for the substituted argument itself; Xcode compiles it
          // to that argument's positional specifier, so it is resolved here to `%<argNum>$<formatSpecifier>`.
          const positions = new Map<string, number>();
          if (u) for (const sp of parsePrintf(u.variant.text, 'apple').specs) if (sp.type === 'variable') positions.set(sp.text.slice(sp.text.indexOf('#@') + 2, -1), sp.arg);
          for (const sub of subs.entries) {
            const argNum = member(sub.value, 'argNum');
            const spec = stringOf(member(sub.value, 'formatSpecifier')) ?? '';
            const n = argNum?.type === 'number' ? (argNum.value as number) : positions.get(sub.key);
            const pl = plurals(member(member(sub.value, 'variations'), 'plural'), states) ?? {};
            const resolved = n && spec ? `%${n}$${spec.replace(/^%/, '')}` : `%${spec.replace(/^%/, '') || '@'}`;
            for (const v of Object.values(pl)) v.text = v.text.replace(/%arg\b/g, resolved);
            variables[sub.key] = {
              spec,
              ...(n !== undefined ? { argNum: n } : {}),
              plurals: pl,
              line: sub.keyLine,
              column: sub.keyColumn,
            };
          }
        }
        const first = u?.variant ?? Object.values(pl ?? {})[0] ?? Object.values(devices ?? {})[0];
        const value = u?.variant.text ?? pl?.other?.text ?? first?.text ?? '';
        const state = states.reduce<string | undefined>((a, b) => worse(a, b), undefined);
        const entry = { key, kind: pl ? 'plural' : 'string', value, line: l.keyLine, column: l.keyColumn } as CatalogEntry;
        if (first) {
          entry.valueLine = (u?.variant ?? first).line;
          entry.valueColumn = (u?.variant ?? first).column;
        }
        withCommon(entry);
        if (pl) entry.plurals = pl;
        if (devices) entry.devices = devices;
        if (variables) entry.variables = variables;
        if (state) entry.state = state;
        if (locale === source) sawSource = true;
        let list = byLocale.get(locale);
        if (!list) byLocale.set(locale, (list = []));
        list.push(entry);
      }
    }
    if (!sawSource) {
      byLocale.get(source)!.push(withCommon({ key, kind: 'string', value: key, line: s.keyLine, column: s.keyColumn } as CatalogEntry));
    }
  }
  return {
    path,
    format: 'xcstrings',
    sourceLanguage: source,
    locales: [...byLocale].map(([l, e]) => localeCatalog(l, e)),
    problems: duplicateKeyProblems(root),
  };
}
