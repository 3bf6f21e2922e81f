/** BM25 over code-aware terms, via the store's FTS5 index. */
import type { LexicalHit, Store } from '../store/index.js';
import { MAX_QUERY_TERMS, readQuery, type ReadQuery, type WeightedTerm } from './query.js';
import { queryTerms } from './terms.js';

/** The query as read (query.ts); a query of nothing but stopwords still searches for its words. */
export function readSearchQuery(query: string): ReadQuery {
  const read = readQuery(query);
  if (read.terms.length > 0) return read;
  return { ...read, terms: queryTerms(query).slice(0, MAX_QUERY_TERMS).map((term) => ({ term, weight: 1 })) };
}

/** The searchable terms of a query, heaviest first. */
export function searchTerms(query: string): string[] {
  return readSearchQuery(query).terms.map((t) => t.term);
}

/**
 * An FTS5 MATCH expression that ORs the terms, each quoted so no term is read
 * as an operator. FTS5's bm25() sums over the query's phrases, so a term
 * repeated n times counts n times: that is how a term's weight reaches it.
 */
export function matchExpression(terms: WeightedTerm[]): string {
  const phrases: string[] = [];
  for (const { term, weight } of terms) {
    const quoted = `"${term.replace(/"/g, '""')}"`;
    for (let i = 0; i < Math.max(1, Math.round(weight)); i++) phrases.push(quoted);
  }
  return phrases.join(' OR ');
}

export function lexicalSearch(store: Store, terms: WeightedTerm[], limit: number): LexicalHit[] {
  if (terms.length === 0) return [];
  return store.chunks.lexical(matchExpression(terms), limit);
}
