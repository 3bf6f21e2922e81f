/**
 * Keeping an index live: a catch-up pass at start (for what changed while
 * nothing watched), a file-system watcher for edits, and a jittered reconcile
 * for what events miss. All three go through the repository's one IndexJob,
 * so passes never overlap and requests made during a pass merge into one more.
 */
import { startReconcile, watchTree, type TreeWatcher } from '../index/index.js';
import type { IndexJob } from './jobs.js';
import type { Repo } from './repo.js';

export interface LiveOptions {
  /** Default: the configuration's watchDebounceMs. */
  debounceMs?: number;
  /** Default: the configuration's reconcileIntervalMs; 0 turns the reconcile off. */
  reconcileIntervalMs?: number;
  onError: (err: unknown) => void;
}

export interface Live {
  readonly job: IndexJob;
  readonly watcher: TreeWatcher;
  /** Stops watching and reconciling, and stops the running pass at its next file. */
  close(): Promise<void>;
}

export async function keepLive(repo: Repo, job: IndexJob, options: LiveOptions): Promise<Live> {
  const { config } = repo;
  const watcher = await watchTree({
    walk: { root: repo.root, gitignore: config.gitignore, include: config.include, exclude: config.exclude, excludeDirs: config.excludeDirs },
    debounceMs: options.debounceMs ?? config.watchDebounceMs,
    settleMs: config.watchSettleMs,
    ignorePaths: [config.home], // an index kept inside the repository must not wake its own watcher
    scan: (paths) => job.start({ paths: paths ?? undefined }),
    onError: options.onError,
  });
  const reconcile = startReconcile({
    intervalMs: options.reconcileIntervalMs ?? config.reconcileIntervalMs,
    run: () => job.start({ background: true }),
    onError: options.onError,
  });
  job.start({ background: true }).catch(options.onError);
  return {
    job,
    watcher,
    async close() {
      reconcile.stop();
      await watcher.close();
      await job.stop();
    },
  };
}
