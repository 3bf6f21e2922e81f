/**
 * The schema and its forward migrations. `SCHEMA_VERSION` is the version a fresh
 * database is created at; `MIGRATIONS[n]` upgrades a database from version n to
 * n + 1. A database older than the oldest migration, or newer than this build,
 * is rebuilt rather than misread.
 *
 * Versions: 1 first release; 2 symbols.name_key and the skipped files' stat
 * (no migration: name_key is computed in code, so version 1 is rebuilt);
 * 3 vectors; 4 the code graph; 5 budget sessions; 6 git history; 7 the index
 * job and its lock; 8 a smaller index (chunk text packed once per file, half-float vectors, the
 * graph's strings stored once and its codes as integers), which an index of version 7 reaches by
 * indexing every file again; 9 a smaller history (raw commit names, contentless message terms),
 * read from git again by the next pass; 10 a smaller lexical index (the body first among the FTS
 * columns, breadcrumbs without their file's path), whose terms the next pass writes again; 11 each
 * file's names filter (case kept), which the next pass fills from the stored text; 12 files found by
 * a key of their path (files_by_path_key) instead of a unique index on it.
 * test/live/fixtures/schemas.sql holds each old schema verbatim.
 */
import { fnv1a } from '../fnv.js';
import { SESSION_TABLES } from './sessions.js';

export const APP_ID = 'sightline';
export const SCHEMA_VERSION = 13;
/** Meta key set while file_texts rows lack their names filter (after the migration to version 11). */
export const NAMES_PENDING = 'names_filters_pending';
/** Meta key: the Unicode version whose letters and digits the names filters were built by (store/name-filter.ts). */
export const NAMES_UNICODE = 'names_filters_unicode';

/**
 * Embedding vectors (store/vectors.ts), of the space named by meta
 * 'embedder_identity' (and 'embedder_stamp', the model file it was last
 * checked against). A chunk without a row is pending. Added in version 3.
 */
const VECTOR_TABLES = `
CREATE TABLE vectors (
  chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
  vec      BLOB NOT NULL -- IEEE half floats, little-endian, as wide as the space (store/float16.ts)
) STRICT;
`;

/**
 * History of a git work tree (store/history.ts). Added in version 6; a
 * migrated index fills it on its next pass, which finds no history_head.
 * Since version 9 a commit's name is its raw bytes and the message terms are
 * not kept (contentless FTS): a third of a small repository's index was
 * history, most of it those two.
 */
const HISTORY_TABLES = `
-- Commits reachable from HEAD, never past it. hash is unique without an index: a pass adds only commits it has not stored.
CREATE TABLE commits (
  id         INTEGER PRIMARY KEY,
  hash       BLOB NOT NULL, -- the object name's bytes (20 for SHA-1)
  time       INTEGER NOT NULL,
  file_count INTEGER NOT NULL -- files it touched under the root; paths are not kept for sweeping commits
) STRICT;
CREATE TABLE commit_files (
  commit_id INTEGER NOT NULL REFERENCES commits(id) ON DELETE CASCADE,
  path      TEXT NOT NULL,
  PRIMARY KEY (commit_id, path)
) STRICT, WITHOUT ROWID;
-- Commit messages as code-aware terms; rowid = commits.id. Deleting a commit leaves BM25's row
-- count high; past a drift the pass reads the history again (index/history.ts).
CREATE VIRTUAL TABLE commits_fts USING fts5(
  message,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 0'
);
`;

/**
 * The code graph (store/edges.ts). Added in version 4; since version 8 a reference's text is a
 * shared `refs` row, and kinds, statuses and confidences are small integers (EdgeTable's tables).
 */
const EDGE_TABLES = `
-- What a reference says, stored once however many edges write it (most calls repeat a name).
-- kind: call | import | type | inherit | namespace, as 0..4.
CREATE TABLE refs (
  id        INTEGER PRIMARY KEY,
  kind      INTEGER NOT NULL,
  name      TEXT NOT NULL,
  qualifier TEXT,
  module    TEXT,
  alias     TEXT
) STRICT;
CREATE INDEX refs_by_name ON refs(name);
-- References extracted from a file version, replaced with it. status: pending | resolved | ambiguous |
-- unresolved, as 0..3; pending until resolved. from_symbol is a symbol of the same file version, which
-- goes with the file's edges, so it needs no foreign key (nor the index one would need).
CREATE TABLE edges (
  id          INTEGER PRIMARY KEY,
  file_id     INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  from_symbol INTEGER, -- enclosing definition; NULL at top level
  kind        INTEGER NOT NULL, -- refs.kind, kept here for the partial indexes below
  ref_id      INTEGER NOT NULL REFERENCES refs(id),
  line        INTEGER NOT NULL,
  status      INTEGER NOT NULL,
  candidates  INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX edges_by_file ON edges(file_id, line);
CREATE INDEX edges_by_ref ON edges(ref_id);
-- Partial indexes: each holds only the rows one question asks for.
CREATE INDEX edges_pending ON edges(file_id) WHERE status = 0;
CREATE INDEX edges_unresolved_imports ON edges(ref_id) WHERE status = 3 AND kind = 1;
CREATE INDEX edges_inherit_from ON edges(from_symbol) WHERE kind = 3;
-- What a reference resolved to: one row per candidate, in the resolver's order (seq), with its
-- confidence: exact | import | name, as 0..2.
CREATE TABLE edge_targets (
  edge_id    INTEGER NOT NULL REFERENCES edges(id) ON DELETE CASCADE,
  seq        INTEGER NOT NULL,
  file_id    INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  symbol_id  INTEGER REFERENCES symbols(id) ON DELETE CASCADE,
  confidence INTEGER NOT NULL,
  PRIMARY KEY (edge_id, seq)
) STRICT, WITHOUT ROWID;
CREATE INDEX edge_targets_by_file ON edge_targets(file_id);
CREATE INDEX edge_targets_by_symbol ON edge_targets(symbol_id);
`;

/**
 * The index job and the lock that makes it one per repository across processes
 * (store/jobs.ts). Added in version 7.
 */
const JOB_TABLES = `
-- The current or last index pass: status, phase, live counters (JSON), attempts, failure.
CREATE TABLE index_job (
  id            INTEGER PRIMARY KEY CHECK (id = 1),
  status        TEXT NOT NULL,
  phase         TEXT,
  owner         TEXT NOT NULL, -- the lock owner that wrote it: a row whose owner lost the lock was interrupted
  pid           INTEGER NOT NULL,
  host          TEXT NOT NULL,
  attempts      INTEGER NOT NULL,
  started_at_ms REAL NOT NULL,
  updated_at_ms REAL NOT NULL,
  ended_at_ms   REAL,
  done          INTEGER NOT NULL DEFAULT 0,
  total         INTEGER NOT NULL DEFAULT 0,
  counts        TEXT NOT NULL DEFAULT '{}',
  error         TEXT,
  summary       TEXT
) STRICT;

-- Who may write the index. The holder renews its lease while it works; an expired lease, or
-- one held by a process that no longer exists on this host, is taken over.
CREATE TABLE index_lock (
  id             INTEGER PRIMARY KEY CHECK (id = 1),
  owner          TEXT NOT NULL,
  pid            INTEGER NOT NULL,
  host           TEXT NOT NULL,
  acquired_at_ms REAL NOT NULL,
  expires_at_ms  REAL NOT NULL
) STRICT;
`;

/**
 * A file's chunk texts one after another, brotli-compressed: once per file, not once per chunk.
 * Since version 11 with `names`, a Bloom filter of the names they hold, case kept
 * (store/name-filter.ts): before `packed`, so reading it does not walk the packed text's
 * overflow pages. NULL in a row written before, until the next pass fills it.
 */
const FILE_TEXTS = `
CREATE TABLE file_texts (
  file_id INTEGER PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
  names   BLOB,
  packed  BLOB NOT NULL
) STRICT;
`;

/**
 * What parsing a file version yields: its chunks (text packed once per file since version 8), their
 * FTS terms (CHUNK_TERMS) and its definitions.
 */
const CODE_TABLES = `
-- A chunk's text is a span of its file's row in file_texts (store/chunk-text.ts). Since version 10
-- its breadcrumb is stored past the file's path, which every breadcrumb starts with (store/chunks.ts).
CREATE TABLE chunks (
  id          INTEGER PRIMARY KEY,
  file_id     INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  ord         INTEGER NOT NULL,
  start_line  INTEGER NOT NULL,
  end_line    INTEGER NOT NULL,
  breadcrumb  TEXT NOT NULL,
  symbol      TEXT,
  text_at     INTEGER NOT NULL, -- UTF-16 code units into the file's unpacked chunk texts
  text_length INTEGER NOT NULL,
  tokens      INTEGER NOT NULL
) STRICT;
CREATE INDEX chunks_by_file ON chunks(file_id, ord);
${FILE_TEXTS}
CREATE TABLE symbols (
  id          INTEGER PRIMARY KEY,
  file_id     INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  name_lc     TEXT NOT NULL,
  name_key    TEXT NOT NULL, -- the whole-identifier term (search/terms.ts): getUserName, get_user_name -> getusername
  qualified   TEXT NOT NULL,
  kind        TEXT NOT NULL,
  signature   TEXT NOT NULL,
  start_line  INTEGER NOT NULL,
  end_line    INTEGER NOT NULL
) STRICT;
CREATE INDEX symbols_by_name ON symbols(name_lc);
CREATE INDEX symbols_by_key ON symbols(name_key);
CREATE INDEX symbols_by_file ON symbols(file_id, start_line);
`;

/**
 * Lexical index over code-aware terms (see search/terms.ts); rowid = chunks.id. Since version 10 the
 * body is the first column: FTS5 writes a column's number into each posting of any column but the
 * first, and most postings are the body's (flask: 121k of 124k), so this saves 2 bytes on nearly each.
 */
const CHUNK_TERMS = `
CREATE VIRTUAL TABLE chunks_fts USING fts5(
  body, path, symbols,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 0'
);
`;

/**
 * Indexed files. A path is found through files_by_path_key, an index of 4-byte keys: a unique
 * index on the path held a second copy of every path (on babel's 27,600 files 2.9 MB, 5 % of the
 * index). Version 12 dropped it.
 */
const FILES = `
CREATE TABLE files (
  id            INTEGER PRIMARY KEY,
  path          TEXT NOT NULL, -- one row a path: the index writes a path's row only after removing the old one
  path_key      INTEGER NOT NULL, -- pathKey(path), since version 12
  language      TEXT,
  kind          TEXT NOT NULL,
  size          INTEGER NOT NULL,
  mtime_ms      REAL NOT NULL,
  digest        TEXT NOT NULL,
  indexed_at_ms REAL NOT NULL,
  line_count    INTEGER NOT NULL,
  tokens        INTEGER NOT NULL, -- sum of its chunks' exact counts: an estimate of reading it whole
  invalid_utf8  INTEGER NOT NULL DEFAULT 0
) STRICT;
`;

/**
 * What changed, by generation (store/change-log.ts): each write transaction that adds or rewrites a
 * file row or a vector stamps it with the next generation, and logs what it deleted, so a reader
 * moves what it keeps of both tables (the file list, the vector matrix) by the change instead of
 * reading them whole again. Added in version 13, as columns added to the tables of earlier versions.
 * kind: file | vector, as 0..1; id: a files.id, or a vectors.chunk_id.
 */
const CHANGE_TRACKING = `
ALTER TABLE files ADD COLUMN gen INTEGER NOT NULL DEFAULT 0;
CREATE INDEX files_by_gen ON files(gen);
ALTER TABLE vectors ADD COLUMN gen INTEGER NOT NULL DEFAULT 0;
CREATE INDEX vectors_by_gen ON vectors(gen);
CREATE TABLE gone (
  gen  INTEGER NOT NULL,
  kind INTEGER NOT NULL,
  id   INTEGER NOT NULL,
  PRIMARY KEY (gen, kind, id)
) STRICT, WITHOUT ROWID;
`;

export const CREATE_SCHEMA = `
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

${FILES}
CREATE INDEX files_by_path_key ON files(path_key);

-- Files the walk saw but did not index, with the reason (for stats and doctor) and the
-- stat they had when checked, so an unchanged binary is not read again on every pass.
CREATE TABLE skipped (
  path          TEXT PRIMARY KEY,
  reason        TEXT NOT NULL,
  detail        TEXT,
  size          INTEGER NOT NULL,
  mtime_ms      REAL NOT NULL,
  checked_at_ms REAL NOT NULL
) STRICT;

${CODE_TABLES}${CHUNK_TERMS}${HISTORY_TABLES}${VECTOR_TABLES}
${EDGE_TABLES}-- Budget sessions (store/sessions.ts): the gate's refusals and delivered receipts. Added in version 5.
${SESSION_TABLES}${JOB_TABLES}${CHANGE_TRACKING}`;

export const MIGRATIONS: Record<number, string> = {
  2: VECTOR_TABLES,
  // Edges come from parsing: make the next pass parse every file again (its stat and digest no longer match).
  3: `${EDGE_TABLES}UPDATE files SET digest = '', indexed_at_ms = 0;`,
  4: SESSION_TABLES,
  5: HISTORY_TABLES,
  6: JOB_TABLES,
  // Chunk text packed per file, half-float vectors, the graph's strings shared: everything parsing
  // made is dropped and made anew by the next pass, which finds no files and indexes them all.
  // History, memory, budget sessions and the job record stay.
  7: `DROP TABLE vectors; DROP TABLE edge_targets; DROP TABLE edges; DROP TABLE IF EXISTS refs;
      DROP TABLE chunks_fts; DROP TABLE chunks; DROP TABLE symbols; DELETE FROM files;
      DELETE FROM meta WHERE key IN ('last_indexed_at', 'index_digest', 'vectors_version');
      ${CODE_TABLES}${CHUNK_TERMS}${VECTOR_TABLES}${EDGE_TABLES}`,
  // History kept smaller: dropped, and read from git by the next pass (it finds no history_head).
  8: `DROP TABLE commits_fts; DROP TABLE commit_files; DROP TABLE commits;
      DELETE FROM meta WHERE key = 'history_head';
      ${HISTORY_TABLES}`,
  // The terms table made anew with the body first, empty: the next pass finds rows missing and writes every
  // chunk's terms again (index/term-stats.ts). Until then the index counts as not built, so a query indexes first.
  9: `DROP TABLE chunks_fts; ${CHUNK_TERMS}
      UPDATE chunks SET breadcrumb = substr(breadcrumb, 1 + length((SELECT path FROM files WHERE id = chunks.file_id)));
      DELETE FROM meta WHERE key = 'last_indexed_at';`,
  // The table made anew with the names column first, where a fresh one has it, its texts kept. The next pass
  // fills the filters (Store.fillNameFilters); until then a name's files are unpacked.
  10: `ALTER TABLE file_texts RENAME TO file_texts_10; ${FILE_TEXTS}
       INSERT INTO file_texts(file_id, packed) SELECT file_id, packed FROM file_texts_10;
       DROP TABLE file_texts_10;
       INSERT OR REPLACE INTO meta(key, value) VALUES ('${NAMES_PENDING}', '1');`,
  // The table made anew without the unique index on its paths, rows and ids kept. Runs with foreign keys
  // off (db.ts migrate): with them on, dropping the old table would delete what refers to its rows.
  11: `ALTER TABLE files RENAME TO files_11; ${FILES}
       INSERT INTO files(id, path, path_key, language, kind, size, mtime_ms, digest, indexed_at_ms, line_count, tokens, invalid_utf8)
         SELECT id, path, path_key(path), language, kind, size, mtime_ms, digest, indexed_at_ms, line_count, tokens, invalid_utf8 FROM files_11;
       DROP TABLE files_11;
       CREATE INDEX files_by_path_key ON files(path_key);`,
  // Rows written before carry generation 0; a reader's first list or matrix reads them whole. The
  // vectors' version token, which the generations replace, goes, and so do vectors whose chunk is
  // gone (migrations run with foreign keys off): the embedding pass counts pending chunks as chunks
  // less vectors, and looks for an edit's few from the top down until it has found that many.
  12: `${CHANGE_TRACKING}DELETE FROM meta WHERE key = 'vectors_version';
       DELETE FROM vectors WHERE chunk_id NOT IN (SELECT id FROM chunks);`,
};

/**
 * The key files_by_path_key finds a path by: FNV-1a of its code units, as a signed 32-bit integer
 * (SQLite stores it in 4 bytes). Paths that share a key are told apart by the path itself.
 */
export function pathKey(path: string): number {
  return fnv1a(path) | 0;
}
