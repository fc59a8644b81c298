// The handshake of the stored hook (hooks/pre-commit): the shell passes a commit only when the CLI it started wrote
// one line, `loopgates-answer 1 <nonce> <version> <verdict> <exit code>`, on the file LOOPGATES_HOOK_ANSWER names.
// Anything else that answers as loopgates (LOOPGATES_CLI=/dev/null, a `node` that exits 0) writes nothing, and the
// shell refuses the commit.
import { writeFileSync } from 'node:fs';
import { packageVersion } from './version.js';

/** The verdict word of each exit code (0 pass, 1 fail, 2 error, 3 ask); the shell checks it against the exit code. */
const VERDICT: Readonly<Record<number, string>> = { 0: 'pass', 1: 'fail', 2: 'error', 3: 'ask' };

/** The answer line for `exitCode` and `nonce` (the hook's pid), with its newline. */
export function answerLine(nonce: string, exitCode: number): string {
  return `loopgates-answer 1 ${nonce} ${packageVersion()} ${VERDICT[exitCode] ?? 'error'} ${exitCode}\n`;
}

/**
 * Write the answer when the stored hook asked for one (`hook` verb, LOOPGATES_HOOK_ANSWER and LOOPGATES_HOOK_NONCE
 * set). The file must exist (the hook truncated it): opened `r+`, so a stray variable cannot make loopgates create
 * files. A write that fails leaves the file empty, and the shell refuses the commit: fail closed.
 */
export function writeHookAnswer(verb: string | undefined, env: Readonly<Record<string, string | undefined>>, exitCode: number): void {
  const file = env.LOOPGATES_HOOK_ANSWER;
  const nonce = env.LOOPGATES_HOOK_NONCE;
  if (verb !== 'hook' || !file || !nonce || !/^[0-9]+$/.test(nonce)) return;
  try {
    writeFileSync(file, answerLine(nonce, exitCode), { flag: 'r+' });
  } catch {
    /* the shell refuses: no answer */
  }
}
