/**
 * `reset`: drops a repository's index. Rows are deleted under the index lock
 * rather than the file unlinked, so a server or watcher that has the index
 * open keeps a valid (now empty) database instead of writing into a deleted
 * file; the space is then given back with VACUUM. A file that is not a
 * readable index cannot be locked and is simply deleted.
 */
import fs from 'node:fs';
import { SightlineError } from '../errors/index.js';
import { withIndexLock, type JobOptions } from '../index/index.js';
import { removeDbFiles } from '../store/index.js';
import type { Repo } from './repo.js';

export interface ResetEnvelope {
  status: 'ok';
  repo: string;
  index_path: string;
  /** False when there was no index to drop. */
  existed: boolean;
  /** What was dropped (null when the file was unreadable and deleted whole). */
  dropped: { files: number; chunks: number; symbols: number } | null;
}

export async function reset(repo: Repo, options: JobOptions = {}): Promise<ResetEnvelope> {
  const envelope = (existed: boolean, dropped: ResetEnvelope['dropped']): ResetEnvelope => ({
    status: 'ok',
    repo: repo.root,
    index_path: repo.dbPath,
    existed,
    dropped,
  });
  if (!fs.existsSync(repo.dbPath)) return envelope(false, null);
  let store;
  try {
    store = repo.store;
  } catch (err) {
    if (!(err instanceof SightlineError && err.code === 'corrupt_index')) throw err;
    repo.close();
    removeDbFiles(repo.dbPath);
    return envelope(true, null);
  }
  const { files, chunks, symbols } = store.counts();
  await withIndexLock(store, options, async () => {
    store.transaction(() => {
      store.clear();
      store.jobs.clear();
    });
    store.db.exec('VACUUM');
    store.db.pragma('wal_checkpoint(TRUNCATE)');
  });
  return envelope(true, { files, chunks, symbols });
}
