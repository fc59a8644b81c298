// Apple `.strings` files: old-style property-list pairs `"key" = "value";` with /* */ and // comments, in UTF-8 or
// UTF-16 (BOM or byte pattern; decoded by ../encoding.ts). Source: developer.apple.com "String Resources" and the OpenStep plist grammar in
// CoreFoundation's CFOldStylePList.c. No kept parser reads this format with positions (`plist` reads only XML
// plists), so this is a small tokenizer of ours; its tests are in test/unit/string-parity-parsers.test.ts.
import type { CatalogEntry, LoadedCatalog, ParseProblem } from '../model.js';
import { lineIndex, localeCatalog } from '../model.js';
import { catalogText } from '../encoding.js';

const UNQUOTED = /[A-Za-z0-9_$+/:.\-]/;
const WS = /\s/;

/**
 * Parse a `.strings` file of `locale`: its text, or its bytes (decoded as ../encoding.ts reads them). Entries carry the key's 1-based line/column and the value's. A syntax error
 * yields one `unparsable` problem at its position and the entries read before it. Never throws.
 */
export function parseAppleStrings(path: string, input: string | Buffer, locale: string): LoadedCatalog {
  const text = typeof input === 'string' ? input : catalogText(input, 'apple-strings');
  const pos = lineIndex(text);
  const entries: CatalogEntry[] = [];
  const problems: ParseProblem[] = [];
  let i = 0;
  const n = text.length;
  const skip = (): void => {
    for (;;) {
      for (;;) {
        const c = text.charCodeAt(i);
        // `\s`: ASCII space and \t..\r here, the rest of JS white space (U+00A0, U+2028...) through the regex.
        if (c === 32 || (c >= 9 && c <= 13) || (c > 127 && WS.test(text[i]!))) i++;
        else break;
      }
      if (text.startsWith('/*', i)) {
        const end = text.indexOf('*/', i + 2);
        if (end === -1) throw at(i, 'unterminated /* comment');
        i = end + 2;
      } else if (text.startsWith('//', i)) {
        const end = text.indexOf('\n', i);
        i = end === -1 ? n : end + 1;
      } else return;
    }
  };
  const at = (offset: number, message: string) => Object.assign(new Error(message), { offset });
  const token = (): string => {
    if (text.charCodeAt(i) === 34) {
      let out = '';
      const open = i;
      i++;
      // Text between escapes is copied in runs.
      let from = i;
      for (;;) {
        const c = text.charCodeAt(i);
        if (c !== 34 && c !== 92) {
          if (i >= n) throw at(open, 'unterminated string (no closing quote before the end of the file)');
          i++;
          continue;
        }
        out += text.slice(from, i);
        if (c === 34) {
          i++;
          return out;
        }
        const e = text[i + 1];
        if (e === undefined) throw at(open, 'unterminated string (no closing quote before the end of the file)');
        if (e === 'n') out += '\n';
        else if (e === 't') out += '\t';
        else if (e === 'r') out += '\r';
        else if (e === 'U' || e === 'u') {
          const hex = /^[0-9a-fA-F]{1,4}/.exec(text.slice(i + 2, i + 6))?.[0] ?? '';
          if (!hex) throw at(i, `bad \\${e} escape`);
          out += String.fromCharCode(parseInt(hex, 16));
          i += hex.length;
        } else if (/[0-7]/.test(e)) {
          const oct = /^[0-7]{1,3}/.exec(text.slice(i + 1, i + 4))![0];
          out += String.fromCharCode(parseInt(oct, 8));
          i += oct.length - 1;
        } else out += e;
        i += 2;
        from = i;
      }
    }
    const start = i;
    while (i < n && UNQUOTED.test(text[i]!)) i++;
    if (i === start) throw at(i, `unexpected character ${JSON.stringify(text[i])}`);
    return text.slice(start, i);
  };
  try {
    for (;;) {
      skip();
      if (i >= n) break;
      const kp = pos(i);
      const key = token();
      skip();
      let value = key; // `"key";` alone means value = key (CFOldStylePList)
      let vp = kp;
      if (text[i] === '=') {
        i++;
        skip();
        vp = pos(i);
        value = token();
        skip();
      }
      if (text[i] !== ';') throw at(i, "expected ';'");
      i++;
      entries.push({ key, kind: 'string', value, line: kp.line, column: kp.column, valueLine: vp.line, valueColumn: vp.column, grammar: 'printf-apple', translatable: true });
    }
  } catch (err) {
    const p = pos((err as { offset?: number }).offset ?? i);
    problems.push({ rule: 'unparsable', message: `.strings syntax error: ${(err as Error).message}`, line: p.line, column: p.column, severity: 'error' });
  }
  return { path, format: 'apple-strings', locales: [localeCatalog(locale, entries)], problems };
}
