/**
 * How a file's signals add up to one score. Content and history are divided
 * by their best value among the candidates (their scale depends on the
 * query); definitions, mentions, names and nearness are already on a 0–1
 * scale (capped at 1), so one clear definition is worth the same in any query. The weighted
 * sum is then scaled down for files whose role is not the code itself.
 */

/** The raw value of each signal for one file, and whether its role demotes it. */
import { NEARNESS_WEIGHT } from '../config/index.js';
export interface SignalValues {
  path: string;
  demoted: boolean;
  content: number;
  history: number;
  definition: number;
  mention: number;
  name: number;
  /** How near the file's best chunk lies to the query in embedding space (0–1; 0 without vectors). */
  semantic: number;
}

export interface FusionWeights {
  content: number;
  history: number;
  definition: number;
  mention: number;
  name: number;
  semantic: number;
  /** The factor for files whose role is not the code itself (tests, docs, examples, …). */
  demote: number;
}

/** Chosen on the dev set; bench:quality --tune reports how well they hold for repositories left out. */
export const FUSION_WEIGHTS: Readonly<FusionWeights> = { content: 1, history: 0.5, definition: 0.25, mention: 0.5, name: 0.15, semantic: NEARNESS_WEIGHT, demote: 0.1 };

const RELATIVE = ['content', 'history'] as const;
const ABSOLUTE = ['definition', 'mention', 'name', 'semantic'] as const;

export type SignalMaxima = Record<(typeof RELATIVE)[number], number>;

/** The relative signals' best values among the candidates: what they are divided by. */
export function signalMaxima(candidates: SignalValues[]): SignalMaxima {
  return Object.fromEntries(RELATIVE.map((k) => [k, candidates.reduce((m, s) => Math.max(m, s[k]), 0)])) as SignalMaxima;
}

/** One candidate's fused score. */
export function fusedScore(s: SignalValues, maxima: SignalMaxima, weights: FusionWeights): number {
  let score = 0;
  for (const k of RELATIVE) if (maxima[k] > 0) score += (weights[k] * s[k]) / maxima[k];
  for (const k of ABSOLUTE) score += weights[k] * Math.min(1, s[k]);
  return score * (s.demoted ? weights.demote : 1);
}

/** Best score first, ties by path. */
export function byFusedScore(a: { score: number; path: string }, b: { score: number; path: string }): number {
  return b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/** The fused score of each candidate, best first. */
export function fuse<T extends SignalValues>(candidates: T[], weights: FusionWeights): { signals: T; score: number }[] {
  const maxima = signalMaxima(candidates);
  return candidates.map((s) => ({ signals: s, path: s.path, score: fusedScore(s, maxima, weights) })).sort(byFusedScore);
}
