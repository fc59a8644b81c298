// Secrets gate: the scan (run()), loaded on demand by index.ts. gitleaks (https://github.com/gitleaks/gitleaks,
// README "Usage", ".gitleaksignore", "Exit Codes") over what the commit would record, after the canary proof.
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { LoopgatesError } from '../../core/errors.js';
import { fingerprint } from '../../core/finding.js';
import { blobId, git, splitZ } from '../../core/git.js';
import { appendLineCommand, shellQuote } from '../../core/messages.js';
import { decodePath, lossyIndex, pathBytes } from '../../core/paths.js';
import type { GateContext, GateOutput, Workspace } from '../../core/types.js';
import {
  backFromLossy,
  DEFAULT_CONFIG_TOML,
  ensureCanary,
  GITLEAKS_FIX,
  gitleaksEnv,
  ignoreEntry,
  isIgnored,
  makeScratch,
  parseIgnore,
  probeGitleaks,
  removeScratch,
  resolveGitleaks,
  runScan,
  scanFiles,
  toRelative,
  writeScanConfig,
} from './gitleaks.js';
import type { GitleaksCall, GitleaksFinding, GitleaksProbe, ScanFiles } from './gitleaks.js';
import { CONFIG_FILE, GATE_ID, type SecretsConfig } from './index.js';
import { neutralPath, pathsSkipped } from './path-probe.js';
import { HANDOFF_ENV, handedScan } from './handoff.js';
import { allowlistPaths, entryFor, exemptionsAdded, shownEntry, skippedBecause } from './allowlist.js';
import { effectiveConfig, extendChain, extendedFiles, headReader, type ChainSide } from './extend.js';
import { lfsRepo, lfsTracked, parseLfsPointer, readLfsObject, shownDir, treeBlobIds } from './lfs.js';
import type { LfsPointer } from './lfs.js';

/**
 * Run the secrets scan over `inputs` of `ctx.ws`, by backing:
 * - `index`: `gitleaks protect --staged` (or `git --pre-commit --staged`) in the repository with the hook's GIT_*
 *   environment unchanged (GIT_INDEX_FILE of `commit -a` / `commit -- path`) and blinding git config neutralised;
 *   staged files whose `diff` attribute hides them from `git diff` (or all, when gitleaks saw no diff at all, as
 *   with `diff.external`) are scanned again as files from their staged bytes.
 * - `tree`: exactly the target files copied into a scratch dir, `detect --no-git` (or `dir`), paths mapped back.
 * - `memory`: the targets staged into a scratch repository's scratch index, scanned like the hook scans.
 * Every input is first made readable (decodeForScan): UTF-16 (with or without a BOM) decoded, a file with NUL bytes
 * given as its text runs (findings mapped back to its lines), a binary over BINARY_SCAN_MAX_BYTES not given at all
 * and not counted in `counts.files`: any such input makes the output an `error` (the commit, or the tree of `run --all`,
 * is judged whole: it cannot be called clean with content nobody read), naming the files and the way to commit them
 * unscanned on purpose. Notes name what was decoded, converted and left unscanned.
 * Git LFS (index and tree backings, resolveLfs): an input that is a pointer (lfs.ts parseLfsPointer) is scanned as
 * the object it names, read from the LFS storage and verified (size, sha256), findings at the object's lines. When
 * the object cannot be read: content the commit adds -> `error` (refused, fix: git lfs pull); content HEAD already
 * holds (a rename, a mode change), or any in a tree scan -> not scanned, not counted, named in a note.
 * Never throws a LoopgatesError: those become GateOutput.error (verdict `error`, commit refused).
 */
export async function runSecrets(ctx: GateContext<SecretsConfig>, inputs: readonly string[]): Promise<GateOutput> {
  try {
    // A tree scan (`run --all`) leaves yarn's own bundles out: minified code and base64 blobs whose shapes match
    // credential rules (fresh-user-4 F4: an AWS-key shape in yarn-4.x.cjs's wasm). Staged and named files are scanned.
    const vendored = ctx.ws.mode === 'all' ? inputs.filter(isVendoredYarn) : [];
    if (!vendored.length) return await scan(ctx, inputs);
    const out = await scan(ctx, inputs.filter((p) => !isVendoredYarn(p)));
    // A note (printed as a warning): what the scan did not read, as for files a path allowlist skips.
    return { ...out, notes: [...(out.notes ?? []), `skipped ${vendored.length} vendored yarn file${vendored.length === 1 ? '' : 's'} (yarn's own bundles: a tree scan does not read them; a commit that changes one is scanned): ${vendored.slice(0, 5).join(', ')}${vendored.length > 5 ? ', …' : ''}`] };
  } catch (err) {
    if (err instanceof LoopgatesError) return { findings: [], counts: { files: 0 }, error: { message: err.message, fix: err.fix } };
    throw err;
  }
}

/** Yarn's vendored files (Yarn Berry): its release bundle, plugins and the Plug'n'Play loader it writes, at any depth. */
export function isVendoredYarn(path: string): boolean {
  return /(^|\/)\.yarn\/(releases|plugins)\//.test(path) || /(^|\/)\.pnp\.(c?js|loader\.mjs)$/.test(path);
}

async function scan(ctx: GateContext<SecretsConfig>, inputs: readonly string[]): Promise<GateOutput> {
  const { ws } = ctx;
  const bin = resolveGitleaks(process.env);
  mkdirSync(ctx.cacheDir, { recursive: true });
  const call: GitleaksCall = { bin, runTool: ctx.runTool, signal: ctx.signal, timeoutMs: ctx.config.scanTimeoutMs, cacheDir: ctx.cacheDir };
  const probe = await probeGitleaks(call);
  const files: ScanFiles = { config: await snapshotFile(ws, '.gitleaks.toml'), ignore: await snapshotFile(ws, '.gitleaksignore') };
  // gitleaks run in the repository reads <source>/.gitleaks.toml from the working tree when no --config is given:
  // an untracked or unstaged config must not change what the commit is judged by, so name the defaults explicitly.
  if (ws.backing.kind === 'index' && !files.config && existsSync(join(ws.backing.root, '.gitleaks.toml'))) files.config = Buffer.from(DEFAULT_CONFIG_TOML, 'utf8');
  // What `[extend] path` names is part of the config: read from the same snapshot (a commit: the index), refused
  // when it is outside the repository or missing there (extend.ts).
  files.extends = await extendedFiles(files.config, snapshotReader(ws), chainSide(ws));
  const own = await scanWith(ctx, call, probe, inputs, files);
  const headFiles = await configBefore(ws, files);
  const effective = files.config === undefined ? undefined : effectiveConfig(files.config, files.extends);
  if (!headFiles) {
    const out = finish(own, own.allowlisted, effective, inputs.length);
    const skip = committedExemption(ws, out, own.allowlisted, inputs, effective);
    return skip ? { ...out, skip } : out;
  }
  const headConfig = effectiveConfig(headFiles.config!, headFiles.extends ?? []);
  // The change edits .gitleaks.toml: judged by HEAD's config too, so an allowlist entry (paths, regexes, stopwords),
  // a dropped rule or useDefault cannot wave through a credential staged in the same commit.
  const before = await scanWith(ctx, call, probe, inputs, { ...files, ...headFiles });
  const both = own.allowlisted.filter((p) => before.allowlisted.includes(p));
  const ownKeys = new Set(own.output.findings.map((f) => `${f.file}:${f.rule}:${f.line}`));
  const changes = exemptionsAdded(headConfig, effective ?? DEFAULT_CONFIG_TOML);
  const extra = before.output.findings
    .filter((f) => !ownKeys.has(`${f.file}:${f.rule}:${f.line}`))
    .map((f) => {
      const text = before.lineText.get(`${f.file}:${f.rule}:${f.line}`) ?? '';
      const named = changes.filter((c) => c.matches(f.file, text) === true);
      const shown = (named.length ? named : changes).map((c) => c.what).join(', ') || 'its changes';
      return {
        ...f,
        message: `gitleaks rule ${f.rule} matched a credential here (value not shown) under the .gitleaks.toml HEAD holds; the staged .gitleaks.toml would not report it (${shown}, which this commit adds): a commit cannot exempt its own credential, and a .gitleaks.toml that reports less is refused as a narrowing: remove the credential and rotate it; if it is not a secret, list it in .gitleaksignore from the repository's top folder (${appendLineCommand(ignoreEntry(f), '.gitleaksignore')}), stage it with this file (git add .gitleaksignore) and say so for this commit: LOOPGATES_ALLOW_DISABLE=${GATE_ID} git commit … (the acknowledgement is written to the ledger)`,
      };
    });
  const merged: Once = { ...own, output: { ...own.output, findings: refingerprint([...own.output.findings, ...extra]), notes: [...(own.output.notes ?? []), 'the staged .gitleaks.toml differs from HEAD\'s: the commit was judged by both, and a finding either one reports is reported (an exemption the change adds is a narrowing the hook refuses unless LOOPGATES_ALLOW_DISABLE=secrets says so)'] } };
  if (!merged.output.error && before.output.error) merged.output.error = before.output.error;
  return finish(merged, both, effective, inputs.length);
}

/** One scan's output before the NOT SCANNED accounting (finish): counts.files still holds the allowlisted files. */
interface Once {
  output: GateOutput;
  /** Inputs a team .gitleaks.toml skips by path (not scanned). */
  allowlisted: string[];
  /** `file:rule:line` -> the text of the finding's line (to name an allowlist regex or stopword that matches it). */
  lineText: Map<string, string>;
}

/** Count `notScanned` (inputs no config let gitleaks read) out of the scanned files, and name their entries. */
function finish(once: Once, notScanned: readonly string[], config: Buffer | string | undefined, total: number): GateOutput {
  const output = { ...once.output, counts: { ...once.output.counts, files: (once.output.counts.files ?? 0) - notScanned.length }, notes: [...(once.output.notes ?? [])] };
  if (notScanned.length) {
    // Name the entry per file: an unanchored path regex (tests/data) also exempts integration-tests/data-samples/.
    const entries = allowlistPaths(config);
    const why = notScanned.slice(0, 3).map((p) => `${p} (${skippedBecause(p, entries)})`);
    const staged = once.output.itemUnit === 'files' ? '' : 'staged ';
    output.notes.push(`${notScanned.length} of ${total} ${staged}file(s) NOT SCANNED, a credential there is not seen: the [allowlist] paths of .gitleaks.toml skip them: ${why.join(', ')}${notScanned.length > 3 ? ', …' : ''}`);
  }
  return output;
}

/**
 * The skip reason when a staged commit's every input is exempted by an `[allowlist] paths` entry of the team's own
 * .gitleaks.toml that HEAD already holds (scan() calls this only when the staged config is HEAD's: an exemption the
 * commit adds is judged by HEAD's config too) and nothing was read or found; else undefined. A file only gitleaks'
 * default allowlist (useDefault) or an entry loopgates cannot evaluate skips is not the team's choice: vacuous.
 */
function committedExemption(ws: Workspace, out: GateOutput, exempted: readonly string[], inputs: readonly string[], config: Buffer | string | undefined): string | undefined {
  if (ws.mode !== 'staged' || !ws.before || !config || out.error || out.findings.length || (out.counts.files ?? 0) !== 0) return undefined;
  if (exempted.length === 0 || exempted.length !== inputs.length) return undefined;
  const entries = allowlistPaths(config);
  const byEntry = new Map<string, string[]>();
  for (const p of exempted) {
    const e = entryFor(p, entries);
    if (!e) return undefined;
    byEntry.set(shownEntry(e), [...(byEntry.get(shownEntry(e)) ?? []), p]);
  }
  const shown = [...byEntry].map(([e, ps]) => `${e}: ${ps.slice(0, 3).join(', ')}${ps.length > 3 ? `, … (${ps.length})` : ''}`);
  return `not scanned: exempted by .gitleaks.toml [allowlist] paths ${shown.join('; ')} (the .gitleaks.toml HEAD holds; no other file staged)`;
}

/**
 * Staged mode over the index: the entries the work tree's .gitleaksignore holds and the staged one lacks (an
 * untracked or unstaged edit), so a finding's fix can say to stage the file rather than to write a line it already
 * has. Read for the message only: it never filters. Empty when there is no such file or it cannot be read.
 */
function unstagedIgnoreEntries(ws: Workspace, staged: ReadonlySet<string>): Set<string> {
  if (ws.mode !== 'staged' || ws.backing.kind !== 'index') return new Set();
  try {
    const onDisk = parseIgnore(decodePath(readFileSync(join(ws.backing.root, IGNORE_FILE))));
    return new Set([...onDisk].filter((e) => !staged.has(e)));
  } catch {
    return new Set();
  }
}

/** Fingerprints numbered per file and rule in file/line order (scanWith's rule), after findings of two scans merged. */
function refingerprint(findings: GateOutput['findings']): GateOutput['findings'] {
  const perRule = new Map<string, number>();
  return [...findings]
    .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line)
    .map((f) => {
      const n = (perRule.get(`${f.file}\0${f.rule}`) ?? 0) + 1;
      perRule.set(`${f.file}\0${f.rule}`, n);
      return { ...f, fingerprint: fingerprint(GATE_ID, f.rule, f.file, `${f.rule}#${n}`) };
    });
}

/**
 * HEAD's .gitleaks.toml and the files it extends when the change (index or memory backing with a before side) adds,
 * edits or deletes one of them (or a file the staged config extends) and the result differs from `staged` (gitleaks'
 * defaults when HEAD has none, or extends a file it cannot be judged by: extend.ts); else undefined. A tree scan
 * (`run --all`, `--files`) has no change to attribute an entry to: the tree is judged by its own config.
 */
async function configBefore(ws: Workspace, staged: ScanFiles): Promise<ScanFiles | undefined> {
  if (ws.backing.kind === 'tree' || !ws.before) return undefined;
  const before = headReader(ws);
  const head = await before(CONFIG_FILE);
  const chain = head === undefined ? { files: [], paths: [] } : await extendChain(head, before, chainSide(ws));
  // .gitleaks.toml is no input of the gate (index.ts), but a target of the snapshot when staged.
  const named = [CONFIG_FILE, ...chain.paths, ...(staged.extends ?? []).map((e) => e.path)];
  const targets = await ws.targets();
  const deleted = (await ws.deletions?.()) ?? [];
  if (!named.some((p) => targets.includes(p) || deleted.includes(p))) return undefined;
  const defaults = Buffer.from(DEFAULT_CONFIG_TOML, 'utf8');
  const was: ScanFiles = head !== undefined && !chain.problem ? { config: head, extends: chain.files } : { config: defaults, extends: [] };
  const now: ScanFiles = { config: staged.config ?? defaults, extends: staged.extends ?? [] };
  const same = (a: ScanFiles, b: ScanFiles) =>
    a.config!.equals(b.config!) && (a.extends ?? []).length === (b.extends ?? []).length && (a.extends ?? []).every((e, i) => e.path === b.extends![i]!.path && e.bytes.equals(b.extends![i]!.bytes));
  return same(was, now) ? undefined : was;
}

/** How extend.ts speaks of the snapshot `ws` reads (a commit's index, or the files a tree scan checks). */
function chainSide(ws: Workspace): ChainSide {
  return ws.backing.kind === 'tree' ? { refused: 'run', from: 'the files checked' } : { refused: 'commit', from: 'the index', add: 'git add' };
}

/**
 * Reads a file a config extends from the snapshot, as snapshotFile reads .gitleaks.toml; on disk (a tree scan) only
 * a regular file inside the repository: a symbolic link, or a folder that is one, would reach outside it.
 */
function snapshotReader(ws: Workspace): (path: string) => Promise<Buffer | undefined> {
  return async (path) => {
    if (await ws.has(path)) return ws.read(path);
    if (ws.backing.kind !== 'tree') return undefined;
    try {
      const file = join(ws.backing.root, path);
      if (!lstatSync(file).isFile()) return undefined;
      const root = realpathSync(ws.backing.root);
      if (!realpathSync(file).startsWith(`${root}${sep}`)) return undefined;
      return readFileSync(file);
    } catch {
      return undefined;
    }
  };
}

async function scanWith(ctx: GateContext<SecretsConfig>, call: GitleaksCall, probe: GitleaksProbe, inputs: readonly string[], files: ScanFiles): Promise<Once> {
  const { ws } = ctx;
  const { bin } = call;
  const backing = ws.backing;
  const kind = backing.kind === 'tree' ? 'dir' : 'staged';
  const canary = await ensureCanary(call, probe, kind, files, process.env);
  ctx.log(`gitleaks ${bin.path}: ${commandName(probe, kind)}; canary ${canary.cached ? 'proof cached' : 'reported'}`);
  const shifts = { staged: canary.columnShift, dir: canary.columnShift };
  const notes: string[] = [];
  let raw: Array<GitleaksFinding & { via: 'staged' | 'dir' }> = [];
  let items: number;
  let itemUnit: string;
  /** Inputs gitleaks was not given (not counted in `counts.files`). */
  const unscanned: string[] = [];
  /** Inputs scanned behind one added line (decodeForScan `prefixLines`). */
  const prefixed = new Set<string>();
  const decoded = await readForScan(ws, inputs);
  // Before resolveLfs replaces pointers by their objects: gitleaks' staged diff shows a pointer's text.
  const textual = inputs.filter((p) => decoded.get(p)!.kind === 'text');
  const lfs = await resolveLfs(ws, inputs, decoded);
  const lfsUnread = new Set([...lfs.skipped.map((s) => s.path), ...lfs.blocked.map((b) => b.path)]);
  // Files the config's [allowlist] paths make gitleaks skip unread (path-probe.ts). With gitleaks' own default config
  // (the team chose no allowlist) their content is scanned under a neutral name; a team's .gitleaks.toml allowlist is
  // honoured, and those files are not counted as scanned.
  const readable = inputs.filter((p) => !lfsUnread.has(p) && decoded.get(p)!.kind !== 'unscannable');
  const byPath = await pathsSkipped(call, probe, readable, files, process.env);
  const ownConfig = files.config !== undefined && !files.config.equals(Buffer.from(DEFAULT_CONFIG_TOML, 'utf8'));
  const neutral = ownConfig ? [] : readable.filter((p) => byPath.has(p));
  const allowlisted = ownConfig ? readable.filter((p) => byPath.has(p)) : [];

  if (backing.kind === 'index') {
    const cfg = makeScratch('cfg');
    let result;
    try {
      const place = await stagedScanPlace(backing.root, backing.env, cfg);
      const configPath = writeScanConfig(cfg, files.config, files.extends);
      // The stored hook's own run of this very scan, when it ran one and every fact of it checks out (handoff.ts); the
      // shell runs only in the top level (no .gitleaksignore there), so a moved place is never taken.
      const handed = process.env[HANDOFF_ENV]
        ? handedScan(call, probe, { cwd: place.cwd, repoEnv: place.env, configBytes: readFileSync(configPath), defaultConfig: files.config === undefined, cacheRoot: dirname(ctx.cacheDir) })
        : undefined;
      if (typeof handed === 'string') ctx.log(`gitleaks: the stored hook's run of this scan not taken (${handed}); running it`);
      else if (handed) ctx.log('gitleaks: the stored hook ran this staged scan; its argv, environment, exit code, log and report checked and taken');
      result = handed !== undefined && typeof handed !== 'string' ? handed : await runScan(call, probe, { kind: 'staged', cwd: place.cwd, env: gitleaksEnv(process.env, place.env), configPath });
    } finally {
      removeScratch(cfg);
    }
    const lossy = lossyIndex(inputs);
    raw = result.findings.map((f) => ({ ...f, file: backFromLossy(toRelative(f.file, backing.root), lossy), via: 'staged' as const }));
    items = result.commitsScanned ?? 1;
    itemUnit = 'staged diffs';
    // An LFS pointer (diff=lfs) is scanned as its object whatever its diff attribute, or not at all.
    let asFiles = (await diffBlinded(backing.root, backing.env, inputs)).filter((p) => !lfs.objects.has(p) && !lfsUnread.has(p));
    if (asFiles.length) notes.push(`${asFiles.length} staged file(s) have a diff attribute that hides them from git diff (${listed(asFiles)}); scanned their staged content as files`);
    // git shows a UTF-16 file or one with a NUL byte as "Binary files differ", so the staged scan never sees its lines.
    if (result.commitsScanned === 0 && textual.length > 0) {
      asFiles = [...inputs];
      notes.push('gitleaks saw no staged diff (diff.external or another git setting hides it); scanned every staged file as a file instead');
    }
    const asText = new Map<string, Buffer>();
    for (const p of inputs) {
      if (lfsUnread.has(p) || byPath.has(p)) continue;
      const d = decoded.get(p)!;
      if (d.kind === 'unscannable') unscanned.push(p);
      // gitleaks 8.16 drops a finding whose line says gitleaks:allow without a word (no --ignore-gitleaks-allow
      // there): such a file is scanned again as a file with the comment neutralised, and the gate names it.
      else if (d.kind !== 'text' || asFiles.includes(p) || lfs.objects.has(p) || d.bytes.includes(ALLOW_SIGNATURE)) asText.set(p, withoutAllow(d.bytes));
      if (d.prefixLines) prefixed.add(p);
    }
    const utf16 = inputs.filter((p) => decoded.get(p)!.kind === 'utf16');
    if (utf16.length) notes.push(`${utf16.length} staged UTF-16 file(s) decoded to UTF-8 and scanned as files`);
    const utf32 = inputs.filter((p) => decoded.get(p)!.kind === 'utf32');
    if (utf32.length) notes.push(`${utf32.length} staged UTF-32 file(s) decoded to UTF-8 and scanned as files: ${listed(utf32)}`);
    const binary = inputs.filter((p) => decoded.get(p)!.kind === 'binary');
    if (binary.length) notes.push(binaryNote(binary));
    if (asText.size) {
      const dirCanary = await ensureCanary(call, probe, 'dir', files, process.env);
      shifts.dir = dirCanary.columnShift;
      const extra = await scanFiles(call, probe, 'dir', asText, files, process.env);
      raw.push(...extra.findings.map((f) => ({ ...f, via: 'dir' as const })));
    }
  } else {
    const contents = new Map<string, Buffer>();
    const binary: string[] = [];
    for (const [p, d] of decoded) {
      if (lfsUnread.has(p) || byPath.has(p)) continue;
      if (d.kind === 'unscannable') {
        unscanned.push(p);
        continue;
      }
      if (d.kind === 'binary') binary.push(p);
      if (d.prefixLines) prefixed.add(p);
      contents.set(p, withoutAllow(d.bytes));
    }
    if (binary.length) notes.push(binaryNote(binary));
    if (contents.size) {
      const result = await scanFiles(call, probe, kind, contents, files, process.env);
      raw = result.findings.map((f) => ({ ...f, via: kind }));
      items = kind === 'dir' ? contents.size : (result.commitsScanned ?? 1);
    } else {
      items = 0;
    }
    itemUnit = kind === 'dir' ? 'files' : 'staged diffs';
  }
  const staged = backing.kind === 'tree' ? '' : 'staged ';
  if (neutral.length) {
    // One directory scan of every such file under a neutral name (names the config is proven not to skip), findings
    // mapped back to the file's path.
    const names = neutral.map((_, i) => neutralPath(i));
    const blind = await pathsSkipped(call, probe, names, files, process.env);
    if (blind.size) {
      throw new LoopgatesError(
        `the secrets scanner skips ${listed(neutral)} by path, and even the neutral name ${[...blind][0]}: gitleaks' [allowlist] paths match every path, so these files cannot be scanned`,
        `repair or reinstall gitleaks (${bin.path}): ${GITLEAKS_FIX}`,
      );
    }
    const dirCanary = await ensureCanary(call, probe, 'dir', files, process.env);
    shifts.dir = dirCanary.columnShift;
    const back = new Map(names.map((n, i) => [n, neutral[i]!]));
    for (const p of neutral) if (decoded.get(p)!.prefixLines) prefixed.add(p);
    const extra = await scanFiles(call, probe, 'dir', new Map(neutral.map((p, i) => [names[i]!, withoutAllow(decoded.get(p)!.bytes)])), files, process.env);
    raw.push(...extra.findings.map((f) => ({ ...f, file: back.get(f.file) ?? f.file, via: 'dir' as const })));
    // In a tree scan the item is a scanned file: these are scanned too ("scanned 704 files, 703 files" otherwise).
    if (kind === 'dir') items += neutral.length;
    notes.push(`${neutral.length} ${staged}file(s) skipped by the path allowlist of gitleaks' default config (${listed(neutral)}): scanned their content under a neutral name`);
  }
  if (unscanned.length) {
    notes.push(`${unscanned.length} of ${inputs.length} ${staged}file(s) not scanned (binary, larger than ${BINARY_SCAN_MAX_BYTES / 1024 / 1024} MiB): ${listed(unscanned)}`);
  }
  if (lfs.objects.size) notes.push(`${lfs.objects.size} Git LFS file(s): scanned the object each pointer names instead of the pointer: ${listed([...lfs.objects.keys()])}`);
  for (const reason of ['missing', 'mismatch'] as const) {
    const paths = lfs.skipped.filter((s) => s.reason === reason).map((s) => s.path);
    if (!paths.length) continue;
    const what = reason === 'missing' ? `Git LFS object not in local storage (${lfs.where})` : `Git LFS object in local storage (${lfs.where}) does not match its pointer`;
    // More than 10 paths: one plain `git lfs pull` (a fresh user got one 400 KB line listing 4,306 paths).
    notes.push(`${paths.length} of ${inputs.length} ${staged}file(s) not scanned: ${what}${backing.kind === 'index' ? ', content unchanged from HEAD' : ''}: ${listed(paths)}; to scan: git lfs pull${paths.length <= 10 ? ` --include=${shellQuote(paths.join(','))}` : ''}`);
  }
  // The added empty line in front of a binary file's text runs: back to the file's own lines (and gitleaks' column
  // quirk on lines after the first, which the file's first line now was not).
  for (const f of raw) {
    if (!prefixed.has(f.file)) continue;
    f.line = Math.max(1, f.line - 1);
    if (f.line === 1) f.byteColumn -= f.via === 'dir' ? shifts.dir : shifts.staged;
  }

  const ignore = files.ignore ? parseIgnore(decodePath(files.ignore)) : new Set<string>();
  const unstagedIgnore = unstagedIgnoreEntries(ws, ignore);
  const carried = await carriedEntries(ws, inputs, ignore);
  const seen = new Set<string>();
  const perRule = new Map<string, number>();
  const findings: GateOutput['findings'] = [];
  let filtered = 0;
  const stale: string[] = [];
  const allowed: string[] = [];
  const waived: string[] = [];
  // Staged: what only an exemption the commit itself adds waves through (GateOutput.waived; the hook refuses it).
  const own: string[] = [];
  const ownWaiver = async (f: GitleaksFinding, lines: string, by: string) => {
    if (ws.mode === 'staged' && !(await heldInHead(ws, f.file, lines))) own.push(`${f.file}:${f.line} ${f.rule}, by ${by}`);
  };
  const lineText = new Map<string, string>();
  for (const f of raw.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line)) {
    const spot = ignoreEntry(f);
    if (seen.has(spot)) continue;
    seen.add(spot);
    const bytes = lfs.objects.get(f.file) ?? decoded.get(f.file)?.bytes ?? (await ws.read(f.file));
    const shift = lfs.objects.has(f.file) ? 0 : (decoded.get(f.file)?.prefixLines ?? 0);
    const lines = linesOf(bytes, f.line + shift, f.endLine + shift);
    // gitleaks' own inline exemption (detect.go: the match's whole lines contain gitleaks:allow), scanned with
    // --ignore-gitleaks-allow so it is counted and named here rather than dropped without a word.
    if (lines.includes(ALLOW_SIGNATURE)) {
      filtered++;
      allowed.push(`${f.file}:${f.line}`);
      await ownWaiver(f, lines, 'a gitleaks:allow comment on its line');
      continue;
    }
    const cover = isIgnored(ignore, f) ? await ignoreCovers(ws, carried, f, decoded, lfs.objects) : 'no entry';
    if (cover === 'covered') {
      filtered++;
      if (carried && !carried.has(spot)) {
        waived.push(spot);
        await ownWaiver(f, lines, `the .gitleaksignore entry ${spot} it adds`);
      }
      continue;
    }
    lineText.set(spot, lines);
    if (cover === 'line changed') stale.push(spot);
    const n = (perRule.get(`${f.file}\0${f.rule}`) ?? 0) + 1;
    perRule.set(`${f.file}\0${f.rule}`, n);
    // A decoded file's columns are counted in the text gitleaks was given (its lines are the file's lines).
    const d = decoded.get(f.file);
    const object = d && (d.kind === 'utf16' || d.kind === 'utf32') ? d.bytes : lfs.objects.get(f.file);
    const column = await utf16Column(object ? async () => object : () => ws.read(f.file), f, f.via === 'dir' ? shifts.dir : shifts.staged);
    findings.push({
      gate: GATE_ID,
      rule: f.rule,
      file: f.file,
      line: f.line,
      column,
      severity: 'error',
      message: stale.includes(spot)
        ? `gitleaks rule ${f.rule}${f.description ? ` (${f.description})` : ''} matched a credential here (value not shown); the .gitleaksignore entry ${spot} was written for what this line held before and the line changed, so it no longer covers it: remove the credential and rotate it; if it is not a secret either, take ${spot} out of .gitleaksignore in one commit and list it again in the commit that stages this line, saying so for that commit: LOOPGATES_ALLOW_DISABLE=${GATE_ID} git commit …`
        : unstagedIgnore.has(spot)
          ? `gitleaks rule ${f.rule}${f.description ? ` (${f.description})` : ''} matched a credential here (value not shown): remove it and rotate it; if it is not a secret, the work tree's .gitleaksignore lists ${spot}, but only the staged one counts: git add .gitleaksignore, and say so for this commit: LOOPGATES_ALLOW_DISABLE=${GATE_ID} git commit …`
          : ws.mode === 'staged'
            ? // The entry staged with its own line is a narrowing the hook refuses unless the commit says so.
              `gitleaks rule ${f.rule}${f.description ? ` (${f.description})` : ''} matched a credential here (value not shown): remove it and rotate it; if it is not a secret, list it in .gitleaksignore from the repository's top folder (${appendLineCommand(spot, '.gitleaksignore')}), stage it (git add .gitleaksignore) and say so for this commit: LOOPGATES_ALLOW_DISABLE=${GATE_ID} git commit …`
            : `gitleaks rule ${f.rule}${f.description ? ` (${f.description})` : ''} matched a credential here (value not shown): remove it and rotate it, or, if it is not a secret, list it in .gitleaksignore from the repository's top folder: ${appendLineCommand(spot, '.gitleaksignore')}`,
      fingerprint: fingerprint(GATE_ID, f.rule, f.file, `${f.rule}#${n}`),
    });
  }
  if (allowed.length) notes.push(`${allowed.length} finding(s) waved through by a gitleaks:allow comment on their line: ${listed(allowed)}`);
  // An entry the change adds covers its own line (gitleaks' rule; it binds the entry to that line's content, item 2),
  // so the commit waives a finding: named, for the reviewer of .gitleaksignore's diff.
  if (waived.length) notes.push(`${waived.length} finding(s) waved through by .gitleaksignore entries this commit adds: ${listed(waived)}`);
  if (stale.length) notes.push(`${stale.length} finding(s) on a line the change rewrote match a .gitleaksignore entry written before (${listed(stale)}): an entry covers the line's content it was listed with, so these are not filtered`);
  const output: GateOutput = { findings, counts: { files: inputs.length - unscanned.length - lfsUnread.size, items, filtered }, itemUnit, notes, ...(own.length ? { waived: own } : {}) };
  // Fail closed, the commit (or the tree) judged whole: content nobody could scan refuses the run, whatever else was
  // scanned with it (a binary over the limit used to be vacuous alone and a pass next to any other staged file).
  const errors: Array<{ message: string; fix: string }> = [];
  if (unscanned.length) {
    const limit = `${BINARY_SCAN_MAX_BYTES / 1024 / 1024} MiB`;
    errors.push({
      message: `${unscanned.length} ${staged}file(s) too large for the secrets scan (binary, larger than ${limit}), so ${backing.kind === 'tree' ? 'the files checked' : 'the commit'} cannot be judged clean: ${listed(unscanned)}`,
      fix:
        backing.kind === 'tree'
          ? `a file over ${limit} is never scanned (also not as a Git LFS object): check the others with loopgates run --files <paths>, or bypass the secrets gate on purpose: LOOPGATES_SKIP=${GATE_ID} loopgates run --all`
          : `keep it out of this commit (git restore --staged -- ${unscanned.map(shellQuote).join(' ')}) and commit the rest, or commit it unscanned on purpose: LOOPGATES_SKIP=${GATE_ID} git commit … (Git LFS does not help: an LFS object over ${limit} is not scanned either)`,
    });
  }
  if (lfs.blocked.length) {
    const paths = lfs.blocked.map((b) => b.path);
    const shown = lfs.blocked.slice(0, 3).map((b) => `${b.path} (${b.why})`);
    errors.push({
      message: `${paths.length} staged Git LFS file(s) add content the secrets scan could not read: ${shown.join('; ')}${paths.length > 3 ? '; …' : ''}`,
      fix: `fetch the objects so they can be scanned: git lfs pull --include=${shellQuote(paths.join(','))}, then commit again (a pointer staged without git-lfs: install git-lfs and stage the real file); to commit them unscanned on purpose: LOOPGATES_SKIP=${GATE_ID} git commit …`,
    });
  }
  if (errors.length) output.error = { message: errors.map((e) => e.message).join('; also '), fix: errors.map((e) => e.fix).join('; also ') };
  return { output, allowlisted, lineText };
}

/** gitleaks' inline exemption comment (detect.go gitleaksAllowSignature). */
const ALLOW_SIGNATURE = 'gitleaks:allow';

/**
 * `bytes` with every gitleaks:allow made gitleaks:a11ow (same length: lines and columns kept), so gitleaks reports
 * the findings there and the gate counts them as filtered and names them (scanWith).
 */
function withoutAllow(bytes: Buffer): Buffer {
  let i = bytes.indexOf(ALLOW_SIGNATURE);
  if (i < 0) return bytes;
  const out = Buffer.from(bytes);
  for (; i >= 0; i = out.indexOf(ALLOW_SIGNATURE, i + 1)) out.write('a11ow', i + ALLOW_SIGNATURE.length - 5, 'latin1');
  return out;
}

/** The text of 1-based lines `from`..`to` of `bytes` (LF-joined), '' past the end. */
function linesOf(bytes: Buffer, from: number, to: number): string {
  const out: string[] = [];
  for (let n = from; n <= to; n++) {
    const l = lineOf(bytes, n);
    if (l === undefined) break;
    out.push(l.toString('utf8'));
  }
  return out.join('\n');
}

/**
 * The .gitleaksignore entries the change carries over unchanged (listed before it; each covers a line only while
 * that line keeps the content it had then), or null for a tree scan (`run --all`, `--files`: no before side, so
 * gitleaks' own rule applies: `file:rule:line` alone). Index and memory backings: the staged .gitleaksignore
 * unchanged by the change -> every entry; added -> none; modified -> the entries HEAD's copy held.
 */
async function carriedEntries(ws: Workspace, inputs: readonly string[], ignore: ReadonlySet<string>): Promise<ReadonlySet<string> | null> {
  if (ws.backing.kind === 'tree' || !ignore.size) return ws.backing.kind === 'tree' ? null : ignore;
  if (!inputs.includes(IGNORE_FILE)) return ignore;
  const before = await ws.before?.(IGNORE_FILE);
  return before ? parseIgnore(before.toString('utf8')) : new Set();
}

/**
 * Whether the .gitleaksignore entry matching `f` (isIgnored) covers it: an entry the change adds covers its
 * fingerprint (gitleaks' own rule); an entry carried over covers it only when the finding's line holds the same
 * bytes before the change (HEAD's copy, `ws.before`) as after it: a different token written on a listed line is a
 * new finding, though gitleaks' fingerprint (`file:rule:line`) stays the same.
 */
async function ignoreCovers(
  ws: Workspace,
  carried: ReadonlySet<string> | null,
  f: GitleaksFinding,
  decoded: ReadonlyMap<string, ScanText>,
  objects: ReadonlyMap<string, Buffer>,
): Promise<'covered' | 'line changed'> {
  if (!carried || !carried.has(ignoreEntry(f))) return 'covered';
  const before = await ws.before?.(f.file);
  if (!before) return 'line changed';
  const now = decoded.get(f.file);
  const after = objects.get(f.file) ?? (now ? now.bytes : await ws.read(f.file));
  const shift = now?.prefixLines ?? 0;
  const then = decodeForScan(before);
  const a = lineOf(after, f.line + shift);
  const b = lineOf(then.bytes, f.line + then.prefixLines);
  return a !== undefined && b !== undefined && a.equals(b) ? 'covered' : 'line changed';
}

/**
 * Whether every line of a finding's span (`lines`, LF-joined) is a line of HEAD's copy of `file`, read as the scan reads
 * it: the credential and the exemption on or for it were committed before, so waving it through hides nothing this
 * change adds (a file scanned whole: a -diff attribute, a gitleaks:allow comment). An added file has no HEAD copy.
 */
async function heldInHead(ws: Workspace, file: string, lines: string): Promise<boolean> {
  const before = await ws.before?.(file);
  if (!before) return false;
  const then = new Set(decodeForScan(before).bytes.toString('utf8').split('\n'));
  return lines.split('\n').every((l) => then.has(l));
}

/** The bytes of 1-based line `n` of `bytes` (without its LF), or undefined past the end. */
function lineOf(bytes: Buffer, n: number): Buffer | undefined {
  let start = 0;
  for (let l = 1; l < n; l++) {
    const nl = bytes.indexOf(0x0a, start);
    if (nl < 0) return undefined;
    start = nl + 1;
  }
  if (start > bytes.length) return undefined;
  const end = bytes.indexOf(0x0a, start);
  return bytes.subarray(start, end < 0 ? bytes.length : end);
}

const IGNORE_FILE = '.gitleaksignore';

/**
 * Gate.exemptions of the secrets gate: the inputs a team `.gitleaks.toml` (the snapshot's) makes gitleaks skip by
 * path, each with the entry that matched (allowlist.ts). None under gitleaks' default config: those files are
 * scanned under a neutral name. Runs gitleaks (the path probe, cached). Throws LoopgatesError as the scan does.
 */
export async function secretsExemptions(ctx: GateContext<SecretsConfig>, inputs: readonly string[]): Promise<Array<{ path: string; by: string }>> {
  const config = await snapshotFile(ctx.ws, '.gitleaks.toml');
  if (!config || config.equals(Buffer.from(DEFAULT_CONFIG_TOML, 'utf8'))) return [];
  // With the files `[extend] path` names (read as the scan reads them), whose entries skip paths as well.
  const extended = await extendedFiles(config, snapshotReader(ctx.ws), chainSide(ctx.ws));
  const bin = resolveGitleaks(process.env);
  mkdirSync(ctx.cacheDir, { recursive: true });
  const call: GitleaksCall = { bin, runTool: ctx.runTool, signal: ctx.signal, timeoutMs: ctx.config.scanTimeoutMs, cacheDir: ctx.cacheDir };
  const probe = await probeGitleaks(call);
  const skipped = await pathsSkipped(call, probe, inputs, { config, extends: extended }, process.env);
  // Each level's entries under its own file name, the first that matches naming the file.
  const levels = [{ name: '.gitleaks.toml', bytes: config }, ...extended.map((e) => ({ name: e.path, bytes: e.bytes }))].map((l) => ({ name: l.name, entries: allowlistPaths(l.bytes) }));
  const all = levels.flatMap((l) => l.entries);
  return inputs.filter((p) => skipped.has(p)).map((p) => {
    const level = levels.find((l) => entryFor(p, l.entries));
    return { path: p, by: level ? `${level.name} ${skippedBecause(p, level.entries)}` : `.gitleaks.toml ${skippedBecause(p, all)}` };
  });
}

function commandName(probe: GitleaksProbe, kind: 'staged' | 'dir'): string {
  if (kind === 'staged') return probe.staged === 'protect' ? 'protect --staged' : 'git --pre-commit --staged';
  return probe.dir === 'detect' ? 'detect --no-git' : 'dir';
}

/**
 * Where gitleaks' staged scan runs: the top level, unless a `.gitleaksignore` is there on disk (any state: tracked,
 * untracked, edited). gitleaks 8.16's protect reads none (checked against the binary), but later releases read
 * `<source>/.gitleaksignore` in every mode (cmd/root.go Detector), which would let an untracked file, or an entry
 * that outlived its secret (issue 14, item 2), drop a finding. Then gitleaks runs in an empty folder of `scratch`
 * with git pointed at this repository (GIT_DIR, and that folder as GIT_WORK_TREE: `git diff --staged` reads only the
 * index and HEAD), so the only ignore applied is the gate's own filter of the staged file (coverIgnored).
 */
async function stagedScanPlace(root: string, env: Readonly<Record<string, string>>, scratch: string): Promise<{ cwd: string; env: Record<string, string> }> {
  if (!lstatSync(join(root, IGNORE_FILE), { throwIfNoEntry: false })) return { cwd: root, env: { ...env } };
  const gitDir = (await git(['rev-parse', '--absolute-git-dir'], { cwd: root, env })).stdout.toString('utf8').trim();
  const empty = join(scratch, 'source');
  mkdirSync(empty);
  return { cwd: empty, env: { ...env, GIT_DIR: gitDir, GIT_WORK_TREE: empty } };
}

/**
 * The gitleaks config / ignore file that applies: the snapshot's copy (in staged mode the index, so an untracked or
 * unstaged edit cannot silence a finding, while a staged one, part of the commit, does apply); for a working-tree
 * scan (`--all`, named files) also the file at the top level on disk even when untracked or ignored; else none.
 */
async function snapshotFile(ws: Workspace, name: string): Promise<Buffer | undefined> {
  if (await ws.has(name)) return ws.read(name);
  if (ws.backing.kind !== 'tree') return undefined;
  try {
    return readFileSync(join(ws.backing.root, name));
  } catch {
    return undefined;
  }
}

/** Binary files (NUL bytes) larger than this (bytes) are not scanned, and not counted as scanned: 32 MiB. */
export const BINARY_SCAN_MAX_BYTES = 32 * 1024 * 1024;

/** How many leading bytes decide "binary" and "UTF-16 without a BOM": 8000, git's buffer_is_binary (xdiff-interface.c). */
const SNIFF_BYTES = 8000;

/** What gitleaks is given for one file: see decodeForScan. */
export interface ScanText {
  /**
   * `text` (as staged), `utf16` / `utf32` (decoded to UTF-8), `binary` (text runs), `unscannable` (not scanned, not
   * counted).
   */
  kind: 'text' | 'utf16' | 'utf32' | 'binary' | 'unscannable';
  /** The bytes to scan (for `unscannable`, the original bytes, not scanned). */
  bytes: Buffer;
  /** Lines added in front of the file's own first line (subtract from gitleaks' 1-based line numbers). */
  prefixLines: 0 | 1;
}

/**
 * How gitleaks can read `bytes`:
 * - `utf32`: a UTF-32 LE (`FF FE 00 00`) or BE (`00 00 FE FF`) byte-order mark (Unicode FAQ "UTF-8, UTF-16, UTF-32 &
 *   BOM"; what `iconv -t utf-32` writes); decoded to UTF-8 code point by code point (Node's TextDecoder has no
 *   UTF-32), one past U+10FFFF, a surrogate or a trailing partial unit becoming U+FFFD; line numbers kept. `FF FE 00 00`
 *   is also UTF-16 LE starting with U+0000: it is read as UTF-32 unless the unit after the mark is no code point.
 * - `utf16`: a UTF-16 LE/BE byte-order mark (the Unicode BOM table), or none but, in the first 8000 bytes, NUL bytes
 *   only at odd (LE) or only at even (BE) offsets and at no fewer than a third of them (the way editors guess it,
 *   e.g. VS Code's encoding guess from the NUL pattern); decoded to UTF-8, line numbers kept.
 * - `binary`: a NUL byte in the first 8000 bytes (git's buffer_is_binary, xdiff-interface.c), so `git diff` shows no
 *   lines. Every byte but tab, LF, CR and printable ASCII becomes a space (a token is ASCII; lines and byte columns
 *   are kept), behind one added empty line, so no file-type signature is left for gitleaks to skip the file by
 *   (gitleaks skips what h2non/filetype calls `application/*`, e.g. zip). `prefixLines` 1.
 * - `unscannable`: a binary larger than BINARY_SCAN_MAX_BYTES (not scanned, not counted; the run is an `error`).
 * - else `text`, unchanged.
 */
export function decodeForScan(bytes: Buffer): ScanText {
  const utf32 = utf32Order(bytes);
  if (utf32) return { kind: 'utf32', bytes: fromUtf32(bytes.subarray(4), utf32), prefixLines: 0 };
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return { kind: 'utf16', bytes: fromUtf16(bytes.subarray(2), 'le'), prefixLines: 0 };
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return { kind: 'utf16', bytes: fromUtf16(bytes.subarray(2), 'be'), prefixLines: 0 };
  const head = bytes.subarray(0, SNIFF_BYTES);
  if (!head.includes(0)) return { kind: 'text', bytes, prefixLines: 0 };
  const order = utf16Order(head);
  if (order) return { kind: 'utf16', bytes: fromUtf16(bytes, order), prefixLines: 0 };
  if (bytes.length > BINARY_SCAN_MAX_BYTES) return { kind: 'unscannable', bytes, prefixLines: 0 };
  const out = Buffer.allocUnsafe(bytes.length + 1);
  out[0] = 0x0a;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    out[i + 1] = b === 0x09 || b === 0x0a || b === 0x0d || (b >= 0x20 && b <= 0x7e) ? b : 0x20;
  }
  return { kind: 'binary', bytes: out, prefixLines: 1 };
}

/** The byte order of a UTF-32 byte-order mark at the start of `bytes`, or undefined (see decodeForScan). */
function utf32Order(bytes: Buffer): 'le' | 'be' | undefined {
  if (bytes.length < 4) return undefined;
  if (bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 0xfe && bytes[3] === 0xff) return 'be';
  if (bytes[0] !== 0xff || bytes[1] !== 0xfe || bytes[2] !== 0 || bytes[3] !== 0) return undefined;
  // UTF-16 LE text starting with U+0000 has the same four bytes; its next two characters, read as one UTF-32 unit,
  // are a code point only when the second is a control character up to U+0010.
  return bytes.length < 8 || isScalar(bytes.readUInt32LE(4)) ? 'le' : undefined;
}

/** A Unicode scalar value: at most U+10FFFF and not a surrogate (U+D800..U+DFFF). */
function isScalar(cp: number): boolean {
  return cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff);
}

/** UTF-32 code units -> UTF-8 bytes; an invalid unit or a trailing partial one becomes U+FFFD. */
function fromUtf32(units: Buffer, order: 'le' | 'be'): Buffer {
  const whole = units.length & ~3;
  const parts: string[] = [];
  let chunk = '';
  for (let i = 0; i < whole; i += 4) {
    const cp = order === 'le' ? units.readUInt32LE(i) : units.readUInt32BE(i);
    chunk += isScalar(cp) ? String.fromCodePoint(cp) : '\uFFFD';
    if (chunk.length >= 8192) {
      parts.push(chunk);
      chunk = '';
    }
  }
  if (whole < units.length) chunk += '\uFFFD';
  parts.push(chunk);
  return Buffer.from(parts.join(''), 'utf8');
}

/** UTF-16 code units (an odd trailing byte dropped) -> UTF-8 bytes. */
function fromUtf16(units: Buffer, order: 'le' | 'be'): Buffer {
  const even = Buffer.from(units.subarray(0, units.length & ~1));
  if (order === 'be') even.swap16();
  return Buffer.from(even.toString('utf16le'), 'utf8');
}

/**
 * The byte order of BOM-less UTF-16 in `head` (which holds a NUL), or undefined: the NULs all on one parity (ASCII
 * and Latin-1 characters have a zero high byte) and on at least a third of the code units there, so a text file
 * with a stray NUL (or a binary) is not taken for UTF-16.
 */
function utf16Order(head: Buffer): 'le' | 'be' | undefined {
  let evenNul = 0;
  let oddNul = 0;
  const n = head.length & ~1;
  for (let i = 0; i < n; i += 2) {
    if (head[i] === 0) evenNul++;
    if (head[i + 1] === 0) oddNul++;
  }
  if (n < head.length && head[n] === 0) evenNul++;
  const units = n / 2;
  if (evenNul === 0 && oddNul * 3 >= units) return 'le';
  if (oddNul === 0 && evenNul * 3 >= units) return 'be';
  return undefined;
}

/** Every input read once and made readable for gitleaks (decodeForScan), by path. */
async function readForScan(ws: Workspace, paths: readonly string[]): Promise<Map<string, ScanText>> {
  const out = new Map<string, ScanText>();
  for (const p of paths) out.set(p, decodeForScan(await ws.read(p)));
  return out;
}

function binaryNote(paths: readonly string[]): string {
  return `${paths.length} binary file(s) (NUL bytes) scanned as the text between their control bytes: ${listed(paths)} (a credential inside a compressed or encoded format is not seen)`;
}

function listed(paths: readonly string[]): string {
  return `${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ', …' : ''}`;
}

/**
 * Inputs whose `diff` attribute (git-check-attr(1); gitattributes(5) "Generating diff text") is neither `set` nor
 * `unspecified`: `-diff`, `binary` or a named driver (textconv, command) make `git diff` show no added lines, so
 * gitleaks' staged scan is blind to them. Throws GitError.
 */
async function diffBlinded(root: string, env: Readonly<Record<string, string>>, inputs: readonly string[]): Promise<string[]> {
  if (!inputs.length) return [];
  const out = await git(['check-attr', '-z', '--stdin', 'diff'], { cwd: root, env, input: Buffer.concat(inputs.flatMap((p) => [pathBytes(p), Buffer.from([0])])) });
  const parts = splitZ(out.stdout);
  const blinded: string[] = [];
  for (let i = 0; i + 2 < parts.length; i += 3) {
    const value = parts[i + 2];
    if (value !== 'set' && value !== 'unspecified') blinded.push(parts[i]!);
  }
  return blinded;
}

/** What became of the inputs that are Git LFS pointers (resolveLfs). */
interface LfsOutcome {
  /** Pointer inputs scanned as the object they name: path -> the object's bytes (findings' lines and columns). */
  objects: Map<string, Buffer>;
  /** Pointer inputs not scanned and not counted: content HEAD already holds (index), or any (tree); by reason. */
  skipped: Array<{ path: string; reason: 'missing' | 'mismatch' }>;
  /** Index only: pointer inputs whose content the commit adds and the scan could not read (refuse the commit). */
  blocked: Array<{ path: string; why: string }>;
  /** The LFS objects directory as messages show it. */
  where: string;
}

/**
 * Git LFS (pointer spec: https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md): `git add` stores a pointer in
 * the index and the content in the LFS storage, which `git push` uploads, so the pointer is not what to scan. For
 * each input of an `index` or `tree` backing whose `decoded` bytes are a pointer (parseLfsPointer), the object is read
 * and verified (readLfsObject) and `decoded` is replaced by decodeForScan of it (a binary one over
 * BINARY_SCAN_MAX_BYTES: `unscannable` without being read). An object that is missing or does not match:
 * - not LFS-tracked (no `filter=lfs` attribute) and missing: a text file that looks like a pointer; left as text.
 * - tree backing: `skipped` (a `run --all` of a GIT_LFS_SKIP_SMUDGE checkout must not be impossible).
 * - index backing, the pointer's blob already in HEAD's tree at any path (a rename, a mode change): `skipped`, since
 *   the commit adds no content there; else `blocked` (fail closed: new content nobody could scan).
 * `memory` backings (self-tests, mutations) are left alone. Reads git only when some input is a pointer. Throws
 * GitError.
 */
async function resolveLfs(ws: Workspace, inputs: readonly string[], decoded: Map<string, ScanText>): Promise<LfsOutcome> {
  const out: LfsOutcome = { objects: new Map(), skipped: [], blocked: [], where: '' };
  const backing = ws.backing;
  if (backing.kind === 'memory') return out;
  const pointers = new Map<string, LfsPointer>();
  for (const p of inputs) {
    const d = decoded.get(p)!;
    const pointer = d.kind === 'text' ? parseLfsPointer(d.bytes) : undefined;
    if (pointer) pointers.set(p, pointer);
  }
  if (!pointers.size) return out;
  const env = backing.kind === 'index' ? backing.env : {};
  const repo = await lfsRepo(backing.root, env, backing.kind === 'tree');
  if (!repo) return out;
  out.where = shownDir(repo.objectsDir, backing.root);
  const unread = new Map<string, string | undefined>();
  const large = { maxBytes: BINARY_SCAN_MAX_BYTES, headBytes: SNIFF_BYTES, skip: (head: Buffer) => decodeForScan(head).kind === 'binary' };
  for (const [p, pointer] of pointers) {
    const o = readLfsObject(repo.objectsDir, pointer, large);
    if (o.state === 'found') {
      out.objects.set(p, o.bytes);
      decoded.set(p, decodeForScan(o.bytes));
    } else if (o.state === 'skipped') {
      decoded.set(p, { kind: 'unscannable', bytes: decoded.get(p)!.bytes, prefixLines: 0 });
    } else {
      unread.set(p, o.state === 'mismatch' ? o.why : undefined);
    }
  }
  if (!unread.size) return out;
  const missing = [...unread].filter(([, why]) => why === undefined).map(([p]) => p);
  const tracked = await lfsTracked(backing.root, env, missing);
  for (const p of missing) if (!tracked.has(p)) unread.delete(p);
  const inHead = backing.kind === 'index' && unread.size && repo.headTree ? await treeBlobIds(backing.root, env, repo.headTree) : new Set<string>();
  for (const [path, why] of unread) {
    const reason = why === undefined ? 'missing' : 'mismatch';
    const id = blobId(decoded.get(path)!.bytes, repo.objectFormat);
    if (backing.kind === 'tree' || (id !== undefined && inHead.has(id))) out.skipped.push({ path, reason });
    else out.blocked.push({ path, why: why === undefined ? `its object is not in the LFS storage ${out.where}` : `its object in ${out.where} does not match the pointer: ${why}` });
  }
  return out;
}

/**
 * gitleaks' 1-based byte column -> 1-based UTF-16 column (Finding.column), using the line of the bytes `read` gives
 * (the snapshot's file, the LFS object its pointer names, or a UTF-16 / UTF-32 file's text decoded to UTF-8). `shift` is the canary-calibrated extra gitleaks adds on
 * lines after the first. Clamped to the line; 1 when the file is unreadable.
 */
async function utf16Column(read: () => Promise<Buffer>, f: GitleaksFinding, shift: number): Promise<number> {
  let byteCol = f.byteColumn - (f.line > 1 ? shift : 0);
  try {
    const bytes = await read();
    let start = 0;
    for (let l = 1; l < f.line; l++) {
      const nl = bytes.indexOf(0x0a, start);
      if (nl < 0) return 1;
      start = nl + 1;
    }
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    byteCol = Math.max(1, Math.min(byteCol, end - start + 1));
    return bytes.subarray(start, start + byteCol - 1).toString('utf8').length + 1;
  } catch {
    return Math.max(1, byteCol);
  }
}
