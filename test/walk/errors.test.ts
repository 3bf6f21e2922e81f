// Entries that vanish or become unreadable between readdir and stat must be
// skipped, never thrown. Timing such races on a real disk is unreliable, so
// node:fs is wrapped to fail for chosen paths, deterministically. The wrapper
// also counts directory reads, to see how many go between turns of the event loop.
import * as path from 'node:path';
import { describe, expect, it, vi } from 'vitest';

const failures = new Map<string, string>(); // abs path -> error code
const reads = { dirs: 0 };

function fail(code: string, p: string): NodeJS.ErrnoException {
  const err = new Error(`${code}: simulated, '${p}'`) as NodeJS.ErrnoException;
  err.code = code;
  return err;
}

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  // The walker reads directories and stats their files synchronously.
  const failing = <F extends (...a: never[]) => unknown>(f: F): F =>
    ((p: string, ...rest: unknown[]) => {
      const code = failures.get(String(p));
      if (code) throw fail(code, String(p));
      return (f as unknown as (...a: unknown[]) => unknown)(p, ...rest);
    }) as unknown as F;
  const statSync = failing(actual.statSync);
  const readdirSync = failing(((...a: Parameters<typeof actual.readdirSync>) => {
    reads.dirs++;
    return actual.readdirSync(...a);
  }) as typeof actual.readdirSync);
  return { ...actual, default: { ...actual, statSync, readdirSync }, statSync, readdirSync };
});

const { walk } = await import('../../src/walk/index.js');
const { makeTree, writeTree, tempDir } = await import('./helpers.js');

describe('races between readdir and stat', () => {
  it('skips a file that vanished and a directory that became unreadable', async () => {
    const root = makeTree({ 'a.ts': 'x', 'gone.ts': 'x', 'locked/inner.ts': 'x', 'ok/b.ts': 'x' });
    failures.set(path.join(root, 'gone.ts'), 'ENOENT');
    failures.set(path.join(root, 'locked'), 'EACCES');
    try {
      const r = await walk({ root });
      expect(r.files.map((f) => f.path)).toEqual(['a.ts', 'ok/b.ts']);
      expect(r.skipped).toEqual([
        { path: 'gone.ts', reason: 'unreadable', rule: 'ENOENT' },
        { path: 'locked/', reason: 'unreadable', rule: 'EACCES' },
      ]);
    } finally {
      failures.clear();
    }
  });
});

describe('a walk of many directories', () => {
  it('reads a bounded number of them per turn of the event loop, so a server that walks keeps answering', async () => {
    const root = tempDir();
    const spec: Record<string, string> = {};
    for (let i = 0; i < 600; i++) spec[`p${i % 6}/d${i}/e/f${i}.ts`] = 'x'; // 1,200 directories, most of them waiting at once
    writeTree(root, spec);
    let last = reads.dirs;
    let most = 0;
    let walking = true;
    const tick = () => {
      most = Math.max(most, reads.dirs - last);
      last = reads.dirs;
      if (walking) setImmediate(tick);
    };
    setImmediate(tick);
    const r = await walk({ root });
    walking = false;
    expect(r.files).toHaveLength(600);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(2 * 64); // a turn lets 64 through; the walk's first reads come before the first tick
  });
});
