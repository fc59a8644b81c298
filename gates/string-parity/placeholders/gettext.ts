// gettext format strings as msgfmt -c --check-format judges them: one parser and one checker per `#, X-format` flag,
// ported from GNU gettext 0.21 gettext-tools/src/format-*.c (c, objc, python, python-brace, javascript, php, csharp,
// perl-brace, qt, kde) and the strict/relaxed choice of format.c check_msgid_msgstr_format_i and msgl-check.c
// (plural forms chosen for at least 5 of n = 0..1000 are checked strictly). Verdicts are tested against msgfmt itself
// (test/unit/string-parity-gettext-msgfmt.test.ts).

/** A format flag whose grammar this module knows (`c` for `#, c-format`). */
export type GettextFormat = 'c' | 'objc' | 'python' | 'python-brace' | 'javascript' | 'php' | 'csharp' | 'perl-brace' | 'qt' | 'kde';

const KNOWN: ReadonlySet<string> = new Set<GettextFormat>(['c', 'objc', 'python', 'python-brace', 'javascript', 'php', 'csharp', 'perl-brace', 'qt', 'kde']);

/** Every format language msgfmt 0.21 knows (message.c format_language), for telling a format flag from another flag. */
const ALL_FORMATS: ReadonlySet<string> = new Set([...KNOWN, 'java', 'java-printf', 'scheme', 'lisp', 'elisp', 'librep', 'ruby', 'sh', 'awk', 'lua', 'object-pascal', 'smalltalk', 'qt-plural', 'kde-kuit', 'boost', 'tcl', 'perl', 'gcc-internal', 'gfc-internal', 'ycp']);

/**
 * The format languages a PO entry's flags ask msgfmt to check (`X-format` and `possible-X-format`; `no-X-format` and
 * `impossible-X-format` are the programmer's order not to), split into those this module checks and those it does not.
 */
export function gettextFormatsOf(flags: readonly string[]): { checked: GettextFormat[]; unchecked: string[] } {
  const checked: GettextFormat[] = [];
  const unchecked: string[] = [];
  for (const f of flags) {
    if (!f.endsWith('-format') || f.startsWith('no-') || f.startsWith('impossible-')) continue;
    const lang = f.slice(f.startsWith('possible-') ? 9 : 0, -7);
    if (KNOWN.has(lang)) checked.push(lang as GettextFormat);
    else if (ALL_FORMATS.has(lang)) unchecked.push(lang);
  }
  return { checked, unchecked };
}

/** What one parser reads of a format string; `null` fields are not used by that format. */
interface Spec {
  /** Arguments by position (C: numbered arguments once checked to be 1..n; python: the tuple). Types as strings. */
  positional?: string[];
  /** Named arguments (python mappings, python-brace, perl-brace) -> type (`any` matches anything in relaxed checks). */
  named?: Map<string, string>;
  /** Numbered arguments (javascript, php, kde) -> type. */
  numbered?: Map<number, string>;
  /** csharp: highest argument number + 1. */
  count?: number;
  /** qt: which %0..%99 are used, and whether the string is "simple" (no `L`, no double-digit number). */
  used?: boolean[];
  simple?: boolean;
}

type Parsed = { ok: true; spec: Spec } | { ok: false; reason: string };

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isAlpha = (c: string | undefined) => c !== undefined && ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c === '_');

/** Merge repeated uses of one argument; `any` yields to the other type when `anyMerges` (python), else types must agree. */
function addTyped<K>(map: Map<K, string>, key: K, type: string, anyMerges: boolean): string | null {
  const prev = map.get(key);
  if (prev === undefined || prev === type) {
    map.set(key, type);
    return null;
  }
  if (anyMerges && (prev === 'any' || type === 'any')) {
    map.set(key, prev === 'any' ? type : prev);
    return null;
  }
  return `the string refers to argument ${typeof key === 'number' ? `number ${key}` : `'${String(key)}'`} in incompatible ways`;
}

/** format-c.c / format-c-parse.h (objc adds `%@`). */
function parseC(s: string, translated: boolean, objc: boolean): Parsed {
  const unnumbered: string[] = [];
  const numbered = new Map<number, string>();
  let n = 0;
  const arg = (num: number, type: string): string | null => {
    if (num) {
      if (unnumbered.length) return 'the string mixes numbered and unnumbered argument specifications';
      return addTyped(numbered, num, type, false);
    }
    if (numbered.size) return 'the string mixes numbered and unnumbered argument specifications';
    unnumbered.push(type);
    return null;
  };
  let i = 0;
  const number = (): number => {
    // `n$` at i: its number (i moved past `$`), else 0 (i unchanged).
    let j = i;
    let m = 0;
    while (isDigit(s[j])) m = m * 10 + (s.charCodeAt(j++) - 48);
    if (j > i && s[j] === '$') {
      i = j + 1;
      return m === 0 ? -1 : m;
    }
    return 0;
  };
  while (i < s.length) {
    if (s[i++] !== '%') continue;
    n++;
    const num = number();
    if (num === -1) return { ok: false, reason: `in the directive number ${n}, the argument number 0 is not a positive integer` };
    for (;;) {
      const c = s[i];
      if (c === ' ' || c === '+' || c === '-' || c === '#' || c === '0' || c === "'") i++;
      else if (translated && c === 'I') i++;
      else break;
    }
    for (const part of ['width', 'precision'] as const) {
      if (part === 'precision') {
        if (s[i] !== '.') break;
        i++;
      }
      if (s[i] === '*') {
        i++;
        const w = number();
        if (w === -1) return { ok: false, reason: `in the directive number ${n}, the ${part}'s argument number 0 is not a positive integer` };
        const err = arg(w, 'int');
        if (err) return { ok: false, reason: err };
      } else while (isDigit(s[i])) i++;
    }
    let type: string | null;
    if (s[i] === '<') {
      const m = /^<PRI([diouxX])(MAX|PTR|LEAST(?:8|16|32|64)|FAST(?:8|16|32|64)|8|16|32|64)>/.exec(s.slice(i));
      if (!m) return { ok: false, reason: `in the directive number ${n}, the argument size specifier is invalid` };
      type = `${'di'.includes(m[1]!) ? 'int' : 'uint'}:${m[2]}`;
      i += m[0].length;
    } else {
      let size = '';
      for (;; i++) {
        const c = s[i];
        if (c === 'h') size = size === 'short' || size === 'char' ? 'char' : 'short';
        else if (c === 'l') size = size === 'long' || size === 'longlong' ? 'longlong' : 'long';
        else if (c === 'L' || c === 'q') size = 'longlong';
        else if (c === 'j') size = 'intmax';
        else if (c === 'z' || c === 'Z') size = 'size';
        else if (c === 't') size = 'ptrdiff';
        else break;
      }
      const c = s[i];
      const wide = size === 'long' || size === 'longlong' ? ':wide' : '';
      if (c === '%' || c === 'm') type = null;
      else if (c === 'c') type = `char${wide}`;
      else if (c === 'C') type = 'char:wide';
      else if (c === 's') type = `string${wide}`;
      else if (c === 'S') type = 'string:wide';
      else if (c === 'i' || c === 'd') type = `int:${size}`;
      else if (c !== undefined && 'uoxX'.includes(c)) type = `uint:${size}`;
      else if (c !== undefined && 'eEfFgGaA'.includes(c)) type = `double:${size === 'longlong' ? 'long' : ''}`;
      else if (c === '@' && objc) type = 'object';
      else if (c === 'p') type = 'pointer';
      else if (c === 'n') type = `count:${size}`;
      else return { ok: false, reason: c === undefined ? 'the string ends in the middle of a directive' : `in the directive number ${n}, the character '${c}' is not a valid conversion specifier` };
      i++;
    }
    if (type !== null) {
      const err = arg(num, type);
      if (err) return { ok: false, reason: err };
    }
  }
  if (numbered.size) {
    const keys = [...numbered.keys()].sort((a, b) => a - b);
    for (let k = 0; k < keys.length; k++) if (keys[k] !== k + 1) return { ok: false, reason: `the string refers to argument number ${keys[k]} but ignores argument number ${k + 1}` };
    return { ok: true, spec: { positional: keys.map((k) => numbered.get(k)!) } };
  }
  return { ok: true, spec: { positional: unnumbered } };
}

/** format-python.c: `%(name)s` mappings or a `%s` tuple, never both. */
function parsePython(s: string): Parsed {
  const named = new Map<string, string>();
  const unnamed: string[] = [];
  let n = 0;
  let i = 0;
  const MIX = 'the string mixes named and unnamed argument specifications';
  while (i < s.length) {
    if (s[i++] !== '%') continue;
    n++;
    let name: string | undefined;
    if (s[i] === '(') {
      const start = ++i;
      let depth = 0;
      for (; i < s.length; i++) {
        if (s[i] === '(') depth++;
        else if (s[i] === ')') {
          if (depth === 0) break;
          depth--;
        }
      }
      if (i >= s.length) return { ok: false, reason: 'the string ends in the middle of a directive' };
      name = s.slice(start, i++);
    }
    while (s[i] === '-' || s[i] === '+' || s[i] === ' ' || s[i] === '#' || s[i] === '0') i++;
    let zeroPrecision = false;
    if (s[i] === '*') {
      i++;
      if (named.size) return { ok: false, reason: MIX };
      unnamed.push('int');
    } else while (isDigit(s[i])) i++;
    if (s[i] === '.') {
      i++;
      if (s[i] === '*') {
        i++;
        if (named.size) return { ok: false, reason: MIX };
        unnamed.push('int');
      } else if (isDigit(s[i])) {
        zeroPrecision = true;
        while (isDigit(s[i])) {
          if (s[i] !== '0') zeroPrecision = false;
          i++;
        }
      }
    }
    if (s[i] === 'h' || s[i] === 'l' || s[i] === 'L') i++;
    const c = s[i];
    let type: string | null;
    if (c === '%') type = null;
    else if (c === 'c') type = 'char';
    else if (c === 's' || c === 'r') type = zeroPrecision ? 'any' : 'string';
    else if (c !== undefined && 'iduoxX'.includes(c)) type = 'int';
    else if (c !== undefined && 'eEfgG'.includes(c)) type = 'float';
    else return { ok: false, reason: c === undefined ? 'the string ends in the middle of a directive' : `in the directive number ${n}, the character '${c}' is not a valid conversion specifier` };
    if (name !== undefined) {
      if (unnamed.length) return { ok: false, reason: MIX };
      // A named `%%` is a named argument of type none in gettext (kept, as msgfmt keeps it).
      const err = addTyped(named, name, type ?? 'none', true);
      if (err) return { ok: false, reason: err };
    } else if (type !== null) {
      if (named.size) return { ok: false, reason: MIX };
      unnamed.push(type);
    }
    i++;
  }
  return { ok: true, spec: { named, positional: unnamed } };
}

/** format-python-brace.c: `{name}`, `{0}`, `{a.b[0]:>10}`, `{{` literal; one level of nesting in the format spec. */
function parsePythonBrace(s: string): Parsed {
  const named = new Map<string, string>();
  let n = 0;
  let i = 0;
  const field = (): boolean => {
    if (isAlpha(s[i])) {
      do i++;
      while (isAlpha(s[i]) || isDigit(s[i]));
      return true;
    }
    if (isDigit(s[i])) {
      do i++;
      while (isDigit(s[i]));
      return true;
    }
    return false;
  };
  const directive = (top: boolean): string | null => {
    // s[i] === '{'
    i++;
    if (s[i] === '{') {
      i++;
      return null;
    }
    const start = i;
    if (!field()) return `in the directive number ${n + 1}, '${s[i] ?? ''}' cannot start a field name`;
    for (;;) {
      if (s[i] === '.') {
        i++;
        if (!isAlpha(s[i])) return `in the directive number ${n + 1}, '${s[i] ?? ''}' cannot start a getattr argument`;
        field();
      } else if (s[i] === '[') {
        i++;
        if (!field()) return `in the directive number ${n + 1}, '${s[i] ?? ''}' cannot start a getitem argument`;
        if (s[i++] !== ']') return 'the string ends in the middle of a directive';
      } else break;
    }
    if (s[i] === ':') {
      if (!top) return `in the directive number ${n + 1}, no more nesting is allowed in a format specifier`;
      i++;
      if (s[i] === '{') {
        const err = directive(false);
        if (err) return err;
        if (s[i] !== '}') return 'the string ends in the middle of a directive';
      } else {
        const c1 = s[i];
        const c2 = s[i + 1];
        if (c2 === '<' || c2 === '>' || c2 === '=' || c2 === '^') i += 2;
        else if (c1 === '<' || c1 === '>' || c1 === '=' || c1 === '^') i++;
        if (s[i] === '+' || s[i] === '-' || s[i] === ' ') i++;
        if (s[i] === '#') i++;
        if (s[i] === '0') i++;
        while (isDigit(s[i])) i++;
        if (s[i] === '.') {
          i++;
          while (isDigit(s[i])) i++;
        }
        if (s[i] !== undefined && 'bcdoxXneEfFgG%'.includes(s[i]!)) i++;
        if (s[i] !== '}') return 'the string ends in the middle of a directive';
      }
    }
    if (s[i] !== '}') return `in the directive number ${n + 1}, there is an unterminated format directive`;
    if (top) {
      n++;
      named.set(s.slice(start, i), 'any');
    }
    i++;
    return null;
  };
  while (i < s.length) {
    if (s[i] === '{') {
      const err = directive(true);
      if (err) return { ok: false, reason: err };
    } else i++;
  }
  return { ok: true, spec: { named } };
}

/** format-perl-brace.c: `{name}` where name is an identifier; anything else is text. */
function parsePerlBrace(s: string): Parsed {
  const named = new Map<string, string>();
  for (const m of s.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) named.set(m[1]!, 'any');
  return { ok: true, spec: { named } };
}

/** format-javascript.c: `%[n$][flags][width][.prec]conv`, conv in c s b d o x X f j (j: any). */
function parseJavascript(s: string): Parsed {
  const numbered = new Map<number, string>();
  let unnumbered = 0;
  let n = 0;
  let i = 0;
  while (i < s.length) {
    if (s[i++] !== '%') continue;
    n++;
    let num = 0;
    const m = /^(\d+)\$/.exec(s.slice(i, i + 12));
    if (m) {
      num = Number(m[1]);
      if (num === 0) return { ok: false, reason: `in the directive number ${n}, the argument number 0 is not a positive integer` };
      i += m[0].length;
    }
    while (s[i] === '-' || s[i] === '+' || s[i] === ' ' || s[i] === '0' || s[i] === 'I') i++;
    while (isDigit(s[i])) i++;
    if (s[i] === '.') {
      i++;
      while (isDigit(s[i])) i++;
    }
    const c = s[i];
    let type: string | null;
    if (c === '%') type = null;
    else if (c === 'c') type = 'char';
    else if (c === 's') type = 'string';
    else if (c !== undefined && 'bdoxX'.includes(c)) type = 'int';
    else if (c === 'f') type = 'float';
    else if (c === 'j') type = 'any';
    else return { ok: false, reason: c === undefined ? 'the string ends in the middle of a directive' : `in the directive number ${n}, the character '${c}' is not a valid conversion specifier` };
    if (type !== null) {
      if (num) {
        if (unnumbered) return { ok: false, reason: 'the string mixes numbered and unnumbered argument specifications' };
        const err = addTyped(numbered, num, type, false);
        if (err) return { ok: false, reason: err };
      } else {
        if (numbered.size > unnumbered) return { ok: false, reason: 'the string mixes numbered and unnumbered argument specifications' };
        numbered.set(++unnumbered, type);
      }
    }
    i++;
  }
  return { ok: true, spec: { numbered } };
}

/** format-php.c: `%[n$][0- 'c][width][.prec][l]conv`; an unnumbered directive takes the next number. */
function parsePhp(s: string): Parsed {
  const numbered = new Map<number, string>();
  let unnumbered = 0;
  let n = 0;
  let i = 0;
  while (i < s.length) {
    if (s[i++] !== '%') continue;
    n++;
    if (s[i] === '%') {
      i++;
      continue;
    }
    let num = ++unnumbered;
    const m = /^(\d+)\$/.exec(s.slice(i, i + 12));
    if (m) {
      if (Number(m[1]) === 0) return { ok: false, reason: `in the directive number ${n}, the argument number 0 is not a positive integer` };
      num = Number(m[1]);
      unnumbered--;
      i += m[0].length;
    }
    for (;;) {
      if (s[i] === '0' || s[i] === '-' || s[i] === ' ') i++;
      else if (s[i] === "'") {
        i++;
        if (i >= s.length) return { ok: false, reason: 'the string ends in the middle of a directive' };
        i++;
      } else break;
    }
    while (isDigit(s[i])) i++;
    if (s[i] === '.') {
      i++;
      if (isDigit(s[i])) while (isDigit(s[i])) i++;
      else i--;
    }
    if (s[i] === 'l') i++;
    const c = s[i];
    let type: string;
    if (c !== undefined && 'bduoxX'.includes(c)) type = 'int';
    else if (c === 'e' || c === 'f') type = 'float';
    else if (c === 'c') type = 'char';
    else if (c === 's') type = 'string';
    else return { ok: false, reason: c === undefined ? 'the string ends in the middle of a directive' : `in the directive number ${n}, the character '${c}' is not a valid conversion specifier` };
    const err = addTyped(numbered, num, type, false);
    if (err) return { ok: false, reason: err };
    i++;
  }
  return { ok: true, spec: { numbered } };
}

/** format-csharp.c: `{n[,width][:format]}`, `{{` and `}}` literal; a lone brace is invalid. */
function parseCsharp(s: string): Parsed {
  let count = 0;
  let n = 0;
  let i = 0;
  while (i < s.length) {
    const c = s[i++];
    if (c === '{') {
      if (s[i] === '{') {
        i++;
        continue;
      }
      n++;
      if (!isDigit(s[i])) return { ok: false, reason: `in the directive number ${n}, '{' is not followed by an argument number` };
      let num = 0;
      while (isDigit(s[i])) num = num * 10 + (s.charCodeAt(i++) - 48);
      if (s[i] === ',') {
        i++;
        if (s[i] === '-') i++;
        if (!isDigit(s[i])) return { ok: false, reason: `in the directive number ${n}, ',' is not followed by a number` };
        while (isDigit(s[i])) i++;
      }
      if (s[i] === ':') while (i < s.length && s[i] !== '}') i++;
      if (i >= s.length) return { ok: false, reason: "the string ends in the middle of a directive: found '{' without matching '}'" };
      if (s[i] !== '}') return { ok: false, reason: `the directive number ${n} ends with an invalid character '${s[i]}' instead of '}'` };
      i++;
      if (count <= num) count = num + 1;
    } else if (c === '}') {
      if (s[i] === '}') i++;
      else return { ok: false, reason: n === 0 ? "the string starts in the middle of a directive: found '}' without matching '{'" : `the string contains a lone '}' after directive number ${n}` };
    }
  }
  return { ok: true, spec: { count } };
}

/** format-qt.c: `%0`..`%99`, `%L1`; a double digit or `L` makes the string not "simple". */
function parseQt(s: string): Parsed {
  const used: boolean[] = [];
  let simple = true;
  let i = 0;
  while (i < s.length) {
    if (s[i++] !== '%') continue;
    let locale = false;
    if (s[i] === 'L') {
      locale = true;
      i++;
    }
    if (!isDigit(s[i])) continue;
    if (locale) simple = false;
    let num = s.charCodeAt(i) - 48;
    if (isDigit(s[i + 1])) {
      num = num * 10 + (s.charCodeAt(i + 1) - 48);
      simple = false;
      i++;
    }
    while (used.length <= num) used.push(false);
    used[num] = true;
    i++;
  }
  return { ok: true, spec: { used, simple } };
}

/** format-kde.c: `%1`..`%n`; the numbers used must be 1..n, or 1..n without one. */
function parseKde(s: string): Parsed {
  const numbered = new Map<number, string>();
  let i = 0;
  while (i < s.length) {
    if (s[i++] !== '%') continue;
    if (!(s[i]! > '0' && s[i]! <= '9')) continue;
    let num = s.charCodeAt(i) - 48;
    while (isDigit(s[i + 1])) num = num * 10 + (s.charCodeAt(++i) - 48);
    numbered.set(num, 'any');
    i++;
  }
  const keys = [...numbered.keys()].sort((a, b) => a - b);
  for (let k = 0; k < keys.length; k++) {
    if (keys[k]! > k + 1) {
      const firstGap = k + 1;
      for (; k < keys.length; k++) if (keys[k]! > k + 2) return { ok: false, reason: `the string refers to argument number ${keys[k]} but ignores the arguments ${firstGap} and ${k + 2}` };
      break;
    }
  }
  return { ok: true, spec: { numbered } };
}

/** Parse `text` as a format string of `format` (`translated`: it is a msgstr, where C also accepts the `I` flag). */
export function parseGettextFormat(format: GettextFormat, text: string, translated: boolean): Parsed {
  switch (format) {
    case 'c':
    case 'objc':
      return parseC(text, translated, format === 'objc');
    case 'python':
      return parsePython(text);
    case 'python-brace':
      return parsePythonBrace(text);
    case 'perl-brace':
      return parsePerlBrace(text);
    case 'javascript':
      return parseJavascript(text);
    case 'php':
      return parsePhp(text);
    case 'csharp':
      return parseCsharp(text);
    case 'qt':
      return parseQt(text);
    case 'kde':
      return parseKde(text);
  }
}

const sortedKeys = <K>(m: Map<K, string>) => [...m.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * Compare a msgstr's spec with its msgid's, as `format`'s format_check does. `strict` (gettext's `equality`): the
 * msgstr must use every argument; relaxed (a plural form chosen for few counts) it may leave some out. Returns the
 * first problem, in gettext's words, or null.
 */
function check(format: GettextFormat, id: Spec, str: Spec, strict: boolean): string | null {
  switch (format) {
    case 'c':
    case 'objc': {
      const a = id.positional!;
      const b = str.positional!;
      if (strict ? a.length !== b.length : a.length < b.length) return `the number of format specifications differs: msgid has ${a.length}, msgstr ${b.length}`;
      for (let k = 0; k < b.length; k++) if (a[k] !== b[k]) return `the format specifications for argument ${k + 1} are not the same`;
      return null;
    }
    case 'python': {
      const an = id.named!;
      const bn = str.named!;
      if (an.size && str.positional!.length) return 'the msgid expects a mapping (%(name)s), the msgstr a tuple (%s)';
      if (id.positional!.length && bn.size) return 'the msgid expects a tuple (%s), the msgstr a mapping (%(name)s)';
      if (an.size + bn.size) {
        for (const k of sortedKeys(bn)) if (!an.has(k)) return `%(${k}) is not in the msgid`;
        if (strict) for (const k of sortedKeys(an)) if (!bn.has(k)) return `%(${k}) of the msgid is missing`;
        for (const k of sortedKeys(bn)) {
          const x = an.get(k)!;
          const y = bn.get(k)!;
          if (!(x === y || (!strict && (x === 'any' || y === 'any')))) return `the format specifications for argument '${k}' are not the same`;
        }
      }
      const a = id.positional!;
      const b = str.positional!;
      if (a.length + b.length) {
        if (a.length !== b.length) return `the number of format specifications differs: msgid has ${a.length}, msgstr ${b.length}`;
        for (let k = 0; k < b.length; k++) if (!(a[k] === b[k] || (!strict && (a[k] === 'any' || b[k] === 'any')))) return `the format specifications for argument ${k + 1} are not the same`;
      }
      return null;
    }
    case 'python-brace':
    case 'perl-brace': {
      if (!strict) return null;
      const an = id.named!;
      const bn = str.named!;
      for (const k of sortedKeys(an)) if (!bn.has(k)) return `{${k}} of the msgid is missing`;
      // python-brace: strictly the same names; perl-brace: other names expand to themselves at run time.
      if (format === 'python-brace') for (const k of sortedKeys(bn)) if (!an.has(k)) return `{${k}} is not in the msgid`;
      return null;
    }
    case 'javascript':
    case 'php':
    case 'kde': {
      const an = id.numbered!;
      const bn = str.numbered!;
      const mark = format === 'javascript' ? '%' : format === 'php' ? '%' : '%';
      for (const k of sortedKeys(bn)) if (!an.has(k)) return `argument ${mark}${k} is not in the msgid`;
      let missing = 0;
      for (const k of sortedKeys(an)) {
        if (bn.has(k)) continue;
        if (strict) return `argument ${mark}${k} of the msgid is missing`;
        if (format === 'kde') {
          if (missing) return `arguments ${mark}${missing} and ${mark}${k} of the msgid are missing: only one may be left out`;
          missing = k;
        }
      }
      for (const k of sortedKeys(bn)) {
        const x = an.get(k)!;
        const y = bn.get(k)!;
        if (!(x === y || (format === 'javascript' && !strict && (x === 'any' || y === 'any')))) return `the format specifications for argument ${k} are not the same`;
      }
      return null;
    }
    case 'csharp':
      if (strict ? id.count !== str.count : id.count! < str.count!) return `the number of arguments differs: msgid reads ${id.count}, msgstr ${str.count}`;
      return null;
    case 'qt': {
      if (id.simple && !str.simple) return "the msgid is a simple format string, the msgstr is not: it holds an 'L' flag or a two-digit argument number";
      const a = id.used!;
      const b = str.used!;
      for (let k = 0; k < a.length || k < b.length; k++) {
        const x = a[k] === true;
        const y = b[k] === true;
        if (x !== y) return x ? `%${k} of the msgid is missing` : `%${k} is not in the msgid`;
      }
      return null;
    }
  }
}

/** One problem of one msgstr: `invalid` (not a valid format string while the msgid is) or `mismatch`. */
export interface GettextFormatProblem {
  format: GettextFormat;
  kind: 'invalid' | 'mismatch';
  /** 0-based msgstr index (0 for a message without plural). */
  index: number;
  reason: string;
}

/**
 * Judge one translated message as msgfmt -c --check-format does: for each format, the msgid (or msgid_plural) is
 * parsed (an invalid msgid is not checked), then every msgstr; `often` (from pluralDistribution) says which msgstr[j]
 * must read every argument. Returns one problem per failing (format, msgstr).
 */
export function checkGettextMessage(formats: readonly GettextFormat[], msgid: string, msgidPlural: string | undefined, msgstr: readonly string[], often: readonly boolean[] | null): GettextFormatProblem[] {
  const out: GettextFormatProblem[] = [];
  const plural = msgidPlural !== undefined;
  for (const format of formats) {
    const id = parseGettextFormat(format, plural ? msgidPlural : msgid, false);
    if (!id.ok) continue;
    msgstr.forEach((text, j) => {
      const str = parseGettextFormat(format, text, true);
      if (!str.ok) {
        out.push({ format, kind: 'invalid', index: j, reason: str.reason });
        return;
      }
      const strict = !plural || msgstr.length < 2 || (often !== null && often[j] === true);
      const reason = check(format, id.spec, str.spec, strict);
      if (reason) out.push({ format, kind: 'mismatch', index: j, reason });
    });
  }
  return out;
}

/**
 * Which plural forms a `Plural-Forms` header's formula picks for at least 5 of n = 0..1000 (msgl-check.c
 * check_plural_eval, OFTEN = 5): `often[j]`. Without a header, gettext's default `n != 1` (form 1 only). null when the
 * expression cannot be read (msgfmt then reports the header; no form is judged strictly by distribution).
 */
export function pluralDistribution(header: string | undefined): boolean[] | null {
  if (header === undefined) return [false, true];
  const np = /nplurals\s*=\s*(\d+)/.exec(header);
  const ex = /plural\s*=\s*([^;\n]*)/.exec(header);
  if (!np || !ex) return [false, true];
  const nplurals = Number(np[1]);
  if (nplurals > 100) return null;
  const fn = compilePlural(ex[1]!);
  if (!fn) return null;
  const hits = new Array<number>(nplurals).fill(0);
  for (let n = 0; n <= 1000; n++) {
    const v = fn(n);
    if (v === null || v < 0 || v >= nplurals) return null;
    hits[v]!++;
  }
  return hits.map((h) => h >= 5);
}

/**
 * A gettext plural expression (C syntax over `n`: ?:, ||, &&, ==, !=, <, <=, >, >=, +, -, *, /, %, !, parentheses,
 * decimal numbers; gettext-runtime/intl/plural.y) as a function, or null when it does not parse. Unsigned arithmetic;
 * a division by zero yields null, as msgfmt's SIGFPE handler refuses the header.
 */
export function compilePlural(src: string): ((n: number) => number | null) | null {
  const toks = src.match(/\d+|n|\|\||&&|==|!=|<=|>=|[-+*/%<>!?:()]/g);
  if (!toks || toks.join('') !== src.replace(/\s+/g, '')) return null;
  let p = 0;
  type Node = (n: number) => number;
  const fail = (): never => {
    throw new Error('plural');
  };
  const DIV0 = Symbol('div0');
  const primary = (): Node => {
    const t = toks[p++];
    if (t === undefined) return fail();
    if (t === 'n') return (n) => n;
    if (/^\d+$/.test(t)) {
      const v = Number(t);
      return () => v;
    }
    if (t === '(') {
      const e = ternary();
      if (toks[p++] !== ')') fail();
      return e;
    }
    if (t === '!') {
      const e = primary();
      return (n) => (e(n) === 0 ? 1 : 0);
    }
    return fail();
  };
  const binary = (ops: string[], next: () => Node, apply: (op: string, a: number, b: number) => number): (() => Node) => () => {
    let left = next();
    while (toks[p] !== undefined && ops.includes(toks[p]!)) {
      const op = toks[p++]!;
      const l = left;
      const r = next();
      left = (n) => apply(op, l(n), r(n));
    }
    return left;
  };
  const mul = binary(['*', '/', '%'], primary, (op, a, b) => {
    if (op === '*') return (a * b) >>> 0;
    if (b === 0) throw DIV0;
    return op === '/' ? Math.floor(a / b) : a % b;
  });
  const add = binary(['+', '-'], mul, (op, a, b) => (op === '+' ? a + b : a - b) >>> 0);
  const rel = binary(['<', '<=', '>', '>='], add, (op, a, b) => (op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b) ? 1 : 0);
  const eq = binary(['==', '!='], rel, (op, a, b) => ((op === '==') === (a === b) ? 1 : 0));
  const and = binary(['&&'], eq, (_, a, b) => (a && b ? 1 : 0));
  const or = binary(['||'], and, (_, a, b) => (a || b ? 1 : 0));
  const ternary = (): Node => {
    const c = or();
    if (toks[p] !== '?') return c;
    p++;
    const a = ternary();
    if (toks[p++] !== ':') fail();
    const b = ternary();
    return (n) => (c(n) ? a(n) : b(n));
  };
  try {
    const e = ternary();
    if (p !== toks.length) return null;
    return (n) => {
      try {
        return e(n);
      } catch (err) {
        if (err === DIV0) return null;
        throw err;
      }
    };
  } catch {
    return null;
  }
}
