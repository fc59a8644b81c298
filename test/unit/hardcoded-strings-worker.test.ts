// hardcoded-strings extraction in a worker thread (gates/hardcoded-strings/extract.ts): what the worker posts back is
// what the calling thread computes, a worker that fails or exits is an error (never a result), and aborting the run's
// signal stops a parse mid-file. The worker module is the compiled dist/ one (`npm run build` first): vitest runs the
// .ts sources, beside which no extract-worker.js exists, so there openExtractor falls back to the calling thread.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extractSource, openExtractor, workerAvailable, type ExtractOptions } from '../../gates/hardcoded-strings/extract.js';
import { configSchema, languageOf, type Language } from '../../gates/hardcoded-strings/index.js';
import { hardcodedStringsSelfTest } from '../../gates/hardcoded-strings/selftest.js';
import { repoRoot } from '../helpers/setup-env.js';
import { bigKotlin } from '../helpers/generated.js';

const distWorker = pathToFileURL(join(repoRoot, 'dist', 'gates', 'hardcoded-strings', 'extract-worker.js'));
const defaults = configSchema.parse({});
const options: ExtractOptions = { attributes: defaults.attributes, textComponents: defaults.textComponents, honorLintIgnore: defaults.honorLintIgnore };

/** Every file the self-test cases hold that an extractor reads, plus inputs that exercise every Extraction field. */
function samples(): Array<{ path: string; language: Language; source: string }> {
  const out: Array<{ path: string; language: Language; source: string }> = [];
  for (const c of hardcodedStringsSelfTest()) {
    for (const [path, source] of Object.entries(c.files)) {
      const language = languageOf(path);
      if (language) out.push({ path: `${c.name}: ${path}`, language, source });
    }
  }
  out.push(
    { path: 'fatal.xml', language: 'android-xml', source: '<LinearLayout xmlns:android="http://schemas.android.com/apk/res/android"><TextView android:text="x & y"/></LinearLayout>\n' },
    {
      path: 'lint-ignore.xml',
      language: 'android-xml',
      source: '<LinearLayout xmlns:android="http://schemas.android.com/apk/res/android" xmlns:tools="http://schemas.android.com/tools">\n<TextView android:text="OK" tools:ignore="HardcodedText"/>\n</LinearLayout>\n',
    },
    { path: 'Broken.kt', language: 'kotlin', source: 'fun f( {\n  Text("Hello broken")\n  // loopgates-ignore hardcoded-strings\n  Toast.makeText(ctx, "Hi", 1)\n}\n' },
    // A recovered region that holds a literal (the only kind reported since issue 15 item 12).
    { path: 'BrokenLiteral.kt', language: 'kotlin', source: 'val broken = listOf(\n    "Pause" ) ) ) (\n' },
    { path: 'Uni.swift', language: 'swift', source: 'import UIKit\nfunc f() {\n  label.text = "Grüße \\u{1F600} ✓"\n  Text("Missing \\(x) key")\n}\n' },
    { path: 'App.jsx', language: 'javascript', source: 'export const A = () => <Text accessibilityLabel={`Open ${x}`}>Hello &amp; bye</Text>;\n' },
  );
  return out;
}


/**
 * A lower bound of the time (ms) one thread takes to parse `bytes` of bigKotlin(): a 512 KB slice timed on this
 * thread with the grammar warm and optimised (the CLI's worker uses the slower baseline tier for one file), scaled.
 */
async function estimateParseMs(bytes: number): Promise<number> {
  await extractSource('kotlin', bigKotlin(4096), options);
  const slice = bigKotlin(512 << 10);
  const t0 = performance.now();
  await extractSource('kotlin', slice, options);
  return ((performance.now() - t0) * bytes) / slice.length;
}

/** A worker module written to a temp dir: `body` runs in the worker. */
function fakeWorker(body: string): URL {
  const file = join(mkdtempSync(join(tmpdir(), 'loopgates-hs-worker-')), 'worker.mjs');
  writeFileSync(file, `import { parentPort } from 'node:worker_threads';\n${body}\n`);
  return pathToFileURL(file);
}

const never = new AbortController().signal;

describe('hardcoded-strings extraction in a worker thread', () => {
  // First in this file, so no grammar is loaded yet: judge() asks a few files ahead, and web-tree-sitter fails
  // ("bad export type for '…': undefined") when two of its grammars load at once.
  it('on the calling thread, files of every language asked at once are extracted one at a time, as asked one by one', async () => {
    const list = samples();
    expect(new Set(list.map((s) => s.language)).size).toBe(6);
    const ex = openExtractor(options, { signal: never, inThread: true });
    expect(ex.where).toBe('thread');
    const got = await Promise.all(list.map((s) => ex.extract(s.language, s.source)));
    for (const [i, s] of list.entries()) expect(got[i], s.path).toStrictEqual(await extractSource(s.language, s.source, options));
    await ex.close();
  });

  it('every Extraction is plain data: a structured clone (what postMessage sends) equals it exactly', async () => {
    const list = samples();
    expect(list.length).toBeGreaterThanOrEqual(20);
    const seen = { fatal: 0, syntaxErrors: 0, directives: 0, suppressedBy: 0, lookupKey: 0, lookupTable: 0 };
    for (const s of list) {
      const ex = await extractSource(s.language, s.source, options);
      expect(structuredClone(ex), s.path).toStrictEqual(ex);
      if (ex.fatal) seen.fatal++;
      if (ex.syntaxErrors.length > 0) seen.syntaxErrors++;
      if (ex.directives.length > 0) seen.directives++;
      if (ex.candidates.some((c) => c.suppressedBy !== undefined)) seen.suppressedBy++;
      if (ex.candidates.some((c) => c.lookupKey !== undefined)) seen.lookupKey++;
      if (ex.candidates.some((c) => c.lookupTable !== undefined && c.lookupTable !== 'Localizable')) seen.lookupTable++;
    }
    // The samples reach every optional part of an Extraction.
    for (const [field, n] of Object.entries(seen)) expect(n, field).toBeGreaterThan(0);
  });

  it('without a compiled worker beside the module (the .ts sources), extraction stays on the calling thread', async () => {
    expect(workerAvailable()).toBe(false);
    const ex = openExtractor(options, { signal: never });
    try {
      expect(ex.where).toBe('thread');
      const s = samples()[1]!;
      expect(await ex.extract(s.language, s.source)).toStrictEqual(await extractSource(s.language, s.source, options));
    } finally {
      await ex.close();
    }
  });

  it('the compiled worker gives the calling thread\'s Extraction for every sample, one worker for all files', async () => {
    expect(existsSync(distWorker), 'run `npm run build` first').toBe(true);
    const list = samples();
    const ex = openExtractor(options, { signal: never, workerFile: distWorker });
    try {
      expect(ex.where).toBe('worker');
      // Posted all at once: the replies pair with their requests whatever the order of completion.
      const got = await Promise.all(list.map((s) => ex.extract(s.language, s.source)));
      for (const [i, s] of list.entries()) expect(got[i], s.path).toStrictEqual(await extractSource(s.language, s.source, options));
    } finally {
      await ex.close();
    }
  });

  it('an extractor that throws in the worker rejects that file with the message it gives on the calling thread; the worker goes on', async () => {
    const bad = 42 as unknown as string;
    const inThread = await extractSource('kotlin', bad, options).then(
      () => 'resolved',
      (err: Error) => err.message,
    );
    expect(inThread).not.toBe('resolved');
    const ex = openExtractor(options, { signal: never, workerFile: distWorker });
    try {
      await expect(ex.extract('kotlin', bad)).rejects.toThrow(inThread);
      const s = samples().find((x) => x.language === 'kotlin')!;
      expect(await ex.extract(s.language, s.source)).toStrictEqual(await extractSource(s.language, s.source, options));
    } finally {
      await ex.close();
    }
  });

  it('a worker that exits before it replies rejects the pending file and every later one, naming the exit code', async () => {
    const ex = openExtractor(options, { signal: never, workerFile: fakeWorker("parentPort.on('message', () => process.exit(3));") });
    try {
      await expect(ex.extract('kotlin', 'fun f() {}')).rejects.toThrow(/hardcoded-strings extract worker exited \(code 3\) before it replied/);
      await expect(ex.extract('kotlin', 'fun g() {}')).rejects.toThrow(/exited \(code 3\)/);
    } finally {
      await ex.close();
    }
  });

  it('a worker that throws is an error naming the worker, never a result', async () => {
    const ex = openExtractor(options, { signal: never, workerFile: fakeWorker("parentPort.on('message', () => { throw new Error('grammar exploded'); });") });
    try {
      await expect(ex.extract('kotlin', 'fun f() {}')).rejects.toThrow(/hardcoded-strings extract worker failed: grammar exploded/);
    } finally {
      await ex.close();
    }
  });

  it('a reply for no pending file is ignored; a worker that never answers is ended by the signal', async () => {
    const controller = new AbortController();
    const ex = openExtractor(options, { signal: controller.signal, workerFile: fakeWorker("parentPort.on('message', () => parentPort.postMessage({ id: 99, ok: true, extraction: { candidates: [] } }));") });
    try {
      const pending = ex.extract('kotlin', 'fun f() {}');
      setTimeout(() => controller.abort(new Error('timeout')), 200);
      await expect(pending).rejects.toThrow(/^aborted$/);
    } finally {
      await ex.close();
    }
  });

  it('aborting the signal stops a parse mid-file: the pending file and later ones reject at once', async () => {
    const controller = new AbortController();
    const ex = openExtractor(options, { signal: controller.signal, workerFile: distWorker });
    try {
      // Grammar loaded first, so the next request is pure parsing.
      await ex.extract('kotlin', 'fun f() {}');
      const source = bigKotlin(16 << 20);
      const parseMs = await estimateParseMs(source.length);
      const t0 = performance.now();
      const pending = ex.extract('kotlin', source);
      setTimeout(() => controller.abort(new Error('timeout')), 300);
      await expect(pending).rejects.toThrow(/^aborted$/);
      await expect(ex.extract('kotlin', 'fun g() {}')).rejects.toThrow(/^aborted$/);
      // The thread itself stopped (terminate interrupts WebAssembly), not only the promise: close() resolves once
      // the thread has exited, long before the parse could have ended.
      const exitCode = await ex.close();
      const waited = performance.now() - t0;
      expect(exitCode).toBe(1);
      expect(parseMs).toBeGreaterThan(10_000);
      expect(waited).toBeLessThan(parseMs / 3);
    } finally {
      await ex.close();
    }
  });

  it('close() rejects what is pending and is idempotent', async () => {
    const ex = openExtractor(options, { signal: never, workerFile: fakeWorker("parentPort.on('message', () => {});") });
    const pending = expect(ex.extract('kotlin', 'fun f() {}')).rejects.toThrow(/extract worker was closed/);
    const [a, b] = [ex.close(), ex.close()];
    expect(await a).toBe(await b);
    await pending;
    await expect(ex.extract('kotlin', 'fun g() {}')).rejects.toThrow(/extract worker was closed/);
  });
});
