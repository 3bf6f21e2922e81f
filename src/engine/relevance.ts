/**
 * A normalised (0-1) relevance for the gate: the share of the query's weight
 * a match holds. A term weighs its inverse document frequency, so a match
 * holding only the common words of a query ("file", "get") scores low, and a
 * word found nowhere in the index counts against every match.
 */
import { searchTerms } from '../search/index.js';
import { chunkFields, forEachTerm } from '../terms/index.js';
import { lineAt, lineStarts } from './snippet.js';
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
 * A term held by at most this many chunks is looked up in the index (its
 * postings: a few thousand row ids read in well under a millisecond); a
 * commoner one is looked for in the matches' own text, where it is soon found.
 */
const INDEX_LOOKUP_MAX_DF = 4_000;

/**
 * Which of `wanted` each match holds, exactly as its FTS fields hold them
 * (chunkFields): from the index for a term few chunks hold, else from the
 * match's text (heldTerms). `df` counts the chunks holding each term.
 */
export function heldByMatches(store: Store, wanted: Iterable<string>, df: ReadonlyMap<string, number>, matches: readonly IndexedMatch[]): Set<string>[] {
  const held = matches.map(() => new Set<string>());
  const common: string[] = [];
  for (const t of new Set(wanted)) {
    const n = df.get(t) ?? Infinity;
    if (n === 0) continue; // no chunk holds it
    if (n > INDEX_LOOKUP_MAX_DF) {
      common.push(t);
      continue;
    }
    const holding = store.chunks.holding(t);
    matches.forEach((m, i) => holding.has(m.chunkId) && held[i]!.add(t));
  }
  if (common.length) {
    matches.forEach((m, i) => {
      const f = chunkFields(m.path, m.breadcrumb, m.text);
      for (const t of heldTerms(common, f.path, f.symbols, f.body)) held[i]!.add(t);
    });
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

/**
 * Which of `wanted` (query terms) the texts hold, as termsOf would find them,
 * tokenizing only lines that could hold one: a term is always a piece of its
 * line lower-cased with underscores dropped, so each text is flattened once,
 * and only a line where a wanted term's piece occurs is split into terms (the
 * first such line usually settles it). Enough for `coverage`, at a fraction
 * of termsOf's cost.
 */
export function heldTerms(wanted: string[], ...texts: string[]): Set<string> {
  const want = new Set(wanted);
  const out = new Set<string>();
  for (const text of texts) {
    if (out.size === want.size) break;
    const flat = text.toLowerCase().replaceAll('_', '');
    let lines: { text: string[]; starts: number[]; split: Set<number> } | null = null;
    for (const t of want) {
      for (let at = flat.indexOf(t); at >= 0 && !out.has(t); ) {
        lines ??= { text: text.split('\n'), starts: lineStarts(flat), split: new Set() };
        const i = lineAt(lines.starts, at);
        if (!lines.split.has(i)) {
          lines.split.add(i);
          forEachTerm(lines.text[i]!, (x) => {
            if (want.has(x)) out.add(x);
          });
        }
        const next = lines.starts[i + 1];
        at = next === undefined ? -1 : flat.indexOf(t, next);
      }
    }
  }
  return out;
}

export function coverage(q: QueryWeights, terms: { has(term: string): boolean }): number {
  if (q.total <= 0) return 0;
  let held = 0;
  for (const [t, w] of q.weights) if (terms.has(t)) held += w;
  return held / q.total;
}
