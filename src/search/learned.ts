/**
 * The file ranking's scorer, learned rather than set by hand: two linear
 * models over features of each candidate file, fitted by
 * `bench/ranker/train.ts` on pairs mined from the history of public
 * repositories that are not benchmark sources (bench/corpus), and shipped as
 * data in `models/ranker.json`. The trainer and the ranking call the same
 * functions here, so what was fitted is what runs.
 *
 * Stage one scores every candidate from its own signals (content, history,
 * definitions named, mentions, file names, nearness). Stage two re-scores the
 * first stage's best few from what they say about each other: a fix that
 * touches one file often touches the files that changed with it before
 * (co-change), the implementations beside it (siblings) or its other half
 * (`x.js` and `x.d.ts`, `x.h` and `x.c`). Those are features weighed by the
 * model, not files appended to the answer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SightlineError } from '../errors/index.js';
import { shippedFile } from '../shipped.js';
import type { Question } from './query.js';
import type { SignalValues } from './weigh.js';
import { byCodeUnit } from '../order.js';

/** What the scorer reads of one candidate: its signals, its best chunk's score and how many of its chunks matched. */
export interface Candidate extends SignalValues {
  /** BM25 of its best chunk. */
  top: number;
  /** How many of its chunks matched. */
  hitCount: number;
}

export const FIRST_FEATURES = ['content', 'top', 'hits', 'contentRank', 'history', 'definition', 'mention', 'name', 'semantic'] as const;
export const SECOND_FEATURES = ['cochange', 'sibling', 'pair'] as const;
export type FirstFeature = (typeof FIRST_FEATURES)[number];
export type SecondFeature = (typeof SECOND_FEATURES)[number];

export interface RankerModel {
  first: { weights: Record<FirstFeature, number>; demote: number };
  second: { pool: number; seeds: number; weights: Record<SecondFeature, number> };
}

/** The commits (ids) that touched each path, for co-change; paths with none may be left out. */
export type CommitsOf = (paths: readonly string[]) => ReadonlyMap<string, ReadonlySet<number>>;

const MODEL_FILE = path.join('models', 'ranker.json');

/**
 * Which of the shipped models ranks a query: a one-line question (a search box,
 * a commit title) or a whole issue. The query reader weighs the two
 * differently (query.ts), and weights fitted on one cost the other: fitted on
 * both at once, mostly on titles, the dev issues lost 3 points.
 */
export type QueryKind = 'question' | 'issue';
export type ShippedRankers = Record<QueryKind, RankerModel>;

let shipped: ShippedRankers | undefined;

/** The model for `kind` shipped in models/ranker.json, read once per process. */
export function shippedRanker(kind: QueryKind): RankerModel {
  if (!shipped) {
    const file = shippedFile(MODEL_FILE);
    if (file === null) throw new SightlineError('usage', `the file ranker (${MODEL_FILE}) is missing from this installation; reinstall sightline`);
    shipped = parseRankers(JSON.parse(fs.readFileSync(file, 'utf8')) as unknown, file);
  }
  return shipped[kind];
}

export function kindOf(question: Question): QueryKind {
  return question.read.question ? 'question' : 'issue';
}

/** Both models of a ranker file. */
export function parseRankers(value: unknown, source: string): ShippedRankers {
  const v = value as Partial<Record<QueryKind, unknown>> | null;
  return { question: parseRanker(v?.question, `${source} (question)`), issue: parseRanker(v?.issue, `${source} (issue)`) };
}

/** A model read from JSON, every weight checked: a hand-edited file that would rank by NaN is refused. */
export function parseRanker(value: unknown, source: string): RankerModel {
  const bad = (what: string): never => {
    throw new SightlineError('usage', `${source} is not a sightline file ranker: ${what}`);
  };
  const num = (v: unknown, what: string): number => (typeof v === 'number' && Number.isFinite(v) ? v : bad(`${what} must be a number`));
  const m = value as { first?: { weights?: Record<string, unknown>; demote?: unknown }; second?: { pool?: unknown; seeds?: unknown; weights?: Record<string, unknown> } };
  if (!m?.first?.weights || !m.second?.weights) bad('it needs first.weights and second.weights');
  const weights = <F extends string>(names: readonly F[], from: Record<string, unknown>, stage: string) =>
    Object.fromEntries(names.map((f) => [f, num(from[f], `${stage}.weights.${f}`)])) as Record<F, number>;
  const whole = (v: unknown, what: string) => (Number.isInteger(v) && (v as number) >= 0 ? (v as number) : bad(`${what} must be a whole number`));
  return {
    first: { weights: weights(FIRST_FEATURES, m.first!.weights!, 'first'), demote: num(m.first!.demote, 'first.demote') },
    second: { pool: whole(m.second!.pool, 'second.pool'), seeds: whole(m.second!.seeds, 'second.seeds'), weights: weights(SECOND_FEATURES, m.second!.weights!, 'second') },
  };
}

/** The model with its nearness weight scaled (config `nearnessWeight`: 1 ranks as trained, 0 ignores nearness). */
export function withNearness(model: RankerModel, scale: number): RankerModel {
  if (scale === 1) return model;
  return { ...model, first: { ...model.first, weights: { ...model.first.weights, semantic: model.first.weights.semantic * scale } } };
}

/** Content ranks fade like nearness ranks do (hybrid.ts): 1 for the best, 1/2 for the sixth. */
const RANK_SCALE = 5;

/** Each candidate's stage-one features, in FIRST_FEATURES order. Relative signals are divided by their best among the candidates. */
export function firstFeatures(candidates: readonly Candidate[]): number[][] {
  let content = 0, top = 0, hits = 0, history = 0;
  for (const c of candidates) {
    content = Math.max(content, c.content);
    top = Math.max(top, c.top);
    hits = Math.max(hits, c.hitCount);
    history = Math.max(history, c.history);
  }
  const byContent = candidates.map((c, i) => ({ c, i })).filter(({ c }) => c.content > 0).sort((a, b) => b.c.content - a.c.content || byCodeUnit(a.c.path, b.c.path));
  const rank = new Map(byContent.map(({ i }, r) => [i, r]));
  const rel = (v: number, max: number) => (max > 0 ? v / max : 0);
  return candidates.map((c, i) => [
    rel(c.content, content),
    rel(c.top, top),
    hits > 0 ? Math.log1p(c.hitCount) / Math.log1p(hits) : 0,
    rank.has(i) ? 1 / (1 + rank.get(i)! / RANK_SCALE) : 0,
    rel(c.history, history),
    Math.min(1, c.definition),
    Math.min(1, c.mention),
    Math.min(1, c.name),
    Math.min(1, c.semantic),
  ]);
}

export function linear(weights: readonly number[], features: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < weights.length; i++) s += weights[i]! * features[i]!;
  return s;
}

export function firstScores(candidates: readonly Candidate[], weights: readonly number[], demote: number): number[] {
  return firstFeatures(candidates).map((f, i) => linear(weights, f) * (candidates[i]!.demoted ? demote : 1));
}

const { dirname: dirOf, extname: extOf } = path.posix;

/** `src/x.d.ts` → `src/x`, `lib/x.js` → `lib/x`: the name two halves of one module share. */
function stemOf(file: string): string {
  const name = path.posix.basename(file);
  const dot = name.indexOf('.', 1);
  return path.posix.join(dirOf(file), dot < 0 ? name : name.slice(0, dot));
}

/**
 * Stage-two features of the pool (candidates in stage-one order, `first` their
 * stage-one scores), in SECOND_FEATURES order. A seed is one of the pool's
 * best `seeds`; what it lends another file is scaled by its share of the best
 * stage-one score, so a weak first place lends little.
 */
export function secondFeatures(pool: readonly Candidate[], first: readonly number[], seeds: number, commitsOf: CommitsOf): number[][] {
  const best = Math.max(0, ...first);
  const seedCount = Math.min(seeds, pool.length);
  const commits = commitsOf(pool.map((c) => c.path));
  const seedInfo = pool.slice(0, seedCount).map((c, i) => ({ path: c.path, share: best > 0 ? Math.max(0, first[i]!) / best : 0, commits: commits.get(c.path), dir: dirOf(c.path), ext: extOf(c.path), stem: stemOf(c.path) }));
  return pool.map((c) => {
    const mine = commits.get(c.path);
    const dir = dirOf(c.path), ext = extOf(c.path), stem = stemOf(c.path);
    let cochange = 0, sibling = 0, pair = 0;
    for (const s of seedInfo) {
      if (s.path === c.path) continue;
      if (mine && s.commits && s.commits.size > 0) {
        let both = 0;
        for (const id of s.commits) if (mine.has(id)) both++;
        cochange += (s.share * both) / s.commits.size;
      }
      if (s.dir === dir && s.ext === ext) sibling = Math.max(sibling, s.share);
      if (s.stem === stem) pair = Math.max(pair, s.share);
    }
    return [Math.min(1, cochange), sibling, pair];
  });
}

/**
 * The candidates' order, best first: stage one over all of them, then stage
 * two over its best `pool`, each file's stage-one score (as a share of the
 * best) plus its weighted stage-two features. The rest keep stage one's order.
 * `score` is what the order came from (stage two's for the pool).
 */
export function rankCandidates<C extends Candidate>(candidates: readonly C[], model: RankerModel, commitsOf: CommitsOf): { candidate: C; score: number }[] {
  const wSecond = SECOND_FEATURES.map((f) => model.second.weights[f]);
  const order = firstOrder(candidates, model);
  const pool = order.slice(0, model.second.pool);
  const best = pool[0]?.score ?? 0;
  if (pool.length < 2 || best <= 0 || wSecond.every((w) => w === 0)) return order;
  const second = secondFeatures(pool.map((p) => p.candidate), pool.map((p) => p.score), model.second.seeds, commitsOf);
  const rescored = pool
    .map((p, i) => ({ candidate: p.candidate, score: p.score / best + linear(wSecond, second[i]!) * (p.candidate.demoted ? model.first.demote : 1) }))
    .sort(byScoreThenPath);
  // The rest keep stage one's order below the pool, on the pool's scale.
  const floor = rescored[rescored.length - 1]!.score;
  return [...rescored, ...order.slice(pool.length).map((o) => ({ candidate: o.candidate, score: Math.min(o.score / best, floor) }))];
}

/** The candidates by stage one alone, best first. */
export function firstOrder<C extends Candidate>(candidates: readonly C[], model: RankerModel): { candidate: C; score: number }[] {
  const scores = firstScores(candidates, FIRST_FEATURES.map((f) => model.first.weights[f]), model.first.demote);
  return candidates.map((candidate, i) => ({ candidate, score: scores[i]! })).sort(byScoreThenPath);
}

function byScoreThenPath(a: { candidate: { path: string }; score: number }, b: { candidate: { path: string }; score: number }): number {
  return b.score - a.score || byCodeUnit(a.candidate.path, b.candidate.path);
}
