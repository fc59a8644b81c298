// The string-parity gate's options in loopgates.yaml (`gates.string-parity`), a strict zod schema:
// `configSchema.parse({})` gives the defaults.
import { z } from 'zod';
import { lazySchema } from '../../core/lazy-schema.js';
import { DEFAULT_EXCLUDE, RULES } from './defaults.js';

const ruleIds = Object.keys(RULES) as [keyof typeof RULES, ...Array<keyof typeof RULES>];

export const configSchema = lazySchema(() =>
  z
    .object({
      include: z.array(z.string()).default([]).describe('Globs (picomatch) of catalog files to check; empty = every catalog found.'),
      exclude: z.array(z.string()).default([...DEFAULT_EXCLUDE]).describe('Globs of paths never read; an entry starting with `!` takes back what an earlier one excluded (the last match decides).'),
      baseLocale: z.string().min(2).optional().describe('Force the base locale of every catalog (else detected per catalog: values/, Base.lproj, sourceLanguage, template-arb-file, sourceLocale, en).'),
      developmentLanguage: z
        .string()
        .min(2)
        .optional()
        .describe('Locale of Base.lproj, and without Base.lproj the locale of the base table (Xcode development language); default: the project.pbxproj developmentRegion, else en.'),
      jsonFormat: z.enum(['auto', 'i18next', 'icu']).default('auto').describe('Flavour of JSON catalogs.'),
      plurals: z
        .enum(['integers', 'cldr', 'off'])
        .default('integers')
        .describe('Required plural categories: `integers` = other + each CLDR category an integer count below 1,000,000 selects; `cldr` = every CLDR cardinal category; `off`.'),
      pseudoLocales: z
        .array(z.string())
        .default(['lol', 'tlh', 'qps', 'en-XA', 'ar-XB'])
        .describe('Pseudo-locales (tag or language): placeholders are checked, plural rules are the base locale\'s (en-XA/ar-XB keep their language\'s).'),
      localeAliases: z.record(z.string(), z.string()).default({}).describe('Locale tag -> CLDR locale whose plural rules apply (e.g. `{"sr-SP": "sr"}`).'),
      minCoverage: z.number().min(0).max(100).default(0).describe('Percent of base keys each locale must translate; below it the locale gets a coverage-below-floor finding.'),
      rules: z
        .record(z.enum(ruleIds), z.enum(['error', 'warning', 'off']))
        .default({})
        .describe('Severity per rule id, overriding the defaults (e.g. `missing-key: error`).'),
    })
    .strict(),
);

export type StringParityConfig = z.infer<typeof configSchema>;
