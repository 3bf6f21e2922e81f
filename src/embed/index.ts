/**
 * Embedding providers behind one interface: `builtin` (the shipped static
 * model, the default), `onnx` (a sentence-transformers folder), `http` (an
 * OpenAI-compatible endpoint) and `none` (keyword search only).
 */
import type { Config } from '../config/index.js';
import { usageError } from '../errors/index.js';
import { BuiltinEmbedder } from './builtin.js';
import { HttpEmbedder } from './http.js';
import type { Embedder, EmbedderSpec } from './types.js';

export type { Embedder, EmbedderIdentity, EmbedderKind, EmbedderSpec } from './types.js';
export { embeddingText } from './text.js';
export { BuiltinEmbedder, defaultModelPath, modelStamp } from './builtin.js';
export { EmbedWorker } from './worker-client.js';
export { queryEmbedder, queryEmbedderReady, type QueryEmbedder } from './query.js';
/** Scales a vector to unit length in place: what every embedder returns, and what vector search compares. */
export { normalize } from './http.js';

/** The API key travels only from this variable into request headers: never config files, logs or the index. */
const API_KEY_ENV = 'SIGHTLINE_EMBED_API_KEY';
const HTTP_TIMEOUT_MS = 60_000;
const HTTP_MAX_RETRIES = 6;

export function embedderSpec(config: Config, env: NodeJS.ProcessEnv = process.env): EmbedderSpec {
  switch (config.embedder) {
    case 'none':
      return { kind: 'none' };
    case 'builtin':
      return { kind: 'builtin' };
    case 'onnx':
      if (!config.modelDir) throw usageError('the onnx embedder needs a model folder: pass --model-dir or set SIGHTLINE_MODEL_DIR');
      return { kind: 'onnx', modelDir: config.modelDir, batchSize: config.embedBatchSize };
    case 'http':
      if (!config.embedUrl || !config.embedModel) {
        throw usageError('the http embedder needs a base URL and a model: set SIGHTLINE_EMBED_URL (e.g. http://localhost:11434/v1) and SIGHTLINE_EMBED_MODEL');
      }
      return {
        kind: 'http',
        baseUrl: config.embedUrl,
        model: config.embedModel,
        dimensions: config.embedDimensions || undefined,
        batchSize: config.embedBatchSize,
        concurrency: config.embedConcurrency,
        apiKey: env[API_KEY_ENV]?.trim() || undefined,
        timeoutMs: HTTP_TIMEOUT_MS,
        maxRetries: HTTP_MAX_RETRIES,
      };
  }
}

/** Builds the embedder a spec names; null for `none`. */
export async function openEmbedder(spec: EmbedderSpec): Promise<Embedder | null> {
  switch (spec.kind) {
    case 'none':
      return null;
    case 'builtin':
      return BuiltinEmbedder.open(spec.modelPath);
    case 'http':
      return HttpEmbedder.open(spec);
    case 'onnx': {
      const { OnnxEmbedder } = await import('./onnx.js'); // loads the native runtime only when asked for
      return OnnxEmbedder.open(spec.modelDir, spec.batchSize);
    }
  }
}
