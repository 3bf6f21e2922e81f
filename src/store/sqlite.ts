/**
 * better-sqlite3's one door. Required rather than imported: an ES module importing a CommonJS
 * package makes Node scan each of its files' source for the names it exports (cjs-module-lexer),
 * a cost every verb paid at start. Its addon is loaded from where the package builds it
 * (`nativeBinding`), sparing `bindings` its search of a dozen candidate paths; where it is not
 * there (a debug build), `bindings` finds it as before.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);
const Sqlite = require('better-sqlite3') as typeof BetterSqlite3;

export type Db = BetterSqlite3.Database;

let addon: string | null | undefined;

function addonPath(): string | null {
  if (addon === undefined) {
    const built = path.join(path.dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
    addon = fs.existsSync(built) ? built : null;
  }
  return addon;
}

/**
 * How long a statement waits for a lock another connection holds: set on every connection when it
 * opens (better-sqlite3's `timeout`, SQLite's busy timeout), before anything asks for a lock.
 */
export const BUSY_TIMEOUT_MS = 5_000;

/** A connection to the SQLite database at `file`, with better-sqlite3's options and the busy timeout. */
export function openSqlite(file: string, options: BetterSqlite3.Options = {}): Db {
  const nativeBinding = addonPath();
  return new Sqlite(file, { timeout: BUSY_TIMEOUT_MS, ...options, ...(nativeBinding ? { nativeBinding } : {}) });
}

/** SQLite's answer when another connection holds a lock it needs (SQLITE_BUSY, SQLITE_LOCKED, and their extended codes). */
export function isBusy(err: unknown): boolean {
  return /^SQLITE_(BUSY|LOCKED)/.test((err as { code?: string }).code ?? '');
}

const WRITE_RETRY_MS = 5;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `fn` in one write transaction that takes the write lock when it begins (BEGIN IMMEDIATE);
 * nested in another, it joins it. A BEGIN that fails busy is tried again until the busy timeout
 * has passed by the wall clock: SQLite's busy handler counts the sleeps it asked for, not the time, and a signal
 * cuts each sleep short, so under a CPU profiler (a signal each 0.5 ms) its 5 s ran out in
 * ~40 ms and an index pass's vectors stopped with "database is locked" while the graph's thread
 * wrote. Once `fn` has begun, its error stands: nothing runs twice.
 */
export function writeTransaction<T>(db: Db, fn: () => T): T {
  let begun = false;
  const run = db.transaction(() => {
    begun = true;
    return fn();
  });
  for (const deadline = Date.now() + BUSY_TIMEOUT_MS; ; ) {
    try {
      return run.immediate();
    } catch (err) {
      if (begun || !isBusy(err) || Date.now() >= deadline) throw err;
      Atomics.wait(pause, 0, 0, WRITE_RETRY_MS);
    }
  }
}
