/**
 * How many chunks hold each term, read from the FTS index itself through an
 * fts5vocab view kept in the connection's temp schema (no stored state). A
 * count is a walk over the term's postings, so counts are kept per index
 * version in the store's memo: a gated search asks for dozens of them, and
 * questions repeat words.
 */
import type { Db } from './db.js';
import { slot, type Memo } from './memo.js';

const COUNTS = slot<Map<string, number>>('term document counts');
const DOCUMENTS = slot<number>('chunks in the index');
/** Terms whose counts are kept at most (a few MiB); past it the memo starts again. */
const MAX_KEPT_COUNTS = 50_000;

export class TermStats {
  private lookup: ((term: string) => number | undefined) | null = null;
  private readonly chunkCount;

  constructor(
    private readonly db: Db,
    private readonly memo: Memo,
    private readonly version: () => string,
  ) {
    this.chunkCount = db.prepare('SELECT count(*) FROM chunks').pluck();
  }

  /** Chunks in the index, counted once per index version (every question weighs its terms by it). */
  documents(): number {
    return this.memo.derived(DOCUMENTS, this.version(), () => this.chunkCount.get() as number);
  }

  /** The vocabulary table is a temporary one, which a vacuum drops (db.ts): the next lookup makes it again. */
  forgetVocabulary(): void {
    this.lookup = null;
  }

  /** Chunks holding each term (0 when none). */
  documentFrequency(terms: string[]): Map<string, number> {
    if (!this.lookup) {
      this.db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunks_vocab USING fts5vocab(main, chunks_fts, 'row')");
      const stmt = this.db.prepare('SELECT doc FROM temp.chunks_vocab WHERE term = ?').pluck();
      this.lookup = (t) => stmt.get(t) as number | undefined;
    }
    const kept = this.memo.derived(COUNTS, this.version(), () => new Map<string, number>());
    if (kept.size > MAX_KEPT_COUNTS) kept.clear();
    return new Map(
      terms.map((t) => {
        let n = kept.get(t);
        if (n === undefined) kept.set(t, (n = this.lookup!(t) ?? 0));
        return [t, n];
      }),
    );
  }
}
