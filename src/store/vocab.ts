/**
 * How many chunks hold each term, read from the FTS index itself through an
 * fts5vocab view kept in the connection's temp schema (no stored state).
 */
import type { Db } from './db.js';

export class TermStats {
  private lookup: ((term: string) => number | undefined) | null = null;
  private readonly chunkCount;

  constructor(private readonly db: Db) {
    this.chunkCount = db.prepare('SELECT count(*) FROM chunks').pluck();
  }

  /** Chunks in the index. */
  documents(): number {
    return this.chunkCount.get() as number;
  }

  /** Chunks holding each term (0 when none). */
  documentFrequency(terms: string[]): Map<string, number> {
    if (!this.lookup) {
      this.db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunks_vocab USING fts5vocab(main, chunks_fts, 'row')");
      const stmt = this.db.prepare('SELECT doc FROM temp.chunks_vocab WHERE term = ?').pluck();
      this.lookup = (t) => stmt.get(t) as number | undefined;
    }
    return new Map(terms.map((t) => [t, this.lookup!(t) ?? 0]));
  }
}
