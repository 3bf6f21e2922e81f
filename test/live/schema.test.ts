/**
 * Forward migrations, tested from databases built by the real earlier schemas:
 * test/live/fixtures/schemas.sql holds each version's DDL verbatim, as that
 * release created it. Each migrated database must have exactly the schema a fresh one
 * has and fill on its next pass what the old schema could not hold (the graph's
 * edges, the git history). A migration from before version 8 ends by emptying what
 * parsing made (its layout changed), so the next pass indexes every file again; from 8
 * on, the history is read again and the chunks' terms written again (version 10), and
 * each file's names filter is filled from its stored text (version 11).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { locate } from '../../src/engine/locate.js';
import { SightlineError } from '../../src/errors/index.js';
import { search } from '../../src/engine/search.js';
import { Store, SCHEMA_VERSION } from '../../src/store/index.js';
import { packTexts } from '../../src/store/chunk-text.js';
import { nameFilter, UNICODE_VERSION } from '../../src/store/name-filter.js';
import { MIGRATIONS, NAMES_PENDING, NAMES_UNICODE, pathKey } from '../../src/store/schema.js';
import { chunkTerms } from '../../src/terms/index.js';
import { digest } from '../../src/walk/index.js';
import { CLI } from '../helpers/cli.js';
import { writeFiles } from '../helpers/fixture.js';
import { openRepo, scratch, writeGenerated } from './helpers.js';

const tmp = scratch();
afterEach(() => tmp.cleanup());

const OLD_TS = 'export function survivor() {\n  return helper();\n}\n\nfunction helper() {\n  return 1;\n}\n';

/** The oldest version with a migration path to the current one. */
function oldestMigratable(): number {
  let v = SCHEMA_VERSION;
  while (MIGRATIONS[v - 1] !== undefined) v--;
  return v;
}

/** The DDL schema `version` created, from fixtures/schemas.sql (each statement marked with the versions that had it). */
function ddlOf(version: number): string {
  const blocks = fs.readFileSync(new URL('./fixtures/schemas.sql', import.meta.url), 'utf8').split(/^-- @versions /m).slice(1);
  return blocks
    .filter((block) => {
      const [from, to] = block.slice(0, block.indexOf('\n')).split('-').map(Number);
      return from! <= version && version <= to!;
    })
    .map((block) => block.slice(block.indexOf('\n') + 1))
    .join('\n');
}

/** A git work tree holding old.ts, committed once. */
function gitRoot(): string {
  const root = tmp.dir();
  writeFiles(root, { 'old.ts': OLD_TS });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: root, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'Add the survivor');
  return root;
}

/**
 * A database as schema `version` built it, holding old.ts indexed as that
 * version would have left it: its stat and digest match the file on disk (when
 * `root` is given), so only a migration can make the next pass read it again.
 */
function buildAt(version: number, dbPath: string, root?: string): void {
  fs.mkdirSync(path.dirname(dbPath), { recursive: true });
  const db = new Database(dbPath);
  db.exec(ddlOf(version));
  const meta = db.prepare('INSERT INTO meta(key, value) VALUES (?, ?)');
  meta.run('app', 'sightline');
  meta.run('schema_version', String(version));
  meta.run('last_indexed_at', '2020-01-01T00:00:00.000Z');
  const stat = root ? fs.statSync(path.join(root, 'old.ts')) : { size: OLD_TS.length, mtimeMs: 0 };
  // Since version 12 a file is found by a key of its path.
  const file = db
    .prepare(`INSERT INTO files(path, ${version >= 12 ? 'path_key, ' : ''}language, kind, size, mtime_ms, digest, indexed_at_ms, line_count, tokens)
              VALUES ('old.ts', ${version >= 12 ? `${pathKey('old.ts')}, ` : ''}'typescript', 'code', ?, ?, ?, ?, 7, 20)`)
    .run(stat.size, stat.mtimeMs, digest(OLD_TS), Date.now() + 1_000).lastInsertRowid;
  let chunk: number | bigint;
  if (version < 8) {
    chunk = db
      .prepare("INSERT INTO chunks(file_id, ord, start_line, end_line, breadcrumb, symbol, text, tokens) VALUES (?, 0, 1, 7, 'old.ts', 'survivor', ?, 20)")
      .run(file, OLD_TS).lastInsertRowid;
  } else {
    // Version 8's layout: the text packed per file, the graph's strings in refs; one call, not resolved yet.
    // Since version 10 the breadcrumb is stored past the file's path.
    // Since version 11 each file's names filter is written with its text, under this Node.js's Unicode.
    const { packed, spans, names } = packTexts([OLD_TS]);
    db.prepare('INSERT INTO file_texts(file_id, packed) VALUES (?, ?)').run(file, packed);
    if (version >= 11) {
      db.prepare('UPDATE file_texts SET names = ? WHERE file_id = ?').run(names, file);
      meta.run(NAMES_UNICODE, UNICODE_VERSION);
    }
    chunk = db
      .prepare("INSERT INTO chunks(file_id, ord, start_line, end_line, breadcrumb, symbol, text_at, text_length, tokens) VALUES (?, 0, 1, 7, ?, 'survivor', ?, ?, 20)")
      .run(file, version >= 10 ? '' : 'old.ts', spans[0]!.at, spans[0]!.length).lastInsertRowid;
    const ref = db.prepare("INSERT INTO refs(kind, name) VALUES (0, 'helper')").run().lastInsertRowid;
    db.prepare('INSERT INTO edges(file_id, kind, ref_id, line, status) VALUES (?, 0, ?, 2, 0)').run(file, ref);
  }
  db.prepare("INSERT INTO chunks_fts(rowid, path, symbols, body) VALUES (?, 'old', 'survivor', 'export function survivor return helper')").run(chunk);
  db.close();
}

/**
 * Turns an index of the current version back into version 9's layout, its data kept: each
 * breadcrumb with its file's path in front, the terms in version 9's column order, no names filters.
 */
function downgradeTo9(dbPath: string): void {
  const store = Store.open(dbPath);
  const terms = [...store.chunks.termSources()].map((c) => ({ id: c.id, ...chunkTerms(c.path, c.breadcrumb, c.text) }));
  store.close();
  const db = new Database(dbPath);
  // The files table as version 9 had it (with a unique index on the paths), made the way a migration remakes it.
  db.pragma('foreign_keys = OFF');
  db.pragma('legacy_alter_table = ON');
  db.exec(`ALTER TABLE files RENAME TO files_now; ${/CREATE TABLE files \([^;]*;/.exec(ddlOf(9))![0]}
           INSERT INTO files SELECT id, path, language, kind, size, mtime_ms, digest, indexed_at_ms, line_count, tokens, invalid_utf8 FROM files_now;
           DROP TABLE files_now;
           DROP INDEX vectors_by_gen; ALTER TABLE vectors DROP COLUMN gen; DROP TABLE gone;`);
  db.exec(`DROP TABLE chunks_fts; ${/CREATE VIRTUAL TABLE chunks_fts[^;]*;/.exec(ddlOf(9))![0]}
           CREATE TEMP TABLE kept AS SELECT file_id, packed FROM file_texts;
           DROP TABLE file_texts; ${/CREATE TABLE file_texts[^;]*;/.exec(ddlOf(9))![0]}
           INSERT INTO file_texts SELECT * FROM temp.kept;
           UPDATE chunks SET breadcrumb = (SELECT path FROM files WHERE id = chunks.file_id) || breadcrumb;
           UPDATE meta SET value = '9' WHERE key = 'schema_version';`);
  const insert = db.prepare('INSERT INTO chunks_fts(rowid, path, symbols, body) VALUES (?, ?, ?, ?)');
  for (const t of terms) insert.run(t.id, t.path, t.symbols, t.body);
  db.close();
}

function schemaOf(dbPath: string): string[] {
  const db = new Database(dbPath, { readonly: true });
  const rows = db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all() as { type: string; name: string; sql: string | null }[];
  db.close();
  return rows.map((r) => `${r.type} ${r.name}: ${(r.sql ?? '').replace(/\s+/g, ' ')}`);
}

describe('schema migrations', () => {
  it('every version from 2 on migrates step by step; 1, whose name_key only code can compute, does not', () => {
    expect(oldestMigratable()).toBe(2);
    for (let v = 2; v < SCHEMA_VERSION; v++) expect(MIGRATIONS[v], `migration ${v} -> ${v + 1}`).toBeDefined();
  });

  it('each earlier schema migrates at open to exactly the fresh schema, and its next pass fills what it lacked (before version 8: every file indexed again)', async () => {
    const fresh = path.join(tmp.dir(), 'fresh.db');
    Store.open(fresh).close();
    for (let v = oldestMigratable(); v < SCHEMA_VERSION; v++) {
      const root = gitRoot();
      const repo = openRepo(root, tmp.dir('sightline-home-'));
      buildAt(v, repo.dbPath, root);
      expect(repo.store.getMeta('schema_version'), `from ${v}`).toBe(String(SCHEMA_VERSION));
      expect(schemaOf(repo.dbPath), `from ${v}`).toEqual(schemaOf(fresh));
      if (v < 8) {
        // Version 8 packs chunk text and shares the graph's strings: what parsing made is made again.
        expect(repo.store.counts(), `from ${v}`).toEqual({ files: 0, chunks: 0, symbols: 0, skipped: 0 });
      } else {
        // Versions 8 to 11 keep the code. Before 10 the breadcrumb held the path (read past it now) and
        // the terms are missing: until the next pass the index is not one that has been built (a query
        // indexes first). Version 10 lacks only the names filters, and locate reads the texts meanwhile.
        // Version 11 lacks nothing: its files are found by their path keys at once.
        expect(repo.store.counts(), `from ${v}`).toEqual({ files: 1, chunks: 1, symbols: 0, skipped: 0 });
        expect(repo.store.chunks.ofFileId(repo.store.files.get('old.ts')!.id)[0]?.breadcrumb, `from ${v}`).toBe('old.ts');
        expect(repo.store.chunks.termStatsDrift(), `from ${v}`).toBe(v < 10 ? -1 : 0);
        expect(repo.store.getMeta(NAMES_PENDING), `from ${v}`).toBe(v < 11 ? '1' : undefined);
      }
      expect(repo.hasIndex(), `from ${v}`).toBe(v >= 10);
      if (v >= 10) expect(locate(repo, { query: 'helper' }).results.map((r) => r.start_line), `from ${v}`).toEqual([2, 5]);

      await repo.index();
      const one = (sql: string) => repo.store.db.prepare(sql).pluck().get();
      expect(repo.store.files.get('old.ts')?.digest).toBe(digest(OLD_TS));
      const stored = one('SELECT breadcrumb FROM chunks') as string; // past the path, which the files row holds
      expect(stored, `from ${v}`).not.toMatch(/^old\.ts/);
      expect(repo.store.chunks.ofFileId(repo.store.files.get('old.ts')!.id)[0]?.breadcrumb, `from ${v}`).toBe(`old.ts${stored}`);
      expect(repo.store.chunks.termStatsDrift(), `from ${v}`).toBe(0);
      expect(search(repo, { query: 'survivor' }).results[0]?.path, `from ${v}`).toBe('old.ts');
      expect(one('SELECT count(*) FROM commits'), `history from ${v}`).toBe(1);
      expect(repo.store.edges.linksFrom(repo.store.files.get('old.ts')!.id).map((l) => l.name), `edges from ${v}`).toEqual(['helper']);
      // Every file's names filter, written or filled by the pass.
      expect(one('SELECT count(*) FROM file_texts WHERE names IS NULL'), `names from ${v}`).toBe(0);
      expect(repo.store.getMeta(NAMES_PENDING), `from ${v}`).toBeUndefined();
      const oldTs = repo.store.files.get('old.ts')!.id;
      const mayHold = (name: string) => repo.store.chunks.filesMayHoldName([oldTs], name).has(oldTs);
      expect([mayHold('survivor'), mayHold('Survivor')], `from ${v}`).toEqual([true, false]);
      expect(one('SELECT names FROM file_texts'), `names from ${v}`).toEqual(Buffer.from(nameFilter([OLD_TS])));
      repo.close();
    }
  });

  it('an index of version 9 migrates in place: its next pass writes the terms again without reading a file, and answers as before', async () => {
    const root = tmp.dir();
    writeGenerated(root, 40);
    const home = tmp.dir('sightline-home-');
    const repo = openRepo(root, home);
    await repo.index();
    const queries = ['fn_7_0_v1', 'step 2 of file 12', 'file mod1', 'return x'];
    const answers = (r: typeof repo) => queries.map((query) => search(r, { query, mode: 'keyword' }).results);
    const crumbs = (r: typeof repo) => [...r.store.chunks.scan()].map((c) => c.breadcrumb);
    // Each file's names filter: those filled from the stored text after the migration must be the ones a pass writes.
    const filters = (r: typeof repo) => r.store.db.prepare('SELECT f.path, t.names FROM file_texts t JOIN files f ON f.id = t.file_id ORDER BY f.path').raw().all();
    const before = { answers: answers(repo), crumbs: crumbs(repo), filters: filters(repo) };
    expect(before.crumbs.some((c) => c.includes(' > '))).toBe(true);
    const dbPath = repo.dbPath;
    repo.close();
    downgradeTo9(dbPath);
    const v9 = path.join(tmp.dir(), 'v9.db');
    new Database(v9).exec(ddlOf(9)).close();
    expect(schemaOf(dbPath)).toEqual(schemaOf(v9));

    const migrated = openRepo(root, home);
    expect(migrated.hasIndex()).toBe(false);
    expect(crumbs(migrated)).toEqual(before.crumbs);
    const summary = await migrated.index();
    expect(summary.added + summary.updated + summary.removed).toBe(0);
    expect(migrated.store.chunks.termStatsDrift()).toBe(0);
    expect(answers(migrated)).toEqual(before.answers);
    expect(filters(migrated)).toEqual(before.filters);
    migrated.close();
  });

  it('an index of version 12 migrates to the change log, and loses a vector whose chunk is gone, keeping the others', () => {
    const dbPath = path.join(tmp.dir(), 'index.db');
    buildAt(12, dbPath);
    const db = new Database(dbPath);
    db.pragma('foreign_keys = OFF'); // as a migration runs: how such a row could be left
    const chunk = db.prepare('SELECT id FROM chunks').pluck().get() as number;
    const insert = db.prepare('INSERT INTO vectors(chunk_id, vec) VALUES (?, ?)');
    insert.run(chunk, Buffer.alloc(16));
    insert.run(chunk + 1_000, Buffer.alloc(16));
    db.prepare("INSERT INTO meta(key, value) VALUES ('vectors_version', 'x')").run();
    db.close();
    const store = Store.open(dbPath);
    try {
      expect(store.getMeta('schema_version')).toBe(String(SCHEMA_VERSION));
      expect(store.db.prepare('SELECT chunk_id, gen FROM vectors').all()).toEqual([{ chunk_id: chunk, gen: 0 }]);
      expect(store.db.prepare('SELECT gen FROM files').pluck().all()).toEqual([0]);
      expect(store.getMeta('vectors_version')).toBeUndefined();
      expect(store.changes.point()).toBeNull(); // no tracked write yet: a reader reads the tables whole
    } finally {
      store.close();
    }
  });

  it('an index of version 7 keeps its agent memory and budget sessions through the migration; its history is read from git again', () => {
    const dbPath = path.join(tmp.dir(), 'index.db');
    buildAt(7, dbPath);
    const db = new Database(dbPath);
    db.exec(`CREATE TABLE memory_probe (id TEXT PRIMARY KEY, body TEXT NOT NULL) STRICT; -- stands for memory's tables, which the migration does not name
             INSERT INTO memory_probe VALUES ('m1', 'remember this');
             INSERT INTO budget_sessions(id, refusals, updated_at_ms) VALUES ('s1', 2, 0);
             INSERT INTO commits(hash, time, file_count) VALUES ('abc', 1, 1);`);
    db.prepare("INSERT INTO meta(key, value) VALUES ('history_head', 'abc')").run();
    db.close();
    const store = Store.open(dbPath);
    const one = (sql: string) => store.db.prepare(sql).pluck().get();
    expect(store.fresh).toBe(false);
    expect(one("SELECT body FROM memory_probe WHERE id = 'm1'")).toBe('remember this');
    expect(one("SELECT refusals FROM budget_sessions WHERE id = 's1'")).toBe(2);
    expect(one('SELECT count(*) FROM commits')).toBe(0); // version 9 keeps it smaller: the next pass reads it again
    expect(store.getMeta('history_head')).toBeUndefined();
    expect(store.getMeta('last_indexed_at')).toBeUndefined();
    expect(store.counts().chunks).toBe(0);
    expect(store.db.pragma('auto_vacuum', { simple: true })).toBe(2); // turned on by a VACUUM after the migration, so passes give freed pages back
    store.close();
  });

  it('a schema with no migration path (older, or newer than this build) is rebuilt, never misread', () => {
    const fresh = path.join(tmp.dir(), 'fresh.db');
    Store.open(fresh).close();
    for (const v of [1, SCHEMA_VERSION + 1]) {
      const dbPath = path.join(tmp.dir(), 'index.db');
      if (v === 1) buildAt(1, dbPath);
      else {
        Store.open(dbPath).close();
        const db = new Database(dbPath);
        db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(v));
        db.prepare("INSERT INTO files(path, path_key, kind, size, mtime_ms, digest, indexed_at_ms, line_count, tokens) VALUES ('stale.ts', 0, 'code', 1, 0, 'x', 0, 1, 0)").run();
        db.close();
      }
      const store = Store.open(dbPath);
      expect(store.fresh, `version ${v}`).toBe(true);
      expect(store.counts().files, `version ${v}`).toBe(0);
      store.close();
      expect(schemaOf(dbPath), `version ${v}`).toEqual(schemaOf(fresh));
    }
  });

  it('a migration checks that every reference names a table, not every row: an orphan row migrates, a dangling reference is damage', () => {
    // An orphan row (a file's texts without the file) is damage doctor reports; it does not stop the upgrade.
    const orphan = path.join(tmp.dir(), 'index.db');
    buildAt(11, orphan);
    let db = new Database(orphan);
    db.pragma('foreign_keys = OFF');
    db.prepare('INSERT INTO file_texts(file_id, packed) VALUES (999, ?)').run(Buffer.from('x'));
    db.close();
    const store = Store.open(orphan);
    expect([store.getMeta('schema_version'), store.counts().files]).toEqual([String(SCHEMA_VERSION), 1]);
    store.close();
    // A table that refers to one that no longer exists: what a remake gone wrong leaves. The upgrade is
    // rolled back and the index reported damaged, which sends it to be rebuilt (recover.ts).
    const dangling = path.join(tmp.dir(), 'index.db');
    buildAt(11, dangling);
    db = new Database(dangling);
    db.exec('CREATE TABLE stray (file_id INTEGER REFERENCES files_gone(id)) STRICT');
    db.close();
    let err: unknown;
    try {
      Store.open(dangling).close();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SightlineError);
    expect((err as SightlineError).code).toBe('corrupt_index');
    expect((err as Error).message).toContain('stray → files_gone');
    db = new Database(dangling, { readonly: true });
    expect(db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get()).toBe('11');
    db.close();
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
