/**
 * How much the fusion weights fit this data set: a leave-one-repository-out
 * estimate. For each repository, the grid's best weights on all the *other*
 * repositories score its records; the in-sample figure lets the grid see
 * every record. A large gap means the weights learned the dev set.
 */
import { byFusedScore, fusedScore, signalMaxima, type FusionWeights, type SignalValues } from '../../src/search/index.js';
import { type Scores } from './metrics.js';

export interface TuneCase {
  repo: string;
  gold: string[];
  candidates: SignalValues[];
}

/** The weights tried; content is the unit the others are measured in. */
export const GRID: { [K in keyof FusionWeights]: number[] } = {
  content: [1],
  history: [0, 0.25, 0.5, 0.75, 1],
  definition: [0, 0.25, 0.5, 1],
  mention: [0, 0.5, 1, 2],
  name: [0, 0.15, 0.3, 0.6],
  semantic: [0, 0.1, 0.15, 0.2, 0.3],
  demote: [0.05, 0.1, 0.2, 0.3],
};

function combos(): FusionWeights[] {
  let out: FusionWeights[] = [{} as FusionWeights];
  for (const [key, values] of Object.entries(GRID) as [keyof FusionWeights, number[]][]) {
    out = out.flatMap((w) => values.map((v) => ({ ...w, [key]: v })));
  }
  return out;
}

/** The scores a case gets under `weights`, ranking only as deep as `k` (as search does). */
function scoreCase(c: TuneCase, weights: FusionWeights, k: number): Scores {
  const maxima = signalMaxima(c.candidates);
  const fused = c.candidates.map((s) => ({ path: s.path, score: fusedScore(s, maxima, weights) }));
  const ranks = c.gold.map((g) => {
    const mine = fused.find((f) => f.path === g);
    if (!mine) return Infinity;
    const rank = 1 + fused.reduce((n, f) => n + (byFusedScore(f, mine) < 0 ? 1 : 0), 0);
    return rank <= k ? rank : Infinity;
  });
  const worst = Math.max(...ranks);
  const first = Math.min(...ranks);
  return {
    acc: { 1: worst <= 1 ? 1 : 0, 3: worst <= 3 ? 1 : 0, 5: worst <= 5 ? 1 : 0, 10: worst <= 10 ? 1 : 0 },
    recall5: ranks.filter((r) => r <= 5).length / c.gold.length,
    mrr: first === Infinity ? 0 : 1 / first,
  };
}

/** What the grid maximises: Acc@5 and MRR, equally. */
const objective = (s: Scores) => s.acc[5] + s.mrr;

/** Acc@5 and MRR (percent) of each signal alone, and of the weights without each signal. */
export function ablation(cases: TuneCase[], weights: FusionWeights, k: number): (string | number)[][] {
  const signals = ['content', 'history', 'definition', 'mention', 'name', 'semantic'] as const;
  const run = (w: FusionWeights) => {
    const scores = cases.map((c) => scoreCase(c, w, k));
    return [(100 * scores.reduce((s, x) => s + x.acc[5], 0)) / cases.length, (100 * scores.reduce((s, x) => s + x.mrr, 0)) / cases.length];
  };
  const rows: (string | number)[][] = [['all signals', ...run(weights)]];
  for (const signal of signals) {
    const alone = { ...weights, content: 0, history: 0, definition: 0, mention: 0, name: 0, semantic: 0, [signal]: weights[signal] || 1 };
    rows.push([`${signal} alone`, ...run(alone)]);
  }
  for (const signal of signals) rows.push([`without ${signal}`, ...run({ ...weights, [signal]: 0 })]);
  rows.push(['without demotion', ...run({ ...weights, demote: 1 })]);
  return rows;
}

export interface TuneResult {
  /** The best weights on all records, and each record's scores under them. */
  inSample: { weights: FusionWeights; scores: Scores[] };
  /** Each record scored with the weights chosen without its repository. */
  leaveOneOut: Scores[];
  chosen: Map<string, FusionWeights>;
}

export function tune(cases: TuneCase[], k: number): TuneResult {
  const grid = combos();
  // table[g][i]: case i under weights g.
  const table = grid.map((w) => cases.map((c) => scoreCase(c, w, k)));
  const total = (g: number, keep: (i: number) => boolean) => table[g]!.reduce((sum, s, i) => sum + (keep(i) ? objective(s) : 0), 0);
  const best = (keep: (i: number) => boolean) => {
    let bestG = 0;
    for (let g = 1; g < grid.length; g++) if (total(g, keep) > total(bestG, keep) + 1e-9) bestG = g;
    return bestG;
  };
  const all = best(() => true);
  const chosen = new Map<string, FusionWeights>();
  const leaveOneOut = cases.map(() => null as Scores | null);
  for (const repo of new Set(cases.map((c) => c.repo))) {
    const g = best((i) => cases[i]!.repo !== repo);
    chosen.set(repo, grid[g]!);
    cases.forEach((c, i) => c.repo === repo && (leaveOneOut[i] = table[g]![i]!));
  }
  return { inSample: { weights: grid[all]!, scores: table[all]! }, leaveOneOut: leaveOneOut as Scores[], chosen };
}
