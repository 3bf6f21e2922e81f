/**
 * The schema and its forward migrations. `SCHEMA_VERSION` is the version a fresh
 * database is created at; `MIGRATIONS[n]` upgrades a database from version n to
 * n + 1. A database older than the oldest migration, or newer than this build,
 * is rebuilt rather than misread.
 *
 * Versions: 1 first release; 2 symbols.name_key and the skipped files' stat
 * (no migration: name_key is computed in code, so version 1 is rebuilt);
 * 3 vectors; 4 the code graph; 5 budget sessions; 6 git history; 7 the index
 * job and its lock. test/live/fixtures/schemas.sql holds each old schema verbatim.
 */
import { SESSION_TABLES } from './sessions.js';

export const APP_ID = 'sightline';
export const SCHEMA_VERSION = 7;

/**
 * Embedding vectors (store/vectors.ts), of the space named by meta
 * 'embedder_identity'. A chunk without a row is pending. Added in version 3.
 */
const VECTOR_TABLES = `
CREATE TABLE vectors (
  chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
  vec      BLOB NOT NULL -- float32 little-endian, as wide as the space
) STRICT;
`;

/**
 * History of a git work tree (store/history.ts). Added in version 6; a
 * migrated index fills it on its next pass, which finds no history_head.
 */
const HISTORY_TABLES = `
-- Commits reachable from HEAD, never past it.
CREATE TABLE commits (
  id         INTEGER PRIMARY KEY,
  hash       TEXT NOT NULL UNIQUE,
  time       INTEGER NOT NULL,
  file_count INTEGER NOT NULL -- files it touched under the root; paths are not kept for sweeping commits
) STRICT;
CREATE TABLE commit_files (
  commit_id INTEGER NOT NULL REFERENCES commits(id) ON DELETE CASCADE,
  path      TEXT NOT NULL,
  PRIMARY KEY (commit_id, path)
) STRICT, WITHOUT ROWID;
-- Commit messages as code-aware terms; rowid = commits.id. It keeps its (small) content so that
-- deleting a commit also corrects the BM25 statistics, which a contentless table would not.
CREATE VIRTUAL TABLE commits_fts USING fts5(
  message,
  tokenize = 'unicode61 remove_diacritics 0'
);
`;

/** The code graph (store/edges.ts). Added in version 4. */
const EDGE_TABLES = `
-- References extracted from a file version, replaced with it.
-- kind: call | import | type | inherit | namespace; status: pending until resolved.
CREATE TABLE edges (
  id          INTEGER PRIMARY KEY,
  file_id     INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  from_symbol INTEGER REFERENCES symbols(id) ON DELETE CASCADE, -- enclosing definition; NULL at top level
  kind        TEXT NOT NULL,
  name        TEXT NOT NULL,
  qualifier   TEXT,
  module      TEXT,
  alias       TEXT,
  line        INTEGER NOT NULL,
  status      TEXT NOT NULL DEFAULT 'pending',
  candidates  INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX edges_by_file ON edges(file_id, line);
CREATE INDEX edges_by_name ON edges(name);
CREATE INDEX edges_by_status ON edges(status, kind);
CREATE INDEX edges_by_from ON edges(from_symbol);
-- What a reference resolved to: one row per candidate, with the resolver's confidence (exact | import | name).
CREATE TABLE edge_targets (
  edge_id    INTEGER NOT NULL REFERENCES edges(id) ON DELETE CASCADE,
  file_id    INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  symbol_id  INTEGER REFERENCES symbols(id) ON DELETE CASCADE,
  confidence TEXT NOT NULL
) STRICT;
CREATE INDEX edge_targets_by_edge ON edge_targets(edge_id);
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

export const CREATE_SCHEMA = `
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE files (
  id            INTEGER PRIMARY KEY,
  path          TEXT NOT NULL UNIQUE,
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

CREATE TABLE chunks (
  id          INTEGER PRIMARY KEY,
  file_id     INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  ord         INTEGER NOT NULL,
  start_line  INTEGER NOT NULL,
  end_line    INTEGER NOT NULL,
  breadcrumb  TEXT NOT NULL,
  symbol      TEXT,
  text        TEXT NOT NULL,
  tokens      INTEGER NOT NULL
) STRICT;
CREATE INDEX chunks_by_file ON chunks(file_id, ord);

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

-- Lexical index over code-aware terms (see search/terms.ts); rowid = chunks.id.
CREATE VIRTUAL TABLE chunks_fts USING fts5(
  path, symbols, body,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 0'
);

${HISTORY_TABLES}${VECTOR_TABLES}
${EDGE_TABLES}-- Budget sessions (store/sessions.ts): the gate's refusals and delivered receipts. Added in version 5.
${SESSION_TABLES}${JOB_TABLES}`;

export const MIGRATIONS: Record<number, string> = {
  2: VECTOR_TABLES,
  // Edges come from parsing: make the next pass parse every file again (its stat and digest no longer match).
  3: `${EDGE_TABLES}UPDATE files SET digest = '', indexed_at_ms = 0;`,
  4: SESSION_TABLES,
  5: HISTORY_TABLES,
  6: JOB_TABLES,
};
