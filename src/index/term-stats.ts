/**
 * Keeps BM25's statistics honest. A contentless_delete FTS5 table forgets a
 * deleted row's terms but not the row in the count BM25 normalises by, so
 * every re-indexed chunk inflates it: after enough edits (a long watch, a
 * branch switch) scores drift away from what a fresh index of the same tree
 * gives. Past MAX_TERM_STATS_DRIFT the pass rewrites every chunk's terms,
 * which resets the count.
 */
import { MAX_TERM_STATS_DRIFT, type Store } from '../store/index.js';
import { chunkTerms } from '../search/index.js';

/** Rewrites the FTS index when its statistics drifted too far; true when it did. */
export function refreshTermStats(store: Store, maxDrift = MAX_TERM_STATS_DRIFT): boolean {
  if (store.chunks.termStatsDrift() <= maxDrift) return false;
  // Read first: the connection cannot write while a statement still iterates.
  const terms = [...store.chunks.termSources()].map((c) => ({ id: c.id, ...chunkTerms(c.path, c.breadcrumb, c.text) }));
  store.transaction(() => store.chunks.rewriteTerms(terms));
  return true;
}
