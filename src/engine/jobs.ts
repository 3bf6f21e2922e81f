/**
 * Index jobs as the engine sees them. Every pass runs through `Repo.index`,
 * which makes it the repository's one job across processes and records it in
 * the index, so `jobStatus` reads the same answer in any process. `IndexJob`
 * adds what one long-lived process needs: passes requested while one runs are
 * merged into exactly one more, background passes yield to queries, and a
 * failure that could not be recorded (the disk refused) is still reported.
 */
import type { RetrievalPhase } from '../search/index.js';
import fs from 'node:fs';
import { describeError, isCorruption } from '../errors/index.js';
import { Coalescer, interrupted, type IndexPhase, type IndexSummary } from '../index/index.js';
import type { JobRecord, LockHolder } from '../store/index.js';
import type { Recovered, Repo } from './repo.js';
import type { ResetEnvelope } from './reset.js';
import { within } from './ready.js';

export type IndexJobState = 'none' | 'running' | 'completed' | 'failed';

/**
 * `building` while the repository's first index runs (answers come from what
 * is indexed so far), `serving` once a complete index exists: the part of the
 * answers' `retrieval_phase` the index job decides (the vectors decide the
 * rest: search's RetrievalPhase).
 */
export type IndexReadiness = Extract<RetrievalPhase, 'building' | 'serving'>;

export interface JobCounts {
  scanned: number;
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  skipped: number;
  chunks: number;
  symbols: number;
  vectors: number;
}

export interface IndexJobStatus {
  status: IndexJobState;
  /** Where a running pass is, where a failed one stopped; `done` once completed; `resetting` while reset_index drops the index. */
  phase: IndexPhase | 'resetting' | null;
  /** Files handled so far in this phase, out of `total`. */
  done: number;
  total: number;
  /** Live counters of the current (or last) pass. */
  counts: JobCounts;
  /** Passes started on this index since it was created or reset, including the one running now. */
  attempts: number;
  started_at: string | null;
  /** When the pass last reported progress. */
  updated_at: string | null;
  ended_at: string | null;
  /** Why the pass failed, in a sentence; null unless `status` is `failed`. */
  error: string | null;
  /** The process that runs (or ran) the pass. */
  pid: number | null;
  host: string | null;
  /** What the last completed pass did. */
  summary: IndexSummary | null;
  /** Present when the job is (or last was) a reset_index sweep: what it dropped, once done. */
  reset?: { dropped: ResetEnvelope['dropped'] };
}

/** A reset_index sweep this process runs on the repository. */
interface ResetRun {
  started_at: string;
  ended_at: string | null;
  error: string | null;
  dropped: ResetEnvelope['dropped'];
}

const ZERO: JobCounts = { scanned: 0, added: 0, updated: 0, removed: 0, unchanged: 0, skipped: 0, chunks: 0, symbols: 0, vectors: 0 };
const NONE: IndexJobStatus = {
  status: 'none', phase: null, done: 0, total: 0, counts: ZERO, attempts: 0,
  started_at: null, updated_at: null, ended_at: null, error: null, pid: null, host: null, summary: null,
};

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function fromRecord(job: JobRecord, holder: LockHolder | undefined): IndexJobStatus {
  const cut = interrupted(job, holder);
  return {
    status: cut ? 'failed' : job.status,
    phase: job.phase as IndexPhase | null,
    done: job.done,
    total: job.total,
    counts: { ...ZERO, ...job.counts },
    attempts: job.attempts,
    started_at: iso(job.startedAtMs),
    updated_at: iso(job.updatedAtMs),
    ended_at: cut ? iso(job.updatedAtMs) : iso(job.endedAtMs),
    error: cut
      ? `interrupted: the process indexing it (pid ${job.pid} on ${job.host}) stopped before it finished; run \`sightline index\` to resume`
      : job.error,
    pid: job.pid,
    host: job.host,
    summary: job.summary as IndexSummary | null,
  };
}

/** The repository's index job as recorded in its index; `none` when there is no index. Never creates one. */
export function jobStatus(repo: Repo): IndexJobStatus {
  if (!fs.existsSync(repo.dbPath)) return NONE;
  const { jobs } = repo.store;
  const job = jobs.job();
  return job ? fromRecord(job, jobs.holder()) : NONE;
}

/** A query within this long makes a background pass wait before its next file. */
const QUIET_MS = 200;
/** …but never longer than this per file, so steady traffic slows indexing without starving it. */
const MAX_YIELD_MS = 2_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type PassResult = { ok: true; summary: IndexSummary } | { ok: false; error: string };

/** A damaged index this process moved aside and rebuilt, as `health` shows it. */
export interface Recovery extends Recovered {
  /** When the damage was found. */
  found_at: string;
  /** True once the rebuild's first pass completed. */
  rebuilt: boolean;
}

export class IndexJob {
  private readonly passes = new Coalescer(() => this.run());
  private readonly stopper = new AbortController();
  private readonly listeners = new Set<(r: PassResult) => void>();
  private foregroundWanted = false;
  /** What the next pass covers: paths requested since the last one started, or the whole tree (null). */
  private nextScope: Set<string> | null = new Set();
  private lastQueryAt = 0;
  /** This process's last failed pass, in case the index could not record it. */
  private failure: { started_at: string; ended_at: string; error: string } | null = null;
  private indexed = false;
  private recovery_: Recovery | null = null;
  private reset_: ResetRun | null = null;

  /** One per repository handle (the Engine holds it): the server, the watcher, the reconcile and every answer share it. */
  constructor(private readonly repo: Repo) {}

  /** The last damaged index this process found and rebuilt (or is rebuilding); null when none. */
  get recovery(): Recovery | null {
    return this.recovery_;
  }

  /**
   * When the index is damaged (a call or a pass met the damage), moves it aside
   * and starts rebuilding it in the background, keeping agent memory where it
   * can be read, as `index --force` does; calls meanwhile get the `building`
   * answer. Returns once the file is moved aside; null when the check
   * (linear in the file, so only after damage showed) finds the index sound.
   */
  recoverDamaged(): Recovery | null {
    const recovered = this.repo.recoverIfDamaged();
    // Sound now: another call already moved the damage aside and its rebuild runs.
    if (!recovered) return this.recovery_ && !this.recovery_.rebuilt ? this.recovery_ : null;
    this.indexed = false;
    const recovery: Recovery = { ...recovered, found_at: new Date().toISOString(), rebuilt: false };
    this.recovery_ = recovery;
    this.start()
      .then(() => (recovery.rebuilt = true))
      .catch(() => {}); // the failure is kept in the status
    return recovery;
  }

  /**
   * Requests an incremental pass: one starts now, or right after the running
   * one, over the whole tree or, when every request since the last pass named
   * paths, over those paths only (a watcher's pass). A background pass (the
   * first index behind a query, the reconcile) waits while queries arrive; a
   * foreground one (an explicit request, a file-system change) does not.
   */
  start(options: { background?: boolean; paths?: readonly string[] } = {}): Promise<IndexSummary> {
    if (!options.background) this.foregroundWanted = true;
    if (!options.paths) this.nextScope = null;
    else for (const p of options.paths) this.nextScope?.add(p);
    return this.passes.request();
  }

  /** Called before every query: starts the first index in the background when there is none; never waits for it. */
  ensureIndexed(): void {
    this.lastQueryAt = Date.now();
    if (this.passes.busy || this.repo.hasIndex()) return;
    this.start({ background: true }).catch(() => {}); // the failure is kept in the status
  }

  /** Once a complete index exists it stays `serving`; later passes are incremental. */
  get retrievalPhase(): IndexReadiness {
    if (!this.indexed) {
      try {
        this.indexed = this.repo.hasIndex();
      } catch {
        return 'building'; // an unreadable index serves nothing until it is rebuilt
      }
    }
    return this.indexed ? 'serving' : 'building';
  }

  /**
   * Runs a reset_index sweep as the repository's job: `running` in phase
   * `resetting` until it ends, then `completed` (with what it dropped) or
   * `failed`, until a pass starts.
   */
  async runReset(sweep: () => Promise<ResetEnvelope>): Promise<ResetEnvelope> {
    const run: ResetRun = { started_at: new Date().toISOString(), ended_at: null, error: null, dropped: null };
    this.reset_ = run;
    try {
      const answer = await sweep();
      run.dropped = answer.dropped;
      return answer;
    } catch (err) {
      run.error = describeError(err);
      throw err;
    } finally {
      run.ended_at = new Date().toISOString();
    }
  }

  /** True while a reset_index sweep runs. */
  get resetting(): boolean {
    return this.reset_ !== null && this.reset_.ended_at === null;
  }

  private resetStatus(run: ResetRun): IndexJobStatus {
    const status = run.ended_at === null ? 'running' : run.error ? 'failed' : 'completed';
    return {
      ...NONE,
      status,
      phase: status === 'completed' ? 'done' : 'resetting',
      started_at: run.started_at,
      updated_at: run.ended_at ?? run.started_at,
      ended_at: run.ended_at,
      error: run.error,
      pid: process.pid,
      reset: { dropped: run.dropped },
    };
  }

  /** The job as recorded in the index, or this process's last failure when the index could not record it. */
  snapshot(): IndexJobStatus {
    let recorded: IndexJobStatus;
    try {
      recorded = jobStatus(this.repo);
    } catch (err) {
      return { ...NONE, status: 'failed', error: describeError(err) };
    }
    // A reset sweep is the job until a pass starts after it.
    if (this.reset_ && (recorded.started_at ?? '') <= this.reset_.started_at) return this.resetStatus(this.reset_);
    const failure = this.failure;
    // A failed pass that started after the recorded one never reached the record.
    if (failure && (recorded.started_at ?? '') < failure.started_at) {
      return { ...recorded, ...failure, status: 'failed', phase: null, pid: process.pid };
    }
    return recorded;
  }

  /** Listens to the end of every pass this process runs; returns the unsubscribe. */
  onPass(listener: (r: PassResult) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** True once no pass runs or waits in this process; false when one still does after `ms`. */
  whenIdle(ms: number): Promise<boolean> {
    return this.passes.busy ? within(this.passes.idle().then(() => true), ms, false) : Promise.resolve(true);
  }

  /** Stops the running pass at its next file and drops the queued one; for shutting down. */
  async stop(): Promise<void> {
    this.stopper.abort(new Error('stopped'));
    await this.passes.idle();
  }

  private async yieldToQueries(): Promise<void> {
    const until = Date.now() + MAX_YIELD_MS;
    while (Date.now() - this.lastQueryAt < QUIET_MS && Date.now() < until) await sleep(QUIET_MS);
  }

  private async run(): Promise<IndexSummary> {
    const background = !this.foregroundWanted;
    const scope = this.nextScope;
    this.foregroundWanted = false;
    this.nextScope = new Set();
    const startedAt = new Date().toISOString();
    this.failure = null;
    try {
      const summary = await this.repo.index({
        signal: this.stopper.signal,
        yieldTo: background ? () => this.yieldToQueries() : undefined,
        paths: scope ? [...scope] : undefined,
      });
      this.emit({ ok: true, summary });
      return summary;
    } catch (err) {
      const error = describeError(err);
      this.failure = { started_at: startedAt, ended_at: new Date().toISOString(), error };
      this.emit({ ok: false, error });
      // A pass that met damage (the catch-up pass at start, a watcher's) starts the rebuild.
      if (isCorruption(err)) setImmediate(() => this.tryRecover());
      throw err;
    }
  }

  private tryRecover(): void {
    try {
      this.recoverDamaged();
    } catch {
      /* the pass's failure is already recorded */
    }
  }

  private emit(result: PassResult): void {
    for (const listener of this.listeners) listener(result);
  }
}
