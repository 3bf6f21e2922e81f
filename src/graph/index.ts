/**
 * The code graph: references resolved to definitions across files, and the questions asked of
 * it (callers, callees, dependencies, impact, overview, related files, the chunks near retrieved ones).
 * Extraction lives in parse/ (refs.ts); rows in store/ (edges.ts).
 */
export { resolveGraph, type ResolveSummary } from './resolve.js';
export { confidenceRank, GraphQuery, type GraphHit, type Hop, type Seed, type Unresolved, type Walk } from './query.js';
export { overview, type Overview, type OverviewModule } from './overview.js';
export { closeness, testsByName, testSubject } from './tests.js';
export { nearbyChunks, type NearbyChunk, type NearbyOptions } from './nearby.js';
