// hardcoded-strings extraction off the calling thread: one worker thread per gate run (extract-worker.ts) parses the
// files it is posted with saxes and web-tree-sitter and posts back each file's Extraction (plain data). Parsing is
// synchronous CPU work that no timer can interrupt on the thread doing it (a 12 MB generated .kt file held the main
// thread 94 s past a 60 s bound, with every other gate's timers and I/O frozen); a worker is stopped by
// `worker.terminate()` when the run's signal aborts. When the compiled worker module is absent (tests run the .ts
// sources) extraction runs on the calling thread as before. Node's worker_threads: nodejs.org/api/worker_threads.html.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { HardcodedStringsConfig, Language } from './index.js';
import type { Extraction } from './model.js';

/** The part of the gate's config the extractors read: structured-clone safe (arrays of strings, a boolean). */
export type ExtractOptions = Pick<HardcodedStringsConfig, 'attributes' | 'textComponents' | 'honorLintIgnore'>;

/** `workerData` of an extract worker. */
export interface ExtractWorkerData {
  options: ExtractOptions;
}

/** One file posted to an extract worker; `id` pairs it with its reply. */
export interface ExtractRequest {
  id: number;
  language: Language;
  source: string;
}

/** An extract worker's reply: the file's Extraction, or the message (and stack) of what the extractor threw. */
export type ExtractReply = { id: number; ok: true; extraction: Extraction } | { id: number; ok: false; message: string; stack: string | undefined };

/**
 * Extract the candidates of `source` with the extractor of `language`, whose module (and parser: saxes for XML,
 * web-tree-sitter and one grammar for source files) loads on first use in the thread that calls it: a run of only
 * Kotlin files never loads saxes, one of only layouts never starts tree-sitter. Throws what the extractor throws
 * (a grammar missing from tree-sitter-wasms); malformed XML is no throw but `fatal` in the result.
 */
export async function extractSource(language: Language, source: string, options: ExtractOptions): Promise<Extraction> {
  switch (language) {
    case 'android-xml':
      return (await import('./android-xml.js')).extractAndroidXml(source, { attributes: options.attributes.android, honorLintIgnore: options.honorLintIgnore });
    case 'kotlin':
      return (await import('./kotlin.js')).extractKotlin(source, options.attributes.kotlin);
    case 'java':
      return (await import('./java.js')).extractJava(source);
    case 'swift':
      return (await import('./swift.js')).extractSwift(source, options.attributes.swift);
    case 'tsx':
    case 'typescript':
    case 'javascript':
      return (await import('./jsx.js')).extractJsx(source, language, options.attributes.jsx, options.textComponents);
  }
}

/** Extracts the files of one gate run, in a worker thread or on the calling thread. */
export interface Extractor {
  /** `'worker'` when a worker thread parses, `'thread'` when the calling thread does (no compiled worker module). */
  readonly where: 'worker' | 'thread';
  /**
   * The Extraction of `source`. Rejects with what the extractor threw (same message as on the calling thread), with
   * `Error('aborted')` once the signal has aborted, and with an error naming the worker when the worker failed,
   * exited or could not read its message: a failed worker never yields a result, so the gate can only end in error.
   */
  extract(language: Language, source: string): Promise<Extraction>;
  /**
   * Stop the worker (if any); pending and later `extract` calls reject at once. Resolves, when the thread has
   * stopped, with its exit code (1 when terminated; undefined on the calling thread). Idempotent; never rejects.
   */
  close(): Promise<number | undefined>;
}

const workerFile = new URL('./extract-worker.js', import.meta.url);

/** Whether the compiled worker module sits beside this one (it does in dist/, not when tests run the sources). */
export function workerAvailable(): boolean {
  return existsSync(fileURLToPath(workerFile));
}

/** How `openExtractor` runs. */
export interface ExtractorSettings {
  /** The run's signal: aborting it terminates the worker and rejects every pending and later `extract`. */
  signal: AbortSignal;
  /** The worker module; default the compiled extract-worker.js beside this module (tests point at another). */
  workerFile?: URL;
  /** Parse on the calling thread even when the worker module exists (a small run: see judge.ts THREAD_BUDGET_CHARS). */
  inThread?: boolean;
}

/**
 * An Extractor for one gate run: a worker thread running `settings.workerFile` when that file exists and `inThread`
 * is not set (the worker keeps its grammars loaded across files), else the calling thread. The caller must `close()`
 * it on every path.
 */
export function openExtractor(options: ExtractOptions, settings: ExtractorSettings): Extractor {
  const file = settings.workerFile ?? workerFile;
  if (settings.inThread || !existsSync(fileURLToPath(file))) return threadExtractor(options, settings);
  return workerExtractor(file, options, settings);
}

function threadExtractor(options: ExtractOptions, settings: ExtractorSettings): Extractor {
  // One file at a time, in the order asked, as the worker does: web-tree-sitter must not load two grammars at once
  // (interleaved loads of its dynamically linked grammar modules fail: "bad export type for '…': undefined").
  let queue: Promise<unknown> = Promise.resolve();
  return {
    where: 'thread',
    extract(language, source) {
      const run = queue.then(() => {
        if (settings.signal.aborted) throw new Error('aborted');
        return extractSource(language, source, options);
      });
      queue = run.catch(() => undefined);
      return run;
    },
    close: async () => undefined,
  };
}

function workerExtractor(file: URL, options: ExtractOptions, settings: ExtractorSettings): Extractor {
  const data: ExtractWorkerData = { options };
  const worker = new Worker(file, { workerData: data });
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  const pending = new Map<number, { resolve: (e: Extraction) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  // Set once: every pending and later extract() rejects with it.
  let failure: Error | undefined;
  let closed = false;
  const fail = (err: Error) => {
    failure ??= err;
    for (const p of pending.values()) p.reject(failure);
    pending.clear();
    void close();
  };
  const onAbort = () => fail(new Error('aborted'));
  const close = (): Promise<number> => {
    if (closed) return exited;
    closed = true;
    settings.signal.removeEventListener('abort', onAbort);
    failure ??= new Error('hardcoded-strings extract worker was closed');
    for (const p of pending.values()) p.reject(failure);
    pending.clear();
    void worker.terminate();
    return exited;
  };
  worker.on('message', (reply: ExtractReply) => {
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    if (reply.ok) return p.resolve(reply.extraction);
    const err = new Error(reply.message);
    if (reply.stack !== undefined) err.stack = reply.stack;
    p.reject(err);
  });
  worker.on('error', (err) => fail(new Error(`hardcoded-strings extract worker failed: ${err.message}`)));
  worker.on('messageerror', (err) => fail(new Error(`hardcoded-strings extract worker could not read its message: ${err.message}`)));
  worker.on('exit', (code) => fail(new Error(`hardcoded-strings extract worker exited (code ${code}) before it replied`)));
  if (settings.signal.aborted) onAbort();
  else settings.signal.addEventListener('abort', onAbort, { once: true });
  return {
    where: 'worker',
    extract(language, source) {
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      return new Promise<Extraction>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        const request: ExtractRequest = { id, language, source };
        worker.postMessage(request);
      });
    },
    close,
  };
}
