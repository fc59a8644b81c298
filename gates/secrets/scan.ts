// Secrets gate: the scan (run()), loaded on demand by index.ts. gitleaks (https://github.com/gitleaks/gitleaks,
// README "Usage", ".gitleaksignore", "Exit Codes") over what the commit would record, after the canary proof.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LoopgatesError } from '../../core/errors.js';
import { fingerprint } from '../../core/finding.js';
import { git, splitZ } from '../../core/git.js';
import type { GateContext, GateOutput, Workspace } from '../../core/types.js';
import {
  DEFAULT_CONFIG_TOML,
  ensureCanary,
  gitleaksEnv,
  isIgnored,
  makeScratch,
  parseIgnore,
  probeGitleaks,
  removeScratch,
  resolveGitleaks,
  runScan,
  scanFiles,
  toRelative,
} from './gitleaks.js';
import type { GitleaksCall, GitleaksFinding, GitleaksProbe, ScanFiles } from './gitleaks.js';
import { GATE_ID, type SecretsConfig } from './index.js';

/**
 * Run the secrets scan over `inputs` of `ctx.ws`, by backing:
 * - `index`: `gitleaks protect --staged` (or `git --pre-commit --staged`) in the repository with the hook's GIT_*
 *   environment unchanged (GIT_INDEX_FILE of `commit -a` / `commit -- path`) and blinding git config neutralised;
 *   staged files whose `diff` attribute hides them from `git diff` (or all, when gitleaks saw no diff at all, as
 *   with `diff.external`) are scanned again as files from their staged bytes.
 * - `tree`: exactly the target files copied into a scratch dir, `detect --no-git` (or `dir`), paths mapped back.
 * - `memory`: the targets staged into a scratch repository's scratch index, scanned like the hook scans.
 * Never throws a LoopgatesError: those become GateOutput.error (verdict `error`, commit refused).
 */
export async function runSecrets(ctx: GateContext<SecretsConfig>, inputs: readonly string[]): Promise<GateOutput> {
  try {
    return await scan(ctx, inputs);
  } catch (err) {
    if (err instanceof LoopgatesError) return { findings: [], counts: { files: 0 }, error: { message: err.message, fix: err.fix } };
    throw err;
  }
}

async function scan(ctx: GateContext<SecretsConfig>, inputs: readonly string[]): Promise<GateOutput> {
  const { ws } = ctx;
  const bin = resolveGitleaks(process.env);
  mkdirSync(ctx.cacheDir, { recursive: true });
  const call: GitleaksCall = { bin, runTool: ctx.runTool, signal: ctx.signal, timeoutMs: ctx.config.scanTimeoutMs, cacheDir: ctx.cacheDir };
  const probe = await probeGitleaks(call);
  const files: ScanFiles = { config: await snapshotFile(ws, '.gitleaks.toml'), ignore: await snapshotFile(ws, '.gitleaksignore') };
  const backing = ws.backing;
  // gitleaks run in the repository reads <source>/.gitleaks.toml from the working tree when no --config is given:
  // an untracked or unstaged config must not change what the commit is judged by, so name the defaults explicitly.
  if (backing.kind === 'index' && !files.config && existsSync(join(backing.root, '.gitleaks.toml'))) files.config = Buffer.from(DEFAULT_CONFIG_TOML, 'utf8');
  const kind = backing.kind === 'tree' ? 'dir' : 'staged';
  const canary = await ensureCanary(call, probe, kind, files, process.env);
  ctx.log(`gitleaks ${bin.path}: ${commandName(probe, kind)}; canary ${canary.cached ? 'proof cached' : 'reported'}`);
  const shifts = { staged: canary.columnShift, dir: canary.columnShift };
  const notes: string[] = [];
  let raw: Array<GitleaksFinding & { via: 'staged' | 'dir' }> = [];
  let items: number;
  let itemUnit: string;

  if (backing.kind === 'index') {
    const cfg = files.config ? makeScratch('cfg') : undefined;
    let result;
    try {
      let configPath: string | undefined;
      if (cfg && files.config) writeFileSync((configPath = join(cfg, 'gitleaks.toml')), files.config);
      result = await runScan(call, probe, { kind: 'staged', cwd: backing.root, env: gitleaksEnv(process.env, backing.env), configPath });
    } finally {
      if (cfg) removeScratch(cfg);
    }
    raw = result.findings.map((f) => ({ ...f, file: toRelative(f.file, backing.root), via: 'staged' as const }));
    items = result.commitsScanned ?? 1;
    itemUnit = 'staged diffs';
    let asFiles = await diffBlinded(backing.root, backing.env, inputs);
    if (asFiles.length) notes.push(`${asFiles.length} staged file(s) have a diff attribute that hides them from git diff (${asFiles.slice(0, 3).join(', ')}${asFiles.length > 3 ? ', …' : ''}); scanned their staged content as files`);
    if (result.commitsScanned === 0 && inputs.length > 0) {
      asFiles = [...inputs];
      notes.push('gitleaks saw no staged diff (diff.external or another git setting hides it); scanned every staged file as a file instead');
    }
    if (asFiles.length) {
      const dirCanary = await ensureCanary(call, probe, 'dir', files, process.env);
      shifts.dir = dirCanary.columnShift;
      const contents = new Map<string, Buffer>();
      for (const p of asFiles) contents.set(p, await ws.read(p));
      const extra = await scanFiles(call, probe, 'dir', contents, files, process.env);
      raw.push(...extra.findings.map((f) => ({ ...f, via: 'dir' as const })));
    }
  } else {
    const contents = new Map<string, Buffer>();
    for (const p of inputs) contents.set(p, await ws.read(p));
    const result = await scanFiles(call, probe, kind, contents, files, process.env);
    raw = result.findings.map((f) => ({ ...f, via: kind }));
    items = kind === 'dir' ? contents.size : (result.commitsScanned ?? 1);
    itemUnit = kind === 'dir' ? 'files' : 'staged diffs';
  }

  const ignore = files.ignore ? parseIgnore(files.ignore.toString('utf8')) : new Set<string>();
  const seen = new Set<string>();
  const perRule = new Map<string, number>();
  const findings: GateOutput['findings'] = [];
  let filtered = 0;
  for (const f of raw.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line)) {
    const spot = `${f.file}:${f.rule}:${f.line}`;
    if (seen.has(spot)) continue;
    seen.add(spot);
    if (isIgnored(ignore, f)) {
      filtered++;
      continue;
    }
    const n = (perRule.get(`${f.file}\0${f.rule}`) ?? 0) + 1;
    perRule.set(`${f.file}\0${f.rule}`, n);
    const column = await utf16Column(ws, f, f.via === 'dir' ? shifts.dir : shifts.staged);
    findings.push({
      gate: GATE_ID,
      rule: f.rule,
      file: f.file,
      line: f.line,
      column,
      severity: 'error',
      message: `gitleaks rule ${f.rule}${f.description ? ` (${f.description})` : ''} matched a credential here (value not shown): remove it and rotate it, or list ${spot} in .gitleaksignore if it is not a secret`,
      fingerprint: fingerprint(GATE_ID, f.rule, f.file, `${f.rule}#${n}`),
    });
  }
  return { findings, counts: { files: inputs.length, items, filtered }, itemUnit, notes };
}

function commandName(probe: GitleaksProbe, kind: 'staged' | 'dir'): string {
  if (kind === 'staged') return probe.staged === 'protect' ? 'protect --staged' : 'git --pre-commit --staged';
  return probe.dir === 'detect' ? 'detect --no-git' : 'dir';
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

/**
 * Inputs whose `diff` attribute (git-check-attr(1); gitattributes(5) "Generating diff text") is neither `set` nor
 * `unspecified`: `-diff`, `binary` or a named driver (textconv, command) make `git diff` show no added lines, so
 * gitleaks' staged scan is blind to them. Throws GitError.
 */
async function diffBlinded(root: string, env: Readonly<Record<string, string>>, inputs: readonly string[]): Promise<string[]> {
  if (!inputs.length) return [];
  const out = await git(['check-attr', '-z', '--stdin', 'diff'], { cwd: root, env, input: inputs.map((p) => `${p}\0`).join('') });
  const parts = splitZ(out.stdout);
  const blinded: string[] = [];
  for (let i = 0; i + 2 < parts.length; i += 3) {
    const value = parts[i + 2];
    if (value !== 'set' && value !== 'unspecified') blinded.push(parts[i]!);
  }
  return blinded;
}

/**
 * gitleaks' 1-based byte column -> 1-based UTF-16 column (Finding.column), using the snapshot's line. `shift` is the
 * canary-calibrated extra gitleaks adds on lines after the first. Clamped to the line; 1 when the file is unreadable.
 */
async function utf16Column(ws: Workspace, f: GitleaksFinding, shift: number): Promise<number> {
  let byteCol = f.byteColumn - (f.line > 1 ? shift : 0);
  try {
    const bytes = await ws.read(f.file);
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
