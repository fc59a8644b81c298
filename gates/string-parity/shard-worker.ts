// A string-parity shard worker (see shards.ts): judges the files of one ShardMessage read from the copies it was
// sent, and posts back the JudgeResult or the error. It judges one message and ends.
import { parentPort } from 'node:worker_threads';
import { memoryWorkspace } from '../../core/workspace.js';
import { judgeFiles } from './judge-files.js';
import type { ShardMessage, ShardReply } from './shards.js';

parentPort?.once('message', (message: ShardMessage) => {
  void (async () => {
    let reply: ShardReply;
    try {
      const files: Record<string, Buffer> = {};
      for (const [path, bytes] of message.files) files[path] = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const ws = memoryWorkspace({ files, mode: message.job.staged ? 'staged' : 'all', targets: [] });
      reply = { ok: true, result: await judgeFiles(ws, message.set, message.job) };
    } catch (err) {
      reply = { ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
    }
    parentPort!.postMessage(reply);
  })();
});
