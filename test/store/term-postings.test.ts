import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIELD_WEIGHTS } from '../../src/store/chunks.js';
import { Memo } from '../../src/store/memo.js';
import { TermPostings } from '../../src/store/term-postings.js';
import { indexedRepo, writeFiles, type IndexedRepo } from '../helpers/fixture.js';

/** A tree where the words recur unevenly: varied term frequencies, chunk lengths and paths. */
function wordyFiles(): Record<string, string> {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'theta', 'kappa', 'lambda', 'sigma'];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const files: Record<string, string> = {};
  for (let f = 0; f < 40; f++) {
    const lines: string[] = [];
    for (let fn = 0; fn < 1 + Math.floor(next() * 4); fn++) {
      const name = `${words[Math.floor(next() * words.length)]}${words[Math.floor(next() * words.length)]}`;
      lines.push(`export function ${name}${f}_${fn}() {`);
      for (let l = 0; l < 1 + Math.floor(next() * 8); l++) {
        const said = Array.from({ length: 1 + Math.floor(next() * 6) }, () => words[Math.floor(next() ** 2 * words.length)]);
        lines.push(`  // ${said.join(' ')}`);
      }
      lines.push('}', '');
    }
    files[`${words[f % words.length]}/${words[(f * 3) % words.length]}${f}.ts`] = lines.join('\n');
  }
  return files;
}

/** FTS5's own answer: every match of the phrases ORed, scored by bm25 with the store's field weights. */
function ftsScores(fixture: IndexedRepo, phrases: string[]): Map<number, number> {
  const { body, path, symbols } = FIELD_WEIGHTS;
  const rows = fixture.repo.store.db
    .prepare(`SELECT rowid, -bm25(chunks_fts, ${body}, ${path}, ${symbols}) FROM chunks_fts WHERE chunks_fts MATCH ?`)
    .raw()
    .all(phrases.map((p) => `"${p}"`).join(' OR ')) as [number, number][];
  return new Map(rows);
}

const QUERIES = [['alpha'], ['alpha', 'beta'], ['sigma', 'sigma', 'kappa'], ['gamma', 'delta', 'delta', 'delta', 'epsilon'], ['lambda', 'nowhere'], ['theta', 'alphabeta']];

describe('lexical search from kept term postings', () => {
  let fixture: IndexedRepo;
  afterEach(() => {
    fixture?.cleanup();
    vi.restoreAllMocks();
  });

  it("scores every match exactly as FTS5's bm25 does for the phrases ORed, best first, by path where tied", async () => {
    fixture = await indexedRepo({ files: wordyFiles() });
    const store = fixture.repo.store;
    for (const phrases of QUERIES) {
      const expected = ftsScores(fixture, phrases);
      expect(expected.size).toBeGreaterThan(1);
      const got = store.chunks.lexical(phrases, 10_000);
      expect(new Map(got.map((h) => [h.chunkId, h.score]))).toEqual(expected); // to the last bit
      for (let i = 1; i < got.length; i++) {
        const [a, b] = [got[i - 1]!, got[i]!];
        expect(a.score > b.score || (a.score === b.score && (a.path < b.path || (a.path === b.path && a.startLine < b.startLine)))).toBe(true);
      }
      // A shorter read is the head of the longer one, ties included.
      for (const n of [1, 3, 10]) expect(store.chunks.lexical(phrases, n)).toEqual(got.slice(0, n));
    }
  });

  it("reads a term's postings once per index version, and again once the index moved on", async () => {
    fixture = await indexedRepo({ files: wordyFiles() });
    const store = fixture.repo.store;
    const read = vi.spyOn(TermPostings.prototype as unknown as { readPostings(term: string): unknown }, 'readPostings');
    store.chunks.lexical(['alpha', 'beta'], 10);
    store.chunks.lexical(['beta', 'gamma'], 10);
    expect(store.chunks.holding('alpha').has(store.chunks.lexical(['alpha'], 1)[0]!.chunkId)).toBe(true);
    expect(read.mock.calls.map(([term]) => term)).toEqual(['alpha', 'beta', 'gamma']);

    const before = store.chunks.lexical(['alpha'], 10_000).length;
    writeFiles(fixture.root, { 'new/alpha.ts': 'export function alphaOnly() {\n  // alpha alpha\n}\n' });
    await fixture.repo.index();
    expect(store.chunks.lexical(['alpha'], 10_000).length).toBeGreaterThan(before);
    expect(read.mock.calls.map(([term]) => term)).toEqual(['alpha', 'beta', 'gamma', 'alpha']);
  });

  it('keeps postings within the budget of chunk ids, starting again past it', async () => {
    fixture = await indexedRepo({ files: wordyFiles() });
    const store = fixture.repo.store;
    const alpha = ftsScores(fixture, ['alpha']).size;
    store.chunks.keepWithin({ textUnits: 1 << 20, termChunkIds: alpha });
    const read = vi.spyOn(TermPostings.prototype as unknown as { readPostings(term: string): unknown }, 'readPostings');
    store.chunks.lexical(['alpha'], 5);
    store.chunks.lexical(['alpha'], 5);
    store.chunks.lexical(['beta'], 5); // past the budget: alpha's postings go
    store.chunks.lexical(['alpha'], 5);
    expect(read.mock.calls.map(([term]) => term)).toEqual(['alpha', 'beta', 'alpha']);
  });

  it('finds every hit when the kept places overflow their share of the budget between overlapping questions', async () => {
    fixture = await indexedRepo({ files: wordyFiles() });
    const store = fixture.repo.store;
    const alpha = ftsScores(fixture, ['alpha']).size;
    store.chunks.keepWithin({ textUnits: 1 << 20, termChunkIds: alpha * 4 }); // places: room for about one question's hits
    for (const phrases of [['alpha'], ['alpha', 'beta'], ['beta', 'gamma'], ['alpha', 'gamma', 'delta']]) {
      const got = store.chunks.lexical(phrases, 10_000);
      expect(new Map(got.map((h) => [h.chunkId, h.score]))).toEqual(ftsScores(fixture, phrases));
    }
  });

  it('counts a term no chunk holds against the budget', async () => {
    fixture = await indexedRepo({ files: wordyFiles() });
    const store = fixture.repo.store;
    store.chunks.keepWithin({ textUnits: 1 << 20, termChunkIds: 3 });
    const read = vi.spyOn(TermPostings.prototype as unknown as { readPostings(term: string): unknown }, 'readPostings');
    for (const term of ['nowhere1', 'nowhere2', 'nowhere3', 'nowhere4', 'nowhere1']) expect(store.chunks.lexical([term], 5)).toEqual([]);
    // The fourth empty term overflows a budget of three: the first is read again.
    expect(read.mock.calls.map(([term]) => term)).toEqual(['nowhere1', 'nowhere2', 'nowhere3', 'nowhere4', 'nowhere1']);
  });

  it('scores the next question from zero after a read failed midway', async () => {
    fixture = await indexedRepo({ files: wordyFiles() });
    const store = fixture.repo.store;
    const places = vi.spyOn(TermPostings.prototype as unknown as { places(ids: readonly number[]): unknown }, 'places');
    places.mockImplementationOnce(() => {
      throw new Error('disk I/O error');
    });
    expect(() => store.chunks.lexical(['alpha', 'beta'], 5)).toThrow(/disk I\/O/);
    const got = store.chunks.lexical(['alpha', 'beta'], 10_000);
    expect(new Map(got.map((h) => [h.chunkId, h.score]))).toEqual(ftsScores(fixture, ['alpha', 'beta']));
  });

  it('tests for a term no question scored without reading its scores, and scores it once a question searches it', async () => {
    fixture = await indexedRepo({ files: wordyFiles() });
    const store = fixture.repo.store;
    const scored = vi.spyOn(TermPostings.prototype as unknown as { readPostings(term: string): unknown }, 'readPostings');
    const all = store.db.prepare('SELECT id FROM chunks').pluck().all() as number[];
    const matched = ftsScores(fixture, ['kappa']);
    const holding = store.chunks.holding('kappa');
    expect(all.filter((id) => holding.has(id))).toEqual(all.filter((id) => matched.has(id)));
    expect(scored).not.toHaveBeenCalled();
    const got = store.chunks.lexical(['kappa'], 10_000);
    expect(new Map(got.map((h) => [h.chunkId, h.score]))).toEqual(matched);
    store.chunks.holding('kappa');
    expect(scored.mock.calls.map(([term]) => term)).toEqual(['kappa']);
  });

  it('counts the chunks of a term only tested for against the same budget', async () => {
    fixture = await indexedRepo({ files: wordyFiles() });
    const store = fixture.repo.store;
    store.chunks.keepWithin({ textUnits: 1 << 20, termChunkIds: ftsScores(fixture, ['alpha']).size });
    const read = vi.spyOn(TermPostings.prototype as unknown as { readPostings(term: string): unknown }, 'readPostings');
    store.chunks.lexical(['alpha'], 5);
    store.chunks.holding('beta'); // past the budget: alpha's postings go
    store.chunks.lexical(['alpha'], 5);
    expect(read.mock.calls.map(([term]) => term)).toEqual(['alpha', 'alpha']);
  });

  it('reads right beside another reader of postings on the same connection', async () => {
    fixture = await indexedRepo({ files: wordyFiles() });
    const store = fixture.repo.store;
    const { body, path, symbols } = FIELD_WEIGHTS;
    const other = new TermPostings(store.db, `${body}, ${path}, ${symbols}`, new Memo(), () => 'other', 1_000_000);
    expect(other.of('alpha').ids.length).toBe(ftsScores(fixture, ['alpha']).size);
    const got = store.chunks.lexical(['beta'], 10_000);
    expect(new Map(got.map((h) => [h.chunkId, h.score]))).toEqual(ftsScores(fixture, ['beta']));
  });

  it('holds exactly the chunks FTS5 matches for a term', async () => {
    fixture = await indexedRepo({ files: wordyFiles() });
    const store = fixture.repo.store;
    const all = fixture.repo.store.db.prepare('SELECT id FROM chunks').pluck().all() as number[];
    for (const term of ['zeta', 'kappa', 'nowhere']) {
      const matched = ftsScores(fixture, [term]);
      const holding = store.chunks.holding(term);
      expect(all.filter((id) => holding.has(id))).toEqual(all.filter((id) => matched.has(id)));
    }
  });
});
