/**
 * Sessions of the budget layer (src/budget): per session, the gate's run of
 * consecutive refusals and the receipts of content already delivered, so a
 * CLI `--session` or an MCP session carries them across calls. A session
 * untouched for a day is dropped with everything it holds.
 */
import type { Db } from './db.js';

export const SESSION_TTL_MS = 86_400_000;

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
  private readonly getRefusals;
  private readonly putRefusals;
  private readonly hasReceipt;
  private readonly addReceipt;
  private readonly transaction: (fn: () => void) => void;

  constructor(db: Db, private readonly now: () => number = Date.now) {
    this.expire = db.prepare('DELETE FROM budget_sessions WHERE updated_at_ms < ?');
    this.upsert = db.prepare(
      'INSERT INTO budget_sessions(id, updated_at_ms) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET updated_at_ms = excluded.updated_at_ms',
    );
    this.getRefusals = db.prepare('SELECT refusals FROM budget_sessions WHERE id = ?').pluck();
    this.putRefusals = db.prepare('UPDATE budget_sessions SET refusals = ? WHERE id = ?');
    this.hasReceipt = db.prepare('SELECT 1 FROM budget_receipts WHERE session_id = ? AND receipt = ?').pluck();
    this.addReceipt = db.prepare('INSERT OR IGNORE INTO budget_receipts(session_id, receipt) VALUES (?, ?)');
    this.transaction = db.transaction((fn: () => void) => fn());
    this.totalChanges = db.prepare<[], number>('SELECT total_changes()').pluck();
  }

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

  /** Marks the session live now (creating it), after dropping every session idle past the TTL. */
  touch(id: string): void {
    const now = this.now();
    this.bookkeep(() => {
      this.expire.run(now - SESSION_TTL_MS);
      this.upsert.run(id, now);
    });
  }

  refusals(id: string): number {
    return (this.getRefusals.get(id) as number | undefined) ?? 0;
  }

  setRefusals(id: string, count: number): void {
    this.touch(id);
    this.bookkeep(() => this.putRefusals.run(count, id));
  }

  holds(id: string, receipt: string): boolean {
    return this.hasReceipt.get(id, receipt) !== undefined;
  }

  record(id: string, receipts: string[]): void {
    if (receipts.length === 0) return;
    this.bookkeep(() =>
      this.transaction(() => {
        this.touch(id);
        for (const r of receipts) this.addReceipt.run(id, r);
      }),
    );
  }
}
