import { describe, expect, it } from 'vitest';
import { lexicalSearch, weightedMatch } from '../../src/search/lexical.js';
import { useIndexedRepo } from '../helpers/fixture.js';

const fixture = useIndexedRepo();

describe('weighted FTS queries', () => {
  it('repeat each term by its weight, with the common factor taken out', () => {
    expect(weightedMatch([{ term: 'user', weight: 3 }, { term: 'name', weight: 3 }])).toEqual({ phrases: ['user', 'name'], scale: 3 });
    expect(weightedMatch([{ term: 'user', weight: 3 }, { term: 'x"y', weight: 1 }])).toEqual({ phrases: ['user', 'user', 'user', 'x"y'], scale: 1 });
    expect(weightedMatch([{ term: 'a', weight: 6 }, { term: 'b', weight: 4 }])).toEqual({ phrases: ['a', 'a', 'a', 'b', 'b'], scale: 2 });
    // A search box's parts weigh half its words: each term is read at most twice.
    expect(weightedMatch([{ term: 'a', weight: 3 }, { term: 'b', weight: 1.5 }])).toEqual({ phrases: ['a', 'a', 'b'], scale: 1.5 });
  });

  it('score exactly as the fully repeated query does', () => {
    const terms = [{ term: 'session', weight: 3 }, { term: 'token', weight: 3 }, { term: 'user', weight: 6 }];
    const repeated = terms.flatMap(({ term, weight }) => Array.from({ length: weight }, () => term));
    const expected = fixture.repo.store.chunks.lexical(repeated, 50);
    const got = lexicalSearch(fixture.repo.store, terms, 50);
    expect(got.length).toBeGreaterThan(1);
    expect(got.map((h) => h.chunkId)).toEqual(expected.map((h) => h.chunkId));
    got.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i]!.score, 9));
  });
});

describe('a shallow lexical read', () => {
  it('is the head of a deep one: rows are cut by the weighted score, not by unweighted bm25', () => {
    const store = fixture.repo.store;
    let reordered = false;
    for (const query of [['session', 'token'], ['user', 'name'], ['session', 'manager', 'token', 'hash'], ['user', 'getusername', 'session']]) {
      const deep = store.chunks.lexical(query, 1000);
      expect(deep.length).toBeGreaterThan(1);
      for (let n = 1; n <= deep.length; n++) expect(store.chunks.lexical(query, n).map((h) => h.chunkId)).toEqual(deep.slice(0, n).map((h) => h.chunkId));
      const unweighted = store.db.prepare('SELECT rowid AS id FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank').pluck().all(query.map((t) => `"${t}"`).join(' OR ')) as number[];
      reordered ||= unweighted.some((id, i) => id !== deep[i]!.chunkId);
    }
    // The fixture is one where the field weights change the order, so the test can tell.
    expect(reordered).toBe(true);
  });
});
