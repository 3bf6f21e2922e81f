/**
 * The PostgreSQL backend of agent memory (memory/types.ts `MemoryStore`),
 * shared by every server pointed at one database. A decision runs in one
 * transaction that first takes the record's advisory lock (so it holds for a
 * key with no row yet), then reads the state, decides, and applies: servers
 * decide one after another per record, and the fence check commits with the
 * write it admits. Time is the database's clock, so a lease lapses by the
 * database's time whichever server granted it, and a dead server's lease
 * lapses on its own. Ticks and tokens are fetched inside the transaction
 * after the lock, so each is above those of every earlier decision on the
 * record; the decision is pure, so it is run once to learn how many it needs.
 */
import type pg from 'pg';
import { SightlineError } from '../errors/index.js';
import type { ClaimDbRow, Clock, Decision, MemoryStore, PageQuery, RecordRow, RecordState, StoredRecord, Waiter } from '../memory/index.js';
import { containsPattern, decodeClaim as claimOf, decodeRecord as decode, recordWords } from '../memory/index.js';
import { digest } from '../walk/index.js';
import { MEMORY_COMPONENT } from './memory-schema.js';
import { componentQuery, LOCK_CLASS, migrateOnce } from './migrate.js';
import { describeDbError, inTransaction, NOW_MS, teamPool } from './pool.js';

interface WaiterDbRow {
  id: string;
  owner: string;
  enqueued_at_ms: number;
  seen_at_ms: number;
}

/** One round trip: the database's time, the record, its claim and its waiters in arrival order. */
const STATE = `SELECT ${NOW_MS} AS now_ms,
  (SELECT row_to_json(r) FROM (SELECT key, expires_at_ms, value FROM memory_records WHERE repo = $1 AND key = $2) r) AS record,
  (SELECT row_to_json(c) FROM memory_claims c WHERE repo = $1 AND key = $2) AS claim,
  (SELECT coalesce(json_agg(w ORDER BY w.seq), '[]'::json) FROM
     (SELECT seq, id, owner, enqueued_at_ms, seen_at_ms FROM memory_waiters WHERE repo = $1 AND key = $2) w) AS waiters`;

const LIVE = '(expires_at_ms IS NULL OR expires_at_ms > $2)';

/** The second key of a record's advisory lock: 32 bits of a digest of repository and key. */
function lockKey(repo: string, key: string): number {
  return Number.parseInt(digest(Buffer.from(`${repo}\u0000${key}`)).slice(0, 8), 16) | 0;
}

/** A clock that hands out values fetched beforehand; asking for more means the decision was not pure. */
function prefetched(nowMs: number, ticks: number[], tokens: number[]): Clock {
  const next = (list: number[], what: string) => {
    const v = list.shift();
    if (v === undefined) throw new SightlineError('internal', `a memory decision asked for more ${what} than on its first run`);
    return v;
  };
  return { nowMs, tick: () => next(ticks, 'ticks'), token: () => next(tokens, 'tokens') };
}

export class PostgresMemoryStore implements MemoryStore {
  constructor(
    private readonly url: string,
    /** The repository's name in the team database: every row is under it. */
    private readonly repo: string,
  ) {}

  private ready(): Promise<void> {
    return migrateOnce(this.url, MEMORY_COMPONENT);
  }

  private query<R extends pg.QueryResultRow>(sql: string, args: unknown[]): Promise<R[]> {
    return componentQuery<R>(this.url, MEMORY_COMPONENT, sql, args);
  }

  private async state(c: pg.ClientBase | pg.Pool, key: string): Promise<{ state: RecordState; nowMs: number }> {
    const row = (await c.query<{ now_ms: number; record: RecordRow | null; claim: ClaimDbRow | null; waiters: (WaiterDbRow & { seq: number })[] }>(STATE, [this.repo, key])).rows[0]!;
    const record = row.record ? decode(row.record) : undefined;
    const waiters: Waiter[] = row.waiters.map((w) => ({ id: w.id, owner: w.owner, enqueuedAtMs: w.enqueued_at_ms, seenAtMs: w.seen_at_ms }));
    return {
      nowMs: row.now_ms,
      state: { record, undecodable: row.record !== null && record === undefined, expiresAtMs: row.record?.expires_at_ms ?? null, claim: claimOf(row.claim), waiters },
    };
  }

  async decide<T>(key: string, decide: (state: RecordState, clock: Clock) => Decision<T>): Promise<T> {
    await this.ready();
    return inTransaction(
      this.url,
      async (c) => {
        const { state, nowMs } = await this.state(c, key);
        const wanted = { ticks: 0, tokens: 0 };
        decide(structuredClone(state), { nowMs, tick: () => (wanted.ticks++, nowMs * 1000), token: () => ++wanted.tokens });
        const ticks = wanted.ticks ? await this.ticks(c, wanted.ticks, nowMs) : [];
        const tokens = wanted.tokens
          ? (await c.query<{ t: string }>('SELECT nextval(\'memory_fencing_tokens\') AS t FROM generate_series(1, $1)', [wanted.tokens])).rows.map((r) => Number(r.t))
          : [];
        const d = decide(state, prefetched(nowMs, ticks, tokens));
        await this.apply(c, key, d, nowMs);
        return d.result;
      },
      `BEGIN; SELECT pg_advisory_xact_lock(${LOCK_CLASS.memory}, ${lockKey(this.repo, key)})`,
    );
  }

  /** `n` fresh hybrid-logical ticks, each above the wall clock and every tick handed out in this repository. */
  private async ticks(c: pg.ClientBase, n: number, nowMs: number): Promise<number[]> {
    const row = await c.query<{ value: string }>(
      `INSERT INTO memory_ticks(repo, value) VALUES ($1, $2::bigint + $3::bigint - 1)
       ON CONFLICT (repo) DO UPDATE SET value = GREATEST(memory_ticks.value + $3::bigint, EXCLUDED.value) RETURNING value`,
      [this.repo, Math.floor(nowMs) * 1000, n],
    );
    const last = Number(row.rows[0]!.value);
    return Array.from({ length: n }, (_, i) => last - n + 1 + i);
  }

  private async apply(c: pg.ClientBase, key: string, d: Decision<unknown>, nowMs: number): Promise<void> {
    const repo = this.repo;
    if (d.remove) {
      await c.query('DELETE FROM memory_records WHERE repo = $1 AND key = $2', [repo, key]);
      await c.query('DELETE FROM memory_claims WHERE repo = $1 AND key = $2', [repo, key]);
      await c.query('DELETE FROM memory_waiters WHERE repo = $1 AND key = $2', [repo, key]);
    }
    if (d.put) {
      await c.query(
        `INSERT INTO memory_records(repo, key, topic, expires_at_ms, value, words) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (repo, key) DO UPDATE SET topic = EXCLUDED.topic, expires_at_ms = EXCLUDED.expires_at_ms, value = EXCLUDED.value, words = EXCLUDED.words`,
        [repo, key, d.put.topic, d.put.expiresAtMs, JSON.stringify(d.put), recordWords(d.put)],
      );
    }
    if (d.expiresAtMs !== undefined) await c.query('UPDATE memory_records SET expires_at_ms = $3 WHERE repo = $1 AND key = $2', [repo, key, d.expiresAtMs]);
    if (d.claim) {
      const k = d.claim;
      await c.query(
        `INSERT INTO memory_claims(repo, key, high_water, live, released_token, owner, lock_token, lease_expires_at_ms, lease_seconds)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (repo, key) DO UPDATE SET high_water = EXCLUDED.high_water, live = EXCLUDED.live, released_token = EXCLUDED.released_token,
           owner = EXCLUDED.owner, lock_token = EXCLUDED.lock_token, lease_expires_at_ms = EXCLUDED.lease_expires_at_ms, lease_seconds = EXCLUDED.lease_seconds`,
        [repo, key, k.highWater, k.live, k.releasedToken, k.owner, k.lockToken, k.leaseExpiresAtMs, k.leaseSeconds],
      );
    }
    if (d.dequeue?.length) await c.query('DELETE FROM memory_waiters WHERE id = ANY($1)', [d.dequeue]);
    if (d.enqueue) {
      const w = d.enqueue;
      // Seen by the database's clock, the one staleness is judged by.
      await c.query('INSERT INTO memory_waiters(id, repo, key, owner, enqueued_at_ms, seen_at_ms) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING', [w.id, repo, key, w.owner, w.enqueuedAtMs, nowMs]);
    }
    if (d.touch?.length) await c.query('UPDATE memory_waiters SET seen_at_ms = $2 WHERE id = ANY($1)', [d.touch, nowMs]);
  }

  async read(key: string): Promise<RecordState> {
    await this.ready();
    try {
      return (await this.state(await teamPool(this.url), key)).state;
    } catch (err) {
      throw describeDbError(this.url, err);
    }
  }

  async readMany(keys: string[], nowMs: number): Promise<Map<string, StoredRecord>> {
    const out = new Map<string, StoredRecord>();
    if (!keys.length) return out;
    const rows = await this.query<RecordRow>(`SELECT key, expires_at_ms, value FROM memory_records WHERE repo = $1 AND ${LIVE} AND key = ANY($3)`, [this.repo, nowMs, keys]);
    for (const row of rows) {
      const record = decode(row);
      if (record) out.set(row.key, record);
    }
    return out;
  }

  async page(query: PageQuery): Promise<StoredRecord[]> {
    const topic = query.topic === undefined ? '' : 'AND topic = $5';
    const args: unknown[] = [this.repo, query.nowMs, query.after ?? '', query.limit];
    if (query.topic !== undefined) args.push(query.topic);
    const rows = await this.query<RecordRow>(`SELECT key, expires_at_ms, value FROM memory_records WHERE repo = $1 AND ${LIVE} AND key > $3 ${topic} ORDER BY key LIMIT $4`, args);
    return rows.map(decode).filter((r): r is StoredRecord => r !== undefined);
  }

  async topics(nowMs: number): Promise<{ topic: string; count: number }[]> {
    const rows = await this.query<{ topic: string; count: string }>(`SELECT topic, count(*) AS count FROM memory_records WHERE repo = $1 AND ${LIVE} GROUP BY topic ORDER BY topic`, [this.repo, nowMs]);
    return rows.map((r) => ({ topic: r.topic, count: Number(r.count) }));
  }

  async match(words: string[], limit: number, nowMs: number): Promise<StoredRecord[]> {
    if (!words.length) return [];
    const patterns = words.map(containsPattern);
    const rows = await this.query<RecordRow>(`SELECT key, expires_at_ms, value FROM memory_records WHERE repo = $1 AND ${LIVE} AND words LIKE ANY($3) ORDER BY key LIMIT $4`, [this.repo, nowMs, patterns, limit]);
    return rows.map(decode).filter((r): r is StoredRecord => r !== undefined);
  }
}
