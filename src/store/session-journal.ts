/**
 * Session bookkeeping on a read-only connection (a read-pool worker's): reads
 * go to the index as it is, writes are journaled instead of run, and the one
 * writer — the main thread — replays the journal on its own connection. A
 * refusal count set during the answer is read back from the journal, so the
 * gate sees what it wrote exactly as it would in process.
 */
import type { Db } from './db.js';
import { SessionTable } from './sessions.js';

/** One write of SessionTable's, as data: what the main thread replays. */
export type SessionWrite =
  | { op: 'touch'; id: string }
  | { op: 'setRefusals'; id: string; count: number }
  | { op: 'record'; id: string; receipts: string[] };

export class SessionJournal extends SessionTable {
  private writes: SessionWrite[] = [];

  constructor(db: Db) {
    super(db);
  }

  override touch(id: string): void {
    this.writes.push({ op: 'touch', id });
  }

  override refusals(id: string): number {
    for (let i = this.writes.length - 1; i >= 0; i--) {
      const w = this.writes[i]!;
      if (w.op === 'setRefusals' && w.id === id) return w.count;
    }
    return super.refusals(id);
  }

  override setRefusals(id: string, count: number): void {
    this.writes.push({ op: 'setRefusals', id, count });
  }

  override holds(id: string, receipt: string): boolean {
    return this.writes.some((w) => w.op === 'record' && w.id === id && w.receipts.includes(receipt)) || super.holds(id, receipt);
  }

  override record(id: string, receipts: string[]): void {
    if (receipts.length) this.writes.push({ op: 'record', id, receipts: [...receipts] });
  }

  /** The writes since the last drain, oldest first; the journal starts empty again. */
  drain(): SessionWrite[] {
    return this.writes.splice(0);
  }
}

/** Replays one journaled write on a writable table. */
export function replaySessionWrite(sessions: SessionTable, w: SessionWrite): void {
  if (w.op === 'touch') sessions.touch(w.id);
  else if (w.op === 'setRefusals') sessions.setRefusals(w.id, w.count);
  else sessions.record(w.id, w.receipts);
}
