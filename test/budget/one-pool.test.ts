/**
 * A refine answer is made from the one candidate pool the gate judged: its
 * distribution and every suggestion's would_yield are counted in it, never by
 * searching again. Searches are counted by a counter put in front of the
 * real index's lexical search (it calls through).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RefineEnvelope } from '../../src/budget/index.js';
import type { GatedSearchEnvelope } from '../../src/engine/index.js';
import { gatedSearch } from '../../src/engine/search-gate.js';
import { search } from '../../src/engine/search.js';
import { filesMentioning, indexed, type Indexed } from './helpers.js';

describe('the gate searches once', () => {
  let fx: Indexed;
  let searches = 0;
  beforeAll(async () => {
    fx = await indexed({
      ...filesMentioning('lib/alpha', 20, 'widget transfer'),
      ...filesMentioning('lib/beta', 10, 'widget'),
      ...filesMentioning('lib/gamma', 12, 'widget ledger'),
    }, { queryCacheSize: 0 }); // every call computes: the answer cache would hide the searches
    const chunks = fx.repo.store.chunks;
    const lexical = chunks.lexical.bind(chunks);
    chunks.lexical = (...args) => {
      searches++;
      return lexical(...args);
    };
  });
  afterAll(() => fx.cleanup());

  const counted = <T>(run: () => T): { answer: T; searches: number } => {
    searches = 0;
    const answer = run();
    return { answer, searches };
  };

  it('a refused question, in either mode, costs one search however many suggestions it makes', () => {
    for (const mode of ['keyword', 'hybrid'] as const) {
      const { answer, searches: n } = counted(() => gatedSearch(fx.repo, { query: 'widget', mode }) as RefineEnvelope);
      expect(answer.status).toBe('refine');
      expect(answer.distribution.length).toBeGreaterThan(1);
      expect(answer.suggestions.filter((s) => s.action === 'narrow_scope').length).toBeGreaterThan(1);
      expect(answer.suggestions.filter((s) => s.action === 'add_term').length).toBeGreaterThan(0);
      expect(n, mode).toBe(1);
    }
  });

  it('each would_yield is what the narrowed call then counts', () => {
    const r = gatedSearch(fx.repo, { query: 'widget', mode: 'keyword' }) as RefineEnvelope;
    for (const s of r.suggestions.filter((x) => x.action === 'narrow_scope' || x.action === 'add_term')) {
      const narrowed = s.action === 'add_term' ? { query: `widget ${s.arg}` } : { query: 'widget', scope: s.arg };
      const e = gatedSearch(fx.repo, { ...narrowed, mode: 'keyword', k: 50 }) as GatedSearchEnvelope;
      expect(e.status, JSON.stringify(s)).toBe('ok');
      expect(e.total, JSON.stringify(s)).toBe(s.would_yield);
    }
  });

  it('an answer that passes searches once in either mode: a hybrid answer fuses the pool\'s own keyword ranking', () => {
    for (const mode of ['keyword', 'hybrid'] as const) {
      const { answer, searches: n } = counted(() => gatedSearch(fx.repo, { query: 'ledger', mode }) as GatedSearchEnvelope);
      expect(answer.status).toBe('ok');
      expect(answer.results.length).toBeGreaterThan(0);
      expect(n, mode).toBe(1);
    }
  });

  it('a file answer that passes gathers its candidates once in either mode, and ranks as a plain search does', () => {
    for (const mode of ['keyword', 'hybrid'] as const) {
      const { answer, searches: n } = counted(() => gatedSearch(fx.repo, { query: 'ledger', mode, files: true }) as GatedSearchEnvelope);
      expect(answer.status).toBe('ok');
      expect(answer.results.length).toBeGreaterThan(1);
      expect(n, mode).toBe(1);
      const plain = search(fx.repo, { query: 'ledger', mode, files: true }).results;
      expect(answer.results.map((r) => [r.path, r.score, r.reasons])).toEqual(plain.map((r) => [r.path, r.score, r.reasons]));
    }
  });

  it('the first k of the pool are the results a plain search of k returns', () => {
    for (const query of ['ledger', 'widget transfer']) {
      const gated = gatedSearch(fx.repo, { query, mode: 'keyword', force: true }) as GatedSearchEnvelope;
      expect(gated.results.map((r) => [r.path, r.start_line])).toEqual(search(fx.repo, { query, mode: 'keyword' }).results.map((r) => [r.path, r.start_line]));
    }
  });
});
