/** Messages between the embedding thread (worker.ts) and its callers (worker-client.ts, query.ts). */
import type { EmbedderIdentity } from './types.js';

export type WorkerRequest =
  | { type: 'embed'; id: number; texts: string[] }
  | { type: 'query'; text: string; shared: SharedArrayBuffer };
export type WorkerReply =
  | { type: 'ready'; identity: EmbedderIdentity }
  | { type: 'open-failed'; message: string }
  | { type: 'result'; id: number; data: Float32Array; dims: number }
  | { type: 'failed'; id: number; message: string };

/** Shared-memory answer layout: Int32 [state, length], then float32 data. */
export const QUERY_PENDING = 0;
export const QUERY_OK = 1;
export const QUERY_FAILED = 2;
export const QUERY_HEADER_BYTES = 8;
