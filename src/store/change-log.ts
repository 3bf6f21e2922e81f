/**
 * What changed in the files and vectors tables, by generation, so that what a reader keeps of
 * them (the file list, the vector matrix: tens of thousands of rows on a large tree) moves by what
 * a pass wrote instead of being read whole again after every edit.
 *
 * Each write transaction that writes a file row or a vector takes the next generation: its rows
 * carry it (the `gen` columns), and what it deleted is logged in `gone` under it. A reader that
 * stands at generation G reads the rows and the deletions above G. An epoch (a random token in
 * meta) names the numbering: emptying the index (which deletes the meta keys) starts a new one,
 * and a reader of another epoch reads everything again. So does a reader older than the log,
 * which keeps about its last GONE_KEPT deletions (the floor), and a reader of the vectors older
 * than the last switch of the embedding space, which deleted them all.
 */
import type { Db } from './db.js';

const EPOCH = 'changes_epoch';
const GEN = 'changes_gen';
const FLOOR = 'changes_floor';
/** The generation that switched the embedding space: vectors held from before it are all gone. */
const VECTORS_FROM = 'changes_vectors_from';

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

interface Meta {
  epoch: string | null;
  gen: number;
  floor: number;
  vectorsFrom: number;
}

export class ChangeLog {
  /** The generation the write transaction under way writes, once it wrote a tracked row. */
  private open: number | null = null;
  /** The nesting level that took it: rolled back there (a savepoint), its meta row goes too. */
  private openedAt = 0;
  /** Store.transaction's nesting: writes are tracked only inside one, where the generation can end with it. */
  private depth = 0;
  private readonly readMeta;
  private readonly writeMeta;
  private readonly logGone;
  private readonly logVectorsOfFile;
  private readonly goneOf;
  constructor(private readonly db: Db) {
    const keys = [EPOCH, GEN, FLOOR, VECTORS_FROM].map((k) => `'${k}'`).join(', ');
    this.readMeta = db.prepare<[], [string, string]>(`SELECT key, value FROM meta WHERE key IN (${keys})`).raw();
    this.writeMeta = db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)');
    this.logGone = db.prepare('INSERT OR IGNORE INTO gone(gen, kind, id) VALUES (?, ?, ?)');
    this.logVectorsOfFile = db.prepare(
      `INSERT OR IGNORE INTO gone(gen, kind, id) SELECT ?, ${GONE_VECTOR}, v.chunk_id FROM chunks c JOIN vectors v ON v.chunk_id = c.id WHERE c.file_id = ?`,
    );
    this.goneOf = db.prepare<[number, number, number], number>('SELECT id FROM gone WHERE gen > ? AND gen <= ? AND kind = ?').pluck();
  }

  /** Runs `fn`, one level of a write transaction (Store.transaction): the generation it took ends with the outermost, or with the level that took it if that one fails. */
  during<T>(fn: () => T): T {
    const level = ++this.depth;
    try {
      return fn();
    } catch (err) {
      if (this.openedAt >= level) this.open = null;
      throw err;
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
      this.openedAt = this.depth;
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

  /** Every vector went (the embedding space switched): readers of the vectors start over; the file list stands. */
  vectorsCleared(): void {
    this.writeMeta.run(VECTORS_FROM, String(this.writing()));
    this.db.prepare('DELETE FROM gone WHERE kind = ?').run(GONE_VECTOR);
  }

  /** The index was emptied in this transaction, the log's meta keys with it: the next write starts a new epoch. */
  cleared(): void {
    this.open = null;
  }

  /** Where the committed tables stand; null until a tracked write (an empty or just emptied index, or one not written since the migration). */
  point(): ChangePoint | null {
    const { epoch, gen } = this.meta();
    return epoch === null ? null : { epoch, gen };
  }

  /**
   * What changed since `held` (a point a reader took), of deletions of `kind`; null when the reader
   * must read everything again: another epoch, older than the log, or (vectors) than the last
   * switch of the embedding space. Read it in the same read transaction as the rows it names.
   */
  since(held: ChangePoint | null, kind: number): ChangesSince | null {
    const { epoch, gen, floor, vectorsFrom } = this.meta();
    if (epoch === null || held === null || held.epoch !== epoch || held.gen > gen) return null;
    if (held.gen < floor || (kind === GONE_VECTOR && held.gen < vectorsFrom)) return null;
    return { now: { epoch, gen }, after: held.gen, upTo: gen, gone: held.gen === gen ? [] : this.goneOf.all(held.gen, gen, kind) };
  }

  /**
   * Keeps the log to about its last `keep` rows, raising the floor past what it drops: whole
   * generations go, so a few fewer may stay. Call inside a transaction.
   */
  trim(keep = GONE_KEPT): void {
    const cut = this.db.prepare('SELECT gen FROM gone ORDER BY gen DESC LIMIT 1 OFFSET ?').pluck().get(keep) as number | undefined;
    if (cut === undefined) return;
    this.db.prepare('DELETE FROM gone WHERE gen <= ?').run(cut);
    this.writeMeta.run(FLOOR, String(cut));
  }

  private meta(): Meta {
    const values = new Map(this.readMeta.all());
    const number = (key: string) => Number(values.get(key) ?? 0);
    return { epoch: values.get(EPOCH) ?? null, gen: number(GEN), floor: number(FLOOR), vectorsFrom: number(VECTORS_FROM) };
  }
}
