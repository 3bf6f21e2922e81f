/**
 * The index pass's handle on the embedding thread: batches go out, vectors
 * come back, and the main thread stays free to answer keyword searches. Where
 * no compiled worker exists (a TypeScript test run), the worker module is
 * loaded through tsx (thread.ts).
 */
import type { Worker } from 'node:worker_threads';
import { SightlineError } from '../errors/index.js';
import { PASS_YOUNG_GENERATION_MB, startThread } from '../thread.js';
import type { EmbedderIdentity, EmbedderSpec } from './types.js';
import type { WorkerReply, WorkerRequest } from './protocol.js';

const COMPILED = new URL('./worker.js', import.meta.url);
const SOURCE = new URL('./worker.ts', import.meta.url);

/** Starts the embedding thread for `spec`. */
export function startWorker(spec: EmbedderSpec): Worker {
  return startThread(COMPILED, SOURCE, { workerData: { spec }, resourceLimits: { maxYoungGenerationSizeMb: PASS_YOUNG_GENERATION_MB } });
}

/** Waits for the worker to open its embedder. */
export function workerReady(worker: Worker): Promise<EmbedderIdentity> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: WorkerReply) => {
      worker.off('error', onError);
      worker.off('message', onMessage);
      if (m.type === 'ready') resolve(m.identity);
      else reject(new SightlineError('usage', m.type === 'open-failed' ? m.message : 'the embedding thread answered out of turn'));
    };
    const onError = (err: Error) => {
      worker.off('message', onMessage);
      reject(err);
    };
    worker.on('message', onMessage);
    worker.once('error', onError);
  });
}

export class EmbedWorker {
  private readonly pending = new Map<number, { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }>();
  private nextId = 0;
  private failure: Error | null = null;
  /** The embedder's identity once the thread has opened it; rejects (the thread stopped) when it could not. */
  readonly opened: Promise<EmbedderIdentity>;

  private constructor(private readonly worker: Worker) {
    this.opened = workerReady(worker);
    this.opened.catch(() => void worker.terminate()); // what was sent then fails with the exit
    worker.on('message', (m: WorkerReply) => this.settle(m));
    worker.on('error', (err) => this.failAll(err));
    worker.on('exit', (code) => this.failAll(new SightlineError('io', `the embedding thread stopped (exit ${code})`)));
  }

  /**
   * Starts the thread. Texts may be sent at once: they wait in its queue while it opens the
   * model, so its start runs beside whatever this thread does next. A thread that cannot open
   * the model fails what was sent, and `opened` says why.
   */
  static launch(spec: EmbedderSpec): EmbedWorker {
    return new EmbedWorker(startWorker(spec));
  }

  private settle(m: WorkerReply): void {
    if (m.type !== 'result' && m.type !== 'failed') return;
    const p = this.pending.get(m.id);
    this.pending.delete(m.id);
    if (m.type === 'failed') p?.reject(new SightlineError('io', m.message));
    else p?.resolve(Array.from({ length: m.data.length / m.dims }, (_, i) => m.data.subarray(i * m.dims, (i + 1) * m.dims)));
  }

  embed(texts: string[]): Promise<Float32Array[]> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ type: 'embed', id, texts } satisfies WorkerRequest);
    });
  }

  private failAll(err: Error): void {
    this.failure ??= err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }
}
