/**
 * Keeps BM25's statistics honest. A contentless_delete FTS5 table forgets a
 * deleted row's terms but not the row in the count BM25 normalises by, so
 * every re-indexed chunk inflates it: after enough edits (a long watch, a
 * branch switch) scores drift away from what a fresh index of the same tree
 * gives. Past MAX_TERM_STATS_DRIFT the pass rewrites every chunk's terms,
 * which resets the count; it does the same when the table holds fewer rows
 * than there are chunks (the migration to schema 10 leaves it empty). A pass
 * that wrote many files also merges the FTS segments its batches left.
 */
import { MAX_TERM_STATS_DRIFT, type Store } from '../store/index.js';
import { chunkTerms } from '../terms/index.js';

/**
 * A pass that wrote this many files wrote them in many batches, each an FTS
 * segment that every query then reads: merging them costs ~0.1 s on a
 * 2,000-file repository and cuts BM25 query time by about a third.
 */
const COMPACT_AFTER_FILES = 256;

/** After a pass: the terms rewritten if BM25's statistics drifted too far, else merged if the pass wrote many files. */
export function tidyTerms(store: Store, filesWritten: number): void {
  if (refreshTermStats(store)) return; // a rewrite is compact already
  if (filesWritten >= COMPACT_AFTER_FILES) store.transaction(() => store.chunks.compactTerms());
}

/** Rewrites the FTS index when its statistics drifted too far, or when it lacks chunks (negative drift); true when it did. */
function refreshTermStats(store: Store): boolean {
  const drift = store.chunks.termStatsDrift();
  if (drift >= 0 && drift <= MAX_TERM_STATS_DRIFT) return false;
  store.transaction(() => store.chunks.rewriteTerms(termsOfEveryChunk(store)));
  return true;
}

/** Read, turned into terms and written a page of files at a time: the whole index's text never sits in memory. */
function* termsOfEveryChunk(store: Store) {
  for (const c of store.chunks.termSources()) yield { id: c.id, ...chunkTerms(c.path, c.breadcrumb, c.text) };
}
