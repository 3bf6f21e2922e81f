/** How a record is stored by every backend: its JSON value, and the lower-cased words `match` searches. */
import { fieldValues, liveTags } from './record.js';
import type { StoredRecord } from './types.js';

/** The record a stored row holds, or undefined when its value cannot be read as one. */
export function decodeRecord(row: { key: string; expires_at_ms: number | null; value: string }): StoredRecord | undefined {
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
