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
 * Parse `text` (a UTF-8 BOM is skipped) into a positioned tree. Linear in the input size.
 * Throws JsonSyntaxError with the position of the first error.
 */
export function parseJsonWithPositions(text: string): JNode {
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  // The line of `i` and the offset its line starts at, kept while scanning: a newline is read only as whitespace or
  // inside a string that has an escape (the escape path accepts raw characters), and both count it.
  let line = 1;
  let lineStart = 0;
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
    for (;;) {
      const c = text.charCodeAt(j);
      if (Number.isNaN(c)) return fail('unterminated string');
      if (c === 34) {
        i = j + 1;
        return text.slice(start, j);
      }
      if (c === 92) break;
      if (c < 32) {
        i = j;
        return fail('control character in string');
      }
      j++;
    }
    // Escapes: the text between them is copied in runs. Raw characters (even control ones) are taken as they are.
    let out = text.slice(start, j);
    i = j;
    let from = i;
    for (;;) {
      if (i >= n) return fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 34) {
        out += text.slice(from, i);
        i++;
        return out;
      }
      if (c === 92) {
        out += text.slice(from, i);
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
        continue;
      }
      if (c === 10) {
        line++;
        lineStart = i + 1;
      }
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
    const vColumn = i - lineStart + 1;
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
        const keyColumn = i - lineStart + 1;
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
