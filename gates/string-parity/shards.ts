// string-parity over many catalogs in parallel, opt-in with LOOPGATES_THREADS=n (n >= 2): the judged files are cut
// into contiguous shards (files of one group stay together where the sizes allow), one judged on the calling thread
// and the others in worker threads (shard-worker.ts), each with a copy of the bytes it reads. The merged result is
// what one thread gives: the same findings in the same order, the same counts.
// Off by default because on the 2-core machines we measure on it is slower: the whole l10n corpus took 3.1-3.3 s with
// 2 threads against 2.6-2.8 s with one (one thread already keeps both cores busy with V8's parallel garbage
// collection, and a worker parses its own bases and warms its own JIT). Machines with more cores may gain; measure
// with `node bench/l10n.mjs` (it runs both) before turning it on. Node's worker_threads: nodejs.org/api/worker_threads.html.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { LoopgatesError } from '../../core/errors.js';
import type { Workspace } from '../../core/types.js';
import { type CatalogGroup, type CatalogSet, catalogBytes } from './catalogs.js';
import { androidDefaultFolders, androidFolderOf, type JudgeJob, type JudgeResult, judgeFiles } from './judge-files.js';

/** Runs whose judged files total fewer bytes stay on one thread. */
export const SHARD_MIN_TOTAL_BYTES = 2 * 1024 * 1024;
/** No shard is planned smaller than this (a worker must pay for its start). */
export const SHARD_MIN_BYTES = 1024 * 1024;

/** What the calling thread posts to a shard worker. Bytes are copies owned by the message (transferred). */
export interface ShardMessage {
  set: CatalogSet;
  job: JudgeJob;
  files: Array<[path: string, bytes: Uint8Array]>;
}

/** What a shard worker posts back. */
export type ShardReply = { ok: true; result: JudgeResult } | { ok: false; error: string };

/**
 * How many threads string-parity may use: `LOOPGATES_THREADS` (a whole number >= 1), else 1 (see the head of this
 * file for why), at most 64. Throws LoopgatesError (with its fix) on a malformed `LOOPGATES_THREADS`.
 */
export function threadBudget(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const raw = env.LOOPGATES_THREADS;
  if (raw !== undefined && raw !== '') {
    if (!/^[1-9]\d*$/.test(raw)) {
      throw new LoopgatesError(`LOOPGATES_THREADS must be a whole number >= 1, not ${JSON.stringify(raw)}`, 'unset LOOPGATES_THREADS (one thread), or set it to a whole number such as 2');
    }
    return Math.min(Number(raw), 64);
  }
  return 1;
}

/**
 * Cut `sizes` (bytes per judged file, in group order) into at most `k` contiguous runs: the first holds about
 * `firstShare` of the bytes, the others split the rest evenly. Returns the start index of each run after the first
 * (`[]`: one run); no run is empty. Pure; exported for tests.
 */
export function cutPoints(sizes: readonly number[], k: number, firstShare = 1 / k): number[] {
  const total = sizes.reduce((a, b) => a + b, 0);
  const cuts: number[] = [];
  if (k <= 1) return cuts;
  const first = total * firstShare;
  const target = (j: number) => first + ((total - first) * (j - 1)) / (k - 1);
  let acc = 0;
  for (let i = 0; i < sizes.length && cuts.length < k - 1; i++) {
    if (acc >= target(cuts.length + 1) && i > (cuts.at(-1) ?? 0)) cuts.push(i);
    acc += sizes[i]!;
  }
  return cuts;
}

/**
 * The calling thread's share of the bytes relative to a worker's: it also discovers, reads and copies every file,
 * merges the results, and runs the other gates of the run (hardcoded-strings parses layouts meanwhile); a worker only
 * loads its modules first. Measured on the whole l10n corpus with 2 threads (bench/l10n.mjs).
 */
export const CALLING_THREAD_WEIGHT = 0.6;

const workerFile = new URL('./shard-worker.js', import.meta.url);

/**
 * Judge `job` in shards when it is big enough and more than one thread is allowed; null when it should run on the
 * calling thread (small run, one thread, or no compiled worker next to this module, as when tests run the sources).
 * `log` gets one line naming the shards. Rejects when a worker fails (its error, or its exit code), and with `Error('aborted')` when `signal` aborts: every
 * worker is terminated either way, so a failed shard can never yield a partial pass.
 */
export async function judgeInShards(ws: Workspace, set: CatalogSet, job: JudgeJob, signal?: AbortSignal, log?: (line: string) => void): Promise<JudgeResult | null> {
  const threads = threadBudget();
  if (threads < 2 || job.inputs.length < 2 || !existsSync(fileURLToPath(workerFile))) return null;
  // Group order (first appearance), so a shard holds whole groups and parses few bases.
  const order = job.inputs.map((path, index) => ({ path, index, group: set.byPath.get(path)?.group }));
  const rank = new Map<CatalogGroup | undefined, number>();
  for (const o of order) if (!rank.has(o.group)) rank.set(o.group, rank.size);
  order.sort((a, b) => rank.get(a.group)! - rank.get(b.group)! || a.index - b.index);
  const sizes: number[] = [];
  for (const o of order) sizes.push((await catalogBytes(ws, o.path)).length);
  const total = sizes.reduce((a, b) => a + b, 0);
  if (total < SHARD_MIN_TOTAL_BYTES) return null;
  const k = Math.min(threads, Math.floor(total / SHARD_MIN_BYTES), order.length);
  if (k < 2) return null;
  const cuts = [0, ...cutPoints(sizes, k, CALLING_THREAD_WEIGHT / (CALLING_THREAD_WEIGHT + k - 1)), order.length];
  const shards = cuts.slice(0, -1).map((start, i) => order.slice(start, cuts[i + 1]));
  const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;
  log?.(`${order.length} catalog files (${mb(total)}) in ${shards.length} shards: ${shards.map((sh, i) => `${i === 0 ? 'this thread' : `worker ${i}`} ${sh.length} files`).join(', ')}`);

  const workers: Worker[] = [];
  const stop = () => {
    for (const w of workers) void w.terminate();
  };
  try {
    // Workers first (each loads its modules while the rest is prepared), the calling thread's shard last.
    const pending: Array<Promise<JudgeResult>> = [];
    for (const shard of shards.slice(1)) {
      const w = new Worker(workerFile);
      workers.push(w);
      const message = await shardMessage(ws, set, job, shard.map((o) => o.path));
      pending.push(runWorker(w, message, signal));
      // A rejection is read below; until then keep it from counting as unhandled.
      pending.at(-1)!.catch(() => undefined);
    }
    const own = await judgeFiles(ws, set, { ...job, inputs: shards[0]!.map((o) => o.path) }, signal);
    const results = [own, ...(await Promise.all(pending))];
    const perInput: JudgeResult['perInput'] = new Array(job.inputs.length);
    let files = 0;
    let items = 0;
    const intOnlyOther: Record<string, number> = {};
    const lintIgnored: NonNullable<JudgeResult['lintIgnored']> = [];
    results.forEach((r, s) => {
      if (r.lintIgnored) lintIgnored.push(...r.lintIgnored);
      files += r.files;
      items += r.items;
      for (const [locale, n] of Object.entries(r.intOnlyOther)) intOnlyOther[locale] = (intOnlyOther[locale] ?? 0) + n;
      shards[s]!.forEach((o, i) => (perInput[o.index] = r.perInput[i]!));
    });
    return { perInput, files, items, intOnlyOther, ...(lintIgnored.length ? { lintIgnored } : {}) };
  } finally {
    stop();
  }
}

/** The groups a shard touches, and copies of every file it may read: its inputs, their bases, a staged base's group. */
async function shardMessage(ws: Workspace, set: CatalogSet, job: JudgeJob, inputs: string[]): Promise<ShardMessage> {
  const groups = new Set<CatalogGroup>();
  const paths = new Set<string>();
  for (const p of inputs) {
    const hit = set.byPath.get(p);
    if (!hit) continue;
    groups.add(hit.group);
    paths.add(p);
    if (hit.group.base) paths.add(hit.group.base.path);
    if (job.staged && hit.file.isBase) for (const f of hit.group.files) paths.add(f.path);
  }
  // Android translations are also compared with sibling bases of their values folder (judge-files.ts).
  for (const g of [...groups]) {
    if (g.format !== 'android-xml') continue;
    const folders = androidDefaultFolders(g.id);
    for (const o of set.groups) if (o.format === 'android-xml' && o.base && folders.includes(androidFolderOf(o.id))) (groups.add(o), paths.add(o.base.path));
  }
  const byPath: CatalogSet['byPath'] = new Map();
  for (const g of groups) for (const f of g.files) byPath.set(f.path, { group: g, file: f });
  const files: ShardMessage['files'] = [];
  for (const p of paths) files.push([p, new Uint8Array(await catalogBytes(ws, p))]);
  return { set: { groups: [...groups], byPath, notes: [] }, job: { ...job, inputs }, files };
}

function runWorker(w: Worker, message: ShardMessage, signal?: AbortSignal): Promise<JudgeResult> {
  return new Promise<JudgeResult>((resolve, reject) => {
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      f();
    };
    const onAbort = () => settle(() => reject(new Error('aborted')));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    w.once('message', (reply: ShardReply) => settle(() => (reply.ok ? resolve(reply.result) : reject(new Error(`string-parity shard worker failed: ${reply.error}`)))));
    w.once('error', (err) => settle(() => reject(new Error(`string-parity shard worker failed: ${err.message}`))));
    w.once('messageerror', (err) => settle(() => reject(new Error(`string-parity shard worker could not read its message: ${err.message}`))));
    w.once('exit', (code) => settle(() => reject(new Error(`string-parity shard worker exited (code ${code}) before it replied`))));
    w.postMessage(message, message.files.map(([, b]) => b.buffer as ArrayBuffer));
  });
}
