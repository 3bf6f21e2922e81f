/**
 * The code graph: references resolved to definitions across files, and the questions asked of
 * it (callers, callees, dependencies, impact, overview, related files, the chunks near retrieved ones).
 * Extraction lives in parse/ (refs.ts); rows in store/ (edges.ts).
 */
import type { Store } from '../store/index.js';
import type { ResolveSummary } from './resolve.js';
import type { ResolvePlan } from './thread.js';

export type { ResolveSummary } from './resolve.js';
export type { ResolvePlan } from './thread.js';
export { confidenceRank, GraphQuery, type GraphHit, type Hop, type Seed, type Unresolved, type Walk } from './query.js';
export { overview, type Overview, type OverviewModule } from './overview.js';
export { closeness, testsByName, testSubject } from './tests.js';
export { nearbyChunks, type NearbyChunk, type NearbyOptions } from './nearby.js';

/**
 * Answers the edges an index pass left pending (resolve.ts), on a worker thread as the memory
 * ceiling's `plan` allows (thread.ts). Loaded when a pass resolves: the resolver brings module
 * layouts, tsconfig reading (get-tsconfig) and JSONC parsing, ~150 KB of code that the questions
 * above, on a search's path, never run.
 */
export async function resolveGraph(store: Store, root: string, plan: ResolvePlan): Promise<ResolveSummary> {
  return (await import('./thread.js')).resolveGraph(store, root, plan);
}
