// Puts the project-local gitleaks (scripts/setup-gitleaks.sh -> .tools/gitleaks/usr/bin) on PATH for every test
// process, so integration tests use a real gitleaks without touching the system. Tests that need "gitleaks missing"
// build their own PATH without it.
import { existsSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
export const localGitleaksDir = join(repoRoot, '.tools', 'gitleaks', 'usr', 'bin');

if (existsSync(join(localGitleaksDir, 'gitleaks'))) {
  process.env.PATH = `${localGitleaksDir}${delimiter}${process.env.PATH ?? ''}`;
}

/**
 * How fix lines start loopgates in the tests' temp repositories (core/cli-word.ts): `loopgates` when PATH has one
 * outside a node_modules/.bin, else node and this checkout's bin/loopgates.js (the temp repositories install none).
 */
export const LOOPGATES = (process.env.PATH ?? '').split(delimiter).some((d) => d && !d.includes('node_modules') && existsSync(join(d, 'loopgates')))
  ? 'loopgates'
  : `node ${join(repoRoot, 'bin', 'loopgates.js')}`;
/** LOOPGATES as regular-expression source, for fix lines matched by a pattern. */
export const LOOPGATES_RE = LOOPGATES.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
