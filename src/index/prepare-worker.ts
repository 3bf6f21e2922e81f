/** Worker thread body: prepares files sent by the pool (read, parse, count, terms). */
import { parentPort, workerData } from 'node:worker_threads';
import { setPieceCacheLimit } from '../budget/index.js';
import { setWordCacheLimit } from '../terms/index.js';
import type { WorkerCaches } from './pool.js';
import { prepareFile, type PrepareInput } from './prepare.js';

// This thread's caches live as long as the pass: sized by the memory ceiling, like its heap.
const caches = workerData as WorkerCaches;
setWordCacheLimit(caches.wordCacheEntries);
setPieceCacheLimit(caches.pieceCacheEntries);

parentPort!.on('message', async ({ id, input }: { id: number; input: PrepareInput }) => {
  try {
    parentPort!.postMessage({ id, result: await prepareFile(input) });
  } catch (err) {
    parentPort!.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
