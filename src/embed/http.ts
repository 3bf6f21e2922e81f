/**
 * An OpenAI-compatible `/v1/embeddings` client (Ollama, LM Studio, vLLM,
 * OpenAI, Voyage …). Texts go out in batches, a few at a time; 429 and 5xx
 * replies, timeouts and network errors are retried with backoff that honours
 * Retry-After. A batch that still fails rejects the whole call — the caller
 * leaves those chunks unembedded for the next pass; nothing is dropped.
 */
import { SightlineError } from '../errors/index.js';
import type { Embedder, EmbedderIdentity, EmbedderSpec } from './types.js';

type HttpSpec = Extract<EmbedderSpec, { kind: 'http' }>;

/** First retry waits this long when the server names no Retry-After; doubles each time. */
const BASE_BACKOFF_MS = 500;
/** A Retry-After longer than this is capped: a pass should not sleep for an hour. */
const MAX_BACKOFF_MS = 30_000;

export class EmbedRequestError extends SightlineError {
  constructor(message: string, readonly retryable: boolean, readonly retryAfterMs?: number) {
    super('io', message);
  }
}

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function endpoint(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return trimmed.endsWith('/embeddings') ? trimmed : `${trimmed}/embeddings`;
}

/** Checks the reply's shape and returns unit vectors in input order. */
export function parseEmbeddings(body: unknown, count: number, dims: number | undefined): Float32Array[] {
  const data = (body as { data?: unknown })?.data;
  if (!Array.isArray(data) || data.length !== count) {
    throw new EmbedRequestError(`the embeddings reply has ${Array.isArray(data) ? data.length : 'no'} vectors for ${count} inputs`, true);
  }
  const out: Float32Array[] = new Array(count);
  data.forEach((item: { index?: unknown; embedding?: unknown }, i) => {
    const at = typeof item?.index === 'number' ? item.index : i;
    const e = item?.embedding;
    if (!Array.isArray(e) || e.length === 0 || !e.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw new EmbedRequestError('the embeddings reply holds a vector that is not a list of numbers', true);
    }
    if (dims !== undefined && e.length !== dims) throw new EmbedRequestError(`the embeddings reply has ${e.length} dimensions, expected ${dims}`, false);
    if (at < 0 || at >= count || out[at]) throw new EmbedRequestError('the embeddings reply has a bad or repeated index', true);
    out[at] = normalize(Float32Array.from(e));
  });
  return out;
}

export function normalize(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i] * v[i];
  if (n > 0) {
    const inv = 1 / Math.sqrt(n);
    for (let i = 0; i < v.length; i++) v[i] *= inv;
  }
  return v;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class HttpEmbedder implements Embedder {
  identity: EmbedderIdentity;
  private readonly url: string;

  constructor(private readonly spec: HttpSpec) {
    this.url = endpoint(spec.baseUrl);
    this.identity = { name: 'http', model: spec.model, dims: spec.dimensions ?? 0 };
  }

  /** Learns the width from one request when no `dimensions` was configured. */
  static async open(spec: HttpSpec): Promise<HttpEmbedder> {
    const e = new HttpEmbedder(spec);
    if (!spec.dimensions) e.identity = { ...e.identity, dims: (await e.request(['dimension probe']))[0]!.length };
    return e;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const batches: string[][] = [];
    for (let i = 0; i < texts.length; i += this.spec.batchSize) batches.push(texts.slice(i, i + this.spec.batchSize));
    const results: Float32Array[][] = new Array(batches.length);
    let next = 0;
    const lane = async () => {
      while (next < batches.length) {
        const i = next++;
        results[i] = await this.withRetries(batches[i]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.spec.concurrency, batches.length) }, lane));
    return results.flat();
  }

  private async withRetries(batch: string[]): Promise<Float32Array[]> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.request(batch);
      } catch (err) {
        const e = err instanceof EmbedRequestError ? err : new EmbedRequestError(`embedding request failed: ${(err as Error).message}`, true);
        if (!e.retryable || attempt >= this.spec.maxRetries) throw e;
        const backoff = e.retryAfterMs ?? BASE_BACKOFF_MS * 2 ** attempt * (0.5 + Math.random() / 2);
        await sleep(Math.min(MAX_BACKOFF_MS, backoff));
      }
    }
  }

  private async request(batch: string[]): Promise<Float32Array[]> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.spec.apiKey) headers.authorization = `Bearer ${this.spec.apiKey}`;
    const body = JSON.stringify({ model: this.spec.model, input: batch, encoding_format: 'float', ...(this.spec.dimensions ? { dimensions: this.spec.dimensions } : {}) });
    let res: Response;
    try {
      res = await fetch(this.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(this.spec.timeoutMs) });
    } catch (err) {
      const name = (err as Error).name;
      const why = name === 'TimeoutError' ? `timed out after ${this.spec.timeoutMs} ms` : (err as Error).message;
      throw new EmbedRequestError(`embedding request to ${this.url} failed: ${why}`, true);
    }
    if (!res.ok) {
      const text = (await res.text().catch(() => '')).slice(0, 200);
      const retryable = res.status === 429 || res.status >= 500;
      throw new EmbedRequestError(`embedding endpoint ${this.url} answered ${res.status}${text ? `: ${text}` : ''}`, retryable, retryable ? retryAfterMs(res.headers.get('retry-after')) : undefined);
    }
    let json: unknown;
    try {
      json = await res.json();
    } catch {
      throw new EmbedRequestError(`embedding endpoint ${this.url} answered with invalid JSON`, true);
    }
    return parseEmbeddings(json, batch.length, this.identity.dims || undefined);
  }

  async close(): Promise<void> {}
}
