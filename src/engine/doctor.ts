/**
 * `doctor`: is this repository's index sound, and if not, what repairs it.
 * Read-only: it never opens the index for writing, so it cannot migrate,
 * rebuild or take the lock, and it is safe while another process indexes.
 */
import fs from 'node:fs';
import { interrupted, lockLive } from '../index/index.js';
import { inspectIndex, type Check, type Inspection } from '../store/index.js';
import { describeSkips, tallySkips } from '../walk/index.js';
import type { Repo } from './repo.js';

export interface DoctorEnvelope {
  status: 'ok';
  repo: string;
  index_path: string;
  /** True when every check passed. */
  healthy: boolean;
  checks: Check[];
}

/** The index job's state as a check: a pass that failed or was interrupted left work undone. */
function jobCheck(inspection: Inspection): Check {
  const name = 'last index pass';
  const { job, holder } = inspection;
  if (!job) return { name, ok: false, detail: 'the index was never built', fix: 'sightline index' };
  if (interrupted(job, holder)) {
    return { name, ok: false, detail: `interrupted: pid ${job.pid} on ${job.host} stopped during ${job.phase ?? 'its start'}`, fix: 'sightline index' };
  }
  if (job.status === 'failed') return { name, ok: false, detail: `failed: ${job.error}`, fix: 'sightline index' };
  if (job.status === 'running') return { name, ok: true, detail: `running now (pid ${job.pid}, ${job.phase ?? 'starting'})` };
  return { name, ok: true, detail: `completed ${new Date(job.endedAtMs ?? job.updatedAtMs).toISOString()}` };
}

/** A lock whose holder died is taken over by the next pass; worth saying, not worth failing. */
function lockCheck(inspection: Inspection): Check | null {
  const { holder } = inspection;
  if (!holder) return null;
  if (lockLive(holder)) return { name: 'index lock', ok: true, detail: `held by pid ${holder.pid} on ${holder.host}` };
  return { name: 'index lock', ok: true, detail: `left by pid ${holder.pid} on ${holder.host}, which stopped; the next pass takes it over` };
}

/** The skip ledger, as stats and the pass count it: worth saying, not a failure. */
function skipCheck(reasons: string[]): Check {
  const tally = tallySkips(reasons);
  const retried = tally.unreadable ? `; the ${tally.unreadable} unreadable are retried every pass` : '';
  return { name: 'skipped files', ok: true, detail: `${describeSkips(tally)}${retried}` };
}

export function doctor(repo: Repo): DoctorEnvelope {
  const envelope = (checks: Check[]): DoctorEnvelope => ({
    status: 'ok',
    repo: repo.root,
    index_path: repo.dbPath,
    healthy: checks.every((c) => c.ok),
    checks,
  });
  if (!fs.existsSync(repo.dbPath)) {
    return envelope([{ name: 'index', ok: false, detail: 'no index for this repository yet', fix: 'sightline index' }]);
  }
  const inspection = inspectIndex(repo.dbPath, repo.config.embedder !== 'none');
  const checks = [...inspection.checks];
  // Job and lock are only read from a database this build understands.
  if (inspection.job !== undefined || checks.every((c) => c.ok)) {
    checks.push(jobCheck(inspection));
    const lock = lockCheck(inspection);
    if (lock) checks.push(lock);
    if (inspection.skipReasons) checks.push(skipCheck(inspection.skipReasons));
  }
  return envelope(checks);
}
