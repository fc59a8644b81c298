// loopgates.yaml `device:` (what the device verbs read from the repository rather than the command line), apart from
// the verbs so core/config.ts can validate it without loading adb code.
import { z } from 'zod';

/**
 * An Android application id (developer.android.com/build/configure-app-module#set-application-id): two or more
 * dot-separated segments, each a letter then letters, digits or underscores.
 */
export const applicationIdSchema = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)+$/, 'must be an application id such as com.example.notes (two or more segments, each starting with a letter)');

/** loopgates.yaml `device:`. */
export const deviceSectionSchema = z
  .object({
    package: applicationIdSchema
      .optional()
      .describe("The app's id on the device: `loopgates tap` checks it with pm dump (installed, enabled=) when the expected screen never comes and the app is not in front. --package overrides it."),
  })
  .strict()
  .describe('What the device verbs (tap) take from the repository.');

export type DeviceSection = z.output<typeof deviceSectionSchema>;
