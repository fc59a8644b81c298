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
  const pos = lineIndex(text);
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const fail = (msg: string): never => {
    const p = pos(i);
    throw new JsonSyntaxError(msg, p.line, p.column);
  };
  const ws = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else break;
    }
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
    let out = text.slice(start, j);
    i = j;
    for (;;) {
      const c = text[i];
      if (c === undefined) return fail('unterminated string');
      if (c === '"') {
        i++;
        return out;
      }
      if (c === '\\') {
        const e = text[i + 1];
        const map: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) return fail('bad \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else if (e !== undefined && map[e] !== undefined) {
          out += map[e];
          i += 2;
        } else return fail('bad escape');
      } else {
        out += c;
        i++;
      }
    }
  };
  const value = (): JNode => {
    ws();
    const p = pos(i);
    const c = text[i];
    if (c === '{') {
      i++;
      const entries: Array<{ key: string; keyLine: number; keyColumn: number; value: JNode }> = [];
      ws();
      if (text[i] === '}') {
        i++;
        return { type: 'object', ...p, entries };
      }
      for (;;) {
        ws();
        if (text[i] !== '"') return fail('expected a string key');
        const kp = pos(i);
        const key = str();
        ws();
        if (text[i] !== ':') return fail("expected ':'");
        i++;
        entries.push({ key, keyLine: kp.line, keyColumn: kp.column, value: value() });
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return { type: 'object', ...p, entries };
        }
        return fail("expected ',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      const items: JNode[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return { type: 'array', ...p, items };
      }
      for (;;) {
        items.push(value());
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return { type: 'array', ...p, items };
        }
        return fail("expected ',' or ']'");
      }
    }
    if (c === '"') return { type: 'string', ...p, value: str() };
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 64));
    if (!m) return fail('unexpected character');
    i += m[0].length;
    if (m[0] === 'true' || m[0] === 'false') return { type: 'boolean', ...p, value: m[0] === 'true' };
    if (m[0] === 'null') return { type: 'null', ...p, value: null };
    return { type: 'number', ...p, value: Number(m[0]) };
  };
  const root = value();
  ws();
  if (i < text.length) fail('unexpected text after the JSON value');
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
