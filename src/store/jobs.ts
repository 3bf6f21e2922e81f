/**
 * The index job record and the index lock (one row each). The lock is a lease:
 * its holder renews it while it works, and anyone may take over a lease that
 * expired or whose holder is known to be dead, so a crashed process never
 * wedges the repository. Every write names the owner it expects, so a holder
 * that lost its lease cannot overwrite its successor's record.
 */
import type { Db } from './db.js';
import { writeTransaction } from './sqlite.js';

export type JobState = 'running' | 'completed' | 'failed';

/** The lock a pass holds, which fences the writes of every connection writing for it (Store.fenceWrites). */
export interface WriteFence {
  owner: string;
  leaseMs: number;
}

/** Why a fenced write was refused. */
export const LEASE_LOST = 'another process took over the index lock after this pass stalled past its lease; this pass stopped';

/** Who holds (or last held) the lock. */
export interface LockHolder {
  owner: string;
  pid: number;
  host: string;
  acquiredAtMs: number;
  expiresAtMs: number;
}

export interface JobRecord {
  status: JobState;
  phase: string | null;
  owner: string;
  pid: number;
  host: string;
  attempts: number;
  startedAtMs: number;
  updatedAtMs: number;
  endedAtMs: number | null;
  done: number;
  total: number;
  /** Live counters (files scanned, added, …), as the pass reported them. */
  counts: Record<string, number>;
  error: string | null;
  /** What the pass did, once it completed. */
  summary: unknown;
}

export interface Progress {
  phase: string;
  done: number;
  total: number;
  counts: Record<string, number>;
}

interface JobRow {
  status: JobState;
  phase: string | null;
  owner: string;
  pid: number;
  host: string;
  attempts: number;
  started_at_ms: number;
  updated_at_ms: number;
  ended_at_ms: number | null;
  done: number;
  total: number;
  counts: string;
  error: string | null;
  summary: string | null;
}

export class JobTable {
  private readonly readLock;
  private readonly readJob;
  private readonly putLock;
  private readonly renewLock;
  private readonly dropLock;
  private readonly putJob;
  private readonly setProgress;
  private readonly setEnd;

  constructor(private readonly db: Db) {
    this.readLock = db.prepare(
      'SELECT owner, pid, host, acquired_at_ms AS acquiredAtMs, expires_at_ms AS expiresAtMs FROM index_lock WHERE id = 1',
    );
    this.readJob = db.prepare('SELECT * FROM index_job WHERE id = 1');
    this.putLock = db.prepare(
      'INSERT OR REPLACE INTO index_lock(id, owner, pid, host, acquired_at_ms, expires_at_ms) VALUES (1, @owner, @pid, @host, @now, @expires)',
    );
    this.renewLock = db.prepare('UPDATE index_lock SET expires_at_ms = ? WHERE id = 1 AND owner = ?');
    this.dropLock = db.prepare('DELETE FROM index_lock WHERE id = 1 AND owner = ?');
    this.putJob = db.prepare(
      `INSERT OR REPLACE INTO index_job(id, status, phase, owner, pid, host, attempts, started_at_ms, updated_at_ms, ended_at_ms, done, total, counts, error, summary)
       VALUES (1, 'running', NULL, @owner, @pid, @host, @attempts, @now, @now, NULL, 0, 0, '{}', NULL, @summary)`,
    );
    this.setProgress = db.prepare(
      'UPDATE index_job SET phase = @phase, done = @done, total = @total, counts = @counts, updated_at_ms = @now WHERE id = 1 AND owner = @owner',
    );
    this.setEnd = db.prepare(
      `UPDATE index_job SET status = @status, phase = coalesce(@phase, phase), error = @error, summary = coalesce(@summary, summary),
         updated_at_ms = @now, ended_at_ms = @now WHERE id = 1 AND owner = @owner`,
    );
  }

  holder(): LockHolder | undefined {
    return this.readLock.get() as LockHolder | undefined;
  }

  /**
   * Takes the lock when it is free, expired, or held by a process `isDead` says
   * is gone; otherwise returns the live holder. Runs under the write lock, so
   * two processes cannot both take it.
   */
  tryAcquire(me: { owner: string; pid: number; host: string }, leaseMs: number, now: number, isDead: (h: LockHolder) => boolean): LockHolder | undefined {
    return writeTransaction(this.db, () => {
      const current = this.holder();
      if (current && current.owner !== me.owner && current.expiresAtMs > now && !isDead(current)) return current;
      this.putLock.run({ ...me, now, expires: now + leaseMs });
      return undefined;
    });
  }

  /** Extends the lease; false when `owner` no longer holds the lock. */
  renew(owner: string, leaseMs: number, now: number): boolean {
    return this.renewLock.run(now + leaseMs, owner).changes === 1;
  }

  release(owner: string): void {
    this.dropLock.run(owner);
  }

  job(): JobRecord | undefined {
    const r = this.readJob.get() as JobRow | undefined;
    if (!r) return undefined;
    return {
      status: r.status,
      phase: r.phase,
      owner: r.owner,
      pid: r.pid,
      host: r.host,
      attempts: r.attempts,
      startedAtMs: r.started_at_ms,
      updatedAtMs: r.updated_at_ms,
      endedAtMs: r.ended_at_ms,
      done: r.done,
      total: r.total,
      counts: JSON.parse(r.counts) as Record<string, number>,
      error: r.error,
      summary: r.summary === null ? null : JSON.parse(r.summary),
    };
  }

  /** Records a new pass by the lock holder: one more attempt, counters at zero, the last summary kept. */
  begin(me: { owner: string; pid: number; host: string }, now: number): void {
    const prev = this.job();
    this.putJob.run({ ...me, now, attempts: (prev?.attempts ?? 0) + 1, summary: prev?.summary == null ? null : JSON.stringify(prev.summary) });
  }

  progress(owner: string, p: Progress, now: number): void {
    this.setProgress.run({ owner, phase: p.phase, done: p.done, total: p.total, counts: JSON.stringify(p.counts), now });
  }

  /** Ends the pass; a null phase keeps the last one (where a failed pass stopped). */
  end(owner: string, outcome: { status: 'completed' | 'failed'; phase: string | null; error: string | null; summary?: unknown }, now: number): void {
    const summary = outcome.summary === undefined ? null : JSON.stringify(outcome.summary);
    this.setEnd.run({ owner, status: outcome.status, phase: outcome.phase, error: outcome.error, summary, now });
  }

  /** Forgets the job record (a reset): the next pass is attempt 1. */
  clear(): void {
    this.db.prepare('DELETE FROM index_job').run();
  }
}
