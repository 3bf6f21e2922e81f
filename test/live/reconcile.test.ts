/**
 * The periodic reconcile: jittered, catches what no event reported, and
 * retries files that could not be read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IndexJob } from '../../src/engine/jobs.js';
import { search } from '../../src/engine/search.js';
import { startReconcile } from '../../src/index/index.js';
import { writeFiles } from '../helpers/fixture.js';
import { openRepo, scratch, until, writeGenerated } from './helpers.js';

const tmp = scratch();
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  tmp.cleanup();
});

describe('reconcile', () => {
  it('runs on a jittered interval (mean ± 20%), one pass after another, until stopped', async () => {
    vi.useFakeTimers();
    const randoms = [0, 1, 0.5];
    vi.spyOn(Math, 'random').mockImplementation(() => randoms.shift() ?? 0.5);
    let runs = 0;
    const r = startReconcile({ intervalMs: 1_000, run: async () => void runs++, onError: () => {} });
    await vi.advanceTimersByTimeAsync(799);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1); // 1000 × (1 − 0.2)
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(1_199);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(1); // 1000 × (1 + 0.2)
    expect(runs).toBe(2);
    r.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs).toBe(2);
    expect(() => startReconcile({ intervalMs: 0, run: async () => void runs++, onError: () => {} }).stop()).not.toThrow();
  });

  it('catches an edit no event reported', async () => {
    const root = tmp.dir();
    writeGenerated(root, 10);
    const repo = openRepo(root, tmp.dir('sightline-home-'));
    const job = new IndexJob(repo);
    await job.start();
    writeFiles(root, { 'pkg1/missed.ts': 'export function editedWhileNobodyWatched() {}\n' });
    const r = startReconcile({ intervalMs: 100, run: () => job.start({ background: true }), onError: (err) => { throw err; } });
    await until('the reconcile to index the edit', () => search(repo, { query: 'editedWhileNobodyWatched' }).results.length > 0);
    r.stop();
    await job.stop();
    repo.close();
  });

  it('retries a file that could not be read, even though its stat did not change', async () => {
    const root = tmp.dir();
    writeGenerated(root, 2);
    const repo = openRepo(root, tmp.dir('sightline-home-'));
    await repo.index();
    const file = repo.store.files.list()[0]!;
    const st = fs.statSync(path.join(root, file.path));
    // As if the last pass had failed to read it (permissions, a transient I/O error).
    repo.store.transaction(() => {
      repo.store.removeFile(file.path);
      repo.store.recordSkipped({ path: file.path, reason: 'unreadable', detail: 'EACCES', size: st.size, mtimeMs: st.mtimeMs, checkedAtMs: Date.now() + 60_000 });
    });
    const s = await repo.index();
    expect(s.added).toBe(1);
    expect(repo.store.files.get(file.path)?.digest).toBe(file.digest);
    expect(repo.store.skipped()).toEqual([]);
    repo.close();
  });
});
