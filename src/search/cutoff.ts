/**
 * Smart top-k: cut the tail of a ranked list where it stops being worth
 * reading, never below a guaranteed head.
 *
 * Defaults (config) and why:
 *  - relative 0.3: a result under 30% of the best one's score is rarely
 *    what the asker wanted once something three times better is on the list;
 *  - floor 0.05: on the 0..1 fused scale (default fusion) that is a result
 *    ranked past ~170 in the keyword list and absent from the other — noise,
 *    whatever the rest looks like;
 *  - outlier ratio 3: when the first result scores over 3× the second (one
 *    exact symbol hit), the relative threshold is taken from the second, so a
 *    single outlier does not cut every other relevant result;
 *  - safe harbour 3: the first three results only face the floor, so a
 *    steep but real ranking still shows a few alternatives.
 */

export interface CutoffOptions {
  relative: number;
  floor: number;
  outlierRatio: number;
  safeHarbor: number;
}

export function cutoff<T extends { score: number }>(ranked: T[], o: CutoffOptions): T[] {
  if (ranked.length === 0) return ranked;
  const first = ranked[0]!.score;
  const second = ranked[1]?.score ?? first;
  const anchor = second > 0 && first > o.outlierRatio * second ? second : first;
  const threshold = Math.max(o.floor, anchor * o.relative);
  const out: T[] = [];
  for (const [i, r] of ranked.entries()) {
    if (r.score < o.floor) break;
    if (i >= o.safeHarbor && r.score < threshold) break;
    out.push(r);
  }
  return out;
}
