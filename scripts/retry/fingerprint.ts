// Failure fingerprints (DESIGN.md "failure fingerprint"): "the same cause" as a hash of a failed attempt's last error
// lines with what changes from run to run stripped (paths, numbers, hex ids, times, temp names). The anti-loop
// breaker counts fingerprints; the ledger keeps only the hash, never the text (it can hold secrets).
import { createHash } from 'node:crypto';
import { redactOutput } from '../../core/redact.js';

/** Lines that read as an error, in any of the tools loopgates wraps (Gradle, xcodebuild, npm, adb, Maestro...). */
const ERRORISH = /\b(?:error|errors|fail(?:ed|ure|s)?|fatal|exception|panic|cannot|can't|could not|couldn't|unable|denied|refused|timed? ?out|not found|went wrong|assert\w*|abort\w*|killed)\b/i;

/** How many of the last error lines make the fingerprint. */
export const FINGERPRINT_LINES = 5;

const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;
const ISO_TIME = /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/g;
const CLOCK = /\b\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?\b/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
// An absolute or home/relative-dot path (POSIX or Windows), up to the next space, quote or bracket.
const PATH = /(?:(?<![\w.])(?:~|\.{1,2}|[A-Za-z]:)?[\\/](?:[^\s'"`()[\]{}<>,;:]+[\\/]?)+)|(?:file:\/\/\S+)/g;
const HEX = /\b(?:0x)?[0-9a-f]{7,}\b/gi;
const TEMP = /\b(?:tmp|temp)[\w.-]*/gi;
const NUMBER = /\d+(?:[.,]\d+)*/g;

/**
 * One line as the fingerprint sees it: ANSI colours, ISO times, clock times, UUIDs, paths, hex ids, temp names and
 * numbers replaced by placeholders, runs of spaces collapsed. `Build failed in 12.3 s at /tmp/x91/a` and
 * `Build failed in 9.8 s at /tmp/q02/b` both read `Build failed in # s at <path>`.
 */
export function normaliseLine(line: string): string {
  return line
    .replace(ANSI, '')
    .replace(ISO_TIME, '<time>')
    .replace(CLOCK, '<time>')
    .replace(UUID, '<id>')
    .replace(PATH, '<path>')
    .replace(HEX, '<hex>')
    .replace(TEMP, '<tmp>')
    .replace(NUMBER, '#')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The lines a fingerprint is made of: among the last 200 non-blank lines of `output`, the last FINGERPRINT_LINES
 * that read as errors (or the last FINGERPRINT_LINES lines when none does), normalised.
 */
export function fingerprintLines(output: string): string[] {
  // Of the redacted text, as the lines are printed: a fresh token each run (a signed URL, a session id) is the same cause.
  const lines = redactOutput(output.split(/\r?\n/).filter((l) => l.trim() !== '').slice(-200).join('\n')).split('\n').filter((l) => l.trim() !== '');
  const errors = lines.filter((l) => ERRORISH.test(l));
  return (errors.length ? errors : lines).slice(-FINGERPRINT_LINES).map(normaliseLine);
}

/**
 * The failure fingerprint of an attempt: sha256 (first 16 hex digits) of how it ended (`exit N`, `timeout`, `signal
 * SIGx`) and its normalised last error lines. Equal fingerprints are "the same cause".
 */
export function failureFingerprint(output: string, ending: string): string {
  return createHash('sha256').update(`${ending}\n${fingerprintLines(output).join('\n')}`).digest('hex').slice(0, 16);
}
