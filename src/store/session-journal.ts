/**
 * Session bookkeeping on a read-only connection (a read-pool worker's): reads
 * go to the index as it is, writes are journaled instead of run, and the one
 * writer — the main thread — replays the journal on its own connection. The
 * one exception is counting a refusal, which must read and raise the count in
 * one step: it is asked of the writer and waited for (`refuseOnWriter`). What
 * the answer set is read back from here, so the gate sees what it wrote
 * exactly as it would in process.
 */
import type { Db } from './db.js';
import { SessionTable } from './sessions.js';

/** One write of SessionTable's, as data: what the main thread replays. */
export type SessionWrite = { op: 'touch'; id: string } | { op: 'clearRefusals'; id: string } | { op: 'record'; id: string; receipts: string[] };

/** SessionTable.refuse, run by the writer for this connection and waited for. */
export type RefuseOnWriter = (id: string, max: number) => number;

export class SessionJournal extends SessionTable {
  private writes: SessionWrite[] = [];
  /** Refusal counts this answer set, by session. */
  private readonly counted = new Map<string, number>();

  constructor(db: Db, private readonly refuseOnWriter: RefuseOnWriter) {
    super(db);
  }

  override touch(id: string): void {
    this.writes.push({ op: 'touch', id });
  }

  override refusals(id: string): number {
    return this.counted.get(id) ?? super.refusals(id);
  }

  override refuse(id: string, max: number): number {
    const after = this.refuseOnWriter(id, max);
    this.counted.set(id, after);
    return after;
  }

  override clearRefusals(id: string): void {
    this.writes.push({ op: 'clearRefusals', id });
    this.counted.set(id, 0);
  }

  override holds(id: string, receipt: string): boolean {
    return this.writes.some((w) => w.op === 'record' && w.id === id && w.receipts.includes(receipt)) || super.holds(id, receipt);
  }

  override record(id: string, receipts: string[]): void {
    if (receipts.length) this.writes.push({ op: 'record', id, receipts: [...receipts] });
  }

  /** The writes since the last drain, oldest first; the journal starts empty again. */
  drain(): SessionWrite[] {
    this.counted.clear();
    return this.writes.splice(0);
  }
}

/** Replays one journaled write on a writable table. */
export function replaySessionWrite(sessions: SessionTable, w: SessionWrite): void {
  if (w.op === 'touch') sessions.touch(w.id);
  else if (w.op === 'clearRefusals') sessions.clearRefusals(w.id);
  else sessions.record(w.id, w.receipts);
}
