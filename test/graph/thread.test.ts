/**
 * Graph resolution runs on a worker thread with its own connection (graph/thread.ts): the
 * answers must be the ones the calling thread gives; a worker that reaches its heap cap is
 * replaced and the pass still answers every edge; any other failure ends it with its error.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/index.js';
import { resolveGraph, type ResolvePlan } from '../../src/graph/index.js';
import { indexRepository } from '../../src/index/index.js';
import { Store } from '../../src/store/index.js';
import { makeRepo, removeDir, tempDir } from '../helpers/fixture.js';
import { GRAPH_FILES } from './fixture.js';
import { edgesOf } from './helpers.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(() => {
  stores.splice(0).forEach((s) => s.close());
  dirs.splice(0).forEach(removeDir);
});

/** GRAPH_FILES indexed (its few edges resolved on this thread), with the answers that gave. */
async function indexed() {
  const root = makeRepo(GRAPH_FILES);
  const home = tempDir('sightline-thread-home-');
  dirs.push(root, home);
  const store = Store.open(path.join(home, 'index.db'));
  stores.push(store);
  const summary = await indexRepository(root, store, { ...defaultConfig(), home, embedder: 'none' });
  const files = store.files.list().map((f) => f.path).sort();
  const answers = () => files.map((f) => edgesOf(store, f));
  return { root, store, summary, answers, inThread: answers() };
}

/** Every answer forgotten: the next resolution must find them all again. */
function forget(store: Store): void {
  store.db.exec('DELETE FROM edge_targets; UPDATE edges SET status = 0, candidates = 0 WHERE kind != 4');
}

/** Rows this connection changed so far (SQLite's total_changes): another connection's writes do not count. */
const changedHere = (store: Store) => store.db.prepare('SELECT total_changes()').pluck().get() as number;

/** Two edges a page: more pending than a page, so a worker answers them. */
const PLAN: ResolvePlan = { pageEdges: 2, heapMB: 128, cacheKiB: 2_000 };

describe('graph resolution on a worker thread', () => {
  it('gives the answers the calling thread gives, written by its own connection', async () => {
    const { root, store, summary, answers, inThread } = await indexed();
    expect(summary.graph?.workers).toBe(0); // an edit's few edges are answered in place
    forget(store);
    const before = changedHere(store);
    const resolved = await resolveGraph(store, root, PLAN);
    expect(resolved.workers).toBe(1);
    expect(resolved.pending).toBeGreaterThan(PLAN.pageEdges);
    expect(resolved.answered).toBe(resolved.pending);
    expect(changedHere(store)).toBe(before); // every answer came through the worker's connection
    expect(answers()).toEqual(inThread);
  });

  it('replaces a worker that reached its heap cap, then answers the rest on this thread: nothing lost', async () => {
    const { root, store, answers, inThread } = await indexed();
    forget(store);
    // A cap no worker starts under: each one dies of its heap, as a page too large for the cap would.
    const resolved = await resolveGraph(store, root, { ...PLAN, heapMB: 1 });
    expect(resolved.workers).toBe(3);
    expect(resolved.answered).toBe(resolved.pending);
    expect(store.edges.pendingCount()).toBe(0);
    expect(answers()).toEqual(inThread);
  });

  it("stops with the fence's error when the pass lost its lease, and the worker writes nothing", async () => {
    const { root, store } = await indexed();
    forget(store);
    const pending = store.edges.pendingCount();
    store.db.prepare("INSERT OR REPLACE INTO index_lock(id, owner, pid, host, acquired_at_ms, expires_at_ms) VALUES (1, 'usurper', 1, 'elsewhere', 0, 9e15)").run();
    store.fenceWrites({ owner: 'this pass', leaseMs: 30_000 });
    try {
      await expect(resolveGraph(store, root, PLAN)).rejects.toThrow(/took over the index lock/);
    } finally {
      store.fenceWrites(null);
    }
    expect(store.edges.pendingCount()).toBe(pending);
  });
});
