/**
 * The index job and its lock: recorded status and counters, one pass at a
 * time, a lease a dead or stalled holder cannot keep, the fence that stops a
 * holder that lost it, and background passes that yield to queries.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { jobStatus } from '../../src/engine/index.js';
import { search } from '../../src/engine/search.js';
import { IndexJob } from '../../src/engine/jobs.js';
import { holderDead, withIndexLock } from '../../src/index/index.js';
import { Store } from '../../src/store/index.js';
import { writeFiles } from '../helpers/fixture.js';
import { openRepo, scratch, sleep, until, writeGenerated } from './helpers.js';

const tmp = scratch();
afterEach(() => tmp.cleanup());

function repoWith(n: number) {
  const root = tmp.dir();
  writeGenerated(root, n);
  return { root, home: tmp.dir('sightline-home-') };
}

const me = (owner: string, pid = process.pid, host = os.hostname()) => ({ owner, pid, host });

describe('the index lock', () => {
  it('is exclusive while its holder lives; an expired lease or a dead holder is taken over', () => {
    const { root, home } = repoWith(1);
    const store = openRepo(root, home).store;
    const t = Date.now();
    expect(store.jobs.tryAcquire(me('a'), 30_000, t, holderDead)).toBeUndefined();
    expect(store.jobs.tryAcquire(me('b'), 30_000, t + 1, holderDead)?.owner).toBe('a'); // live: refused
    expect(store.jobs.tryAcquire(me('b'), 30_000, t + 30_001, holderDead)).toBeUndefined(); // expired: taken over
    expect(store.jobs.renew('a', 30_000, t + 30_002)).toBe(false); // the old holder learns it lost it

    // A holder on this host whose process is gone is taken over at once, lease or not.
    store.jobs.release('b');
    expect(store.jobs.tryAcquire(me('ghost', 2 ** 22 + 12345), 30_000, t, holderDead)).toBeUndefined();
    expect(store.jobs.tryAcquire(me('c'), 30_000, t + 1, holderDead)).toBeUndefined();
    // On another host liveness cannot be known: only the lease decides.
    store.jobs.release('c');
    expect(store.jobs.tryAcquire(me('far', 1, 'another-host'), 30_000, t, holderDead)).toBeUndefined();
    expect(store.jobs.tryAcquire(me('d'), 30_000, t + 1, holderDead)?.owner).toBe('far');
    store.close();
  });

  it('a holder that lost its lease is fenced: its next write transaction fails and writes nothing', async () => {
    const { root, home } = repoWith(1);
    const repo = openRepo(root, home);
    const store = repo.store;
    const other = Store.open(repo.dbPath);
    await expect(
      withIndexLock(store, {}, async () => {
        // Another process takes the lock over, as it would once this holder stalled past its lease.
        other.db.prepare("UPDATE index_lock SET owner = 'usurper'").run();
        store.transaction(() => store.setMeta('written_after_losing', 'yes'));
      }),
    ).rejects.toThrow(/took over the index lock/);
    expect(store.getMeta('written_after_losing')).toBeUndefined();
    expect(other.jobs.holder()?.owner).toBe('usurper'); // and it did not release the usurper's lock
    other.close();
    repo.close();
  });

  it('two handles indexing at once take turns: the second waits, then finds nothing left to do', async () => {
    const { root, home } = repoWith(300);
    const a = openRepo(root, home);
    const b = openRepo(root, home);
    let waited = false;
    const first = a.index();
    const second = b.index({ onWait: () => (waited = true) });
    const [sa, sb] = await Promise.all([first, second]);
    expect(waited).toBe(true);
    expect(sa.added).toBe(300);
    expect(sb).toMatchObject({ added: 0, updated: 0, unchanged: 300 });
    expect(jobStatus(a).attempts).toBe(2);
    a.close();
    b.close();
  });
});

describe('the job record', () => {
  it('reports status, phase, counters, attempts, times and the summary, and is none before any pass', async () => {
    const { root, home } = repoWith(20);
    const repo = openRepo(root, home);
    expect(jobStatus(repo)).toMatchObject({ status: 'none', attempts: 0, phase: null });
    await repo.index();
    const s = jobStatus(repo);
    expect(s).toMatchObject({ status: 'completed', phase: 'done', attempts: 1, error: null, pid: process.pid });
    expect(s.counts).toMatchObject({ scanned: 20, added: 20, updated: 0, removed: 0, skipped: 0, vectors: 0 });
    expect(s.counts.chunks).toBeGreaterThanOrEqual(20);
    expect(s.summary?.added).toBe(20);
    expect(s.started_at! <= s.ended_at!).toBe(true);
    writeFiles(root, { 'extra.ts': 'export const extra = 1;\n' });
    await repo.index();
    expect(jobStatus(repo)).toMatchObject({ status: 'completed', attempts: 2, counts: expect.objectContaining({ added: 1, unchanged: 20 }) });
    repo.close();
  });

  it('a pass that fails says why, keeps the phase it stopped in, and leaves the lock free', async () => {
    const { root, home } = repoWith(5);
    const repo = openRepo(root, home);
    await expect(
      repo.index({
        onProgress: (p) => {
          if (p.phase === 'parsing') throw new Error('simulated parser crash');
        },
      }),
    ).rejects.toThrow('simulated parser crash');
    const s = jobStatus(repo);
    expect(s).toMatchObject({ status: 'failed', phase: 'parsing' });
    expect(s.error).toMatch(/simulated parser crash/);
    expect(repo.store.jobs.holder()).toBeUndefined();
    await repo.index(); // and the next one runs
    expect(jobStatus(repo).status).toBe('completed');
    repo.close();
  });
});

describe('a first index, while its graph resolves', () => {
  it('is keyword-searchable already, with its references still pending', async () => {
    const root = tmp.dir();
    writeFiles(root, {
      'src/helper.ts': 'export function tallyWidgets(n: number): number {\n  return n + 1;\n}\n',
      'src/user.ts': "import { tallyWidgets } from './helper';\n\nexport function countInventory(): number {\n  return tallyWidgets(2);\n}\n",
    });
    const repo = openRepo(root, tmp.dir('sightline-home-'));
    let seen: { searchable: boolean; pending: number; found: string[] } | undefined;
    await repo.index({
      onProgress: (p) => {
        if (p.phase !== 'resolving' || seen) return;
        const found = search(repo, { query: 'count inventory', mode: 'keyword', force: true }).results.map((r) => r.path);
        seen = { searchable: repo.hasIndex(), pending: repo.store.edges.pendingCount(), found };
      },
    });
    expect(seen).toMatchObject({ searchable: true, found: ['src/user.ts'] });
    expect(seen!.pending).toBeGreaterThan(0);
    expect(repo.store.edges.pendingCount()).toBe(0); // resolved by the end of the pass
    repo.close();
  });
});

describe('IndexJob (one process: merged requests, background passes)', () => {
  it('records the pass before start() returns, so a caller polling right away never sees the last one', async () => {
    const { root, home } = repoWith(5);
    const repo = openRepo(root, home);
    const job = new IndexJob(repo);
    await job.start();
    const pass = job.start();
    expect(job.snapshot()).toMatchObject({ status: 'running', attempts: 2 });
    await pass;
    repo.close();
  });

  it('a background pass waits while queries arrive, and finishes once they stop', async () => {
    const { root, home } = repoWith(200);
    const repo = openRepo(root, home);
    const job = new IndexJob(repo);
    job.ensureIndexed(); // a query arrives and starts the first index in the background
    const until_ = Date.now() + 1_000;
    while (Date.now() < until_) {
      job.ensureIndexed(); // …and queries keep coming
      await sleep(20);
    }
    expect(job.snapshot().status).toBe('running');
    expect(repo.store.counts().files).toBe(0); // nothing written while it yielded
    await until('the pass to finish once queries stop', () => job.snapshot().status === 'completed');
    expect(repo.store.counts().files).toBe(200);
    repo.close();
  });

  it('stop() ends the running pass at its next file; the next pass resumes it', async () => {
    const { root, home } = repoWith(300);
    const repo = openRepo(root, home);
    const job = new IndexJob(repo);
    const pass = job.start();
    await until('the pass to be parsing', () => job.snapshot().phase === 'parsing');
    await job.stop();
    await expect(pass).rejects.toThrow(/stopped before it finished/);
    expect(jobStatus(repo)).toMatchObject({ status: 'failed' });
    const again = await openRepo(root, home).index();
    expect(again.added + again.unchanged).toBe(300);
    repo.close();
  });
});

describe('scoped passes (what a watcher asks for)', () => {
  it('look only at the given paths: an edit, an addition, a deletion, a deleted directory, an ignored file', async () => {
    const { root, home } = repoWith(40);
    writeFiles(root, { '.gitignore': '*.log\n', 'gone/a.ts': 'export const a = 1;\n', 'gone/deep/b.ts': 'export const b = 1;\n' });
    const repo = openRepo(root, home);
    await repo.index();
    writeFiles(root, { 'pkg1/mod0/file1.ts': 'export function scopedEdit() {}\n', 'fresh.ts': 'export function scopedAdd() {}\n', 'trace.log': 'x\n' });
    fs.rmSync(path.join(root, 'pkg2/mod0/file2.py'));
    fs.rmSync(path.join(root, 'gone'), { recursive: true });
    const s = await repo.index({ paths: ['pkg1/mod0/file1.ts', 'fresh.ts', 'pkg2/mod0/file2.py', 'gone', 'trace.log'] });
    expect(s).toMatchObject({ scanned: 2, added: 1, updated: 1, removed: 3, unchanged: 0, skipped: { gitignore: 1 } });
    const paths = repo.store.files.list().map((f) => f.path);
    expect(paths).toContain('fresh.ts');
    expect(paths).not.toContain('pkg2/mod0/file2.py');
    expect(paths.filter((p) => p.startsWith('gone/'))).toEqual([]);
    expect(paths).toHaveLength(40 + 2 - 1); // nothing else was touched
    repo.close();
  });

  it('a path that is a directory makes it a full walk (its files were not reported one by one)', async () => {
    const { root, home } = repoWith(10);
    const repo = openRepo(root, home);
    await repo.index();
    writeFiles(root, { 'newdir/x.ts': 'export const x = 1;\n', 'elsewhere.ts': 'export const e = 1;\n' });
    const s = await repo.index({ paths: ['newdir'] });
    expect(s).toMatchObject({ scanned: 12, added: 2 });
    repo.close();
  });

  it('IndexJob merges the paths of requests made during a pass; a request for the whole tree wins', async () => {
    const { root, home } = repoWith(200);
    const repo = openRepo(root, home);
    const job = new IndexJob(repo);
    const first = job.start();
    writeFiles(root, { 'a.ts': 'export const a = 1;\n', 'b.ts': 'export const b = 1;\n' });
    const merged = job.start({ paths: ['a.ts'] });
    expect(job.start({ paths: ['b.ts'] })).toBe(merged);
    await first;
    expect((await merged).scanned).toBe(2); // one pass over both files, not a walk
    const scoped = job.start({ paths: ['a.ts'] });
    const whole = job.start();
    await scoped;
    expect((await whole).scanned).toBe(202);
    repo.close();
  });
});
