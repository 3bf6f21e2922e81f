/**
 * Exact vector search in-process: the stored vectors are loaded once into
 * one Float32Array (moved by what each pass writes: vector-matrix.ts) and scored by dot
 * product — the vectors are unit length, so that is cosine similarity.
 * At 100k chunks × 128 dims this is a few milliseconds; no ANN is needed.
 */
import { modelStamp, queryEmbedder, type EmbedderSpec } from '../embed/index.js';
import { sameIdentity, slot, type Store, type VectorMatrix } from '../store/index.js';
import { indexVersion } from './cache.js';
import { kernels, matrixOf } from './vector-matrix.js';

export interface VectorHit {
  chunkId: number;
  similarity: number;
}

export type RetrievalPhase = 'building' | 'serving' | 'keyword_only';

const COMPLETE = slot<boolean>('every chunk embedded');

/** Every row's dot product with `q`, in JavaScript (dot.wat sums alike). */
export function similarities(matrix: VectorMatrix, q: Float32Array): Float64Array {
  const { data, ids, dims } = matrix;
  const out = new Float64Array(ids.length);
  for (let r = 0; r < ids.length; r++) {
    const at = r * dims;
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0; // four accumulators: independent adds pipeline
    let d = 0;
    for (; d + 3 < dims; d += 4) {
      s0 += data[at + d]! * q[d]!;
      s1 += data[at + d + 1]! * q[d + 1]!;
      s2 += data[at + d + 2]! * q[d + 2]!;
      s3 += data[at + d + 3]! * q[d + 3]!;
    }
    for (; d < dims; d++) s0 += data[at + d]! * q[d]!;
    out[r] = s0 + s1 + s2 + s3;
  }
  return out;
}

/** The `limit` rows of `matrix` most similar to `q`, best first; equal ones by chunk id (rows are in no set order). */
export function nearest(matrix: VectorMatrix, q: Float32Array, limit: number): VectorHit[] {
  const { ids } = matrix;
  const n = ids.length;
  const top: VectorHit[] = [];
  if (limit <= 0) return top;
  const scores = kernels.get(matrix)?.scores(q, n) ?? similarities(matrix, q);
  const ahead = (a: VectorHit, s: number, id: number) => a.similarity > s || (a.similarity === s && a.chunkId < id);
  for (let r = 0; r < n; r++) {
    const s = scores[r]!;
    if (Number.isNaN(s)) continue; // a row of no direction is near nothing
    const id = ids[r]!;
    if (top.length >= limit && ahead(top[limit - 1]!, s, id)) continue;
    let i = top.length < limit ? top.length : limit - 1;
    if (top.length < limit) top.push({ chunkId: id, similarity: s });
    while (i > 0 && !ahead(top[i - 1]!, s, id)) {
      top[i] = top[i - 1]!;
      i--;
    }
    top[i] = { chunkId: id, similarity: s };
  }
  return top;
}

/**
 * The query's vector and the stored ones, or null when vectors cannot answer
 * now: no embedder, its query side not started yet, or the index holds
 * another embedder's space (it is being re-embedded).
 */
export function embeddedQuery(store: Store, spec: EmbedderSpec, query: string): { q: Float32Array; matrix: VectorMatrix } | null {
  const embedder = queryEmbedder(spec);
  if (!embedder) return null;
  const identity = store.vectors.identity();
  if (!identity || !(stampedCurrent(store, spec) || sameIdentity(identity, embedder.identity))) return null;
  const q = embedder.embedQuery(query);
  if (!q || q.length !== identity.dims) return null;
  return { q, matrix: matrixOf(store, identity.dims) };
}

/** Chunks nearest to the query in the stored space, or null when vectors cannot answer now. */
export function vectorSearch(store: Store, spec: EmbedderSpec, query: string, limit: number): VectorHit[] | null {
  const embedded = embeddedQuery(store, spec, query);
  return embedded && nearest(embedded.matrix, embedded.q, limit);
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let d = 0; d < a.length; d++) s += a[d]! * b[d]!;
  return s;
}

/** Whether every chunk has a vector; counted again only after the index changed (the count scans every chunk). */
function allEmbedded(store: Store): boolean {
  return store.memo.derived(COMPLETE, indexVersion(store), () => store.vectors.pendingCount() === 0);
}

/**
 * Whether the stored vectors are the builtin model's, from the stamp an index pass left
 * (VectorTable.stamp): known without reading or digesting the model file.
 */
function stampedCurrent(store: Store, spec: EmbedderSpec): boolean {
  return spec.kind === 'builtin' && store.vectors.stamp() === modelStamp(spec.modelPath);
}

/** keyword_only with no embedder; serving once every chunk has a vector of the current space; building before. */
export function retrievalPhase(store: Store, spec: EmbedderSpec): RetrievalPhase {
  if (spec.kind === 'none') return 'keyword_only';
  if (!stampedCurrent(store, spec)) {
    const embedder = queryEmbedder(spec);
    if (!embedder || !sameIdentity(store.vectors.identity(), embedder.identity)) return 'building';
  }
  return allEmbedded(store) ? 'serving' : 'building';
}
