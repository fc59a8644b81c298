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
    // git shows a UTF-16 file (NUL bytes) as "Binary files differ", so the staged scan never sees its lines.
    const encoded = await textEncodings(ws, inputs);
    const textual = inputs.filter((p) => !encoded.utf16.has(p) && !encoded.binary.includes(p));
    if (result.commitsScanned === 0 && textual.length > 0) {
      asFiles = [...inputs];
      notes.push('gitleaks saw no staged diff (diff.external or another git setting hides it); scanned every staged file as a file instead');
    }
    const unread = encoded.binary.filter((p) => !asFiles.includes(p));
    if (unread.length) notes.push(binaryNote(unread, true));
    const asText = new Map<string, Buffer>();
    for (const p of asFiles) asText.set(p, decodeForScan(await ws.read(p)).bytes);
    for (const [p, b] of encoded.utf16) asText.set(p, b);
    if (encoded.utf16.size) notes.push(`${encoded.utf16.size} staged UTF-16 file(s) decoded to UTF-8 and scanned as files`);
    if (asText.size) {
      const dirCanary = await ensureCanary(call, probe, 'dir', files, process.env);
      shifts.dir = dirCanary.columnShift;
      const extra = await scanFiles(call, probe, 'dir', asText, files, process.env);
      raw.push(...extra.findings.map((f) => ({ ...f, via: 'dir' as const })));
    }
  } else {
    const contents = new Map<string, Buffer>();
    const binary: string[] = [];
    for (const p of inputs) {
      const decoded = decodeForScan(await ws.read(p));
      if (decoded.kind === 'binary') binary.push(p);
      contents.set(p, decoded.bytes);
    }
    if (binary.length) notes.push(binaryNote(binary, kind === 'staged'));
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
 * How gitleaks can read `bytes`: `utf16` (a UTF-16 LE/BE byte-order mark: decoded to UTF-8, line numbers kept),
 * `binary` (a NUL byte in the first 8000 bytes, git's own binary test; passed on unchanged, gitleaks reads it as
 * bytes), else `text`. Source: git's buffer_is_binary (xdiff-interface.c), the Unicode BOM table.
 */
export function decodeForScan(bytes: Buffer): { kind: 'text' | 'utf16' | 'binary'; bytes: Buffer } {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return { kind: 'utf16', bytes: Buffer.from(bytes.subarray(2).toString('utf16le'), 'utf8') };
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    const le = Buffer.from(bytes.subarray(2, 2 + ((bytes.length - 2) & ~1)));
    le.swap16();
    return { kind: 'utf16', bytes: Buffer.from(le.toString('utf16le'), 'utf8') };
  }
  if (bytes.subarray(0, 8000).includes(0)) return { kind: 'binary', bytes };
  return { kind: 'text', bytes };
}

/** UTF-16 inputs (decoded) and binary inputs (named in a note: what gitleaks cannot read is never claimed as read). */
async function textEncodings(ws: Workspace, paths: readonly string[]): Promise<{ utf16: Map<string, Buffer>; binary: string[] }> {
  const utf16 = new Map<string, Buffer>();
  const binary: string[] = [];
  for (const p of paths) {
    const d = decodeForScan(await ws.read(p));
    if (d.kind === 'utf16') utf16.set(p, d.bytes);
    else if (d.kind === 'binary') binary.push(p);
  }
  return { utf16, binary };
}

function binaryNote(paths: readonly string[], staged: boolean): string {
  const what = staged
    ? 'not scanned (git shows no lines of a binary file, so gitleaks reads none)'
    : 'scanned as raw bytes only (a credential inside an encoded or compressed format is not seen)';
  return `${paths.length} binary file(s) ${what}: ${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ', …' : ''}`;
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
