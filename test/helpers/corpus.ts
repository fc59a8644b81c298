// Where the read-only corpus lives: ../shared/corpus beside this repository (as on developer machines and in CI),
// or LOOPGATES_CORPUS. Tests copy what they write to; they never write here. Every test that reads the corpus takes
// its paths from this module, so LOOPGATES_CORPUS reaches all of them; a corpus that is not there fails the test file
// at import with a message naming LOOPGATES_CORPUS (never a skip: a suite that quietly ran less would look complete).
import { statSync } from 'node:fs';
import { resolve } from 'node:path';

const repoRoot = resolve(import.meta.dirname, '..', '..');
const fromEnv = process.env.LOOPGATES_CORPUS;

/** Absolute path of shared/corpus (LOOPGATES_CORPUS, made absolute against the current directory, when set). */
export const corpusRoot = fromEnv !== undefined && fromEnv !== '' ? resolve(fromEnv) : resolve(repoRoot, '..', 'shared', 'corpus');

/** Why the corpus was looked for at `corpusRoot`, for error messages. */
const origin = fromEnv !== undefined && fromEnv !== '' ? `LOOPGATES_CORPUS=${fromEnv}` : `../shared/corpus beside the checkout ${repoRoot}; LOOPGATES_CORPUS is not set`;

/** The error a missing corpus folder raises: where it was looked for, why there, and how to point the tests at it. */
export function missingCorpusError(path: string): Error {
  return new Error(
    `the test corpus folder ${path} does not exist (looked for from ${origin}): ` +
      'set LOOPGATES_CORPUS=/path/to/shared/corpus (the folder holding l10n/), or place shared/ beside the checkout',
  );
}

/**
 * `path` when it is an existing folder of the corpus. Throws `missingCorpusError` otherwise, so a test that needs a
 * corpus project fails loudly instead of being filtered out.
 */
export function requireCorpusDir(path: string): string {
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw missingCorpusError(path);
  return path;
}

/** Absolute path of shared/corpus/l10n; importing this module throws `missingCorpusError` when it is not a folder. */
export const l10nCorpus = requireCorpusDir(resolve(corpusRoot, 'l10n'));

/** Absolute path of one l10n corpus project (`AntennaPod__AntennaPod`, see the corpus MANIFEST). Throws when absent. */
export const l10nProject = (name: string): string => requireCorpusDir(resolve(l10nCorpus, name));

/** The folder holding shared/ (for GIT_CEILING_DIRECTORIES so a corpus folder is never taken for part of a repo). */
export const sharedParent = resolve(corpusRoot, '..', '..');

/** Absolute path of one Maestro flow corpus project (`duckduckgo__Android`, see corpus/maestro/MANIFEST.md). Throws when absent. */
export const maestroProject = (name: string): string => requireCorpusDir(resolve(corpusRoot, 'maestro', name));
/** Absolute path of shared/corpus/uiautomator (real `uiautomator dump` files; see its MANIFEST). Throws when absent. */
export const uiautomatorCorpus = (): string => requireCorpusDir(resolve(corpusRoot, 'uiautomator'));
