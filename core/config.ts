// loopgates.yaml: strict schema, load, every problem at once with its key path and 1-based line (after changesets'
// phased validation: YAML syntax, schema, semantic rules). YAML 1.2 as read by the `yaml` package (eemeli/yaml);
// the JSON Schema for editors (loopgates.schema.json) is generated from the same zod schemas.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit } from 'yaml';
import type { Node } from 'yaml';
import { z } from 'zod';
import { deviceSectionSchema } from '../scripts/device/config.js';
import type { DeviceSection } from '../scripts/device/config.js';
import { flakeSignatureProblems } from '../scripts/retry/config.js';
import { retrySectionSchema } from '../scripts/retry/signatures.js';
import type { RetrySection } from '../scripts/retry/signatures.js';
import { ConfigError, LoopgatesError } from './errors.js';
import type { ConfigProblem } from './errors.js';
import { messages } from './messages.js';
import { ANSWERS, CONFIG_FILE, DEFAULT_TIMEOUT_MS, missingAnswers, refuseIncompleteGates } from './config-model.js';
import type { ConfigOptions, ConfiguredGate, LoadedConfig } from './config-model.js';
import type { Platform } from './platform.js';
import type { GateSettings } from './runner.js';
import { STAGED_POLICIES } from './types.js';
import type { Gate, StagedPolicy } from './types.js';

export { CONFIG_FILE, DEFAULT_TIMEOUT_MS, missingAnswers, refuseIncompleteGates } from './config-model.js';
export type { CommandGateKind, ConfigOptions, ConfiguredGate, GateRegistry, LoadedConfig } from './config-model.js';

/** loopgates.yaml `staged:` (global, and per gate where it overrides the global one). */
export const stagedPolicySchema = z
  .enum(STAGED_POLICIES as [StagedPolicy, ...StagedPolicy[]])
  .describe(
    'What a commit is judged by: introduced (default: the findings it brings, those HEAD lacks), touched (those and every finding in a file it changes) or all (every finding of what it stages, as before).',
  );

/** The keys every gate section accepts besides the gate's own options. */
export const commonShape = {
  staged: stagedPolicySchema.optional(),
  enabled: z.boolean().default(true).describe('Run this gate (default true).'),
  timeoutMs: z.number().int().positive().max(3_600_000).optional().describe(`Per-gate bound in ms (default ${DEFAULT_TIMEOUT_MS}); past it the verdict is error.`),
  allowEmpty: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe('Why zero inputs is acceptable in --all/--files (else zero inputs is vacuous).'),
};

/** The ZodObject inside optional/default/nullable wrappers, or null when the gate's schema is not an object. */
export function objectOf(schema: z.ZodTypeAny): z.AnyZodObject | null {
  let s: z.ZodTypeAny = schema;
  for (;;) {
    if (s instanceof z.ZodObject) return s;
    if (s instanceof z.ZodDefault || s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s._def.innerType as z.ZodTypeAny;
    else return null;
  }
}

/** Parsed gate section: the common keys and the gate's own validated config. */
interface GateSection {
  enabled: boolean;
  staged?: StagedPolicy | undefined;
  timeoutMs?: number | undefined;
  allowEmpty?: string | undefined;
  config: unknown;
}

/**
 * The validating schema of `gates.<id>`: the common keys, then the rest handed to the gate's own schema, whose
 * issues keep their paths. Unknown keys are errors even when the gate's schema is not `.strict()`.
 */
function sectionSchema(gate: Gate<any>): z.ZodType<GateSection, z.ZodTypeDef, unknown> {
  const obj = objectOf(gate.configSchema as z.ZodTypeAny);
  const own: z.ZodTypeAny = obj ? (gate.configSchema as z.ZodTypeAny) : gate.configSchema;
  const ownKeys = obj ? new Set(Object.keys(obj.shape as object)) : null;
  // Common keys are checked inside the transform so a bad `enabled` does not hide the gate's own problems.
  const common = z.object(commonShape).passthrough();
  return z
    .object({})
    .passthrough()
    .transform((v, ctx) => {
      const c = common.safeParse(v);
      if (!c.success) for (const issue of c.error.issues) ctx.addIssue(issue as z.IssueData);
      const { enabled, timeoutMs, allowEmpty, staged, ...rest } = (c.success ? c.data : v) as Record<string, unknown> & { enabled: boolean; timeoutMs?: number; allowEmpty?: string; staged?: StagedPolicy };
      const unknown = ownKeys ? Object.keys(rest).filter((k) => !ownKeys.has(k)) : [];
      if (unknown.length) ctx.addIssue({ code: z.ZodIssueCode.unrecognized_keys, keys: unknown });
      const mine = ownKeys ? Object.fromEntries(Object.entries(rest).filter(([k]) => ownKeys.has(k))) : rest;
      const r = own.safeParse(mine);
      if (!r.success) for (const issue of r.error.issues) ctx.addIssue(issue as z.IssueData);
      if (!c.success || unknown.length || !r.success) return z.NEVER;
      return { enabled, timeoutMs, allowEmpty, staged, config: r.data as unknown };
    });
}

function rootSchema(gates: ReadonlyArray<Gate<any>>, commandsSchema: z.ZodTypeAny) {
  const gateShape: Record<string, z.ZodTypeAny> = {};
  // `toy:` or `gates:` with nothing after it reads as null in YAML; it means "the defaults".
  const orEmpty = (v: unknown) => (v === null ? {} : v);
  for (const g of gates) gateShape[g.id] = z.preprocess(orEmpty, sectionSchema(g)).optional();
  return z
    .object({
      version: z.literal(1, { errorMap: () => ({ message: 'must be 1 (the only config version)' }) }),
      staged: stagedPolicySchema.optional(),
      gates: z.preprocess(orEmpty, z.object(gateShape).strict().default({})),
      commands: commandsSchema,
      retry: z.preprocess(orEmpty, retrySectionSchema).optional(),
      device: z.preprocess(orEmpty, deviceSectionSchema).optional(),
    })
    .strict();
}

/** Dotted key path of a zod issue path: `gates.secrets.timeoutMs`, `commands[0].run`. */
export function keyPath(path: ReadonlyArray<string | number>): string {
  let out = '';
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : out ? `.${seg}` : seg;
  return out;
}

/**
 * The 1-based line of the YAML node at `path` in `contents`, walking as deep as the document goes (a missing key is
 * reported at its parent). A path ending at a map key reports the key's line.
 */
function lineOf(contents: unknown, path: ReadonlyArray<string | number>, lc: LineCounter): number {
  let node: unknown = contents;
  let at: number | undefined = (contents as Node | null)?.range?.[0];
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && (isScalar(p.key) ? String(p.key.value) : String(p.key)) === String(seg));
      if (!pair) break;
      const key = pair.key as Node | null;
      at = key?.range?.[0] ?? at;
      node = pair.value;
      if (node === null) break;
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg] as Node | undefined;
      if (!item) break;
      at = item.range?.[0] ?? at;
      node = item;
    } else break;
  }
  return at === undefined ? 1 : lc.linePos(at).line;
}

function issueMessage(issue: z.ZodIssue, gates: ReadonlyArray<Gate<any>>, key?: string): string {
  if (issue.code === z.ZodIssueCode.unrecognized_keys && key !== undefined) {
    if (issue.path.length === 1 && issue.path[0] === 'gates') return messages.unknownGate(key, gates.map((g) => g.id));
    return `unknown key '${key}'`;
  }
  if (issue.code === z.ZodIssueCode.invalid_type && issue.received === 'undefined') return `required (${issue.expected})`;
  if (issue.code === z.ZodIssueCode.invalid_literal && issue.received === undefined) return `required (must be ${JSON.stringify(issue.expected)})`;
  return issue.message;
}

/**
 * Validate the text of a loopgates.yaml. Returns the configured gates. Throws ConfigError carrying every problem
 * (YAML syntax, schema, duplicate ids, a command gate lacking an answer) with its key path and 1-based line;
 * LoopgatesError when a built-in gate lacks one of its four answers (a loopgates bug: refused at load).
 */
export function parseConfig(text: string, file: string, options: ConfigOptions): ConfiguredGate[] {
  return parseConfigFull(text, file, options).gates;
}

/** Phase one of loading: the YAML document, its line counter and its data. Throws ConfigError for YAML problems. */
function readDocument(text: string, file: string): { doc: ReturnType<typeof parseDocument>; lc: LineCounter; data: unknown } {
  const lc = new LineCounter();
  // logLevel error: yaml's own warnings (a list or map used as a key) would print as a raw Node warning; they are
  // reported below as problems with their line instead.
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: true, uniqueKeys: true, logLevel: 'error' });
  const problems: ConfigProblem[] = [];
  for (const e of doc.errors) {
    const first = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    problems.push({ path: '', line: e.linePos?.[0]?.line ?? 0, message: `YAML ${e.code}: ${first}` });
  }
  visit(doc, {
    Pair(_, pair) {
      if (pair.key !== null && !isScalar(pair.key)) {
        const at = (pair.key as Node).range?.[0];
        problems.push({ path: '', line: at === undefined ? 0 : lc.linePos(at).line, message: `a key must be a plain name, not a ${isSeq(pair.key) ? 'list' : 'map'} (check the indentation and the ':' of the line)` });
      }
    },
  });
  if (problems.length) throw new ConfigError(file, sortProblems(problems));
  try {
    return { doc, lc, data: doc.toJS({ maxAliasCount: 100 }) ?? {} };
  } catch (e) {
    throw new ConfigError(file, [{ path: '', line: 1, message: `YAML: ${e instanceof Error ? e.message : String(e)}` }]);
  }
}

/** The top-level sections a loop verb reads (retry, tap) without the gates: what `loadSections` returns. */
export interface ConfigSections {
  file: string;
  found: boolean;
  retry?: RetrySection;
  device?: DeviceSection;
}

/**
 * Validate only `version`, `retry:` and `device:` of a loopgates.yaml (and refuse unknown top-level keys), leaving
 * `gates:`, `commands:` and `staged:` to the verbs that run gates: `loopgates retry` and `tap` read no gate, so they
 * load no gate module. Throws ConfigError with every problem of those sections at its line.
 */
export function parseSections(text: string, file: string): ConfigSections {
  const { doc, lc, data } = readDocument(text, file);
  const orEmpty = (v: unknown) => (v === null ? {} : v);
  const schema = z
    .object({
      version: z.literal(1, { errorMap: () => ({ message: 'must be 1 (the only config version)' }) }),
      staged: z.unknown(),
      gates: z.unknown(),
      commands: z.unknown(),
      retry: z.preprocess(orEmpty, retrySectionSchema).optional(),
      device: z.preprocess(orEmpty, deviceSectionSchema).optional(),
    })
    .strict();
  const parsed = schema.safeParse(data);
  const problems: ConfigProblem[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const keys = issue.code === z.ZodIssueCode.unrecognized_keys ? issue.keys : [undefined];
      for (const k of keys) {
        const path = k === undefined ? issue.path : [...issue.path, k];
        problems.push({ path: keyPath(path), line: lineOf(doc.contents, path, lc), message: issueMessage(issue, [], k) });
      }
    }
    throw new ConfigError(file, sortProblems(problems));
  }
  const retry = parsed.data.retry as RetrySection | undefined;
  for (const p of flakeSignatureProblems(retry, undefined)) problems.push({ path: keyPath(p.path), line: lineOf(doc.contents, p.path, lc), message: p.message });
  if (problems.length) throw new ConfigError(file, sortProblems(problems));
  return { file, found: true, ...(retry ? { retry } : {}), ...(parsed.data.device ? { device: parsed.data.device } : {}) };
}

/** `<root>/loopgates.yaml` through parseSections; no file: `found: false` and no section. */
export function loadSections(root: string): ConfigSections {
  const file = join(root, CONFIG_FILE);
  if (!existsSync(file)) return { file, found: false };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(file, [{ path: '', line: 0, message: `cannot read: ${e instanceof Error ? e.message : String(e)}` }]);
  }
  return parseSections(text, file);
}

/**
 * parseConfig, and the validated `retry:` section (undefined when absent). The section's own signatures are refused
 * here when they would swallow every failure (they match the empty string or an ordinary failure), and every
 * command gate's `retry.signatures` must name a known flake signature; both are problems with their line.
 */
export function parseConfigFull(text: string, file: string, options: ConfigOptions): { gates: ConfiguredGate[]; retry: RetrySection | undefined; device: DeviceSection | undefined } {
  const builtin = options.gates;
  refuseIncompleteGates(builtin);
  const { doc, lc, data } = readDocument(text, file);
  const problems: ConfigProblem[] = [];
  const parsed = rootSchema(builtin, options.commands.schema).safeParse(data);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === z.ZodIssueCode.unrecognized_keys) {
        for (const k of issue.keys) {
          problems.push({ path: keyPath([...issue.path, k]), line: lineOf(doc.contents, [...issue.path, k], lc), message: issueMessage(issue, builtin, k) });
        }
      } else {
        problems.push({ path: keyPath(issue.path), line: lineOf(doc.contents, issue.path, lc), message: issueMessage(issue, builtin) });
      }
    }
  }
  if (problems.length || !parsed.success) throw new ConfigError(file, sortProblems(problems));
  const retry = parsed.data.retry as RetrySection | undefined;
  const device = parsed.data.device as DeviceSection | undefined;
  for (const p of flakeSignatureProblems(retry, parsed.data.commands as never)) problems.push({ path: keyPath(p.path), line: lineOf(doc.contents, p.path, lc), message: p.message });
  if (problems.length) throw new ConfigError(file, sortProblems(problems));
  const result: ConfiguredGate[] = [];
  const sections = parsed.data.gates as Record<string, GateSection | undefined>;
  const globalStaged = parsed.data.staged as StagedPolicy | undefined;
  for (const gate of builtin) {
    let section = sections[gate.id];
    if (!section) {
      const d = sectionSchema(gate).safeParse({});
      if (!d.success) throw new LoopgatesError(`gate '${gate.id}' has no valid defaults: ${d.error.issues.map((i) => i.message).join('; ')}`, 'report this: it is a loopgates bug');
      section = d.data;
    }
    result.push({ gate, enabled: section.enabled, source: 'builtin', settings: settingsOf(gate, section, globalStaged) });
  }
  const specs = (parsed.data.commands ?? []) as unknown[];
  const commandGates = options.commands.build(parsed.data.commands as never);
  commandGates.forEach((gate, i) => {
    const spec = (specs[i] ?? {}) as Record<string, unknown>;
    const missing = missingAnswers(gate);
    if (missing.length) problems.push({ path: keyPath(['commands', i]), line: lineOf(doc.contents, ['commands', i], lc), message: messages.gateMissingAnswers(gate.id, missing) });
    if (result.some((r) => r.gate.id === gate.id)) problems.push({ path: keyPath(['commands', i]), line: lineOf(doc.contents, ['commands', i], lc), message: messages.duplicateGate(gate.id) });
    const section: GateSection = {
      enabled: spec.enabled !== false,
      timeoutMs: typeof spec.timeoutMs === 'number' ? spec.timeoutMs : undefined,
      allowEmpty: typeof spec.allowEmpty === 'string' ? spec.allowEmpty : undefined,
      staged: typeof spec.staged === 'string' ? (spec.staged as StagedPolicy) : undefined,
      config: spec,
    };
    result.push({ gate, enabled: section.enabled, source: 'command', settings: settingsOf(gate, section, globalStaged) });
  });
  if (problems.length) throw new ConfigError(file, sortProblems(problems));
  return { gates: result, retry, device };
}

/** A gate's settings; its `staged:` wins over the global one, which wins over the default `introduced`. */
function settingsOf(gate: Gate<any>, s: GateSection, globalStaged: StagedPolicy | undefined): GateSettings<any> {
  return {
    gate,
    config: s.config,
    timeoutMs: s.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    allowEmpty: s.allowEmpty ?? gate.emptyAllowed?.(s.config),
    staged: s.staged ?? globalStaged ?? 'introduced',
  };
}

function sortProblems(p: ConfigProblem[]): ConfigProblem[] {
  return [...p].sort((a, b) => a.line - b.line || a.path.localeCompare(b.path));
}

/**
 * Load `<root>/loopgates.yaml`. No file: every built-in gate with its defaults (`found: false`, and the run says so).
 * Throws ConfigError (exit 2) with every problem at once; LoopgatesError for a gate lacking an answer.
 */
export function loadConfig(root: string, options: ConfigOptions): LoadedConfig {
  const file = join(root, CONFIG_FILE);
  if (!existsSync(file)) return { file, found: false, gates: parseConfig('version: 1\n', file, options) };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(file, [{ path: '', line: 0, message: `cannot read: ${e instanceof Error ? e.message : String(e)}` }]);
  }
  const full = parseConfigFull(text, file, options);
  return { file, found: true, gates: full.gates, ...(full.retry ? { retry: full.retry } : {}), ...(full.device ? { device: full.device } : {}) };
}

const comment = (text: string, indent = ''): string =>
  text
    .split('\n')
    .map((l) => `${indent}# ${l}`.trimEnd())
    .join('\n');

/** The editor schema where loopgates is a dependency of the repository (install's npm mode). */
export const NPM_SCHEMA_PATH = './node_modules/loopgates/loopgates.schema.json';

/**
 * The commented default loopgates.yaml that `loopgates install` writes: every built-in gate enabled, with its four
 * answers as comments, for the detected `platforms`; a gate in `noInput` (id -> why it has none yet) is written with
 * `allowEmpty: <allowEmpty>` and the reason, so `run --all` skips it saying so until its inputs appear. `schema`: the
 * `$schema` path the first line gives editors, or null for none (no node_modules/loopgates: a path there points
 * nowhere). Always valid for `parseConfig` (a unit test holds it to that).
 */
/** A setting's value as one line of YAML (JSON is YAML): a list as `["a", "b"]`, anything else as JSON. */
export function yamlFlow(v: unknown): string {
  return Array.isArray(v) ? `[${v.map((x) => JSON.stringify(x)).join(', ')}]` : JSON.stringify(v);
}

export function defaultConfigText(
  platforms: readonly Platform[],
  gates: ReadonlyArray<Gate<any>>,
  noInput: ReadonlyMap<string, string> = new Map(),
  allowEmpty = 'no input in this repository yet',
  schema: string | null = NPM_SCHEMA_PATH,
  settings: ReadonlyMap<string, Record<string, unknown>> = new Map(),
): string {
  const lines = [
    ...(schema === null ? [] : [`# yaml-language-server: $schema=${schema}`]),
    '# loopgates.yaml: the gates that guard every commit of this repository (written by loopgates install).',
    `# Detected platforms: ${platforms.length ? platforms.join(', ') : 'none recognised'}.`,
    '# Every gate also accepts: enabled (default true), timeoutMs (default ' + DEFAULT_TIMEOUT_MS + '), and allowEmpty:',
    '# "<reason>" when reading zero files in `loopgates run --all` is fine (else that is a vacuous verdict).',
    '# staged: introduced (a commit is refused for the findings it brings, not for those already in HEAD; the default),',
    '# touched (also every finding in a file it changes) or all (every finding); globally here, or per gate.',
    '# Bypass once, loudly and on the record: LOOPGATES_SKIP=<gate>,... git commit ...',
    '# `loopgates explain` prints what each gate runs, reads, what ends it and when it asks.',
    'version: 1',
    'staged: introduced',
  ];
  if (gates.length === 0) lines.push('gates: {}');
  else {
    lines.push('gates:');
    for (const g of gates) {
      lines.push(comment(`${g.id}: ${g.title}`, '  '));
      for (const k of ANSWERS) lines.push(comment(`  ${k}: ${g.loop[k].replace(/\s+/g, ' ')}`, '  '));
      const none = noInput.get(g.id);
      const own = settings.get(g.id);
      if (own) {
        lines.push(`  ${g.id}:`, comment('loopgates install found inputs outside the default selection; these settings take them in.', '    '), '    enabled: true');
        for (const [k, v] of Object.entries(own)) lines.push(`    ${k}: ${yamlFlow(v)}`);
        lines.push(`    # timeoutMs: ${DEFAULT_TIMEOUT_MS}`);
      } else if (none) {
        lines.push(
          `  ${g.id}:`,
          comment(`loopgates install found ${none}. On all the same: the commit that adds some is judged; until then`, '    '),
          comment('`run --all` skips it for the allowEmpty reason (doctor says when that line can go).', '    '),
          '    enabled: true',
          `    allowEmpty: ${JSON.stringify(allowEmpty)}`,
          `    # timeoutMs: ${DEFAULT_TIMEOUT_MS}`,
        );
      } else lines.push(`  ${g.id}:`, '    enabled: true', `    # timeoutMs: ${DEFAULT_TIMEOUT_MS}`);
    }
  }
  lines.push('# commands: your own scripts as gates; see `loopgates explain` and the README.');
  return `${lines.join('\n')}\n`;
}
