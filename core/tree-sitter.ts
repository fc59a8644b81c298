// Tree-sitter for gates that read source code: grammar loading (web-tree-sitter 0.22 with the tree-sitter-wasms
// grammars), the depth-first walk (which meets comment nodes too, unlike a lexer that drops them), string-literal
// decoding and suppression comments (core/suppression.ts syntax). Grammar node names come from each grammar's
// src/node-types.json (fwcd/tree-sitter-kotlin, tree-sitter-java, alex-pinkus/tree-sitter-swift,
// tree-sitter-typescript's tsx and tree-sitter-javascript). Loaded only by the gates' run(), never on import.
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import type ParserModule from 'web-tree-sitter';
import { parseSuppression, type Directive } from './suppression.js';

/**
 * A grammar of tree-sitter-wasms (`out/tree-sitter-<name>.wasm`), each loaded at most once per process. The names
 * listed are the ones hardcoded-strings uses; any other grammar the package ships (yaml, python, ...) loads the same.
 */
export type GrammarName = 'kotlin' | 'java' | 'swift' | 'tsx' | 'typescript' | 'javascript' | (string & {});

export type SyntaxNode = ParserModule.SyntaxNode;

const require = createRequire(import.meta.url);
// web-tree-sitter is CommonJS: `require` loads it in ~6 ms of CPU where `import` spends ~30 ms (Node scans the 74 KB
// file for its named exports first).
const Parser = require('web-tree-sitter') as typeof ParserModule;
type Parser = ParserModule;
let init: Promise<void> | undefined;
const parsers = new Map<GrammarName, Promise<Parser>>();

// Every grammar runs on V8's baseline WebAssembly compiler (Liftoff) only: never tiered up to the optimising one.
// The Swift grammar's generated lexer is one 400 KB WebAssembly function; optimising it takes V8 50 s of CPU on
// Node 20 and 22, and on Node 24 (V8 13.6) its compile zone grows past 2.5 GB and the process dies with "Fatal
// process out of memory: Zone" (exit 133) as soon as a few Swift lines turned it hot (`--wasm-tier-up-filter=20`
// reproduces it with that one function). For the other grammars tier-up costs more than it saves on a commit's files
// and about 20 % of CPU is lost on 200 large Kotlin files. The flags are process-wide, so they are set here, before
// this module (every thread's only way to a grammar) loads any. All three: `--liftoff-only` alone, set at run time,
// no longer turns tier-up off on Node 24 (its implications are applied only to flags given at start-up).
setFlagsFromString('--liftoff-only');
setFlagsFromString('--no-wasm-tier-up');
setFlagsFromString('--no-wasm-dynamic-tiering');

/**
 * A parser for `name`, loading the WASM runtime and the grammar on first use and reusing them afterwards.
 * Throws when `tree-sitter-wasms` lacks the grammar (a broken install).
 */
export function parserFor(name: GrammarName): Promise<Parser> {
  let p = parsers.get(name);
  if (!p) {
    init ??= Parser.init();
    p = init.then(async () => {
      const lang = await Parser.Language.load(require.resolve(`tree-sitter-wasms/out/tree-sitter-${name}.wasm`));
      const parser = new Parser();
      parser.setLanguage(lang);
      return parser;
    });
    parsers.set(name, p);
  }
  return p;
}

/** Parse `source` and hand the root to `fn`; the tree is freed afterwards (WASM memory is not garbage-collected). */
export async function withTree<T>(name: GrammarName, source: string, fn: (root: SyntaxNode) => T): Promise<T> {
  const parser = await parserFor(name);
  const tree = parser.parse(source);
  try {
    return fn(tree.rootNode);
  } finally {
    tree.delete();
  }
}

/** Visit every node depth-first in source order (a TreeCursor: no child arrays are allocated). */
export function walk(root: SyntaxNode, visit: (node: SyntaxNode) => void): void {
  const cursor = root.walk();
  try {
    for (;;) {
      visit(cursor.currentNode);
      if (cursor.gotoFirstChild()) continue;
      for (;;) {
        if (cursor.gotoNextSibling()) break;
        if (!cursor.gotoParent()) return;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** 1-based line and column (UTF-16 units: web-tree-sitter indexes the JS string) of a node's start. */
export function pos(node: SyntaxNode): { line: number; column: number } {
  return { line: node.startPosition.row + 1, column: node.startPosition.column + 1 };
}

/**
 * ERROR and MISSING nodes, 1-based; at most `limit` of them. With `hiding` (the characters that open a string literal
 * of the grammar, `"` for Kotlin, Swift, Java): only ERROR regions whose text holds one, the regions that could hide a
 * candidate literal. The bundled Kotlin and Swift grammars are older than the languages and recover from valid code
 * (context receivers, `if let x`, macros): a MISSING node is zero-width and a region without a quote holds no literal,
 * so reporting them told users of nothing they could act on (issue 15 item 12).
 */
export function syntaxErrors(root: SyntaxNode, limit = 20, hiding?: string): Array<{ line: number; column: number }> {
  const out: Array<{ line: number; column: number }> = [];
  if (!root.hasError) return out;
  const hides = hiding === undefined ? undefined : (text: string) => [...hiding].some((q) => text.includes(q));
  walk(root, (n) => {
    if (out.length >= limit) return;
    if (hides ? n.type === 'ERROR' && hides(n.text) : n.type === 'ERROR' || n.isMissing) out.push(pos(n));
  });
  return out;
}

/** How one grammar spells the parts of a string literal. */
export interface LiteralSpec {
  /** Child types holding literal text. */
  text: ReadonlySet<string>;
  /** Child types holding one escape sequence (decoded with `decodeEscapes`). */
  escape: ReadonlySet<string>;
  /** Child types holding an interpolation (`${x}`, `\(x)`); kept as written in the display text. */
  interpolation: ReadonlySet<string>;
  /** Decodes backslash escapes, in a text child that keeps them inline (Kotlin) or in an escape child. */
  decodeEscapes: (raw: string) => string;
  /** Key form of an interpolation (SwiftUI: `%@`); default: the source text. */
  interpolationKey?: string;
}

/** A decoded literal: `display` for messages and allow-lists, `plain` (outside interpolations) for the letter test. */
export interface DecodedLiteral {
  display: string;
  plain: string;
  key: string;
  interpolated: boolean;
}

/**
 * Decode a string-literal node from its children. Anonymous children (quotes, `$`, `${`, `\(`) are
 * delimiters; a `$` before an interpolated identifier (Kotlin `$name`) is kept in the display text.
 */
export function decodeLiteral(node: SyntaxNode, spec: LiteralSpec): DecodedLiteral {
  let display = '';
  let plain = '';
  let key = '';
  let interpolated = false;
  let opener = '';
  for (const c of node.children) {
    if (!c.isNamed) {
      // Remember an interpolation opener so the display keeps `${x}` / `\(x)` / `$x` as written.
      if (c.type === '$' || c.type === '${' || c.type === '\\(') opener = c.type;
      continue;
    }
    if (spec.text.has(c.type)) {
      const t = spec.decodeEscapes(c.text);
      display += t;
      plain += t;
      key += t;
    } else if (spec.escape.has(c.type)) {
      const t = spec.decodeEscapes(c.text);
      display += t;
      plain += t;
      key += t;
    } else if (spec.interpolation.has(c.type)) {
      interpolated = true;
      const close = opener === '${' ? '}' : opener === '\\(' ? ')' : '';
      display += `${opener}${c.text}${close}`;
      key += spec.interpolationKey ?? `${opener}${c.text}${close}`;
      opener = '';
    }
  }
  return { display, plain, key, interpolated };
}

/** C-family escapes shared by Kotlin, Java, Swift and JS: `\n \t \r \b \f \0 \" \' \\ \$ \uXXXX \u{X…} \xXX`. */
export function decodeCEscapes(raw: string): string {
  return raw.replace(/\\(u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|[\s\S])/gu, (_m, all: string, cp?: string, u4?: string, x2?: string) => {
    const hex = cp ?? u4 ?? x2;
    if (hex) {
      const n = parseInt(hex, 16);
      return n <= 0x10ffff ? String.fromCodePoint(n) : '';
    }
    switch (all) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case '0':
        return '\0';
      default:
        return all;
    }
  });
}

/** Options of `collectDirectives`. */
export interface DirectiveOptions {
  /** The gate whose suppressions are collected (`loopgates-ignore <gate>: <reason>`). */
  gate: string;
  /** Comment node types of the grammar. */
  comments: ReadonlySet<string>;
  /**
   * Container types entered when a comment's next sibling is one (Kotlin puts a block's statements in one
   * `statements` node after its leading comment): the directive then covers the container's first child only.
   */
  containers?: ReadonlySet<string>;
  /** A comment wrapped alone in this node type stands for the wrapper (JSX `{/* … *\/}` is a `jsx_expression`). */
  wrappers?: ReadonlySet<string>;
  /** Sibling types skipped when looking for the node a leading comment covers (JSX whitespace text). */
  skip?: (node: SyntaxNode) => boolean;
}

/**
 * Find every `loopgates-ignore <options.gate>` comment and the lines it covers:
 * - a trailing comment (code before it on its line) covers its own lines;
 * - a leading comment (alone on its line) covers its own lines and the whole next sibling node (a statement, a
 *   call spanning several lines, a JSX element), or only the next line when there is no next sibling.
 */
export function collectDirectives(root: SyntaxNode, source: string, options: DirectiveOptions): Directive[] {
  const out: Directive[] = [];
  walk(root, (n) => {
    if (!options.comments.has(n.type)) return;
    const parsed = parseSuppression(n.text, options.gate);
    if (!parsed) return;
    const start = n.startPosition.row + 1;
    const end = n.endPosition.row + 1;
    const ranges: Array<readonly [number, number]> = [[start, end]];
    const lineStart = source.lastIndexOf('\n', n.startIndex - 1) + 1;
    const before = source.slice(lineStart, n.startIndex).replace(/\{\s*$/u, '');
    if (before.trim() === '') {
      let anchor: SyntaxNode = n;
      if (anchor.parent && options.wrappers?.has(anchor.parent.type) && anchor.parent.namedChildCount === 1) anchor = anchor.parent;
      let next = anchor.nextNamedSibling;
      while (next && (options.comments.has(next.type) || options.skip?.(next))) next = next.nextNamedSibling;
      while (next && options.containers?.has(next.type) && next.firstNamedChild) next = next.firstNamedChild;
      if (next && next.startPosition.row + 1 <= end + 1) ranges.push([next.startPosition.row + 1, next.endPosition.row + 1]);
      else ranges.push([end + 1, end + 1]);
    }
    out.push({ ...pos(n), reason: parsed.reason, ranges });
  });
  return out;
}
