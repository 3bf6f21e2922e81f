/**
 * Issue 21: caller text reached FTS5 MATCH as syntax (`a' OR "b` answered
 * "internal error: fts5: syntax error"). A seeded property test: thousands of
 * random printable and control strings through every tool that searches the
 * FTS index, and the store's own entry points; each must answer or refuse
 * with a named usage refusal, never fail otherwise.
 */
import { describe, expect, it } from 'vitest';
import { packContext } from '../../src/engine/context.js';
import { explore } from '../../src/engine/explore.js';
import { gatedLocate } from '../../src/engine/locate.js';
import { gatedSearch } from '../../src/engine/search-gate.js';
import { SightlineError } from '../../src/errors/index.js';
import { useIndexedRepo } from '../helpers/fixture.js';

const fixture = useIndexedRepo();

const SYNTAX = ['"', "'", '`', '*', '^', ':', '(', ')', '{', '}', '-', '+', ',', ';', 'OR', 'AND', 'NOT', 'NEAR', 'NEAR(', '""', '\\', '%', '$', '#'];
const CONTROL = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).concat('\u007f', '\u2028', '\ufeff');
const WORDS = ['session', 'getUserName', 'token', 'DROP TABLE files;--', 'x', 'é', '漢字', '🙂'];

/** A seeded generator: the same strings on every run, so a failure reproduces. */
function randomStrings(count: number, seed: number): string[] {
  let x = seed >>> 0;
  const next = (n: number) => {
    x = (x * 1103515245 + 12345) >>> 0;
    return (x >>> 8) % n;
  };
  const pools = [SYNTAX, CONTROL, WORDS, Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i))];
  return Array.from({ length: count }, () => {
    let s = '';
    for (let len = 1 + next(12); len > 0; len--) {
      const pool = pools[next(pools.length)]!;
      s += pool[next(pool.length)]! + (next(3) === 0 ? ' ' : '');
    }
    return s;
  });
}

const KNOWN = ["\"'`;DROP TABLE files;--", 'a\' OR "b', 'NEAR(a b)', 'a*', '^a', 'path:x', '"unterminated', '-x', 'a AND', '\u0000session'];

/** Runs `call`; a refusal must be a usage or not-found sentence, anything else fails the test with the input. */
function answersOrRefuses(input: string, call: () => unknown): void {
  try {
    call();
  } catch (err) {
    const named = err instanceof SightlineError && (err.code === 'usage' || err.code === 'not_found');
    expect(named, `${JSON.stringify(input)} → ${(err as Error).message}`).toBe(true);
  }
}

describe('FTS5 reads caller text as literals only', () => {
  it('search, locate and the store answer or refuse by name for every string', () => {
    const { repo } = fixture;
    for (const s of [...KNOWN, ...randomStrings(3_000, 21)]) {
      answersOrRefuses(s, () => gatedSearch(repo, { query: s, force: true }));
      answersOrRefuses(s, () => gatedLocate(repo, { query: s, force: true }));
      expect(() => repo.store.chunks.lexical([s], 5)).not.toThrow();
      expect(() => repo.store.history.lexical([s, s], 5)).not.toThrow();
    }
  }, 120_000);

  it('context and explore answer or refuse by name for every string', () => {
    const { repo } = fixture;
    for (const s of [...KNOWN, ...randomStrings(400, 22)]) {
      answersOrRefuses(s, () => packContext(repo, { task: s, budgetTokens: 2_000 }));
      answersOrRefuses(s, () => explore(repo, { question: s, force: true }));
      answersOrRefuses(s, () => explore(repo, { question: 'who calls it', anchor: s, force: true }));
    }
  }, 120_000);

  it('finds a reference named with a quote as nothing, not as an error', () => {
    const located = gatedLocate(fixture.repo, { query: 'a\' OR "b', force: true });
    expect(located).toMatchObject({ status: 'ok' });
  });
});
