// Mutation operators of string-parity for `loopgates mutate` (DESIGN.md "mutation"): each injects the gate's target
// defect into one real translation, as a pure function of (path, content, random).
import type { Mutant, MutationOperator } from '../../core/types.js';

const TRANSLATION = /(?:\/res\/values-[^/]+\/[^/]+\.xml|\/(?!Base\.)[^/]+\.lproj\/[^/]+\.(?:strings|stringsdict)|\.xcstrings|\.arb|\.po|\.json)$/;

function pick<T>(list: readonly T[], random: () => number): T | undefined {
  return list.length ? list[Math.min(list.length - 1, Math.floor(random() * list.length))] : undefined;
}

function lineAt(content: string, offset: number): number {
  let n = 1;
  for (let i = content.indexOf('\n'); i !== -1 && i < offset; i = content.indexOf('\n', i + 1)) n++;
  return n;
}

// A printf specifier inside a catalog value: `%1$s`, `%d`, `%@`, `%lld` (not `%%`).
const PRINTF = /%(?:\d+\$)?(?:ll|l|q|z)?[sdif@]/g;
// An ICU/Flutter argument `{name}` (simple arguments only).
const ICU_ARG = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Places where deleting a placeholder is a defect: not a plural variant (a variant may leave the count out, e.g.
 * `one` -> "one episode"), and for ICU an argument written once in its value (deleting one of several uses of the
 * same argument loses nothing the parser can see).
 */
function deletable(lineText: string, text: string): boolean {
  if (/<item quantity=|<key>(?:zero|one|two|few|many|other)<\/key>|"(?:zero|one|two|few|many|other)"\s*:/.test(lineText)) return false;
  if (/plural,/.test(lineText) && /^%/.test(text)) return false;
  if (text.startsWith('{')) {
    const name = text.slice(1, -1);
    const uses = lineText.split(text).length - 1 + (lineText.match(new RegExp(`\\{${name}\\s*,`, 'g'))?.length ?? 0);
    return uses === 1;
  }
  return true;
}

function candidates(content: string, re: RegExp, keep: (lineText: string, text: string) => boolean = () => true): Array<{ offset: number; text: string }> {
  const out: Array<{ offset: number; text: string }> = [];
  for (const m of content.matchAll(re)) {
    // Only inside values: skip header-ish lines (XML declarations, PO headers, JSON keys).
    const lineStart = content.lastIndexOf('\n', m.index) + 1;
    const lineText = content.slice(lineStart, content.indexOf('\n', m.index) === -1 ? undefined : content.indexOf('\n', m.index));
    if (/^\s*(?:<\?xml|"[A-Za-z-]+: |msgid )/.test(lineText)) continue;
    if (/"[^"]*"\s*:\s*\{/.test(lineText) && !/value/.test(lineText)) continue;
    if (!keep(lineText, m[0])) continue;
    out.push({ offset: m.index, text: m[0] });
  }
  return out;
}

const isPrintfFormat = (path: string) => /\.(?:xml|strings|stringsdict|xcstrings)$/.test(path);

/** Delete one placeholder from a translated value (a deleted `%1$s` or `{count}`). */
export const deletePlaceholder: MutationOperator = {
  id: 'string-parity/delete-placeholder',
  description: 'delete one placeholder (%1$s, %@, {name}) from a translated string',
  appliesTo: (path) => TRANSLATION.test(path),
  mutate(path, content, random): Mutant | null {
    const c = pick(candidates(content, isPrintfFormat(path) ? PRINTF : ICU_ARG, deletable), random);
    if (!c) return null;
    return { content: content.slice(0, c.offset) + content.slice(c.offset + c.text.length), line: lineAt(content, c.offset), rule: 'placeholder-mismatch', description: `deleted ${c.text}` };
  },
};

/** Change one printf specifier's type (`%s` -> `%d`, `%@` -> `%d`, `%d` -> `%@`). */
export const changeSpecifierType: MutationOperator = {
  id: 'string-parity/change-specifier-type',
  description: "change one printf specifier's conversion type in a translated string",
  appliesTo: (path) => TRANSLATION.test(path) && isPrintfFormat(path),
  mutate(_path, content, random): Mutant | null {
    const c = pick(candidates(content, PRINTF), random);
    if (!c) return null;
    const conv = c.text[c.text.length - 1]!;
    const swapped = c.text.slice(0, -1).replace(/(?:ll|l|q|z)$/, '') + (conv === 'd' || conv === 'i' ? (/\.xml$/.test(_path) ? 's' : '@') : 'd');
    // Java reads %s from anything, so an Android %d -> %s is no defect; use %c there (a char from an int crashes).
    const out = /\.xml$/.test(_path) && (conv === 'd' || conv === 'i') ? c.text.slice(0, -1) + 'b' : swapped;
    return { content: content.slice(0, c.offset) + out + content.slice(c.offset + c.text.length), line: lineAt(content, c.offset), rule: 'placeholder-mismatch', description: `changed ${c.text} to ${out}` };
  },
};

/** Drop one plural variant (`few`, `many`, `one`...) that the locale's CLDR rules require. */
export const dropPluralCategory: MutationOperator = {
  id: 'string-parity/drop-plural-category',
  description: 'drop one CLDR-required plural category from a translated plural',
  appliesTo: (path) => TRANSLATION.test(path),
  mutate(path, content, random): Mutant | null {
    type Site = { start: number; end: number; line: number; cat: string };
    const sites: Site[] = [];
    if (path.endsWith('.xml')) {
      for (const m of content.matchAll(/\n[ \t]*<item quantity="(one|two|few|many|zero)">[\s\S]*?<\/item>/g)) {
        const open = content.lastIndexOf('<plurals', m.index);
        sites.push({ start: m.index, end: m.index + m[0].length, line: lineAt(content, open), cat: m[1]! });
      }
    } else if (path.endsWith('.stringsdict')) {
      for (const m of content.matchAll(/\n[ \t]*<key>(one|two|few|many|zero)<\/key>\s*<string>[\s\S]*?<\/string>/g)) {
        const dict = content.lastIndexOf('<dict>', m.index);
        const keyLine = content.lastIndexOf('<key>', dict);
        sites.push({ start: m.index, end: m.index + m[0].length, line: lineAt(content, keyLine), cat: m[1]! });
      }
    } else {
      // ICU plural option `few {…}` (ARB, ICU JSON, Lingui PO): remove the option with its balanced braces.
      for (const m of content.matchAll(/\s(one|two|few|many|zero)\s*\{/g)) {
        let depth = 0;
        let i = m.index + m[0].length - 1;
        for (; i < content.length; i++) {
          if (content[i] === '{') depth++;
          else if (content[i] === '}' && --depth === 0) break;
        }
        if (depth !== 0 || !/plural,/.test(content.slice(content.lastIndexOf('\n', m.index), m.index))) continue;
        sites.push({ start: m.index, end: i + 1, line: lineAt(content, m.index), cat: m[1]! });
      }
    }
    const s = pick(sites, random);
    if (!s) return null;
    return { content: content.slice(0, s.start) + content.slice(s.end), line: s.line, rule: 'plural-missing-category', description: `dropped plural category ${s.cat}` };
  },
};

export const stringParityMutations: readonly MutationOperator[] = [deletePlaceholder, changeSpecifierType, dropPluralCategory];
