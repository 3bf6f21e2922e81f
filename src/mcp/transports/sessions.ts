/**
 * The client sessions of a network transport (http, sse), bounded two ways:
 * a session idle for `idleMs` is closed (its McpServer and transport let go,
 * so their memory comes back), and at most `max` are held at once, so a
 * client that opens sessions without closing them gets a clear 503 instead
 * of growing the server without end.
 */
import type { ServerResponse } from 'node:http';
import { reject } from './network.js';

export interface SessionLimits {
  max: number;
  idleMs: number;
}

interface Held<T> {
  entry: T;
  lastSeenMs: number;
}

/** How often idle sessions are looked for: a fraction of the timeout, at most every 30 s. */
const SWEEP_SHARE = 4;
const MAX_SWEEP_MS = 30_000;

export class SessionTable<T> {
  private readonly held = new Map<string, Held<T>>();
  private readonly sweeper: NodeJS.Timeout;

  /** `end` closes one session's server and transport; it is called once per session, on expiry or close. */
  constructor(
    readonly limits: SessionLimits,
    private readonly end: (entry: T) => Promise<void>,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.max(10, Math.min(MAX_SWEEP_MS, limits.idleMs / SWEEP_SHARE)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.held.size;
  }

  /** True when a new session would pass the cap. */
  get full(): boolean {
    return this.held.size >= this.limits.max;
  }

  add(id: string, entry: T): void {
    this.held.set(id, { entry, lastSeenMs: Date.now() });
  }

  /** The session, marked as just used; undefined when unknown or expired. */
  use(id: string): T | undefined {
    const held = this.held.get(id);
    if (held) held.lastSeenMs = Date.now();
    return held?.entry;
  }

  /** Forgets a session that closed itself (its transport's onclose). */
  forget(id: string): void {
    this.held.delete(id);
  }

  /** Answers 503 for a session past the cap, saying what to do. */
  refuse(res: ServerResponse): void {
    const retryS = Math.ceil(this.limits.idleMs / 1000);
    reject(res, 503, `this server holds its limit of ${this.limits.max} client sessions; close one you are done with, or retry once idle ones expire (after ${retryS} s idle)`, {
      headers: { 'retry-after': String(Math.min(retryS, 60)) },
    });
  }

  /** Closes every session idle longer than the timeout. */
  sweep(now = Date.now()): void {
    for (const [id, held] of this.held) {
      if (now - held.lastSeenMs < this.limits.idleMs) continue;
      this.held.delete(id);
      void this.end(held.entry).catch(() => {});
    }
  }

  /** Ends every session and stops looking for idle ones; for shutting down. */
  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.held.values()];
    this.held.clear();
    await Promise.all(all.map((h) => this.end(h.entry).catch(() => {})));
  }
}
