/**
 * What memory holds, and the narrow interface a backend implements. The
 * SQLite backend (sqlite.ts) keeps it in the repository's index file; a team
 * backend (PostgreSQL) implements the same `MemoryStore` without touching the
 * tools, because every rule (merge, fence, claims) is decided here, in pure
 * code, and the backend only reads a record's state and applies a decision
 * atomically.
 */

export const KINDS = ['decision', 'note', 'memory'] as const;
export type Kind = (typeof KINDS)[number];

/** The scalar fields of a memory record; `update` refuses any other. */
export const MEMORY_FIELDS = ['title', 'body', 'author', 'provenance'] as const;
export type MemoryField = (typeof MEMORY_FIELDS)[number];

/** A last-writer-wins register: the write with the higher hybrid-logical tick wins. */
export interface Register<T> {
  value: T;
  tick: number;
}

/** A link register: present or removed, last writer wins; the target's digest when it was linked. */
export interface LinkRegister {
  relation: string;
  target: string;
  present: boolean;
  tick: number;
  /** The target's digest when linked (files and symbols); null when it had no live record then. */
  digest: string | null;
}

export interface StoredRecord {
  key: string;
  topic: string;
  id: string;
  kind: Kind;
  fields: Partial<Record<MemoryField, Register<string>>>;
  tags: Record<string, Register<boolean>>;
  /** Keyed by linkId(relation, target). */
  links: Record<string, LinkRegister>;
  createdTick: number;
  updatedTick: number;
  /** Wall-clock expiry; null is durable. */
  expiresAtMs: number | null;
}

/**
 * A record's claim: the fence stamped on the record (high-water mark, whether
 * the claim is live, the highest released token) and the lock that grants it
 * (the token it holds now and until when). In SQLite both live in one row; on
 * a team backend the lock may be a separate service, which is why they are
 * named apart.
 */
export interface ClaimRow {
  key: string;
  /** The highest token ever granted on this record. */
  highWater: number;
  /** True from the grant until a release. */
  live: boolean;
  /** The highest token released (0 when none). */
  releasedToken: number;
  owner: string | null;
  /** The token the lock holds; 0 when free. */
  lockToken: number;
  leaseExpiresAtMs: number;
  leaseSeconds: number;
}

/** An agent queued for a claim (first in, first out). */
export interface Waiter {
  id: string;
  owner: string;
  enqueuedAtMs: number;
  /** Refreshed while the waiter polls; a waiter not seen for WAITER_STALE_MS has gone. */
  seenAtMs: number;
}

/** Everything one decision may look at. */
export interface RecordState {
  /** The stored record, live or expired; `undecodable` when its value cannot be read. */
  record: StoredRecord | undefined;
  undecodable: boolean;
  /** The raw expiry column, readable even when the value is not. */
  expiresAtMs: number | null;
  claim: ClaimRow | undefined;
  /** Waiters in arrival order. */
  waiters: Waiter[];
}

/** What a decision asks the backend to apply, all or nothing, with the value to return. */
export interface Decision<T> {
  result: T;
  /** Replace the record (its claim row and waiters are kept). */
  put?: StoredRecord;
  /** Delete the record with its claim and waiters. */
  remove?: boolean;
  /** Change only the expiry column (works on an undecodable record). */
  expiresAtMs?: number | null;
  claim?: ClaimRow;
  enqueue?: Waiter;
  /** Waiter ids to drop (granted, gave up, or gone). */
  dequeue?: string[];
  /** Waiter ids to mark seen now. */
  touch?: string[];
}

/** Time and counters, read inside the decision's transaction. */
export interface Clock {
  nowMs: number;
  /** A fresh hybrid-logical tick, above every tick this store has handed out. */
  tick(): number;
  /** A fresh fencing token, above every token this store has handed out. */
  token(): number;
}

export type ScanScope = 'memory' | 'memory_topic';

export interface PageQuery {
  /** Only this topic (memory_topic). */
  topic?: string;
  /** Keys strictly after this one. */
  after?: string;
  limit: number;
  nowMs: number;
}

/**
 * The narrow backend interface. Every write goes through `decide`, so the
 * fence check and the write it admits commit together.
 */
export interface MemoryStore {
  /** Reads `key`'s state, lets `decide` choose, applies the decision, atomically across processes. */
  decide<T>(key: string, decide: (state: RecordState, clock: Clock) => Decision<T>): Promise<T>;
  /** One record's state, without a lock. */
  read(key: string): Promise<RecordState>;
  /** Live records in key order. */
  page(query: PageQuery): Promise<StoredRecord[]>;
  /** Live records of many keys (a BFS level), in one round trip. */
  readMany(keys: string[], nowMs: number): Promise<Map<string, StoredRecord>>;
  /** Topics with their live entry counts. */
  topics(nowMs: number): Promise<{ topic: string; count: number }[]>;
  /** Live records whose text holds any of the words, in key order (at most `limit`). */
  match(words: string[], limit: number, nowMs: number): Promise<StoredRecord[]>;
}
