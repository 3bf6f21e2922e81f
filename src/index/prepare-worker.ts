/** Worker thread body: prepares files sent by the pool (read, parse, count, terms). */
import { parentPort } from 'node:worker_threads';
import { prepareFile, type PrepareInput } from './prepare.js';

parentPort!.on('message', async ({ id, input }: { id: number; input: PrepareInput }) => {
  try {
    parentPort!.postMessage({ id, result: await prepareFile(input) });
  } catch (err) {
    parentPort!.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
