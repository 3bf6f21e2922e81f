/**
 * Versioned schema migrations for the team database, one component at a
 * time (memory now; sessions, usage and the workspace registry join by
 * naming their own component). `schema_version` holds each component's
 * version; `migrations[n]` upgrades it from n to n + 1. Every server runs
 * this on first use, under one advisory lock, so concurrent starts migrate
 * once; a version newer than this build knows is refused, never misread.
 */
import { SightlineError } from '../errors/index.js';
import type pg from 'pg';
import { describeDbError, inTransaction, redactUrl, teamPool } from './pool.js';

export interface SchemaComponent {
  name: string;
  /** migrations[n] is the SQL that upgrades this component from version n to n + 1 (0: nothing yet). */
  migrations: readonly string[];
}

/** Advisory-lock classes (the first key of the two-key form), one per purpose, so they never collide. */
export const LOCK_CLASS = { migrate: 0x5167_0001, memory: 0x5167_0002 } as const;

const done = new Map<string, Promise<void>>();

async function migrateNow(url: string, component: SchemaComponent): Promise<void> {
  const target = component.migrations.length;
  await inTransaction(url, async (c) => {
    await c.query(`SELECT pg_advisory_xact_lock(${LOCK_CLASS.migrate}, 0)`);
    await c.query('CREATE TABLE IF NOT EXISTS schema_version (component TEXT PRIMARY KEY, version INTEGER NOT NULL)');
    const row = await c.query<{ version: number }>('SELECT version FROM schema_version WHERE component = $1', [component.name]);
    const current = row.rows[0]?.version ?? 0;
    if (current > target) {
      throw new SightlineError(
        'usage',
        `the team database ${redactUrl(url)} holds ${component.name} schema version ${current}, newer than this sightline's ${target}: upgrade sightline on every server that shares it`,
      );
    }
    for (let v = current; v < target; v++) await c.query(component.migrations[v]!);
    if (current < target) {
      await c.query('INSERT INTO schema_version(component, version) VALUES ($1, $2) ON CONFLICT (component) DO UPDATE SET version = EXCLUDED.version', [component.name, target]);
    }
  });
}

/** Brings `component` up to date in the database at `url`, once per process (a failure is retried on the next call). */
export function migrateOnce(url: string, component: SchemaComponent): Promise<void> {
  const id = `${url}\u0000${component.name}`;
  let pending = done.get(id);
  if (!pending) {
    pending = migrateNow(url, component).catch((err) => {
      done.delete(id);
      throw err;
    });
    done.set(id, pending);
  }
  return pending;
}

/** One statement on the pool, after `component` is migrated; a database failure becomes one sentence. */
export async function componentQuery<R extends pg.QueryResultRow>(url: string, component: SchemaComponent, sql: string, args: unknown[]): Promise<R[]> {
  await migrateOnce(url, component);
  try {
    return (await (await teamPool(url)).query<R>(sql, args)).rows;
  } catch (err) {
    throw describeDbError(url, err);
  }
}
