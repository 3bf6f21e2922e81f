/**
 * The memory component of the team database: the SQLite backend's tables
 * (memory/sqlite.ts) with a `repo` column, since one database serves every
 * repository of a team. Keys compare bytewise (COLLATE "C"), as in SQLite, so
 * scans page in the same order whatever the database's locale. Fencing tokens
 * come from one sequence: strictly increasing across servers, no hot row.
 */
import type { SchemaComponent } from './migrate.js';

const V1 = `
CREATE TABLE memory_records (
  repo          TEXT NOT NULL,
  key           TEXT COLLATE "C" NOT NULL,
  topic         TEXT COLLATE "C" NOT NULL,
  expires_at_ms DOUBLE PRECISION,
  value         TEXT NOT NULL,
  words         TEXT NOT NULL,
  PRIMARY KEY (repo, key)
);
CREATE INDEX memory_records_by_topic ON memory_records(repo, topic, key);
CREATE TABLE memory_claims (
  repo                TEXT NOT NULL,
  key                 TEXT COLLATE "C" NOT NULL,
  high_water          BIGINT NOT NULL,
  live                BOOLEAN NOT NULL,
  released_token      BIGINT NOT NULL,
  owner               TEXT,
  lock_token          BIGINT NOT NULL,
  lease_expires_at_ms DOUBLE PRECISION NOT NULL,
  lease_seconds       INTEGER NOT NULL,
  PRIMARY KEY (repo, key)
);
CREATE TABLE memory_waiters (
  seq            BIGSERIAL PRIMARY KEY,
  id             TEXT NOT NULL UNIQUE,
  repo           TEXT NOT NULL,
  key            TEXT COLLATE "C" NOT NULL,
  owner          TEXT NOT NULL,
  enqueued_at_ms DOUBLE PRECISION NOT NULL,
  seen_at_ms     DOUBLE PRECISION NOT NULL
);
CREATE INDEX memory_waiters_by_key ON memory_waiters(repo, key, seq);
CREATE TABLE memory_ticks (
  repo  TEXT PRIMARY KEY,
  value BIGINT NOT NULL
);
CREATE SEQUENCE memory_fencing_tokens;
`;

export const MEMORY_COMPONENT: SchemaComponent = { name: 'memory', migrations: [V1] };
