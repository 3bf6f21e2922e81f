/**
 * Emptying an index in place. Tables are found from the schema rather than
 * listed, so a table family added later is dropped too unless it is kept here
 * on purpose; FTS shadow tables are left to their virtual table.
 */
import type { Db } from './db.js';

/** What a reset keeps: who is indexing, and the job record (the caller decides about that). */
const KEPT_TABLES = new Set(['meta', 'index_job', 'index_lock']);
/**
 * Families that are not derived from the code, and so survive a reset: agent memory
 * (memory/sqlite.ts, `memory_*`) and budget sessions (sessions.ts, `budget_*`).
 */
const KEPT_PREFIXES = ['memory_', 'budget_'];
/** Meta keys that say what the database is, not what it holds (memory's schema version among them). */
const IDENTITY_KEYS = ['app', 'schema_version', 'created_at', 'memory_schema_version'];

/** Deletes every indexed row (memory and sessions are not indexed, so they stay). Call inside a transaction. */
export function clearIndex(db: Db): void {
  const tables = db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all() as { name: string; sql: string }[];
  const virtual = tables.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql)).map((t) => t.name);
  const isShadow = (name: string) => virtual.some((v) => name.startsWith(`${v}_`));
  db.pragma('defer_foreign_keys = ON'); // emptied in any order; checked at commit, when all are empty
  for (const { name } of tables) {
    if (!KEPT_TABLES.has(name) && !KEPT_PREFIXES.some((p) => name.startsWith(p)) && !isShadow(name)) db.prepare(`DELETE FROM "${name}"`).run();
  }
  db.prepare(`DELETE FROM meta WHERE key NOT IN (${IDENTITY_KEYS.map(() => '?').join(', ')})`).run(...IDENTITY_KEYS);
}
