/**
 * The SQLite backend: memory in the repository's index file, in tables of its
 * own (`memory_*`, a prefix store/reset.ts keeps) with their own schema version and migrations, so a reset
 * of the code index keeps them. Each decision runs in a BEGIN IMMEDIATE
 * transaction (store/sqlite.ts writeTransaction): the write lock is taken
 * before the state is read, so processes sharing one index decide one after
 * another and never on a stale read.
 */
import { writeTransaction, type Db } from '../store/sqlite.js';
import { nextTick } from './hlc.js';
import { containsPattern, decodeClaim as claimOf, decodeRecord as decode, recordWords as words, type ClaimDbRow, type RecordRow } from './codec.js';
import type { Clock, Decision, MemoryStore, PageQuery, RecordState, StoredRecord, Waiter } from './types.js';

/** Bumped with each entry in MEMORY_MIGRATIONS; kept in meta as memory_schema_version. */
export const MEMORY_SCHEMA_VERSION = 1;
export const MEMORY_VERSION_KEY = 'memory_schema_version';

const TABLES_V1 = `
CREATE TABLE IF NOT EXISTS memory_records (
  key           TEXT PRIMARY KEY,
  topic         TEXT NOT NULL,
  expires_at_ms REAL,          -- NULL: durable; readable even when value is not
  value         TEXT NOT NULL, -- the record as JSON (memory/types.ts StoredRecord)
  words         TEXT NOT NULL  -- lower-cased topic, tags and fields, for search
) STRICT;
CREATE INDEX IF NOT EXISTS memory_records_by_topic ON memory_records(topic, key);
CREATE TABLE IF NOT EXISTS memory_claims (
  key                 TEXT PRIMARY KEY,
  high_water          INTEGER NOT NULL,
  live                INTEGER NOT NULL,
  released_token      INTEGER NOT NULL,
  owner               TEXT,
  lock_token          INTEGER NOT NULL,
  lease_expires_at_ms REAL NOT NULL,
  lease_seconds       INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS memory_waiters (
  seq            INTEGER PRIMARY KEY, -- arrival order: first in, first out
  id             TEXT NOT NULL UNIQUE,
  key            TEXT NOT NULL,
  owner          TEXT NOT NULL,
  enqueued_at_ms REAL NOT NULL,
  seen_at_ms     REAL NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS memory_waiters_by_key ON memory_waiters(key, seq);
-- The last hybrid-logical tick and the last fencing token handed out.
CREATE TABLE IF NOT EXISTS memory_counters (
  name  TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) STRICT;
`;

/** MEMORY_MIGRATIONS[n] upgrades memory tables from version n to n + 1 (0: none yet). */
const MEMORY_MIGRATIONS: Record<number, string> = { 0: TABLES_V1 };

/** Creates or upgrades the memory tables, once, under the write lock. */
function migrate(db: Db): void {
  const version = () => Number(db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(MEMORY_VERSION_KEY) ?? 0);
  if (version() === MEMORY_SCHEMA_VERSION) return;
  writeTransaction(db, () => {
    for (let v = version(); v < MEMORY_SCHEMA_VERSION; v++) db.exec(MEMORY_MIGRATIONS[v]!);
    db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)').run(MEMORY_VERSION_KEY, String(MEMORY_SCHEMA_VERSION));
  });
}

const LIVE = '(expires_at_ms IS NULL OR expires_at_ms > @now)';

export class SqliteMemoryStore implements MemoryStore {
  private readonly q;

  constructor(private readonly db: Db) {
    migrate(db);
    const p = (sql: string) => db.prepare(sql);
    this.q = {
      record: p('SELECT key, expires_at_ms, value FROM memory_records WHERE key = ?'),
      // Any of the patterns: one statement for any number of words (a LIKE per word was prepared anew per question).
      matching: p(`SELECT key, expires_at_ms, value FROM memory_records
        WHERE ${LIVE} AND EXISTS (SELECT 1 FROM json_each(@patterns) WHERE words LIKE value ESCAPE '\\') ORDER BY key LIMIT @limit`),
      claim: p('SELECT * FROM memory_claims WHERE key = ?'),
      waiters: p('SELECT id, owner, enqueued_at_ms AS enqueuedAtMs, seen_at_ms AS seenAtMs FROM memory_waiters WHERE key = ? ORDER BY seq'),
      put: p('INSERT OR REPLACE INTO memory_records(key, topic, expires_at_ms, value, words) VALUES (?, ?, ?, ?, ?)'),
      expire: p('UPDATE memory_records SET expires_at_ms = ? WHERE key = ?'),
      remove: p('DELETE FROM memory_records WHERE key = ?'),
      removeClaim: p('DELETE FROM memory_claims WHERE key = ?'),
      removeWaiters: p('DELETE FROM memory_waiters WHERE key = ?'),
      putClaim: p(`INSERT OR REPLACE INTO memory_claims(key, high_water, live, released_token, owner, lock_token, lease_expires_at_ms, lease_seconds)
        VALUES (@key, @highWater, @live, @releasedToken, @owner, @lockToken, @leaseExpiresAtMs, @leaseSeconds)`),
      enqueue: p('INSERT OR IGNORE INTO memory_waiters(id, key, owner, enqueued_at_ms, seen_at_ms) VALUES (?, ?, ?, ?, ?)'),
      dequeue: p('DELETE FROM memory_waiters WHERE id = ?'),
      touch: p('UPDATE memory_waiters SET seen_at_ms = ? WHERE id = ?'),
      counter: p('SELECT value FROM memory_counters WHERE name = ?').pluck(),
      setCounter: p('INSERT OR REPLACE INTO memory_counters(name, value) VALUES (?, ?)'),
      page: p(`SELECT key, expires_at_ms, value FROM memory_records WHERE key > @after AND ${LIVE} ORDER BY key LIMIT @limit`),
      pageTopic: p(`SELECT key, expires_at_ms, value FROM memory_records WHERE topic = @topic AND key > @after AND ${LIVE} ORDER BY key LIMIT @limit`),
      topics: p(`SELECT topic, count(*) AS count FROM memory_records WHERE ${LIVE} GROUP BY topic ORDER BY topic`),
    };
  }

  private state(key: string): RecordState {
    const row = this.q.record.get(key) as RecordRow | undefined;
    const record = row ? decode(row) : undefined;
    return {
      record,
      undecodable: row !== undefined && record === undefined,
      expiresAtMs: row?.expires_at_ms ?? null,
      claim: claimOf(this.q.claim.get(key) as ClaimDbRow | undefined),
      waiters: this.q.waiters.all(key) as Waiter[],
    };
  }

  private counter(name: 'tick' | 'token', next: (last: number) => number): number {
    const value = next(Number(this.q.counter.get(name) ?? 0));
    this.q.setCounter.run(name, value);
    return value;
  }

  decide<T>(key: string, decide: (state: RecordState, clock: Clock) => Decision<T>): Promise<T> {
    try {
      return Promise.resolve(
        writeTransaction(this.db, () => {
          const nowMs = Date.now();
          const clock: Clock = {
            nowMs,
            tick: () => this.counter('tick', (last) => nextTick(last, nowMs)),
            token: () => this.counter('token', (last) => last + 1),
          };
          const d = decide(this.state(key), clock);
          this.apply(key, d, nowMs);
          return d.result;
        }),
      );
    } catch (err) {
      return Promise.reject(err);
    }
  }

  private apply(key: string, d: Decision<unknown>, nowMs: number): void {
    if (d.remove) {
      this.q.remove.run(key);
      this.q.removeClaim.run(key);
      this.q.removeWaiters.run(key);
    }
    if (d.put) this.q.put.run(key, d.put.topic, d.put.expiresAtMs, JSON.stringify(d.put), words(d.put));
    if (d.expiresAtMs !== undefined) this.q.expire.run(d.expiresAtMs, key);
    if (d.claim) this.q.putClaim.run({ ...d.claim, live: d.claim.live ? 1 : 0 });
    for (const id of d.dequeue ?? []) this.q.dequeue.run(id);
    if (d.enqueue) this.q.enqueue.run(d.enqueue.id, key, d.enqueue.owner, d.enqueue.enqueuedAtMs, d.enqueue.seenAtMs);
    for (const id of d.touch ?? []) this.q.touch.run(nowMs, id);
  }

  async read(key: string): Promise<RecordState> {
    return this.state(key);
  }

  async readMany(keys: string[], nowMs: number): Promise<Map<string, StoredRecord>> {
    const out = new Map<string, StoredRecord>();
    for (const key of keys) {
      const row = this.q.record.get(key) as RecordRow | undefined;
      const record = row && (row.expires_at_ms === null || row.expires_at_ms > nowMs) ? decode(row) : undefined;
      if (record) out.set(key, record);
    }
    return out;
  }

  async page(query: PageQuery): Promise<StoredRecord[]> {
    const args = { after: query.after ?? '', limit: query.limit, now: query.nowMs, topic: query.topic };
    const rows = (query.topic === undefined ? this.q.page.all(args) : this.q.pageTopic.all(args)) as RecordRow[];
    return rows.map(decode).filter((r): r is StoredRecord => r !== undefined);
  }

  async topics(nowMs: number): Promise<{ topic: string; count: number }[]> {
    return this.q.topics.all({ now: nowMs }) as { topic: string; count: number }[];
  }

  async match(terms: string[], limit: number, nowMs: number): Promise<StoredRecord[]> {
    if (!terms.length) return [];
    const rows = this.q.matching.all({ now: nowMs, limit, patterns: JSON.stringify(terms.map(containsPattern)) }) as RecordRow[];
    return rows.map(decode).filter((r): r is StoredRecord => r !== undefined);
  }
}
