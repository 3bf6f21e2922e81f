/**
 * Writes of one process's threads to one index: an index pass writes vectors on its main thread
 * while the graph resolves on a worker thread with a connection of its own. A deferred
 * transaction, whose write lock is taken only at its first write, failed there with SQLITE_BUSY
 * after ~70 ms instead of waiting out the busy timeout ("embedding stopped: database is locked"
 * on the MCP TypeScript SDK's cold index, 4 runs of 4 with the threads slowed by a profiler; none
 * in 3 once transactions took the lock when they began). Store.transaction now begins IMMEDIATE:
 * the lock is taken at the start, through the busy timeout. That timeout still ran out in ~40 ms
 * under a profiler, whose signals cut SQLite's sleeps short (3 runs of 3 at a 0.5 ms interval):
 * a busy BEGIN is now tried again by the wall clock (store/sqlite.ts writeTransaction).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/index.js';
import { removeDir, tempDir } from '../helpers/fixture.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function dbPath(): string {
  const home = tempDir('sightline-home-');
  dirs.push(home);
  return path.join(home, 'index.db');
}

describe('write transactions', () => {
  it('hold the write lock from their start, before their first write', () => {
    const file = dbPath();
    const store = Store.open(file);
    const other = new Database(file);
    other.pragma('busy_timeout = 0');
    let seen: string | undefined;
    store.transaction(() => {
      store.getMeta('schema_version'); // a read first: a deferred transaction would hold no write lock yet
      try {
        other.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('other', '1')").run();
        seen = 'written';
      } catch (err) {
        seen = (err as { code?: string }).code;
      }
      store.setMeta('mine', '1');
    });
    expect(seen).toBe('SQLITE_BUSY');
    // Once it commits, the other connection writes.
    other.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('other', '1')").run();
    expect([store.getMeta('mine'), store.getMeta('other')]).toEqual(['1', '1']);
    other.close();
    store.close();
  });

  it("wait for another thread's write lock by the wall clock, past a busy handler that gave up", async () => {
    // SQLite's busy timeout counts the sleeps it asked for, and a signal cuts each one short: under
    // a CPU profiler its 5 s ran out in ~40 ms. A timeout of 0 gives up at once, as that one did.
    const file = dbPath();
    const store = Store.open(file);
    const db = (store as unknown as { db: Database.Database }).db;
    db.pragma('busy_timeout = 0');
    const holder = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const db = new (require(workerData.sqlite))(workerData.file);
       db.exec('BEGIN IMMEDIATE');
       db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('holder', 'committed')").run();
       parentPort.postMessage('held');
       setTimeout(() => { db.exec('COMMIT'); db.close(); }, 300);`,
      { eval: true, workerData: { file, sqlite: createRequire(import.meta.url).resolve('better-sqlite3') } },
    );
    await new Promise((resolve) => holder.once('message', resolve));
    let runs = 0;
    let seen: string | undefined;
    store.transaction(() => {
      runs++;
      seen = store.getMeta('holder'); // begun only once the holder committed
      store.setMeta('mine', '1');
    });
    expect([runs, seen, store.getMeta('mine')]).toEqual([1, 'committed', '1']);
    await new Promise((resolve) => holder.once('exit', resolve));
    store.close();
  });

  it('never run twice: a busy error from inside the transaction stands', () => {
    const store = Store.open(dbPath());
    let runs = 0;
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    expect(() =>
      store.transaction(() => {
        runs++;
        store.setMeta('partial', '1');
        throw busy;
      }),
    ).toThrow(busy);
    expect([runs, store.getMeta('partial')]).toEqual([1, undefined]);
    store.close();
  });

  it('nested transactions join the outer one, and a failure rolls back the whole', () => {
    const store = Store.open(dbPath());
    expect(() =>
      store.transaction(() => {
        store.setMeta('outer', '1');
        store.transaction(() => store.setMeta('inner', '1'));
        throw new Error('stop');
      }),
    ).toThrow('stop');
    expect([store.getMeta('outer'), store.getMeta('inner')]).toEqual([undefined, undefined]);
    store.transaction(() => {
      store.setMeta('outer', '2');
      store.transaction(() => store.setMeta('inner', '2'));
    });
    expect([store.getMeta('outer'), store.getMeta('inner')]).toEqual(['2', '2']);
    store.close();
  });
});
