/** Worker thread body: answers the pending edges on its own connection to the index (thread.ts), telling the main thread as it goes. */
import { parentPort, workerData } from 'node:worker_threads';
import { SightlineError } from '../errors/index.js';
import { Store } from '../store/index.js';
import { loadLayout, resolvePages } from './resolve.js';
import type { ResolveReply, ResolveStart } from './thread.js';

const start = workerData as ResolveStart;
const post = (m: ResolveReply) => parentPort!.postMessage(m);
let store: Store | null = null;
try {
  store = Store.open(start.dbPath);
  store.setCacheKiB(start.cacheKiB);
  store.fenceWrites(start.fence);
  resolvePages(store, loadLayout(store, start.root), start.pageEdges, { dropped: new Map(start.dropped), moved: new Set(start.moved) }, {
    moved: (fileId) => post({ type: 'moved', fileId }),
    written: (answered) => post({ type: 'written', answered }),
  });
  post({ type: 'done' });
} catch (err) {
  const e = err as Error & { code?: unknown };
  post({ type: 'failed', message: e.message ?? String(err), code: typeof e.code === 'string' ? e.code : undefined, sightline: err instanceof SightlineError });
} finally {
  store?.close();
}
