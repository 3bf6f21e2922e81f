/**
 * The embedding thread. It builds its own embedder from a spec and answers
 * two kinds of request: `embed` (a batch, answered by message, for the index
 * pass) and `query` (one text, answered through shared memory so a
 * synchronous caller can block on it with Atomics.wait).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { describeError } from '../errors/index.js';
import { openEmbedder } from './index.js';
import { QUERY_FAILED, QUERY_HEADER_BYTES, QUERY_OK, type WorkerReply, type WorkerRequest } from './protocol.js';
import type { EmbedderSpec } from './types.js';

const port = parentPort!;
const spec = (workerData as { spec: EmbedderSpec }).spec;

openEmbedder(spec).then(
  (embedder) => {
    if (!embedder) throw new Error('no embedder for kind none');
    port.postMessage({ type: 'ready', identity: embedder.identity } satisfies WorkerReply);
    port.on('message', async (req: WorkerRequest) => {
      if (req.type === 'query') {
        const state = new Int32Array(req.shared, 0, 2);
        try {
          const [v] = await embedder.embed([req.text]);
          new Float32Array(req.shared, QUERY_HEADER_BYTES, v!.length).set(v!);
          state[1] = v!.length;
          Atomics.store(state, 0, QUERY_OK);
        } catch {
          Atomics.store(state, 0, QUERY_FAILED);
        }
        Atomics.notify(state, 0);
        return;
      }
      try {
        const vectors = await embedder.embed(req.texts);
        const dims = embedder.identity.dims;
        const data = new Float32Array(vectors.length * dims);
        vectors.forEach((v, i) => data.set(v, i * dims));
        port.postMessage({ type: 'result', id: req.id, data, dims } satisfies WorkerReply, [data.buffer]);
      } catch (err) {
        port.postMessage({ type: 'failed', id: req.id, message: describeError(err) } satisfies WorkerReply);
      }
    });
  },
  (err) => port.postMessage({ type: 'open-failed', message: describeError(err) } satisfies WorkerReply),
);
