/** How a record is stored by every backend: its JSON value, and the lower-cased words `match` searches. */
import { fieldValues, liveTags } from './record.js';
import type { ClaimRow, StoredRecord } from './types.js';

/** A `memory_records` row as either backend returns it. */
export interface RecordRow {
  key: string;
  expires_at_ms: number | null;
  value: string;
}

/**
 * A `memory_claims` row as either backend returns it. SQLite gives integers
 * as numbers and `live` as 0/1; node-postgres gives BIGINT columns as
 * strings (they may pass 2^53) and `live` as a boolean.
 */
export interface ClaimDbRow {
  key: string;
  high_water: number | string;
  live: number | boolean;
  released_token: number | string;
  owner: string | null;
  lock_token: number | string;
  lease_expires_at_ms: number;
  lease_seconds: number;
}

/** A claim row decoded the same way for both backends (a fencing token is far below 2^53 in practice). */
export function decodeClaim(r: ClaimDbRow | null | undefined): ClaimRow | undefined {
  if (!r) return undefined;
  return {
    key: r.key,
    highWater: Number(r.high_water),
    live: r.live === true || r.live === 1,
    releasedToken: Number(r.released_token),
    owner: r.owner,
    lockToken: Number(r.lock_token),
    leaseExpiresAtMs: r.lease_expires_at_ms,
    leaseSeconds: r.lease_seconds,
  };
}

/** The record a stored row holds, or undefined when its value cannot be read as one. */
export function decodeRecord(row: RecordRow): StoredRecord | undefined {
  try {
    const r = JSON.parse(row.value) as StoredRecord;
    return r && typeof r === 'object' && r.key === row.key && r.fields && r.tags && r.links ? { ...r, expiresAtMs: row.expires_at_ms } : undefined;
  } catch {
    return undefined;
  }
}

export function recordWords(r: StoredRecord): string {
  return [r.topic, r.id, ...liveTags(r), ...Object.values(fieldValues(r))].join(' ').toLowerCase();
}

/** A LIKE pattern (backslash escapes) matching text that holds `word`. */
export function containsPattern(word: string): string {
  return `%${word.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
