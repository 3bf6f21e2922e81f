/**
 * Spreads file preparation over worker threads so parsing and token counting
 * use every core while the main thread writes to SQLite. Small passes (a few
 * edited files) stay on the main thread: starting workers costs more than it saves.
 */
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { MemoryPlan } from '../config/index.js';
import type { PrepareInput, Prepared } from './prepare.js';

export interface Preparer {
  prepare(input: PrepareInput): Promise<Prepared>;
  close(): Promise<void>;
}

/** Below this many files to read, workers are not worth their start-up. */
const WORKER_THRESHOLD = 150;
const WORKER_URL = new URL('./prepare-worker.js', import.meta.url);
/** A worker holds a few files at a time: a small young generation makes it collect early instead of growing. */
const YOUNG_GENERATION_MB = 8;

/** The cache sizes a worker is started with (its workerData). */
export type WorkerCaches = Pick<MemoryPlan, 'wordCacheEntries' | 'pieceCacheEntries'>;

/** Prepares on this thread; the parser and tokenizer load only when a file needs them. */
const inThread: Preparer = {
  prepare: async (input) => (await import('./prepare.js')).prepareFile(input),
  close: async () => {},
};

/** `plan` sizes each worker's heap cap and caches. */
export function createPreparer(fileCount: number, plan: MemoryPlan): Preparer {
  const threads = Math.min(2, os.availableParallelism());
  // Under a TypeScript test runner the compiled worker does not exist: prepare in-thread.
  if (fileCount < WORKER_THRESHOLD || threads < 2 || !fs.existsSync(fileURLToPath(WORKER_URL))) return inThread;
  return new WorkerPool(threads, plan);
}

interface Pending {
  resolve: (r: Prepared) => void;
  reject: (e: Error) => void;
}

class WorkerPool implements Preparer {
  private readonly workers: { worker: Worker; inFlight: number }[];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(size: number, plan: MemoryPlan) {
    const resourceLimits = { maxOldGenerationSizeMb: plan.workerHeapMB, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB };
    const workerData: WorkerCaches = { wordCacheEntries: plan.wordCacheEntries, pieceCacheEntries: plan.pieceCacheEntries };
    this.workers = Array.from({ length: size }, () => {
      const slot = { worker: new Worker(WORKER_URL, { resourceLimits, workerData }), inFlight: 0 };
      slot.worker.on('message', (msg: { id: number; result?: Prepared; error?: string }) => {
        slot.inFlight--;
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (msg.error !== undefined) p?.reject(new Error(msg.error));
        else p?.resolve(msg.result!);
      });
      slot.worker.on('error', (err) => this.failAll(err));
      return slot;
    });
  }

  prepare(input: PrepareInput): Promise<Prepared> {
    const slot = this.workers.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
    const id = this.nextId++;
    slot.inFlight++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      slot.worker.postMessage({ id, input });
    });
  }

  private failAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
  }
}
