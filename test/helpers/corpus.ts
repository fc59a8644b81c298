// Where the read-only corpus lives: ../shared/corpus beside this repository (as on developer machines and in CI),
// or LOOPGATES_CORPUS. Tests copy what they write to; they never write here.
import { resolve } from 'node:path';

const repoRoot = resolve(import.meta.dirname, '..', '..');

/** Absolute path of shared/corpus. */
export const corpusRoot = process.env.LOOPGATES_CORPUS ?? resolve(repoRoot, '..', 'shared', 'corpus');
/** Absolute path of shared/corpus/l10n. */
export const l10nCorpus = resolve(corpusRoot, 'l10n');
/** The folder holding shared/ (for GIT_CEILING_DIRECTORIES so a corpus folder is never taken for part of a repo). */
export const sharedParent = resolve(corpusRoot, '..', '..');
