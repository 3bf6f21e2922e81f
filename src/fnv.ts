/**
 * FNV-1a, 32-bit, over a string's code units from `start` to `end`: the hash of the rank table's
 * slots (budget/ranks.ts, whose built file depends on it), the piece cache, the embedder's
 * trigram buckets (embed/features.ts, which the model was trained with: scripts/embedder) and
 * the query side's vocabulary table (embed/builtin.ts).
 */
export function fnv1a(s: string, start = 0, end = s.length): number {
  let h = FNV_BASIS;
  for (let i = start; i < end; i++) h = fnvStep(h, s.charCodeAt(i));
  return h >>> 0;
}

export const FNV_BASIS = 0x811c9dc5;

/** One code unit into a running hash; `>>> 0` gives the unsigned value. */
export function fnvStep(h: number, code: number): number {
  return Math.imul(h ^ code, 0x01000193);
}
