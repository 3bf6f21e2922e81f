/**
 * Bounds how many tool bodies run at once. Only tool bodies wait here: the
 * transports keep reading and writing messages, so even a limit of 1 never
 * stops the server from answering `tools/list` or queueing the next call.
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly idlers: (() => void)[] = [];

  constructor(readonly limit: number) {}

  /** Runs `body` once a slot is free; it is told how long it waited for one (0 when a slot was free at once). */
  async run<T>(body: (queuedMs: number) => T | Promise<T>): Promise<T> {
    let queuedMs = 0;
    if (this.active < this.limit) this.active++;
    else {
      const since = performance.now();
      await new Promise<void>((resolve) => this.waiting.push(resolve)); // the releaser hands its slot over
      queuedMs = Math.max(1, Math.round(performance.now() - since)); // it did wait: never reported as 0
    }
    try {
      return await body(queuedMs);
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else if (--this.active === 0) this.idlers.splice(0).forEach((resolve) => resolve());
    }
  }

  /** Resolves when no body is running or waiting: what a draining server waits for. */
  idle(): Promise<void> {
    return this.active === 0 ? Promise.resolve() : new Promise((resolve) => this.idlers.push(resolve));
  }
}

export const TOOL_CONCURRENCY_ENV = 'SIGHTLINE_MCP_TOOL_CONCURRENCY';

/**
 * The tool-concurrency limit: the flag, then the environment, then the
 * fallback. A value that is not a positive integer is ignored with a warning
 * rather than refusing to start: an editor launches this server, and a typo in
 * a shell profile should cost performance, not the server.
 */
export function resolveToolConcurrency(
  sources: { flag?: string; env?: string },
  fallback: number,
  warn: (message: string) => void,
): number {
  const candidates: [string, string | undefined][] = [
    ['--tool-concurrency', sources.flag],
    [TOOL_CONCURRENCY_ENV, sources.env],
  ];
  for (const [name, raw] of candidates) {
    const value = raw?.trim();
    if (!value) continue; // unset or blank
    if (/^\d+$/.test(value) && Number(value) >= 1) return Number(value);
    warn(`${name}=${JSON.stringify(raw)} is not a positive integer; ignored`);
  }
  return fallback;
}
