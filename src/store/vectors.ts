/**
 * Embedding vectors, one row per chunk, all of one space: the embedder
 * identity recorded in meta. A vector is written only if its chunk still has
 * the exact text that was embedded (checked in the INSERT itself), so a row
 * never describes an older version; a chunk without a row is pending and is
 * picked up by the next embedding pass. Rows go with their chunk (ON DELETE
 * CASCADE), so replacing a file drops its vectors in the same transaction.
 */
import { GONE_VECTOR, type ChangeLog, type ChangePoint } from './change-log.js';
import { FileTexts, sliceSpan, unpackTexts } from './chunk-text.js';
import { BREADCRUMB, CHUNK_FROM } from './chunks.js';
import type { Db } from './db.js';
import { decodeHalves, encodeHalves } from './float16.js';

export interface VectorIdentity {
  name: string;
  model: string;
  dims: number;
}

/** A chunk waiting for a vector, with what its embedding text is built from. */
export interface PendingChunk {
  id: number;
  breadcrumb: string;
  text: string;
  /** The signature of the definition the chunk sits in, when that starts above the chunk. */
  signature: string | null;
  /** Where the text was read: its file's packed chunk texts and its span there (`put` checks the chunk still points at the same). */
  source: { packed: Buffer; at: number; length: number };
}

interface PendingRow {
  id: number;
  file_id: number;
  breadcrumb: string;
  signature: string | null;
  text_at: number;
  text_length: number;
}

/** Every stored vector, row-major, for exact in-process search. */
export interface VectorMatrix {
  ids: Float64Array;
  data: Float32Array;
  dims: number;
}

/** What the vectors changed by since a reader's point: the chunks whose vectors went, and the vectors written (new, or written again), each with its chunk's file. */
export interface VectorChange {
  at: ChangePoint;
  gone: number[];
  written: { id: number; fileId: number; vec: Float32Array }[];
}

const IDENTITY_KEY = 'embedder_identity';
/** A stamp of the model file the stored identity was last checked against (see `stamp`). */
const STAMP_KEY = 'embedder_stamp';

export function sameIdentity(a: VectorIdentity | null, b: VectorIdentity | null): boolean {
  return !!a && !!b && a.name === b.name && a.model === b.model && a.dims === b.dims;
}

export class VectorTable {
  private readonly insert;
  private readonly pendingPage;
  private readonly pendingFew;
  private readonly getMeta;
  private readonly setMeta;
  private readonly texts;
  private readonly writtenSince;

  constructor(
    private readonly db: Db,
    private readonly changes: ChangeLog,
  ) {
    // Same span of the same packed texts: the same text, compared without unpacking.
    this.insert = db.prepare(
      `INSERT OR REPLACE INTO vectors(chunk_id, vec, gen)
       SELECT c.id, ?, ? FROM ${CHUNK_FROM} JOIN file_texts t ON t.file_id = c.file_id
       WHERE c.id = ? AND ${BREADCRUMB} = ? AND c.text_at = ? AND c.text_length = ? AND t.packed = ?`,
    );
    this.texts = new FileTexts(db);
    const page = (ids: string) =>
      db.prepare(
        `SELECT c.id, c.file_id, ${BREADCRUMB} AS breadcrumb, c.text_at, c.text_length,
                (SELECT s.signature FROM symbols s
                  WHERE s.file_id = c.file_id AND s.qualified = c.symbol AND s.start_line < c.start_line LIMIT 1) AS signature
         FROM ${CHUNK_FROM} WHERE c.id IN (${ids}) ORDER BY c.id`,
      );
    const pendingIds = (order: 'ASC' | 'DESC') =>
      `SELECT p.id FROM chunks p WHERE p.id > ? AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.chunk_id = p.id) ORDER BY p.id ${order} LIMIT ?`;
    this.pendingPage = page(pendingIds('ASC'));
    // A few pending (an edit): its new chunks have the highest ids, so they are looked for from the last
    // chunk down, and the scan ends once as many as are pending are found (babel, 38,000 chunks: 0.1 ms,
    // against 20–35 ms for a look at every chunk id).
    this.pendingFew = page(pendingIds('DESC'));
    this.writtenSince = db
      .prepare<[number, number], [number, number, Buffer]>('SELECT v.chunk_id, c.file_id, v.vec FROM vectors v JOIN chunks c ON c.id = v.chunk_id WHERE v.gen > ? AND v.gen <= ?')
      .raw();
    this.getMeta = db.prepare('SELECT value FROM meta WHERE key = ?').pluck();
    this.setMeta = db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)');
  }

  identity(): VectorIdentity | null {
    const raw = this.getMeta.get(IDENTITY_KEY) as string | undefined;
    return raw ? (JSON.parse(raw) as VectorIdentity) : null;
  }

  /**
   * The stamp (path, size, mtime) of the model file whose identity was found equal to the
   * stored one, so a reader that sees the same stamp knows the space is current without
   * reading and digesting the model (a keyword search, a pass with nothing to embed). Null
   * until an index pass vouched for it, and again after `reset`.
   */
  stamp(): string | null {
    return (this.getMeta.get(STAMP_KEY) as string | undefined) ?? null;
  }

  /** Records that the stored identity is the one of the model file stamped `stamp`. Call inside a transaction. */
  vouch(stamp: string): void {
    this.setMeta.run(STAMP_KEY, stamp);
  }

  /** Switches the space: every vector of another identity goes. Call inside a transaction. */
  reset(identity: VectorIdentity): void {
    this.db.prepare('DELETE FROM vectors').run();
    this.db.prepare('DELETE FROM meta WHERE key = ?').run(STAMP_KEY);
    this.setMeta.run(IDENTITY_KEY, JSON.stringify(identity));
    this.changes.vectorsCleared();
  }

  /**
   * Pending chunks with ids above `afterId`, in id order (keyset pages never loop), at most `limit`.
   * `few` when no more than a page is pending and `limit` is how many: those are looked for from the
   * highest id down, where an edit's chunks are (should more be pending, the lowest wait for the next pass).
   */
  pending(afterId: number, limit: number, few = false): PendingChunk[] {
    const rows = (few ? this.pendingFew : this.pendingPage).all(afterId, limit) as PendingRow[];
    const files = new Map<number, { packed: Buffer; text: string }>();
    return rows.map((r) => {
      let file = files.get(r.file_id);
      if (!file) {
        const packed = this.texts.packed(r.file_id)!;
        files.set(r.file_id, (file = { packed, text: unpackTexts(packed) }));
      }
      const span = { at: r.text_at, length: r.text_length };
      return { id: r.id, breadcrumb: r.breadcrumb, text: sliceSpan(file.text, span), signature: r.signature, source: { packed: file.packed, ...span } };
    });
  }

  /** Chunks without a vector: a difference of counts, since every vector belongs to a chunk (ON DELETE CASCADE), not a probe per chunk. */
  pendingCount(): number {
    return this.db.prepare('SELECT (SELECT count(*) FROM chunks) - (SELECT count(*) FROM vectors)').pluck().get() as number;
  }

  count(): number {
    return this.db.prepare('SELECT count(*) FROM vectors').pluck().get() as number;
  }

  /**
   * Stores the vector of `chunk` if the chunk still holds the text it was
   * embedded from; false when it changed meanwhile (it stays pending). Call inside a transaction.
   */
  put(chunk: PendingChunk, vec: Float32Array): boolean {
    const { packed, at, length } = chunk.source;
    return this.insert.run(encodeHalves(vec), this.changes.writing(), chunk.id, chunk.breadcrumb, at, length, packed).changes > 0;
  }

  /**
   * Every vector of `dims` floats as one matrix, in chunk id order, with the change log's point it
   * reflects (null inside a write of this connection's: not to be moved from). `room` gives the
   * space for its rows, at least as many as asked (the search's SIMD kernel keeps them in its own
   * memory, with room to grow).
   */
  load(dims: number, room: (rows: number) => { ids: Float64Array; data: Float32Array } = (rows) => ({ ids: new Float64Array(rows), data: new Float32Array(rows * dims) })): { at: ChangePoint | null; matrix: VectorMatrix } {
    return this.db.transaction(() => {
      const n = this.count();
      const { ids, data } = room(n);
      let i = 0;
      for (const [id, blob] of this.db.prepare('SELECT chunk_id, vec FROM vectors').raw().iterate() as IterableIterator<[number, Buffer]>) {
        if (blob.byteLength !== dims * 2) continue;
        ids[i] = id;
        decodeHalves(blob, data, i * dims);
        i++;
      }
      const at = this.changes.writes() ? null : this.changes.point();
      return { at, matrix: { ids: ids.subarray(0, i), data: data.subarray(0, i * dims), dims } };
    })();
  }

  /** What changed since `held` (where a loaded matrix stands), read in one read transaction; null when everything must be loaded again. */
  changedSince(held: ChangePoint | null, dims: number): VectorChange | null {
    if (this.changes.writes()) return null;
    return this.db.transaction(() => {
      const since = this.changes.since(held, GONE_VECTOR);
      if (!since) return null;
      const written: VectorChange['written'] = [];
      if (since.upTo > since.after) {
        for (const [id, fileId, blob] of this.writtenSince.all(since.after, since.upTo)) {
          if (blob.byteLength !== dims * 2) continue;
          const vec = new Float32Array(dims);
          decodeHalves(blob, vec, 0);
          written.push({ id, fileId, vec });
        }
      }
      return { at: since.now, gone: since.gone, written };
    })();
  }
}

