/**
 * Where budget sessions live (the gate's run of refusals, the receipts of
 * content already delivered): the repository's index file, or the team
 * database so that calls of one session landing on different servers see one
 * session. The engine asks synchronously while it answers; a backend that is
 * across the network loads the session in `open` and writes what changed in
 * `settle`, before the answer leaves, so the next call anywhere sees it.
 */
export interface BudgetSessions {
  /** Makes `id` readable by the calls below (SQLite: nothing to do; PostgreSQL: one round trip). */
  open(id: string): Promise<void>;
  /** Marks the session live now, creating it. */
  touch(id: string): void;
  refusals(id: string): number;
  /**
   * Counts one refusal more and returns the count after it, atomically with
   * every other call of the session; when `max` were counted already the run
   * ends instead and 0 comes back: the gate opens.
   */
  refuse(id: string, max: number): number;
  /** Ends the session's run of refusals: an answer went out. */
  clearRefusals(id: string): void;
  holds(id: string, receipt: string): boolean;
  record(id: string, receipts: string[]): void;
  /** Makes what the calls since `open` changed durable and visible to every server. */
  settle(id: string): Promise<void>;
  /** Drops a session and everything it holds: its client is gone and the id is never used again. */
  end(id: string): void | Promise<void>;
}

/** Runs one answer inside session `id`: opened before, settled after, even when the answer throws. */
export async function inSession<T>(sessions: BudgetSessions, id: string, answer: () => Promise<T>): Promise<T> {
  await sessions.open(id);
  let settled = false;
  try {
    const result = await answer();
    settled = true;
    await sessions.settle(id);
    return result;
  } finally {
    if (!settled) await sessions.settle(id).catch(() => {});
  }
}
