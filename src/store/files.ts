import { GONE_FILE, type ChangeLog } from './change-log.js';
import type { Db } from './db.js';
import { FileList } from './file-list.js';
import { pathKey } from './schema.js';

export interface FileRecord {
  path: string;
  language: string | null;
  kind: string;
  size: number;
  mtimeMs: number;
  digest: string;
  indexedAtMs: number;
  lineCount: number;
  tokens: number;
  invalidUtf8: boolean;
}
export interface StoredFile extends FileRecord {
  id: number;
}

/** A file row as read: FILE_COLUMNS in order (raw rows: arrays cost a third less than objects to read). */
type FileRow = [id: number, path: string, language: string | null, kind: string, size: number, mtimeMs: number, digest: string, indexedAtMs: number, lineCount: number, tokens: number, invalidUtf8: number];
const FILE_COLUMNS = 'id, path, language, kind, size, mtime_ms, digest, indexed_at_ms, line_count, tokens, invalid_utf8';

function fromRow([id, path, language, kind, size, mtimeMs, digest, indexedAtMs, lineCount, tokens, invalidUtf8]: FileRow): StoredFile {
  return { id, path, language, kind, size, mtimeMs, digest, indexedAtMs, lineCount, tokens, invalidUtf8: invalidUtf8 === 1 };
}

/** What a pass compares a walked file with (index/survey.ts): whether it changed since it was read, its bytes' digest, and its row. */
export type FileStamp = Pick<StoredFile, 'id' | 'size' | 'indexedAtMs' | 'digest'>;

/** What one indexed file weighs in the index: its rows and its tokens. */
export interface FileWeight {
  path: string;
  language: string | null;
  kind: string;
  bytes: number;
  tokens: number;
  chunks: number;
  symbols: number;
}

export class FileTable {
  /**
   * Every file's stamp as last read, and what the table was then: other connections' commits
   * (`data_version`) and this one's writes to it. A pass that finds nothing changed writes no file
   * row, so the next one takes the stamps from here (babel/babel's 27,600 rows: ~45 ms a read).
   * Kept only up to `keepStampsWithin` files; none without it.
   */
  private kept: { at: string; stamps: ReadonlyMap<string, FileStamp> } | null = null;
  private keptMax = 0;
  private writes = 0;
  private readonly dataVersion;
  private readonly byPath;
  private readonly byIdList;
  private readonly weights;
  private readonly all;
  private readonly stampRows;
  private readonly changedSince;
  private readonly insert;
  private readonly remove;
  private readonly touch;
  constructor(
    private readonly db: Db,
    private readonly changes: ChangeLog,
  ) {
    this.byPath = db.prepare(`SELECT ${FILE_COLUMNS} FROM files WHERE path_key = ? AND path = ?`).raw();
    this.byIdList = db.prepare(`SELECT ${FILE_COLUMNS} FROM files WHERE id IN (SELECT value FROM json_each(?))`).raw();
    this.all = db.prepare(`SELECT ${FILE_COLUMNS} FROM files ORDER BY path`).raw();
    this.stampRows = db.prepare<[], [string, number, number, number, string]>('SELECT path, id, size, indexed_at_ms, digest FROM files').raw();
    this.changedSince = db.prepare(`SELECT ${FILE_COLUMNS} FROM files WHERE gen > ? AND gen <= ?`).raw();
    this.weights = db.prepare(
      `SELECT path, language, kind, size AS bytes, tokens,
              (SELECT count(*) FROM chunks c WHERE c.file_id = f.id) AS chunks,
              (SELECT count(*) FROM symbols s WHERE s.file_id = f.id) AS symbols
       FROM files f ORDER BY path`,
    );
    this.insert = db.prepare(
      `INSERT INTO files(path, path_key, language, kind, size, mtime_ms, digest, indexed_at_ms, line_count, tokens, invalid_utf8, gen)
       VALUES (@path, @pathKey, @language, @kind, @size, @mtimeMs, @digest, @indexedAtMs, @lineCount, @tokens, @invalidUtf8, @gen)`,
    );
    this.remove = db.prepare('DELETE FROM files WHERE id = ?');
    this.touch = db.prepare('UPDATE files SET mtime_ms = ?, size = ?, indexed_at_ms = ?, gen = ? WHERE id = ?');
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  /** Keep the stamps between passes when the table holds at most `files` rows (the `maxMemoryMB` plan's share). */
  keepStampsWithin(files: number): void {
    this.keptMax = files;
    this.kept = null;
  }

  /** This connection wrote the table (or emptied the index): the stamps kept are stale. */
  changed(): void {
    this.writes++;
    this.kept = null;
  }

  get(path: string): StoredFile | undefined {
    const row = this.byPath.get(pathKey(path), path) as FileRow | undefined;
    return row && fromRow(row);
  }

  list(): StoredFile[] {
    return (this.all.all() as FileRow[]).map(fromRow);
  }

  /**
   * Every file, as `held` (the list a reader kept) moved by what changed since it was made: the
   * rows written and deleted since, read in one read transaction with where the table stands.
   * Read whole when there is no list to move, or the change log cannot say what changed since.
   */
  listFrom(held: FileList | null): FileList {
    return this.db.transaction(() => {
      const changes = held && this.changes.since(held.at, GONE_FILE);
      if (!held || !changes) return FileList.of(this.changes.writes() ? null : this.changes.point(), this.list());
      if (changes.upTo === changes.after) return held;
      const written = (this.changedSince.all(changes.after, changes.upTo) as FileRow[]).map(fromRow);
      return held.moved(changes.now, written, changes.gone);
    })();
  }

  /** Every file's stamp by path: what a pass over a whole tree reads of each, without the rest of its row. */
  stamps(): ReadonlyMap<string, FileStamp> {
    const at = `${this.dataVersion.get() as number}:${this.writes}`;
    if (this.kept?.at === at) return this.kept.stamps;
    const out = new Map<string, FileStamp>();
    for (const [path, id, size, indexedAtMs, digest] of this.stampRows.all()) out.set(path, { id, size, indexedAtMs, digest });
    this.kept = out.size <= this.keptMax ? { at, stamps: out } : null;
    return out;
  }

  /** Every file with its chunk and symbol counts, in one query (the dashboard's contents). */
  weighAll(): FileWeight[] {
    return this.weights.all() as FileWeight[];
  }

  /** Inserts a file row; the caller has removed any previous version in the same transaction. */
  add(record: FileRecord): number {
    this.changed();
    const row = { ...record, pathKey: pathKey(record.path), invalidUtf8: record.invalidUtf8 ? 1 : 0, gen: this.changes.writing() };
    return Number(this.insert.run(row).lastInsertRowid);
  }

  /** Deletes the row; chunks, symbols and vectors go with it (ON DELETE CASCADE), FTS rows are the caller's. */
  delete(id: number): void {
    this.changed();
    this.changes.fileGone(id);
    this.remove.run(id);
  }

  /** Records that an unchanged file (same digest) was seen again. */
  markSeen(id: number, mtimeMs: number, size: number, indexedAtMs: number): void {
    this.changed();
    this.touch.run(mtimeMs, size, indexedAtMs, this.changes.writing(), id);
  }

  byIds(ids: number[]): Map<number, StoredFile> {
    const out = new Map<number, StoredFile>();
    if (ids.length === 0) return out;
    // One prepared statement for any number of ids, as chunks by id (a list of `?` is prepared anew per length).
    for (const r of this.byIdList.all(JSON.stringify(ids)) as FileRow[]) out.set(r[0], fromRow(r));
    return out;
  }
}
