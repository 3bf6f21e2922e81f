/**
 * The periodic reconcile: a cheap incremental pass on a jittered timer, which
 * catches what file-system events missed (a watcher that overflowed, edits made
 * while nothing watched), re-indexes drift and retries files that could not be
 * read (the indexer re-reads every file last skipped as unreadable). The jitter
 * keeps many servers started together from scanning in step.
 */
export interface ReconcileOptions {
  /** Mean interval; 0 disables. */
  intervalMs: number;
  /** Each interval is drawn from intervalMs × (1 ± jitter). */
  jitter?: number;
  /** The pass: the repository's index job, which merges it with any other request. */
  run: () => Promise<unknown>;
  onError: (err: unknown) => void;
}

export interface Reconciler {
  stop(): void;
}

export function startReconcile(options: ReconcileOptions): Reconciler {
  const jitter = options.jitter ?? 0.2;
  let timer: NodeJS.Timeout | undefined;
  let stopped = options.intervalMs <= 0;
  const schedule = () => {
    if (stopped) return;
    const delay = options.intervalMs * (1 + jitter * (2 * Math.random() - 1));
    timer = setTimeout(() => {
      options
        .run()
        .catch(options.onError)
        .finally(schedule);
    }, delay);
    timer.unref(); // never the reason a process stays up
  };
  schedule();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
