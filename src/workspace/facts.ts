/**
 * What list_repos and health say about one registered repository, read from
 * its index without changing it: when a pass last completed (re-stamped by
 * every pass, so it reads as when the index was last verified current), its
 * file and vector counts, and its readiness.
 */
import fs from 'node:fs';
import type { HealthEnvelope, IndexJobStatus } from '../engine/index.js';
import { describeError } from '../errors/index.js';
import type { RegisteredRepo } from './registry.js';
import type { RepoUnit } from './unit.js';
import type { UpkeepStatus } from './upkeep.js';

export interface RepoRow {
  id: string;
  source: 'path' | 'git';
  git: { url: string; ref: string; refresh_ms: number } | null;
  indexed_root: string | null;
  last_verified: string | null;
  file_count: number | null;
  /** Chunks with a vector; null when no pass has completed (unknown, not 0). */
  vector_count: number | null;
  /** True while chunks still wait for their vectors. */
  vector_count_pending: boolean;
  indexed_commit: string | null;
  job: IndexJobStatus['status'];
  /** The job's phase: `resetting` while reset_index drops the index; null when there is no job. */
  job_phase: IndexJobStatus['phase'];
  upkeep: UpkeepStatus | null;
  /** Why the repository could not be opened, when it could not. */
  problem: string | null;
}

/**
 * `serving` and `keyword_only` are ready; a completed pass that found no file is `nothing_registered`, not ready for this repository;
 * `resetting` while reset_index drops its code index.
 */
export type RepoPhase = 'building' | 'serving' | 'keyword_only' | 'nothing_registered' | 'resetting';

export function repoRow(entry: RegisteredRepo, unit: RepoUnit | undefined, problem: string | null): RepoRow {
  const row: RepoRow = {
    id: entry.id,
    source: entry.source.kind,
    git: entry.source.kind === 'git' ? { url: entry.source.url, ref: entry.source.ref, refresh_ms: entry.source.refreshMs } : null,
    indexed_root: entry.indexed_root,
    last_verified: null,
    file_count: null,
    vector_count: null,
    vector_count_pending: false,
    indexed_commit: entry.indexed_commit,
    job: 'none',
    job_phase: null,
    upkeep: unit?.upkeep() ?? null,
    problem,
  };
  if (unit?.engine.job.resetting) return { ...row, job: 'running', job_phase: 'resetting' };
  if (!unit || entry.indexed_root === null) return row;
  try {
    const job = unit.engine.job.snapshot();
    row.job = job.status;
    row.job_phase = job.phase;
    if (!fs.existsSync(unit.engine.repo.dbPath)) return row;
    const store = unit.engine.repo.store;
    row.last_verified = store.getMeta('last_indexed_at') ?? null;
    if (row.last_verified === null) return row;
    const { vectors } = store;
    row.file_count = store.counts().files;
    row.vector_count = vectors.count();
    row.vector_count_pending = unit.engine.repo.config.embedder !== 'none' && vectors.pendingCount() > 0;
  } catch (err) {
    row.problem = describeError(err);
  }
  return row;
}

export interface RepoHealth extends HealthEnvelope {
  repo_id: string;
  retrieval_phase: RepoPhase;
  retrieval_ready: boolean;
  /** Names what holds readiness back, or why the repository is ready as it is. */
  reason: string;
  watching: boolean;
  upkeep: UpkeepStatus | null;
  /** Advisory: a later call can see another state. */
  authoritative: false;
}

export function repoHealth(unit: RepoUnit, armed: boolean): RepoHealth {
  const base = unit.engine.health();
  const row = base.index === 'ready' ? { files: base.files ?? 0, pending: pendingVectors(unit) } : null;
  const upkeep = unit.upkeep();
  let phase: RepoPhase = 'building';
  let reason = armed ? 'the first index pass has not completed' : 'its code index was reset; add_repo indexes it again (memory was kept)';
  if (row && row.files === 0) [phase, reason] = ['nothing_registered', 'the last completed pass found no file to index'];
  else if (row && unit.engine.repo.config.embedder === 'none') [phase, reason] = ['keyword_only', 'no embedder is configured: keyword search is the intended mode'];
  else if (row && row.pending > 0) reason = `${row.pending} chunks wait for their vectors; keyword search answers meanwhile`;
  else if (row) [phase, reason] = ['serving', 'indexed, with every chunk embedded'];
  if (unit.engine.job.resetting) [phase, reason] = ['resetting', 'reset_index is dropping its code index in the background (memory is kept); index_status follows it, and add_repo indexes it again'];
  if (upkeep?.last_error && upkeep.failures > 0) reason += `; the last pass failed (${upkeep.failures} in a row, retried ${upkeep.next_retry_at ?? 'now'}): ${upkeep.last_error}`;
  return {
    ...base,
    repo_id: unit.id,
    retrieval_phase: phase,
    retrieval_ready: phase === 'serving' || phase === 'keyword_only',
    reason,
    watching: unit.watching,
    upkeep,
    authoritative: false,
  };
}

function pendingVectors(unit: RepoUnit): number {
  try {
    return unit.engine.repo.store.vectors.pendingCount();
  } catch {
    return 0; // health itself already reported the unreadable index
  }
}
