/**
 * Spreads file preparation over worker threads so parsing and token counting
 * use every core while the main thread writes to SQLite. Small passes (a few
 * edited files) stay on the main thread: starting workers costs more than it saves.
 */
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { sharedRankTable } from '../budget/index.js';
import type { MemoryPlan } from '../config/index.js';
import { PASS_YOUNG_GENERATION_MB } from '../thread.js';
import type { PrepareInput, Prepared } from './prepare.js';

export interface Preparer {
  prepare(input: PrepareInput): Promise<Prepared>;
  close(): Promise<void>;
}

/** Below this many files to read, workers are not worth their start-up. */
const WORKER_THRESHOLD = 150;
const WORKER_URL = new URL('./prepare-worker.js', import.meta.url);

/** What a worker is started with (its workerData): its cache sizes, and the token rank table in memory the threads share (null: it reads its own). */
export type PrepareStart = Pick<MemoryPlan, 'wordCacheEntries' | 'pieceCacheEntries'> & { ranks: SharedArrayBuffer | null };

/**
 * Prepares on this thread; the parser and tokenizer load only when a file needs them. Each file
 * waits a turn of the event loop first: a file is read synchronously, so without it a pass would
 * hold the thread (a server's questions, timers) from its first file to its last.
 */
const inThread: Preparer = {
  prepare: async (input) => {
    await new Promise(setImmediate);
    return (await import('./prepare.js')).prepareFile(input);
  },
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
  input: PrepareInput;
  resolve: (r: Prepared) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  /** The files sent to this worker and not answered yet. */
  held: Map<number, Pending>;
}

/**
 * A worker that dies (its heap cap reached: the cap follows the memory ceiling, and a few large
 * files in flight together can pass it) is replaced, and the files it held are prepared on this
 * thread one at a time, where no cap applies: the pass loses neither the files nor its run.
 */
class WorkerPool implements Preparer {
  private readonly workers: Slot[] = [];
  private readonly start: () => Worker;
  private rescued: Promise<unknown> = Promise.resolve();
  private nextId = 0;

  constructor(size: number, plan: MemoryPlan) {
    const resourceLimits = { maxOldGenerationSizeMb: plan.workerHeapMB, maxYoungGenerationSizeMb: PASS_YOUNG_GENERATION_MB };
    const workerData: PrepareStart = { wordCacheEntries: plan.wordCacheEntries, pieceCacheEntries: plan.pieceCacheEntries, ranks: sharedRankTable() };
    this.start = () => new Worker(WORKER_URL, { resourceLimits, workerData });
    for (let i = 0; i < size; i++) this.workers.push(this.attach({ worker: this.start(), held: new Map() }));
  }

  private attach(slot: Slot): Slot {
    slot.worker.on('message', (msg: { id: number; result?: Prepared; error?: string }) => {
      const p = slot.held.get(msg.id);
      slot.held.delete(msg.id);
      if (msg.error !== undefined) p?.reject(new Error(msg.error));
      else p?.resolve(msg.result!);
    });
    slot.worker.on('error', () => this.replace(slot));
    return slot;
  }

  private replace(slot: Slot): void {
    const held = [...slot.held.values()];
    slot.held.clear();
    // A worker that fails holding nothing failed to start: it is dropped, not started again and again.
    if (held.length > 0) {
      slot.worker = this.start();
      this.attach(slot);
    } else {
      this.workers.splice(this.workers.indexOf(slot), 1);
    }
    for (const p of held) {
      const done = this.rescued.then(() => inThread.prepare(p.input));
      done.then(p.resolve, p.reject);
      this.rescued = done.catch(() => undefined);
    }
  }

  prepare(input: PrepareInput): Promise<Prepared> {
    if (this.workers.length === 0) return inThread.prepare(input);
    const slot = this.workers.reduce((a, b) => (b.held.size < a.held.size ? b : a));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      slot.held.set(id, { input, resolve, reject });
      slot.worker.postMessage({ id, input });
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
    await this.rescued;
  }
}
