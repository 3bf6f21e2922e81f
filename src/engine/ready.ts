/**
 * Before a query is answered, what it needs has started: the first index is
 * keyword-searchable, and an onnx or http query embedder is up. Each is
 * waited for a bounded time. An answer is then never an empty `ok` from an
 * index still being built (an agent reads that as "not found"), nor a keyword
 * answer that calls itself `building` while every vector is in place.
 */
import { embedderSpec, queryEmbedderReady } from '../embed/index.js';
import type { IndexJob, IndexJobStatus } from './jobs.js';
import type { Repo } from './repo.js';

/** The answer while the first index is not searchable yet: how far it is and when to ask again. */
export interface BuildingEnvelope {
  status: 'building';
  retrieval_phase: 'building';
  progress: { phase: IndexJobStatus['phase']; done: number; total: number; started_at: string | null };
  /** When asking again is likely to find the index searchable. */
  retry_after_ms: number;
  /** Why the first index stopped, when it failed. */
  error?: string;
  note: string;
}

const POLL_MS = 50;
const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Null once the repository's index is searchable; a `building` answer if it is not within `waitMs`. */
export async function awaitSearchable(job: IndexJob, waitMs: number): Promise<BuildingEnvelope | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (job.retrievalPhase === 'serving') return null;
    const status = job.snapshot();
    if (status.status === 'failed' || Date.now() >= deadline) return building(job, status.status === 'failed' ? status.error : null);
    await sleep(Math.min(POLL_MS, Math.max(1, deadline - Date.now())));
  }
}

function building(job: IndexJob, error: string | null): BuildingEnvelope {
  const { phase, done, total, started_at } = job.snapshot();
  const retry = error ? RETRY_MAX_MS : estimateRemaining(done, total, started_at);
  const where = phase ? `${phase}${total ? ` ${done}/${total} files` : ''}` : 'starting';
  return {
    status: 'building',
    retrieval_phase: 'building',
    progress: { phase, done, total, started_at },
    retry_after_ms: retry,
    ...(error ? { error } : {}),
    note: error
      ? `the first index of this repository failed (${error}); nothing is searchable until it is rebuilt: run \`sightline index\` or the index tool, then ask again`
      : `the first index of this repository is still being built (${where}); nothing is searchable yet, so an empty answer would mislead: ask again in about ${Math.ceil(retry / 1000)} s (index_status shows progress)`,
  };
}

/** The rest of the pass at the rate so far, within sensible bounds. */
function estimateRemaining(done: number, total: number, startedAt: string | null): number {
  const elapsed = startedAt ? Date.now() - Date.parse(startedAt) : 0;
  if (!(done > 0 && total > done && elapsed > 0)) return 2 * RETRY_MIN_MS;
  const remaining = ((total - done) * elapsed) / done;
  return Math.round(Math.min(RETRY_MAX_MS, Math.max(RETRY_MIN_MS, remaining)));
}

/** Waits (bounded) for an onnx or http query embedder to start; the builtin one is in-thread and always ready. */
export async function awaitQueryEmbedder(repo: Repo, waitMs = repo.config.embedderWaitMs): Promise<void> {
  const spec = embedderSpec(repo.config);
  if (spec.kind === 'onnx' || spec.kind === 'http') await within(queryEmbedderReady(spec), waitMs, null);
}

/** What `work` resolves to, or `late` once it has taken `ms`; the timer never holds the process open. */
export async function within<T>(work: Promise<T>, ms: number, late: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
