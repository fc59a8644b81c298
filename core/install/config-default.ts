// The loopgates.yaml install writes when a repository has none: core/config.ts's commented default for the platforms
// detected from the repository's files (core/platform.ts).
import { defaultConfigText } from '../config.js';
import { detectPlatformsAt, type Platform } from '../platform.js';

/** The default config text for the repository at `top` (absolute) and the platforms it was written for. */
export async function defaultConfigFor(top: string): Promise<{ text: string; platforms: Platform[] }> {
  const platforms = await detectPlatformsAt(top);
  return { text: defaultConfigText(platforms), platforms };
}
