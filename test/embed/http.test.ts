import { afterEach, describe, expect, it } from 'vitest';
import { EmbedRequestError, HttpEmbedder, parseEmbeddings, retryAfterMs } from '../../src/embed/http.js';
import type { EmbedderSpec } from '../../src/embed/index.js';
import { startFakeEmbeddings, vectorFor, type FakeEmbeddings } from './fixtures/fake-embeddings.mjs';

const KEY = 'sk-test-secret-key-0123456789';
let fake: FakeEmbeddings | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

function spec(url: string, over: Partial<Extract<EmbedderSpec, { kind: 'http' }>> = {}): Extract<EmbedderSpec, { kind: 'http' }> {
  return { kind: 'http', baseUrl: url, model: 'fake-embed', batchSize: 4, concurrency: 2, apiKey: KEY, timeoutMs: 2_000, maxRetries: 3, dimensions: 8, ...over };
}

function unit(v: number[]): number[] {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

describe('http embedder', () => {
  it('posts to /v1/embeddings with the key and returns unit vectors in input order across batches', async () => {
    fake = await startFakeEmbeddings();
    const texts = Array.from({ length: 11 }, (_, i) => `text number ${i}`);
    const vecs = await new HttpEmbedder(spec(fake.url, { batchSize: 3, concurrency: 3 })).embed(texts);
    expect(vecs).toHaveLength(11);
    vecs.forEach((v, i) => expect([...v].map((x) => Number(x.toFixed(5)))).toEqual(unit(vectorFor(texts[i]!, 8)).map((x) => Number(x.toFixed(5)))));
    expect(fake.state.requests).toHaveLength(4);
    expect(fake.state.requests.every((r) => r.url === '/v1/embeddings' && r.authorization === `Bearer ${KEY}` && r.dimensions === 8)).toBe(true);
  });

  it('learns the width from a probe when no dimensions are configured', async () => {
    fake = await startFakeEmbeddings({ dims: 12 });
    const e = await HttpEmbedder.open(spec(fake.url, { dimensions: undefined }));
    expect(e.identity).toEqual({ name: 'http', model: 'fake-embed', dims: 12 });
  });

  it('retries 429 (with Retry-After), 5xx, timeouts and malformed replies, then succeeds', async () => {
    for (const fault of ['429:0', '500', 'hang', 'bad-count', 'bad-number', 'bad-json']) {
      fake = await startFakeEmbeddings({ script: [fault] });
      const vecs = await new HttpEmbedder(spec(fake.url, { timeoutMs: 300 })).embed(['a b c', 'd e f']);
      expect(vecs, fault).toHaveLength(2);
      expect(fake.state.requests, fault).toHaveLength(2);
      await fake.close();
      fake = null;
    }
  });

  it('gives up after maxRetries and says why, never showing the key', async () => {
    fake = await startFakeEmbeddings({ script: ['429:0', '429:0', '429:0', '429:0', '429:0'] });
    const err = await new HttpEmbedder(spec(fake.url, { maxRetries: 2 })).embed(['x y z']).catch((e: Error) => e);
    expect(err).toBeInstanceOf(EmbedRequestError);
    expect((err as Error).message).toMatch(/429/);
    expect((err as Error).message).not.toContain(KEY);
    expect(fake.state.requests).toHaveLength(3);
  });

  it('does not retry a client error other than 429', async () => {
    fake = await startFakeEmbeddings({ script: ['400'] });
    await expect(new HttpEmbedder(spec(fake.url)).embed(['x y z'])).rejects.toThrow(/400/);
    expect(fake.state.requests).toHaveLength(1);
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });

  it('rejects replies of the wrong shape or width', () => {
    expect(() => parseEmbeddings({ data: [{ embedding: [1, 0] }] }, 2, undefined)).toThrow(/1 vectors for 2/);
    expect(() => parseEmbeddings({ data: [{ embedding: [1, 0, 0] }] }, 1, 2)).toThrow(/3 dimensions, expected 2/);
    expect(() => parseEmbeddings({ data: [{ index: 0, embedding: [1] }, { index: 0, embedding: [1] }] }, 2, undefined)).toThrow(/repeated/);
    expect(parseEmbeddings({ data: [{ index: 1, embedding: [0, 2] }, { index: 0, embedding: [3, 0] }] }, 2, 2).map((v) => [...v])).toEqual([[1, 0], [0, 1]]);
  });
});
