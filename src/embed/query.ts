/**
 * Embedding a query synchronously, so search stays a plain function call.
 * The builtin model runs in-thread (microseconds, reading only the rows a
 * query touches). Others run in their own
 * thread and the caller blocks on shared memory for the answer, with a
 * deadline: a slow or failed query embedding degrades that one answer to
 * keyword mode instead of failing it.
 */
import type { Worker } from 'node:worker_threads';
import { BuiltinEmbedder, QueryRows } from './builtin.js';
import type { EmbedderIdentity, EmbedderSpec } from './types.js';
import { startWorker, workerReady } from './worker-client.js';
import { QUERY_HEADER_BYTES, QUERY_OK, QUERY_PENDING, type WorkerRequest } from './protocol.js';

export interface QueryEmbedder {
  readonly identity: EmbedderIdentity;
  /** The query's unit vector, or null when it could not be had in time. */
  embedQuery(text: string): Float32Array | null;
}

/** How long a search waits for a remote or ONNX query embedding before answering by keyword. */
const QUERY_DEADLINE_MS = 10_000;
/** Widest vector the shared answer buffer holds. */
const MAX_DIMS = 8_192;

class InThread implements QueryEmbedder {
  constructor(private readonly modelPath: string | undefined) {}
  /** Reads and digests the whole model: asked only when the index's stamp is not this file's (search/vector.ts). */
  get identity(): EmbedderIdentity {
    return BuiltinEmbedder.open(this.modelPath).identity;
  }
  embedQuery(text: string): Float32Array {
    return QueryRows.open(this.modelPath).embed(text);
  }
}

class Bridged implements QueryEmbedder {
  private readonly shared = new SharedArrayBuffer(QUERY_HEADER_BYTES + MAX_DIMS * 4);
  constructor(private readonly worker: Worker, readonly identity: EmbedderIdentity) {
    worker.unref(); // an idle query thread must not keep the process alive
  }
  embedQuery(text: string): Float32Array | null {
    const state = new Int32Array(this.shared, 0, 2);
    Atomics.store(state, 0, QUERY_PENDING);
    this.worker.postMessage({ type: 'query', text, shared: this.shared } satisfies WorkerRequest);
    const waited = Atomics.wait(state, 0, QUERY_PENDING, QUERY_DEADLINE_MS);
    if (waited === 'timed-out' || Atomics.load(state, 0) !== QUERY_OK) return null;
    return new Float32Array(this.shared, QUERY_HEADER_BYTES, state[1]).slice();
  }
}

/** Query embedders, one per spec, for the life of the process (a model loads once). */
const cache = new Map<string, Promise<QueryEmbedder | null>>();
const ready = new Map<string, QueryEmbedder | null>();

function key(spec: EmbedderSpec): string {
  return JSON.stringify(spec);
}

/**
 * The query embedder for `spec` if it is ready now; starts it otherwise and
 * returns null (that answer is keyword-only). The builtin one is ready at once.
 */
export function queryEmbedder(spec: EmbedderSpec): QueryEmbedder | null {
  if (spec.kind === 'none') return null;
  const k = key(spec);
  if (ready.has(k)) return ready.get(k)!;
  if (spec.kind === 'builtin') {
    const e = new InThread(spec.modelPath);
    ready.set(k, e);
    return e;
  }
  if (!cache.has(k)) {
    const worker = startWorker(spec);
    cache.set(k, workerReady(worker).then(
      (identity) => {
        const e = new Bridged(worker, identity);
        ready.set(k, e);
        return e;
      },
      async () => {
        await worker.terminate();
        cache.delete(k); // try again on a later search
        return null;
      },
    ));
  }
  return null;
}

/** Resolves when the query embedder for `spec` has started (or failed to): a query waits on it, bounded (engine/ready.ts). */
export async function queryEmbedderReady(spec: EmbedderSpec): Promise<QueryEmbedder | null> {
  return queryEmbedder(spec) ?? (await cache.get(key(spec))) ?? null;
}
