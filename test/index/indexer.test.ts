import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Repo } from '../../src/engine/index.js';
import { changed } from '../../src/engine/changed.js';
import { search } from '../../src/engine/search.js';
import { RACY_MS } from '../../src/walk/listings.js';
import { age, makeRepo, removeDir, tempDir, writeFiles } from '../helpers/fixture.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function setup(files: Record<string, string | Buffer>, flags = {}) {
  const root = makeRepo(files);
  const home = tempDir('sightline-home-');
  dirs.push(root, home);
  return { root, repo: Repo.open(root, { flags: { home, ...flags }, env: {} }) };
}

describe('incremental indexing', () => {
  it('re-reads nothing when nothing changed, and only what changed otherwise', async () => {
    const { root, repo } = setup({ 'a.ts': 'export const alpha = 1;\n', 'b.ts': 'export const beta = 2;\n', 'c.ts': 'export const gamma = 3;\n' });
    for (const f of ['a.ts', 'b.ts', 'c.ts']) age(root, f);
    const first = await repo.index();
    expect(first).toMatchObject({ added: 3, updated: 0, removed: 0, unchanged: 0 });

    const again = await repo.index();
    expect(again).toMatchObject({ added: 0, updated: 0, removed: 0, unchanged: 3 });

    writeFiles(root, { 'b.ts': 'export const betaRenamed = 2;\n', 'd.ts': 'export const delta = 4;\n' });
    fs.rmSync(path.join(root, 'c.ts'));
    const third = await repo.index();
    expect(third).toMatchObject({ added: 1, updated: 1, removed: 1, unchanged: 1 });
    expect(search(repo, { query: 'betaRenamed' }).results[0]!.path).toBe('b.ts');
    expect(search(repo, { query: 'gamma' }).results).toHaveLength(0);
    repo.close();
  });

  it('sees every change in the directories a later pass in the process takes from the last walk', async () => {
    const { root, repo } = setup({ '.gitignore': '*.log\n', 'src/a.ts': 'export const alpha = 1;\n', 'src/deep/b.ts': 'export const beta = 2;\n', 'lib/c.ts': 'export const gamma = 3;\n' });
    await new Promise((r) => setTimeout(r, RACY_MS + 100)); // the directories settle: the second pass keeps their listings
    expect(await repo.index()).toMatchObject({ added: 4 });
    expect(await repo.index()).toMatchObject({ unchanged: 4 });

    writeFiles(root, { 'src/deep/d.ts': 'export const delta = 4;\n', 'src/a.ts': 'export const alphaEdited = 1;\n' });
    fs.writeFileSync(path.join(root, '.gitignore'), '*.log\nlib/\n'); // in place: the root's stat does not move
    expect(await repo.index()).toMatchObject({ added: 1, updated: 2, removed: 1, unchanged: 1 });
    expect(repo.store.files.list().map((f) => f.path)).toEqual(['.gitignore', 'src/a.ts', 'src/deep/b.ts', 'src/deep/d.ts']);
    repo.close();
  });

  it('`changed` walks with the listings the passes keep, and still sees every change', async () => {
    const { root, repo } = setup({ 'src/a.ts': 'export const alpha = 1;\n', 'src/deep/b.ts': 'export const beta = 2;\n', 'lib/c.ts': 'export const gamma = 3;\n' });
    await new Promise((r) => setTimeout(r, RACY_MS + 100)); // the directories settle
    await repo.index();
    await repo.index(); // the second walk keeps the listings
    writeFiles(root, { 'src/deep/d.ts': 'export const delta = 4;\n', 'src/a.ts': 'export const alphaEdited = 1;\n' });
    expect(await changed(repo)).toMatchObject({ added: ['src/deep/d.ts'], modified: ['src/a.ts'], removed: [], unchanged: 2 });
    expect(repo.listings.lastWalk).toEqual({ reused: 3, read: 1 }); // only src/deep, which gained a file, was read again
    repo.close();
  });

  it('a touched file with the same bytes is read but not rewritten', async () => {
    const { root, repo } = setup({ 'a.ts': 'export const alpha = 1;\n' });
    await repo.index();
    fs.utimesSync(path.join(root, 'a.ts'), new Date(), new Date(Date.now() + 5000));
    const s = await repo.index();
    expect(s).toMatchObject({ updated: 0, unchanged: 1 });
    repo.close();
  });

  it('re-reads a file modified in the same tick it was indexed (mtime not strictly older)', async () => {
    const { root, repo } = setup({ 'a.ts': 'export const alpha = 1;\n' });
    await repo.index();
    const stored = repo.store.files.get('a.ts')!;
    // Same size, new content, mtime equal to the indexing instant: the fast path must not trust it.
    fs.writeFileSync(path.join(root, 'a.ts'), 'export const omega = 1;\n');
    // (+0.5 ms: utimes takes float seconds, which could otherwise round just below the instant)
    const t = (stored.indexedAtMs + 0.5) / 1000;
    fs.utimesSync(path.join(root, 'a.ts'), t, t);
    expect(fs.statSync(path.join(root, 'a.ts')).mtimeMs).toBeGreaterThanOrEqual(stored.indexedAtMs);
    const s = await repo.index();
    expect(s.updated).toBe(1);
    expect(search(repo, { query: 'omega' }).results).toHaveLength(1);
    repo.close();
  });

  it('skips binary, huge and ignored files, decodes Latin-1, and counts each', async () => {
    const { repo } = setup(
      {
        'bin.dat': Buffer.from([0x50, 0x4b, 0x00, 0x01, 0x02]),
        'huge.txt': 'x'.repeat(5000) + '\n',
        'latin1.py': Buffer.concat([Buffer.from('def caf'), Buffer.from([0xe9]), Buffer.from('():\n    return "ok"\n')]),
        'ok.ts': 'export const fine = true;\n',
        'node_modules/dep/index.js': 'module.exports = 1;\n',
        '.gitignore': 'ignored.ts\n',
        'ignored.ts': 'export const hidden = 1;\n',
      },
      { maxFileBytes: 2048 },
    );
    const s = await repo.index();
    expect(s.skipped.binary).toBe(1);
    expect(s.skipped.too_large).toBe(1);
    expect(s.skipped.gitignore).toBeGreaterThanOrEqual(1);
    const paths = repo.store.files.list().map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['latin1.py', 'ok.ts']));
    expect(paths).not.toContain('bin.dat');
    expect(paths).not.toContain('huge.txt');
    expect(paths).not.toContain('ignored.ts');
    expect(paths.some((p) => p.startsWith('node_modules'))).toBe(false);
    expect(repo.store.files.get('latin1.py')!.invalidUtf8).toBe(false); // read as Latin-1: every high byte was invalid UTF-8
    expect(search(repo, { query: 'return ok' }).results[0]!.path).toBe('latin1.py');
    repo.close();
  });

  it('does not re-read an unchanged skipped file, but re-checks it once it changes', async () => {
    const { root, repo } = setup({ 'img.bin': Buffer.from([0, 1, 2, 3]), 'a.ts': 'export const a = 1;\n' });
    age(root, 'img.bin');
    await repo.index();
    const first = repo.store.skipped().find((s) => s.path === 'img.bin')!;
    expect(first.reason).toBe('binary');
    const again = await repo.index();
    expect(again.skipped.binary).toBe(1);
    expect(repo.store.skipped().find((s) => s.path === 'img.bin')!.checkedAtMs).toBe(first.checkedAtMs);
    fs.writeFileSync(path.join(root, 'img.bin'), 'now it is text\n');
    const third = await repo.index();
    expect(third.added).toBe(1);
    expect(repo.store.skipped().some((s) => s.path === 'img.bin')).toBe(false);
    fs.rmSync(path.join(root, 'img.bin'));
    repo.close();
  });

  it('drops a file that turned binary, and keeps everything else intact', async () => {
    const { root, repo } = setup({ 'a.ts': 'export const alpha = 1;\n', 'b.ts': 'export const beta = 1;\n' });
    await repo.index();
    fs.writeFileSync(path.join(root, 'a.ts'), Buffer.from([1, 0, 2, 0]));
    const s = await repo.index();
    expect(s.removed).toBe(1);
    expect(repo.store.files.list().map((f) => f.path)).toEqual(['b.ts']);
    expect(repo.store.db.pragma('integrity_check', { simple: true })).toBe('ok');
    repo.close();
  });

  it('keeps chunks, FTS rows and symbols of one version per file', async () => {
    const { root, repo } = setup({ 'a.py': 'def one():\n    return 1\n' });
    await repo.index();
    writeFiles(root, { 'a.py': 'def two():\n    return 2\n\n\ndef three():\n    return 3\n' });
    await repo.index();
    const names = repo.store.symbols.ofFileId(repo.store.files.get('a.py')!.id).map((s) => s.name);
    expect(names).toEqual(['two', 'three']);
    expect(search(repo, { query: 'one' }).results).toHaveLength(0);
    const orphans = repo.store.db.prepare('SELECT count(*) FROM chunks WHERE file_id NOT IN (SELECT id FROM files)').pluck().get();
    expect(orphans).toBe(0);
    repo.close();
  });
});
