import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Repo } from '../../src/engine/index.js';
import { byPathBytes } from '../../src/store/file-list.js';
import { Store, type FileList, type StoredFile } from '../../src/store/index.js';
import { makeRepo, removeDir, tempDir, writeFiles } from '../helpers/fixture.js';

const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).reverse().forEach((f) => f()));

async function indexed(files: Record<string, string>): Promise<Repo> {
  const root = makeRepo(files);
  const home = tempDir('sightline-home-');
  const repo = Repo.open(root, { flags: { home }, env: {} });
  cleanup.push(() => removeDir(root), () => removeDir(home), () => repo.close());
  await repo.index();
  return repo;
}

/** What a list holds, as a fresh read of the table gives it: every row in path order, found by id and by path. */
function expectCurrent(list: FileList, store: Store): void {
  const read = store.files.list();
  expect(list.files).toEqual(read);
  expect(list.byId.size).toBe(read.length);
  expect(list.byPath.size).toBe(read.length);
  for (const f of read) {
    expect(list.byId.get(f.id)).toEqual(f);
    expect(list.byPath.get(f.path)).toEqual(f);
  }
}

const same = (a: FileList, b: FileList, p: string): boolean => a.byPath.get(p) === b.byPath.get(p);

describe('the file list a reader keeps', () => {
  it('is moved by what a pass wrote: edited, added and deleted files, the rest kept as they were', async () => {
    const repo = await indexed({ 'a.ts': 'export const a = 1;\n', 'b.ts': 'export const b = 2;\n', 'c/d.ts': 'export const d = 4;\n', 'e.ts': 'export const e = 5;\n' });
    const { store } = repo;
    const before = store.fileList();
    expectCurrent(before, store);

    writeFiles(repo.root, { 'b.ts': 'export const b = 20;\n', 'c/a.ts': 'export const ca = 3;\n' });
    fs.rmSync(path.join(repo.root, 'e.ts'));
    await repo.index();
    const after = store.fileList();
    expectCurrent(after, store);
    expect(after.byPath.get('e.ts')).toBeUndefined();
    expect(after.byId.get(before.byPath.get('e.ts')!.id)).toBeUndefined();
    // Moved, not read again: rows no pass wrote are the very objects the reader held.
    expect(same(before, after, 'a.ts') && same(before, after, 'c/d.ts')).toBe(true);
    expect(same(before, after, 'b.ts')).toBe(false);
  });

  it('keeps the order SQLite sorts paths in (their UTF-8 bytes), where UTF-16 code units differ', async () => {
    const repo = await indexed({ 'a.ts': 'export const a = 1;\n' });
    const before = repo.store.fileList();
    const emoji = 'z/\u{1F600}.ts'; // a surrogate pair: below U+E000 in code units, above it in bytes
    const privateUse = 'z/\uE000.ts';
    writeFiles(repo.root, { [emoji]: 'export const smile = 1;\n', [privateUse]: 'export const pua = 2;\n' });
    await repo.index();
    const after = repo.store.fileList();
    expect(same(before, after, 'a.ts')).toBe(true);
    expect(after.files.map((f) => f.path)).toEqual(['a.ts', privateUse, emoji]);
    expectCurrent(after, repo.store);
    expect(byPathBytes(privateUse, emoji)).toBeLessThan(0);
    expect(privateUse < emoji).toBe(false);
  });

  it('follows a file seen again with a new stamp, its row rewritten in place', async () => {
    const repo = await indexed({ 'a.ts': 'export const a = 1;\n', 'b.ts': 'export const b = 2;\n' });
    const before = repo.store.fileList();
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(repo.root, 'a.ts'), later, later);
    await repo.index();
    const after = repo.store.fileList();
    expectCurrent(after, repo.store);
    expect(after.byPath.get('a.ts')!.id).toBe(before.byPath.get('a.ts')!.id);
    expect(after.byPath.get('a.ts')!.mtimeMs).not.toBe(before.byPath.get('a.ts')!.mtimeMs);
    expect(same(before, after, 'b.ts')).toBe(true);
  });

  it('is moved on another connection too, by what the writer committed', async () => {
    const repo = await indexed({ 'a.ts': 'export const a = 1;\n', 'b.ts': 'export const b = 2;\n' });
    const reader = Store.open(repo.dbPath);
    cleanup.push(() => reader.close());
    const before = reader.fileList();
    writeFiles(repo.root, { 'c.ts': 'export const c = 3;\n' });
    fs.rmSync(path.join(repo.root, 'a.ts'));
    await repo.index();
    const after = reader.fileList();
    expectCurrent(after, reader);
    expect(after.files.map((f) => f.path)).toEqual(['b.ts', 'c.ts']);
    expect(same(before, after, 'b.ts')).toBe(true);
  });

  it('is read whole again when the log no longer reaches back to it, or the index was emptied', async () => {
    const repo = await indexed({ 'a.ts': 'export const a = 1;\n', 'b.ts': 'export const b = 2;\n' });
    const { store } = repo;
    const before = store.fileList();
    fs.rmSync(path.join(repo.root, 'a.ts'));
    await repo.index();
    store.transaction(() => store.changes.trim(0)); // the log forgets the deletion a reader holding `before` has not seen
    const reread = store.files.listFrom(before);
    expect(reread.files.map((f) => f.path)).toEqual(['b.ts']);
    expect(same(before, reread, 'b.ts')).toBe(false);

    const kept = store.fileList();
    store.clear();
    writeFiles(repo.root, { 'c.ts': 'export const c = 3;\n' });
    await repo.index();
    const afterClear = store.fileList();
    expectCurrent(afterClear, store);
    expect(same(kept, afterClear, 'b.ts')).toBe(false); // another epoch: nothing carried over
  });

  it('is not kept from inside a write, and a write rolled back leaves no trace in it', async () => {
    const repo = await indexed({ 'a.ts': 'export const a = 1;\n', 'b.ts': 'export const b = 2;\n' });
    const { store } = repo;
    const before = store.fileList();
    expect(() =>
      store.transaction(() => {
        store.removeFile('a.ts');
        expect(store.fileList().files.map((f) => f.path)).toEqual(['b.ts']); // this write's own rows
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    const after = store.fileList();
    expectCurrent(after, store);
    expect(same(before, after, 'a.ts')).toBe(true);
    writeFiles(repo.root, { 'c.ts': 'export const c = 3;\n' });
    await repo.index();
    expectCurrent(store.fileList(), store);
  });

  it('takes a generation again after a nested write that took one rolled back', async () => {
    const repo = await indexed({ 'a.ts': 'export const a = 1;\n', 'b.ts': 'export const b = 2;\n' });
    const { store } = repo;
    const before = store.fileList();
    const [a, b] = ['a.ts', 'b.ts'].map((p) => before.byPath.get(p)!);
    store.transaction(() => {
      expect(() =>
        store.transaction(() => {
          store.files.markSeen(a!.id, 111, a!.size, 111); // takes the next generation, in a savepoint
          throw new Error('inner rolled back');
        }),
      ).toThrow('inner rolled back');
      store.files.markSeen(b!.id, 222, b!.size, 222); // the outer write goes on, and commits
    });
    const after = store.fileList();
    expectCurrent(after, store);
    expect([after.byPath.get('a.ts')!.mtimeMs, after.byPath.get('b.ts')!.mtimeMs]).toEqual([a!.mtimeMs, 222]);
  });

  it('stands when the embedding space is switched: only the vectors are read again', async () => {
    const repo = await indexed({ 'a.ts': 'export const a = 1;\n', 'b.ts': 'export const b = 2;\n' });
    const { store } = repo;
    const before = store.fileList();
    store.transaction(() => store.vectors.reset({ name: 'another', model: 'another', dims: 8 }));
    const after = store.fileList();
    expect(same(before, after, 'a.ts') && same(before, after, 'b.ts')).toBe(true);
    expect(store.changes.since(before.at, 1)).toBeNull(); // a reader of the vectors from before starts over
  });

  it('refuses a tracked write outside a store transaction', async () => {
    const repo = await indexed({ 'a.ts': 'export const a = 1;\n' });
    const { store } = repo;
    const id = store.fileList().byPath.get('a.ts')!.id;
    expect(() => store.files.markSeen(id, 1, 1, 1)).toThrow(/outside Store\.transaction/);
    expect(store.files.list().map((f: StoredFile) => f.mtimeMs)).not.toContain(1);
  });
});
