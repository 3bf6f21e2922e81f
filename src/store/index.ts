/**
 * The index store: one SQLite file per repository. Everything about one file
 * (its row, chunks, FTS terms, symbols) is replaced inside one transaction, so
 * a reader or a crash sees either the old version or the new one.
 */
import fs from 'node:fs';
import { SightlineError } from '../errors/index.js';
import { openDb, openDbReadOnly, removeDbFiles, vacuum, type Db } from './db.js';
import { writeTransaction } from './sqlite.js';
import { NAMES_PENDING, NAMES_UNICODE } from './schema.js';
import { UNICODE_VERSION } from './name-filter.js';
import type { Statement } from 'better-sqlite3';
import { ChunkTable, type ChunkTerms, type NewChunk } from './chunks.js';
import type { PackedTexts } from './chunk-text.js';
import { FileTable, type FileRecord } from './files.js';
import { SymbolTable, type SymbolRecord } from './symbols.js';
import { HistoryTable } from './history.js';
import { SessionTable } from './sessions.js';
import { SessionJournal, type RefuseOnWriter } from './session-journal.js';
import { TermStats } from './vocab.js';
import { EdgeTable, type EdgeRecord } from './edges.js';
import { JobTable, LEASE_LOST, type WriteFence } from './jobs.js';
import { Memo, slot } from './memo.js';
import { VectorTable } from './vectors.js';
import { ChangeLog } from './change-log.js';
import type { FileList } from './file-list.js';
import { clearIndex } from './reset.js';

export type { FileRecord, FileStamp, FileWeight, StoredFile } from './files.js';
export type { ChunkPlace, ChunkRecord, ChunkTerms, NewChunk, StoredChunk, LexicalHit } from './chunks.js';
export { packTexts, type PackedTexts } from './chunk-text.js';
export { MAX_TERM_STATS_DRIFT } from './chunks.js';
export type { SymbolRecord, StoredSymbol } from './symbols.js';
export { splitQualified } from './symbols.js';
export type { CommitRecord, CommitHit } from './history.js';
export type { Confidence, EdgeRecord, EdgeStatus, EdgeTarget, LinkedSymbol, ReferenceInto, StoredEdge, StoredLink, StoredTarget } from './edges.js';
export { FIELD_WEIGHTS } from './chunks.js';
export { SCHEMA_VERSION } from './schema.js';
export { SESSION_CAPS, SESSION_TOUCH_GRAIN_MS, SESSION_TTL_MS, type SessionTable } from './sessions.js';
export { replaySessionWrite, SessionJournal, type RefuseOnWriter, type SessionWrite } from './session-journal.js';
export type { TermStats } from './vocab.js';
export { Memo, slot, type Slot } from './memo.js';
export type { FileList, Lookup } from './file-list.js';
export { sameIdentity, VectorTable, type PendingChunk, type VectorChange, type VectorIdentity, type VectorMatrix } from './vectors.js';
export type { ChangePoint } from './change-log.js';
export { LEASE_LOST, type JobRecord, type LockHolder, type WriteFence } from './jobs.js';
export { inspectIndex, type Check, type Inspection } from './doctor.js';
export { ioError } from './db.js';
export { isBusy } from './sqlite.js';
export { findDamage, rebuildDamaged, type Rebuilt } from './recover.js';
export { removeDbFiles };

export interface FileVersion {
  file: FileRecord;
  chunks: { chunk: NewChunk; terms: ChunkTerms }[];
  /** The chunks' texts, packed once for the file, in chunk order. */
  texts: PackedTexts;
  symbols: SymbolRecord[];
  /** References (the code graph); `from` indexes `symbols`. */
  edges?: EdgeRecord[];
}

/** A file seen but not indexed, and the stat it had when that was decided. */
export interface SkippedFile {
  path: string;
  reason: string;
  detail: string | null;
  size: number;
  mtimeMs: number;
  checkedAtMs: number;
}

export interface StoreCounts {
  files: number;
  chunks: number;
  symbols: number;
  skipped: number;
}

const FILE_LIST = slot<FileList>('file list');

export class Store {
  readonly files: FileTable;
  /** What the files and vectors tables changed by, so what readers keep of them moves by the change (change-log.ts). */
  readonly changes: ChangeLog;
  readonly chunks: ChunkTable;
  readonly symbols: SymbolTable;
  readonly history: HistoryTable;
  readonly sessions: SessionTable;
  readonly terms: TermStats;
  readonly edges: EdgeTable;
  readonly jobs: JobTable;
  /** Every cache derived from this index (answers, the vector matrix, the file list), in one place: see memo.ts. */
  readonly memo = new Memo();
  private vectors_: VectorTable | null = null;
  private readonly putSkipped;
  private readonly dropSkipped;
  private readonly versionParts;
  private readMeta: Statement<[string], string> | null = null;
  private readonly closing = new Set<() => void>();
  /** The index version a pinned read answers for (see readPinned); null: the connection's own. */
  private pinned: string | null = null;

  private constructor(
    readonly db: Db,
    readonly path: string,
    readonly fresh: boolean,
    sessions: SessionTable = new SessionTable(db),
  ) {
    this.changes = new ChangeLog(db);
    this.files = new FileTable(db, this.changes);
    this.chunks = new ChunkTable(db, this.memo, () => this.indexVersion());
    this.symbols = new SymbolTable(db);
    this.history = new HistoryTable(db);
    this.sessions = sessions;
    this.terms = new TermStats(db, this.memo, () => this.indexVersion());
    this.edges = new EdgeTable(db);
    this.jobs = new JobTable(db);
    this.putSkipped = db.prepare(
      'INSERT OR REPLACE INTO skipped(path, reason, detail, size, mtime_ms, checked_at_ms) VALUES (@path, @reason, @detail, @size, @mtimeMs, @checkedAtMs)',
    );
    this.dropSkipped = db.prepare('DELETE FROM skipped WHERE path = ?');
    // One prepared read: `db.pragma()` prepares its statement on every call, and this is asked on every read.
    this.versionParts = db.prepare<[], [number, number]>('SELECT data_version, total_changes() FROM pragma_data_version').raw();
  }

  static open(dbPath: string): Store {
    const { db, fresh } = openDb(dbPath);
    return new Store(db, dbPath, fresh);
  }

  /** A reader of an index the writer keeps: session bookkeeping is journaled for the writer to replay (session-journal.ts). */
  static openReadOnly(dbPath: string, refuseOnWriter: RefuseOnWriter): { store: Store; journal: SessionJournal } {
    const db = openDbReadOnly(dbPath);
    const journal = new SessionJournal(db, refuseOnWriter);
    return { store: new Store(db, dbPath, false, journal), journal };
  }

  /**
   * Runs `read` in one read transaction, answering for `version`: the
   * writer's index version when it sent the question (a reader's own
   * data_version would move with the writer's session bookkeeping too, and
   * every cache would be remade on each call). One read at a time.
   */
  async readPinned<T>(version: string, read: () => Promise<T>): Promise<T> {
    if (this.pinned !== null) throw new Error('readPinned: a pinned read is already running on this connection');
    this.db.exec('BEGIN');
    this.pinned = version;
    try {
      return await read();
    } finally {
      this.pinned = null;
      if (this.db.inTransaction) this.db.exec('COMMIT');
    }
  }

  /** Runs `fn` when the store closes, before the database does (an index lock is released there); returns the unregister. */
  onClose(fn: () => void): () => void {
    this.closing.add(fn);
    return () => this.closing.delete(fn);
  }

  /** The vector table, prepared on first use (keyword-only indexes never touch it). */
  get vectors(): VectorTable {
    this.vectors_ ??= new VectorTable(this.db, this.changes);
    return this.vectors_;
  }

  close(): void {
    this.memo.clear();
    for (const fn of [...this.closing]) fn();
    this.closing.clear();
    if (this.db.open) this.db.close();
  }

  private fence_: WriteFence | null = null;

  /** The index lock this connection's writes are fenced by, if any. */
  get fence(): WriteFence | null {
    return this.fence_;
  }

  /**
   * Fences every transaction by the index lock: the lease is renewed first inside it, which
   * aborts it when another process took the lock over, so a pass that lost its lease writes
   * nothing more. Data, not a callback: another thread writing for the same pass (graph
   * resolution's worker) fences its own connection by the same lease.
   */
  fenceWrites(fence: WriteFence | null): void {
    this.fence_ = fence;
  }

  /**
   * Runs `fn` in one write transaction (nested calls join the outer one). It takes the write lock
   * when it begins (sqlite.ts writeTransaction): a deferred one, locking at its first write, failed
   * with SQLITE_BUSY when another connection of the pass (the graph's thread) wrote meanwhile
   * (test/store/write-contention.test.ts).
   */
  transaction<T>(fn: () => T): T {
    return this.changes.during(() =>
      writeTransaction(this.db, () => {
        const fence = this.fence_;
        if (fence && !this.jobs.renew(fence.owner, fence.leaseMs, Date.now())) throw new SightlineError('internal', LEASE_LOST);
        return fn();
      }),
    );
  }

  /**
   * Every indexed file, in path order, by id and by path: kept per index version, and after a pass
   * moved by what it wrote rather than read again whole. Read whole, and not kept, inside a write
   * transaction, whose rows may yet change or roll back.
   */
  fileList(): FileList {
    if (this.changes.writes()) return this.files.listFrom(null);
    return this.memo.derived(FILE_LIST, this.indexVersion(), () => this.files.listFrom(this.memo.peek(FILE_LIST) ?? null));
  }

  /** Drops everything indexed (files, chunks, terms, symbols, vectors, graph, history), keeping the job record, the lock, memory and sessions. */
  clear(): void {
    this.transaction(() => {
      clearIndex(this.db);
      this.changes.cleared();
    });
    this.files.changed();
    this.memo.clear();
  }

  /**
   * Rewrites the file packed, giving the space of what was dropped back to the file system and
   * filling the pages that writes out of key order left part empty (db.ts vacuum). Outside any transaction.
   */
  compact(): void {
    try {
      vacuum(this.db);
    } finally {
      this.terms.forgetVocabulary();
    }
  }

  /**
   * Gives the pages a pass freed (FTS segments merged away, replaced files) back to the file
   * system, so the file is as large as what it holds: incremental vacuum, which moves only the
   * pages past the end into the gaps, not a rewrite like `compact`. A no-op on a file created
   * before schema 8 (no auto_vacuum), where freed pages wait for the next writes instead.
   */
  releaseFreePages(): void {
    if ((this.db.pragma('freelist_count', { simple: true }) as number) === 0) return;
    this.transaction(() => this.db.pragma('incremental_vacuum'));
  }

  /** Sets this connection's page cache (SQLite's cache_size), which an index pass sizes from the memory ceiling. */
  setCacheKiB(kib: number): void {
    this.db.pragma(`cache_size = -${Math.round(kib)}`);
  }

  /** Replaces whatever version of the file is stored with `version`. Call inside a transaction. */
  putFile(version: FileVersion): void {
    const isNew = !this.removeFile(version.file.path);
    const fileId = this.files.add(version.file);
    this.chunks.addAll({ id: fileId, path: version.file.path }, version.chunks, version.texts);
    const symbolIds = version.symbols.map((s) => this.symbols.add(fileId, s));
    this.edges.addAll(fileId, version.edges ?? [], symbolIds);
    this.edges.invalidateNames(version.symbols.map((s) => s.name));
    if (isNew) this.edges.invalidateImportsFor(version.file.path);
    this.dropSkipped.run(version.file.path);
  }

  /** Removes a file and everything derived from it; false when it was not stored. Call inside a transaction. */
  removeFile(path: string): boolean {
    const existing = this.files.get(path);
    if (!existing) return false;
    this.edges.invalidateTargetsIn(existing.id, path);
    this.chunks.deleteTermsOfFile(existing.id);
    this.files.delete(existing.id);
    return true;
  }

  recordSkipped(entry: SkippedFile): void {
    this.putSkipped.run({ ...entry, detail: entry.detail ?? null });
  }

  forgetSkipped(path: string): void {
    this.dropSkipped.run(path);
  }

  skipped(): SkippedFile[] {
    return this.db
      .prepare('SELECT path, reason, detail, size, mtime_ms AS mtimeMs, checked_at_ms AS checkedAtMs FROM skipped ORDER BY path')
      .all() as SkippedFile[];
  }

  /**
   * Changes whenever what the index answers could: `data_version` moves on
   * another connection's commit, `total_changes()` on this connection's
   * writes — less its session bookkeeping (refusal counts, receipts), which
   * every gated call writes and which changes no answer.
   */
  indexVersion(): string {
    if (this.pinned !== null) return this.pinned;
    const [data, changes] = this.versionParts.get()!;
    return `${data}:${changes - this.sessions.changes}`;
  }

  getMeta(key: string): string | undefined {
    // Asked before every answer (Repo.hasIndex): prepared once, on first use (a damaged file fails here, not on open).
    this.readMeta ??= this.db.prepare<[string], string>('SELECT value FROM meta WHERE key = ?').pluck();
    return this.readMeta.get(key);
  }

  setMeta(key: string, value: string): void {
    this.db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run(key, value);
  }

  /**
   * Writes the names filters an index lacks: once after the migration to schema 11, and all of them again
   * when they were built under another Unicode version (another Node.js), whose letters may differ from
   * this one's. Files are read one at a time, in one transaction: seconds on the largest trees.
   */
  fillNameFilters(): void {
    const builtBy = this.getMeta(NAMES_UNICODE);
    const otherUnicode = builtBy !== undefined && builtBy !== UNICODE_VERSION;
    const pending = this.getMeta(NAMES_PENDING) !== undefined;
    if (builtBy === UNICODE_VERSION && !pending) return;
    this.transaction(() => {
      if (otherUnicode) this.db.prepare('UPDATE file_texts SET names = NULL').run();
      if (otherUnicode || pending) this.chunks.fillNameFilters();
      this.setMeta(NAMES_UNICODE, UNICODE_VERSION);
      this.db.prepare('DELETE FROM meta WHERE key = ?').run(NAMES_PENDING);
    });
  }

  /**
   * Files (`file:<path>`) or symbols (`symbol:<path>#<name>`) after `after` in key order, for
   * memory's paged scans; a files scan may be narrowed to the paths under `prefix`.
   */
  scanKeys(scope: 'files' | 'symbols', after: string, limit: number, prefix?: string): ({ key: string } & Record<string, unknown>)[] {
    if (scope === 'files') {
      const under = prefix ? `${prefix.replace(/\/$/, '')}/` : '';
      return this.db
        .prepare(
          `SELECT 'file:' || path AS key, path, language, kind, size AS size_bytes FROM files
           WHERE 'file:' || path > ? AND substr(path, 1, length(?)) = ? ORDER BY path LIMIT ?`,
        )
        .all(after, under, under, limit) as ({ key: string } & Record<string, unknown>)[];
    }
    return this.db
      .prepare(
        `SELECT 'symbol:' || f.path || '#' || s.qualified AS key, f.path AS path, s.qualified AS name, s.kind, s.start_line, s.end_line
         FROM symbols s JOIN files f ON f.id = s.file_id WHERE key > ? GROUP BY key ORDER BY key LIMIT ?`,
      )
      .all(after, limit) as ({ key: string } & Record<string, unknown>)[];
  }

  counts(): StoreCounts {
    const one = (sql: string) => (this.db.prepare(sql).pluck().get() as number) ?? 0;
    return {
      files: one('SELECT count(*) FROM files'),
      chunks: one('SELECT count(*) FROM chunks'),
      symbols: one('SELECT count(*) FROM symbols'),
      skipped: one('SELECT count(*) FROM skipped'),
    };
  }

  /** Bytes on disk of the database and its WAL. */
  sizeOnDisk(): number {
    let total = 0;
    for (const suffix of ['', '-wal']) {
      try {
        total += fs.statSync(this.path + suffix).size;
      } catch {
        /* absent WAL is fine */
      }
    }
    return total;
  }
}
