// Exclude lists read as .gitignore reads its lines (`!` takes back, the last match decides), and the default
// build-output excludes every gate shares. Apart from core/inputs.ts so that catalog workers load only picomatch.
import picomatch from 'picomatch';

/**
 * Build-output folders by name, excluded where build tools put them: each name anywhere, then a `!` entry taking it
 * back below a `src/` folder (for `build`: `!` and the glob of a build folder with src above it). No build tool writes
 * its output under `src/`
 * (Gradle's `build/` sits beside a module's `src/`, CocoaPods' `Pods/` beside the Podfile), while a Java/Kotlin
 * package `com.acme.build` (`src/main/kotlin/com/acme/build/`) or a web `src/dist/` folder is source (fresh6 F11).
 * Order matters (last match wins): list these before any exclude that must also hold below `src/` (tests).
 */
export function outputFolderExcludes(...names: string[]): string[] {
  return [...names.map((n) => `**/${n}/**`), ...names.map((n) => `!**/src/**/${n}/**`)];
}

/**
 * Whether an exclude list removes `path`, read as .gitignore reads its lines: an entry starting with `!` takes back
 * what an earlier entry excluded, and the last entry that matches decides. picomatch alone would read `!x` as
 * "everything but x" and exclude nearly every path. Every gate's `exclude` goes through this.
 */
export function excludeMatcher(globs: readonly string[]): (path: string) => boolean {
  if (globs.length === 0) return () => false;
  if (!globs.some((g) => g.startsWith('!'))) return picomatch([...globs], { dot: true });
  const entries = globs.map((g) => {
    const back = g.startsWith('!');
    const glob = back ? g.slice(1) : g;
    return { back, m: glob ? picomatch(glob, { dot: true }) : () => false };
  });
  return (path) => {
    for (let i = entries.length - 1; i >= 0; i--) if (entries[i]!.m(path)) return !entries[i]!.back;
    return false;
  };
}
