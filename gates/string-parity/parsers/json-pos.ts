// A JSON reader (RFC 8259) that keeps the 1-based line and column of every key and value, which JSON.parse drops.
// No kept parser gives positions, and catalog findings must point at the offending entry's line.
import { lineIndex } from '../model.js';

/** A JSON value with its position (1-based line/column of its first character). */
export type JNode =
  | { type: 'object'; line: number; column: number; entries: Array<{ key: string; keyLine: number; keyColumn: number; value: JNode }> }
  | { type: 'array'; line: number; column: number; items: JNode[] }
  | { type: 'string'; line: number; column: number; value: string }
  | { type: 'number' | 'boolean' | 'null'; line: number; column: number; value: number | boolean | null };

/** Thrown on malformed JSON; `line`/`column` are 1-based. */
export class JsonSyntaxError extends Error {
  constructor(message: string, readonly line: number, readonly column: number) {
    super(message);
  }
}

/**
 * Parse a JSON document into a positioned tree: `input` is its text (a leading U+FEFF is skipped) or its UTF-8 bytes
 * (the same tree as the text `bytes.toString('utf8')` with one leading U+FEFF dropped, as catalogs.ts decodes files,
 * gives: same values, and columns in UTF-16 code units of that text). Linear in the input size.
 * Throws JsonSyntaxError with the position (1-based line and column of that text) of the first error.
 *
 * Bytes are scanned as Latin-1 (one byte, one character: decoding them costs a copy where UTF-8 decoding of a
 * translated catalog cost ~4x as much), since the JSON syntax is ASCII; only strings that hold other bytes are
 * decoded as UTF-8. A malformed document is parsed again from its decoded text, so errors read exactly as before.
 */
export function parseJsonWithPositions(input: string | Buffer): JNode {
  if (typeof input === 'string') return parseText(input, null, 0);
  const skip = input.length >= 3 && input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf ? 3 : 0;
  try {
    return parseText(input.toString('latin1', skip), input, skip);
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw err;
    const text = input.toString('utf8');
    return parseText(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, null, 0);
  }
}

/**
 * The parser over `text`: the document itself (`bytes` null), or its `bytes` from offset `skip` read as Latin-1,
 * whose ASCII characters are the document's. Strings holding other bytes are then decoded from `bytes`; each starts
 * and ends at an ASCII character (a quote or a backslash), where a UTF-8 decoder is between sequences, so it decodes
 * as it reads in the whole decoded document.
 */
function parseText(text: string, bytes: Buffer | null, skip: number): JNode {
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  // The line of `i` and the offset its line starts at, kept while scanning: a newline is read only as whitespace or
  // inside a string that has an escape (the escape path accepts raw characters), and both count it.
  let line = 1;
  let lineStart = 0;
  // Reading bytes: how many more characters `text` has than the decoded document between `lineStart` and `i` (UTF-8
  // sequences decoded so far on this line), so that columns count UTF-16 code units of the decoded document.
  let adj = 0;
  /** The piece `a`..`b` of a string; `high`: it holds a character >= 0x80. `b` is on the line of `lineStart`. */
  const piece = (a: number, b: number, high: boolean): string => {
    if (bytes === null || !high) return text.slice(a, b);
    const s = bytes.toString('utf8', a + skip, b + skip);
    // A raw newline inside the piece (the escape path takes one) started this line within it.
    if (lineStart <= a) adj += b - a - s.length;
    else adj += b - lineStart - bytes.toString('utf8', lineStart + skip, b + skip).length;
    return s;
  };
  const fail = (msg: string): never => {
    const p = lineIndex(text)(i);
    throw new JsonSyntaxError(msg, p.line, p.column);
  };
  const ws = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 13 || c === 9) i++;
      else if (c === 10) {
        i++;
        line++;
        lineStart = i;
        adj = 0;
      } else break;
    }
  };
  const hex4 = (at: number): number => {
    let v = 0;
    for (let k = at; k < at + 4; k++) {
      const h = text.charCodeAt(k);
      const d = h >= 48 && h <= 57 ? h - 48 : h >= 97 && h <= 102 ? h - 87 : h >= 65 && h <= 70 ? h - 55 : -1;
      if (d < 0) return -1;
      v = v * 16 + d;
    }
    return v;
  };
  const str = (): string => {
    // fast path: no escapes
    const start = ++i;
    let j = start;
    // Every character of the run OR-ed: >= 0x80 when one is.
    let high = 0;
    for (;;) {
      const c = text.charCodeAt(j);
      if (Number.isNaN(c)) return fail('unterminated string');
      if (c === 34) {
        i = j + 1;
        return piece(start, j, high >= 128);
      }
      if (c === 92) break;
      if (c < 32) {
        i = j;
        return fail('control character in string');
      }
      high |= c;
      j++;
    }
    // Escapes: the text between them is copied in runs. Raw characters (even control ones) are taken as they are.
    let out = piece(start, j, high >= 128);
    i = j;
    let from = i;
    high = 0;
    for (;;) {
      if (i >= n) return fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 34) {
        out += piece(from, i, high >= 128);
        i++;
        return out;
      }
      if (c === 92) {
        out += piece(from, i, high >= 128);
        const e = text.charCodeAt(i + 1);
        if (e === 117) {
          const v = hex4(i + 2);
          if (v < 0) return fail('bad \\u escape');
          out += String.fromCharCode(v);
          i += 6;
        } else {
          const ch = e === 34 ? '"' : e === 92 ? '\\' : e === 47 ? '/' : e === 98 ? '\b' : e === 102 ? '\f' : e === 110 ? '\n' : e === 114 ? '\r' : e === 116 ? '\t' : undefined;
          if (ch === undefined) return fail('bad escape');
          out += ch;
          i += 2;
        }
        from = i;
        high = 0;
        continue;
      }
      if (c === 10) {
        line++;
        lineStart = i + 1;
        adj = 0;
      }
      high |= c;
      i++;
    }
  };
  const isDigit = (k: number, end: number) => {
    if (k >= end) return false;
    const d = text.charCodeAt(k);
    return d >= 48 && d <= 57;
  };
  const value = (): JNode => {
    ws();
    const vLine = line;
    const vColumn = i - lineStart + 1 - adj;
    const c = text.charCodeAt(i);
    if (c === 123) {
      i++;
      const entries: Array<{ key: string; keyLine: number; keyColumn: number; value: JNode }> = [];
      ws();
      if (text.charCodeAt(i) === 125) {
        i++;
        return { type: 'object', line: vLine, column: vColumn, entries };
      }
      for (;;) {
        ws();
        if (text.charCodeAt(i) !== 34) return fail('expected a string key');
        const keyLine = line;
        const keyColumn = i - lineStart + 1 - adj;
        const key = str();
        ws();
        if (text.charCodeAt(i) !== 58) return fail("expected ':'");
        i++;
        entries.push({ key, keyLine, keyColumn, value: value() });
        ws();
        const d = text.charCodeAt(i);
        if (d === 44) {
          i++;
          continue;
        }
        if (d === 125) {
          i++;
          return { type: 'object', line: vLine, column: vColumn, entries };
        }
        return fail("expected ',' or '}'");
      }
    }
    if (c === 91) {
      i++;
      const items: JNode[] = [];
      ws();
      if (text.charCodeAt(i) === 93) {
        i++;
        return { type: 'array', line: vLine, column: vColumn, items };
      }
      for (;;) {
        items.push(value());
        ws();
        const d = text.charCodeAt(i);
        if (d === 44) {
          i++;
          continue;
        }
        if (d === 93) {
          i++;
          return { type: 'array', line: vLine, column: vColumn, items };
        }
        return fail("expected ',' or ']'");
      }
    }
    if (c === 34) {
      const v = str();
      return { type: 'string', line: vLine, column: vColumn, value: v };
    }
    if (text.startsWith('true', i)) {
      i += 4;
      return { type: 'boolean', line: vLine, column: vColumn, value: true };
    }
    if (text.startsWith('false', i)) {
      i += 5;
      return { type: 'boolean', line: vLine, column: vColumn, value: false };
    }
    if (text.startsWith('null', i)) {
      i += 4;
      return { type: 'null', line: vLine, column: vColumn, value: null };
    }
    // -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? within the next 64 characters (a longer number ends there and the
    // character after it is then unexpected).
    const end = Math.min(n, i + 64);
    let j = i;
    if (j < end && text.charCodeAt(j) === 45) j++;
    if (j < end && text.charCodeAt(j) === 48) j++;
    else if (isDigit(j, end) && text.charCodeAt(j) !== 48) {
      j++;
      while (isDigit(j, end)) j++;
    } else return fail('unexpected character');
    if (j < end && text.charCodeAt(j) === 46 && isDigit(j + 1, end)) {
      j += 2;
      while (isDigit(j, end)) j++;
    }
    if (j < end && (text.charCodeAt(j) === 101 || text.charCodeAt(j) === 69)) {
      let k = j + 1;
      if (k < end && (text.charCodeAt(k) === 43 || text.charCodeAt(k) === 45)) k++;
      if (isDigit(k, end)) {
        k++;
        while (isDigit(k, end)) k++;
        j = k;
      }
    }
    const num = Number(text.slice(i, j));
    i = j;
    return { type: 'number', line: vLine, column: vColumn, value: num };
  };
  const root = value();
  ws();
  if (i < n) fail('unexpected text after the JSON value');
  return root;
}

/**
 * Names written twice in one object, anywhere in `root` (RFC 8259 says names SHOULD be unique; JSON.parse keeps the
 * last, so the earlier value is silently lost): each repeat's dotted path (object names joined by `.`, as catalogs
 * flatten them), its position and the line of the first. In document order.
 */
export function duplicateMembers(root: JNode): Array<{ key: string; line: number; column: number; first: number }> {
  const out: Array<{ key: string; line: number; column: number; first: number }> = [];
  const walk = (node: JNode, prefix: string) => {
    if (node.type === 'array') for (const x of node.items) walk(x, prefix);
    if (node.type !== 'object') return;
    const seen = new Map<string, number>();
    for (const e of node.entries) {
      const key = prefix ? `${prefix}.${e.key}` : e.key;
      const first = seen.get(e.key);
      if (first !== undefined) out.push({ key, line: e.keyLine, column: e.keyColumn, first });
      else seen.set(e.key, e.keyLine);
      walk(e.value, key);
    }
  };
  walk(root, '');
  return out;
}

/** Duplicate names of `root` as `duplicate-key` parse problems (see duplicateMembers). */
export function duplicateKeyProblems(root: JNode): Array<{ rule: 'duplicate-key'; key: string; message: string; line: number; column: number; severity: 'warning' }> {
  return duplicateMembers(root).map((d) => ({ rule: 'duplicate-key', key: d.key, message: `duplicate key (first at line ${d.first}); JSON.parse keeps only the last`, line: d.line, column: d.column, severity: 'warning' }));
}

/** The member `key` of an object node, or undefined. */
export function member(node: JNode | undefined, key: string): JNode | undefined {
  if (!node || node.type !== 'object') return undefined;
  let found: JNode | undefined;
  for (const e of node.entries) if (e.key === key) found = e.value;
  return found;
}

/** The string value of a node, or undefined. */
export function stringOf(node: JNode | undefined): string | undefined {
  return node?.type === 'string' ? node.value : undefined;
}
