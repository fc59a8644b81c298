// The hook texts install writes, rendered from the POSIX sh templates in the package's hooks/ folder. Always LF:
// a CR in a shell script breaks it (`set: Illegal option -`), whatever core.autocrlf would have done.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InternalError } from '../../core/errors.js';
import { packageVersion } from '../../core/version.js';
import { BLOCK_BEGIN, BLOCK_END, PREVIOUS_HOOK } from './layout.js';

/** How the stored hook finds loopgates: `npm` only from node_modules; `standalone` recorded CLI, then PATH. */
export type ResolveMode = 'npm' | 'standalone';

/** The installed package's root (the directory with loopgates' package.json), from this module's location. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pj = join(dir, 'package.json');
    if (existsSync(pj)) {
      try {
        if ((JSON.parse(readFileSync(pj, 'utf8')) as { name?: string }).name === 'loopgates') return dir;
      } catch {
        /* not ours; keep walking */
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new InternalError(`cannot find loopgates' package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

/** Absolute path of the running loopgates' CLI entry (bin/loopgates.js): what a standalone hook records. */
export const cliEntry = (): string => join(packageRoot(), 'bin', 'loopgates.js');

function read(name: string): string {
  const p = join(packageRoot(), 'hooks', name);
  try {
    return readFileSync(p, 'utf8').replace(/\r\n/g, '\n');
  } catch {
    throw new InternalError(`hook template ${p} is missing from the loopgates package`);
  }
}

/**
 * A template with hooks/cli-word (the sh function loopgates_word: the command a fix line names) in place of its
 * @@CLI_WORD@@. The shell works the word out when it refuses, rather than install writing one in: the texts stay one
 * set of bytes per loopgates version, so the byte-compares (shim, doctor) hold on every teammate's machine.
 */
function template(name: string): string {
  return read(name).replace('@@CLI_WORD@@', () => read('cli-word').trimEnd());
}

/**
 * The stored hook (.loopgates/hooks/pre-commit) for `mode`, naming this loopgates' version: the hook passes a commit
 * only when a CLI of that version answers its handshake (core/hook-answer.ts).
 */
export function renderStoredHook(mode: ResolveMode): string {
  return template('pre-commit').replace('@@MODE@@', mode).replace('@@VERSION@@', packageVersion());
}

/** Which mode a stored hook was rendered for, or null when it is not one of ours. */
export function storedHookMode(text: string): ResolveMode | null {
  const m = /^loopgates_mode=(npm|standalone)$/m.exec(text);
  return m ? (m[1] as ResolveMode) : null;
}

/**
 * The git-side shim for an untracked hooks dir; `chain` runs the backed-up previous hook first. The shim holds the
 * exact text of every stored hook this version renders (both modes) and runs the stored hook only when its bytes are
 * one of them (cmp, no git call): the stored hook is a tracked file a commit could change.
 */
export function renderShim(chain: boolean): string {
  const chainText = chain ? template('chain-previous').replace('@@PREVIOUS@@', PREVIOUS_HOOK).trimEnd() : '# (no previous hook to chain)';
  const [a, b] = (['standalone', 'npm'] as const).map((mode) => {
    const text = renderStoredHook(mode);
    // A here-document holds the text as it is: it must end with a newline and never hold its end line.
    if (!text.endsWith('\n') || /^loopgates_STORED_HOOK_[AB]$/m.test(text)) throw new InternalError(`the stored hook (${mode}) cannot be held in the shim`);
    return text;
  }) as [string, string];
  // Function replacements: a `$` in the texts is taken as it is.
  return template('shim')
    .replace('@@CHAIN@@', () => chainText)
    .replace('@@STORED_A@@', () => a)
    .replace('@@STORED_B@@', () => b);
}

/** The block inserted into a tracked hook file (husky's .husky/pre-commit, a committed hooks dir). */
export const renderBlock = (): string => template('block');

/**
 * A line that ends a sh script unconditionally when reached at the top level: `exit ...` or `exec ...` starting in
 * column 1 (an indented one is taken to sit inside an if/function/case; the scratch-clone proof catches the rest).
 */
const TOP_LEVEL_END = /^(?:exit|exec)(?=[ \t;]|$)/;

/**
 * The first top-level `exit`/`exec` line before our block in `text` (1-based line number and its text), or null
 * when nothing stops sh from reaching the block (or there is no block).
 */
export function exitBeforeBlock(text: string): { line: number; text: string } | null {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const l = (lines[i] ?? '').replace(/\r$/, '');
    if (l.startsWith(BLOCK_BEGIN)) return null;
    if (TOP_LEVEL_END.test(l)) return lines.slice(i).some((x) => x.startsWith(BLOCK_BEGIN)) ? { line: i + 1, text: l.trim() } : null;
  }
  return null;
}

/**
 * The first line before our block that may end the script with success where it is reached: `exit`, `exit 0` or
 * `exec` after `||`, `&&`, `;`, `then`, `else`, `do` or indentation (`[ -n "$SKIP" ] || exit 0`, `if …; then exit
 * 0; fi`); exitBeforeBlock's column-1 lines are not repeated. A nonzero exit refuses the commit, so it is not one.
 * Line-based, a hint for doctor: install's proof is what decides.
 */
export function maybeExitBeforeBlock(text: string): { line: number; text: string } | null {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const l = (lines[i] ?? '').replace(/\r$/, '');
    if (l.startsWith(BLOCK_BEGIN)) return null;
    const code = l.replace(/(^|\s)#.*$/, '');
    if (!TOP_LEVEL_END.test(code) && MAY_END.test(code)) return lines.slice(i).some((x) => x.startsWith(BLOCK_BEGIN)) ? { line: i + 1, text: l.trim() } : null;
  }
  return null;
}

const MAY_END = /(?:^\s+|[;&|({]\s*|\b(?:then|else|do)\s+)(?:exit(?:\s+0)?\s*(?:$|[;)&|}])|exec(?:$|[ \t]+(?![0-9]*[<>])))/;

/**
 * `text` with our block inserted (once): before the first top-level `exit`/`exec` line, which would otherwise end the
 * script before sh reaches the block (husky files often end with `exit 0`), else appended.
 */
export function withBlock(text: string): string {
  const block = renderBlock();
  const stripped = withoutBlock(text);
  const base = stripped === '' ? '#!/bin/sh\n' : stripped.endsWith('\n') ? stripped : `${stripped}\n`;
  const lines = base.split(/(?<=\n)/);
  const at = lines.findIndex((l) => TOP_LEVEL_END.test(l.replace(/\r?\n$/, '')));
  if (at < 0) return `${base}${block}`;
  return [...lines.slice(0, at), block, ...lines.slice(at)].join('');
}

/** `text` with our block (and only it) removed; the inverse of `withBlock` on the text it was given. */
export function withoutBlock(text: string): string {
  const begin = text.indexOf(BLOCK_BEGIN);
  if (begin < 0) return text;
  // The end marker counts only at the start of a line: a comment may name it.
  const endLine = text.indexOf(`\n${BLOCK_END}`, begin);
  if (endLine < 0) return text;
  let end = endLine + 1 + BLOCK_END.length;
  if (text[end] === '\n') end += 1;
  return text.slice(0, begin) + text.slice(end);
}

/** The `.gitattributes` rule that keeps the stored hook LF on checkout whatever core.autocrlf says. */
export const ATTRIBUTES_RULE = '.loopgates/hooks/* text eol=lf';

/** The `.loopgates/.gitignore` content: run output that must never be committed (core/ledger.ts, which reads it). */
export { LOOPGATES_GITIGNORE } from '../../core/ledger.js';

/**
 * The npm `prepare` command: places the hook after `npm install` in a fresh clone. A node one-liner, not the
 * `loopgates` binary, because `npm ci --omit=dev` runs `prepare` without devDependencies: loopgates is then absent
 * and it says so and exits 0. `install --from-prepare` itself explains and exits 0 where there is no .git (Docker).
 */
export const PREPARE_SCRIPT =
  "node -e \"var f='node_modules/loopgates/bin/loopgates.js';if(!require('fs').existsSync(f))console.log('loopgates: not in node_modules (npm ci --omit=dev?); git hook not placed');else process.exitCode=require('child_process').spawnSync(process.execPath,[f,'install','--from-prepare'],{stdio:'inherit'}).status??2\"";
