/**
 * FNV-1a, 32-bit, over a string's code units from `start` to `end`: the hash of the rank table's
 * slots (budget/ranks.ts, whose built file depends on it), the piece cache and the embedder's
 * trigram buckets (embed/features.ts, which the model was trained with: scripts/embedder).
 */
export function fnv1a(s: string, start = 0, end = s.length): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
