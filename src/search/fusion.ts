/**
 * Reciprocal rank fusion: an item scores Σ weight / (k0 + rank) over the
 * lists it appears in, divided by the best possible score so fused scores
 * read 0..1. Ranks, not raw scores, are fused because BM25 and cosine
 * similarity live on unrelated scales.
 *
 * It fuses chunk lists (file rankings take nearness as a signal instead:
 * hybrid.ts). Defaults (config), from an ablation on the dev issues: keyword
 * weight 1, semantic weight 0.25, k0 10. The builtin model's list is the
 * weaker one on whole issues, so it breaks ties and lifts what the keyword
 * ranking has near the top rather than outvoting it; a k0 of 10 (the RRF
 * paper's 60 flattens the head) keeps a first place worth more than a tenth.
 * With a stronger model (onnx, http) raise the semantic weight. A query that
 * names code fuses at a tenth of it (hybrid.ts: fusionFor).
 */

export interface FusionOptions {
  k0: number;
  keywordWeight: number;
  semanticWeight: number;
}

export interface Fused<K, S> {
  key: number;
  score: number;
  /** The item as the keyword list had it, and its 1-based rank there. */
  keyword?: { item: K; rank: number };
  semantic?: { item: S; rank: number };
}

export function rrf<K, S>(keyword: K[], semantic: S[], keyOf: { keyword: (k: K) => number; semantic: (s: S) => number }, o: FusionOptions): Fused<K, S>[] {
  const best = (o.keywordWeight + o.semanticWeight) / (o.k0 + 1) || 1;
  const byKey = new Map<number, Fused<K, S>>();
  const entry = (key: number) => {
    let f = byKey.get(key);
    if (!f) byKey.set(key, (f = { key, score: 0 }));
    return f;
  };
  keyword.forEach((item, i) => {
    const f = entry(keyOf.keyword(item));
    if (f.keyword) return; // first (best) occurrence only
    f.keyword = { item, rank: i + 1 };
    f.score += o.keywordWeight / (o.k0 + i + 1) / best;
  });
  semantic.forEach((item, i) => {
    const f = entry(keyOf.semantic(item));
    if (f.semantic) return;
    f.semantic = { item, rank: i + 1 };
    f.score += o.semanticWeight / (o.k0 + i + 1) / best;
  });
  return [...byKey.values()].sort((a, b) => b.score - a.score || a.key - b.key);
}
