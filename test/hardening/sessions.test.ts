/**
 * Issue 21: a read-only tool could fill the disk, storing the caller's
 * session string in every receipt row for a day. Names are bounded at the
 * edge; receipts are capped per session and in all; expired rows go.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { packContext } from '../../src/engine/context.js';
import { SESSION_TOUCH_GRAIN_MS, SESSION_TTL_MS, SessionTable } from '../../src/store/sessions.js';
import { useIndexedRepo } from '../helpers/fixture.js';

const fixture = useIndexedRepo();

function table(caps: { perSession: number; receipts: number; sessions: number }) {
  const { db } = fixture.repo.store;
  db.exec('DELETE FROM budget_sessions');
  let now = 1_000_000;
  const t = new SessionTable(db, () => now, caps);
  const count = (sql: string, ...args: string[]) => db.prepare(sql).pluck().get(...args) as number;
  return {
    t,
    advance: (ms: number) => (now += ms),
    receiptsOf: (id: string) => count('SELECT count(*) FROM budget_receipts WHERE session_id = ?', id),
    receipts: () => count('SELECT count(*) FROM budget_receipts'),
    sessions: () => count('SELECT count(*) FROM budget_sessions'),
  };
}

describe('session storage is bounded', () => {
  it('keeps at most perSession receipts in one session', () => {
    const s = table({ perSession: 5, receipts: 100, sessions: 10 });
    s.t.record('a', Array.from({ length: 8 }, (_, i) => `r${i}`));
    s.t.record('a', ['late']);
    expect(s.receiptsOf('a')).toBe(5);
    expect(s.t.holds('a', 'r4')).toBe(true);
    expect(s.t.holds('a', 'late')).toBe(false);
  });

  it('drops the least recently used sessions whole past the total receipt cap and the session cap', () => {
    const s = table({ perSession: 5, receipts: 12, sessions: 3 });
    for (const id of ['a', 'b', 'c']) {
      s.t.record(id, ['1', '2', '3', '4', '5']);
      s.advance(1);
    }
    expect(s.receipts()).toBeLessThanOrEqual(12);
    expect(s.receiptsOf('a')).toBe(0);
    expect(s.receiptsOf('c')).toBe(5);
    for (const id of ['d', 'e']) {
      s.t.touch(id);
      s.advance(1);
    }
    expect(s.sessions()).toBe(3);
    expect(s.receiptsOf('e') + s.receiptsOf('d')).toBe(0);
  });

  it('purges sessions idle past the TTL, with their receipts', () => {
    const s = table({ perSession: 5, receipts: 100, sessions: 10 });
    s.t.record('old', ['x']);
    s.advance(SESSION_TTL_MS + 1);
    s.t.touch('new');
    expect(s.receiptsOf('old')).toBe(0);
    expect(s.sessions()).toBe(1);
  });
});

describe("a session's bookkeeping writes only what changed", () => {
  it('a live session touched again within the grain, and a run of no refusals cleared, change no row', () => {
    const s = table({ perSession: 5, receipts: 100, sessions: 10 });
    const changed = (step: () => void) => {
      const before = s.t.changes;
      step();
      return s.t.changes - before;
    };
    const timeOf = () => fixture.repo.store.db.prepare('SELECT updated_at_ms FROM budget_sessions WHERE id = ?').pluck().get('a') as number;
    expect(changed(() => s.t.touch('a'))).toBe(1); // created
    const created = timeOf();
    s.advance(SESSION_TOUCH_GRAIN_MS - 1);
    expect(changed(() => s.t.touch('a'))).toBe(0);
    expect(changed(() => s.t.clearRefusals('a'))).toBe(0);
    expect(timeOf()).toBe(created);
    s.advance(1);
    expect(changed(() => s.t.touch('a'))).toBe(1); // a grain later the time moves
    expect(timeOf()).toBe(created + SESSION_TOUCH_GRAIN_MS);
    expect(s.t.refuse('a', 3)).toBe(1);
    expect(changed(() => s.t.clearRefusals('a'))).toBe(1); // a run to end
    expect(s.t.refusals('a')).toBe(0);
  });
});

describe("a session's reads wait on no writer", () => {
  it('touching a live session and clearing a run of none take no write lock', () => {
    const s = table({ perSession: 5, receipts: 100, sessions: 10 });
    s.t.touch('a');
    const { db, path: dbPath } = fixture.repo.store;
    const timeout = db.pragma('busy_timeout', { simple: true }) as number;
    const other = new Database(dbPath);
    db.pragma('busy_timeout = 0'); // a statement that needs the write lock fails at once instead of waiting
    other.exec('BEGIN IMMEDIATE');
    try {
      s.advance(SESSION_TOUCH_GRAIN_MS - 1);
      s.t.touch('a');
      s.t.clearRefusals('a');
      s.advance(1);
      expect(() => s.t.touch('a')).toThrow(/locked|busy/i); // a grain later the time moves, so it needs the lock
    } finally {
      other.exec('ROLLBACK');
      other.close();
      db.pragma(`busy_timeout = ${timeout}`);
    }
  });
});

describe('session names are checked at the edge', () => {
  it('refuses an over-long name or one with other characters, by name', () => {
    for (const session of ['x'.repeat(1_000_000), 'has space', 'new\nline', 'semi;colon']) {
      expect(() => packContext(fixture.repo, { task: 'hash a token', session })).toThrow(/^session must be 1 to 128 letters, digits/);
    }
    expect(packContext(fixture.repo, { task: 'hash a token', session: 'task-42:a.b_c' }).status).toBe('ok');
  });
});
