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
  /** 0-based offset of the argument's `{` in the text (formatjs location). */
  offset: number;
}

export interface IcuResult {
  ok: boolean;
  /** Syntax error: formatjs's error kind and 0-based offset. */
  error?: { kind: string; offset: number };
  args: IcuArgument[];
  /** Tag names `<0>`, `</0>`, `<b>` in order of appearance. */
  tags: string[];
}

const PUA = '\uE000';

/**
 * Parse `text` as ICU MessageFormat. `apostropheQuotes` false is Flutter gen-l10n without `use-escaping`:
 * `'` is then a literal character, so it is hidden from the parser (replaced by U+E000, same length).
 * Linear in practice; never throws.
 */
export function parseIcu(text: string, apostropheQuotes: boolean): IcuResult {
  // No `<`: no tag can match. No `{`: formatjs reads only literal text (outside an argument `}` and `#` are plain
  // characters and an unclosed quote runs to the end without error), so it cannot fail and finds no argument.
  const tags = text.includes('<') ? [...text.matchAll(/<\/?([A-Za-z0-9_-]+)\s*\/?>/g)].map((m) => m[0].replace(/\s+/g, '')) : [];
  if (!text.includes('{')) return { ok: true, args: [], tags };
  // `'` is replaced by a character the tag pattern does not match either, so tags read from `text` are the same.
  const src = apostropheQuotes || !text.includes("'") ? text : text.replaceAll("'", PUA);
  const { parse, TYPE } = loadFormatjs();
  let ast: MessageFormatElement[];
  try {
    ast = parse(src, { ignoreTag: true, requiresOtherClause: true });
  } catch (err) {
    const e = err as { message?: string; location?: { start?: { offset?: number } } };
    return { ok: false, error: { kind: e.message ?? 'SYNTAX_ERROR', offset: e.location?.start?.offset ?? 0 }, args: [], tags };
  }
  const args: IcuArgument[] = [];
  const walk = (els: MessageFormatElement[]) => {
    for (const el of els) {
      const offset = el.location?.start.offset ?? 0;
      switch (el.type) {
        case TYPE.argument:
        case TYPE.number:
        case TYPE.date:
        case TYPE.time:
          args.push({ name: el.value, kind: 'simple', options: [], offset });
          break;
        case TYPE.plural:
          args.push({ name: el.value, kind: el.pluralType === 'ordinal' ? 'selectordinal' : 'plural', options: Object.keys(el.options), offset });
          for (const o of Object.values(el.options)) walk(o.value);
          break;
        case TYPE.select:
          args.push({ name: el.value, kind: 'select', options: Object.keys(el.options), offset });
          for (const o of Object.values(el.options)) walk(o.value);
          break;
        case TYPE.tag:
          walk(el.children);
          break;
        default:
          break;
      }
    }
  };
  walk(ast);
  return { ok: true, args, tags };
}
