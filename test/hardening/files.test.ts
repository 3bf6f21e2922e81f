/**
 * Issue 21, files: UTF-16/UTF-32 and Latin-1 sources are decoded and indexed
 * (not skipped as binary) and the dry run says in which encoding; a symlink to
 * a directory inside the repository does not index its files twice; a name
 * ending in a space has no language; equal scores rank by path, so two
 * indexes of one tree built in different orders answer alike.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dryRun, Repo } from '../../src/engine/index.js';
import { listFiles } from '../../src/engine/list-files.js';
import { search } from '../../src/engine/search.js';
import { decodeSource } from '../../src/walk/index.js';
import { makeRepo, removeDir, tempDir, writeFiles } from '../helpers/fixture.js';

const cleanup: (() => void)[] = [];
afterAll(() => cleanup.forEach((fn) => fn()));

function openRepo(files: Record<string, string | Buffer>, setup?: (root: string) => void): Repo {
  const root = makeRepo(files);
  setup?.(root);
  const home = tempDir('sightline-home-');
  const repo = Repo.open(root, { flags: { home }, env: {} });
  cleanup.push(() => {
    repo.close();
    removeDir(root);
    removeDir(home);
  });
  return repo;
}

const source = 'def quixotic_ledger():\n    return "café"\n';
const utf16be = (s: string) => Buffer.from(s, 'utf16le').swap16();
const utf32 = (s: string, littleEndian: boolean) => {
  const points = [...s].map((c) => c.codePointAt(0)!);
  const buf = Buffer.alloc(points.length * 4);
  points.forEach((p, i) => (littleEndian ? buf.writeUInt32LE(p, i * 4) : buf.writeUInt32BE(p, i * 4)));
  return buf;
};

const ENCODED: Record<string, { bytes: Buffer; encoding: string }> = {
  'utf16le_bom.py': { bytes: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(source, 'utf16le')]), encoding: 'utf-16le' },
  'utf16le_plain.py': { bytes: Buffer.from(source, 'utf16le'), encoding: 'utf-16le' },
  'utf16be_bom.py': { bytes: Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(source)]), encoding: 'utf-16be' },
  'utf16be_plain.py': { bytes: utf16be(source), encoding: 'utf-16be' },
  'utf32le_bom.py': { bytes: Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), utf32(source, true)]), encoding: 'utf-32le' },
  'utf32be_plain.py': { bytes: utf32(source, false), encoding: 'utf-32be' },
  'latin1.py': { bytes: Buffer.from(source, 'latin1'), encoding: 'latin1' },
  'utf8.py': { bytes: Buffer.from(source, 'utf8'), encoding: 'utf-8' },
};

describe('encodings', () => {
  it('decodes each encoding to the same text', () => {
    for (const [name, { bytes, encoding }] of Object.entries(ENCODED)) {
      const decoded = decodeSource(bytes);
      expect(decoded, name).toEqual({ binary: false, text: source, encoding, invalidUtf8: false });
    }
  });

  it('still calls real binary binary', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    expect(decodeSource(png).binary).toBe(true);
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(64, 0), Buffer.from([0x3e, 0, 1, 0])]);
    expect(decodeSource(elf).binary).toBe(true);
    // Odd-length bytes in a UTF-16 pattern cannot be UTF-16.
    expect(decodeSource(Buffer.from('abc\0d\0', 'latin1')).binary).toBe(true);
  });

  it('keeps a few bad bytes in UTF-8 text as damaged UTF-8, not Latin-1', () => {
    const bytes = Buffer.concat([Buffer.from('naïve café résumé '), Buffer.from([0xff, 0x0a])]);
    expect(decodeSource(bytes)).toMatchObject({ binary: false, encoding: 'utf-8', invalidUtf8: true });
  });

  it('indexes every encoded file, finds its words, and the dry run reports the encodings', async () => {
    const repo = openRepo(Object.fromEntries(Object.entries(ENCODED).map(([name, e]) => [name, e.bytes])));
    const planned = await dryRun(repo);
    expect(planned.files).toBe(8);
    expect(planned.skipped).toEqual({});
    expect(planned.encodings).toEqual({ 'utf-16le': 2, 'utf-16be': 2, 'utf-32le': 1, 'utf-32be': 1, latin1: 1, 'utf-8': 1 });
    const summary = await repo.index();
    expect(summary.added).toBe(8);
    expect(summary.skipped).toEqual({});
    const hits = search(repo, { query: 'quixotic_ledger', mode: 'keyword', k: 20 });
    expect(hits.results.map((r) => r.path).sort()).toEqual(Object.keys(ENCODED).sort());
  });
});

describe('symlinks to directories inside the repository', () => {
  it('index the files once, where they are', async () => {
    const repo = openRepo({ 'lib/core.py': 'def only_once_here():\n    pass\n' }, (root) => fs.symlinkSync('lib', path.join(root, 'alias')));
    const summary = await repo.index();
    expect(summary.added).toBe(1);
    expect(summary.skipped).toEqual({ symlink_dir: 1 });
    const hits = search(repo, { query: 'only_once_here', mode: 'keyword', k: 10 });
    expect(hits.results.map((r) => r.path)).toEqual(['lib/core.py']);
  });
});

describe('a file name ending in a space', () => {
  it('gets no language from its "extension"', async () => {
    const repo = openRepo({ 'trailing space.py ': 'x = 1\n', 'real.py': 'y = 2\n' });
    const planned = await dryRun(repo);
    expect(planned.languages).toEqual({ python: 1, text: 1 });
    await repo.index();
    const listed = listFiles(repo, {});
    expect(listed.files.find((f) => f.path === 'trailing space.py ')?.language).toBeNull();
  });
});

describe('ties between equal scores', () => {
  it('are broken by path, so indexes built in different orders rank alike', async () => {
    const body = 'export function twinHelper() {\n  return 42;\n}\n';
    const names = ['m/b.ts', 'z/a.ts', 'a/c.ts', 'k/d.ts'];
    const orders: string[][] = [];
    for (const order of [names, [...names].reverse()]) {
      const repo = openRepo({ 'README.md': 'twins\n' });
      // Written and indexed one at a time: row ids follow the order of writing.
      for (const name of order) {
        writeFiles(repo.root, { [name]: body });
        await repo.index();
      }
      orders.push(search(repo, { query: 'twinHelper', mode: 'keyword', k: 10 }).results.map((r) => r.path));
      // The store's own cut: four equal bm25 scores, two kept.
      expect(repo.store.chunks.lexical(['twinhelper'], 2).map((h) => h.path)).toEqual(['a/c.ts', 'k/d.ts']);
      expect(search(repo, { query: 'twinHelper', mode: 'keyword', k: 2 }).results.map((r) => r.path)).toEqual(['a/c.ts', 'k/d.ts']);
    }
    expect(orders[0]).toEqual(['a/c.ts', 'k/d.ts', 'm/b.ts', 'z/a.ts']);
    expect(orders[1]).toEqual(orders[0]);
  });
});
