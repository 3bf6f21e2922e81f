/** File-localization metrics (shared/bench/README.md): strict Acc@k, Recall@5, MRR over a ranked list of paths. */

export const ACC_KS = [1, 3, 5, 10] as const;

export interface Scores {
  /** Strict: 1 when every gold file is in the top k. */
  acc: Record<(typeof ACC_KS)[number], number>;
  /** Share of gold files in the top 5. */
  recall5: number;
  /** 1 / rank of the first gold file; 0 when none was returned. */
  mrr: number;
}

export function score(ranked: string[], gold: string[]): Scores {
  const rankOf = new Map<string, number>();
  ranked.forEach((p, i) => rankOf.has(p) || rankOf.set(p, i + 1));
  const ranks = gold.map((g) => rankOf.get(g) ?? Infinity);
  const worst = Math.max(...ranks);
  const acc = Object.fromEntries(ACC_KS.map((k) => [k, worst <= k ? 1 : 0])) as Scores['acc'];
  return {
    acc,
    recall5: gold.length ? ranks.filter((r) => r <= 5).length / gold.length : 0,
    mrr: Math.min(...ranks) === Infinity ? 0 : 1 / Math.min(...ranks),
  };
}

/** Averages in percent: Acc@1, Acc@3, Acc@5, Acc@10, Recall@5, MRR. */
export function averages(rows: Scores[]): number[] {
  const mean = (f: (s: Scores) => number) => (rows.length ? (100 * rows.reduce((sum, s) => sum + f(s), 0)) / rows.length : NaN);
  return [...ACC_KS.map((k) => mean((s) => s.acc[k])), mean((s) => s.recall5), mean((s) => s.mrr)];
}

export const METRIC_NAMES = ['Acc@1', 'Acc@3', 'Acc@5', 'Acc@10', 'R@5', 'MRR'];
