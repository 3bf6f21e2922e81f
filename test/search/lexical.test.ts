import { describe, expect, it } from 'vitest';
import { lexicalSearch, weightedMatch } from '../../src/search/lexical.js';
import { useIndexedRepo } from '../helpers/fixture.js';

const fixture = useIndexedRepo();

describe('weighted FTS queries', () => {
  it('repeat each term by its weight, with the common factor taken out', () => {
    expect(weightedMatch([{ term: 'user', weight: 3 }, { term: 'name', weight: 3 }])).toEqual({ expression: '"user" OR "name"', scale: 3 });
    expect(weightedMatch([{ term: 'user', weight: 3 }, { term: 'x"y', weight: 1 }])).toEqual({ expression: '"user" OR "user" OR "user" OR "x""y"', scale: 1 });
    expect(weightedMatch([{ term: 'a', weight: 6 }, { term: 'b', weight: 4 }])).toEqual({ expression: '"a" OR "a" OR "a" OR "b" OR "b"', scale: 2 });
  });

  it('score exactly as the fully repeated query does', () => {
    const terms = [{ term: 'session', weight: 3 }, { term: 'token', weight: 3 }, { term: 'user', weight: 6 }];
    const repeated = terms.flatMap(({ term, weight }) => Array.from({ length: weight }, () => `"${term}"`)).join(' OR ');
    const expected = fixture.repo.store.chunks.lexical(repeated, 50);
    const got = lexicalSearch(fixture.repo.store, terms, 50);
    expect(got.length).toBeGreaterThan(1);
    expect(got.map((h) => h.chunkId)).toEqual(expected.map((h) => h.chunkId));
    got.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i]!.score, 9));
  });
});
