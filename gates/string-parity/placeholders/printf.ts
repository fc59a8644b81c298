// printf format specifiers as Android (java.util.Formatter, docs.oracle.com/javase/8/docs/api/java/util/Formatter.html)
// and Apple (String Format Specifiers, developer.apple.com/library/archive/documentation/Cocoa/Conceptual/Strings/
// Articles/formatSpecifiers.html; IEEE printf) read them: `%[argnum$][flags][width][.precision][length]conversion`,
// plus Apple's `%#@variable@` plural references.

/** One specifier found in a text. `offset` is the 0-based index of its `%` in the text. */
export interface PrintfSpec {
  /** 1-based argument it consumes (explicit `n$`, or its rank among unnumbered specifiers). */
  arg: number;
  /** Type class the argument is read as: `string`, `object`, `int`, `int64`, `float`, `char`, `bool`, `pointer`, `date`, `hash`, `cstring`, `variable`. */
  type: string;
  text: string;
  offset: number;
}

/** An invalid specifier (a `%` that starts no valid conversion: a trailing `%`, `% p`, `%y`). */
export interface PrintfInvalid {
  text: string;
  offset: number;
  reason: string;
}

export interface PrintfResult {
  specs: PrintfSpec[];
  invalid: PrintfInvalid[];
  /** Whether the text holds `%%` (a format string's escaped percent). */
  hasEscapedPercent: boolean;
}

const JAVA = /%(?:(\d+)\$|(<))?([-#+ 0,(]*)(\d+)?(?:\.(\d+))?([bBhHsScCdoxXeEfgGaA%n]|[tT][HIklMSLNpzZsQBbhAaCYyjmdeRTrDFc])/y;
// `%#@name@` (a .stringsdict / .xcstrings variable) is tried before the flags, which would otherwise eat the `#`.
const APPLE = /%(?:(\d+)\$)?(?:(#@[^@\s]*@)|([-#+ 0']*)(\d+|\*)?(?:\.(\d+|\*))?(hh|h|ll|l|q|L|z|t|j)?([@dDiuUxXoOfFeEgGcCsSpaA%n]))/y;

function javaType(conv: string): string {
  const c = conv[0]!;
  if (c === 's' || c === 'S') return 'string';
  if (c === 'd' || c === 'o' || c === 'x' || c === 'X') return 'int';
  if ('eEfgGaA'.includes(c)) return 'float';
  if (c === 'c' || c === 'C') return 'char';
  if (c === 'b' || c === 'B') return 'bool';
  if (c === 'h' || c === 'H') return 'hash';
  return 'date';
}

function appleType(length: string, conv: string): string {
  if (conv.startsWith('#@')) return 'variable';
  if (conv === '@') return 'object';
  if ('dDiuUxXoO'.includes(conv)) return length === '' || length === 'h' || length === 'hh' ? 'int' : 'int64';
  if ('fFeEgGaA'.includes(conv)) return 'float';
  if (conv === 'c' || conv === 'C') return 'char';
  if (conv === 's' || conv === 'S') return 'cstring';
  return 'pointer';
}

/** Conversions the space flag is defined for (signed numbers); elsewhere Java throws and C is undefined. */
const SPACE_OK = /[dieEfFgGaA]$/;

/**
 * Read every specifier of `text` in the `dialect`'s grammar. `%%` and `%n` consume no argument. A `%` that starts no
 * valid specifier, or a space flag before a non-numeric conversion (`% p`, `% s`), is `invalid`. Linear.
 */
export function parsePrintf(text: string, dialect: 'java' | 'apple'): PrintfResult {
  const specs: PrintfSpec[] = [];
  const invalid: PrintfInvalid[] = [];
  let hasEscapedPercent = false;
  let next = 1;
  let last = 0;
  const re = dialect === 'java' ? JAVA : APPLE;
  for (let i = text.indexOf('%'); i !== -1; i = text.indexOf('%', i + 1)) {
    re.lastIndex = i;
    const m = re.exec(text);
    if (!m) {
      invalid.push({ text: text.slice(i, i + 3), offset: i, reason: i === text.length - 1 ? 'a trailing %' : `\`${text.slice(i, i + 2)}\` starts no conversion` });
      continue;
    }
    const conv = dialect === 'java' ? m[6]! : (m[2] ?? m[7]!);
    const flags = dialect === 'java' ? m[3]! : (m[3] ?? '');
    if (conv === '%' || conv === 'n') {
      if (conv === '%') hasEscapedPercent = true;
      i += m[0].length - 1;
      continue;
    }
    if (flags.includes(' ') && !SPACE_OK.test(conv)) {
      invalid.push({ text: m[0], offset: i, reason: `\`${m[0]}\`: the space flag is not valid with %${conv} (is a % sign meant as text? write %%)` });
      i += m[0].length - 1;
      continue;
    }
    let arg: number;
    if (m[1]) arg = Number(m[1]);
    else if (dialect === 'java' && m[2] === '<') arg = last || 1;
    else arg = next++;
    last = arg;
    specs.push({ arg, type: dialect === 'java' ? javaType(conv) : appleType(m[6] ?? '', conv), text: m[0], offset: i });
    i += m[0].length - 1;
  }
  return { specs, invalid, hasEscapedPercent };
}

/** Whether `text` is a format string: it has a specifier or an escaped `%%`. */
export function isFormatString(r: PrintfResult): boolean {
  return r.specs.length > 0 || r.hasEscapedPercent;
}

/** Argument number -> the types it is read as (one argument may be read by several specifiers). */
export function argTypes(r: PrintfResult): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  for (const s of r.specs) {
    if (s.type === 'variable') continue;
    const set = out.get(s.arg) ?? new Set<string>();
    set.add(s.type);
    out.set(s.arg, set);
  }
  return out;
}
