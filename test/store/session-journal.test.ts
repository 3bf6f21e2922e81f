/**
 * A read-only connection (a read-pool worker's) journals session writes
 * instead of running them, reads its own writes back, and the writer's
 * replay leaves the index as the writes would have; a pinned read answers
 * for the version it was given, in one read transaction.
 */
import { describe, expect, it } from 'vitest';
import { replaySessionWrite, Store } from '../../src/store/index.js';
import { useIndexedRepo } from '../helpers/fixture.js';

const fixture = useIndexedRepo();

describe('the session journal of a read-only connection', () => {
  it('journals touch, cleared refusals and receipts, reads them back, and the replay writes them; a refusal is counted by the writer at once', () => {
    const writer = fixture.repo.store;
    const { store, journal } = Store.openReadOnly(writer.path, (id, max) => writer.sessions.refuse(id, max));
    try {
      journal.touch('s1');
      expect(journal.refusals('s1')).toBe(0);
      expect([journal.refuse('s1', 3), journal.refuse('s1', 3)]).toEqual([1, 2]);
      expect(writer.sessions.refusals('s1')).toBe(2); // counted on the writer's connection, not journaled
      expect(journal.refusals('s1')).toBe(2); // the gate reads what it counted
      journal.record('s1', ['a', 'b']);
      expect(journal.holds('s1', 'a')).toBe(true);
      expect(writer.sessions.holds('s1', 'a')).toBe(false); // receipts did not reach the index yet
      let writes = journal.drain();
      expect(writes.map((w) => w.op)).toEqual(['touch', 'record']);
      expect(journal.drain()).toEqual([]);
      for (const w of writes) replaySessionWrite(writer.sessions, w);
      expect(writer.sessions.holds('s1', 'b')).toBe(true);
      journal.clearRefusals('s1');
      expect(journal.refusals('s1')).toBe(0);
      expect(writer.sessions.refusals('s1')).toBe(2);
      writes = journal.drain();
      expect(writes).toEqual([{ op: 'clearRefusals', id: 's1' }]);
      for (const w of writes) replaySessionWrite(writer.sessions, w);
      expect(journal.refusals('s1')).toBe(0); // now read from the index itself
      expect([writer.sessions.refuse('s1', 1), writer.sessions.refuse('s1', 1)]).toEqual([1, 0]); // past max the run ends: the gate opens
      writer.sessions.end('s1');
      expect(writer.sessions.refusals('s1')).toBe(0);
      expect(writer.sessions.holds('s1', 'b')).toBe(false);
    } finally {
      store.close();
    }
  });

  it('refuses to write and pins the version it is given for one read', async () => {
    const { store } = Store.openReadOnly(fixture.repo.store.path, () => {
      throw new Error('not asked');
    });
    try {
      expect(() => store.db.exec("INSERT INTO meta(key, value) VALUES ('x', 'y')")).toThrow(/readonly/i);
      const own = store.indexVersion();
      const seen = await store.readPinned('writer-7', async () => [store.indexVersion(), store.db.inTransaction]);
      expect(seen).toEqual(['writer-7', true]);
      expect(store.indexVersion()).toBe(own);
      expect(store.db.inTransaction).toBe(false);
    } finally {
      store.close();
    }
  });
});
