// Entries that vanish or become unreadable between readdir and stat must be
// skipped, never thrown. Timing such races on a real disk is unreliable, so
// node:fs is wrapped to fail for chosen paths, deterministically.
import * as path from 'node:path';
import { describe, expect, it, vi } from 'vitest';

const failures = new Map<string, string>(); // abs path -> error code

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
  const readdirSync = failing(actual.readdirSync);
  return { ...actual, default: { ...actual, statSync, readdirSync }, statSync, readdirSync };
});

const { walk } = await import('../../src/walk/index.js');
const { makeTree } = await import('./helpers.js');

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
