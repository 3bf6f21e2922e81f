/** BM25 over code-aware terms, via the store's FTS5 index. */
import type { LexicalHit, Store } from '../store/index.js';
import { STOPWORDS } from './stopwords.js';
import { queryTerms } from './terms.js';

/** Most terms a query may send to FTS5; long issue texts keep their first (title-most) terms. */
const MAX_QUERY_TERMS = 128;

/** The searchable terms of a query: code-aware, stopwords dropped (unless nothing else is left). */
export function searchTerms(query: string): string[] {
  const all = queryTerms(query);
  const kept = all.filter((t) => !STOPWORDS.has(t));
  return (kept.length > 0 ? kept : all).slice(0, MAX_QUERY_TERMS);
}

/** An FTS5 MATCH expression that ORs the terms (each quoted, so no term is read as an operator). */
export function matchExpression(terms: string[]): string {
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
}

export function lexicalSearch(store: Store, terms: string[], limit: number): LexicalHit[] {
  if (terms.length === 0) return [];
  return store.chunks.lexical(matchExpression(terms), limit);
}
