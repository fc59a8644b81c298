// Command gates: the team's own scripts as gates, built from loopgates.yaml `commands:`; the command's exit code
// decides (0 pass, anything else fail), as for any POSIX test program (IEEE Std 1003.1, "exit status").
// Each command gate must prove it can fail: its config names at least one mutation of a real file (`append`,
// `replace`, `delete-line`) or says `selfTest: { waived: <reason> }`, which is printed on every run.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import type { CommandGateKind } from '../../core/config-model.js';
import { LoopgatesError } from '../../core/errors.js';
import { BlobReader, git, lsIndex, splitZ } from '../../core/git.js';
import { redactCredentials } from '../../core/redact.js';
import { normalisePath } from '../../core/workspace.js';
import { decodePath, fsPath, lossyIndex } from '../../core/paths.js';
import { STAGED_POLICIES } from '../../core/types.js';
import type { Gate, GateContext, GateOutput, Mutant, MutationOperator, SelfTestCase, StagedPolicy, ToolResult, Workspace } from '../../core/types.js';
import { materialise, withScratchDir } from '../../mutations/scratch.js';
import { recordCommandGate } from './spec.js';
import { isPackageRunner, linkNodeModules, scriptTokens, toolPathEnv } from './tools.js';
import type { CommandRetrySpec } from '../../scripts/retry/config.js';

const answer = z.string().trim().min(1, 'must say something (one of the four answers: what runs, what it reads, what ends it, when it asks a human)');

/** One mutation of a command gate: exactly one of `append`, `replace`, `delete-line`, applied to `file`. */
export const commandMutationSchema = z
  .object({
    /** Repository-relative path of the real file to mutate. */
    file: z.string().min(1),
    /** Text appended at the end of the file (a newline is added before it when the file lacks one). */
    append: z.string().min(1).optional(),
    /** First occurrence (or a seeded choice among occurrences) of `from` replaced by `to`. */
    replace: z.object({ from: z.string().min(1), to: z.string() }).strict().optional(),
    /** A JavaScript regular expression; one matching line (seeded choice) is deleted. */
    'delete-line': z
      .string()
      .min(1)
      .refine((s) => validRegex(s), { message: 'is not a valid regular expression' })
      .optional(),
    /**
     * What catching this mutant means when the command cannot name the mutated line (a test runner prints the
     * failing test's own file:line): a non-zero exit, and when `pattern` is given, output (stdout + stderr) matching it.
     */
    caught: z
      .object({
        exit: z.literal('nonzero').describe('The command must exit non-zero.'),
        pattern: z
          .string()
          .min(1)
          .refine((s) => validRegex(s), { message: 'is not a valid regular expression' })
          .optional()
          .describe('A JavaScript regular expression (flag m) the output (stdout + stderr) must match as well, so a failure for another reason is no catch.'),
      })
      .strict()
      .optional()
      .describe(
        "What catching this mutant means for a command that cannot name the mutated line (a test runner prints its test file's own file:line): {exit: nonzero} is caught by any non-zero exit, with pattern only when the output matches it. Without caught, the output must name the mutated file:line (or name no file:line at all).",
      ),
  })
  .strict()
  .refine((m) => [m.append, m.replace, m['delete-line']].filter((x) => x !== undefined).length === 1, {
    message: 'give exactly one of append, replace, delete-line',
  });

/** Schema of one command gate in loopgates.yaml `commands:`. */
export const commandGateSchema = z
  .object({
    /** Gate id (lowercase kebab-case): `--gate` value, finding.gate, LOOPGATES_SKIP entry. */
    id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase kebab-case'),
    title: z.string().min(1).optional(),
    /** argv array; never a shell string (run through core/tools.ts without a shell). */
    command: z.array(z.string().min(1)).min(1),
    /** The four answers (DESIGN.md): what runs, what it reads, what ends it, when it asks. */
    loop: z.object({ runs: answer, reads: answer, ends: answer, asks: answer }).strict(),
    /** Globs (picomatch, `dot: true`) of the repository-relative files the command reads. */
    files: z.array(z.string().min(1)).min(1),
    /** Kill the command after this many ms; the verdict is then `error`. */
    timeoutMs: z.number().int().positive().default(60_000),
    /** Reason why selecting zero files in `--all` mode is acceptable. */
    allowEmpty: z.string().min(1).optional(),
    /** What a commit is judged by (introduced, touched, all); default: the global `staged:`, else introduced. */
    staged: z.enum(STAGED_POLICIES as [StagedPolicy, ...StagedPolicy[]]).optional(),
    mutations: z.array(commandMutationSchema).default([]),
    selfTest: z.object({ waived: z.string().trim().min(1, 'a waiver needs a reason') }).strict().optional(),
    /** Re-run a failure that matches one of these flake signatures (rules/flakes.yaml or retry.signatures), at most `max` times. */
    retry: z.object({ signatures: z.array(z.string().min(1)).min(1), max: z.number().int().min(1).max(3).default(1) }).strict().optional(),
  })
  .strict()
  .superRefine((spec, ctx) => {
    if (spec.mutations.length === 0 && !spec.selfTest) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['mutations'],
        message: 'a command gate needs at least one mutation (file + append / replace / delete-line) to prove it can fail, or `selfTest: { waived: "<reason>" }`',
      });
    }
    for (const [i, m] of spec.mutations.entries()) {
      if (!spec.files.some((g) => picomatch.isMatch(normalisePath(m.file), g, { dot: true }))) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['mutations', i, 'file'], message: `${m.file} is not matched by files: the command would never read the mutated file` });
      }
    }
  });

/** Schema of loopgates.yaml `commands:` (a list of command gate specs, ids unique). */
export const commandGatesSchema = z
  .array(commandGateSchema)
  .default([])
  .superRefine((specs, ctx) => {
    const seen = new Set<string>();
    for (const [i, s] of specs.entries()) {
      if (seen.has(s.id)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [i, 'id'], message: `duplicate command gate id ${s.id}` });
      seen.add(s.id);
    }
  });

export type CommandGateSpec = z.output<typeof commandGateSchema>;
export type CommandMutationSpec = z.output<typeof commandMutationSchema>;

/** Rule id of every command gate finding. */
export const commandRule = 'command';

export { commandSpecOf, selfTestWaiver } from './spec.js';
import { commandSpecOf } from './spec.js';

/**
 * Mutants made by command gate operators, by sha256 of (gate, file, mutated content) -> 1-based line.
 * A command can only answer with its exit code; when it prints no `file:line`, the gate places its finding where
 * its own operator injected the defect — the one place it can honestly name (bounded to keep memory flat).
 */
const injected = new Map<string, { line: number; caught?: CaughtSpec }>();
type CaughtSpec = NonNullable<CommandMutationSpec['caught']>;
const injectedKey = (gate: string, file: string, content: string | Buffer) => createHash('sha256').update(`${gate}\0${file}\0`).update(content).digest('hex');

/** Options of `buildCommandGates`. */
export interface BuildCommandGatesOptions {
  /** Repository top level, where self-test cases read the real files to mutate. Default: process.cwd(). */
  root?: string;
}

/**
 * Build one Gate per command spec (already validated by `commandGatesSchema`). The gate's own config schema is
 * empty: everything comes from the spec. Throws nothing; problems show as `error` verdicts at run time.
 */
export function buildCommandGates(list: z.infer<typeof commandGatesSchema>, options: BuildCommandGatesOptions = {}): Gate<any>[] {
  return list.map((spec) => buildCommandGate(spec, options));
}

/**
 * A `case` pattern matching at least what picomatch glob `glob` matches: runs of `*` become one `*` (which matches
 * `/` in sh, so `**` and `*` both widen); `?` matches any character there too. Any other glob syntax (braces,
 * classes, extglobs, negation, escapes) gives `*`: every path, node decides. test/unit/hook-plan-patterns.test.ts
 * checks the superset against picomatch.
 */
export function globToCase(glob: string): string {
  if (!/^[A-Za-z0-9._/*?@%+=,:~-]+$/.test(glob)) return '*';
  // `**/` and `/**` may stand for no folder at all (`**/res/*.xml` matches `res/a.xml`): they lose their slash.
  return glob.replace(/\*\*\//g, '*').replace(/\/\*\*/g, '*').replace(/\*+/g, '*');
}

function buildCommandGate(spec: CommandGateSpec, options: BuildCommandGatesOptions): Gate<Record<string, never>> {
  const matchers = spec.files.map((g) => picomatch(g, { dot: true }));
  const reads = (p: string) => matchers.some((m) => m(p));
  const mutations = spec.mutations.map((m, i) => operatorFor(spec.id, m, i));
  const waiver = spec.selfTest?.waived;
  const gate: Gate<Record<string, never>> = {
    id: spec.id,
    title: spec.title ?? `command: ${spec.command.join(' ')}`,
    loop: spec.loop,
    configSchema: z.object({}).strict() as z.ZodType<Record<string, never>, z.ZodTypeDef, unknown>,
    inputs: async (ctx) => (await ctx.ws.targets()).filter(reads),
    selects: () => [{ key: 'files', globs: spec.files }],
    stagedPatterns: () => spec.files.map(globToCase),
    run: (ctx, inputs) => runCommand(spec, ctx, inputs, reads, waiver, options.root),
    selfTest: () => (waiver ? [] : commandSelfTest(spec, mutations, reads, options.root ?? process.cwd())),
    mutations,
    // The gate's config as the engines see it is its spec: `files` selects what the command reads.
    filters: { includes: ['files'] },
  };
  recordCommandGate(gate, spec, waiver);
  return gate;
}

/**
 * Paths of `ws` the command needs on disk: every file its globs select plus argv entries that name a file in it.
 * A package manager also reads every package.json (the script, a monorepo's `workspaces`) and the files the scripts
 * name (`node scripts/lint.mjs`), from the same snapshot.
 */
async function neededPaths(ws: Workspace, spec: CommandGateSpec, reads: (p: string) => boolean): Promise<string[]> {
  const all = await ws.allPaths();
  const set = new Set(all.filter(reads));
  for (const arg of spec.command) {
    const p = normalisePath(arg);
    if (!isAbsolute(p) && (await ws.has(p))) set.add(p);
  }
  if (isPackageRunner(spec.command[0]!)) for (const p of await packagePaths(all, (p) => ws.readText(p))) set.add(p);
  return [...set].sort();
}

/** Every package.json among `all` (outside node_modules) and the files their scripts name that are among `all`. */
async function packagePaths(all: readonly string[], readText: (p: string) => Promise<string>): Promise<string[]> {
  const have = new Set(all);
  const out: string[] = [];
  for (const pkg of all.filter((p) => (p === 'package.json' || p.endsWith('/package.json')) && !p.split('/').includes('node_modules'))) {
    out.push(pkg);
    const dir = pkg.slice(0, pkg.lastIndexOf('/') + 1);
    let text: string;
    try {
      text = await readText(pkg);
    } catch {
      continue;
    }
    for (const t of scriptTokens(text)) if (!isAbsolute(t) && have.has(normalisePath(dir + t))) out.push(normalisePath(dir + t));
  }
  return out;
}

async function runCommand(
  spec: CommandGateSpec,
  ctx: GateContext<Record<string, never>>,
  inputs: readonly string[],
  reads: (p: string) => boolean,
  waiver: string | undefined,
  builtRoot: string | undefined,
): Promise<GateOutput> {
  const notes = waiver ? [`self-test waived: ${waiver}`] : [];
  const [file, ...args] = spec.command as [string, ...string[]];
  // Where the repository's tools are: a self-test case's in-memory workspace has no root of its own.
  const toolsRoot = ctx.ws.backing.kind === 'memory' ? (builtRoot ?? ctx.ws.root) : ctx.ws.root;
  const exec = async (cwd: string) => {
    // The index backing's env (GIT_INDEX_FILE...) is passed on only when the command runs in the real tree.
    const env = {
      LOOPGATES_GATE: spec.id,
      ...toolPathEnv(toolsRoot, process.env),
      ...(ctx.ws.backing.kind === 'index' && cwd === ctx.ws.root ? ctx.ws.backing.env : {}),
    };
    const once = () => ctx.runTool(file, args, { cwd, env, timeoutMs: spec.timeoutMs, signal: ctx.signal });
    // Loaded only for a gate with a retry: block; the same rule as `loopgates retry` (scripts/retry/). Attempts of a
    // real run (not a self-test case's in-memory workspace) go to the shared ledger, where the anti-loop bounds of
    // `loopgates retry` count them.
    let result: ToolResult;
    if (spec.retry) {
      const [{ withFlakeRetry }, { retryLedgerWriter }] = await Promise.all([import('../../scripts/retry/gate.js'), import('../../scripts/retry/memory.js')]);
      const ledger = ctx.ws.backing.kind === 'memory' ? undefined : { argv: spec.command, record: await retryLedgerWriter(ctx.ws.root, process.env, (m) => notes.push(m)) };
      result = await withFlakeRetry(spec.retry as CommandRetrySpec, once, notes, ledger);
    } else result = await once();
    return { cwd, result };
  };
  // The working tree is the snapshot only for `tree` backing; staged content and in-memory overlays are written to a
  // scratch directory so the command judges exactly the bytes loopgates judges.
  const { cwd, result, located } =
    ctx.ws.backing.kind === 'tree'
      ? { ...(await exec(ctx.ws.root)), located: [] as Spot[] }
      : await withScratchDir(`cmd-${spec.id}`, async (dir) => {
          const paths = await neededPaths(ctx.ws, spec, reads);
          await materialise(ctx.ws, paths, dir);
          linkNodeModules(toolsRoot, dir, paths);
          const r = await exec(dir);
          return { ...r, located: ctx.ws.backing.kind === 'memory' ? await injectedSpots(spec.id, ctx.ws, inputs) : [] };
        });
  const counts = { files: inputs.length, items: 1 };
  const tail = lastLines(`${result.stdout}\n${result.stderr}`, 3);
  if (result.timedOut) {
    return { findings: [], counts, notes, error: { message: `${spec.id} did not finish within ${spec.timeoutMs} ms`, fix: `raise commands[id=${spec.id}].timeoutMs in loopgates.yaml, or run the command by hand: ${spec.command.join(' ')}` } };
  }
  if (result.exitCode === null) {
    return { findings: [], counts, notes, error: { message: `${spec.id}: ${spec.command.join(' ')} was killed by a signal`, fix: `run the command by hand: ${spec.command.join(' ')}` } };
  }
  if (result.exitCode === 0) return { findings: [], counts, notes, itemUnit: 'command run' };
  const message = `${spec.command.join(' ')} exited ${result.exitCode}${tail ? `: ${tail}` : ''}`;
  const output = `${result.stdout}\n${result.stderr}`;
  // Paths are read from the output's bytes (core/paths.ts), so a name that is not UTF-8 is placed at its file; the
  // UTF-8 text (U+FFFD for such bytes) is what the message shows.
  const pathText = result.bytes ? `${decodePath(result.bytes.stdout)}\n${decodePath(result.bytes.stderr)}` : output;
  const parsed = parseLocations(pathText, cwd, new Set(await ctx.ws.allPaths()), scriptFolders(spec.command));
  // A mutant whose mutation says `caught:` is caught where it was injected by the exit (and pattern) alone; one
  // without it only when the command names no file:line of its own.
  const caught = located.filter((s) => s.caught && caughtBy(s.caught, output));
  const spots: Spot[] = [...(parsed.length > 0 ? parsed : located.filter((s) => !s.caught)), ...caught.filter((c) => !parsed.some((p) => p.file === c.file && p.line === c.line))];
  const findings =
    spots.length > 0
      ? spots.map((s) => ({ rule: commandRule, file: s.file, line: s.line, column: 1, message: s.caught ? `${message} (caught: ${caughtText(s.caught)})` : message, severity: 'error' as const }))
      : [{ rule: commandRule, file: inputs[0] ?? 'loopgates.yaml', line: 1, column: 1, message: `${message} (the command named no file:line)`, severity: 'error' as const }];
  return { findings, counts, notes, itemUnit: 'command run' };
}

/** Spots where this gate's own operators injected a defect into one of `inputs` (memory backing only). */
async function injectedSpots(id: string, ws: Workspace, inputs: readonly string[]): Promise<Spot[]> {
  const out: Spot[] = [];
  for (const p of inputs) {
    const spot = injected.get(injectedKey(id, p, await ws.read(p)));
    if (spot !== undefined) out.push({ file: p, ...spot });
  }
  return out;
}

type Spot = { file: string; line: number; caught?: CaughtSpec };

/** `exit nonzero` or `exit nonzero, output matches /p/`. */
function caughtText(caught: CaughtSpec): string {
  return `exit nonzero${caught.pattern === undefined ? '' : `, output matches /${caught.pattern}/`}`;
}

/** Whether a non-zero exit with `output` is the catch `caught` describes. */
function caughtBy(caught: CaughtSpec, output: string): boolean {
  return caught.pattern === undefined || new RegExp(caught.pattern, 'm').test(output);
}

/**
 * The folders a package manager runs a script in, from its argv: `-w/--workspace` (npm), `--prefix` (npm), `--cwd`
 * (yarn), `-C/--dir` (pnpm), as given (repository-relative).
 */
export function scriptFolders(argv: readonly string[]): string[] {
  if (!isPackageRunner(argv[0] ?? '')) return [];
  const out: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = /^--(?:workspace|prefix|cwd|dir)=(.+)$/.exec(a);
    if (eq) out.push(eq[1]!);
    else if (/^(?:-w|--workspace|--prefix|--cwd|-C|--dir)$/.test(a) && argv[i + 1]) out.push(argv[++i]!);
  }
  return out.filter((f) => !isAbsolute(f));
}

/**
 * `path:line` or `path:line:column` locations in a command's output (the GNU "file:line:" convention of compilers,
 * grep -n, eslint --format unix), kept when `path` (relative to `cwd`, or absolute under it) is a workspace path.
 * At most 50.
 */
export function parseLocations(output: string, cwd: string, known: ReadonlySet<string>, folders: readonly string[] = []): Array<{ file: string; line: number }> {
  const out: Array<{ file: string; line: number }> = [];
  const seen = new Set<string>();
  // Output decoded with U+FFFD (a runner that kept no bytes) names a non-UTF-8 path by its lossy form.
  let lossy: Map<string, string> | undefined;
  for (const m of output.matchAll(/(?:^|[\s'"(])((?:[A-Za-z]:)?[^\s:'"()]+):(\d+)(?::\d+)?/gm)) {
    let p = m[1]!;
    const absolute = isAbsolute(p);
    if (absolute) p = relative(resolve(cwd), p);
    p = normalisePath(p);
    // A package manager running in a workspace folder (`npm run lint -w packages/app`) prints paths relative to it.
    if (!known.has(p) && !absolute) p = folders.map((f) => normalisePath(`${f}/${p}`)).find((q) => known.has(q)) ?? p;
    if (!known.has(p) && p.includes('\ufffd')) p = (lossy ??= lossyIndex(known)).get(p) ?? p;
    const line = Number(m[2]);
    if (!known.has(p) || line < 1) continue;
    const key = `${p}:${line}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ file: p, line });
    if (out.length >= 50) break;
  }
  return out;
}

function lastLines(text: string, n: number): string {
  // Redacted before the cut: the runner redacts the message too, but a token the cut halved has lost its shape.
  return redactCredentials(
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean)
      .slice(-n)
      .join(' | '),
  ).slice(0, 300);
}

/** The operator for one configured mutation; its id says what it does (`append#0`, `replace#1`, `delete-line#2`). */
function operatorFor(gate: string, m: CommandMutationSpec, index: number): MutationOperator {
  const file = normalisePath(m.file);
  const kind = m.append !== undefined ? 'append' : m.replace !== undefined ? 'replace' : 'delete-line';
  return {
    id: `${kind}#${index}`,
    description: describeMutation(m),
    appliesTo: (path) => normalisePath(path) === file,
    mutate: (path, content, random) => {
      const mutant = applyMutation(m, content, random);
      if (mutant) {
        if (injected.size > 10_000) injected.clear();
        injected.set(injectedKey(gate, normalisePath(path), mutant.content), { line: mutant.line, ...(m.caught ? { caught: m.caught } : {}) });
      }
      return mutant;
    },
  };
}

function describeMutation(m: CommandMutationSpec): string {
  if (m.append !== undefined) return `append ${JSON.stringify(m.append.slice(0, 40))} to ${m.file}`;
  if (m.replace !== undefined) return `replace ${JSON.stringify(m.replace.from.slice(0, 30))} with ${JSON.stringify(m.replace.to.slice(0, 30))} in ${m.file}`;
  return `delete a line matching /${m['delete-line']}/ from ${m.file}`;
}

/**
 * Apply one configured mutation to `content`. Returns null when the file offers no place (no `from`, no matching
 * line). `line` is the 1-based first line that differs from the original.
 */
export function applyMutation(m: CommandMutationSpec, content: string, random: () => number): Mutant | null {
  if (m.append !== undefined) {
    const prefix = content === '' || content.endsWith('\n') ? content : `${content}\n`;
    return { content: prefix + m.append, line: countNewlines(prefix) + 1, rule: commandRule, description: describeMutation(m) };
  }
  if (m.replace !== undefined) {
    const spots: number[] = [];
    for (let i = content.indexOf(m.replace.from); i >= 0; i = content.indexOf(m.replace.from, i + 1)) spots.push(i);
    if (spots.length === 0) return null;
    const at = spots[Math.floor(random() * spots.length)]!;
    return {
      content: content.slice(0, at) + m.replace.to + content.slice(at + m.replace.from.length),
      line: countNewlines(content.slice(0, at)) + 1,
      rule: commandRule,
      description: describeMutation(m),
    };
  }
  const re = new RegExp(m['delete-line']!);
  const lines = content.split('\n');
  const hits = lines.flatMap((l, i) => (re.test(l) && !(i === lines.length - 1 && l === '') ? [i] : []));
  if (hits.length === 0) return null;
  const at = hits[Math.floor(random() * hits.length)]!;
  lines.splice(at, 1);
  return { content: lines.join('\n'), line: at + 1, rule: commandRule, description: describeMutation(m) };
}

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

function validRegex(s: string): boolean {
  try {
    new RegExp(s);
    return true;
  } catch {
    return false;
  }
}

/**
 * The paths among `listed` (repository-relative) a command gate and its self-test read: what its `files` globs
 * select, argv entries naming one of them, and for a package manager every package.json and the files their scripts
 * name (`readText` reads a listed path). Sorted. The install proof checks these out in its scratch clone.
 */
export async function commandReadPaths(
  spec: CommandGateSpec,
  listed: readonly string[],
  readText: (p: string) => Promise<string>,
  reads: (p: string) => boolean = ((ms) => (p: string) => ms.some((m) => m(p)))(spec.files.map((g) => picomatch(g, { dot: true }))),
): Promise<string[]> {
  const wanted = new Set(listed.filter(reads));
  const have = new Set(listed);
  for (const arg of spec.command) if (have.has(normalisePath(arg))) wanted.add(normalisePath(arg));
  if (isPackageRunner(spec.command[0]!)) for (const p of await packagePaths(listed, readText)) wanted.add(p);
  return [...wanted].sort();
}

/**
 * Self-test cases of a command gate, made from the repository's real files at `root` (tracked ones as staged, the rest
 * from the working tree): one green case (the files as they are) and one red case per mutation (the same files with
 * the defect injected), each staging only the mutated file. Throws LoopgatesError when a mutation's file is missing
 * or offers no place for the defect.
 */
async function commandSelfTest(spec: CommandGateSpec, operators: readonly MutationOperator[], reads: (p: string) => boolean, root: string): Promise<SelfTestCase[]> {
  const listed = splitZ((await git(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root })).stdout);
  // A tracked file as staged (a commit is judged by the index: an unstaged edit must not make the green case red),
  // an untracked one from the tree.
  const index = new Map((await lsIndex(root)).filter((e) => e.stage === 0 && /^100(644|755)$/.test(e.mode)).map((e) => [e.path, e.oid]));
  const blobs = new BlobReader(root);
  const read = async (p: string) => {
    const oid = index.get(p);
    // By its exact bytes (core/paths.ts): a string path would name no file for a name that is not UTF-8.
    return oid ? (await blobs.read(oid)).toString('utf8') : readFile(fsPath(root, p), 'utf8');
  };
  const files: Record<string, string> = {};
  try {
    for (const p of await commandReadPaths(spec, listed, read, reads)) {
      try {
        files[p] = await read(p);
      } catch {
        /* listed but deleted in the tree: not part of what the command can read */
      }
    }
  } finally {
    blobs.close();
  }
  const cases: SelfTestCase[] = [];
  const greenTargets = new Set<string>();
  for (const [i, m] of spec.mutations.entries()) {
    const file = normalisePath(m.file);
    const original = files[file];
    if (original === undefined) {
      throw new LoopgatesError(`command gate ${spec.id}: mutation file ${file} does not exist in ${root}`, `fix commands[id=${spec.id}].mutations[${i}].file in loopgates.yaml`);
    }
    const mutant = operators[i]!.mutate(file, original, () => 0);
    if (!mutant) {
      throw new LoopgatesError(`command gate ${spec.id}: mutation ${i} (${describeMutation(m)}) finds no place in ${file}`, `fix commands[id=${spec.id}].mutations[${i}] in loopgates.yaml`);
    }
    greenTargets.add(file);
    const at = `commands[id=${spec.id}].mutations[${i}]`;
    const wrongHint = m.caught?.pattern
      ? `it exited non-zero, but its output does not match caught.pattern /${m.caught.pattern}/ of ${at}`
      : `a command that names its own file:line (a test runner names its test file) is caught by its exit code: add caught: {exit: nonzero} (optionally pattern: '<regex>') to ${at} in loopgates.yaml`;
    cases.push({ name: `${operators[i]!.id}: ${mutant.description}`, kind: 'red', files: { ...files, [file]: mutant.content }, targets: [file], expect: { file, line: mutant.line, rule: commandRule }, wrongHint });
  }
  cases.unshift({ name: `${spec.id} on the files as they are`, kind: 'green', files, targets: [...greenTargets].sort() });
  return cases;
}

/** The command-gate kind as config loading takes it (core/config-model.ts CommandGateKind). */
export const commandGateKind: CommandGateKind = { schema: commandGatesSchema, build: buildCommandGates as CommandGateKind['build'], specOf: commandSpecOf };
