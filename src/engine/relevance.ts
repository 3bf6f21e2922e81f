/**
 * A normalised (0-1) relevance for the gate: the share of the query's weight
 * a match holds. A term weighs its inverse document frequency, so a match
 * holding only the common words of a query ("file", "get") scores low, and a
 * word found nowhere in the index counts against every match.
 */
import { forEachTerm, searchTerms } from '../search/index.js';
import type { Store } from '../store/index.js';

export interface QueryWeights {
  weights: Map<string, number>;
  total: number;
}

/** Inverse document frequency of each term over the indexed chunks (BM25's form). */
export function rarity(store: Store, terms: string[]): Map<string, number> {
  const n = store.terms.documents();
  const df = store.terms.documentFrequency(terms);
  return new Map(terms.map((t) => [t, Math.log(1 + (n - df.get(t)! + 0.5) / (df.get(t)! + 0.5))]));
}

export function queryWeights(store: Store, query: string): QueryWeights {
  const weights = rarity(store, searchTerms(query));
  return { weights, total: [...weights.values()].reduce((s, w) => s + w, 0) };
}

/** The code-aware terms of a match: its path, its symbol trail and its text, as the index sees them. */
export function termsOf(...texts: string[]): Set<string> {
  const out = new Set<string>();
  for (const text of texts) forEachTerm(text, (t) => out.add(t));
  return out;
}

export function coverage(q: QueryWeights, terms: Set<string>): number {
  if (q.total <= 0) return 0;
  let held = 0;
  for (const [t, w] of q.weights) if (terms.has(t)) held += w;
  return held / q.total;
}
