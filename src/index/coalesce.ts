/**
 * Runs a task at most once at a time. Requests made while it runs are merged
 * into exactly one follow-up run, which starts when the current one ends, so
 * it sees every change made before the request; a burst costs at most two runs.
 */
export class Coalescer<T> {
  private current: Promise<T> | null = null;
  private next: Promise<T> | null = null;

  constructor(private readonly task: () => Promise<T>) {}

  get busy(): boolean {
    return this.current !== null;
  }

  /** A run that starts now, or right after the one in progress. */
  request(): Promise<T> {
    if (!this.current) return this.launch();
    const settled = this.current.then(
      () => {},
      () => {},
    );
    this.next ??= settled.then(() => {
      this.next = null;
      return this.launch();
    });
    return this.next;
  }

  /** Resolves once nothing runs and nothing is queued. */
  async idle(): Promise<void> {
    while (this.current || this.next) await (this.next ?? this.current)!.catch(() => {});
  }

  private launch(): Promise<T> {
    const run: Promise<T> = this.task().finally(() => {
      if (this.current === run) this.current = null;
    });
    this.current = run;
    return run;
  }
}
