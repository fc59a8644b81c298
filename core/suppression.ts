// Inline suppression comments, in loopgates' own syntax written in the file's comment syntax:
// `loopgates-ignore <gate-id>: <reason>`. A suppression without a reason is void (the gate reports it as a finding),
// so every suppressed candidate carries a reason a reviewer can read. core/tree-sitter.ts collectDirectives finds
// them in parsed source and says which lines each covers; gates parsing other formats call parseSuppression on
// each comment body they meet.

/** One suppression comment and the lines it covers. */
export interface Directive {
  /** 1-based line and column of the comment. */
  line: number;
  column: number;
  /** The stated reason; undefined when the comment gives none (then the directive is void and itself a finding). */
  reason: string | undefined;
  /** Inclusive 1-based line ranges whose candidates the directive suppresses. */
  ranges: Array<readonly [number, number]>;
}

const patterns = new Map<string, RegExp>();

/** `loopgates-ignore <gate>` then an optional `: reason`; the id must end there (`<gate>-other` is another gate). */
function patternFor(gate: string): RegExp {
  let re = patterns.get(gate);
  if (!re) {
    const id = gate.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
    re = new RegExp(`loopgates-ignore[ \\t]+${id}(?![\\p{L}\\p{N}_-])(?:[ \\t]*:(.*))?`, 'su');
    patterns.set(gate, re);
  }
  return re;
}

/**
 * Parse the body of one comment for gate `gate`. Returns null when it is no suppression of that gate, else the
 * reason (undefined when absent or blank: a reason needs a letter or digit). Comment closers (`*\/`, `-->`, `}`) at
 * the end are stripped.
 */
export function parseSuppression(comment: string, gate: string): { reason: string | undefined } | null {
  const m = patternFor(gate).exec(comment);
  if (!m) return null;
  const reason = (m[1] ?? '')
    .replace(/\*\/\s*\}?\s*$/u, '')
    .replace(/-->\s*$/u, '')
    .replace(/\s+/gu, ' ')
    .trim();
  return { reason: /[\p{L}\p{N}]/u.test(reason) ? reason : undefined };
}

/** A reason needs at least this many words (runs of letters or digits) to say something a reviewer can check. */
export const MIN_REASON_WORDS = 2;

/** Two-word reasons that still say nothing: a promise or a shrug, not why the text stays (compared lower-case, by words). */
const PLACEHOLDERS = new Set(['fix later', 'fix me', 'fix soon', 'to do', 'will fix', 'for now', 'no reason', 'n a', 'temp fix', 'quick fix', 'ignore this', 'ignore it']);

/** Words that carry no reason on their own: `ok ok`, `TODO: fix`, `TBD later` count as no words (fresh5). */
const FILLER = new Set(['ok', 'okay', 'x', 'xx', 'xxx', 'todo', 'tbd', 'fixme', 'fix', 'later', 'soon', 'temp', 'wip', 'hack', 'none', 'na', 'please', 'pls', 'me', 'it', 'this', 'now', 'will', 'asap', 'whatever', 'tmp', 'yes', 'done']);

/** A script written without spaces between words (Han, kana, Thai): four of its characters count as two words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

/**
 * Whether a stated reason is a placeholder (`ok`, `x`, `none`, `TODO`, `n/a`, `fix later`): fewer than
 * MIN_REASON_WORDS words that are not FILLER, or one of PLACEHOLDERS. A gate treats such a directive as one without a reason.
 */
export function isPlaceholderReason(reason: string): boolean {
  const words = reason.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const count = words.reduce((n, w) => n + (FILLER.has(w) ? 0 : UNSPACED.test(w) && [...w].length >= 4 ? 2 : 1), 0);
  return count < MIN_REASON_WORDS || PLACEHOLDERS.has(words.join(' '));
}

/** Whether a 1-based `line` falls in one of `ranges`. */
export function inRanges(line: number, ranges: ReadonlyArray<readonly [number, number]>): boolean {
  return ranges.some(([a, b]) => line >= a && line <= b);
}
