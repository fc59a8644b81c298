// ICU MessageFormat arguments (unicode-org.github.io/icu/userguide/format_parse/messages/), parsed with
// @formatjs/icu-messageformat-parser. Tags (`<0>…</0>`, Lingui's component slots) are read by regex because
// formatjs rejects numeric tag names.
import { createRequire } from 'node:module';
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';

// formatjs loads on the first text that holds a `{` (its CommonJS build, synchronously): an Android or Apple catalog
// commit, whose texts are printf, never pays for it.
type Formatjs = typeof import('@formatjs/icu-messageformat-parser');
let formatjs: Formatjs | undefined;
const loadFormatjs = (): Formatjs => (formatjs ??= createRequire(import.meta.url)('@formatjs/icu-messageformat-parser') as Formatjs);

/** One ICU argument: its name, its kind and, for plural/select, its option keys and their 0-based offsets. */
export interface IcuArgument {
  name: string;
  kind: 'simple' | 'plural' | 'selectordinal' | 'select';
  options: string[];
  /**
   * formatjs's location offset of the argument: always 0 here, since `parse` is called without `captureLocation`
   * and formatjs then prunes every location (kept as read so that results stay what they were).
   */
  offset: number;
  /**
   * plural/selectordinal only (formatjs path): per option, in the order of `options`, the arguments the option's text
   * shows: `{name}`, `{name, number}`… and `#` (this plural's own argument), including those of nested arguments'
   * options; a nested select's or plural's own selector is not shown. `#` inside a nested select is literal text
   * (ICU MessagePattern and formatjs replace it only directly in a plural's option).
   */
  shown?: string[][];
  /**
   * plural/selectordinal only: the arguments shown beside this plural whatever option it picks (the other elements
   * of its message and of every enclosing option; a sibling select or plural counts with all its options).
   */
  alongside?: string[];
  /** plural/selectordinal/select (formatjs path): the options whose text is empty or blank (`one {}`). */
  empty?: string[];
}

export interface IcuResult {
  ok: boolean;
  /** Syntax error: formatjs's error kind and where its location starts and ends (icuErrorText says it in words). */
  error?: IcuSyntaxError;
  args: IcuArgument[];
  /** Tag names `<0>`, `</0>`, `<b>` in order of appearance. */
  tags: string[];
}

/** A point of formatjs's error location: 0-based `offset`, 1-based `line` and `column`, all within the message. */
export interface IcuPoint {
  offset: number;
  line: number;
  column: number;
}

/** formatjs's syntax error: its kind (`EXPECT_ARGUMENT_CLOSING_BRACE`...) and the start and end of its location. */
export interface IcuSyntaxError extends IcuPoint {
  kind: string;
  end: IcuPoint;
}

/**
 * Where `error` is in `text`, in words: `MISSING_OTHER_CLAUSE at character 24`. For an argument never closed formatjs's
 * location starts at its `{` (often character 1 of a plural message) and ends where the parser stopped looking for
 * the `}`: that end is the error's position, and the `{` is named. A message with line breaks gets line and column.
 */
export function icuErrorText(error: IcuSyntaxError, text: string): string {
  const multiline = text.includes('\n');
  const at = (p: IcuPoint) => (multiline ? `line ${p.line}, column ${p.column} of the message` : `character ${p.offset + 1}`);
  if (error.kind !== 'EXPECT_ARGUMENT_CLOSING_BRACE' || error.end.offset === error.offset) return `${error.kind} at ${at(error)}`;
  const end = error.end.offset >= text.length ? ' (the end of the message)' : '';
  return `${error.kind} at ${at(error.end)}${end}: the \`{\` at ${at(error)} is never closed`;
}

const PUA = '\uE000';

/** Tag names `<0>`, `</0>`, `<b>` of `text` in order (none without a `<`), blanks dropped. */
function tagsOf(text: string): string[] {
  return text.includes('<') ? [...text.matchAll(/<\/?([A-Za-z0-9_-]+)\s*\/?>/g)].map((m) => m[0].replace(/\s+/g, '')) : [];
}

/** Identifier characters of the fast path (ASCII letters, digits, `_`: all outside Pattern_Syntax and White_Space). */
function isIdentChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/**
 * The arguments of a text whose only ICU syntax is simple `{name}` arguments (name: ASCII letters, digits, `_`,
 * nothing around it), as formatjs reads them; null for any other text (formatjs decides). The cases formatjs would
 * read otherwise are excluded: an apostrophe that starts quoted text (before `'`, `{`, `}`, `<`, `>` when apostrophes
 * quote; `#` quotes only inside a plural), a `{` not followed by such a name and `}`. At the top level `}`, `#` and
 * `<` (tags are ignored) are plain characters. Most translations hold only such arguments (`{count} games`), and
 * formatjs costs a parser object and an AST per text.
 */
function simpleArgs(text: string, apostropheQuotes: boolean): IcuArgument[] | null {
  if (apostropheQuotes) {
    for (let q = text.indexOf("'"); q !== -1; q = text.indexOf("'", q + 1)) {
      const c = text.charCodeAt(q + 1);
      if (c === 39 || c === 123 || c === 125 || c === 60 || c === 62) return null;
    }
  }
  const args: IcuArgument[] = [];
  const n = text.length;
  for (let i = text.indexOf('{'); i !== -1; ) {
    let j = i + 1;
    while (j < n && isIdentChar(text.charCodeAt(j))) j++;
    if (j === i + 1 || text.charCodeAt(j) !== 125) return null;
    args.push({ name: text.slice(i + 1, j), kind: 'simple', options: [], offset: 0 });
    i = text.indexOf('{', j + 1);
  }
  return args;
}

/**
 * Parse `text` as ICU MessageFormat. `apostropheQuotes` false is Flutter gen-l10n without `use-escaping`:
 * `'` is then a literal character, so it is hidden from the parser (replaced by U+E000, same length).
 * Linear in practice; never throws.
 */
export function parseIcu(text: string, apostropheQuotes: boolean): IcuResult {
  // No `<`: no tag can match. No `{`: formatjs reads only literal text (outside an argument `}` and `#` are plain
  // characters and an unclosed quote runs to the end without error), so it cannot fail and finds no argument.
  const tags = tagsOf(text);
  if (!text.includes('{')) return { ok: true, args: [], tags };
  const simple = simpleArgs(text, apostropheQuotes);
  if (simple) return { ok: true, args: simple, tags };
  return withFormatjs(text, apostropheQuotes, tags);
}

/**
 * parseIcu without its fast path for simple `{name}` arguments: every text with a `{` goes through formatjs. The
 * reference the fast path is tested against. Never throws.
 */
export function parseIcuWithFormatjs(text: string, apostropheQuotes: boolean): IcuResult {
  const tags = tagsOf(text);
  if (!text.includes('{')) return { ok: true, args: [], tags };
  return withFormatjs(text, apostropheQuotes, tags);
}

/** Keys of the options whose message is empty or only blank literal text (`one {}`, `other { }`). */
function emptyOptions(options: Record<string, { value: MessageFormatElement[] }>): string[] {
  const { TYPE } = loadFormatjs();
  return Object.entries(options)
    .filter(([, o]) => o.value.every((e) => e.type === TYPE.literal && e.value.trim() === ''))
    .map(([k]) => k);
}

/** The formatjs half of parseIcu: `text` holds a `{`; `tags` are its tags, read before. */
function withFormatjs(text: string, apostropheQuotes: boolean, tags: string[]): IcuResult {
  // `'` is replaced by a character the tag pattern does not match either, so tags read from `text` are the same.
  const src = apostropheQuotes || !text.includes("'") ? text : text.replaceAll("'", PUA);
  const { parse, TYPE } = loadFormatjs();
  let ast: MessageFormatElement[];
  try {
    ast = parse(src, { ignoreTag: true, requiresOtherClause: true });
  } catch (err) {
    const e = err as { message?: string; location?: { start?: Partial<IcuPoint>; end?: Partial<IcuPoint> } };
    const point = (p: Partial<IcuPoint> | undefined): IcuPoint => ({ offset: p?.offset ?? 0, line: p?.line ?? 1, column: p?.column ?? 1 });
    const start = point(e.location?.start);
    return { ok: false, error: { kind: e.message ?? 'SYNTAX_ERROR', ...start, end: e.location?.end ? point(e.location.end) : start }, args: [], tags };
  }
  const args: IcuArgument[] = [];
  // Names an element shows (for its plural parent's `#`, `pound`), added to `out`.
  const shows = (els: MessageFormatElement[], pound: string | undefined, out: Set<string>): Set<string> => {
    for (const el of els) {
      if (el.type === TYPE.argument || el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.time) out.add(el.value);
      else if (el.type === TYPE.pound) {
        if (pound !== undefined) out.add(pound);
      } else if (el.type === TYPE.plural) for (const o of Object.values(el.options)) shows(o.value, el.value, out);
      else if (el.type === TYPE.select) for (const o of Object.values(el.options)) shows(o.value, undefined, out);
      else if (el.type === TYPE.tag) shows(el.children, pound, out);
    }
    return out;
  };
  const walk = (els: MessageFormatElement[], pound: string | undefined, outer: ReadonlySet<string>) => {
    // What each element of this level shows, computed only when the level holds a plural (its `alongside`).
    let each: Array<Set<string>> | undefined;
    const alongside = (i: number): Set<string> => {
      each ??= els.map((e) => shows([e], pound, new Set()));
      const s = new Set(outer);
      each.forEach((x, j) => {
        if (j !== i) for (const n of x) s.add(n);
      });
      return s;
    };
    els.forEach((el, i) => {
      const offset = el.location?.start.offset ?? 0;
      switch (el.type) {
        case TYPE.argument:
        case TYPE.number:
        case TYPE.date:
        case TYPE.time:
          args.push({ name: el.value, kind: 'simple', options: [], offset });
          break;
        case TYPE.plural: {
          const around = alongside(i);
          const opts = Object.values(el.options);
          const arg: IcuArgument = { name: el.value, kind: el.pluralType === 'ordinal' ? 'selectordinal' : 'plural', options: Object.keys(el.options), offset, shown: opts.map((o) => [...shows(o.value, el.value, new Set())]), alongside: [...around] };
          const empty = emptyOptions(el.options);
          if (empty.length) arg.empty = empty;
          args.push(arg);
          for (const o of opts) walk(o.value, el.value, around);
          break;
        }
        case TYPE.select: {
          const arg: IcuArgument = { name: el.value, kind: 'select', options: Object.keys(el.options), offset };
          const empty = emptyOptions(el.options);
          if (empty.length) arg.empty = empty;
          args.push(arg);
          const around = alongside(i);
          for (const o of Object.values(el.options)) walk(o.value, undefined, around);
          break;
        }
        case TYPE.tag:
          walk(el.children, pound, alongside(i));
          break;
        default:
          break;
      }
    });
  };
  walk(ast, undefined, new Set());
  return { ok: true, args, tags };
}
