// The msgfmt differential: string-parity's gettext format checks (placeholders/gettext.ts through parsers/po.ts) and
// GNU msgfmt -c --check-format judge the same PO text; per translated message, both must say "format error" or both
// "fine". Used by test/unit/string-parity-gettext-msgfmt.test.ts (fixtures) and bench/gettext-msgfmt.ts (real repos).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { readPo, type PoMessage } from '../../gates/string-parity/parsers/po.js';
import { checkGettextMessage, gettextFormatsOf, pluralDistribution } from '../../gates/string-parity/placeholders/gettext.js';

/** msgfmt's words for a format problem (format.c, format-*.c); its other checks (newlines, header) are not ours here. */
const FORMAT_ERROR = /format specification|is not a valid .* format string|simple format string|expect a (?:mapping|tuple)|only one argument may be ignored/;

/**
 * 1-based msgstr lines of the messages msgfmt reports a format error for (it reports at the message's msgstr line),
 * and of those it reports another error for first: msgfmt prints one error per message, so a newline mismatch
 * ("do not both end with '\n'") hides its format verdict.
 */
export function msgfmtFormatErrors(poText: string): { format: Set<number>; masked: Set<number> } {
  const dir = mkdtempSync(join(tmpdir(), 'lg-msgfmt-'));
  try {
    const file = join(dir, 'x.po');
    // Obsolete `#~` entries are judged by neither side, but msgfmt refuses a file where one repeats a live msgid
    // ("duplicate message definition", gaphor's catalogs) before it checks any format: they become plain comments
    // (same line count, so lines still match).
    writeFileSync(file, poText.replace(/^#~.*$/gm, '#'));
    let stderr = '';
    try {
      execFileSync('msgfmt', ['-c', '--check-format', '-o', '/dev/null', '--', file], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 64 << 20 });
    } catch (err) {
      const e = err as { code?: string; stderr?: string };
      if (e.code === 'ENOENT') throw new Error('msgfmt is not installed: run scripts/setup.sh (it installs Debian\'s gettext)');
      stderr = e.stderr ?? '';
    }
    const format = new Set<number>();
    const masked = new Set<number>();
    for (const line of stderr.split('\n')) {
      const m = /^[^:]*x\.po:(\d+): (.*)$/.exec(line);
      if (!m || /^warning: /.test(m[2]!)) continue;
      (FORMAT_ERROR.test(m[2]!) ? format : masked).add(Number(m[1]));
    }
    return { format, masked };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same for our checker: msgstr[0] lines of translated, non-fuzzy messages with a format problem. */
export function ourFormatErrors(poText: string): Set<number> {
  const msgs = readPo(poText);
  const header = msgs.find((m) => m.msgid === '' && m.msgctxt === undefined);
  const often = pluralDistribution(header?.msgstr[0]);
  const out = new Set<number>();
  for (const m of msgs) {
    if (m === header || !m.msgstr[0] || m.flags.includes('fuzzy')) continue;
    const { checked } = gettextFormatsOf(m.flags);
    if (checked.length && checkGettextMessage(checked, m.msgid, m.msgidPlural, m.msgstr.map((s) => s ?? ''), often).length) out.add(m.msgstrLines[0]!);
  }
  return out;
}

/** Translated, non-fuzzy messages with a format flag this module checks: the population of the comparison. */
export function judgedMessages(poText: string): PoMessage[] {
  return readPo(poText).filter((m) => m.msgid !== '' && m.msgstr[0] && !m.flags.includes('fuzzy') && gettextFormatsOf(m.flags).checked.length > 0);
}

export interface Differential {
  judged: number;
  /** Messages whose format verdict msgfmt did not print (another error of the message came first): not compared. */
  masked: number;
  /** Messages both call errors / both call fine. */
  bothError: number;
  bothFine: number;
  /** Disagreements: msgstr line, which side said error, and the message. */
  disagreements: Array<{ line: number; msgfmt: boolean; ours: boolean; flags: string[]; msgid: string; msgstr: string[] }>;
}

/** Compare msgfmt and our checker on one PO text, message by message. */
export function differential(poText: string): Differential {
  const theirs = msgfmtFormatErrors(poText);
  const ours = ourFormatErrors(poText);
  const r: Differential = { judged: 0, masked: 0, bothError: 0, bothFine: 0, disagreements: [] };
  for (const m of judgedMessages(poText)) {
    const line = m.msgstrLines[0]!;
    if (theirs.masked.has(line)) {
      r.masked++;
      continue;
    }
    r.judged++;
    const a = theirs.format.has(line);
    const b = ours.has(line);
    if (a && b) r.bothError++;
    else if (!a && !b) r.bothFine++;
    else r.disagreements.push({ line, msgfmt: a, ours: b, flags: m.flags, msgid: m.msgid, msgstr: m.msgstr });
  }
  return r;
}

const escapePo = (s: string) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t');

/** A PO file holding `messages` (each given a unique msgctxt so none is a duplicate) under `header`. */
export function poFile(header: string, messages: ReadonlyArray<{ flags: string[]; msgid: string; msgidPlural?: string; msgstr: string[] }>): string {
  const parts = [`msgid ""\nmsgstr ""\n${header.split('\n').filter(Boolean).map((l) => `"${escapePo(l)}\\n"`).join('\n')}\n`];
  messages.forEach((m, i) => {
    let s = `#, ${m.flags.join(', ')}\nmsgctxt "d${i}"\nmsgid "${escapePo(m.msgid)}"\n`;
    if (m.msgidPlural !== undefined) {
      s += `msgid_plural "${escapePo(m.msgidPlural)}"\n`;
      m.msgstr.forEach((t, j) => (s += `msgstr[${j}] "${escapePo(t)}"\n`));
    } else s += `msgstr "${escapePo(m.msgstr[0] ?? '')}"\n`;
    parts.push(s);
  });
  return parts.join('\n');
}

/** Tokens a translator (or a tool) gets wrong: the pieces of every checked grammar, well- and ill-formed. */
const TOKENS = ['%s', '%d', '%i', '%u', '%ld', '%lu', '%f', '%.2f', '%c', '%x', '%%', '%', '%1$s', '%2$s', '%2$d', '%(name)s', '%(count)d', '%(name)d', '%*d', '{0}', '{1}', '{}', '{name}', '{count}', '{count:d}', '{0:>3}', '{{', '}}', '{', '}', '%1', '%2', '%L1', '%10', '%j', '%@', '%<PRIu64>', '%I', '%m', '%n'];

/**
 * A defect injected into a msgstr: drop one of its placeholders, swap one for another token, or insert a token. The
 * placeholder-ish spans are found loosely (any of TOKENS), so defects land where translators' mistakes do.
 */
export function defectArb(msgstr: string): fc.Arbitrary<string> {
  const spans: Array<[number, number]> = [];
  for (const t of TOKENS) for (let i = msgstr.indexOf(t); i !== -1; i = msgstr.indexOf(t, i + 1)) spans.push([i, i + t.length]);
  const drop = spans.length ? fc.constantFrom(...spans).map(([a, b]) => msgstr.slice(0, a) + msgstr.slice(b)) : null;
  const swap = spans.length ? fc.tuple(fc.constantFrom(...spans), fc.constantFrom(...TOKENS)).map(([[a, b], t]) => msgstr.slice(0, a) + t + msgstr.slice(b)) : null;
  const insert = fc.tuple(fc.nat({ max: msgstr.length }), fc.constantFrom(...TOKENS)).map(([at, t]) => msgstr.slice(0, at) + t + msgstr.slice(at));
  return fc.oneof(...[drop, swap, insert].filter((x): x is fc.Arbitrary<string> => x !== null));
}

/**
 * `count` mutants of the judged messages of `poText` (each a message with one msgstr form changed by defectArb),
 * from a fixed seed, plus every message unchanged: a PO file of them under the file's own header.
 */
export function mutantsFile(poText: string, count: number, seed: number): string {
  const msgs = readPo(poText);
  const header = msgs.find((m) => m.msgid === '' && m.msgctxt === undefined)?.msgstr[0] ?? '';
  const judged = judgedMessages(poText);
  if (!judged.length) return poFile(header, []);
  const arb = fc.constantFrom(...judged).chain((m) =>
    fc.nat({ max: m.msgstr.length - 1 }).chain((j) => defectArb(m.msgstr[j] ?? '').map((t) => ({ flags: m.flags.filter((f) => f !== 'fuzzy'), msgid: m.msgid, ...(m.msgidPlural !== undefined ? { msgidPlural: m.msgidPlural } : {}), msgstr: m.msgstr.map((s, k) => (k === j ? t : (s ?? ''))) }))),
  );
  const mutants = fc.sample(arb, { numRuns: count, seed });
  const originals = judged.map((m) => ({ flags: m.flags, msgid: m.msgid, ...(m.msgidPlural !== undefined ? { msgidPlural: m.msgidPlural } : {}), msgstr: m.msgstr.map((s) => s ?? '') }));
  // A mutant whose msgstr[0] became empty is untranslated (neither side judges it): keep msgstr[0] non-empty. Each
  // msgstr begins and ends with a newline as its msgid does, so that msgfmt's newline check never hides its verdict.
  const lead = (id: string, t: string) => (id.startsWith('\n') === t.startsWith('\n') ? t : id.startsWith('\n') ? `\n${t}` : t.replace(/^\n+/, ''));
  const trail = (id: string, t: string) => (id.endsWith('\n') === (t !== '' && t.endsWith('\n')) ? t : id.endsWith('\n') ? `${t}\n` : t.replace(/\n+$/, ''));
  const fix = (m: { flags: string[]; msgid: string; msgidPlural?: string; msgstr: string[] }) => ({ ...m, msgstr: m.msgstr.map((t) => trail(m.msgid, lead(m.msgid, t))) });
  return poFile(header, [...originals, ...mutants].map(fix).filter((m) => m.msgstr[0] !== '' && m.msgstr[0] !== '\n'));
}
