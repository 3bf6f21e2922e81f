import { describe, expect, it } from 'vitest';
import { cutoff } from '../../src/search/cutoff.js';
import { LruCache, cachedAnswer, normalizeQuery } from '../../src/search/cache.js';
import { rrf } from '../../src/search/fusion.js';
import { Store } from '../../src/store/index.js';
import path from 'node:path';
import { removeDir, tempDir } from '../helpers/fixture.js';

const ids = { keyword: (x: number) => x, semantic: (x: number) => x };

describe('reciprocal rank fusion', () => {
  it('ranks agreement between the lists above a single first place, on a 0..1 scale', () => {
    const fused = rrf([1, 2, 3], [3, 4, 1], ids, { k0: 60, keywordWeight: 1, semanticWeight: 1 });
    expect(fused.map((f) => f.key)).toEqual([1, 3, 2, 4]);
    expect(fused[0]!.score).toBeLessThanOrEqual(1);
    expect(fused[0]).toMatchObject({ keyword: { rank: 1 }, semantic: { rank: 3 } });
    const top = rrf([7], [7], ids, { k0: 60, keywordWeight: 1, semanticWeight: 1 });
    expect(top[0]!.score).toBeCloseTo(1, 10);
  });

  it('follows its weights and k0', () => {
    const semanticHeavy = rrf([1, 2], [2, 1], ids, { k0: 1, keywordWeight: 1, semanticWeight: 3 });
    expect(semanticHeavy[0]!.key).toBe(2);
    const keywordOnly = rrf([1, 2], [2, 1], ids, { k0: 1, keywordWeight: 1, semanticWeight: 0 });
    expect(keywordOnly.map((f) => f.key)).toEqual([1, 2]);
  });

  it('counts an item once per list', () => {
    const fused = rrf([5, 5], [], ids, { k0: 60, keywordWeight: 1, semanticWeight: 1 });
    expect(fused).toHaveLength(1);
    expect(fused[0]!.keyword!.rank).toBe(1);
  });
});

describe('smart cutoff', () => {
  const o = { relative: 0.3, floor: 0.05, outlierRatio: 3, safeHarbor: 2 };
  const s = (...scores: number[]) => scores.map((score) => ({ score }));

  it('drops the tail under the share of the top score', () => {
    expect(cutoff(s(1, 0.9, 0.5, 0.29, 0.2), o).map((r) => r.score)).toEqual([1, 0.9, 0.5]);
  });

  it('keeps the safe harbour above the floor even when steep', () => {
    expect(cutoff(s(1, 0.4, 0.2, 0.1), o).map((r) => r.score)).toEqual([1, 0.4]);
    expect(cutoff(s(1, 0.4, 0.2, 0.1), { ...o, safeHarbor: 3 }).map((r) => r.score)).toEqual([1, 0.4, 0.2]);
  });

  it('applies the floor to everything, the first result too', () => {
    expect(cutoff(s(0.04, 0.03), o)).toEqual([]);
  });

  it('judges the rest against the second result when the first is an outlier', () => {
    // Without the guard 0.2 and 0.15 would fall under 0.3 × 1.
    expect(cutoff(s(1, 0.25, 0.2, 0.15, 0.07), o).map((r) => r.score)).toEqual([1, 0.25, 0.2, 0.15, 0.07].filter((x) => x >= 0.075));
  });
});

describe('query cache', () => {
  it('evicts the least recently used entry', () => {
    const c = new LruCache<number>(2);
    c.set('a', 1);
    c.set('b', 2);
    expect(c.get('a')).toBe(1);
    c.set('c', 3);
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe(1);
    expect(c.size).toBe(2);
  });

  it('normalises whitespace, and case outside regular expressions', () => {
    expect(normalizeQuery('  Parse   Date\n')).toBe('parse date');
    expect(normalizeQuery(' Foo  Bar ', true)).toBe('Foo Bar');
  });

  it('serves a repeat from the cache until the index or the config changes', () => {
    const dir = tempDir();
    const store = Store.open(path.join(dir, 'index.db'));
    try {
      let computed = 0;
      const ask = (query: string, config: object) => cachedAnswer(store, 10, { query }, config, () => ++computed);
      expect(ask('parse date', { a: 1 })).toBe(1);
      expect(ask('  PARSE date ', { a: 1 })).toBe(1);
      expect(ask('parse date', { a: 2 })).toBe(2); // config fingerprint changed
      store.setMeta('anything', 'written'); // any index write moves the version
      expect(ask('parse date', { a: 2 })).toBe(3);
      expect(ask('parse date', { a: 2 })).toBe(3);
      const uncached = cachedAnswer(store, 10, { query: 'x' }, {}, () => ++computed, () => false);
      expect(cachedAnswer(store, 10, { query: 'x' }, {}, () => ++computed)).toBe(uncached + 1);
    } finally {
      store.close();
      removeDir(dir);
    }
  });

  it('sees writes made through another connection', () => {
    const dir = tempDir();
    const a = Store.open(path.join(dir, 'index.db'));
    const b = Store.open(path.join(dir, 'index.db'));
    try {
      let computed = 0;
      const ask = () => cachedAnswer(a, 10, { query: 'q' }, {}, () => ++computed);
      expect(ask()).toBe(1);
      b.setMeta('other', 'process');
      expect(ask()).toBe(2);
    } finally {
      a.close();
      b.close();
      removeDir(dir);
    }
  });
});
