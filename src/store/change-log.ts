/**
 * What changed in the files and vectors tables, by generation, so that what a reader keeps of
 * them (the file list, the vector matrix: tens of thousands of rows on a large tree) moves by what
 * a pass wrote instead of being read whole again after every edit.
 *
 * Each write transaction that writes a file row or a vector takes the next generation: its rows
 * carry it (the `gen` columns), and what it deleted is logged in `gone` under it. A reader that
 * stands at generation G reads the rows and the deletions above G. An epoch (a random token in
 * meta) names the numbering: emptying the index (which deletes the meta keys) or switching the
 * embedding space starts a new one, and a reader of another epoch reads everything again. The log
 * of deletions is kept to GONE_KEPT rows; a reader older than what it still holds (the floor) does
 * the same.
 */
import type { Db } from './db.js';

const EPOCH = 'changes_epoch';
const GEN = 'changes_gen';
const FLOOR = 'changes_floor';

/** What `gone` rows are: a file's row, or a chunk's vector. */
export const GONE_FILE = 0;
export const GONE_VECTOR = 1;

/** Deletions kept in the log (about 20 bytes each): many passes' worth of edits, a large branch switch. */
const GONE_KEPT = 50_000;

/** Where the committed tables stand: a reader that holds them as of this point asks what changed since. */
export interface ChangePoint {
  epoch: string;
  gen: number;
}

/** What changed after one point up to another: the deleted ids of one kind, and the generations to read rows of. */
export interface ChangesSince {
  now: ChangePoint;
  /** Rows with gen in (after, upTo] are new or rewritten. */
  after: number;
  upTo: number;
  gone: number[];
}

export class ChangeLog {
  /** The generation the write transaction under way writes, once it wrote a tracked row. */
  private open: number | null = null;
  /** Store.transaction's nesting: writes are tracked only inside one, where the generation can end with it. */
  private depth = 0;
  private readonly readMeta;
  private readonly writeMeta;
  private readonly logGone;
  private readonly logVectorsOfFile;
  private readonly goneOf;
  constructor(private readonly db: Db) {
    this.readMeta = db.prepare<[], [string, string]>(`SELECT key, value FROM meta WHERE key IN ('${EPOCH}', '${GEN}', '${FLOOR}')`).raw();
    this.writeMeta = db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)');
    this.logGone = db.prepare('INSERT OR IGNORE INTO gone(gen, kind, id) VALUES (?, ?, ?)');
    this.logVectorsOfFile = db.prepare(
      `INSERT OR IGNORE INTO gone(gen, kind, id) SELECT ?, ${GONE_VECTOR}, v.chunk_id FROM chunks c JOIN vectors v ON v.chunk_id = c.id WHERE c.file_id = ?`,
    );
    this.goneOf = db.prepare<[number, number, number], number>('SELECT id FROM gone WHERE gen > ? AND gen <= ? AND kind = ?').pluck();
  }

  /** Runs `fn`, a write transaction (Store.transaction): the generation it took ends with the outermost. */
  during<T>(fn: () => T): T {
    this.depth++;
    try {
      return fn();
    } finally {
      if (--this.depth === 0) this.open = null;
    }
  }

  /** Whether a write transaction of this connection is under way (Store.transaction). */
  writes(): boolean {
    return this.depth > 0;
  }

  /** The generation the rows this transaction writes carry: the next one, recorded with them. */
  writing(): number {
    if (this.depth === 0) throw new Error('a tracked table written outside Store.transaction');
    if (this.open === null) {
      const meta = this.meta();
      this.open = (meta.epoch === null ? 0 : meta.gen) + 1;
      if (meta.epoch === null) this.writeMeta.run(EPOCH, crypto.randomUUID());
      this.writeMeta.run(GEN, String(this.open));
    }
    return this.open;
  }

  /** A file row goes: logged with the vectors of its chunks, before its delete cascades to them. */
  fileGone(fileId: number): void {
    const gen = this.writing();
    this.logGone.run(gen, GONE_FILE, fileId);
    this.logVectorsOfFile.run(gen, fileId);
  }

  /** Every row of a table went (the embedding space switched): readers start over, in a new epoch. */
  restart(): void {
    this.writeMeta.run(EPOCH, crypto.randomUUID());
    this.db.prepare('DELETE FROM gone').run();
    this.writeMeta.run(FLOOR, String(this.writing()));
  }

  /** Where the committed tables stand; null until a tracked write (an empty or just emptied index, or one not written since the migration). */
  point(): ChangePoint | null {
    const { epoch, gen } = this.meta();
    return epoch === null ? null : { epoch, gen };
  }

  /**
   * What changed since `held` (a point a reader took), of deletions of `kind`; null when the reader
   * must read everything again: another epoch, or older than the log. Read it in the same read
   * transaction as the rows it names.
   */
  since(held: ChangePoint | null, kind: number): ChangesSince | null {
    const { epoch, gen, floor } = this.meta();
    if (epoch === null || held === null || held.epoch !== epoch || held.gen < floor || held.gen > gen) return null;
    return { now: { epoch, gen }, after: held.gen, upTo: gen, gone: held.gen === gen ? [] : this.goneOf.all(held.gen, gen, kind) };
  }

  /** Keeps the log to its last `keep` rows, raising the floor past what it drops. Call inside a transaction. */
  trim(keep = GONE_KEPT): void {
    const cut = this.db.prepare('SELECT gen FROM gone ORDER BY gen DESC LIMIT 1 OFFSET ?').pluck().get(keep) as number | undefined;
    if (cut === undefined) return;
    this.db.prepare('DELETE FROM gone WHERE gen <= ?').run(cut);
    this.writeMeta.run(FLOOR, String(cut));
  }

  private meta(): { epoch: string | null; gen: number; floor: number } {
    const values = new Map(this.readMeta.all());
    return { epoch: values.get(EPOCH) ?? null, gen: Number(values.get(GEN) ?? 0), floor: Number(values.get(FLOOR) ?? 0) };
  }
}
