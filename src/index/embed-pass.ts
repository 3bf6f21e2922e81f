/**
 * The embedding pass, run after the lexical pass and beside graph resolution: every chunk without a
 * vector is embedded — on the embedding thread, unless only a few are — and
 * its vector stored only if the chunk still holds that text. Keyword search
 * keeps answering from the main thread meanwhile. A change of embedder (name, model or width) drops
 * the old space first; spaces never mix. A batch that fails stops the pass
 * and leaves the rest pending for the next one.
 */
import { memoryPlan, type Config } from '../config/index.js';
import { describeError } from '../errors/index.js';
import { BuiltinEmbedder, EmbedWorker, embedderSpec, embeddingText, modelStamp, openEmbedder, type Embedder, type EmbedderIdentity, type EmbedderSpec } from '../embed/index.js';
import { sameIdentity, type PendingChunk, type Store } from '../store/index.js';

export interface EmbedSummary {
  embedded: number;
  /** Chunks still without a vector (a failed batch, or chunks that changed while embedding). */
  pending: number;
  /** Why the pass stopped early; null when it finished. */
  error: string | null;
  identity: EmbedderIdentity | null;
}

export interface EmbedProgress {
  phase: 'embedding';
  done: number;
  total: number;
}

/**
 * Pages in flight: the thread embeds one while the main thread stores the other. A page (chunks
 * per message to the embedding thread: big enough to amortise the hop, small enough to commit
 * often) follows the memory ceiling, config/memory.ts.
 */
const IN_FLIGHT = 2;
/**
 * Up to this many chunks are embedded on the calling thread: starting a
 * thread costs more than embedding them (a few edited files), and the
 * remote and ONNX embedders await I/O or native work anyway.
 */
const IN_THREAD_MAX = 256;

export interface EmbedPassOptions {
  onProgress?: (p: EmbedProgress) => void;
  /** Most chunks embedded without starting the thread (tests set 0 to exercise it). */
  inThreadMax?: number;
  /** Aborted: no page is sent after it; those in flight are stored, the rest stay pending. */
  signal?: AbortSignal;
}

/**
 * True when the stored space is the one `spec` would produce, judged without starting a model.
 * The builtin model's is vouched for by `stamp`, the model file's (VectorTable.stamp), else by
 * its identity, and then stamped for the next reader.
 */
function currentSpace(store: Store, spec: EmbedderSpec, stored: EmbedderIdentity | null, stamp: string | null): boolean {
  if (!stored || spec.kind === 'none' || stored.name !== spec.kind) return false;
  if (spec.kind === 'builtin') {
    if (stamp !== null && store.vectors.stamp() === stamp) return true;
    if (!sameIdentity(stored, BuiltinEmbedder.open(spec.modelPath).identity)) return false;
    if (stamp !== null) store.transaction(() => store.vectors.vouch(stamp));
    return true;
  }
  if (spec.kind === 'http') return stored.model === spec.model && (!spec.dimensions || stored.dims === spec.dimensions);
  return stored.model.startsWith(`${spec.modelDir.replace(/\/+$/, '').split('/').pop()}@`);
}

/** The builtin model file's stamp; null when it cannot be found (opening the model then says why, as before stamps). */
function stampOf(modelPath: string | undefined): string | null {
  try {
    return modelStamp(modelPath);
  } catch {
    return null;
  }
}

export async function embedPass(store: Store, config: Config, options: EmbedPassOptions = {}): Promise<EmbedSummary | null> {
  const { onProgress = () => {}, inThreadMax = IN_THREAD_MAX, signal } = options;
  const spec = embedderSpec(config);
  if (spec.kind === 'none') return null;
  const { vectors } = store;
  const stored = vectors.identity() as EmbedderIdentity | null;
  let pending = vectors.pendingCount();
  // Taken before the model is read: a file replaced meanwhile leaves a stamp that matches neither it nor its successor.
  const stamp = spec.kind === 'builtin' ? stampOf(spec.modelPath) : null;
  const current = currentSpace(store, spec, stored, stamp);
  if (pending === 0 && current) return { embedded: 0, pending: 0, error: null, identity: stored };
  const work = current ? pending : store.counts().chunks;
  const page = memoryPlan(config.maxMemoryMB).embedPage;
  let afterId = 0;
  const inFlight: { chunks: PendingChunk[]; vecs: Promise<Float32Array[]> }[] = [];
  const refill = (embedder: Pick<Embedder, 'embed'>, total: number) => {
    while (inFlight.length < IN_FLIGHT && !signal?.aborted) {
      const few = total <= page;
      const chunks = vectors.pending(afterId, few ? total : page, few);
      if (chunks.length === 0) return;
      afterId = chunks[chunks.length - 1]!.id;
      const vecs = embedder.embed(chunks.map(embeddingText));
      vecs.catch(() => {}); // awaited below; a rejection before then is not unhandled
      inFlight.push({ chunks, vecs });
    }
  };
  let embedder: Pick<Embedder, 'embed' | 'close'> | null = null;
  let identity: EmbedderIdentity;
  try {
    if (work <= inThreadMax) {
      const opened = (await openEmbedder(spec))!;
      embedder = opened;
      identity = opened.identity;
    } else {
      const worker = (embedder = EmbedWorker.launch(spec));
      // Where no stored vector must go first (the space is this one, or none is stored), the first pages
      // go before the thread has opened its model: its start and their embedding run beside the graph,
      // which a small tree resolves on this thread.
      if (pending === work) refill(worker, pending);
      identity = await worker.opened;
    }
  } catch (err) {
    await embedder?.close();
    return { embedded: 0, pending, error: `embedding did not start: ${describeError(err)}; keyword search is unaffected`, identity: null };
  }
  const summary: EmbedSummary = { embedded: 0, pending, error: null, identity };
  try {
    if (!sameIdentity(stored, identity)) {
      store.transaction(() => {
        vectors.reset(identity);
        if (stamp !== null) vectors.vouch(stamp);
      });
      pending = vectors.pendingCount();
    }
    const total = pending;
    onProgress({ phase: 'embedding', done: 0, total });
    for (refill(embedder, total); inFlight.length > 0; refill(embedder, total)) {
      const { chunks, vecs } = inFlight.shift()!;
      const got = await vecs;
      store.transaction(() => {
        chunks.forEach((chunk, i) => {
          if (vectors.put(chunk, got[i]!)) summary.embedded++;
        });
      });
      onProgress({ phase: 'embedding', done: summary.embedded, total });
    }
  } catch (err) {
    summary.error = `embedding stopped: ${describeError(err)}; the chunks left are retried on the next index pass`;
  } finally {
    await embedder.close();
  }
  summary.pending = vectors.pendingCount();
  return summary;
}
