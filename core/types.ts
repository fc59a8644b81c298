// The contract between loopgates' core and its gates, as defined in ../shared/DESIGN.md ("Words", "A gate is one object").
// Every gate, the runner, the self-test engine and the mutation engine speak only these types.
import type { z } from 'zod';

/** Severity of a finding. Only `error` findings turn a verdict to `fail`; warnings are reported and counted. */
export type Severity = 'error' | 'warning';

/**
 * One thing a gate found. Lines and columns are 1-based (column counts UTF-16 code units, as editors do).
 * `file` is repository-relative with `/` separators. `message` never contains a secret value.
 * `fingerprint` is a stable sha256 hex of gate, rule, file and the finding's normalised subject (not its line),
 * so a finding keeps its identity when lines move.
 */
export interface Finding {
  gate: string;
  rule: string;
  file: string;
  line: number;
  column: number;
  message: string;
  severity: Severity;
  fingerprint: string;
  /**
   * What a summary finding stands for, when it stands for several things (the keys a translation lacks, the locales a
   * base key is missing in): a staged commit's summary is pre-existing only when HEAD's summary of the same
   * fingerprint names every one of them (core/introduced.ts). Never reported: the runner makes it non-enumerable.
   */
  members?: readonly string[];
}

/**
 * DESIGN.md "verdict": `pass` (inputs > 0, no error findings) · `fail` (error findings) · `skip` (nothing staged that
 * this gate reads) · `vacuous` (should have read something, read nothing) · `error` (gate or tool could not run).
 * Only `pass` and `skip` let a commit through.
 */
export type Verdict = 'pass' | 'fail' | 'skip' | 'vacuous' | 'error';

/** Counts carried by every verdict ("scanned 41 files, 1,204 strings, 3 filtered by allow-list, 2 findings"). */
export interface Counts {
  /** Input files the gate read. */
  files: number;
  /** Items judged inside those files (strings, keys, flows, commits...); the gate names the unit in `itemUnit`. */
  items: number;
  /** Candidates removed by allow-lists, excludes or filters from config. */
  filtered: number;
  /** Candidates removed by inline suppressions (which carry a reason). */
  suppressed: number;
  /** Findings of any severity. */
  findings: number;
}

/** DESIGN.md "the four answers": every gate and loop declares them as data; a gate lacking one is refused at load. */
export interface LoopAnswers {
  /** What runs. */
  runs: string;
  /** What it reads to decide. */
  reads: string;
  /** What ends it: the pass condition and the bound. */
  ends: string;
  /** When it stops and asks a human; `never` means red is the answer. */
  asks: string;
}

/**
 * What a staged commit is judged by (loopgates.yaml `staged:`, global and per gate; core/introduced.ts):
 * - `introduced` (default): the findings the commit brings, i.e. those HEAD's judgement of the same inputs lacks
 *   (matched by fingerprint, as a multiset).
 * - `touched`: those, and every finding in a file the commit changes.
 * - `all`: every finding, as `run --all` would judge those inputs.
 */
export type StagedPolicy = 'introduced' | 'touched' | 'all';

/** The policies, in the order the schema and the docs list them. */
export const STAGED_POLICIES: readonly StagedPolicy[] = ['introduced', 'touched', 'all'];

/** Which snapshot a run judges. `staged`: the index; `all`: every file of the tree; `files`: named files of the tree. */
export type Mode = 'staged' | 'all' | 'files';

/**
 * Where a workspace's bytes come from. Gates that shell out (gitleaks, command gates) need to know:
 * - `index`: the real git index of `root`; `env` holds GIT_DIR / GIT_INDEX_FILE etc. to pass to child processes
 *   unchanged (a commit with `-a` or `-- path` uses a temporary index named by GIT_INDEX_FILE).
 * - `tree`: the working tree at `root` (read-only for loopgates).
 * - `memory`: an in-memory overlay (self-test case or mutation); nothing on disk matches it, so a gate that shells
 *   out must materialise `targets()` into a scratch directory or scratch index of its own, under the OS temp dir.
 */
export type Backing =
  | { kind: 'index'; root: string; env: Readonly<Record<string, string>> }
  | { kind: 'tree'; root: string }
  | { kind: 'memory'; root: string };

/**
 * The only way a gate reads files. Paths are repository-relative, `/`-separated, never starting with `./`.
 * Implementations: core/workspace.ts (index snapshot, tree, in-memory overlay).
 */
export interface Workspace {
  readonly mode: Mode;
  /** Absolute path of the repository's top level (or of the scanned directory outside git). */
  readonly root: string;
  readonly backing: Backing;
  /**
   * The paths this run judges, sorted: in `staged` mode the added/copied/modified/renamed paths of the index
   * (deletions excluded); in `all` mode every tracked and untracked-not-ignored file; in `files` mode the named files.
   */
  targets(): Promise<readonly string[]>;
  /** Every path visible in the snapshot (for context such as a base catalog that is not staged), sorted. */
  allPaths(): Promise<readonly string[]>;
  /** Bytes of `path` in the snapshot. Throws `WorkspaceError` when the path is absent. */
  read(path: string): Promise<Buffer>;
  /** `read` decoded as UTF-8 (a UTF-8 BOM is kept; UTF-16 files are for the gate to decode from `read`). */
  readText(path: string): Promise<string>;
  /** Whether `path` exists in the snapshot. */
  has(path: string): Promise<boolean>;
  /**
   * Staged mode: the paths the index deletes relative to HEAD (a rename is a deletion plus an addition), sorted.
   * A deletion is not a target (nothing is left to read) but can break files that stay: an Android translation whose
   * default in `values/` is gone. Undefined on workspaces that do not track deletions (--all, --files).
   */
  deletions?(): Promise<readonly string[]>;
  /**
   * Staged mode: the bytes HEAD holds at `path` when the index modifies or deletes it (what the commit changes away
   * from); undefined for a path the commit adds or leaves unchanged. Undefined on workspaces without a HEAD side.
   * Throws GitError when git cannot read the blob.
   */
  before?(path: string): Promise<Buffer | undefined>;
  /**
   * Symbolic links among what the run judges (staged: links the index adds or changes; --all / --files: the tree's
   * links in scope), sorted. They are not targets (their content is a path, not a file a gate parses), but the secrets
   * gate scans that path text as gitleaks does: `read(path)` gives it. Undefined where links are not tracked.
   */
  links?(): Promise<readonly string[]>;
}

/** Result of one external process run through core/tools.ts. `exitCode` is null when killed by a signal. */
export interface ToolResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /**
   * The output's bytes, where the runner kept them (core/tools.ts on POSIX): `stdout`/`stderr` are UTF-8 with U+FFFD,
   * which cannot name a file whose name is not UTF-8; a reader of paths decodes these with core/paths.ts decodePath.
   */
  bytes?: { stdout: Buffer; stderr: Buffer };
  timedOut: boolean;
  durationMs: number;
}

/** Options for one external process. Arguments are always an array, never a shell string. */
export interface ToolOptions {
  cwd: string;
  env?: Readonly<Record<string, string | undefined>>;
  /** Replace the environment instead of extending process.env. */
  extendEnv?: boolean;
  /** Kill after this many ms; the result then has `timedOut: true`. */
  timeoutMs: number;
  input?: string | Buffer;
  signal?: AbortSignal;
}

/** The one tool runner (DESIGN.md "two process boundaries only"). ENOENT becomes `ToolMissingError`. */
export type RunTool = (file: string, args: readonly string[], options: ToolOptions) => Promise<ToolResult>;

/** What a gate's `run` receives. `config` is the gate's own section of loopgates.yaml, validated and defaulted. */
export interface GateContext<C = unknown> {
  ws: Workspace;
  config: C;
  /** Aborted on timeout or Ctrl-C; long work should check it. */
  signal: AbortSignal;
  runTool: RunTool;
  /** A directory the gate may write cache files to (git-ignored `.loopgates/cache/<gate>` or a temp dir). */
  cacheDir: string;
  /** Progress / diagnostic line for verbose output (never a secret). */
  log(message: string): void;
}

/** What a gate's `run` returns; the runner derives the verdict from it (see core/runner.ts). */
export interface GateOutput {
  /** Findings; `gate` and `fingerprint` may be left empty: the runner fills them. */
  findings: Array<Omit<Finding, 'gate' | 'fingerprint'> & Partial<Pick<Finding, 'gate' | 'fingerprint'>>>;
  counts: Partial<Counts>;
  /** Unit for `counts.items` in the report: "strings", "keys", "commits"... */
  itemUnit?: string;
  /**
   * Warnings about the gate's own blindness, printed with the verdict: e.g. "allow-list entry `.*` removed every
   * candidate (14 of 14)". DESIGN.md: a filter that drops every candidate is itself a warning.
   */
  notes?: string[];
  /** Facts about what the gate read that no verdict depends on ("771 catalog keys … were looked up"): printed as notes. */
  info?: string[];
  /**
   * Set when the gate could not prove it looked (scanner canary not reported, tool error): the verdict becomes
   * `error` whatever the findings say. `fix` is the one command or step that repairs it.
   */
  error?: { message: string; fix: string };
  /**
   * Staged mode: set (the reason) when the gate read nothing because every input is one the repository's committed
   * configuration of its tool exempts (secrets: a `.gitleaks.toml` HEAD holds, `[allowlist] paths`). With no file read
   * and no finding the verdict is then `skip` (nothing the gate must judge), not `vacuous`; never `pass`.
   */
  skip?: string;
  /**
   * Staged mode: error findings the gate did not report only because an exemption the change itself stages waves them
   * through (secrets: a .gitleaksignore entry or a gitleaks:allow comment the commit adds), one `file:line rule, by …`
   * each, never a value. The hook refuses such a commit as a narrowing unless LOOPGATES_ALLOW_DISABLE names the gate
   * (commands/hook.ts refuseOwnWaivers); `run` only reports them.
   */
  waived?: string[];
}

/** One shipped self-test case (DESIGN.md "self-test"), run in an in-memory workspace by mutations/selftest.ts. */
export interface SelfTestCase {
  name: string;
  /** `green`: must pass having read at least one input. `red`: must fail with a finding at `expect`. */
  kind: 'green' | 'red';
  /** Repository-relative path -> content of the scratch workspace. */
  files: Readonly<Record<string, string>>;
  /** Which paths are staged/targets; default: every path in `files`. */
  targets?: readonly string[];
  /** Gate config to use; default: the gate's defaults (the schema's parse of `{}`). */
  config?: unknown;
  /** Red cases: the injected spot. `rule` when given must match the finding's rule. Lines are 1-based. */
  expect?: { file: string; line: number; rule?: string };
  /** Red cases: what to do when the gate fails elsewhere than `expect` (appended to the `wrong` detail). */
  wrongHint?: string;
}

/** A defect injected into one real input by a mutation operator. */
export interface Mutant {
  /** The file's whole content with the defect injected. */
  content: string;
  /** 1-based line of the injected defect in `content`. */
  line: number;
  /** Rule id the gate is expected to report there, when the operator knows it. */
  rule?: string;
  /** Human description: "deleted %1$s from key `episode_count`". */
  description: string;
}

/** DESIGN.md "mutation": injects a gate's target defect into a real input the gate's configuration selects. */
export interface MutationOperator<F = unknown> {
  id: string;
  description: string;
  /** Whether the operator can try this repository-relative path. */
  appliesTo(path: string): boolean;
  /**
   * Optional: what the gate's own reading of the repository says about `path` that the operator needs to choose only
   * places the gate, by its documented policy, must call a defect (string-parity: which lines hold translations that
   * have a base entry, and which plural categories the locale's CLDR rules require under the gate's config).
   * Called by the mutation engine before `mutate`, with the gate's config and the unmutated workspace; may read
   * through `ctx.ws`. Policy data only, never the gate's verdict: an operator that asked the checks where they fire
   * would prove nothing. Throwing makes the mutant an `error`.
   */
  facts?(ctx: GateContext<any>, path: string): Promise<F>;
  /**
   * Make one mutant of `content` (the file at `path`), or null when this input offers no place for the defect.
   * `random` returns uniform [0, 1) from a seeded generator so runs are reproducible. `facts` is what `facts()`
   * returned, when the operator has it. Pure: must not read files.
   */
  mutate(path: string, content: string, random: () => number, facts?: F): Mutant | null;
}

/**
 * The keys of a gate's config that filter, declared by the gate (the engines never guess from key names). Each entry
 * is a dotted path into the validated config (`allow`, `attributes.android`) naming an array.
 * - `candidates`: entries that remove candidates or findings (allow-lists, baselines, ignore lists). `mutate` re-runs a
 *   survived mutant with one entry removed at a time to name the entry that swallowed it.
 * - `inputs`: entries that remove input files (exclude globs); tried after `candidates`.
 * - `includes`: entries that select input files (include globs); named when a mutated file was never read.
 */
export interface GateFilters {
  candidates?: readonly string[];
  inputs?: readonly string[];
  includes?: readonly string[];
}

/**
 * A gate (DESIGN.md "A gate is one object"). Registered with one line in gates/registry.ts. Gates read files only
 * through `ctx.ws` so the engines can overlay injected defects. The rules every gate meets (test/unit/
 * gate-contract.test.ts checks each, for every registered gate and a command gate built from config):
 * - **Four answers** (`loop`), none empty; a gate lacking one is refused at load.
 * - **Config**: `configSchema` is a strict zod object (unknown keys rejected) and `parse({})` gives the defaults;
 *   the generated JSON Schema (loopgates.schema.json) holds it. Keys that filter are declared in `filters`.
 * - **Zero inputs**: `inputs()` returning `[]` makes the verdict `skip` (staged) or `vacuous` (all / files); the
 *   gate never decides that itself.
 * - **Counts**: `run` reports `counts.files` (files read) and `counts.items` (things judged); the runner fills the
 *   rest. A green run reads at least one file.
 * - **Caught** (self-test and mutate): a red case or a mutant is caught only by an `error` finding at its injected
 *   file and line (and rule, when the case or mutant names one); a finding elsewhere is `wrong`, no finding `missed`.
 *   Each shipped green case passes having read an input; each red case fails, caught at its line.
 * - **Mutate** requires of `mutations`: at least one operator (none is `decoration`); each operator, for each gate,
 *   finds a place in the repository's real inputs or mutate reports `no-coverage` for the gate; the unmutated file
 *   must pass first (an input already red proves nothing and is skipped); `mutate` must be pure (no file reads);
 *   each operator, applied to the gate's own shipped green cases, makes a mutant the gate kills.
 * - **Nothing written**: a gate writes only under `ctx.cacheDir` or a scratch dir under the OS temp dir, never to the
 *   workspace, the working tree or the index.
 * Shared helpers for what two gates do (core/): inputs.ts (include/exclude selection, match-everything refusal, the
 * removed-every-candidate note), finding.ts (fingerprints), suppression.ts (`loopgates-ignore <gate>: <reason>`),
 * tree-sitter.ts (grammars, the walk that keeps comments, suppression comments in source).
 */
export interface Gate<C = unknown> {
  /** Stable id: config key, `--gate` value, finding.gate, LOOPGATES_SKIP entry. Lowercase kebab-case. */
  id: string;
  title: string;
  loop: LoopAnswers;
  /**
   * Strict zod schema of the gate's own options in loopgates.yaml (unknown keys rejected). The core adds the
   * common keys (`enabled`, `timeoutMs`, `allowEmpty`) itself. `schema.parse({})` must give the defaults.
   */
  configSchema: z.ZodType<C, z.ZodTypeDef, unknown>;
  /** The subset of `ctx.ws.targets()` this gate reads. Empty -> `skip` (staged) or `vacuous` (all/files). */
  inputs(ctx: GateContext<C>): Promise<string[]>;
  /** Judge the inputs. Throwing means `error`. Must honour ctx.signal. */
  run(ctx: GateContext<C>, inputs: readonly string[]): Promise<GateOutput>;
  /** Shipped cases; a function so cases with generated credentials are made at run time. */
  selfTest: () => SelfTestCase[] | Promise<SelfTestCase[]>;
  /** Operators for `loopgates mutate`. */
  mutations: readonly MutationOperator[];
  /**
   * Optional, for `loopgates mutate`: the rule ids that can refuse a commit under `config` (error severity). mutate
   * names each one that no mutant of this run targeted (`Mutant.rule`) as not exercised in this repository, so
   * "every mutant killed" is said only of the rules that ran. Absent: mutate lists nothing for the gate.
   */
  refusingRules?(config: C): readonly string[];
  /** The config keys that filter inputs or candidates (see GateFilters); absent: none does. */
  filters?: GateFilters;
  /**
   * Optional: why zero inputs is no blindness under `config` (most repositories commit no screen dump); the reason
   * then acts as `allowEmpty` when loopgates.yaml gives none, so `run --all` skips the gate saying so instead of
   * calling it vacuous. Return undefined where the user's own configuration expects inputs.
   */
  emptyAllowed?(config: C): string | undefined;
  /**
   * Optional, for install and doctor: tracked files shaped like this gate's inputs that its selection under
   * `ctx.config` leaves out (`selected`: its inputs over the whole tree), with the config change that takes them in
   * (`fix` in words; `settings`: the same change as the gate's settings, which install writes into a new
   * loopgates.yaml). Null when there are none. Reads only.
   */
  unselected?(ctx: GateContext<C>, selected: readonly string[]): Promise<{ files: string[]; fix: string; settings?: Record<string, unknown> } | null>;
  /**
   * Optional, for `loopgates mutate`: set when each file is judged on its own (a finding in a file depends only on
   * that file and the config) and one run costs mostly a fixed start-up (a scanner process). The engine may then
   * stage up to this many mutants, each in a different file, as one commit touching those files, in one run. A mutant
   * is killed there only by a finding at its own file and line; any other is judged again alone, and so is the green
   * check of a file unless the same files staged unmutated pass together. Absent: one run per mutant.
   */
  mutationBatch?: number;
  /**
   * Optional: inputs the gate selects but whose content its tool never judges, by a filter of the tool's own
   * configuration (secrets: a team `.gitleaks.toml` `[allowlist] paths` entry), each with the entry that exempts it.
   * `loopgates mutate` injects into one file per entry (before any sampled input) and reports it `survived`,
   * swallowed by that entry; `doctor` names them. Throws as `run` does.
   */
  exemptions?(ctx: GateContext<C>, inputs: readonly string[]): Promise<ReadonlyArray<{ path: string; by: string }>>;
  /**
   * Optional: the globs of the gate's config that choose its inputs as the user wrote them (defaults left out), by
   * config key (`include`, `files`). A glob that matches no tracked file blinds the gate at commit time without a
   * word (a trailing space, a folded YAML scalar, a typo): core/blind.ts names it on every run, in doctor and selftest.
   */
  selects?(config: C): ReadonlyArray<{ key: string; globs: readonly string[] }>;
  /**
   * Optional: set when a finding in a file depends only on that file, the config and the repository's catalogs, not
   * on which other files are inputs (hardcoded-strings). The hook's narrowing check (commands/hook-narrowing.ts) then
   * judges a changed config over the tracked tree once in full and, under the staged settings, only the files HEAD's
   * settings found something in.
   */
  findingsPerFile?: boolean;
  /**
   * Optional: set when the gate's staged judgement already covers the change alone (secrets: `gitleaks protect
   * --staged` scans the lines the staged diff adds), so every finding it reports is one the commit brings. The runner
   * then judges no HEAD side for it whatever `staged:` says.
   */
  judgesChangeOnly?: boolean;
  /**
   * Optional, for the stored hook's node-free skip (core/hook-plan.ts): POSIX sh `case` patterns (where `*` matches
   * `/` too) that match at least every staged path, changed or deleted, whose staging could give this gate an input
   * under `config`. An over-approximation is safe (node starts and decides); a path this misses would be a commit the
   * gate never saw. Absent: every path (node starts for every commit while the gate is enabled).
   */
  stagedPatterns?: (config: C) => readonly string[];
  /**
   * Optional, with stagedPatterns: more `case` patterns that only a staged deletion must match, for a gate that a
   * deleted path can give an input that a changed one cannot (maestro-flows: the flows that name a deleted file).
   */
  deletedPatterns?: (config: C) => readonly string[];
}

/** One gate's outcome in one run, as reported and written to the ledger. */
export interface GateResult {
  gate: string;
  title: string;
  verdict: Verdict;
  counts: Counts;
  itemUnit: string;
  findings: Finding[];
  notes: string[];
  /** GateOutput.info: facts, not warnings; absent when the gate gave none. */
  info?: string[];
  /** Why the gate was skipped / vacuous / errored, in words. */
  reason?: string;
  error?: { message: string; fix: string };
  durationMs: number;
  /** Staged runs judged against HEAD (core/introduced.ts): the policy in force and what stayed out of the verdict. */
  staged?: StagedJudgement;
  /** GateOutput.waived: absent when the change waives nothing of its own. */
  waived?: string[];
}

/** How one gate's staged findings were split (GateResult.staged). */
export interface StagedJudgement {
  /** The policy the verdict was derived with (after any fallback). */
  policy: StagedPolicy;
  /** Why `policy` is not the configured one: HEAD's side could not be judged, so every finding counts (`all`). */
  fallback?: string;
  /** Findings left out of the verdict and out of `findings`: already in HEAD (and, under `touched`, outside the files the commit changes). */
  preExisting: { errors: number; warnings: number; files: string[] };
  /** Where HEAD's judgement came from: `cache`, `run`, `none` (no HEAD side was needed, or there is no HEAD). */
  head: 'cache' | 'run' | 'none';
}
