// Judging what a staged commit introduces (issue 16): a gate's staged findings are split into those HEAD's judgement
// of the same inputs already has (pre-existing) and those the commit brings (introduced), by fingerprint, as a
// multiset; loopgates.yaml `staged:` decides which of them the verdict counts. No baseline file is kept: HEAD is the
// baseline, judged again (or read from the cache) for every commit that has findings.
import { messages } from './messages.js';
import type { GateSettings } from './runner.js';
import type { Finding, GateResult, StagedJudgement, StagedPolicy, Workspace } from './types.js';

/** What the split needs of one HEAD-side finding (the cache keeps exactly this, never a message). */
export interface HeadFinding {
  fingerprint: string;
  severity: Finding['severity'];
  file: string;
  line: number;
  members?: readonly string[];
}

/** Largest fingerprint group aligned by dynamic programming (n x m cells); bigger groups are matched in order. */
const ALIGN_MAX_CELLS = 250_000;

/** HEAD line (1-based) -> the staged line it became, or undefined when the commit changed or removed it. */
export type LineMap = (headLine: number) => number | undefined;

/**
 * Split `now` (a staged run's findings) against `head` (HEAD's findings of the same gate and inputs). Findings are
 * matched by fingerprint as a multiset: two identical HEAD findings and three staged ones leave one introduced.
 * Which of the staged ones is the new one: with the file's line map (`lineMaps`, from git's diff of HEAD and the
 * index) a HEAD finding keeps the staged one at the line its line became; the rest, or all without a map, by an
 * order-preserving alignment that moves lines least. A matched summary finding (`members`) stays pre-existing only
 * when HEAD's names every member it names. Returns both parts in `now`'s order.
 */
export function splitFindings(now: readonly Finding[], head: readonly HeadFinding[], lineMaps: ReadonlyMap<string, LineMap> = new Map()): { introduced: Finding[]; preExisting: Finding[] } {
  const byPrint = new Map<string, HeadFinding[]>();
  for (const h of head) {
    const list = byPrint.get(h.fingerprint);
    if (list) list.push(h);
    else byPrint.set(h.fingerprint, [h]);
  }
  const groups = new Map<string, number[]>();
  now.forEach((f, i) => {
    const g = groups.get(f.fingerprint);
    if (g) g.push(i);
    else groups.set(f.fingerprint, [i]);
  });
  const old = new Set<number>();
  for (const [print, idx] of groups) {
    const before = byPrint.get(print);
    if (!before?.length) continue;
    let mine = [...idx].sort((a, b) => now[a]!.line - now[b]!.line || a - b);
    let theirs = [...before].sort((a, b) => a.line - b.line);
    const pairs: Array<[number, HeadFinding]> = [];
    const map = lineMaps.get(now[mine[0]!]!.file);
    let at = (h: HeadFinding) => h.line;
    if (map && mine.length > theirs.length) {
      at = (h) => map(h.line) ?? h.line;
      // A HEAD finding whose line survived the commit keeps the staged finding at the line it became.
      const byLine = new Map<number, number[]>();
      for (const k of mine) byLine.set(now[k]!.line, [...(byLine.get(now[k]!.line) ?? []), k]);
      const rest: HeadFinding[] = [];
      for (const h of theirs) {
        const to = map(h.line);
        const k = to === undefined ? undefined : byLine.get(to)?.shift();
        if (k === undefined) rest.push(h);
        else pairs.push([k, h]);
      }
      const taken = new Set(pairs.map(([k]) => k));
      mine = mine.filter((k) => !taken.has(k));
      theirs = rest;
    }
    for (const [i, h] of align(mine.map((k) => now[k]!.line), theirs.map(at))) pairs.push([mine[i]!, theirs[h]!]);
    for (const [k, h] of pairs) if (covers(h.members, now[k]!.members)) old.add(k);
  }
  const introduced: Finding[] = [];
  const preExisting: Finding[] = [];
  now.forEach((f, i) => (old.has(i) ? preExisting : introduced).push(f));
  return { introduced, preExisting };
}

/**
 * The LineMap of a unified diff with zero context (`git diff-index -p -U0`): every hunk header `@@ -a[,b] +c[,d] @@`
 * removes HEAD lines a..a+b-1 and shifts the lines after it by d - b. Only the first file of `patch` is read.
 */
export function lineMapOfPatch(patch: string): LineMap {
  const hunks: Array<{ from: number; count: number; shift: number }> = [];
  for (const m of patch.matchAll(/^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm)) {
    const a = Number(m[1]);
    const b = m[2] === undefined ? 1 : Number(m[2]);
    const d = m[4] === undefined ? 1 : Number(m[4]);
    // With b = 0 the hunk inserts after line a: lines from a + 1 on move.
    hunks.push({ from: b === 0 ? a + 1 : a, count: b, shift: d - b });
  }
  return (line) => {
    let shift = 0;
    for (const h of hunks) {
      if (line < h.from) break;
      if (line < h.from + h.count) return undefined;
      shift += h.shift;
    }
    return line + shift;
  };
}

/**
 * The LineMap of one edit from `before` to `after` (a mutant's): lines of the common prefix stay, lines of the common
 * suffix move by the change in line count, the lines between are changed.
 */
export function lineMapOfEdit(before: string, after: string): LineMap {
  const a = before.split('\n');
  const b = after.split('\n');
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  return (line) => (line <= prefix ? line : line > a.length - suffix ? line + b.length - a.length : undefined);
}

/** Whether a HEAD summary naming `before` covers a staged one naming `after` (no members on either: the same finding). */
function covers(before: readonly string[] | undefined, after: readonly string[] | undefined): boolean {
  if (!after?.length) return true;
  if (!before) return false;
  const had = new Set(before);
  return after.every((m) => had.has(m));
}

/**
 * Pairs (index into `a`, index into `b`) of an order-preserving matching of min(|a|, |b|) elements that minimises the
 * sum of |a[i] - b[j]| (both sorted). Groups too big for the table are matched first to first.
 */
export function align(a: readonly number[], b: readonly number[]): Array<[number, number]> {
  const n = a.length;
  const m = b.length;
  const k = Math.min(n, m);
  if (n === m || n * m > ALIGN_MAX_CELLS) return Array.from({ length: k }, (_, i) => [i, i] as [number, number]);
  // Match every element of the shorter list; cost[i][j]: best for the first i of the short list within the first j of the long one.
  const short = n < m ? a : b;
  const long = n < m ? b : a;
  const S = short.length;
  const L = long.length;
  const INF = Number.POSITIVE_INFINITY;
  const cost: Float64Array[] = Array.from({ length: S + 1 }, () => new Float64Array(L + 1).fill(INF));
  for (let j = 0; j <= L; j++) cost[0]![j] = 0;
  for (let i = 1; i <= S; i++) {
    for (let j = i; j <= L; j++) {
      const skip = cost[i]![j - 1]!;
      const take = cost[i - 1]![j - 1]! + Math.abs(short[i - 1]! - long[j - 1]!);
      cost[i]![j] = Math.min(skip, take);
    }
  }
  const pairs: Array<[number, number]> = [];
  for (let i = S, j = L; i > 0; j--) {
    if (j > i && cost[i]![j] === cost[i]![j - 1]) continue;
    pairs.push(n < m ? [i - 1, j - 1] : [j - 1, i - 1]);
    i--;
  }
  return pairs.reverse();
}

/** The `staged` block of a result that was not split (nothing to split, the policy is `all`, the gate judges the change). */
export function unsplit(policy: StagedPolicy, head: StagedJudgement['head'] = 'none', fallback?: string): StagedJudgement {
  return { policy, ...(fallback ? { fallback } : {}), preExisting: { errors: 0, warnings: 0, files: [] }, head };
}

/**
 * `result` with its findings judged by `policy`: under `introduced` only the introduced ones count, under `touched`
 * also every finding in a file of `touched` (the paths the commit changes). The findings that do not count leave
 * `findings` and are summarised in `staged.preExisting`; the verdict is `fail` only for a counted error finding;
 * `counts.findings` is the number of counted findings.
 */
export function judged(result: GateResult, policy: Exclude<StagedPolicy, 'all'>, split: { introduced: Finding[]; preExisting: Finding[] }, touched: ReadonlySet<string>, head: StagedJudgement['head']): GateResult {
  const counted = new Set<Finding>(split.introduced);
  if (policy === 'touched') for (const f of split.preExisting) if (touched.has(f.file)) counted.add(f);
  const findings = result.findings.filter((f) => counted.has(f));
  const left = result.findings.filter((f) => !counted.has(f));
  const files = [...new Set(left.map((f) => f.file))].sort();
  const staged: StagedJudgement = {
    policy,
    preExisting: { errors: left.filter((f) => f.severity === 'error').length, warnings: left.filter((f) => f.severity !== 'error').length, files },
    head,
  };
  const verdict = result.verdict === 'fail' || result.verdict === 'pass' ? (findings.some((f) => f.severity === 'error') ? 'fail' : 'pass') : result.verdict;
  return { ...result, verdict, findings, counts: { ...result.counts, findings: findings.length }, staged };
}

/** HEAD-side findings as the cache and the split keep them. */
export function headFindingsOf(findings: readonly Finding[]): HeadFinding[] {
  return findings.map((f) => ({ fingerprint: f.fingerprint, severity: f.severity, file: f.file, line: f.line, ...(f.members ? { members: f.members } : {}) }));
}

/** Runs a gate over a workspace with the inputs fixed (the runner's own judgement, no split). */
export type RunOn = (ws: Workspace, inputs: readonly string[]) => Promise<GateResult>;

/** HEAD's side of a staged run (core/head-side.ts builds the real one; tests pass their own). */
export interface HeadJudge {
  /**
   * HEAD's findings of `settings.gate` over `inputs` as HEAD holds them (`run` judges HEAD's snapshot when the cache
   * has no answer), or null when there is no HEAD (the initial commit). Throws when HEAD's side cannot be judged.
   */
  judge(settings: GateSettings<any>, inputs: readonly string[], run: RunOn): Promise<{ findings: HeadFinding[]; from: 'cache' | 'run' } | null>;
  /** How the commit moved `path`'s lines (from HEAD's side of it); undefined when unknown. Used to tell identical findings apart. */
  lineMap?(path: string): Promise<LineMap | undefined>;
}

/**
 * A staged run's result judged by the gate's `staged:` policy (default `introduced`). Lazy: HEAD is judged only for a
 * pass/fail result with findings to split (under `touched`, with a finding outside the files the commit changes), and
 * never for `all` or a gate that judges the change alone (Gate.judgesChangeOnly). When HEAD's side cannot be judged
 * the result is judged with `all` (fail closed) and a note says why. Never throws.
 */
export async function applyStagedPolicy(settings: GateSettings<any>, ws: Workspace, result: GateResult, inputs: readonly string[], head: HeadJudge, run: RunOn): Promise<GateResult> {
  const policy = settings.staged ?? 'introduced';
  if (result.verdict !== 'pass' && result.verdict !== 'fail') return result;
  if (policy === 'all' || settings.gate.judgesChangeOnly || result.findings.length === 0) return { ...result, staged: unsplit(policy) };
  const touched = new Set(await ws.targets());
  if (policy === 'touched' && result.findings.every((f) => touched.has(f.file))) return { ...result, staged: unsplit(policy) };
  let side: Awaited<ReturnType<HeadJudge['judge']>>;
  try {
    side = await head.judge(settings, inputs, run);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return { ...result, notes: [...result.notes, messages.headSideFailed(settings.gate.id, policy, why)], staged: unsplit('all', 'none', why) };
  }
  if (!side) return judged(result, policy, { introduced: result.findings, preExisting: [] }, touched, 'none');
  return judged(result, policy, splitFindings(result.findings, side.findings, await lineMapsFor(result.findings, side.findings, head)), touched, side.from);
}

/** Line maps of the files where identical findings must be told apart (more staged than HEAD has, HEAD has some). */
async function lineMapsFor(now: readonly Finding[], head: readonly HeadFinding[], judge: HeadJudge): Promise<Map<string, LineMap>> {
  const maps = new Map<string, LineMap>();
  if (!judge.lineMap) return maps;
  const count = new Map<string, number>();
  for (const h of head) count.set(h.fingerprint, (count.get(h.fingerprint) ?? 0) + 1);
  for (const f of now) count.set(f.fingerprint, (count.get(f.fingerprint) ?? 0) - 1);
  const files = new Set<string>();
  const had = new Set(head.map((h) => h.fingerprint));
  for (const f of now) if (had.has(f.fingerprint) && count.get(f.fingerprint)! < 0) files.add(f.file);
  for (const file of files) {
    try {
      const m = await judge.lineMap(file);
      if (m) maps.set(file, m);
    } catch {
      /* without a map, identical findings are told apart by how far lines moved */
    }
  }
  return maps;
}
