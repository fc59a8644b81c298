// Scratch space for gates that shell out while judging an in-memory workspace (DESIGN.md "Lose nothing": mutations
// happen in memory or in a scratch directory under the OS temp dir, removed afterwards even on Ctrl-C).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { InternalError } from '../core/errors.js';
import { fsPath } from '../core/paths.js';
import type { Workspace } from '../core/types.js';

const live = new Set<string>();
let hooked = false;

/** Remove every scratch directory still alive (process exit, or a signal that ends the process). */
export function removeAllScratch(): void {
  for (const dir of live) {
    rmSync(dir, { recursive: true, force: true });
    live.delete(dir);
  }
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  // `exit` runs synchronously on process.exit and after SIGINT handlers let the loop drain; rmSync is safe there.
  process.once('exit', removeAllScratch);
}

/**
 * Keep the process alive through the first SIGINT/SIGTERM while `fn` runs, so the verb's AbortSignal can stop the work
 * and the `finally` blocks remove scratch space. Why: execa's child cleanup (signal-exit) re-raises a signal when it
 * sees no other listener, and cli.ts listens with `once`, so without this a Ctrl-C during a tool run killed the
 * process before any cleanup. A second signal removes the scratch space and exits at once (130 = 128 + SIGINT).
 */
export async function holdingSignals<T>(fn: () => Promise<T>): Promise<T> {
  let seen = 0;
  const onSignal = () => {
    if (++seen > 1) {
      removeAllScratch();
      process.exit(130);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await fn();
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}

/** Directories currently alive (tests assert it is empty after a run). */
export function liveScratchDirs(): readonly string[] {
  return [...live];
}

/**
 * Create a directory under the OS temp dir (`loopgates-<label>-XXXXXX`), run `fn` in it, remove it afterwards
 * whatever happens (throw, abort). Also removed at process exit if `fn` never settles.
 */
export async function withScratchDir<T>(label: string, fn: (dir: string) => Promise<T>): Promise<T> {
  hookExit();
  const dir = mkdtempSync(join(tmpdir(), `loopgates-${label.replace(/[^a-z0-9-]/gi, '_')}-`));
  live.add(dir);
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    live.delete(dir);
  }
}

/**
 * Write `paths` of `ws` (repository-relative) into `dir`, byte for byte. A path that would escape `dir`
 * (`..`, absolute) throws InternalError: a workspace path is never allowed to write outside the scratch space.
 */
export async function materialise(ws: Workspace, paths: Iterable<string>, dir: string): Promise<number> {
  const root = resolve(dir);
  let n = 0;
  for (const p of paths) {
    const abs = resolve(root, p);
    if (!abs.startsWith(root + sep)) throw new InternalError(`refusing to materialise ${p} outside the scratch directory`);
    // A name that is not UTF-8 is written with its exact bytes (core/paths.ts): a string path would write U+FFFD.
    const slash = p.lastIndexOf('/');
    await mkdir(slash < 0 ? root : fsPath(root, p.slice(0, slash)), { recursive: true });
    await writeFile(fsPath(root, p), await ws.read(p));
    n++;
  }
  return n;
}

/** Synchronous variant for small fixed file sets (tests and benches); a name that is not UTF-8 is written by its bytes too. */
export function materialiseSync(files: Readonly<Record<string, string | Buffer>>, dir: string): void {
  for (const [p, c] of Object.entries(files)) {
    const slash = p.lastIndexOf('/');
    mkdirSync(slash < 0 ? dir : fsPath(dir, p.slice(0, slash)), { recursive: true });
    writeFileSync(fsPath(dir, p), c);
  }
}
