/**
 * The sizes an index pass holds at once follow `maxMemoryMB` (config/memory.ts): counted through
 * what the pass reports (a progress event per write transaction and per embedding message) and
 * through what it writes, never by measuring memory.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig, memoryPlan, type Config } from '../../src/config/index.js';
import { resolveGraph } from '../../src/graph/index.js';
import { indexRepository, type IndexProgress } from '../../src/index/index.js';
import { embedPass } from '../../src/index/embed-pass.js';
import { Store } from '../../src/store/index.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';
import { GRAPH_FILES } from '../graph/fixture.js';
import { edgesOf } from '../graph/helpers.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(() => {
  stores.splice(0).forEach((s) => s.close());
  dirs.splice(0).forEach(removeDir);
});

function open(files: Record<string, string>): { root: string; store: Store; home: string } {
  const root = makeRepo(files);
  const home = tempDir('sightline-memory-home-');
  dirs.push(root, home);
  const store = Store.open(path.join(home, 'index.db'));
  stores.push(store);
  return { root, store, home };
}

/** Indexes `files` under a ceiling; the phases of every progress event, in order. */
async function phases(files: Record<string, string>, config: Partial<Config>): Promise<IndexProgress['phase'][]> {
  const { root, store, home } = open(files);
  const seen: IndexProgress['phase'][] = [];
  await indexRepository(root, store, { ...defaultConfig(), home, ...config }, { onProgress: (p) => seen.push(p.phase) });
  return seen;
}

/** Forty small files, each three functions (three chunks). */
const FORTY = Object.fromEntries(
  Array.from({ length: 40 }, (_, i) => [
    `src/f${i}.ts`,
    [0, 1, 2].map((j) => `export function f${i}_${j}(x: number): number {\n${'  x = x * 2 + 1;\n'.repeat(30)}  return x;\n}\n`).join('\n'),
  ]),
);

describe('an index pass under maxMemoryMB', () => {
  it('writes one transaction per batch of files, the batch sized by the ceiling', async () => {
    const count = (seen: string[]) => seen.filter((p) => p === 'writing').length;
    const small = memoryPlan(128).batchFiles;
    expect(small).toBeLessThan(40);
    expect(count(await phases(FORTY, { maxMemoryMB: 128, embedder: 'none' }))).toBe(Math.ceil(40 / small));
    expect(count(await phases(FORTY, { maxMemoryMB: 512, embedder: 'none' }))).toBe(1);
  });

  it('sends the embedder pages of chunks sized by the ceiling', async () => {
    const { root, store, home } = open(FORTY);
    const config = { ...defaultConfig(), home, maxMemoryMB: 128 };
    const summary = await indexRepository(root, store, { ...config, embedder: 'none' });
    // The pass tells the pages embedded while the graph resolved as one; the embedding pass alone tells each.
    const messages: number[] = [];
    const embedded = await embedPass(store, config, { onProgress: (p) => p.done > 0 && messages.push(p.done) });
    const page = memoryPlan(128).embedPage;
    expect(summary.chunks).toBeGreaterThan(page);
    expect(embedded?.embedded).toBe(summary.chunks);
    expect(messages).toHaveLength(Math.ceil(summary.chunks / page));
    expect(messages[0]).toBe(page);
  });

  it('resolves the graph a page at a time with the same answers as all at once', async () => {
    const { root, store, home } = open(GRAPH_FILES);
    await indexRepository(root, store, { ...defaultConfig(), home, embedder: 'none' });
    const files = store.files.list().map((f) => f.path).sort();
    const answers = () => files.map((f) => edgesOf(store, f));
    const whole = answers();
    // Every answer forgotten: the pass must find them again, here two edges per page.
    store.db.exec("DELETE FROM edge_targets; UPDATE edges SET status = 0, candidates = 0 WHERE kind != 4");
    const summary = await resolveGraph(store, root, { pageEdges: 2, heapMB: 128, cacheKiB: 2_000 });
    expect(summary.pending).toBeGreaterThan(10);
    expect(summary.answered).toBeGreaterThanOrEqual(summary.pending);
    expect(answers()).toEqual(whole);
  });
});

/** 150 files of three functions, each calling eight others: past the chunks embedded in-thread (256), and 3,600 calls. */
const MANY = Object.fromEntries(
  Array.from({ length: 150 }, (_, i) => [
    `src/g${i}.ts`,
    [0, 1, 2]
      .map((j) => {
        const calls = Array.from({ length: 8 }, (_, k) => `  x = g${(i + k + 1) % 150}_${j}(x);\n`).join('');
        return `export function g${i}_${j}(x: number): number {\n${calls}${'  x = x * 2 + 1;\n'.repeat(24)}  return x;\n}\n`;
      })
      .join('\n'),
  ]),
);

describe('the graph and the vectors, together', () => {
  it('embeds on its thread while the graph resolves on its own, and tells the embedding once the graph is done', async () => {
    const { root, store, home } = open(MANY);
    const seen: { phase: IndexProgress['phase']; done: number }[] = [];
    const config = { ...defaultConfig(), home, maxMemoryMB: 64 }; // pages of 2,000 edges: the graph goes to its thread
    const summary = await indexRepository(root, store, config, { onProgress: (p) => seen.push({ phase: p.phase, done: p.done }) });
    expect(summary.graph).toMatchObject({ workers: 1 });
    expect(summary.graph!.pending).toBeGreaterThan(memoryPlan(64).graphPageEdges);
    expect(summary.chunks).toBeGreaterThan(256);
    expect(summary.embed).toMatchObject({ embedded: summary.chunks, pending: 0, error: null });
    expect(store.edges.pendingCount()).toBe(0);
    const phases = seen.map((s) => s.phase);
    const embedding = seen.filter((s) => s.phase === 'embedding').map((s) => s.done);
    expect(phases.lastIndexOf('resolving')).toBeLessThan(phases.indexOf('embedding'));
    expect(embedding.at(-1)).toBe(summary.chunks);
    expect(embedding).toEqual([...embedding].sort((a, b) => a - b));
  });

  it('an embedding that throws fails the pass with its error once the graph is done, leaving nothing unhandled', async () => {
    const { root, store, home } = open(MANY);
    // Injected fault: the stored space cannot be read.
    store.vectors.identity = () => {
      throw new Error('injected: the vectors cannot be read');
    };
    await expect(indexRepository(root, store, { ...defaultConfig(), home, maxMemoryMB: 64 })).rejects.toThrow(/injected/);
    expect(store.edges.pendingCount()).toBe(0); // the graph went on to the end on its thread
  });

  it('an embedding pass told to stop sends no page, and leaves every chunk pending', async () => {
    const { root, store, home } = open(MANY);
    const config = { ...defaultConfig(), home };
    const { chunks } = await indexRepository(root, store, { ...config, embedder: 'none' });
    const summary = await embedPass(store, config, { signal: AbortSignal.abort(), inThreadMax: 0 });
    expect(summary).toMatchObject({ embedded: 0, pending: chunks, error: null });
  });
});
