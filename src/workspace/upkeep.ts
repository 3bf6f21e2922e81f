/**
 * A repository's upkeep: every attempt to bring its index up to date (the
 * catch-up at start, a refresh, a watcher's or reconcile's pass) that fails
 * is retried after a delay that doubles with each failure in a row (with
 * jitter, capped), until one succeeds. Nothing is abandoned silently: the
 * failures, the last error and the next retry are reported by `status()`.
 */
import { describeError } from '../errors/index.js';

export interface UpkeepStatus {
  /** Failed attempts in a row; 0 after a success. */
  failures: number;
  last_error: string | null;
  last_failure_at: string | null;
  /** When the next retry runs; null when nothing is pending. */
  next_retry_at: string | null;
}

export interface UpkeepOptions {
  baseMs: number;
  maxMs: number;
  /** Brings the index up to date once (a pass, or a fetch then a pass). */
  attempt: () => Promise<unknown>;
  onError: (message: string) => void;
}

export class Upkeep {
  private failures = 0;
  private lastError: string | null = null;
  private lastFailureAt: number | null = null;
  private retryAt: number | null = null;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private running = false;
  private inFlight: Promise<boolean> | null = null;

  constructor(private readonly options: UpkeepOptions) {}

  /** Runs an attempt now, or joins the one running; its failure schedules the retry. Never throws. */
  run(): Promise<boolean> {
    this.inFlight ??= this.attempt().finally(() => (this.inFlight = null));
    return this.inFlight;
  }

  private async attempt(): Promise<boolean> {
    if (this.stopped) return false;
    this.running = true;
    try {
      await this.options.attempt();
      this.succeeded();
      return true;
    } catch (err) {
      this.failed(describeError(err));
      return false;
    } finally {
      this.running = false;
    }
  }

  /** The end of a pass started elsewhere (the watcher, the reconcile); a pass run() is waiting on is judged by run(). */
  observe(result: { ok: true } | { ok: false; error: string }): void {
    if (this.running) return;
    if (result.ok) this.succeeded();
    else this.failed(result.error);
  }

  private succeeded(): void {
    this.failures = 0;
    this.retryAt = null;
    clearTimeout(this.timer);
  }

  /** The next retry is scheduled unless one already is. */
  private failed(message: string): void {
    if (this.stopped) return;
    this.failures++;
    this.lastError = message;
    this.lastFailureAt = Date.now();
    this.options.onError(`${message} (failure ${this.failures} in a row; retrying)`);
    if (this.retryAt !== null) return;
    const { baseMs, maxMs } = this.options;
    const delay = Math.min(maxMs, baseMs * 2 ** Math.min(this.failures - 1, 30)) * (0.8 + 0.4 * Math.random());
    this.retryAt = Date.now() + delay;
    this.timer = setTimeout(() => {
      this.retryAt = null;
      void this.run();
    }, delay);
    this.timer.unref();
  }

  status(): UpkeepStatus {
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return { failures: this.failures, last_error: this.lastError, last_failure_at: iso(this.lastFailureAt), next_retry_at: iso(this.retryAt) };
  }

  stop(): void {
    this.stopped = true;
    this.retryAt = null;
    clearTimeout(this.timer);
  }
}
