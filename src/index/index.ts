/** The indexing pipeline (walk → diff → parse → store), run as a job, kept live by a watcher and a reconcile timer. */
export { unchangedSince, walkOptions } from './survey.js';
export type { IndexOptions, IndexPhase, IndexProgress, IndexSummary } from './pass.js';
export { holderDead, interrupted, lockLive, runIndexJob, withIndexLock, type JobHooks, type JobOptions, type Lease } from './job.js';
export { Coalescer } from './coalesce.js';
export { watchTree, type TreeWatcher, type WatchOptions } from './watch.js';
export { startReconcile, type Reconciler, type ReconcileOptions } from './reconcile.js';
export { indexSource, stampIndexSource, type IndexSource } from './source.js';

/**
 * A pass, its parser and graph resolver loaded when the first one runs: a
 * process that only asks (a CLI search, a read-pool worker) opens the job
 * record and never pays for them (ARCHITECTURE.md, the start path).
 */
export async function indexRepository(...args: Parameters<typeof import('./indexer.js').indexRepository>) {
  return (await import('./indexer.js')).indexRepository(...args);
}
