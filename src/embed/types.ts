/** Public types of the embed module (re-exported by index.ts). */

/** Which embedder made a vector space: vectors of two identities are never compared. */
export interface EmbedderIdentity {
  name: 'builtin' | 'onnx' | 'http';
  /** Model name or file digest: a new model is a new space even at the same width. */
  model: string;
  dims: number;
}

export interface Embedder {
  readonly identity: EmbedderIdentity;
  /** Unit-length vectors, one per text, in order. Rejects rather than returning fewer. */
  embed(texts: string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/** Everything needed to build an embedder, serialisable so a worker thread can build its own. */
export type EmbedderSpec =
  | { kind: 'none' }
  | { kind: 'builtin'; modelPath?: string }
  | { kind: 'onnx'; modelDir: string; batchSize: number }
  | {
      kind: 'http';
      baseUrl: string;
      model: string;
      /** Sent as the request's `dimensions` when set; otherwise the server's default width. */
      dimensions?: number;
      batchSize: number;
      concurrency: number;
      /** From the environment only (SIGHTLINE_EMBED_API_KEY); never logged or stored. */
      apiKey?: string;
      timeoutMs: number;
      maxRetries: number;
    };

export type EmbedderKind = EmbedderSpec['kind'];
