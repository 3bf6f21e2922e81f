/**
 * Graph resolution on a worker thread, the calling thread waiting. Resolution makes garbage
 * faster than anything else in a pass (each page's view, answers and rows read), and V8
 * collects the main thread's heap late: its limit is a share of the machine's memory (4 GB on
 * an 8 GB one), not the memory ceiling, and a 53,000-file tree took the process to 1 GB. A
 * worker's heap is capped by the ceiling (memoryPlan's graphHeapMB), so its garbage is
 * collected at the cap. It opens its own connection to the index (WAL: the pass's writes are
 * committed by then) and fences its writes by the pass's lease (Store.fenceWrites).
 *
 * A worker that reaches its heap cap (a page's view outgrew it) is replaced by one with half the
 * page, up to WORKER_TRIES in all; then this thread answers the rest, with half the last page
 * again and no cap. Pages written stay written and each run takes up where the last one left
 * off, so nothing is answered twice or lost. Any other failure ends the pass with its error, and
 * the edges not answered stay pending for the next one.
 */
import { SightlineError } from '../errors/index.js';
import type { Store, WriteFence } from '../store/index.js';
import { PASS_YOUNG_GENERATION_MB, startThread } from '../thread.js';
import { loadLayout, resolvePages, type Carried, type ResolveSummary } from './resolve.js';

/** What the memory ceiling allows resolution (config/memory.ts). */
export interface ResolvePlan {
  /** Pending edges read, answered and held at once. */
  pageEdges: number;
  /** The worker's heap cap, in MB. */
  heapMB: number;
  /** SQLite's page cache of the worker's connection, in KiB. */
  cacheKiB: number;
}

/** The worker's workerData. */
export interface ResolveStart {
  dbPath: string;
  root: string;
  pageEdges: number;
  cacheKiB: number;
  fence: WriteFence | null;
  dropped: [number, string][];
  moved: number[];
}

export type ResolveReply =
  | { type: 'moved'; fileId: number }
  | { type: 'written'; answered: number }
  | { type: 'done' }
  | { type: 'failed'; message: string; code: string | undefined; sightline: boolean };

const COMPILED = new URL('./resolve-worker.js', import.meta.url);
const SOURCE = new URL('./resolve-worker.ts', import.meta.url);
/** Workers started, each with half the page of the one before, before this thread answers the rest. */
const WORKER_TRIES = 3;

export async function resolveGraph(store: Store, root: string, plan: ResolvePlan): Promise<ResolveSummary> {
  const started = performance.now();
  const carried: Carried = { dropped: store.edges.takeDropped(), moved: new Set() };
  const pending = store.edges.pendingCount();
  let answered = 0;
  let workers = 0;
  let done = pending === 0;
  let pageEdges = plan.pageEdges;
  // A page or less (an edit's edges) is answered here: a thread's start would cost more.
  while (!done && pending > plan.pageEdges && workers < WORKER_TRIES) {
    workers++;
    const run = await onWorker(store, root, { ...plan, pageEdges }, carried);
    answered += run.answered;
    done = run.done;
    if (!done) pageEdges = Math.max(1, Math.floor(pageEdges / 2));
  }
  if (!done) answered += resolvePages(store, loadLayout(store, root, store.fileList().files), pageEdges, carried);
  store.transaction(() => store.edges.dropUnusedRefs()); // what replaced and removed files wrote and no edge writes now
  return { pending, answered, workers, elapsedMs: pending === 0 ? 0 : Math.round(performance.now() - started) };
}

/** One worker's run: the edges it answered, and whether it finished (false: it reached its heap cap). */
function onWorker(store: Store, root: string, plan: ResolvePlan, carried: Carried): Promise<{ answered: number; done: boolean }> {
  const start: ResolveStart = {
    dbPath: store.path,
    root,
    pageEdges: plan.pageEdges,
    cacheKiB: plan.cacheKiB,
    fence: store.fence,
    dropped: [...carried.dropped],
    moved: [...carried.moved],
  };
  const worker = startThread(COMPILED, SOURCE, { workerData: start, resourceLimits: { maxOldGenerationSizeMb: plan.heapMB, maxYoungGenerationSizeMb: PASS_YOUNG_GENERATION_MB } });
  return new Promise((resolve, reject) => {
    let answered = 0;
    let done = false;
    let failure: (Error & { code?: string }) | null = null;
    worker.on('message', (m: ResolveReply) => {
      if (m.type === 'moved') carried.moved.add(m.fileId);
      else if (m.type === 'written') answered += m.answered;
      else if (m.type === 'done') done = true;
      else failure = revived(m);
    });
    worker.on('error', (err) => (failure ??= err));
    // Settled on exit, once the worker's connection is closed: this thread writes next.
    worker.on('exit', (code) => {
      if (done || failure?.code === 'ERR_WORKER_OUT_OF_MEMORY') resolve({ answered, done });
      else reject(failure ?? new SightlineError('internal', `graph resolution's worker thread stopped (exit ${code}) before it finished; the edges it did not answer stay pending for the next pass`));
    });
  });
}

/** A failure the worker reported, as this thread would have thrown it (so the job records it alike). */
function revived(m: Extract<ResolveReply, { type: 'failed' }>): Error {
  if (m.sightline) return new SightlineError(m.code as SightlineError['code'], m.message);
  return Object.assign(new Error(m.message), { code: m.code });
}
