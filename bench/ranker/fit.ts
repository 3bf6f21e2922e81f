/**
 * Fitting the file ranker (src/search/learned.ts) to pools of candidates
 * (bench/quality/pools.ts), by coordinate ascent on the metric itself
 * (Metzler and Croft's method for linear rankers, as in RankLib): one weight
 * at a time, try a few moves, keep the best, until a round improves nothing.
 * With a dozen weights and hundreds of cases this needs no gradient and
 * optimises what is reported, strict Acc@5 and MRR, not a surrogate.
 */
import {
  FIRST_FEATURES,
  firstFeatures,
  rankCandidates,
  SECOND_FEATURES,
  type CommitsOf,
  type RankerModel,
} from '../../src/search/index.js';
import type { Pool } from '../quality/pools.js';
import { score, type Scores } from '../quality/metrics.js';

/** The depth a `search --files` answer is scored to (bench:quality's K). */
export const K = 10;

/** One pool, prepared once: its stage-one features (flat, a row per candidate), each path's place in path order, its commit sets. */
export interface Case {
  pool: Pool;
  features: Float64Array;
  pathOrder: Int32Array;
  commitsOf: CommitsOf;
}

export function prepare(pool: Pool): Case {
  const sets = new Map(Object.entries(pool.commits).map(([p, ids]) => [p, new Set(ids)]));
  const byPath = pool.candidates.map((c, i) => ({ path: c.path, i })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const pathOrder = new Int32Array(pool.candidates.length);
  byPath.forEach(({ i }, order) => (pathOrder[i] = order));
  return { pool, features: Float64Array.from(firstFeatures(pool.candidates).flat()), pathOrder, commitsOf: () => sets };
}

/**
 * The ranked paths a case gets under `model`. With `firstOnly`, stage one
 * alone, by a top-K selection over the flat features: the same order as
 * learned.ts's (score, then path), many times cheaper, since fitting stage
 * one scores every case thousands of times.
 */
export function ranked(c: Case, model: RankerModel, firstOnly = false): string[] {
  if (!firstOnly) {
    return rankCandidates(c.pool.candidates, model, c.commitsOf)
      .slice(0, K)
      .map((r) => r.candidate.path);
  }
  const w = FIRST_FEATURES.map((f) => model.first.weights[f]);
  const width = w.length;
  const top: { i: number; score: number }[] = [];
  const before = (a: { i: number; score: number }, b: { i: number; score: number }) => a.score > b.score || (a.score === b.score && c.pathOrder[a.i]! < c.pathOrder[b.i]!);
  for (let i = 0; i < c.pool.candidates.length; i++) {
    let s = 0;
    for (let k = 0; k < width; k++) s += w[k]! * c.features[i * width + k]!;
    const item = { i, score: c.pool.candidates[i]!.demoted ? s * model.first.demote : s };
    if (top.length === K && !before(item, top[K - 1]!)) continue;
    let at = Math.min(top.length, K - 1);
    if (top.length < K) top.push(item);
    while (at > 0 && before(item, top[at - 1]!)) {
      top[at] = top[at - 1]!;
      at--;
    }
    top[at] = item;
  }
  return top.map((t) => c.pool.candidates[t.i]!.path);
}

export function scoresOf(cases: readonly Case[], model: RankerModel, firstOnly = false): Scores[] {
  return cases.map((c) => score(ranked(c, model, firstOnly), c.pool.gold));
}

/** What the ascent maximises: Acc@5 and MRR, equally, each repository weighing the same whatever its number of cases. */
export function objective(cases: readonly Case[], model: RankerModel, firstOnly = false): number {
  const scores = scoresOf(cases, model, firstOnly);
  const perRepo = new Map<string, { sum: number; n: number }>();
  cases.forEach((c, i) => {
    const r = perRepo.get(c.pool.repo) ?? { sum: 0, n: 0 };
    r.sum += scores[i]!.acc[5] + scores[i]!.mrr;
    r.n++;
    perRepo.set(c.pool.repo, r);
  });
  let total = 0;
  for (const r of perRepo.values()) total += r.sum / r.n;
  return total / Math.max(1, perRepo.size);
}

/** A parameter the ascent may move: how to read it from a model and write it into a copy. */
interface Knob {
  name: string;
  get(m: RankerModel): number;
  set(m: RankerModel, v: number): RankerModel;
  min: number;
  max: number;
}

// Every feature is evidence for a file, so no weight goes below 0: a file must never lose for defining what
// the query names. Unconstrained, the fit on commit titles gave definitions a small negative weight.
const firstKnobs: Knob[] = [
  ...FIRST_FEATURES.map((f): Knob => ({
    name: f,
    get: (m) => m.first.weights[f],
    set: (m, v) => ({ ...m, first: { ...m.first, weights: { ...m.first.weights, [f]: v } } }),
    min: 0,
    max: 4,
  })),
  // The corpus's gold is never a test or a doc (bench/corpus), so the fit alone would push demotion to 0
  // and leave non-code files unordered among themselves; the floor keeps them ranked.
  { name: 'demote', get: (m) => m.first.demote, set: (m, v) => ({ ...m, first: { ...m.first, demote: v } }), min: 0.05, max: 1 },
];

const secondKnobs: Knob[] = SECOND_FEATURES.map((f) => ({
  name: f,
  get: (m) => m.second.weights[f],
  set: (m, v) => ({ ...m, second: { ...m.second, weights: { ...m.second.weights, [f]: v } } }),
  min: 0,
  max: 2,
}));

const MOVES = [-0.5, -0.2, -0.1, -0.05, 0.05, 0.1, 0.2, 0.5];
const SCALES = [0, 0.5, 0.8, 1.25, 2];

function ascend(start: RankerModel, knobs: Knob[], evaluate: (m: RankerModel) => number, log: (line: string) => void, rounds = 12): RankerModel {
  let model = start;
  let best = evaluate(model);
  log(`  start ${best.toFixed(4)}`);
  for (let round = 1; round <= rounds; round++) {
    let improved = false;
    for (const knob of knobs) {
      const v = knob.get(model);
      const tries = new Set([...MOVES.map((d) => v + d), ...SCALES.map((s) => v * s)].map((x) => Math.round(Math.min(knob.max, Math.max(knob.min, x)) * 1000) / 1000));
      for (const t of tries) {
        if (t === v) continue;
        const candidate = knob.set(model, t);
        const value = evaluate(candidate);
        if (value > best + 1e-9) {
          best = value;
          model = candidate;
          improved = true;
        }
      }
    }
    log(`  round ${round}: ${best.toFixed(4)} ${knobs.map((k) => `${k.name} ${k.get(model)}`).join(', ')}`);
    if (!improved) break;
  }
  return model;
}

/** The names of stage one's weights a fit may move: its features and `demote`. */
export const FIRST_KNOBS: readonly string[] = firstKnobs.map((k) => k.name);

/**
 * Stage one's `knobs` (names from FIRST_KNOBS) moved from `start` by a short ascent with no restarts:
 * a small adjustment of a model to a few cases (bench/ranker/adapt.ts), not a fit from scratch.
 */
export function adjustFirst(cases: readonly Case[], start: RankerModel, knobs: readonly string[], rounds: number): RankerModel {
  return ascend(start, firstKnobs.filter((k) => knobs.includes(k.name)), (m) => objective(cases, m, true), () => {}, rounds);
}

/** Restarts of stage one from the best so far with every weight scaled at random (×0.5 to ×1.5): the ascent stops at the first local best. */
const RESTARTS = 8;

/** A fixed-seed generator (mulberry32), so a fit is reproducible. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Stage one on its own (with restarts), then stage two over it, with its pool and seeds chosen from a small grid.
 * `held` names weights (features of either stage, or demote) the fit leaves at their starting value: to measure what a feature adds, fit without it.
 */
export function fit(cases: readonly Case[], start: RankerModel, log: (line: string) => void, held: readonly string[] = []): RankerModel {
  log('stage one');
  const firstValue = (m: RankerModel) => objective(cases, m, true);
  const knobs = firstKnobs.filter((k) => !held.includes(k.name));
  let model = ascend(start, knobs, firstValue, log);
  const next = random(19);
  for (let r = 1; r <= RESTARTS; r++) {
    const shaken = knobs.reduce((m, k) => k.set(m, Math.min(k.max, Math.max(k.min, Math.round(k.get(m) * (0.5 + next()) * 1000) / 1000))), model);
    log(`restart ${r}`);
    const tried = ascend(shaken, knobs, firstValue, log);
    if (firstValue(tried) > firstValue(model) + 1e-9) model = tried;
  }
  log('stage two');
  let best = { model, value: objective(cases, model) };
  for (const pool of [10, 20, 30]) {
    for (const seeds of [1, 2, 3]) {
      const tried = ascend({ ...model, second: { ...model.second, pool, seeds } }, secondKnobs.filter((k) => !held.includes(k.name)), (m) => objective(cases, m), log);
      const value = objective(cases, tried);
      log(`  pool ${pool}, seeds ${seeds}: ${value.toFixed(4)}`);
      if (value > best.value + 1e-9) best = { model: tried, value };
    }
  }
  return best.model;
}
