/**
 * One node-postgres `Pool` per database URL per process, shared by every
 * repository and table family that lives in the team database. Idle
 * connections never keep a CLI verb alive (`allowExitOnIdle`), and a
 * connection that drops while idle is logged, not fatal.
 */
import type pg from 'pg';
import { SightlineError } from '../errors/index.js';

/** The database's clock in epoch milliseconds: every server judges time by it, so their own clocks never disagree. */
export const NOW_MS = '(extract(epoch from clock_timestamp()) * 1000)::float8';

const pools = new Map<string, Promise<pg.Pool>>();

/** The URL without its password, for messages, logs and `health`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unparseable URL)';
  }
}

/** Refuses anything but a postgres:// or postgresql:// URL, naming the form wanted. */
export function checkDatabaseUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new SightlineError('usage', 'the team store must be a URL like postgres://user:password@host:5432/database');
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new SightlineError('usage', `the team store must be a postgres:// URL, not ${u.protocol}// (${redactUrl(url)})`);
  }
  return url;
}

/** The pool for `url`; node-postgres is loaded on first use, so verbs that never touch the team database do not pay for it. */
export function teamPool(url: string): Promise<pg.Pool> {
  let pool = pools.get(url);
  if (!pool) {
    checkDatabaseUrl(url);
    pool = import('pg').then(({ default: driver }) => {
      const p = new driver.Pool({ connectionString: url, max: 16, allowExitOnIdle: true, connectionTimeoutMillis: 10_000 });
      p.on('error', (err) => process.stderr.write(`sightline: warning: team database connection dropped: ${err.message}\n`));
      return p;
    });
    pools.set(url, pool);
  }
  return pool;
}

/** Ends every pool (tests, benchmarks, and a server's shutdown). */
export async function closeTeamPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map(async (p) => (await p).end()));
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH', 'EAI_AGAIN', '3D000', '28P01', '28000']);

/** A database failure as one sentence with the (redacted) URL; anything else passes through. */
export function describeDbError(url: string, err: unknown): unknown {
  if (err instanceof SightlineError) return err;
  const code = String((err as { code?: unknown }).code ?? '');
  const message = err instanceof Error ? err.message : String(err);
  if (UNREACHABLE.has(code) || /timeout exceeded when trying to connect|Connection terminated/i.test(message)) {
    return new SightlineError('io', `cannot use the team database ${redactUrl(url)}: ${message}`, { cause: err });
  }
  return err;
}

/** Runs `body` in one transaction on one connection: committed if it returns, rolled back if it throws. */
export async function inTransaction<T>(url: string, body: (client: pg.PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await (await teamPool(url)).connect();
  } catch (err) {
    throw describeDbError(url, err);
  }
  let broken: Error | undefined;
  try {
    await client.query(begin);
    const result = await body(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch((e: Error) => (broken = e));
    throw describeDbError(url, err);
  } finally {
    client.release(broken);
  }
}
