/**
 * An index pass as a job: one per repository at a time across processes,
 * recorded in the index database so any process can see its status.
 *
 * The lock is a lease in the database (store/jobs.ts). The holder renews it on
 * a timer and inside every write transaction; a holder that finds its lease
 * gone stops before writing (the fence). A lease held by a dead process on this
 * host is taken over at once, any other only once it expires, so kill -9 never
 * wedges a repository. A pass killed outright leaves its record `running` under
 * a lease nobody renews, which readers report as interrupted.
 */
import os from 'node:os';
import { describeError, SightlineError } from '../errors/index.js';
import { ioError, LEASE_LOST, type JobRecord, type LockHolder, type Store } from '../store/index.js';
import type { IndexProgress, IndexSummary } from './pass.js';

const LEASE_MS = 30_000;
const WAIT_POLL_MS = 100;
/** Progress is written at most this often (and on every phase change). */
const PROGRESS_EVERY_MS = 50;

export interface JobOptions {
  /** Called once when another process holds the lock and this pass waits for it. */
  onWait?: (holder: LockHolder) => void;
  /** Stops the pass: while waiting for the lock, or at the next checkpoint. */
  signal?: AbortSignal;
  /** Awaited between files: a background pass waits here while queries run. */
  yieldTo?: () => Promise<void>;
  leaseMs?: number;
}

/** What the pass body gets: hooks to hand to the indexer. */
export interface JobHooks {
  onProgress: (p: IndexProgress) => void;
  checkpoint: () => Promise<void>;
}

/** True while `pid` names a live process (EPERM: alive, but not ours to signal). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A holder on this host whose process is gone cannot come back to renew its lease. */
export function holderDead(h: { pid: number; host: string }): boolean {
  return h.host === os.hostname() && !processAlive(h.pid);
}

/** True when the lock is held by someone who may still be working. */
export function lockLive(h: LockHolder | undefined, now = Date.now()): boolean {
  return h !== undefined && h.expiresAtMs > now && !holderDead(h);
}

/** A `running` record whose owner no longer holds a live lock was interrupted. */
export function interrupted(job: JobRecord, holder: LockHolder | undefined): boolean {
  return job.status === 'running' && !(holder?.owner === job.owner && lockLive(holder));
}

function aborted(signal: AbortSignal | undefined): SightlineError {
  const why = signal?.reason instanceof Error ? signal.reason.message : 'stopped';
  return new SightlineError('internal', `the index pass was ${why} before it finished; the next pass resumes where it left off`);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The disk refusing a write, said as such; anything else unchanged. */
function asStoreError(store: Store, err: unknown): unknown {
  const code = (err as { code?: string }).code ?? '';
  return /^SQLITE_(FULL|READONLY|CANTOPEN|IOERR)/.test(code) || ['ENOSPC', 'EACCES', 'EPERM', 'EROFS'].includes(code) ? ioError(store.path, err) : err;
}

/** Best effort: a write that fails while recording a failure must not hide the failure. */
function quietly(fn: () => void): void {
  try {
    fn();
  } catch {
    /* the disk that failed the pass may refuse this too; the lease then expires */
  }
}

/** A held index lock. */
export interface Lease {
  readonly owner: string;
  /** Throws when another process took the lock over (this holder stalled past its lease). */
  check(): void;
  /** Runs if the process exits while the lock is held, just before the lock is released. */
  onExit?: () => void;
}

/**
 * Takes the index lock, waiting while a live holder has it, and holds it while
 * `body` runs: renewed on a timer and at every write transaction, which fails
 * once the lease is lost. Released when `body` settles or the process exits.
 * When the lock is free, `body` starts before this function first yields.
 */
export async function withIndexLock<T>(store: Store, options: JobOptions, body: (lease: Lease) => Promise<T>): Promise<T> {
  const leaseMs = options.leaseMs ?? LEASE_MS;
  // The global Web Crypto, loaded on first use: importing node:crypto cost every verb ~10 ms at start.
  const me = { owner: crypto.randomUUID(), pid: process.pid, host: os.hostname() };
  const { jobs } = store;
  try {
    for (let waited = false; ; waited = true) {
      if (options.signal?.aborted) throw aborted(options.signal);
      const holder = jobs.tryAcquire(me, leaseMs, Date.now(), holderDead);
      if (!holder) break;
      if (!waited) options.onWait?.(holder);
      await sleep(WAIT_POLL_MS, options.signal);
    }
  } catch (err) {
    throw asStoreError(store, err);
  }

  let lost = false;
  const renew = () => {
    if (!jobs.renew(me.owner, leaseMs, Date.now())) lost = true;
  };
  const lease: Lease = {
    owner: me.owner,
    check() {
      if (lost) throw new SightlineError('internal', LEASE_LOST);
    },
  };
  const heartbeat = setInterval(() => quietly(renew), leaseMs / 3);
  heartbeat.unref();
  store.fenceWrites({ owner: me.owner, leaseMs });
  // Every orderly end mid-pass leaves an honest record and a free lock: process.exit (a signal
  // handler's), the store closed under the pass (a server shutting down), or SIGINT / SIGTERM
  // with no handler of their own (`sightline index` stopped at the terminal), which would
  // otherwise end the process without an exit event.
  let released = false;
  const onExit = () => {
    if (released) return;
    released = true;
    quietly(() => lease.onExit?.());
    quietly(() => jobs.release(me.owner));
  };
  process.on('exit', onExit);
  const offClose = store.onClose(onExit);
  const offSignals = releaseOnDefaultSignals(onExit);
  try {
    return await body(lease);
  } finally {
    clearInterval(heartbeat);
    store.fenceWrites(null);
    process.off('exit', onExit);
    offClose();
    offSignals();
    quietly(() => jobs.release(me.owner));
  }
}

/**
 * For each of SIGINT and SIGTERM that nothing else handles: runs `release`,
 * then raises the signal again with the handler gone, so the process still
 * ends as the signal says (a handler of the caller's own keeps its say).
 */
function releaseOnDefaultSignals(release: () => void): () => void {
  const installed = (['SIGINT', 'SIGTERM'] as const).filter((sig) => process.listenerCount(sig) === 0);
  const handler = (sig: NodeJS.Signals) => {
    release();
    off();
    process.kill(process.pid, sig);
  };
  const off = () => installed.forEach((sig) => process.off(sig, handler));
  installed.forEach((sig) => process.once(sig, handler));
  return off;
}

/**
 * Runs an index pass under the lock, recording it in the index: begun (one
 * more attempt), its progress, and how it ended. The record is written before
 * the first await when the lock is free, so a caller sees the pass at once.
 */
export function runIndexJob(store: Store, options: JobOptions, body: (hooks: JobHooks) => Promise<IndexSummary>): Promise<IndexSummary> {
  const { jobs } = store;
  return withIndexLock(store, options, async (lease) => {
    const { owner } = lease;
    jobs.begin({ owner, pid: process.pid, host: os.hostname() }, Date.now());
    lease.onExit = () => jobs.end(owner, { status: 'failed', phase: null, error: 'the process exited before the pass finished; the next pass resumes where it left off' }, Date.now());

    let lastWrite = 0;
    let lastPhase = '';
    const counts: Record<string, number> = {};
    const onProgress = (p: IndexProgress) => {
      const { scanned, added, updated, removed, unchanged, chunks, symbols, skipped } = p.summary;
      Object.assign(counts, { scanned, added, updated, removed, unchanged, chunks, symbols, skipped: Object.values(skipped).reduce((a, b) => a + b, 0) });
      if (p.phase === 'embedding') counts.vectors = p.done; // the embedding phase counts chunks embedded
      const now = Date.now();
      if (p.phase === lastPhase && now - lastWrite < PROGRESS_EVERY_MS) return;
      lastWrite = now;
      lastPhase = p.phase;
      quietly(() => jobs.progress(owner, { phase: p.phase, done: p.done, total: p.total, counts }, now));
    };
    const checkpoint = async () => {
      if (options.signal?.aborted) throw aborted(options.signal);
      lease.check();
      await options.yieldTo?.();
    };

    try {
      const summary = await body({ onProgress, checkpoint });
      jobs.end(owner, { status: 'completed', phase: 'done', error: null, summary }, Date.now());
      return summary;
    } catch (raw) {
      const err = asStoreError(store, raw);
      quietly(() => jobs.end(owner, { status: 'failed', phase: null, error: describeError(err) }, Date.now()));
      throw err;
    }
  });
}
