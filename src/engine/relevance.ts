/**
 * A normalised (0-1) relevance for the gate: the share of the query's weight
 * a match holds. A term weighs its inverse document frequency, so a match
 * holding only the common words of a query ("file", "get") scores low, and a
 * word found nowhere in the index counts against every match.
 */
import { searchTerms } from '../search/index.js';
import { chunkFields, forEachTerm } from '../terms/index.js';
import type { Store } from '../store/index.js';

export interface QueryWeights {
  weights: Map<string, number>;
  total: number;
  /** Chunks holding each weighed term. */
  df: Map<string, number>;
}

/** Inverse document frequency of each term over the indexed chunks (BM25's form). */
export function rarity(store: Store, terms: string[]): Map<string, number> {
  return idf(store, terms).weights;
}

function idf(store: Store, terms: string[]): { weights: Map<string, number>; df: Map<string, number> } {
  const n = store.terms.documents();
  const df = store.terms.documentFrequency(terms);
  return { weights: new Map(terms.map((t) => [t, Math.log(1 + (n - df.get(t)! + 0.5) / (df.get(t)! + 0.5))])), df };
}

/** True when `term` is other query terms run together (`retrybank` from "retry bank"). */
function joined(term: string, parts: Set<string>): boolean {
  if (parts.has(term)) return true;
  for (let i = 1; i < term.length; i++) if (parts.has(term.slice(0, i)) && joined(term.slice(i), parts)) return true;
  return false;
}

/**
 * A word found nowhere in the index counts against every match, except a
 * spelling the query reader derived by running its words together: the
 * words themselves already carry that weight.
 */
export function queryWeights(store: Store, query: string): QueryWeights {
  const terms = searchTerms(query);
  const { weights, df } = idf(store, terms);
  for (const t of terms) {
    if (df.get(t) === 0 && joined(t, new Set(terms.filter((x) => x !== t)))) weights.delete(t);
  }
  return { weights, total: [...weights.values()].reduce((s, w) => s + w, 0), df };
}

/** A match as the index holds it: the chunk's id, and what its FTS fields are made of. */
export interface IndexedMatch {
  chunkId: number;
  path: string;
  breadcrumb: string;
  text: string;
}

/**
 * Which of `wanted` each match holds, exactly as its FTS fields hold them
 * (chunkFields): from each term's postings, kept for the index version and
 * shared with the lexical search that found the matches
 * (store/term-postings.ts), so a common term is read once, not looked for
 * in every match's text on every question. `df` counts the chunks holding
 * each term.
 */
export function heldByMatches(store: Store, wanted: Iterable<string>, df: ReadonlyMap<string, number>, matches: readonly { chunkId: number }[]): Set<string>[] {
  const held = matches.map(() => new Set<string>());
  for (const t of new Set(wanted)) {
    if (df.get(t) === 0) continue; // no chunk holds it
    const holding = store.chunks.holding(t);
    matches.forEach((m, i) => holding.has(m.chunkId) && held[i]!.add(t));
  }
  return held;
}

/** Every term of a match's FTS fields (chunkFields). */
export function indexedTerms(m: IndexedMatch): Set<string> {
  const f = chunkFields(m.path, m.breadcrumb, m.text);
  return termsOf(f.path, f.symbols, f.body);
}

/** The code-aware terms of a match: its path, its symbol trail and its text, as the index sees them. */
export function termsOf(...texts: string[]): Set<string> {
  const out = new Set<string>();
  for (const text of texts) forEachTerm(text, (t) => out.add(t));
  return out;
}

export function coverage(q: QueryWeights, terms: { has(term: string): boolean }): number {
  if (q.total <= 0) return 0;
  let held = 0;
  for (const [t, w] of q.weights) if (terms.has(t)) held += w;
  return held / q.total;
}
