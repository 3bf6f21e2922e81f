/** The indexing pipeline: walk → diff → parse → store. */
export { indexRepository } from './indexer.js';
export type { IndexOptions, IndexPhase, IndexProgress, IndexSummary } from './indexer.js';
