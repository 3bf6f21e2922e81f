/**
 * Emptying an index in place. Tables are found from the schema rather than
 * listed, so a table family added later is dropped too unless it is kept here
 * on purpose; FTS shadow tables are left to their virtual table.
 */
import type { Db } from './db.js';

/** What a reset keeps: who is indexing, and the job record (the caller decides about that). */
const KEPT_TABLES = new Set(['meta', 'index_job', 'index_lock']);
/** Meta keys that say what the database is, not what it holds. */
const IDENTITY_KEYS = ['app', 'schema_version', 'created_at'];

/** Deletes every indexed row. Call inside a transaction. */
export function clearIndex(db: Db): void {
  const tables = db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all() as { name: string; sql: string }[];
  const virtual = tables.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql)).map((t) => t.name);
  const isShadow = (name: string) => virtual.some((v) => name.startsWith(`${v}_`));
  db.pragma('defer_foreign_keys = ON'); // emptied in any order; checked at commit, when all are empty
  for (const { name } of tables) {
    if (!KEPT_TABLES.has(name) && !isShadow(name)) db.prepare(`DELETE FROM "${name}"`).run();
  }
  db.prepare(`DELETE FROM meta WHERE key NOT IN (${IDENTITY_KEYS.map(() => '?').join(', ')})`).run(...IDENTITY_KEYS);
}
