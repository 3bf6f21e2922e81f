/**
 * Index jobs: at most one index pass per repository runs at a time, in the
 * background, with a live status a caller can poll (`index_status`). The state
 * is process-local: a restarted server starts again from `none`.
 */
import { describeError } from '../errors/index.js';
import type { IndexPhase, IndexProgress, IndexSummary } from '../index/index.js';
import type { Repo } from './repo.js';

export type IndexJobState = 'none' | 'running' | 'completed' | 'failed';

/** `building` while the repository's first index runs (answers come from what is indexed so far). */
export type RetrievalPhase = 'building' | 'serving';

export interface IndexJobStatus {
  status: IndexJobState;
  phase: IndexPhase | null;
  /** Files handled so far in this phase, out of `total`. */
  done: number;
  total: number;
  /** Passes started by this process, including the one running now. */
  attempts: number;
  started_at: string | null;
  ended_at: string | null;
  /** Why the last pass failed, in a sentence; null unless `status` is `failed`. */
  error: string | null;
  /** What the last completed pass did. */
  summary: IndexSummary | null;
}

export class IndexJob {
  private status_: IndexJobStatus = {
    status: 'none', phase: null, done: 0, total: 0, attempts: 0, started_at: null, ended_at: null, error: null, summary: null,
  };
  private running: Promise<IndexSummary> | null = null;
  private indexed = false;

  constructor(private readonly repo: Repo) {}

  /** Starts an incremental pass, or returns the one already running. */
  start(): Promise<IndexSummary> {
    this.running ??= this.run().finally(() => (this.running = null));
    return this.running;
  }

  /** Starts the first index in the background when the repository has none; never waits for it. */
  ensureIndexed(): void {
    if (this.running || this.repo.hasIndex()) return;
    this.start().catch(() => {}); // the failure is kept in the status
  }

  /** Once a complete index exists it stays `serving`; later passes are incremental. */
  get retrievalPhase(): RetrievalPhase {
    if (!this.indexed) {
      try {
        this.indexed = this.repo.hasIndex();
      } catch {
        return 'building'; // an unreadable index serves nothing until it is rebuilt
      }
    }
    return this.indexed ? 'serving' : 'building';
  }

  snapshot(): IndexJobStatus {
    return { ...this.status_ };
  }

  private async run(): Promise<IndexSummary> {
    this.status_ = {
      ...this.status_,
      status: 'running',
      phase: null,
      done: 0,
      total: 0,
      attempts: this.status_.attempts + 1,
      started_at: new Date().toISOString(),
      ended_at: null,
      error: null,
    };
    const onProgress = (p: IndexProgress) => Object.assign(this.status_, { phase: p.phase, done: p.done, total: p.total });
    try {
      const summary = await this.repo.index({ onProgress });
      Object.assign(this.status_, { status: 'completed', ended_at: new Date().toISOString(), summary });
      return summary;
    } catch (err) {
      Object.assign(this.status_, { status: 'failed', ended_at: new Date().toISOString(), error: describeError(err) });
      throw err;
    }
  }
}
