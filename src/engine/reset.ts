/**
 * `reset`: drops a repository's index. Rows are deleted under the index lock
 * rather than the file unlinked, so a server or watcher that has the index
 * open keeps a valid (now empty) database instead of writing into a deleted
 * file; the space is then given back with VACUUM. A damaged file cannot be
 * trusted to empty itself: it is moved aside and a new index begun, memory
 * kept where it can still be read.
 */
import fs from 'node:fs';
import { withIndexLock, type JobOptions } from '../index/index.js';
import type { Recovered, Repo } from './repo.js';

export interface ResetEnvelope {
  status: 'ok';
  repo: string;
  index_path: string;
  /** False when there was no index to drop. */
  existed: boolean;
  /** What was dropped (null when the file was damaged and moved aside whole). */
  dropped: { files: number; chunks: number; symbols: number } | null;
  /** Present when the index was damaged: where it was moved, and whether memory was kept. */
  recovered?: Recovered;
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
  const recovered = repo.recoverIfDamaged();
  if (recovered) return { ...envelope(true, null), recovered };
  const store = repo.store;
  const { files, chunks, symbols } = store.counts();
  await withIndexLock(store, options, async () => {
    store.transaction(() => {
      store.clear();
      store.jobs.clear();
    });
    store.compact();
  });
  return envelope(true, { files, chunks, symbols });
}
