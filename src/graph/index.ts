/**
 * The code graph: references resolved to definitions across files, and the questions asked of
 * it (callers, callees, dependencies, impact, overview, related files, the chunks near retrieved ones).
 * Extraction lives in parse/ (refs.ts); rows in store/ (edges.ts).
 */
import type { Store } from '../store/index.js';
import type { ResolveSummary } from './resolve.js';

export type { ResolveSummary } from './resolve.js';
export { confidenceRank, GraphQuery, type GraphHit, type Hop, type Seed, type Unresolved, type Walk } from './query.js';
export { overview, type Overview, type OverviewModule } from './overview.js';
export { closeness, testsByName, testSubject } from './tests.js';
export { nearbyChunks, type NearbyChunk, type NearbyOptions } from './nearby.js';

/**
 * Answers the edges an index pass left pending (resolve.ts), `pageEdges` at a time, loaded when a pass resolves: the
 * resolver brings module layouts, tsconfig reading (get-tsconfig) and JSONC parsing, ~150 KB of
 * code that the questions above, on a search's path, never run.
 */
export async function resolveGraph(store: Store, root: string, pageEdges: number): Promise<ResolveSummary> {
  return (await import('./resolve.js')).resolveGraph(store, root, pageEdges);
}
