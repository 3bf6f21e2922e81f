/**
 * Forward migrations, tested from databases built by earlier schemas. An
 * earlier schema is rebuilt from the current one by undoing migrations newest
 * first (each migration so far only creates tables and indexes, and the
 * generator refuses any statement it cannot undo, so a migration that alters a
 * table must bring its own fixture). The migrated database must have exactly
 * the schema a fresh one has, and keep its rows.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { search } from '../../src/engine/index.js';
import { Store, SCHEMA_VERSION } from '../../src/store/index.js';
import { MIGRATIONS } from '../../src/store/schema.js';
import { CLI } from '../helpers/cli.js';
import { openRepo, scratch, writeGenerated } from './helpers.js';

const tmp = scratch();
afterEach(() => tmp.cleanup());

/** The tables and indexes a migration creates, in creation order; throws on anything else. */
function createdBy(sql: string): { kind: 'TABLE' | 'INDEX'; name: string }[] {
  const statements = sql
    .replace(/--.*$/gm, '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
  return statements.map((s) => {
    const m = /^CREATE\s+(?:VIRTUAL\s+)?(TABLE|INDEX)\s+(?:IF NOT EXISTS\s+)?(\w+)/i.exec(s);
    if (!m) throw new Error(`cannot undo this migration statement; give its version a fixture of its own:\n${s}`);
    return { kind: m[1]!.toUpperCase() as 'TABLE' | 'INDEX', name: m[2]! };
  });
}

/** The oldest version with a migration path to the current one. */
function oldestMigratable(): number {
  let v = SCHEMA_VERSION;
  while (MIGRATIONS[v - 1] !== undefined) v--;
  return v;
}

/** A database as schema `version` built it, holding one indexed file. */
function buildAt(version: number, dbPath: string): void {
  Store.open(dbPath).close();
  const db = new Database(dbPath);
  for (let v = SCHEMA_VERSION - 1; v >= version; v--) {
    for (const { kind, name } of createdBy(MIGRATIONS[v]!).reverse()) db.exec(`DROP ${kind} ${name}`);
  }
  db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(version));
  const file = db
    .prepare("INSERT INTO files(path, language, kind, size, mtime_ms, digest, indexed_at_ms, line_count, tokens) VALUES ('old.ts', 'typescript', 'code', 40, 0, 'abc', 0, 1, 9)")
    .run().lastInsertRowid;
  const chunk = db
    .prepare("INSERT INTO chunks(file_id, ord, start_line, end_line, breadcrumb, symbol, text, tokens) VALUES (?, 0, 1, 1, 'old.ts', 'survivor', 'export function survivor() {}', 9)")
    .run(file).lastInsertRowid;
  db.prepare("INSERT INTO chunks_fts(rowid, path, symbols, body) VALUES (?, 'old', 'survivor', 'export function survivor')").run(chunk);
  db.prepare("INSERT INTO meta(key, value) VALUES ('last_indexed_at', '2020-01-01T00:00:00.000Z')").run();
  db.close();
}

function schemaOf(dbPath: string): string[] {
  const db = new Database(dbPath, { readonly: true });
  const rows = db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all() as { type: string; name: string; sql: string | null }[];
  db.close();
  return rows.map((r) => `${r.type} ${r.name}: ${(r.sql ?? '').replace(/\s+/g, ' ')}`);
}

describe('schema migrations', () => {
  it('the previous schema has a forward migration', () => {
    expect(oldestMigratable()).toBeLessThan(SCHEMA_VERSION);
  });

  it('every schema with a migration path migrates at open to exactly the fresh schema, keeping its rows', () => {
    const fresh = path.join(tmp.dir(), 'fresh.db');
    Store.open(fresh).close();
    for (let v = oldestMigratable(); v < SCHEMA_VERSION; v++) {
      const root = tmp.dir();
      const home = tmp.dir('sightline-home-');
      const repo = openRepo(root, home);
      buildAt(v, repo.dbPath);
      expect(repo.store.getMeta('schema_version'), `from ${v}`).toBe(String(SCHEMA_VERSION));
      expect(schemaOf(repo.dbPath), `from ${v}`).toEqual(schemaOf(fresh));
      expect(repo.store.files.get('old.ts')?.digest).toBe('abc');
      expect(search(repo, { query: 'survivor' }).results[0]?.path).toBe('old.ts');
      repo.close();
    }
  });

  it('a schema with no migration path is rebuilt, never misread', () => {
    const v = oldestMigratable() - 1;
    if (v < 1) return; // every version migrates: nothing is rebuilt
    const dbPath = path.join(tmp.dir(), 'index.db');
    Store.open(dbPath).close();
    const db = new Database(dbPath);
    db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(v));
    db.prepare("INSERT INTO files(path, kind, size, mtime_ms, digest, indexed_at_ms, line_count, tokens) VALUES ('stale.ts', 'code', 1, 0, 'x', 0, 1, 0)").run();
    db.close();
    const store = Store.open(dbPath);
    expect(store.fresh).toBe(true);
    expect(store.counts().files).toBe(0);
    store.close();
  });

  it('two processes opening an old index at once both succeed, and it is migrated once', async () => {
    const root = tmp.dir();
    writeGenerated(root, 3);
    const home = tmp.dir('sightline-home-');
    const repo = openRepo(root, home);
    const dbPath = repo.dbPath;
    repo.close();
    buildAt(oldestMigratable(), dbPath);
    const status = () =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, [CLI, 'status', '--repo', root, '--json'], { env: { PATH: process.env.PATH, SIGHTLINE_HOME: home }, stdio: 'ignore' });
        child.once('exit', resolve);
      });
    expect(await Promise.all([status(), status(), status()])).toEqual([0, 0, 0]);
    const fresh = path.join(tmp.dir(), 'fresh.db');
    Store.open(fresh).close();
    expect(schemaOf(dbPath)).toEqual(schemaOf(fresh));
  });
});
