import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Repo } from '../../src/engine/index.js';
import { nearest } from '../../src/search/vector.js';
import { fileCentroids, matrixOf } from '../../src/search/vector-matrix.js';
import type { Store, VectorMatrix } from '../../src/store/index.js';
import { makeRepo, removeDir, tempDir, writeFiles } from '../helpers/fixture.js';

const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).reverse().forEach((f) => f()));

function files(names: string[], salt = ''): Record<string, string> {
  return Object.fromEntries(names.map((n) => [n, `export function ${n.replace(/\W/g, '_')}${salt}(): number {\n  return ${n.length};\n}\n`]));
}

/** A repository indexed with the builtin embedder, and the width of its vectors. */
async function indexed(names: string[]): Promise<{ repo: Repo; dims: number }> {
  const root = makeRepo(files(names));
  const home = tempDir('sightline-home-');
  const repo = Repo.open(root, { flags: { home }, env: {} });
  cleanup.push(() => removeDir(root), () => removeDir(home), () => repo.close());
  await repo.index();
  return { repo, dims: repo.store.vectors.identity()!.dims };
}

/** A unit vector made from a seed: a question's vector, without the embedder. */
function vectorOf(seed: number, dims: number): Float32Array {
  const v = Float32Array.from({ length: dims }, (_, d) => Math.sin(seed * 1.7 + d * 0.9));
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

function rowsOf({ ids, data, dims }: VectorMatrix): Map<number, number[]> {
  return new Map(Array.from(ids, (id, r) => [id, Array.from(data.subarray(r * dims, (r + 1) * dims))]));
}

/** The kept matrix holds what a fresh load of the table does, and answers every question alike. */
function expectCurrent(matrix: VectorMatrix, store: Store): void {
  const fresh = store.vectors.load(matrix.dims).matrix;
  expect(fresh.ids.length).toBe(store.counts().chunks);
  expect(rowsOf(matrix)).toEqual(rowsOf(fresh));
  for (const seed of [0.3, 11, 42.5]) {
    const q = vectorOf(seed, matrix.dims);
    expect(nearest(matrix, q, 5)).toEqual(nearest(fresh, q, 5));
  }
}

describe('the vector matrix a reader keeps', () => {
  it('is moved in place by an edit: the edited file’s vectors replaced, the others where they were', async () => {
    const { repo, dims } = await indexed(['a.ts', 'b.ts', 'c.ts', 'd.ts']);
    const { store } = repo;
    const before = matrixOf(store, dims);
    expectCurrent(before, store);
    const kept = rowsOf(before);

    writeFiles(repo.root, files(['b.ts'], 'Edited'));
    await repo.index();
    const after = matrixOf(store, dims);
    expectCurrent(after, store);
    expect(after.data.buffer).toBe(before.data.buffer); // the same memory: moved, not loaded again
    const bId = store.fileList().byPath.get('b.ts')!.id;
    const bChunks = [...store.chunks.placesOf([...rowsOf(after).keys()]).values()].filter((c) => c.fileId === bId).map((c) => c.id);
    expect(bChunks.length).toBeGreaterThan(0);
    for (const id of bChunks) expect(kept.get(id)?.join()).not.toBe(rowsOf(after).get(id)!.join());
    for (const [id, row] of rowsOf(after)) if (!bChunks.includes(id)) expect(kept.get(id)).toEqual(row);
  });

  it('follows a deleted file, and grows into more memory when the new rows outrun its room', async () => {
    const { repo, dims } = await indexed(['a.ts', 'b.ts', 'c.ts']);
    const { store } = repo;
    const before = matrixOf(store, dims);
    writeFiles(repo.root, files(Array.from({ length: 300 }, (_, i) => `many/m${i}.ts`)));
    fs.rmSync(path.join(repo.root, 'a.ts'));
    await repo.index();
    const after = matrixOf(store, dims);
    expect(after.ids.length).toBeGreaterThan(before.ids.length + 256);
    expect(after.data.buffer).not.toBe(before.data.buffer);
    expectCurrent(after, store);
  });

  it('keeps the files’ centroids with the matrix: an edit sums again only the files whose rows moved, and they are a fresh load’s', async () => {
    const { repo, dims } = await indexed(['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts']);
    const { store } = repo;
    const asArrays = (m: Map<number, Float32Array>) => new Map([...m].map(([f, c]) => [f, Array.from(c)]));
    const fresh = () => asArrays(fileCentroids(store, store.vectors.load(dims).matrix));
    const before = fileCentroids(store, matrixOf(store, dims));
    const [a, d] = ['a.ts', 'd.ts'].map((p) => store.fileList().byPath.get(p)!.id);
    writeFiles(repo.root, { 'b.ts': 'export function renamedB(): string {\n  return "bee";\n}\n', 'f.ts': 'export const f = () => 6;\n' });
    fs.rmSync(path.join(repo.root, 'c.ts'));
    await repo.index();
    const after = fileCentroids(store, matrixOf(store, dims));
    expect(asArrays(after)).toEqual(fresh());
    expect(after.get(a!)).toBe(before.get(a!) ?? 'no centroid before'); // the same vector: not summed again
    expect(after.get(d!)).toBe(before.get(d!) ?? 'no centroid before');
    // A move that touches many files sums them all again, alike.
    writeFiles(repo.root, files(Array.from({ length: 40 }, (_, i) => `more/m${i}.ts`)));
    await repo.index();
    expect(asArrays(fileCentroids(store, matrixOf(store, dims)))).toEqual(fresh());
  });

  it('sums a file’s centroid in chunk id order, whatever order its rows are in', async () => {
    const { repo, dims } = await indexed(['a.ts']);
    const { store } = repo;
    const body = Array.from({ length: 30 }, (_, i) => `export function part${i}(x: number): number {\n${'  x = x * 3 + 1;\n'.repeat(20)}  return x;\n}\n`).join('\n');
    writeFiles(repo.root, { 'big.ts': body });
    await repo.index();
    const fileId = store.fileList().byPath.get('big.ts')!.id;
    const [first, second, third] = [...store.chunks.fileIds()].filter(([, f]) => f === fileId).map(([id]) => id).sort((x, y) => x - y);
    expect(third).toBeDefined();
    // Float sums depend on their order: 2^-24 + 2^-24 + 1 is 1 + 2^-23 in float32, but 1 + 2^-24 + 2^-24 is 1.
    const tiny = 2 ** -24;
    const rows: [number, number[]][] = [[third!, [1, 1]], [first!, [tiny, 0]], [second!, [tiny, 0]]];
    const matrixOfRows = (order: [number, number[]][]): VectorMatrix => {
      const data = new Float32Array(order.length * dims);
      order.forEach(([, v], r) => data.set(v, r * dims));
      return { ids: Float64Array.from(order.map(([id]) => id)), data, dims };
    };
    const centroid = (m: VectorMatrix) => Array.from(fileCentroids(store, m).get(fileId)!.subarray(0, 2));
    expect(centroid(matrixOfRows(rows))).toEqual(centroid(matrixOfRows([rows[1]!, rows[2]!, rows[0]!])));
  });

  it('is loaded whole again when the embedding space is switched', async () => {
    const { repo, dims } = await indexed(['a.ts', 'b.ts']);
    const { store } = repo;
    const before = matrixOf(store, dims);
    store.transaction(() => store.vectors.reset({ name: 'another', model: 'another', dims }));
    expect(matrixOf(store, dims).ids).toHaveLength(0);
    await repo.index(); // the builtin embedder's space again, every chunk embedded anew
    const after = matrixOf(store, dims);
    expect(after.data.buffer).not.toBe(before.data.buffer);
    expectCurrent(after, store);
  });

  it('ranks equally near rows by chunk id, whatever order the rows are in', () => {
    const dims = 8;
    const row = vectorOf(1, dims);
    const matrix: VectorMatrix = { ids: Float64Array.from([9, 3, 5, 7]), data: new Float32Array(4 * dims), dims };
    for (let r = 0; r < 4; r++) matrix.data.set(r === 3 ? vectorOf(2, dims) : row, r * dims);
    expect(nearest(matrix, row, 3).map((h) => h.chunkId)).toEqual([3, 5, 9]);
    expect(nearest(matrix, row, 2).map((h) => h.chunkId)).toEqual([3, 5]);
  });
});
