// Mutation operators of string-parity for `loopgates mutate` (DESIGN.md "mutation"): each injects the gate's target
// defect into one real translation, as a pure function of (path, content, random, facts). The facts (mutation-facts.ts,
// loaded on demand) are the gate's own reading of the file: which lines hold translated text compared with a base
// entry, and which plural categories the locale requires under the gate's config. An operator only injects what the
// gate's documented policy must call a defect: never into a base or template, a stale key (no base entry: reported as
// `extra-key`), a plural variant that may leave the count out, or a plural category the locale does not require
// (README "plural categories": `many` of es/it/pt/fr is reached only by millions and is not required by default).
import type { GateContext, Mutant, MutationOperator } from '../../core/types.js';
import type { StringParityConfig } from './config.js';
import type { LineFact, StringFact, StringParityFacts } from './mutation-facts.js';
import { lineIndex } from './model.js';

const TRANSLATION = /(?:\/res\/values-[^/]+\/[^/]+\.xml|\/(?!Base\.)[^/]+\.lproj\/[^/]+\.(?:strings|stringsdict)|\.xcstrings|\.arb|\.po|\.json)$/;

function pick<T>(list: readonly T[], random: () => number): T | undefined {
  return list.length ? list[Math.min(list.length - 1, Math.floor(random() * list.length))] : undefined;
}

// A line table per mutate() call, not one cached by content: two equal catalog strings that are different objects
// compare by value in JS, so a cache keyed by the content compared megabytes per placeholder (quadratic: mutate took
// 72 s on a 64,000-string catalog).
async function facts(ctx: GateContext<any>, path: string): Promise<StringParityFacts> {
  return (await import('./mutation-facts.js')).stringParityFacts(ctx as GateContext<StringParityConfig>, path);
}

// A printf specifier inside a catalog value: `%1$s`, `%d`, `%@`, `%lld` (not `%%`).
const PRINTF = /%(?:\d+\$)?(?:ll|l|q|z)?[sdif@]/g;
// An ICU/Flutter argument `{name}` (simple arguments only).
const ICU_ARG = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
// An i18next interpolation `{{name}}`.
const I18NEXT = /\{\{[^{}]+\}\}/g;

interface Site {
  offset: number;
  text: string;
  line: number;
  fact: LineFact;
}

/** Matches of `re` that sit in translated text the gate compares with a base entry (right of the key, on a fact line). */
function sites(content: string, re: RegExp, facts: StringParityFacts | undefined, keep: (s: Site, lineText: string) => boolean): Site[] {
  // Lines hold only translations compared with a base entry, so a base or template file (not .xcstrings) has none.
  if (!facts) return [];
  const out: Site[] = [];
  const at = lineIndex(content);
  for (const m of content.matchAll(re)) {
    const { line, column } = at(m.index);
    const fact = facts.lines.get(line);
    if (!fact || column < fact.column) continue;
    const lineStart = content.lastIndexOf('\n', m.index) + 1;
    const lineEnd = content.indexOf('\n', m.index);
    const site = { offset: m.index, text: m[0], line, fact };
    if (keep(site, content.slice(lineStart, lineEnd === -1 ? undefined : lineEnd))) out.push(site);
  }
  return out;
}

/** How often the argument `text` consumes is written on the line (`%1$s` twice, `{name}` and `{name, plural, ...}`). */
function uses(lineText: string, text: string): number {
  if (text.startsWith('{{')) return lineText.split(text).length - 1;
  if (text.startsWith('{')) {
    const name = text.slice(1, -1);
    return lineText.split(text).length - 1 + (lineText.match(new RegExp(`\\{${name}\\s*,`, 'g'))?.length ?? 0);
  }
  const n = /^%(\d+)\$/.exec(text);
  return n ? lineText.split(`%${n[1]}$`).length - 1 : 1;
}

/**
 * Whether a printf text mixes numbered (`%1$@`) and unnumbered (`%ld`) specifiers: POSIX leaves that undefined, and the
 * gate (like CFString) numbers the unnumbered ones from 1, so a retyped or deleted one may read an argument the base
 * also reads with that type (mastodon-ios `%1$@ … %ld` variants). No place for a defect the gate must see.
 */
const mixesNumbering = (text: string): boolean => /%\d+\$/.test(text) && /%(?!\d+\$|%)[-#+ 0']*\d*(?:\.\d+)?(?:hh|h|ll|l|q|L|z|t|j)?[@dDiuUxXoOfFeEgGcCsSpaA]/.test(text);

/** The text left once `placeholder` is deleted from it holds something (else the value is empty: `empty-value`). */
const leavesText = (text: string, placeholder: string): boolean => text.replace(placeholder, '').trim() !== '';

const grammarRe = (fact: LineFact): RegExp | null =>
  fact.grammar === 'printf-java' || fact.grammar === 'printf-apple' ? PRINTF : fact.grammar === 'icu' || fact.grammar === 'icu-arb' ? ICU_ARG : fact.grammar === 'i18next' ? I18NEXT : null;

/** Delete one placeholder from a translated value (a deleted `%1$s` or `{count}`). */
export const deletePlaceholder: MutationOperator<StringParityFacts> = {
  id: 'string-parity/delete-placeholder',
  description: 'delete one placeholder (%1$s, %@, {name}) from a translated string',
  appliesTo: (path) => TRANSLATION.test(path),
  facts,
  mutate(_path, content, random, f): Mutant | null {
    // Only where the gate compares arguments both ways: a plural variant may leave the count out ("one episode").
    const all = [PRINTF, ICU_ARG, I18NEXT].flatMap((re) =>
      sites(content, re, f, (s, lineText) => s.fact.exact && s.fact.baseHasArgs && grammarRe(s.fact) === re && leavesText(s.fact.text, s.text) && !(re === PRINTF && mixesNumbering(s.fact.text)) && !(re === ICU_ARG && icuOptionBody(content, s.offset)) && !(re === PRINTF && /\bplural,/.test(lineText)) && uses(lineText, s.text) === 1),
    );
    const c = pick(all.sort((a, b) => a.offset - b.offset), random);
    if (!c) return null;
    return { content: content.slice(0, c.offset) + content.slice(c.offset + c.text.length), line: c.line, rule: 'placeholder-mismatch', description: `deleted ${c.text} from ${c.fact.locale} \`${c.fact.key}\`` };
  },
};

/** Change one printf specifier's type (`%s` -> `%d`, `%@` -> `%d`, `%d` -> `%@`; Android `%d` -> `%b`). */
export const changeSpecifierType: MutationOperator<StringParityFacts> = {
  id: 'string-parity/change-specifier-type',
  description: "change one printf specifier's conversion type in a translated string",
  appliesTo: (path) => TRANSLATION.test(path) && /\.(?:xml|strings|stringsdict|xcstrings)$/.test(path),
  facts,
  mutate(path, content, random, f): Mutant | null {
    // Types are compared in every printf text the gate judges, variants included (against the base's union).
    const c = pick(sites(content, PRINTF, f, (s) => s.fact.baseHasArgs && (s.fact.grammar === 'printf-java' || s.fact.grammar === 'printf-apple') && !mixesNumbering(s.fact.text)), random);
    if (!c) return null;
    const conv = c.text[c.text.length - 1]!;
    const android = c.fact.grammar === 'printf-java' || /\.xml$/.test(path);
    // Java reads %s from anything, so an Android %d -> %s is no defect; %b (boolean: prints "true" for any int) is.
    const out = conv === 'd' || conv === 'i' ? (android ? c.text.slice(0, -1) + 'b' : c.text.slice(0, -1).replace(/(?:ll|l|q|z)$/, '') + '@') : c.text.slice(0, -1).replace(/(?:ll|l|q|z)$/, '') + 'd';
    return { content: content.slice(0, c.offset) + out + content.slice(c.offset + c.text.length), line: c.line, rule: 'placeholder-mismatch', description: `changed ${c.text} to ${out} in ${c.fact.locale} \`${c.fact.key}\`` };
  },
};

/** Offset of the `{` that encloses `at` on its line (ICU nesting), or -1. */
function enclosingBrace(content: string, at: number): number {
  let depth = 0;
  for (let i = at - 1; i >= 0 && content[i] !== '\n'; i--) {
    if (content[i] === '}') depth++;
    else if (content[i] === '{' && depth-- === 0) return i;
  }
  return -1;
}

/** Whether the `{` at `at` opens an option of a plural/select (`one {mojo}`), not a `{mojo}` argument. */
function icuOptionBody(content: string, at: number): boolean {
  const open = enclosingBrace(content, at);
  return open >= 0 && /^\{\s*\w+\s*,\s*(?:plural|select|selectordinal)\s*,/.test(content.slice(open, at));
}

/**
 * The selectors of the ICU plural whose option starts at `at`, and its argument name: walks back to the `{` that
 * encloses the option, reads `{name, plural,` (Lingui writes positional `{0, plural,`), then the selectors at the top level of that plural. Null when the
 * option is not directly inside a `plural` (a `select`, a nested argument).
 */
function icuPluralAround(content: string, at: number): { name: string; selectors: string[] } | null {
  const open = enclosingBrace(content, at);
  if (open < 0) return null;
  const head = /^\{\s*(\w+)\s*,\s*plural\s*,/.exec(content.slice(open, at + 1));
  if (!head) return null;
  const selectors: string[] = [];
  let d = 0;
  let token = '';
  for (let i = open + head[0].length; i < content.length && content[i] !== '\n'; i++) {
    const ch = content[i]!;
    if (ch === '{') {
      if (d === 0 && token.trim()) selectors.push(token.trim().split(/\s+/).pop()!);
      d++;
      token = '';
    } else if (ch === '}') {
      if (d === 0) break;
      d--;
    } else if (d === 0) token += ch;
  }
  return { name: head[1]!, selectors };
}

/** Drop one plural variant (`few`, `many`, `one`...) that the locale's CLDR rules require. */
export const dropPluralCategory: MutationOperator<StringParityFacts> = {
  id: 'string-parity/drop-plural-category',
  description: 'drop one CLDR-required plural category from a translated plural',
  appliesTo: (path) => TRANSLATION.test(path),
  facts,
  mutate(path, content, random, f): Mutant | null {
    if (!f) return null;
    const at = lineIndex(content);
    const lineAt = (offset: number) => at(offset).line;
    type Drop = { start: number; end: number; line: number; cat: string; key: string; locale: string };
    const drops: Drop[] = [];
    // A required category of a plural the gate checks: the fact at the variant's text line says so.
    const variant = (start: number, end: number, textOffset: number, cat: string) => {
      const fact = f.lines.get(lineAt(textOffset));
      if (fact && fact.selector === cat && fact.required.includes(cat as never) && fact.pluralLine) drops.push({ start, end, line: fact.pluralLine, cat, key: fact.key, locale: fact.locale });
    };
    if (path.endsWith('.xml')) {
      for (const m of content.matchAll(/\n[ \t]*<item quantity="(zero|one|two|few|many|other)">[\s\S]*?<\/item>/g)) variant(m.index, m.index + m[0].length, m.index + 1, m[1]!);
    } else if (path.endsWith('.stringsdict')) {
      for (const m of content.matchAll(/\n[ \t]*<key>(zero|one|two|few|many|other)<\/key>\s*(<string>)[\s\S]*?<\/string>/g)) variant(m.index, m.index + m[0].length, m.index + m[0].lastIndexOf('<string>'), m[1]!);
    } else if (path.endsWith('.json') && [...f.lines.values()].some((x) => x.grammar === 'i18next' && x.selector)) {
      // i18next v4 suffixed keys (`"key_one": "…", "key_other": "…"`): drop the whole member, and the comma before it
      // when it is the object's last, so the file stays JSON and the defect is the missing category (fresh-user-4 F8).
      // Only where another variant of the plural stays, else the key itself goes (`missing-key`, another rule).
      const variants = new Map<string, number>();
      for (const x of f.lines.values()) if (x.selector) variants.set(`${x.locale}\0${x.key}`, (variants.get(`${x.locale}\0${x.key}`) ?? 0) + 1);
      for (const m of content.matchAll(/(?<=^|\n)[ \t]*"(?:[^"\\\n]|\\.)*_(zero|one|two|few|many|other)"[ \t]*:[ \t]*"(?:[^"\\\n]|\\.)*"[ \t]*(,?)[ \t]*(?=\r?\n|$)/g)) {
        const line = lineAt(m.index);
        const fact = f.lines.get(line);
        if (!fact || fact.grammar !== 'i18next' || fact.selector !== m[1] || !fact.required.includes(m[1] as never) || !fact.pluralLine) continue;
        if ((variants.get(`${fact.locale}\0${fact.key}`) ?? 0) < 2) continue;
        const eol = content.indexOf('\n', m.index);
        let start = m.index;
        let end = eol === -1 ? content.length : eol + 1;
        if (!m[2]) {
          // The last member: cut from the previous member's comma to this line's end (its newline stays).
          const before = content.slice(0, m.index).trimEnd();
          if (!before.endsWith(',')) continue;
          start = before.length - 1;
          end = m.index + m[0].length;
        }
        drops.push({ start, end, line: fact.pluralLine, cat: m[1]!, key: fact.key, locale: fact.locale });
      }
    } else if (path.endsWith('.xcstrings')) {
      // A String Catalog plural variant (`"one" : { "stringUnit" : {…} }` under `variations.plural`, also inside a
      // device variation): drop the member with its comma so the file stays JSON. Only where another variant of the
      // plural stays, else the plural is empty (another defect than a missing category).
      const siblings = new Map<string, number>();
      for (const x of f.lines.values()) if (x.selector && x.pluralLine) siblings.set(`${x.locale}\0${x.key}\0${x.pluralLine}`, (siblings.get(`${x.locale}\0${x.key}\0${x.pluralLine}`) ?? 0) + 1);
      for (const m of content.matchAll(/(?<=\n)[ \t]*"(zero|one|two|few|many|other)"[ \t]*:[ \t]*\{/g)) {
        const close = jsonObjectEnd(content, m.index + m[0].length - 1);
        if (close < 0) continue;
        const first = lineAt(m.index);
        const last = lineAt(close);
        let fact: LineFact | undefined;
        for (let l = first; l <= last && !fact; l++) {
          const x = f.lines.get(l);
          if (x?.selector === m[1]) fact = x;
        }
        if (!fact || !fact.required.includes(m[1] as never) || !fact.pluralLine) continue;
        if ((siblings.get(`${fact.locale}\0${fact.key}\0${fact.pluralLine}`) ?? 0) < 2) continue;
        const after = /^[ \t]*,[ \t]*\r?\n?/.exec(content.slice(close + 1));
        let start = m.index;
        let end = close + 1;
        if (after) end += after[0].length;
        else {
          // The last member: cut from the previous member's comma (this line's newline before it goes with it).
          const before = content.slice(0, m.index).trimEnd();
          if (!before.endsWith(',')) continue;
          start = before.length - 1;
        }
        drops.push({ start, end, line: fact.pluralLine, cat: m[1]!, key: fact.key, locale: fact.locale });
      }
    } else {
      // ICU plural option `few {…}` (ARB, ICU JSON, Lingui PO): remove the option with its balanced braces. Not
      // `other`: ICU itself requires it, so its absence is a syntax error (`icu-syntax`), another rule's defect.
      for (const m of content.matchAll(/\s(zero|one|two|few|many)\s*\{/g)) {
        const fact = f.lines.get(lineAt(m.index + 1));
        if (!fact?.icuPlurals || at(m.index + 1).column < fact.column) continue;
        const plural = icuPluralAround(content, m.index + 1);
        if (!plural || !fact.icuPlurals.args.has(plural.name) || !fact.icuPlurals.required(plural.selectors).includes(m[1] as never)) continue;
        let depth = 0;
        let i = m.index + m[0].length - 1;
        for (; i < content.length; i++) {
          if (content[i] === '{') depth++;
          else if (content[i] === '}' && --depth === 0) break;
        }
        if (depth !== 0) continue;
        drops.push({ start: m.index, end: i + 1, line: lineAt(m.index + 1), cat: m[1]!, key: fact.key, locale: fact.locale });
      }
    }
    // The picked cut only must leave JSON (a parse per candidate would read a 3 MB catalog hundreds of times).
    const valid = (d: Drop) => {
      if (!path.endsWith('.xcstrings')) return true;
      try {
        JSON.parse(content.slice(0, d.start) + content.slice(d.end));
        return true;
      } catch {
        return false;
      }
    };
    let s = pick(drops, random);
    while (s && !valid(s)) {
      drops.splice(drops.indexOf(s), 1);
      s = pick(drops, random);
    }
    if (!s) return null;
    return { content: content.slice(0, s.start) + content.slice(s.end), line: s.line, rule: 'plural-missing-category', description: `dropped plural category ${s.cat} from ${s.locale} \`${s.key}\`` };
  },
};

/** Offset of the `}` closing the JSON object whose `{` is at `open` (strings skipped), or -1. */
function jsonObjectEnd(content: string, open: number): number {
  let depth = 0;
  for (let i = open; i < content.length; i++) {
    const ch = content[i];
    if (ch === '"') {
      for (i++; i < content.length && content[i] !== '"'; i++) if (content[i] === '\\') i++;
    } else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i;
  }
  return -1;
}

// A tag written in a catalog text (markup.ts TAG): `<em>`, `</em>`, `<br/>`, `<a href="…">`, `<xliff:g id="n">`, `<0>`.
const TAG = /<(\/?)([A-Za-z][\w:.-]*|\d+)((?:\s+[^<>]*?)?)\s*(\/?)>/g;

/**
 * Drop one tag pair (`<em>…</em>` keeps its text; a self-closing `<br/>` goes) from a translated string whose base
 * has that markup, or, outside XML (where a doubled close tag would be a parse error, another rule's defect), double
 * one closing tag: the gate must report `markup-mismatch` (fresh-user-3 F14). Only tags on the line where the
 * translated text starts, right of it, and named like a tag of the base.
 */
export const markupTag: MutationOperator<StringParityFacts> = {
  id: 'string-parity/markup-tag',
  description: 'drop a tag pair (or double a closing tag) in a translated string whose base has that markup',
  appliesTo: (path) => TRANSLATION.test(path) && !/\.(?:po|arb)$/.test(path),
  facts,
  mutate(path, content, random, f): Mutant | null {
    if (!f?.markupLines) return null;
    const at = lineIndex(content);
    type Tag = { start: number; end: number; name: string; kind: 'open' | 'close' | 'self'; line: number };
    const byLine = new Map<number, Tag[]>();
    for (const m of content.matchAll(TAG)) {
      const { line, column } = at(m.index);
      const fact = f.markupLines.get(line);
      const name = m[2]!.toLowerCase();
      if (!fact || column < fact.column || !fact.names.has(name) || (m[1] && (m[3] || m[4]))) continue;
      const list = byLine.get(line) ?? [];
      list.push({ start: m.index, end: m.index + m[0].length, name, kind: m[1] ? 'close' : m[4] || name === 'br' ? 'self' : 'open', line });
      byLine.set(line, list);
    }
    type Edit = { cut: Array<[number, number]>; insert?: [number, string]; line: number; what: string };
    const edits: Edit[] = [];
    const xml = /\.(?:xml|stringsdict)$/.test(path);
    for (const [line, tags] of byLine) {
      tags.forEach((t, i) => {
        const label = `<${t.name}>`;
        if (t.kind === 'self') edits.push({ cut: [[t.start, t.end]], line, what: `dropped <${t.name}/>` });
        else if (t.kind === 'open') {
          let depth = 0;
          for (const u of tags.slice(i + 1)) {
            if (u.name !== t.name) continue;
            if (u.kind === 'open') depth++;
            else if (u.kind === 'close' && depth-- === 0) {
              edits.push({ cut: [[t.start, t.end], [u.start, u.end]], line, what: `dropped the tag pair ${label}…</${t.name}>` });
              break;
            }
          }
        } else if (!xml) edits.push({ cut: [], insert: [t.end, `</${t.name}>`], line, what: `doubled </${t.name}>` });
      });
    }
    const e = pick(edits, random);
    if (!e) return null;
    let out = content;
    // Right to left, so earlier offsets stay valid.
    const ops: Array<[number, number, string]> = [...e.cut.map(([a, b]): [number, number, string] => [a, b, '']), ...(e.insert ? [[e.insert[0], e.insert[0], e.insert[1]] as [number, number, string]] : [])];
    for (const [a, b, text] of ops.sort((x, y) => y[0] - x[0])) out = out.slice(0, a) + text + out.slice(b);
    const fact = f.markupLines.get(e.line)!;
    return { content: out, line: e.line, rule: 'markup-mismatch', description: `${e.what} in ${fact.locale} \`${fact.key}\`` };
  },
};

/** An Android values file of a qualified folder (`res/values-de/strings.xml`): a translation, never the default. */
const ANDROID_TRANSLATION = /(?:^|\/)res\/values-[^/]+\/[^/]+\.xml$/;

/** Offset of 1-based `line`:`column` in `content`, or -1 past its end. */
function offsetOf(content: string, line: number, column: number): number {
  let at = 0;
  for (let n = 1; n < line; n++) {
    at = content.indexOf('\n', at) + 1;
    if (at === 0) return -1;
  }
  return at + column - 1;
}

/**
 * The `<string name="…">` element of `s` in an Android file: element start, its start tag's end, its end tag's start
 * and end. Looked for at the entry's position, else by its name outside comments (a position read under another line-end
 * rule would miss it: the gate counted U+2028 as a line end until it read XML 1.0 as git does). Null for
 * a self-closing element or one not found once.
 */
function androidString(content: string, s: StringFact): { start: number; open: number; close: number; end: number } | null {
  // Attribute values may hold `>`; a self-closing `<string name="a"/>` has no text to mutate.
  const tag = /<string\b(?:[^>"']|"[^"]*"|'[^']*')*>/y;
  const name = new RegExp(`\\sname\\s*=\\s*["']${s.key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["']`);
  const named = (at: number): RegExpExecArray | null => {
    tag.lastIndex = at;
    const m = at >= 0 ? tag.exec(content) : null;
    return m && name.test(m[0]) ? m : null;
  };
  let start = offsetOf(content, s.line, s.column);
  let m = named(start);
  if (!m) {
    const found: number[] = [];
    for (let i = content.indexOf('<string', 0); i !== -1 && found.length < 2; i = content.indexOf('<string', i + 1)) {
      if (content.lastIndexOf('<!--', i) > content.lastIndexOf('-->', i)) continue;
      if (named(i)) found.push(i);
    }
    if (found.length !== 1) return null;
    start = found[0]!;
    m = named(start)!;
  }
  if (m[0].endsWith('/>')) return null;
  const open = start + m[0].length;
  const close = content.indexOf('</string>', open);
  return close < 0 ? null : { start, open, close, end: close + '</string>'.length };
}

/**
 * The translated strings of `f` (none in a base or template; an `.xcstrings` holds its translations beside the base)
 * when `rule` refuses a commit under the gate's config: a mutant of a rule that only warns is no defect the gate must refuse.
 */
const stringsFor = (f: StringParityFacts | undefined, rule: string): readonly StringFact[] => (f?.refusing?.has(rule) ? (f.strings ?? []) : []);

/**
 * Write a bare `'` after a word of a translated plain `<string>` of an Android translation (`Neue' Notiz`): aapt2 drops
 * it, Android Lint reports it, and the gate must report `android-unescaped-apostrophe` at its line. Only in text with
 * no `"` (inside a double-quoted span a `'` is kept, so the place would be no defect), no markup and no entity, on
 * the line where the element starts.
 */
export const androidUnescapedApostrophe: MutationOperator<StringParityFacts> = {
  id: 'string-parity/android-unescaped-apostrophe',
  description: "write an unescaped ' into a translated Android <string>",
  appliesTo: (path) => ANDROID_TRANSLATION.test(path),
  facts,
  mutate(_path, content, random, f): Mutant | null {
    if (f?.format !== 'android-xml') return null;
    const at = lineIndex(content);
    const places: Array<{ offset: number; word: string; s: StringFact }> = [];
    for (const s of stringsFor(f, 'android-unescaped-apostrophe')) {
      const el = androidString(content, s);
      if (!el) continue;
      const inner = content.slice(el.open, el.close);
      if (/["&<]/.test(inner)) continue;
      const firstLine = inner.split('\n', 1)[0]!;
      // A word of two letters or more after a space or the start, never the letters of a placeholder (`%1$s`).
      const w = /(?<=^|\s)\p{L}{2,}/u.exec(firstLine);
      if (w) places.push({ offset: el.open + w.index + w[0].length, word: w[0], s });
    }
    const p = pick(places, random);
    if (!p) return null;
    return { content: content.slice(0, p.offset) + "'" + content.slice(p.offset), line: at(p.offset).line, rule: 'android-unescaped-apostrophe', description: `wrote an unescaped ' in ${p.s.locale} \`${p.s.key}\` (${p.word}')` };
  },
};

/**
 * Define a translated `<string>` of an Android translation a second time, as a copy on the line after it (a merge
 * that adds a key twice): aapt2 fails the build ("duplicate value for resource") and the gate must report
 * `duplicate-resource` at the copy, the file's first duplicate (a file with one already is red unmutated).
 */
export const duplicateResource: MutationOperator<StringParityFacts> = {
  id: 'string-parity/duplicate-resource',
  description: 'define a translated Android <string> a second time in its values file',
  appliesTo: (path) => ANDROID_TRANSLATION.test(path),
  facts,
  mutate(_path, content, random, f): Mutant | null {
    if (f?.format !== 'android-xml') return null;
    const places = stringsFor(f, 'duplicate-resource').flatMap((s) => {
      const el = androidString(content, s);
      return el ? [{ el, s }] : [];
    });
    const p = pick(places, random);
    if (!p) return null;
    const { el, s } = p;
    const lineStart = content.lastIndexOf('\n', el.start - 1) + 1;
    const indent = /^[ \t]*$/.test(content.slice(lineStart, el.start)) ? content.slice(lineStart, el.start) : '';
    const at = lineIndex(content);
    const copyLine = at(el.end).line + 1;
    return {
      content: `${content.slice(0, el.end)}\n${indent}${content.slice(el.start, el.end)}${content.slice(el.end)}`,
      line: copyLine,
      rule: 'duplicate-resource',
      description: `defined ${s.locale} \`${s.key}\` a second time (a copy of line ${at(el.start).line})`,
    };
  },
};

/** Offset just past the JSON/`.strings` string literal whose `"` is at `open` (same line), or -1. */
function literalEnd(content: string, open: number): number {
  for (let i = open + 1; i < content.length; i++) {
    const c = content[i];
    if (c === '\\') i++;
    else if (c === '"') return i + 1;
    else if (c === '\n') return -1;
  }
  return -1;
}

/** Whether the JSON string literal `literal` decodes to `text`. */
function readsAs(literal: string, text: string): boolean {
  try {
    return JSON.parse(literal) === text;
  } catch {
    return false;
  }
}

/**
 * Empty a translated plain string whose base has text (`<string name="a"></string>`, `"a": ""`, `"a" = "";`): users
 * see a blank, and the gate must report `empty-value` at the entry. Only in formats where "" is an empty text: not
 * FormatJS/react-intl JSON (an empty message is missing, react-intl shows the default: `missing-key`) nor gettext PO
 * (msgstr "" is untranslated, gettext shows the msgid). empty-value warns by default: a mutant only where `rules:`
 * makes it refuse.
 */
export const emptyValue: MutationOperator<StringParityFacts> = {
  id: 'string-parity/empty-value',
  description: 'empty a translated string whose base has text',
  appliesTo: (path) => TRANSLATION.test(path) && !path.endsWith('.po'),
  facts,
  mutate(_path, content, random, f): Mutant | null {
    if (!f?.format || f.format === 'icu-json' || f.format === 'gettext-po') return null;
    const android = f.format === 'android-xml';
    type Cut = { start: number; end: number; text: string; line: number; s: StringFact };
    const cuts: Cut[] = [];
    const at = lineIndex(content);
    for (const s of stringsFor(f, 'empty-value')) {
      if (s.text === '' || !s.baseHasText) continue;
      // Not where the base takes printf or ICU arguments: the gate also reports them missing from the empty text
      // (placeholder-mismatch), so the mutant would be two defects. i18next says only empty-value (checks.ts).
      const args = f.lines.get(s.valueLine ?? s.line);
      if (args?.baseHasArgs && args.grammar !== 'i18next') continue;
      if (android) {
        const el = androidString(content, s);
        if (el && el.close > el.open) cuts.push({ start: el.open, end: el.close, text: '', line: at(el.start).line, s });
      } else if (s.valueLine !== undefined) {
        // The value's opening `"` (JSON, ARB, .xcstrings `value`, `.strings`): the literal becomes "". Only where the
        // literal there reads as the entry's text (a `.strings` escape JSON lacks, or another line, is no place).
        const open = offsetOf(content, s.valueLine, s.valueColumn ?? 1);
        const end = open < 0 || content[open] !== '"' ? -1 : literalEnd(content, open);
        if (end > open + 2 && readsAs(content.slice(open, end), s.text)) cuts.push({ start: open, end, text: '""', line: at(open).line, s });
      }
    }
    const c = pick(cuts, random);
    if (!c) return null;
    return { content: content.slice(0, c.start) + c.text + content.slice(c.end), line: c.line, rule: 'empty-value', description: `emptied ${c.s.locale} \`${c.s.key}\`` };
  },
};

export const stringParityMutations: readonly MutationOperator<StringParityFacts>[] = [deletePlaceholder, changeSpecifierType, dropPluralCategory, markupTag, androidUnescapedApostrophe, duplicateResource, emptyValue];
