// Which app platforms a repository holds, detected from the files present (used to pick config defaults).
// Markers follow each platform's own project layout: Gradle (developer.android.com/build), Xcode/CocoaPods/SwiftPM,
// React Native's package.json dependency, Flutter's pubspec.yaml (docs.flutter.dev), and a web package.json/index.html.
import { readFileSync } from 'node:fs';
import { fsPath } from './paths.js';
import { treeWorkspace } from './snapshot.js';

/** The platforms loopgates has defaults for. */
export type Platform = 'android' | 'ios' | 'react-native' | 'flutter' | 'web';

export const PLATFORMS: readonly Platform[] = ['android', 'ios', 'react-native', 'flutter', 'web'];

const base = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/** Detected platforms and, for those a package.json declares, the folders of those packages ('.' for the root). */
export interface PlatformDetail {
  platforms: Platform[];
  packages: ReadonlyMap<Platform, readonly string[]>;
}

/**
 * Platforms from repository-relative paths (`/`-separated). `readPackageJson(path)` returns a package.json's text
 * (or null) so React Native can be told from a plain web app by its `react-native` dependency. Result sorted in
 * PLATFORMS order, without duplicates. Pure apart from the callback.
 */
export function detectPlatforms(paths: readonly string[], readPackageJson: (path: string) => string | null = () => null): Platform[] {
  return detectPlatformDetail(paths, readPackageJson).platforms;
}

/** detectPlatforms, with the package folders behind each platform a package.json declares. */
export function detectPlatformDetail(paths: readonly string[], readPackageJson: (path: string) => string | null = () => null): PlatformDetail {
  const found = new Set<Platform>();
  const packages = new Map<Platform, string[]>();
  let packageJsons: string[] = [];
  for (const p of paths) {
    if (p.split('/').includes('node_modules')) continue;
    const b = base(p);
    if (b === 'AndroidManifest.xml' || /^(settings|build)\.gradle(\.kts)?$/.test(b)) found.add('android');
    if (/\.(xcodeproj|xcworkspace)\//.test(p) || b === 'Podfile' || b === 'Info.plist' || b === 'Package.swift' || p.endsWith('.swift')) found.add('ios');
    if (b === 'pubspec.yaml') found.add('flutter');
    if (b === 'package.json') packageJsons.push(p);
    if (b === 'index.html' || /\.(tsx|jsx|vue|svelte)$/.test(b)) found.add('web');
  }
  packageJsons = packageJsons.sort((a, b) => a.split('/').length - b.split('/').length).slice(0, 20);
  for (const pj of packageJsons) {
    const text = readPackageJson(pj);
    if (text === null) continue;
    let deps: Record<string, unknown> = {};
    try {
      const j = JSON.parse(text) as { dependencies?: Record<string, unknown>; devDependencies?: Record<string, unknown> };
      deps = { ...(j.dependencies ?? {}), ...(j.devDependencies ?? {}) };
    } catch {
      continue;
    }
    const dir = pj.includes('/') ? pj.slice(0, pj.lastIndexOf('/')) : '.';
    const platform: Platform | undefined =
      'react-native' in deps || 'expo' in deps ? 'react-native' : ['react', 'react-dom', 'vue', 'svelte', '@angular/core', 'next', 'vite'].some((d) => d in deps) ? 'web' : undefined;
    if (!platform) continue;
    found.add(platform);
    packages.set(platform, [...(packages.get(platform) ?? []), dir]);
  }
  // A React Native app's .tsx files are not a separate web app; a package.json of its own that is a web app is.
  if (found.has('react-native') && !packages.has('web') && !paths.some((p) => base(p) === 'index.html' && !p.split('/').includes('node_modules'))) found.delete('web');
  return { platforms: PLATFORMS.filter((p) => found.has(p)), packages };
}

/** "react-native (apps/mobile), web (apps/web)": each platform, with its package folders when they are not the root. */
export function describePlatforms(detail: PlatformDetail): string {
  if (detail.platforms.length === 0) return 'no platform detected';
  return detail.platforms
    .map((p) => {
      const dirs = (detail.packages.get(p) ?? []).filter((d) => d !== '.');
      return dirs.length ? `${p} (${dirs.join(', ')})` : p;
    })
    .join(', ');
}

/** detectPlatformDetail of the repository (or plain folder) at `dir`, from its tree listing. Throws GitError when git fails. */
export async function detectPlatformsAt(dir: string): Promise<PlatformDetail> {
  const ws = await treeWorkspace(dir, 'all');
  const paths = await ws.allPaths();
  return detectPlatformDetail(paths, (p) => {
    try {
      return readFileSync(fsPath(ws.root, p), 'utf8');
    } catch {
      return null;
    }
  });
}
