// Every user-facing string of the core verbs (run, hook, explain), the report and the config loader, in one module
// (after lint-staged's messages.js): wording stays consistent and tests can match on it.
import { pathBytes } from './paths.js';
import type { Counts, Mode } from './types.js';

/**
 * Numbers as people read them: 1,204 (en-US grouping, locale-independent output). Safe integers are grouped here:
 * the first toLocaleString call initialises ICU, about 20 ms of CPU on every commit.
 */
export const num = (n: number): string =>
  Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+$)/g, ',') : n.toLocaleString('en-US');

const plural = (n: number, one: string, many = `${one}s`): string => `${num(n)} ${n === 1 ? one : many}`;

/** The counts phrase every verdict line carries: "scanned 41 files, 1,204 strings, 3 filtered, 2 findings". */
export function countsPhrase(c: Counts, itemUnit: string): string {
  const parts = [`scanned ${plural(c.files, 'file')}`];
  // "scanned 660 files, 660 files" says nothing twice.
  // Units are plural nouns ("strings", "staged diffs"): one of them drops the last word's `s`.
  if (c.items > 0 && !(itemUnit === 'files' && c.items === c.files)) parts.push(`${num(c.items)} ${c.items === 1 && itemUnit.endsWith('s') ? itemUnit.slice(0, -1) : itemUnit}`);
  if (c.filtered > 0) parts.push(`${num(c.filtered)} filtered`);
  if (c.suppressed > 0) parts.push(`${num(c.suppressed)} suppressed`);
  parts.push(plural(c.findings, 'finding'));
  return parts.join(', ');
}

/** What a run judged, for the report header. */
export function modeDescription(mode: Mode, targets: number): string {
  if (mode === 'staged') return `staged: ${plural(targets, 'file')} from the index`;
  if (mode === 'all') return `all: ${plural(targets, 'file')} of the tree`;
  return `files: ${plural(targets, 'named file')}`;
}

/** "a", "a or b", "a, b or c". */
export const orList = (xs: readonly string[]): string => (xs.length < 2 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]}`);

/** `s` as one POSIX sh word, for commands printed as fixes: single-quoted, each inner ' written as '\''. */
export const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** `s` as one POSIX sh word: as it is when it holds only characters sh never reads specially, else single-quoted. */
export const shellWord = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : shellQuote(s));

/**
 * `printf '<line>\n' >> <file>`: a POSIX sh command that appends `line` to `file` byte for byte, whatever it holds (a
 * path that is not UTF-8, as core/paths.ts decodePath keeps it; a quote, `%`, `\`, `$`, a space). Every byte but
 * printable ASCII other than `'`, `\` and `%` is written as printf's octal escape `\ooo` (POSIX printf, format
 * operand), so no shell quoting or locale decides what lands in the file.
 */
export function appendLineCommand(line: string, file: string): string {
  let fmt = '';
  for (const b of pathBytes(line)) fmt += b >= 0x20 && b < 0x7f && b !== 0x27 && b !== 0x5c && b !== 0x25 ? String.fromCharCode(b) : `\\${b.toString(8).padStart(3, '0')}`;
  return `printf '${fmt}\\n' >> ${shellWord(file)}`;
}

/** A process killed by these signals exits, as a shell reports it, with 128 + the signal's number. */
const SIGNAL_EXIT: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143 };

export const messages = {
  // Verdict reasons (core/runner.ts).
  skipNothingStaged: (targets: number) => `no files for inspection (${targets} staged, none read by this gate)`,
  skipNoNamedFile: (targets: number) => `no files for inspection (${targets} named, none read by this gate)`,
  filesNothingRead: 'no gate reads any of the named files: nothing was checked',
  filesNothingReadFix: 'name files a gate reads (loopgates explain lists what each gate reads), or use: loopgates run --all',
  disabledGate: (id: string) => `${id} is disabled in loopgates.yaml (gates.${id}.enabled: false): it did not run`,
  configNotStaged: (file: string) => `${file} differs from the staged one: the commit would be judged by a configuration it does not contain`,
  configNotStagedFix: (file: string) => `stage it (git add ${file}) or set the change aside (git stash push -- ${file}), then commit again`,
  skipAllowEmpty: (why: string) => `no inputs; allowed by allowEmpty: ${why}`,
  /** run --all's skip (and install/doctor) when Gate.unselected names files: allowEmpty's reason would not be true. */
  skipUnselected: (files: readonly string[]) => `no inputs: ${messages.unselected(files)}`,
  /** `21 tracked files look like its inputs but its selection leaves them out (a.yml, b.yml, …): commits to them are never judged`. */
  unselected: (f: readonly string[]) =>
    `${f.length} tracked file${f.length === 1 ? '' : 's'} look${f.length === 1 ? 's' : ''} like its inputs but its selection leaves ${f.length === 1 ? 'it' : 'them'} out (${f.slice(0, 3).join(', ')}${f.length > 3 ? ', …' : ''}): commits to ${f.length === 1 ? 'it are' : 'them are'} never judged`,
  /** install, when it writes the settings that take Gate.unselected's files in: `3 tracked files outside its default selection (a.yml, …)`. */
  takenIn: (f: readonly string[]) => `${f.length} tracked file${f.length === 1 ? '' : 's'} outside its default selection (${f.slice(0, 3).join(', ')}${f.length > 3 ? ', …' : ''})`,
  vacuousNoInputs: (targets: number) => `read nothing: none of ${targets} files matched this gate's inputs`,
  vacuousNoInputsError: (id: string) => `${id} selected no input file`,
  vacuousNoInputsFix: (id: string) => `check gates.${id} include/exclude in loopgates.yaml, or set gates.${id}.allowEmpty: "<reason>"`,
  vacuousReadNone: (inputs: number) => `had ${inputs} inputs but read none`,
  vacuousReadNoneError: (id: string) => `${id} read no file`,
  vacuousReadNoneFixNotes: (id: string) => `its notes above say why no input could be read; fix that, or bypass it for this commit on purpose: LOOPGATES_SKIP=${id} git commit …`,
  bugFix: 'report this: it is a loopgates bug',
  gateCrashed: (id: string, why: string) => `${id} crashed: ${why}`,
  cacheUnusable: (dir: string, why: string) => `the loopgates cache directory ${dir} cannot be used: ${why}`,
  /** Removing the cache is always safe: every entry is rebuilt on the next run (a cache only saves time). */
  cacheUnusableFix: (dir: string) => `rm -rf ${shellQuote(dir)}`,
  crashFix: 'report this with the output of: loopgates doctor',
  emptyHooksPath: (scope: string) =>
    `core.hooksPath is set to the empty string in your ${scope} git config: git then runs no hook in this repository (no commit is checked), and git's own path answers refuse it ("The empty string is not a valid path")`,
  emptyHooksPathFix: (scope: string) => `git config --${scope} --unset core.hooksPath   (then: loopgates install)`,
  /** doctor with no install record and no hook git would run; `team`: loopgates' tracked files present (uninstall keeps them). */
  notInstalledHere: (team: readonly string[]) =>
    `loopgates is not installed in this clone: git runs no loopgates hook, so commits here are not checked${team.length ? ` (${team.join(' and ')} ${team.length === 1 ? 'is' : 'are'} here: the team's files, which uninstall leaves as committed)` : ''}`,
  // husky 9's runner in core.hooksPath (commands/install/place.ts): what git runs for pre-commit, or nothing.
  huskyRunnerMissing: (file: string, linked: boolean, hooksPath: string) =>
    `${file} is missing (husky 9's runner; .husky/_ is git-ignored: ${linked ? 'a linked worktree (git worktree add) starts without it' : 'git clean -xfd removes it'}): git finds no pre-commit hook in core.hooksPath (${hooksPath}), so every commit lands unchecked`,
  huskyRunnerNotExecutable: (file: string) => `${file} is not executable: git skips it, so every commit lands unchecked`,
  huskyRunnerForeign: (file: string, h: string) => `${file} does not run husky's runner ${h}: git never reaches .husky/pre-commit, so every commit lands unchecked`,
  huskyZeroEnv: 'HUSKY=0 is set in this environment: husky runs no hooks, ours included, so every commit lands unchecked (husky says nothing)',
  huskyZeroInit: (at: string) => `${at} sets HUSKY=0 (husky 9 sources it before every hook): husky runs no hooks, ours included, so every commit lands unchecked (husky says nothing)`,
  huskyZeroInitFix: (file: string) => `remove that line from ${file}   (to skip the hooks for one command: HUSKY=0 git commit …)`,
  huskyRunnerFix: (top: string) => `npx husky   (run in ${top}: husky writes .husky/_ again; its "prepare": "husky" script does the same on npm install)`,
  /** doctor: the install record says the hook was placed without install's proof (`how`: which flag; null: not recorded). */
  proofSkipped: (how: 'no-proof' | 'from-prepare' | null) =>
    how === 'no-proof'
      ? 'install completed without its proof (loopgates install --no-proof): the hook is placed (checked below) but no commit has shown it refuses a credential; to prove it: loopgates install'
      : how === 'from-prepare'
        ? `install placed the hook from package.json's "prepare" script (loopgates install --from-prepare), without its proof; to prove it: loopgates install`
        : 'install completed, but its record does not say whether its proof ran (an older loopgates wrote it); to prove it: loopgates install',
  readOnly: (path: string, why: string, denying: string) => `cannot write ${path}: ${why} (${denying} is not writable for this user)`,
  readOnlyFix: (dir: string) => `chmod -R u+w ${shellQuote(dir)}   (if another user owns it: sudo chown -R "$(id -un)" ${shellQuote(dir)}), then run the command again`,
  readOnlyFsFix: (dir: string) => `${dir} is on a read-only file system: run loopgates in a writable clone (or remount it read-write)`,
  interrupted: (id: string, why: string) => `${id} was interrupted (${why}) before it finished: nothing it judged counts`,
  interruptedFix: 'run it again and let it finish',
  interruptedRun: (why: string) => `the run was interrupted (${why}): its verdicts are incomplete`,
  timeout: (id: string, ms: number) => `${id} did not finish within ${ms} ms`,
  timeoutFix: (id: string) => `raise gates.${id}.timeoutMs in loopgates.yaml, or keep generated or vendored files out of the gate (its exclude or files setting)`,
  bypassReason: 'bypassed by LOOPGATES_SKIP',
  bypassWarning: (ids: readonly string[]) =>
    `WARNING: LOOPGATES_SKIP bypasses ${ids.length ? ids.join(', ') : 'no gate'}: ${ids.length ? 'not checked, and written to the ledger' : 'nothing skipped'}`,
  bypassAllWarning: 'WARNING: LOOPGATES_SKIP=all bypasses EVERY gate: nothing is checked; this is written to the ledger',
  bypassUnknown: (ids: readonly string[], known: readonly string[]) =>
    `WARNING: LOOPGATES_SKIP names unknown gate${ids.length === 1 ? '' : 's'} ${ids.join(', ')} (known: ${known.join(', ') || 'none'})`,
  quietDisable: (ids: readonly string[]) =>
    `this commit switches off ${ids.join(', ')} in loopgates.yaml (enabled in HEAD): a gate turned off by the commit it would judge proves nothing; refused`,
  /** `off`: the gates loopgates.yaml switches off; `yamlNarrowed`: it narrows one; `byFiles`: other files narrowing one. */
  quietDisableFix: (ids: readonly string[], off: readonly string[] = ids, yamlNarrowed = false, byFiles: readonly string[] = []) =>
    `if it is on purpose, say so for this commit: LOOPGATES_ALLOW_DISABLE=${ids.join(',')} git commit …; otherwise ${[
      off.length ? `keep ${off.join(', ')} enabled in loopgates.yaml` : '',
      yamlNarrowed ? 'take the narrowing out of loopgates.yaml (or unstage it: git restore --staged -- loopgates.yaml)' : '',
      ...byFiles.map((f) => `take the narrowing out of ${f} (or unstage it: git restore --staged -- ${f})`),
    ]
      .filter(Boolean)
      .join(' and ')}`,
  /** A gate kept on but narrowed by its tool's config (`.gitleaks.toml adds [allowlist] paths '''^deploy/'''`). */
  configNarrow: (id: string, what: string) =>
    `this commit keeps ${id} enabled but its ${what} (it reports less than HEAD's, for every commit after this one): a gate narrowed by the commit it would judge proves nothing; refused`,
  configNarrowAllowed: (id: string, what: string) => `WARNING: this commit narrows ${id} (its ${what}), acknowledged by LOOPGATES_ALLOW_DISABLE`,
  quietNarrow: (id: string, what: string) =>
    `this commit keeps ${id} enabled in loopgates.yaml but takes from it ${what}: a gate narrowed by the commit it would judge proves nothing; refused`,
  quietNarrowAllowed: (id: string, what: string) => `WARNING: this commit narrows ${id} in loopgates.yaml (${what}), acknowledged by LOOPGATES_ALLOW_DISABLE`,
  /** A commit whose own exemption (a .gitleaksignore entry, a gitleaks:allow comment) waves its own finding through. */
  ownWaiver: (id: string, what: string) => `this commit keeps ${id} enabled but waives ${what}: a gate narrowed by the commit it would judge proves nothing; refused`,
  ownWaiverFix: (id: string) =>
    id === 'secrets'
      ? `if it is not a secret, say so for this commit: LOOPGATES_ALLOW_DISABLE=${id} git commit …; otherwise remove the credential, rotate it and drop the exemption`
      : `if the exemption is meant, say so for this commit: LOOPGATES_ALLOW_DISABLE=${id} git commit …; otherwise drop it and fix the finding`,
  ownWaiverAllowed: (id: string, what: string) => `WARNING: this commit narrows ${id} (waives ${what}), acknowledged by LOOPGATES_ALLOW_DISABLE`,
  /** What refused a commit that switches gates off or narrows them, for the verdict line (`refused: …`). */
  quietRefusal: (off: readonly string[], narrowed: readonly string[]) =>
    `this commit ${[off.length ? `switches off ${off.join(', ')}` : '', narrowed.length ? `narrows ${narrowed.join(', ')}` : ''].filter(Boolean).join(' and ')}`,
  quietDisableAllowed: (ids: readonly string[]) =>
    `WARNING: this commit switches off ${ids.join(', ')} in loopgates.yaml, acknowledged by LOOPGATES_ALLOW_DISABLE`,
  noConfig: (file: string) => `no ${file}: using the defaults (write one with: loopgates install)`,
  unknownGate: (id: string, known: readonly string[]) => `unknown gate '${id}' (known: ${known.join(', ') || 'none'})`,
  unknownGateFix: 'run: loopgates explain   to list the gates',
  disabledGateRun: (id: string) => `${id} is disabled in loopgates.yaml; running it because --gate names it`,
  noGates: 'no gate is enabled, so nothing can prove this commit is clean',
  noGatesFix: 'enable a gate in loopgates.yaml (gates.<id>.enabled: true), or run: loopgates install',
  /** `allowed`: the formats of the verb that was given `f` (run and hook take all four, explain text or json). */
  badFormat: (f: string, allowed: readonly string[] = ['text', 'json', 'sarif', 'github']) => `unknown --format '${f}' (use ${orList(allowed)})`,
  badFormatFix: (allowed: readonly string[], verb?: string) => `use --format ${orList(allowed)}${verb ? ` (loopgates ${verb} --help)` : ''}`,
  /** process.cwd() failed (uv_cwd ENOENT): the shell's folder was removed or renamed after it entered it. */
  cwdGone: (why: string) => `the current directory no longer exists (${why}): it was removed or renamed after this shell entered it`,
  cwdGoneFix: 'cd to your repository, then run the command again',
  internalError: (why: string) => `internal error: ${why}`,
  badArgs: (msg: string, verb: string) => `${msg}\n  see: loopgates ${verb} --help`,
  filesWithoutFlag: 'paths given without --files',
  modeConflict: 'choose one of --staged, --all, --files',
  filesNone: '--files needs at least one path',
  badStagedPolicy: (p: string) => `unknown --staged-policy '${p}' (use introduced, touched or all)`,
  stagedPolicyNotStaged: '--staged-policy judges a staged run: it does not go with --all or --files',
  unknownHook: (name: string, known: readonly string[]) =>
    `loopgates has no '${name}' hook (it handles: ${known.join(', ')}); the commit is refused so nothing passes unchecked`,
  unknownHookFix: 'reinstall the hooks with: loopgates install',
  hookMissingName: 'name the git hook: loopgates hook pre-commit',
  ledgerFailed: (why: string) => `warning: could not write the ledger: ${why}`,
  // A bare repository (or .git itself): every verb says the same, with a fix that works there (fresh-user F9).
  insideGitDir: (dir: string) => `${dir} is inside a git directory (a bare repository or .git), not a work tree: there are no project files to read`,
  insideGitDirFix: 'run it in a clone or worktree of the repository (git worktree add ../checkout HEAD), or in the project folder',
  outsideGitStaged: 'not inside a git work tree: there is no index to check',
  outsideGitStagedFix: 'run inside a git repository, or check a folder with: loopgates run --all',
  gateMissingAnswers: (id: string, missing: readonly string[]) => `gate '${id}' lacks its four answers (${missing.join(', ')} empty): refused at load`,
  gateMissingAnswersFix: 'give the gate loop.runs, loop.reads, loop.ends and loop.asks (its four answers: what runs, what it reads, what ends it, when it asks a human)',
  duplicateGate: (id: string) => `two gates share the id '${id}'`,
  /**
   * The last line of a text report; `staged` (the index, as a commit is judged) speaks of the commit. An interrupted
   * run says so: in a hook, the Ctrl-C that reached it ends `git commit` too, which exits 128 + the signal's number
   * (130 for SIGINT, 143 for SIGTERM): that, not the hook's 2, is what the shell shows. `refusals`: what refused the
   * commit besides the gates' verdicts (`this commit switches off secrets`), named first.
   */
  summary: (counts: Record<string, number>, exitCode: number, staged = true, interrupted?: { signal: string; hook: boolean }, refusals: readonly string[] = []) => {
    const parts = Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([v, n]) => `${num(n)} ${v}`);
    if (interrupted) {
      const shell = SIGNAL_EXIT[interrupted.signal];
      const exits = interrupted.hook
        ? `the hook exits ${exitCode}${shell ? `; git commit, interrupted too, exits ${shell}` : ''}`
        : `exit ${exitCode}`;
      return `${parts.join(' · ') || 'no gates'} — interrupted (${interrupted.signal}): ${interrupted.hook ? 'commit refused, ' : ''}nothing was judged to the end (${exits})`;
    }
    if (refusals.length && exitCode !== 0) {
      const also = exitCode === 2 ? '; loopgates could not prove the check either' : (counts.fail ?? 0) > 0 ? '; a gate failed too' : '';
      return `${parts.join(' · ') || 'no gates'} — refused: ${refusals.join('; ')}${also} (exit ${exitCode})`;
    }
    const verdict = staged
      ? exitCode === 0 ? 'commit allowed' : exitCode === 1 ? 'refused: a gate failed' : 'refused: loopgates could not prove the check'
      : exitCode === 0 ? 'every gate passed or skipped' : exitCode === 1 ? 'a gate failed' : 'loopgates could not prove the check';
    return `${parts.join(' · ') || 'no gates'} — ${verdict} (exit ${exitCode})`;
  },
  fix: (fix: string) => `fix: ${fix}`,
  // Staged runs judged against HEAD (core/introduced.ts).
  stagedPolicyExplained: (policy: string, judgesChangeOnly: boolean) =>
    judgesChangeOnly
      ? `${policy}: this gate judges the staged change itself (what the commit adds), so every finding it reports counts`
      : policy === 'introduced'
        ? `introduced: a commit is refused for the findings it brings; findings HEAD already has (the same gate over the same files) are counted and summarised, not refused`
        : policy === 'touched'
          ? `touched: a commit is refused for the findings it brings and for every finding in a file it changes`
          : `all: a commit is refused for every finding in what it stages, whether or not HEAD already has it`,
  preExisting: (errors: number, warnings: number, places: readonly string[], more: number, gate: string) =>
    // The staged run with every finding counted lists exactly these (and the commit's own); `run --all` may not: a
    // gate can report a staged file in another shape (a staged base's missing keys per key, the tree's per locale).
    `${[errors ? plural(errors, 'error') : '', warnings ? plural(warnings, 'warning') : ''].filter(Boolean).join(' and ')} already in HEAD, in ${places.join(', ')}${more ? ', …' : ''}: \`loopgates run --gate ${gate} --staged-policy all\` lists them while this change is staged`,
  /** After "N findings" (the ones the verdict counts): the findings the staged policy left out, what they are. */
  preExistingCount: (n: number, counted: number) => `${num(n)}${counted > 0 ? ' more' : ''} already in HEAD (not introduced by this commit: not counted)`,
  findingsLeftOut: (n: number, errors: number, gate: string) =>
    `… ${plural(n, 'more finding')} not shown${errors ? ` (${plural(errors, 'error')})` : ''}: \`loopgates run --gate ${gate} --format json\` lists every one`,
  headSideFailed: (id: string, policy: string, why: string) =>
    `HEAD's side of ${id} could not be judged (${why}), so this commit is judged with staged: all (every finding counts), not staged: ${policy}`,
  note: (n: string) => `note: ${n}`,
  /** A gate's own note: about its blindness (a filter that removed every candidate), so printed as a warning. */
  gateNote: (n: string) => `warning: ${n}`,
} as const;

/** Usage texts (`loopgates <verb> --help`). */
export const usage = {
  run: `Usage: loopgates run [--staged | --all | --files <paths...>] [--gate <id>]... [--format text|json|sarif|github]

Run the enabled gates once and report their verdicts.

What is judged:
  --staged            the index: the files this commit adds, copies, modifies or renames, read from the
                      index (a partially staged file is judged by its staged content). The default.
  --all               every file of the tree (tracked plus untracked, not ignored); in a sparse
                      checkout, the tracked files outside it are read from the index. Outside a git
                      repository, every file under the current folder (skipping .git and node_modules).
  --files <paths...>  the named files of the tree (a folder: every file under it that --all would
                      read); put -- before a path that starts with '-':
                      loopgates run --files -- '-x y.kt'

Options:
  --gate <id>         run only this gate (repeatable); an unknown id exits 2
  --staged-policy <p> judge the staged run by introduced, touched or all (every finding counts, the ones
                      already in HEAD too) instead of loopgates.yaml's staged: setting
  --format <f>        text (default), json, sarif (SARIF 2.1.0) or github (workflow commands)
  -v, --verbose       gates' progress lines on stderr (what they read, how work was split across threads)
  -h, --help          this text

Verdicts: pass (read inputs, no error findings) · fail (error findings) · skip (nothing it reads is staged,
or bypassed) · vacuous (should have read something, read nothing) · error (the gate or its tool could not run).
In --all a gate that reads nothing is vacuous unless gates.<id>.allowEmpty gives the reason; with --files it is a
skip, and a run in which no gate reads any named file exits 2.

Environment:
  LOOPGATES_SKIP=gate,...|all   bypass gates (loud warning; written to the ledger)
  LOOPGATES_THREADS=n           threads string-parity may use for runs over >= 2 MB of catalogs (default 1:
                                on 2 cores more threads measured slower; try it on bigger machines)

Exit codes: 0 every gate passed or skipped · 1 a gate failed · 2 an error or vacuous verdict, or loopgates,
its config or a required tool is broken (2 wins over 1).
`,
  hook: `Usage: loopgates hook <git-hook-name>

The entry point the stored hook scripts call (git runs them); not usually typed by hand.

  pre-commit   load loopgates.yaml (any problem refuses the commit), run the enabled gates over the staged
               snapshot (the index git is about to commit, GIT_INDEX_FILE honoured, so git commit -a and
               git commit -- <path> are judged right), in parallel with a per-gate timeout; print the report and
               append to the ledger.

Options:
  --format <f>  text (default), json, sarif or github
  -h, --help    this text

An unknown hook name exits 2: the commit is refused rather than passed unchecked.

Environment:
  LOOPGATES_SKIP=gate,...|all   bypass gates (loud warning; written to the ledger)

Exit codes: 0 commit allowed · 1 a gate failed · 2 loopgates, config or a required tool is broken.
`,
  explain: `Usage: loopgates explain [--all] [--format text|json]

Print every enabled gate's four answers, then those of the loops that are not gates (loopgates retry), with the
bounds in force:
  runs   what runs
  reads  what it reads to decide
  ends   what ends it: the pass condition and the bound
  asks   when it stops and asks a human ('never' means red is the answer)

Options:
  --all          also list the disabled gates
  --format <f>   text (default) or json
  -h, --help     this text

Exit codes: 0 printed · 2 loopgates.yaml is invalid or a gate lacks an answer.
`,
} as const;
