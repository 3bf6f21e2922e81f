/** BM25 over code-aware terms, via the store's FTS5 index. */
import type { LexicalHit, Store } from '../store/index.js';
import { ask, type WeightedTerm } from './query.js';

/** The searchable terms of a query, heaviest first. */
export function searchTerms(query: string): string[] {
  return ask(query).read.terms.map((t) => t.term);
}

/** The phrases of an FTS5 query (the store quotes them), and what its bm25() scores must be multiplied by to be those of the weighted terms. */
export interface WeightedMatch {
  phrases: string[];
  scale: number;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * The phrases of an FTS5 query that ORs the terms (the store quotes each, so
 * no term is read as an operator). FTS5's bm25() sums over the query's phrases, so a term
 * repeated n times counts n times: that is how a term's weight reaches it.
 * Every phrase costs a pass over its term's postings, so the weights' common
 * factor is taken out and given back as `scale` (bm25 is a sum: exact). A
 * query whose words weigh alike, as a search box's do, reads each posting once.
 */
export function weightedMatch(terms: readonly WeightedTerm[]): WeightedMatch {
  const counts = terms.map(({ weight }) => Math.max(1, Math.round(weight * HALVES)));
  const common = counts.reduce(gcd, 0) || 1;
  const phrases: string[] = [];
  terms.forEach(({ term }, i) => {
    for (let n = 0; n < counts[i]! / common; n++) phrases.push(term);
  });
  return { phrases, scale: common / HALVES };
}

/** Query weights are whole or half numbers (query.ts): counted in halves, they are whole. */
const HALVES = 2;

export function lexicalSearch(store: Store, terms: WeightedTerm[], limit: number): LexicalHit[] {
  if (terms.length === 0) return [];
  const { phrases, scale } = weightedMatch(terms);
  const hits = store.chunks.lexical(phrases, limit);
  if (scale !== 1) for (const h of hits) h.score *= scale;
  return hits;
}
