// A hardcoded-strings extract worker (see extract.ts): parses each ExtractRequest posted to it, one after another in
// the order posted, and posts back an ExtractReply. It lives for one gate run (the gate terminates it), so the
// grammars it loads serve every file of that run.
import { parentPort, workerData } from 'node:worker_threads';
import { extractSource, type ExtractReply, type ExtractRequest, type ExtractWorkerData } from './extract.js';

const data = workerData as ExtractWorkerData;
let queue: Promise<void> = Promise.resolve();

// A reply that cannot be cloned (postMessage throws) rejects the queue: an uncaught error ends the worker, and the
// gate reports the worker's failure (an error verdict, never a pass).
parentPort?.on('message', (request: ExtractRequest) => {
  queue = queue.then(() => answer(request));
});

async function answer(request: ExtractRequest): Promise<void> {
  let reply: ExtractReply;
  try {
    reply = { id: request.id, ok: true, extraction: await extractSource(request.language, request.source, data.options) };
  } catch (err) {
    reply = err instanceof Error ? { id: request.id, ok: false, message: err.message, stack: err.stack } : { id: request.id, ok: false, message: String(err), stack: undefined };
  }
  parentPort!.postMessage(reply);
}
