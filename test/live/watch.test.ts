/**
 * Watch mode: debounced, de-duplicated passes from real file-system events
 * (@parcel/watcher), ignored paths never triggering, and a burst of a thousand
 * writes costing one or two passes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Live, type Repo } from '../../src/engine/index.js';
import { IndexJob } from '../../src/engine/jobs.js';
import { keepLive } from '../../src/engine/live.js';
import { search } from '../../src/engine/search.js';
import { Coalescer, watchTree, type TreeWatcher } from '../../src/index/index.js';
import { debounce } from '../../src/index/watch.js';
import { writeFiles } from '../helpers/fixture.js';
import { openRepo, scratch, sleep, until, writeGenerated } from './helpers.js';

const tmp = scratch();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  tmp.cleanup();
});

/** A deferred task whose runs the test finishes by hand, recording overlap. */
function manualTask() {
  const finishers: (() => void)[] = [];
  let active = 0;
  let maxActive = 0;
  const task = () => {
    active++;
    maxActive = Math.max(maxActive, active);
    return new Promise<number>((resolve) => finishers.push(() => (active--, resolve(finishers.length))));
  };
  return { task, finishers, get maxActive() { return maxActive; } };
}

describe('debounce', () => {
  afterEach(() => vi.useRealTimers());
  const fixed = (quietMs: number, maxWaitMs: number) => ({ settleMs: quietMs, quietMs, maxWaitMs });

  it('fires once, the quiet period after the last of a stream of pokes', () => {
    vi.useFakeTimers();
    const fire = vi.fn();
    const d = debounce(fixed(300, 3_000), fire);
    for (let i = 0; i < 10; i++) {
      d.poke();
      vi.advanceTimersByTime(40);
    }
    expect(fire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(259);
    expect(fire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fire).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(fire).toHaveBeenCalledTimes(1);
  });

  it('a stream that never pauses fires every maxWait, not never', () => {
    vi.useFakeTimers();
    const fire = vi.fn();
    const d = debounce(fixed(300, 1_000), fire);
    for (let t = 0; t < 2_500; t += 50) {
      d.poke();
      vi.advanceTimersByTime(50);
    }
    expect(fire).toHaveBeenCalledTimes(2);
  });

  it('a lone change after a quiet spell fires after the settle time, not the debounce', () => {
    vi.useFakeTimers();
    const fire = vi.fn();
    const d = debounce({ settleMs: 30, quietMs: 300, maxWaitMs: 3_000 }, fire);
    d.poke();
    vi.advanceTimersByTime(29);
    expect(fire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fire).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1_000); // quiet again: the next lone change settles as fast
    d.poke();
    vi.advanceTimersByTime(30);
    expect(fire).toHaveBeenCalledTimes(2);
  });

  it('a poke close behind another waits the whole debounce: a burst fires once, after it ends', () => {
    vi.useFakeTimers();
    const fire = vi.fn();
    const d = debounce({ settleMs: 30, quietMs: 300, maxWaitMs: 3_000 }, fire);
    for (let i = 0; i < 200; i++) {
      d.poke(); // 200 events 5 ms apart: a checkout rewriting files
      vi.advanceTimersByTime(5);
    }
    expect(fire).toHaveBeenCalledTimes(0); // the first poke's 30 ms were cut short by the second, which waits 300
    vi.advanceTimersByTime(294);
    expect(fire).toHaveBeenCalledTimes(0); // waits the whole debounce after the last poke
    vi.advanceTimersByTime(1);
    expect(fire).toHaveBeenCalledTimes(1);
  });

  it('pokes a little further apart than the settle time get one early pass, then one after the stream', () => {
    vi.useFakeTimers();
    const fire = vi.fn();
    const d = debounce({ settleMs: 30, quietMs: 300, maxWaitMs: 3_000 }, fire);
    for (let i = 0; i < 10; i++) {
      d.poke();
      vi.advanceTimersByTime(40);
    }
    expect(fire).toHaveBeenCalledTimes(1); // after the first: it came after a quiet spell
    vi.advanceTimersByTime(300);
    expect(fire).toHaveBeenCalledTimes(2);
  });

  it('a poke just after a pass ended (busy) waits the whole debounce: late events of a burst are one more pass', () => {
    vi.useFakeTimers();
    const fire = vi.fn();
    const d = debounce({ settleMs: 30, quietMs: 300, maxWaitMs: 3_000 }, fire);
    d.busy();
    vi.advanceTimersByTime(100);
    d.poke();
    vi.advanceTimersByTime(299);
    expect(fire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fire).toHaveBeenCalledTimes(1);
  });

  it('never waits longer than the debounce, even when the settle time is set above it', () => {
    vi.useFakeTimers();
    const fire = vi.fn();
    const d = debounce({ settleMs: 5_000, quietMs: 100, maxWaitMs: 3_000 }, fire);
    d.poke();
    vi.advanceTimersByTime(100);
    expect(fire).toHaveBeenCalledTimes(1);
  });
});

describe('Coalescer (the de-duplication under every watch pass)', () => {
  it('never runs twice at once, and merges every request made during a run into exactly one more', async () => {
    const m = manualTask();
    const c = new Coalescer(m.task);
    const first = c.request();
    const during = [c.request(), c.request(), c.request()];
    expect(m.finishers).toHaveLength(1); // the follow-up waits for the first run
    expect(new Set(during).size).toBe(1); // all three requests share one follow-up
    m.finishers[0]!();
    await first;
    await until('the follow-up run', () => m.finishers.length === 2);
    const late = c.request(); // made during the follow-up: one more after it
    m.finishers[1]!();
    await during[0];
    await until('the third run', () => m.finishers.length === 3);
    m.finishers[2]!();
    await late;
    await c.idle();
    expect(m.finishers).toHaveLength(3);
    expect(m.maxActive).toBe(1);
  });

  it('a failed run does not block the next', async () => {
    let calls = 0;
    const c = new Coalescer(async () => {
      if (++calls === 1) throw new Error('boom');
      return calls;
    });
    await expect(c.request()).rejects.toThrow('boom');
    await expect(c.request()).resolves.toBe(2);
  });
});

async function watchCounting(root: string, debounceMs: number, extra: Partial<Parameters<typeof watchTree>[0]> = {}) {
  const scans: number[] = [];
  const w: TreeWatcher = await watchTree({
    walk: { root, excludeDirs: ['.git', 'node_modules', 'dist'] },
    debounceMs,
    scan: async () => void scans.push(Date.now()),
    onError: (err) => {
      throw err;
    },
    ...extra,
  });
  closers.push(() => w.close());
  return { w, scans };
}

describe('watchTree', () => {
  it('paths the walker skips never trigger a scan: default excludes, gitignored files and directories, .git internals', async () => {
    const root = tmp.dir();
    writeFiles(root, { '.gitignore': '*.log\ngenerated/\n', 'src/a.ts': 'export const a = 1;\n', 'generated/.keep': '', 'node_modules/dep/.keep': '', '.git/.keep': '' });
    const { w, scans } = await watchCounting(root, 30);
    writeFiles(root, {
      'node_modules/dep/index.js': 'module.exports = 1;\n',
      'build.log': 'noise\n',
      'src/deep/trace.log': 'noise\n',
      'generated/out.ts': 'export const g = 1;\n',
      '.git/index': 'binary-ish',
      'dist/bundle.js': 'x',
    });
    await sleep(600); // twenty debounce windows: anything that counted would have fired
    expect(w.scans).toBe(0);
    expect(scans).toHaveLength(0);

    writeFiles(root, { 'src/b.ts': 'export const b = 2;\n' }); // the control: an indexable file does
    await until('a scan for src/b.ts', () => scans.length === 1);
  });

  it("a source package named like a build output is watched; a project's own output is not", async () => {
    const root = tmp.dir();
    writeFiles(root, { 'packages/lib/package.json': '{}\n', 'packages/lib/dist/.keep': '', 'build/.keep': '', 'src/org/io/build/.keep': '' });
    const { scans } = await watchCounting(root, 30, { walk: { root, excludeDirs: ['.git', 'node_modules', 'dist', 'build'] } });
    writeFiles(root, { 'packages/lib/dist/lib.js': 'compiled\n', 'build/out.js': 'compiled\n' });
    await sleep(400);
    expect(scans).toHaveLength(0);
    writeFiles(root, { 'src/org/io/build/Builder.java': 'class Builder {}\n' }); // org.apache.commons.io.build's kind
    await until('a scan for the source package', () => scans.length === 1);
  });

  it('a .gitignore change reloads the rules and counts as a change', async () => {
    const root = tmp.dir();
    writeFiles(root, { 'src/a.ts': 'export const a = 1;\n' });
    const { scans } = await watchCounting(root, 30);
    writeFiles(root, { '.gitignore': '*.gen.ts\n' });
    await until('a scan for the new .gitignore', () => scans.length >= 1);
    await sleep(300); // its create and update events may come apart: let them settle
    const settled = scans.length;
    writeFiles(root, { 'src/x.gen.ts': 'export const x = 1;\n' });
    await sleep(400);
    expect(scans).toHaveLength(settled);
  });

  it('a directory moved in from outside is one event, but its files are indexable: it triggers; one holding only ignored files does not', async () => {
    const root = tmp.dir();
    const outside = tmp.dir();
    writeFiles(root, { '.gitignore': '*.log\n', 'a.ts': '' });
    writeFiles(outside, { 'logs/x.log': 'noise\n', 'lib/deep/mod.ts': 'export const m = 1;\n' });
    const { scans } = await watchCounting(root, 30);
    fs.renameSync(path.join(outside, 'logs'), path.join(root, 'logs'));
    await sleep(400);
    expect(scans).toHaveLength(0);
    fs.renameSync(path.join(outside, 'lib'), path.join(root, 'lib'));
    await until('a scan for the moved-in directory', () => scans.length === 1);
    fs.rmSync(path.join(root, 'lib'), { recursive: true }); // reported as directory deletions only
    await until('a scan for the deleted directory', () => scans.length === 2);
  });

  it('a stream that never pauses still gets scanned (maxWait)', async () => {
    const root = tmp.dir();
    writeFiles(root, { 'a.ts': '' });
    const { scans } = await watchCounting(root, 100, { maxWaitMs: 300 });
    const stopAt = Date.now() + 1_000;
    for (let i = 0; Date.now() < stopAt; i++) {
      fs.writeFileSync(path.join(root, 'a.ts'), `export const v = ${i};\n`);
      await sleep(20);
    }
    expect(scans.length).toBeGreaterThanOrEqual(2);
  });
});

describe('keepLive (watch mode on a real index)', () => {
  async function live(root: string, home: string, debounceMs = 100): Promise<{ repo: Repo; live: Live; passes: () => number }> {
    const repo = openRepo(root, home, { reconcileIntervalMs: 0 });
    const l = await keepLive(repo, new IndexJob(repo), { debounceMs, onError: (err) => { throw err; } });
    let passes = 0;
    l.job.onPass((r) => {
      if (!r.ok) throw new Error(r.error);
      passes++;
    });
    closers.push(async () => {
      await l.close();
      repo.close();
    });
    await until('the catch-up pass', () => l.job.snapshot().status === 'completed');
    return { repo, live: l, passes: () => passes };
  }

  it('an edit becomes searchable without asking, and a deleted file disappears', async () => {
    const root = tmp.dir();
    const home = tmp.dir('sightline-home-');
    writeGenerated(root, 40);
    const { repo } = await live(root, home);
    writeFiles(root, { 'pkg1/fresh.ts': 'export function freshlyWrittenHelper() { return 42; }\n' });
    await until('the new function to be searchable', () => search(repo, { query: 'freshlyWrittenHelper' }).results.length > 0);
    fs.rmSync(path.join(root, 'pkg1/fresh.ts'));
    await until('the deleted file to leave the index', () => search(repo, { query: 'freshlyWrittenHelper' }).results.length === 0);
  });

  // The first event of a burst fires after the settle time (30 ms), so a pass can start while the rest is
  // still being delivered; what arrives during it is one more pass, and late stragglers at most one after.
  it('a burst of 1,000 file writes (a branch switch) costs at most three passes, and all of it is indexed', async () => {
    const root = tmp.dir();
    const home = tmp.dir('sightline-home-');
    writeGenerated(root, 100);
    const { repo, live: l, passes } = await live(root, home, 300);
    const before = passes();
    writeGenerated(root, 1_000, () => 2); // rewrites 100, adds 900
    await until('every file at version 2', () => l.job.snapshot().status === 'completed' && repo.store.counts().files === 1_000 && search(repo, { query: 'fn_999_2_v2' }).results.length > 0, 60_000, 100);
    await sleep(800); // a late extra pass would show up here
    expect(passes() - before).toBeGreaterThanOrEqual(1);
    expect(passes() - before).toBeLessThanOrEqual(3);
  });
});
