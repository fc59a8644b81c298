// Exclude lists read as .gitignore reads its lines (`!` takes back, the last match decides), and the default
// build-output excludes every gate shares. Apart from core/inputs.ts so that catalog workers load only picomatch.
import picomatch from 'picomatch';

/**
 * Build-output folders by name, excluded where build tools put them, with source shapes taken back (last match wins):
 * each name anywhere; taken back below a `src/` folder (a web `src/dist/`, a CLI's `src/commands/build/`); excluded
 * again inside a native project under `src/` (`src/android/app/build/`) or in Android assets (a copied web bundle);
 * taken back in a JVM source set (`src/main/kotlin/com/acme/build/`, fresh6 F11); and excluded once more when the
 * output folder sits above the `src/` (`ios/Pods/X/src/`). List these before any exclude that must also hold below
 * `src/` (tests).
 */
export function outputFolderExcludes(...names: string[]): string[] {
  const each = (shape: (n: string) => string) => names.map(shape);
  return [
    ...each((n) => `**/${n}/**`),
    ...each((n) => `!**/src/**/${n}/**`),
    ...each((n) => `**/src/**/{android,ios}/**/${n}/**`),
    ...each((n) => `**/src/*/assets/**/${n}/**`),
    ...each((n) => `!**/src/*/{java,kotlin}/**/${n}/**`),
    ...each((n) => `**/${n}/**/src/**`),
  ];
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
