import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Repo } from '../../src/engine/index.js';
import { search } from '../../src/engine/search.js';
import { SightlineError } from '../../src/errors/index.js';
import { FileTexts } from '../../src/store/chunk-text.js';
import { Memo, SCHEMA_VERSION, Store } from '../../src/store/index.js';
import { pathKey } from '../../src/store/schema.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function home(): string {
  const h = tempDir('sightline-home-');
  dirs.push(h);
  return h;
}

describe('store', () => {
  it('creates a WAL database with a schema version, outside the repository', async () => {
    const root = makeRepo({ 'a.ts': 'export const a = 1;\n' });
    dirs.push(root);
    const repo = Repo.open(root, { flags: { home: home() }, env: {} });
    await repo.index();
    expect(repo.dbPath.startsWith(root)).toBe(false);
    const setting = (name: string) => repo.store.db.pragma(name, { simple: true });
    // Set when the connection opens: the busy timeout by openSqlite, the rest in one exec (db.ts configure).
    expect(['journal_mode', 'busy_timeout', 'auto_vacuum', 'synchronous', 'foreign_keys', 'cache_size', 'temp_store'].map(setting)).toEqual([
      'wal',
      5000,
      2, // INCREMENTAL
      1, // NORMAL
      1,
      -16000,
      2, // MEMORY
    ]);
    expect(repo.store.getMeta('schema_version')).toBe(String(SCHEMA_VERSION));
    expect(fs.readdirSync(root)).toEqual(['a.ts']);
    repo.close();
  });

  it('opening an index that exists writes nothing to it', async () => {
    const root = makeRepo({ 'a.ts': 'export const a = 1;\n' });
    dirs.push(root);
    const repo = Repo.open(root, { flags: { home: home() }, env: {} });
    await repo.index();
    const dbPath = repo.dbPath;
    repo.close();
    const store = Store.open(dbPath);
    try {
      expect(store.counts().files).toBe(1);
      // Setting auto_vacuum again on a file that holds a database rewrote its first page into the WAL.
      expect(fs.statSync(`${dbPath}-wal`).size).toBe(0);
      expect(store.db.pragma('auto_vacuum', { simple: true })).toBe(2);
    } finally {
      store.close();
    }
  });

  it('tells apart paths whose keys collide: files are found by a 4-byte key of the path, then the path', async () => {
    const [a, b] = ['src/1appmg2.ts', 'src/i512q0.ts'];
    expect(pathKey(a)).toBe(pathKey(b));
    const root = makeRepo({ [a]: 'export const one = 1;\n', [b]: 'export const two = 2;\n' });
    dirs.push(root);
    const repo = Repo.open(root, { flags: { home: home() }, env: {} });
    await repo.index();
    const ids = [repo.store.files.get(a)!, repo.store.files.get(b)!].map((f) => f.id);
    expect(new Set(ids).size).toBe(2);
    fs.writeFileSync(path.join(root, a), 'export const one = 11;\n');
    expect((await repo.index()).updated).toBe(1);
    expect(repo.store.counts().files).toBe(2);
    expect(repo.store.files.get(b)!.id).toBe(ids[1]);
    expect(search(repo, { query: 'two', mode: 'keyword' }).results[0]?.path).toBe(b);
    fs.rmSync(path.join(root, b));
    expect((await repo.index()).removed).toBe(1);
    expect([repo.store.files.get(a)?.path, repo.store.files.get(b)]).toEqual([a, undefined]);
    repo.close();
  });

  it('refuses a corrupt file and names the fix', () => {
    const dbPath = path.join(home(), 'x', 'index.db');
    fs.mkdirSync(path.dirname(dbPath), { recursive: true });
    fs.writeFileSync(dbPath, 'this is not a database, just some text that fills a page'.repeat(100));
    const err = (() => {
      try {
        Store.open(dbPath);
      } catch (e) {
        return e as SightlineError;
      }
    })();
    expect(err).toBeInstanceOf(SightlineError);
    expect(err!.code).toBe('corrupt_index');
    expect(err!.message).toContain('sightline index --force');
  });

  it('refuses a foreign SQLite database without touching it', () => {
    const dbPath = path.join(home(), 'y', 'index.db');
    fs.mkdirSync(path.dirname(dbPath), { recursive: true });
    const foreign = new Database(dbPath);
    foreign.exec("CREATE TABLE customers(name TEXT); INSERT INTO customers VALUES ('ada');");
    foreign.close();
    expect(() => Store.open(dbPath)).toThrow(/another program.*index --force/);
    const again = new Database(dbPath);
    expect(again.prepare('SELECT name FROM customers').pluck().get()).toBe('ada');
    again.close();
  });

  it('rebuilds an index built by an incompatible schema version instead of misreading it', () => {
    const dbPath = path.join(home(), 'z', 'index.db');
    const first = Store.open(dbPath);
    first.setMeta('schema_version', String(SCHEMA_VERSION + 7));
    first.db.exec("INSERT INTO files(path, path_key, kind, size, mtime_ms, digest, indexed_at_ms, line_count, tokens) VALUES ('old.ts', 0, 'code', 1, 1, 'x', 1, 1, 1)");
    first.close();
    const reopened = Store.open(dbPath);
    expect(reopened.fresh).toBe(true);
    expect(reopened.getMeta('schema_version')).toBe(String(SCHEMA_VERSION));
    expect(reopened.counts().files).toBe(0);
    reopened.close();
  });

  it('index --force cures a corrupt index', async () => {
    const root = makeRepo({ 'a.ts': 'export const cured = 1;\n' });
    dirs.push(root);
    const repo = Repo.open(root, { flags: { home: home() }, env: {} });
    fs.mkdirSync(path.dirname(repo.dbPath), { recursive: true });
    fs.writeFileSync(repo.dbPath, Buffer.alloc(8192, 7));
    expect(() => repo.store).toThrow(/index --force/);
    await repo.index({ force: true });
    expect(search(repo, { query: 'cured' }).results).toHaveLength(1);
    repo.close();
  });

  it('gives a clear error for a read-only index directory', () => {
    if (process.getuid?.() === 0) {
      // root ignores directory permissions; use a path under a regular file instead, which no user can create
      const file = path.join(home(), 'plain-file');
      fs.writeFileSync(file, '');
      expect(() => Store.open(path.join(file, 'sub', 'index.db'))).toThrow(/index directory .* (is not writable|cannot be opened)/);
      return;
    }
    const dir = path.join(home(), 'ro');
    fs.mkdirSync(dir, { mode: 0o500 });
    expect(() => Store.open(path.join(dir, 'sub', 'index.db'))).toThrow(/is not writable/);
  });
});

describe('file stamps kept between passes', () => {
  async function indexed() {
    const root = makeRepo({ 'a.ts': 'export const a = 1;\n', 'b.ts': 'export const b = 2;\n' });
    dirs.push(root);
    const repo = Repo.open(root, { flags: { home: home() }, env: {} });
    await repo.index();
    return { root, repo };
  }

  it('are read again only after this connection wrote a file row, or another connection committed', async () => {
    const { root, repo } = await indexed();
    const files = repo.store.files;
    const first = files.stamps();
    expect(files.stamps()).toBe(first); // nothing written: the same map
    await repo.index(); // a pass that finds nothing changed writes no file row
    expect(files.stamps()).toBe(first);

    fs.writeFileSync(path.join(root, 'a.ts'), 'export const a = 11;\n');
    await repo.index();
    const edited = files.stamps();
    expect(edited).not.toBe(first);
    expect(edited.get('a.ts')!.size).toBe('export const a = 11;\n'.length);

    const other = Store.open(repo.dbPath); // another connection: its commit moves data_version
    other.transaction(() => other.files.delete(other.files.get('b.ts')!.id));
    other.close();
    expect([...files.stamps().keys()]).toEqual(['a.ts']);

    repo.store.clear();
    expect(files.stamps().size).toBe(0);
    repo.close();
  });

  it('are not kept for more files than the share allows, nor by a store no repository sized', async () => {
    const { repo } = await indexed();
    repo.store.files.keepStampsWithin(1);
    expect(repo.store.files.stamps()).not.toBe(repo.store.files.stamps());
    const bare = Store.open(repo.dbPath);
    expect(bare.files.stamps()).not.toBe(bare.files.stamps());
    bare.close();
    repo.close();
  });
});

describe('term document counts', () => {
  it('are kept per index version: an index write that adds a chunk holding a term counts it', async () => {
    const root = makeRepo({ 'a.ts': 'export const lantern = 1;\n', 'b.ts': 'export const other = 2;\n' });
    dirs.push(root);
    const repo = Repo.open(root, { flags: { home: home() }, env: { SIGHTLINE_EMBEDDER: 'none' } });
    await repo.index();
    expect(repo.store.terms.documentFrequency(['lantern', 'absent']).get('lantern')).toBe(1);
    expect(repo.store.terms.documentFrequency(['lantern']).get('lantern')).toBe(1); // from the memo
    fs.writeFileSync(path.join(root, 'b.ts'), 'export const lantern2 = lantern + 1;\n');
    await repo.index();
    expect(repo.store.terms.documentFrequency(['lantern', 'absent'])).toEqual(new Map([['lantern', 2], ['absent', 0]]));
    repo.close();
  });
});

describe('unpacked chunk texts', () => {
  const chunkOf = (store: Store, path: string) => {
    const file = store.files.get(path)!;
    const [id] = store.chunks.ofFileId(file.id).map((c) => c.id);
    return { fileId: file.id, text: store.chunks.byIds([id!]).get(id!)!.text };
  };

  it('are kept per index version: a file re-indexed under the same row id reads its new text', async () => {
    const root = makeRepo({ 'a.ts': 'export const first = 1;\n' });
    dirs.push(root);
    const repo = Repo.open(root, { flags: { home: home() }, env: { SIGHTLINE_EMBEDDER: 'none' } });
    await repo.index();
    const before = chunkOf(repo.store, 'a.ts');
    expect(before.text).toContain('first');
    expect(chunkOf(repo.store, 'a.ts').text).toBe(before.text); // from what was kept
    fs.writeFileSync(path.join(root, 'a.ts'), 'export const second = 2;\n');
    await repo.index();
    const after = chunkOf(repo.store, 'a.ts');
    // The one file's row was deleted and inserted again: SQLite hands out the same id, so only the version tells the texts apart.
    expect(after.fileId).toBe(before.fileId);
    expect(after.text).toContain('second');
    expect(after.text).not.toContain('first');
    repo.close();
  });

  it('are read lazily, but as the version the row was read from: a row held across a re-index keeps its own text', async () => {
    const root = makeRepo({ 'a.ts': 'export const first = 1;\n' });
    dirs.push(root);
    const repo = Repo.open(root, { flags: { home: home() }, env: { SIGHTLINE_EMBEDDER: 'none' } });
    await repo.index();
    const file = repo.store.files.get('a.ts')!;
    const [held] = repo.store.chunks.ofFileId(file.id); // its text not read yet
    fs.writeFileSync(path.join(root, 'a.ts'), 'export const second = 2;\n');
    await repo.index();
    expect(repo.store.files.get('a.ts')!.id).toBe(file.id);
    expect(held!.text).toContain('first');
    expect(chunkOf(repo.store, 'a.ts').text).toContain('second');
    repo.close();
  });

  it('answer alike whatever a connection may keep: a search under the smallest budgets finds what it found before', async () => {
    const root = makeRepo(Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`m${i}.ts`, `export function lantern${i}(shade: number) {\n  return shade * ${i};\n}\n`])));
    dirs.push(root);
    const repo = Repo.open(root, { flags: { home: home(), queryCacheSize: 0 }, env: { SIGHTLINE_EMBEDDER: 'none' } });
    await repo.index();
    const answer = () => JSON.stringify(search(repo, { query: 'lantern shade', mode: 'keyword', k: 6 }).results);
    const roomy = answer();
    repo.store.chunks.keepWithin({ textUnits: 1, termChunkIds: 1 });
    fs.appendFileSync(path.join(root, 'm0.ts'), '\n'); // a new index version, which takes the new budgets
    await repo.index();
    expect(JSON.parse(answer()).length).toBe(6);
    expect(answer()).toBe(answer());
    expect(JSON.parse(answer()).map((r: { path: string }) => r.path).sort()).toEqual(JSON.parse(roomy).map((r: { path: string }) => r.path).sort());
    repo.close();
  });

  it('outlive an index version where their file is unchanged, and are read again where it changed', async () => {
    const root = makeRepo({ 'a.ts': 'export const apple = 1;\n', 'b.ts': 'export const berry = 2;\n' });
    dirs.push(root);
    const repo = Repo.open(root, { flags: { home: home() }, env: { SIGHTLINE_EMBEDDER: 'none' } });
    await repo.index();
    let version = 'v1';
    const texts = new FileTexts(repo.store.db, { memo: new Memo(), version: () => version });
    const ids = () => ['a.ts', 'b.ts'].map((name) => repo.store.files.get(name)!.id);
    const read = () => ids().map((id) => texts.lookup()(id)());
    const unpack = vi.spyOn(zlib, 'brotliDecompressSync');
    const unpackedBy = (f: () => string[]) => {
      const before = unpack.mock.calls.length;
      const got = f();
      return { got, unpacked: unpack.mock.calls.length - before };
    };
    try {
      expect(unpackedBy(read)).toEqual({ got: [expect.stringContaining('apple'), expect.stringContaining('berry')], unpacked: 2 });
      version = 'v2'; // the index moved on; neither file changed
      expect(unpackedBy(read)).toEqual({ got: [expect.stringContaining('apple'), expect.stringContaining('berry')], unpacked: 0 });
      fs.writeFileSync(path.join(root, 'b.ts'), 'export const cherry = 3;\n');
      await repo.index();
      version = 'v3';
      // b.ts alone, whatever id its new row has
      expect(unpackedBy(read)).toEqual({ got: [expect.stringContaining('apple'), expect.stringContaining('cherry')], unpacked: 1 });
    } finally {
      unpack.mockRestore();
      repo.close();
    }
  });

  it('read right past a budget smaller than any one file, which is then never kept', async () => {
    const files = Object.fromEntries(Array.from({ length: 3 }, (_, i) => [`f${i}.ts`, `export const name${i} = ${'1 + '.repeat(40)}${i};\n`]));
    const root = makeRepo(files);
    dirs.push(root);
    const repo = Repo.open(root, { flags: { home: home() }, env: { SIGHTLINE_EMBEDDER: 'none' } });
    await repo.index();
    const texts = new FileTexts(repo.store.db, { memo: new Memo(), version: () => 'v', budget: 10 });
    const kept = new FileTexts(repo.store.db, { memo: new Memo(), version: () => 'v', budget: 1 << 20 });
    for (let round = 0; round < 2; round++)
      for (const [name, source] of Object.entries(files)) {
        const id = repo.store.files.get(name)!.id;
        const unpacked = new FileTexts(repo.store.db).readOnce(id);
        expect(unpacked).toContain(source.trim());
        expect(texts.lookup()(id)()).toBe(unpacked);
        expect(kept.lookup()(id)()).toBe(unpacked);
      }
    repo.close();
  });
});
