/**
 * The trainer's fast stage-one path (bench/ranker/fit.ts) must order a pool as
 * the search does (src/search/learned.ts), or the weights it fits are fitted
 * to a ranking that never runs.
 */
import { describe, expect, it } from 'vitest';
import { adjustFirst, fit, prepare, ranked } from '../../bench/ranker/fit.js';
import type { Pool } from '../../bench/quality/pools.js';
import { shippedRanker, type Candidate, type RankerModel } from '../../src/search/index.js';

/** A small deterministic generator, so a failure reproduces. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function poolOf(seed: number): Pool {
  const r = random(seed);
  // Few distinct values, so ties are common and the path tie-break is exercised.
  const pick = () => Math.floor(r() * 4) / 2;
  const candidates: Candidate[] = Array.from({ length: 40 }, (_, i) => ({
    path: `src/m${(i * 7919) % 40}.ts`,
    demoted: r() < 0.3,
    content: pick(),
    top: pick(),
    hitCount: Math.floor(r() * 5),
    history: pick(),
    definition: r() < 0.2 ? 1 : 0,
    mention: r() < 0.1 ? 1 : 0,
    name: r() < 0.2 ? 1 : 0,
    semantic: pick() / 2,
  }));
  return { id: `p${seed}`, repo: 'o/r', language: 'typescript', split: 'train', kind: 'question', gold: [], candidates, commits: {} };
}

describe('the trainer', () => {
  it('orders the first ten candidates as the search does, ties and demotion included', () => {
    const shipped = shippedRanker('question');
    const firstOnly: RankerModel = { ...shipped, second: { ...shipped.second, weights: { cochange: 0, sibling: 0, pair: 0 } } };
    for (let seed = 1; seed <= 50; seed++) {
      const c = prepare(poolOf(seed));
      expect(ranked(c, firstOnly, true)).toEqual(ranked(c, firstOnly, false));
    }
  });

  it('leaves held weights where they started, of either stage', () => {
    const shipped = shippedRanker('question');
    const cases = [1, 2, 3, 4].map((seed) => {
      const pool = poolOf(seed);
      return prepare({ ...pool, repo: `o/r${seed % 2}`, gold: [pool.candidates[seed * 3]!.path] });
    });
    const held = ['content', 'history', 'demote', 'cochange'];
    const fitted = fit(cases, shipped, () => {}, held);
    expect(fitted.first.weights.content).toBe(shipped.first.weights.content);
    expect(fitted.first.weights.history).toBe(shipped.first.weights.history);
    expect(fitted.first.demote).toBe(shipped.first.demote);
    expect(fitted.second.weights.cochange).toBe(shipped.second.weights.cochange);
  });

  it('adjusts only the weights it is given, and moves one that puts a gold file first', () => {
    const shipped = shippedRanker('question');
    // Gold is the one candidate that history alone tells apart; a decoy defines and mentions what is asked.
    const cases = [1, 2, 3].map((seed) => {
      const candidates: Candidate[] = Array.from({ length: 12 }, (_, i) => ({
        path: `src/f${i}.ts`,
        demoted: false,
        content: 1,
        top: 1,
        hitCount: 1,
        history: i === 10 - seed ? 0.3 : 0,
        definition: i === seed ? 1 : 0,
        mention: i === seed ? 1 : 0,
        name: 0,
        semantic: 0,
      }));
      return prepare({ id: `a${seed}`, repo: 'o/r', language: 'go', split: 'validation', kind: 'question', gold: [`src/f${10 - seed}.ts`], candidates, commits: {} });
    });
    expect(cases.every((c) => ranked(c, shipped)[0] !== c.pool.gold[0])).toBe(true); // the named definition wins under the shipped weights
    const adjusted = adjustFirst(cases, shipped, ['history'], 3);
    expect(adjusted.first.weights.history).toBeGreaterThan(shipped.first.weights.history);
    expect({ ...adjusted.first.weights, history: 0 }).toEqual({ ...shipped.first.weights, history: 0 });
    expect(adjusted.first.demote).toBe(shipped.first.demote);
    expect(cases.every((c) => ranked(c, adjusted)[0] === c.pool.gold[0])).toBe(true);
  });
});
