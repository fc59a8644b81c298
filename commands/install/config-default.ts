// The loopgates.yaml install writes when a repository has none: core/config.ts's commented default for the platforms
// detected from the repository's files (core/platform.ts).
import { defaultConfigText } from '../../core/config.js';
import { detectPlatformsAt, type Platform } from '../../core/platform.js';
import { builtinGates } from '../../gates/registry.js';

/** The default config text for the repository at `top` (absolute) and the platforms it was written for. */
export async function defaultConfigFor(top: string): Promise<{ text: string; platforms: Platform[] }> {
  const platforms = await detectPlatformsAt(top);
  return { text: defaultConfigText(platforms, builtinGates), platforms };
}
