/**
 * Answers that stay true after edits. An answer is first built with a probe
 * that refuses to cite a file the index no longer describes (changed or
 * deleted since it was read). When it does, those files are indexed again —
 * a fresh parse of each, through the repository's one index job, so it merges
 * with a watcher's pass — and the answer is built again from the new rows: a
 * cited line range always comes from the text on disk, never from the old
 * index laid over new text. When the index cannot catch up in time (another
 * process holds it, the disk refuses, the file keeps changing) the last build
 * uses an ordinary probe and discloses what is stale.
 */
import type { CitationProbe } from '../cite/index.js';
import { OutdatedCitations } from '../cite/index.js';
import { citationProbe } from './gated.js';
import type { IndexJob } from './jobs.js';
import { within } from './ready.js';
import type { Repo } from './repo.js';

/** Builds refused for outdated files before the one that discloses instead. */
const FRESH_ROUNDS = 2;

export function answerFresh<T>(repo: Repo, job: IndexJob, build: (probe: CitationProbe) => T | Promise<T>): Promise<T> {
  return freshRounds(repo, job, async (refuseOutdated) => build(citationProbe(repo, { refuseOutdated })));
}

/**
 * The rounds themselves, over any builder told whether to refuse outdated
 * files: in process, or a read-pool worker whose refusal comes back as
 * OutdatedCitations (the passes stay with the main thread's job).
 */
export async function freshRounds<T>(repo: Repo, job: IndexJob, attempt: (refuseOutdated: boolean) => Promise<T>): Promise<T> {
  for (let round = 0; round < FRESH_ROUNDS; round++) {
    try {
      return await attempt(true);
    } catch (err) {
      if (!(err instanceof OutdatedCitations)) throw err;
      if (!(await reindexed(job, err.paths, repo.config.reindexWaitMs))) break;
    }
  }
  return attempt(false);
}

/** True when a pass over `paths` finished within `waitMs` (reindexWaitMs); a failed pass is the status's to report, not this answer's. */
function reindexed(job: IndexJob, paths: string[], waitMs: number): Promise<boolean> {
  const pass = job.start({ paths }).then(() => true, () => false);
  return within(pass, waitMs, false);
}
