/**
 * Opening an index database: create, upgrade, or refuse. A file that is not a
 * sightline index is never written to; the caller is told to rebuild it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DAMAGED_INDEX, isCorruption, SightlineError } from '../errors/index.js';
import { APP_ID, CREATE_SCHEMA, MIGRATIONS, pathKey, SCHEMA_VERSION } from './schema.js';
import { isBusy, openSqlite, writeTransaction, type Db } from './sqlite.js';

export type { Db } from './sqlite.js';

function corrupt(dbPath: string, why: string): SightlineError {
  return new SightlineError('corrupt_index', `${dbPath} ${why}: ${DAMAGED_INDEX}`);
}

/** The disk refusing a write (read-only, full, permissions) as a sentence that names the fix. */
export function ioError(dbPath: string, err: unknown): SightlineError {
  const code = (err as NodeJS.ErrnoException).code ?? (err as { code?: string }).code ?? '';
  // SQLite reports extended codes too (SQLITE_READONLY_DIRECTORY, SQLITE_CANTOPEN_ISDIR, ...).
  const reason =
    ['EACCES', 'EPERM', 'EROFS'].includes(code) || /^SQLITE_(READONLY|CANTOPEN)/.test(code)
      ? 'is not writable (check permissions, or set SIGHTLINE_HOME to a writable directory)'
      : code === 'ENOSPC' || code.startsWith('SQLITE_FULL')
        ? 'cannot grow: the disk is full'
        : `cannot be opened (${(err as Error).message})`;
  return new SightlineError('io', `the index directory ${path.dirname(dbPath)} ${reason}`, { cause: err });
}

/**
 * In one exec, in this order (each `db.pragma()` call prepares a statement of its own: ~2 ms of
 * every verb's start, against under one). The busy timeout is set already (openSqlite): switching
 * to WAL needs a lock another process may hold. auto_vacuum takes effect only on a new, empty
 * file, and only before WAL writes its header: free pages can then be given back after a pass
 * (Store.releaseFreePages). It is set on an empty file only: on one that holds a database, setting
 * it rewrote the first page, so every verb's open wrote the index (and its close checkpointed it).
 */
function configure(db: Db, empty: boolean): void {
  db.exec(`${empty ? 'PRAGMA auto_vacuum = INCREMENTAL; ' : ''}PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
    PRAGMA foreign_keys = ON; PRAGMA cache_size = -16000; PRAGMA temp_store = MEMORY`);
}

function readVersion(db: Db, dbPath: string): number | null {
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  if (!hasMeta) {
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master").get() as { n: number };
    if (tables.n === 0) return null; // empty database: initialise it
    throw corrupt(dbPath, 'belongs to another program');
  }
  const rows = db.prepare("SELECT key, value FROM meta WHERE key IN ('app', 'schema_version')").all() as { key: string; value: string }[];
  const meta = Object.fromEntries(rows.map((r) => [r.key, r.value]));
  if (meta.app !== APP_ID) throw corrupt(dbPath, 'belongs to another program');
  const version = Number(meta.schema_version);
  if (!Number.isInteger(version)) throw corrupt(dbPath, 'has no schema version');
  return version;
}

function createSchema(db: Db): void {
  db.exec(CREATE_SCHEMA);
  const put = db.prepare('INSERT INTO meta(key, value) VALUES (?, ?)');
  put.run('app', APP_ID);
  put.run('schema_version', String(SCHEMA_VERSION));
  put.run('created_at', new Date().toISOString());
}

/**
 * Upgrades an existing database in place; false when no migration path exists.
 * The write lock is taken first and the version read again under it, so two
 * processes opening an old index at once migrate it exactly once.
 */
function migrate(db: Db, dbPath: string, seen: number): boolean {
  if (seen > SCHEMA_VERSION) return false;
  for (let v = seen; v < SCHEMA_VERSION; v++) if (!MIGRATIONS[v]) return false;
  // SQLite's way to remake a table others refer to: foreign keys off (settable only outside a
  // transaction), so dropping the old one deletes nothing, and renames that leave other tables'
  // references as written. Before the commit, every reference must name a table that exists.
  db.function('path_key', { deterministic: true }, pathKey);
  db.pragma('foreign_keys = OFF');
  db.pragma('legacy_alter_table = ON');
  try {
    writeTransaction(db, () => {
      const from = readVersion(db, dbPath)!;
      for (let v = from; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]!);
      const dangling = danglingReference(db);
      if (dangling) throw corrupt(dbPath, `could not be migrated to schema ${SCHEMA_VERSION} (${dangling})`);
      db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(SCHEMA_VERSION));
    });
  } finally {
    db.pragma('legacy_alter_table = OFF');
    db.pragma('foreign_keys = ON');
  }
  return true;
}

/** A foreign key whose table does not exist, as "child → parent"; a check of the schema, not of every row. */
function danglingReference(db: Db): string | undefined {
  const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
  for (const table of tables) {
    for (const { table: parent } of db.pragma(`foreign_key_list("${table.replace(/"/g, '""')}")`) as { table: string }[]) {
      if (!tables.has(parent)) return `${table} → ${parent}`;
    }
  }
  return undefined;
}

/**
 * After a migration: a file created before schema 8 has no auto_vacuum, which only a VACUUM can
 * turn on. Cheap then, as the migration to 8 emptied the code tables; skipped (the file works the
 * same, it only keeps freed pages for later writes) while another connection holds the lock.
 */
function enableFreePageRelease(db: Db): void {
  if (db.pragma('auto_vacuum', { simple: true }) !== 0) return;
  try {
    db.pragma('auto_vacuum = INCREMENTAL');
    db.exec('VACUUM');
  } catch (err) {
    if (!isBusy(err)) throw err;
  }
}

/**
 * Rewrites the database packed (VACUUM), then empties the WAL the rewrite went through. VACUUM
 * copies the whole database into a temporary one, which temp_store = MEMORY would hold in memory,
 * beyond any memory ceiling on a large index: it goes to a file meanwhile. Changing temp_store drops
 * the connection's temporary tables (store/vocab.ts makes its own again). Outside any transaction.
 */
export function vacuum(db: Db): void {
  db.pragma('temp_store = FILE');
  try {
    db.exec('VACUUM');
  } finally {
    db.pragma('temp_store = MEMORY');
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
}

/** Deletes a database and its WAL side files. */
export function removeDbFiles(dbPath: string): void {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(dbPath + suffix, { force: true });
}

/**
 * `mkdir -p`, failing with the real reason: a recursive mkdir reports a
 * read-only file system as ENOENT, so the first missing level is made by hand.
 */
function makeDir(dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    let missing = dir;
    while (!fs.existsSync(path.dirname(missing))) missing = path.dirname(missing);
    fs.mkdirSync(missing);
    throw err;
  }
}

export interface OpenedDb {
  db: Db;
  /** True when the database was created or rebuilt and holds no files yet. */
  fresh: boolean;
}

export function openDb(dbPath: string): OpenedDb {
  try {
    makeDir(path.dirname(dbPath));
  } catch (err) {
    throw ioError(dbPath, err);
  }
  // SQLite cannot open a directory (or a socket …) and says "cannot open", which reads as a permissions problem.
  const kind = fs.statSync(dbPath, { throwIfNoEntry: false });
  if (kind && !kind.isFile()) throw corrupt(dbPath, 'is not a file');
  for (let attempt = 0; ; attempt++) {
    let db: Db;
    try {
      db = openSqlite(dbPath);
    } catch (err) {
      throw ioError(dbPath, err);
    }
    try {
      configure(db, attempt > 0 || !kind || kind.size === 0);
      let version = readVersion(db, dbPath);
      if (version === null) {
        // Under the write lock, and only if no other process created it meanwhile.
        version = writeTransaction(db, () => readVersion(db, dbPath) ?? (createSchema(db), null));
        if (version === null) return { db, fresh: true };
      }
      if (version === SCHEMA_VERSION) return { db, fresh: false };
      if (migrate(db, dbPath, version)) {
        enableFreePageRelease(db);
        return { db, fresh: false };
      }
      // Built by an incompatible version: rebuild rather than misread.
      db.close();
      if (attempt > 0) throw corrupt(dbPath, 'could not be rebuilt');
      removeDbFiles(dbPath);
    } catch (err) {
      if (db.open) db.close();
      if (err instanceof SightlineError) throw err;
      if (isCorruption(err)) throw corrupt(dbPath, 'is not a readable database');
      throw ioError(dbPath, err);
    }
  }
}

/**
 * A read-only connection to an index another connection keeps (a read-pool
 * worker's): never created, migrated or rebuilt here; an index of another
 * schema version is refused as damaged, so its reader never misreads it.
 */
export function openDbReadOnly(dbPath: string): Db {
  const kind = fs.statSync(dbPath, { throwIfNoEntry: false });
  if (kind && !kind.isFile()) throw corrupt(dbPath, 'is not a file');
  let db: Db;
  try {
    db = openSqlite(dbPath, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw ioError(dbPath, err);
  }
  try {
    db.exec('PRAGMA cache_size = -16000; PRAGMA temp_store = MEMORY');
    if (readVersion(db, dbPath) !== SCHEMA_VERSION) throw corrupt(dbPath, `is not of schema version ${SCHEMA_VERSION}`);
    return db;
  } catch (err) {
    db.close();
    if (err instanceof SightlineError) throw err;
    if (isCorruption(err)) throw corrupt(dbPath, 'is not a readable database');
    throw ioError(dbPath, err);
  }
}
