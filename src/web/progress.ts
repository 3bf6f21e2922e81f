/**
 * The index phase, pushed as server-sent events: while any page listens, the
 * job record is read every POLL_MS (the record, so a pass run by another
 * process — `sightline index`, a watcher — shows too) and every change is
 * sent as one `job` event: status, phase, files done of total, and an ETA
 * from this phase's pace so far.
 */
import type { ServerResponse } from 'node:http';
import type { IndexJob, IndexJobStatus } from '../engine/index.js';

const POLL_MS = 500;
/** A comment line this often keeps proxies and idle timeouts from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

export interface JobEvent {
  status: IndexJobStatus['status'];
  phase: IndexJobStatus['phase'];
  done: number;
  total: number;
  /** Seconds left in this phase at its pace so far; null until there is a pace to go by. */
  eta_seconds: number | null;
  counts: IndexJobStatus['counts'];
  started_at: string | null;
  ended_at: string | null;
  error: string | null;
  retrieval_phase: IndexJob['retrievalPhase'];
}

/** Where the current phase began, to measure its pace. */
interface PhaseStart {
  phase: string | null;
  atMs: number;
  done: number;
}

export class JobEvents {
  private readonly streams = new Set<ServerResponse>();
  private timer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private last = '';
  private start: PhaseStart = { phase: null, atMs: 0, done: 0 };

  constructor(readonly job: IndexJob, private readonly warn: (message: string) => void) {}

  /** Opens an event stream on `res` and sends the job as it is now. */
  subscribe(res: ServerResponse, headers: Record<string, string>): void {
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    this.streams.add(res);
    res.on('close', () => {
      this.streams.delete(res);
      if (this.streams.size === 0) this.pause();
    });
    res.write(`event: job\ndata: ${this.read(false)}\n\n`);
    if (!this.timer) {
      this.timer = setInterval(() => this.poll(), POLL_MS).unref();
      this.heartbeat = setInterval(() => this.broadcast(': keep-alive\n\n'), HEARTBEAT_MS).unref();
    }
  }

  /** Ends every stream, so the server can close. */
  close(): void {
    for (const res of this.streams) res.end();
    this.streams.clear();
    this.pause();
  }

  private pause(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.timer = this.heartbeat = null;
  }

  private poll(): void {
    const before = this.last;
    let event: string;
    try {
      event = this.read();
    } catch (err) {
      this.warn(`dashboard: cannot read the index job: ${(err as Error).message}`);
      return;
    }
    if (event !== before) this.broadcast(`event: job\ndata: ${event}\n\n`);
  }

  private broadcast(frame: string): void {
    for (const res of this.streams) res.write(frame);
  }

  /** The job as an event; `remember` makes it what later polls compare against (a newcomer's first event must not). */
  private read(remember = true): string {
    const s = this.job.snapshot();
    const now = Date.now();
    if (s.phase !== this.start.phase || s.done < this.start.done) this.start = { phase: s.phase, atMs: now, done: s.done };
    const event: JobEvent = {
      status: s.status,
      phase: s.phase,
      done: s.done,
      total: s.total,
      eta_seconds: s.status === 'running' ? eta(this.start, s.done, s.total, now) : null,
      counts: s.counts,
      started_at: s.started_at,
      ended_at: s.ended_at,
      error: s.error,
      retrieval_phase: this.job.retrievalPhase,
    };
    const text = JSON.stringify(event);
    if (remember) this.last = text;
    return text;
  }
}

function eta(start: PhaseStart, done: number, total: number, now: number): number | null {
  const progressed = done - start.done;
  if (progressed <= 0 || total <= done) return null;
  const perFile = (now - start.atMs) / progressed;
  return Math.round(((total - done) * perFile) / 1000);
}

/** One event source per repository shown, made when a page first follows it. */
export class RepoEvents {
  private readonly byRepo = new Map<string, JobEvents>();

  constructor(private readonly warn: (message: string) => void) {}

  of(view: { id: string; job: IndexJob }): JobEvents {
    const known = this.byRepo.get(view.id);
    if (known?.job === view.job) return known;
    known?.close(); // the repository was served anew (reset, then added again): follow its new job
    const fresh = new JobEvents(view.job, this.warn);
    this.byRepo.set(view.id, fresh);
    return fresh;
  }

  close(): void {
    for (const events of this.byRepo.values()) events.close();
    this.byRepo.clear();
  }
}
