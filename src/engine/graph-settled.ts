/**
 * Graph answers (`related`, `explore`) read resolved references only. A pass
 * writes each file's references as pending and resolves them all at its end,
 * so an answer read between the two would silently lack every reference the
 * pass wrote: right after an edit, a file's dependents would vanish. Such an
 * answer waits for this process's pass (bounded), and one that still finds
 * references pending (a pass in another process, or one stopped before it
 * resolved) says how many, instead of passing for complete.
 */
import type { IndexJob } from './jobs.js';
import type { Repo } from './repo.js';

/** How long a graph answer waits for a running pass to resolve what it wrote. */
const GRAPH_WAIT_MS = 5_000;

/** Waits, when references are pending, for the pass that will resolve them. */
export async function settledGraph(repo: Repo, job: IndexJob): Promise<void> {
  if (repo.store.edges.pendingCount() > 0) await job.whenIdle(GRAPH_WAIT_MS);
}

export interface GraphPendingField {
  /** References an index pass wrote and has not resolved yet: the answer may lack them; ask again once index_status says completed. */
  graph_pending?: number;
}

/** The disclosure a graph answer carries while references are pending; nothing when none are. */
export function graphPending(repo: Repo): GraphPendingField {
  const pending = repo.store.edges.pendingCount();
  return pending > 0 ? { graph_pending: pending } : {};
}
