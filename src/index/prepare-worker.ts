/** Worker thread body: prepares files sent by the pool (read, parse, count, terms). */
import { parentPort, workerData } from 'node:worker_threads';
import { adoptRankTable, setPieceCacheLimit } from '../budget/index.js';
import { setWordCacheLimit } from '../terms/index.js';
import type { PrepareStart } from './pool.js';
import { prepareFile, type PrepareInput } from './prepare.js';

// This thread's caches live as long as the pass: sized by the memory ceiling, like its heap.
const start = workerData as PrepareStart;
setWordCacheLimit(start.wordCacheEntries);
setPieceCacheLimit(start.pieceCacheEntries);
if (start.ranks) adoptRankTable(start.ranks); // the pass's one copy, not a read of its own

parentPort!.on('message', async ({ id, input }: { id: number; input: PrepareInput }) => {
  try {
    parentPort!.postMessage({ id, result: await prepareFile(input) });
  } catch (err) {
    parentPort!.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
