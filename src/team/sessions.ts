/**
 * Budget sessions in the team database (budget/sessions.ts `BudgetSessions`).
 * `open` touches the session and loads its refusal count and receipts in one
 * round trip; the engine then asks synchronously; `settle` writes the new
 * receipts and the count in one statement before the answer is sent, so the
 * session's next call, on any server, is not re-sent what it holds. Calls of
 * one session in flight on one server share what was loaded. Time is the
 * database's clock. Idle sessions are swept at most once a minute per
 * process: past the TTL, and the least recently used past the cap.
 */
import type pg from 'pg';
import type { BudgetSessions } from '../budget/index.js';
import { SightlineError } from '../errors/index.js';
import { SESSION_CAPS, SESSION_TTL_MS } from '../store/index.js';
import { componentQuery } from './migrate.js';
import { NOW_MS } from './pool.js';
import { SESSIONS_COMPONENT } from './sessions-schema.js';

const SWEEP_EVERY_MS = 60_000;

interface Loaded {
  /** Calls between open and settle. */
  users: number;
  ready: Promise<void>;
  refusals: number;
  refusalsChanged: boolean;
  held: Set<string>;
  /** Receipts recorded since the last settle. */
  fresh: string[];
}

const LOAD = `WITH s AS (
    INSERT INTO budget_sessions(repo, id, updated_at_ms) VALUES ($1, $2, ${NOW_MS})
    ON CONFLICT (repo, id) DO UPDATE SET updated_at_ms = EXCLUDED.updated_at_ms RETURNING refusals)
  SELECT (SELECT refusals FROM s) AS refusals,
    ARRAY(SELECT receipt FROM budget_receipts WHERE repo = $1 AND session_id = $2) AS receipts`;

const WRITE = `WITH s AS (
    INSERT INTO budget_sessions(repo, id, refusals, updated_at_ms) VALUES ($1, $2, coalesce($3::integer, 0), ${NOW_MS})
    ON CONFLICT (repo, id) DO UPDATE SET refusals = coalesce($3::integer, budget_sessions.refusals), updated_at_ms = EXCLUDED.updated_at_ms RETURNING 1)
  INSERT INTO budget_receipts(repo, session_id, receipt) SELECT $1, $2, r FROM s, unnest($4::text[]) AS r ON CONFLICT DO NOTHING`;

const SWEEP = `DELETE FROM budget_sessions WHERE repo = $1 AND (updated_at_ms < ${NOW_MS} - $2
    OR id IN (SELECT id FROM budget_sessions WHERE repo = $1 ORDER BY updated_at_ms DESC OFFSET $3))`;

export class PostgresSessions implements BudgetSessions {
  private readonly loaded = new Map<string, Loaded>();
  private lastSweepMs = 0;

  constructor(
    private readonly url: string,
    private readonly repo: string,
  ) {}

  private query<R extends object>(sql: string, args: unknown[]): Promise<R[]> {
    return componentQuery<R & pg.QueryResultRow>(this.url, SESSIONS_COMPONENT, sql, args);
  }

  async open(id: string): Promise<void> {
    let s = this.loaded.get(id);
    if (!s) {
      const entry: Loaded = { users: 0, ready: Promise.resolve(), refusals: 0, refusalsChanged: false, held: new Set(), fresh: [] };
      entry.ready = this.load(id, entry);
      this.loaded.set(id, (s = entry));
    }
    s.users++;
    try {
      await s.ready;
    } catch (err) {
      if (--s.users === 0 && this.loaded.get(id) === s) this.loaded.delete(id);
      throw err;
    }
  }

  private async load(id: string, into: Loaded): Promise<void> {
    await this.sweepIfDue();
    const [row] = await this.query<{ refusals: number; receipts: string[] }>(LOAD, [this.repo, id]);
    into.refusals = row?.refusals ?? 0;
    for (const r of row?.receipts ?? []) into.held.add(r);
  }

  private async sweepIfDue(): Promise<void> {
    const now = Date.now();
    if (now - this.lastSweepMs < SWEEP_EVERY_MS) return;
    this.lastSweepMs = now;
    await this.query(SWEEP, [this.repo, SESSION_TTL_MS, SESSION_CAPS.sessions]);
  }

  private session(id: string): Loaded {
    const s = this.loaded.get(id);
    if (!s) throw new SightlineError('internal', `budget session ${id} was used before it was opened`);
    return s;
  }

  touch(id: string): void {
    this.session(id); // open touched it; settle touches it again
  }

  refusals(id: string): number {
    return this.session(id).refusals;
  }

  /** The session's calls on this server share one loaded entry, and this runs without yielding: atomic among them. */
  refuse(id: string, max: number): number {
    return this.setRefusals(id, this.session(id).refusals >= max ? 0 : this.session(id).refusals + 1);
  }

  clearRefusals(id: string): void {
    this.setRefusals(id, 0);
  }

  private setRefusals(id: string, count: number): number {
    const s = this.session(id);
    s.refusals = count;
    s.refusalsChanged = true;
    return count;
  }

  holds(id: string, receipt: string): boolean {
    return this.session(id).held.has(receipt);
  }

  /** Past the per-session cap, new receipts are not kept: content may be sent again, which is safe. */
  record(id: string, receipts: string[]): void {
    const s = this.session(id);
    for (const r of receipts) {
      if (s.held.has(r) || s.held.size >= SESSION_CAPS.perSession) continue;
      s.held.add(r);
      s.fresh.push(r);
    }
  }

  async end(id: string): Promise<void> {
    this.loaded.delete(id);
    await this.query('DELETE FROM budget_sessions WHERE repo = $1 AND id = $2', [this.repo, id]); // receipts go by ON DELETE CASCADE
  }

  async settle(id: string): Promise<void> {
    const s = this.loaded.get(id);
    if (!s) return;
    const receipts = s.fresh.splice(0);
    const refusals = s.refusalsChanged ? s.refusals : null;
    s.refusalsChanged = false;
    if (--s.users === 0) this.loaded.delete(id);
    if (receipts.length || refusals !== null) await this.query(WRITE, [this.repo, id, refusals, receipts]);
  }
}
