/**
 * Recovering from a damaged index file: it is moved aside whole (a garbled
 * file cannot be trusted to clear itself), a new index is created in its
 * place, and agent memory, which is not derived from the code, is copied
 * across if its tables can still be read.
 */
import fs from 'node:fs';
import { isCorruption } from '../errors/index.js';
import { openDb, type Db } from './db.js';
import { CREATE_SCHEMA } from './schema.js';

/** The tables every index has; one gone means the file was damaged (or edited by hand). */
const CORE_TABLES = [...CREATE_SCHEMA.matchAll(/CREATE (?:VIRTUAL )?TABLE (?:IF NOT EXISTS )?(\w+)/g)].map((m) => m[1]!);
const SIDE_FILES = ['', '-wal', '-shm'];
/** Where a damaged file is kept (one at a time, so repeated damage does not fill the disk). */
export const ASIDE_SUFFIX = '.damaged';

/** "table files is missing" when a table every index has is gone (dropped by hand, or lost), else null. Cheap: reads the schema only. */
export function missingTables(db: Db): string | null {
  const present = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name));
  const missing = CORE_TABLES.filter((t) => !present.has(t));
  return missing.length ? `table ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing` : null;
}

/**
 * Why the open index is damaged, or null when it is sound: a core table
 * missing, or a page that `PRAGMA quick_check` (linear in the file) rejects.
 */
export function findDamage(db: Db): string | null {
  try {
    const missing = missingTables(db);
    if (missing) return missing;
    const problems = (db.pragma('quick_check(3)') as { quick_check: string }[]).map((r) => r.quick_check);
    return problems.length === 1 && problems[0] === 'ok' ? null : problems.join('; ');
  } catch (err) {
    if (isCorruption(err)) return (err as Error).message;
    throw err;
  }
}

export interface Rebuilt {
  /** Where the damaged file now lies. */
  aside: string;
  /** `kept`: memory copied into the new index; `lost`: the damaged file's memory could not be read; `none`: it held none. */
  memory: 'kept' | 'lost' | 'none';
}

/** Moves the damaged index at `dbPath` aside and creates a new one there, keeping memory where it can be read. */
export function rebuildDamaged(dbPath: string): Rebuilt {
  const aside = dbPath + ASIDE_SUFFIX;
  for (const suffix of SIDE_FILES) {
    fs.rmSync(aside + suffix, { recursive: true, force: true });
    if (fs.existsSync(dbPath + suffix)) fs.renameSync(dbPath + suffix, aside + suffix);
  }
  const { db } = openDb(dbPath);
  try {
    return { aside, memory: salvageMemory(db, aside) };
  } finally {
    db.close();
  }
}

/** Copies the `memory_*` tables (schema, rows, and memory's schema version) from the damaged file, all or nothing. */
function salvageMemory(db: Db, aside: string): Rebuilt['memory'] {
  try {
    db.prepare('ATTACH DATABASE ? AS damaged').run(aside);
  } catch {
    return 'lost';
  }
  try {
    const objects = db
      .prepare("SELECT type, name, sql FROM damaged.sqlite_master WHERE name LIKE 'memory\\_%' ESCAPE '\\' AND sql IS NOT NULL ORDER BY type = 'index'")
      .all() as { type: string; name: string; sql: string }[];
    if (!objects.some((o) => o.type === 'table')) return 'none';
    db.transaction(() => {
      for (const o of objects) {
        db.exec(o.sql);
        if (o.type === 'table') db.exec(`INSERT INTO main."${o.name}" SELECT * FROM damaged."${o.name}"`);
      }
      db.exec("INSERT OR REPLACE INTO main.meta(key, value) SELECT key, value FROM damaged.meta WHERE key = 'memory_schema_version'");
    })();
    return 'kept';
  } catch {
    return 'lost';
  } finally {
    db.exec('DETACH DATABASE damaged');
  }
}
