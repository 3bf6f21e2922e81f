/**
 * Sessions of the budget layer (src/budget): per session, the gate's run of
 * consecutive refusals and the receipts of content already delivered, so a
 * CLI `--session` or an MCP session carries them across calls. A session
 * untouched for a day is dropped with everything it holds.
 *
 * A read-only tool writes here, so what it may write is bounded: names are
 * checked at the engine's edge (LIMITS.sessionChars), a session keeps at most
 * `perSession` receipts (past it, content may be sent again: safe), and past
 * `sessions` sessions or `receipts` receipts in all, the least recently used
 * sessions are dropped whole.
 */
import type { Db } from './db.js';

export const SESSION_TTL_MS = 86_400_000;

/**
 * A session touched again within this long keeps its time, and is not written: every CLI verb and
 * tool call touches its session, and rewriting the row each time made every read write the index
 * file (and the last connection's close then checkpoint it), and wait on any other connection's
 * write lock (an index pass's) to do so. The TTL and the least-recently-used order need no finer
 * time than this.
 */
export const SESSION_TOUCH_GRAIN_MS = 60_000;

export interface SessionCaps {
  perSession: number;
  receipts: number;
  sessions: number;
}

export const SESSION_CAPS: SessionCaps = { perSession: 10_000, receipts: 200_000, sessions: 10_000 };

export const SESSION_TABLES = `
CREATE TABLE IF NOT EXISTS budget_sessions (
  id            TEXT PRIMARY KEY,
  refusals      INTEGER NOT NULL DEFAULT 0,
  updated_at_ms REAL NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS budget_sessions_by_age ON budget_sessions(updated_at_ms);
CREATE TABLE IF NOT EXISTS budget_receipts (
  session_id TEXT NOT NULL REFERENCES budget_sessions(id) ON DELETE CASCADE,
  receipt    TEXT NOT NULL,
  PRIMARY KEY (session_id, receipt)
) STRICT, WITHOUT ROWID;
`;

export class SessionTable {
  /** Rows this connection changed for sessions: bookkeeping, which Store.indexVersion leaves out. */
  private changes_ = 0;
  private readonly totalChanges;
  private readonly expire;
  private readonly upsert;
  private readonly timeOf;
  private readonly getRefusals;
  private readonly countRefusal;
  private readonly clearRefusal;
  private readonly hasReceipt;
  private readonly addReceipt;
  private readonly transaction: (fn: () => void) => void;
  private readonly countOf;
  private readonly countReceipts;
  private readonly countSessions;
  private readonly oldest;
  private readonly drop;

  constructor(db: Db, private readonly now: () => number = Date.now, private readonly caps: SessionCaps = SESSION_CAPS) {
    this.expire = db.prepare('DELETE FROM budget_sessions WHERE updated_at_ms < ?');
    this.upsert = db.prepare(
      'INSERT INTO budget_sessions(id, updated_at_ms) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET updated_at_ms = excluded.updated_at_ms ' +
        `WHERE excluded.updated_at_ms - budget_sessions.updated_at_ms >= ${SESSION_TOUCH_GRAIN_MS}`,
    );
    this.timeOf = db.prepare<[string], number>('SELECT updated_at_ms FROM budget_sessions WHERE id = ?').pluck();
    this.getRefusals = db.prepare('SELECT refusals FROM budget_sessions WHERE id = ?').pluck();
    // One statement, so two calls of a session (two read workers, two CLI processes) never count one refusal between them.
    this.countRefusal = db.prepare<[number, string], number>('UPDATE budget_sessions SET refusals = CASE WHEN refusals >= ? THEN 0 ELSE refusals + 1 END WHERE id = ? RETURNING refusals').pluck();
    this.clearRefusal = db.prepare('UPDATE budget_sessions SET refusals = 0 WHERE id = ? AND refusals <> 0');
    this.hasReceipt = db.prepare('SELECT 1 FROM budget_receipts WHERE session_id = ? AND receipt = ?').pluck();
    this.addReceipt = db.prepare('INSERT OR IGNORE INTO budget_receipts(session_id, receipt) VALUES (?, ?)');
    this.transaction = db.transaction((fn: () => void) => fn());
    this.totalChanges = db.prepare<[], number>('SELECT total_changes()').pluck();
    this.countOf = db.prepare<[string], number>('SELECT count(*) FROM budget_receipts WHERE session_id = ?').pluck();
    this.countReceipts = db.prepare<[], number>('SELECT count(*) FROM budget_receipts').pluck();
    this.countSessions = db.prepare<[], number>('SELECT count(*) FROM budget_sessions').pluck();
    this.oldest = db.prepare<[string], string>('SELECT id FROM budget_sessions WHERE id <> ? ORDER BY updated_at_ms LIMIT 1').pluck();
    this.drop = db.prepare('DELETE FROM budget_sessions WHERE id = ?');
  }

  /** Nothing to load or write later: every call below reads and writes the index file directly (budget/sessions.ts). */
  async open(): Promise<void> {}

  async settle(): Promise<void> {}

  get changes(): number {
    return this.changes_;
  }

  private depth = 0;

  /** Runs a write and counts the rows it changed (cascades included, as total_changes() counts them), once when nested. */
  private bookkeep(write: () => void): void {
    if (this.depth > 0) return write();
    const before = this.totalChanges.get()!;
    this.depth++;
    try {
      write();
    } finally {
      this.depth--;
      this.changes_ += this.totalChanges.get()! - before;
    }
  }

  /**
   * Marks the session live now (creating it), after dropping every session idle past the TTL. A
   * session touched within SESSION_TOUCH_GRAIN_MS is only read: it keeps its time, and nothing is
   * dropped until a touch writes.
   */
  touch(id: string): void {
    const now = this.now();
    const at = this.timeOf.get(id);
    if (at !== undefined && now - at < SESSION_TOUCH_GRAIN_MS) return; // live: read only, so no wait on another writer either
    this.bookkeep(() => {
      this.expire.run(now - SESSION_TTL_MS);
      this.upsert.run(id, now);
      this.dropOldestWhile(id, () => this.countSessions.get()! > this.caps.sessions);
    });
  }

  /** Drops the least recently used sessions other than `keep`, whole, while `over` holds. */
  private dropOldestWhile(keep: string, over: () => boolean): void {
    while (over()) {
      const oldest = this.oldest.get(keep);
      if (oldest === undefined) return;
      this.drop.run(oldest);
    }
  }

  refusals(id: string): number {
    return (this.getRefusals.get(id) as number | undefined) ?? 0;
  }

  /** Counts one refusal more, or ends the run at 0 when `max` were counted already (the gate opens); the count after. */
  refuse(id: string, max: number): number {
    this.touch(id);
    let after = 0;
    this.bookkeep(() => void (after = this.countRefusal.get(max, id) ?? 0));
    return after;
  }

  clearRefusals(id: string): void {
    this.touch(id);
    if (this.refusals(id) === 0) return; // no run to end: read only (the update below also ends only a run)
    this.bookkeep(() => this.clearRefusal.run(id));
  }

  /** Drops a session and everything it holds: its client is gone and the id is never used again. */
  end(id: string): void {
    this.bookkeep(() => this.drop.run(id));
  }

  holds(id: string, receipt: string): boolean {
    return this.hasReceipt.get(id, receipt) !== undefined;
  }

  record(id: string, receipts: string[]): void {
    if (receipts.length === 0) return;
    this.bookkeep(() =>
      this.transaction(() => {
        this.touch(id);
        const room = Math.max(0, this.caps.perSession - this.countOf.get(id)!);
        for (const r of receipts.slice(0, room)) this.addReceipt.run(id, r);
        this.dropOldestWhile(id, () => this.countReceipts.get()! > this.caps.receipts);
      }),
    );
  }
}
