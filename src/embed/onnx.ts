/**
 * Any sentence-transformers-style model folder run with onnxruntime-node:
 * `config.json`, `tokenizer.json` (WordPiece), and `onnx/model.onnx` (or
 * `model.onnx`, or a quantized variant). Pooling follows
 * `1_Pooling/config.json` (mean by default, CLS, max or last token); vectors
 * are always L2-normalised, because the index compares them by cosine.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SightlineError } from '../errors/index.js';
import { digest } from '../walk/index.js';
import { normalize } from './http.js';
import type { Embedder, EmbedderIdentity } from './types.js';
import { WordPiece } from './wordpiece.js';

type Ort = typeof import('onnxruntime-node');
type Pooling = 'mean' | 'cls' | 'max' | 'lasttoken';

/** Longest input in tokens: code chunks rarely need more, and attention cost grows with the square. */
const MAX_TOKENS = 256;
const MODEL_CANDIDATES = ['onnx/model.onnx', 'model.onnx', 'onnx/model_quantized.onnx', 'model_quantized.onnx'];

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SightlineError('usage', `cannot read ${file}: ${(err as Error).message}`);
  }
}

function poolingOf(dir: string): Pooling {
  const cfg = readJson<Record<string, unknown>>(path.join(dir, '1_Pooling', 'config.json'));
  if (!cfg) return 'mean';
  if (cfg.pooling_mode_cls_token) return 'cls';
  if (cfg.pooling_mode_max_tokens) return 'max';
  if (cfg.pooling_mode_lasttoken) return 'lasttoken';
  return 'mean';
}

async function loadOrt(): Promise<Ort> {
  try {
    return await import('onnxruntime-node');
  } catch {
    throw new SightlineError('usage', 'the onnx embedder needs the optional package onnxruntime-node (npm install onnxruntime-node)');
  }
}

/** Pools one sequence's token vectors [len × dims] out of a [batch × seq × dims] buffer. */
export function pool(data: Float32Array, row: number, seq: number, dims: number, len: number, mode: Pooling): Float32Array {
  const out = new Float32Array(dims);
  const at = (t: number) => (row * seq + t) * dims;
  if (mode === 'cls' || mode === 'lasttoken') {
    out.set(data.subarray(at(mode === 'cls' ? 0 : len - 1), at(mode === 'cls' ? 0 : len - 1) + dims));
    return out;
  }
  if (mode === 'max') out.fill(-Infinity);
  for (let t = 0; t < len; t++) {
    const base = at(t);
    for (let d = 0; d < dims; d++) out[d] = mode === 'max' ? Math.max(out[d]!, data[base + d]!) : out[d]! + data[base + d]!;
  }
  if (mode === 'mean') for (let d = 0; d < dims; d++) out[d] = out[d]! / len;
  return out;
}

export class OnnxEmbedder implements Embedder {
  private constructor(
    readonly identity: EmbedderIdentity,
    private readonly ort: Ort,
    private readonly session: import('onnxruntime-node').InferenceSession,
    private readonly tokenizer: WordPiece,
    private readonly pooling: Pooling,
    private readonly batchSize: number,
  ) {}

  static async open(modelDir: string, batchSize: number): Promise<OnnxEmbedder> {
    const dir = path.resolve(modelDir);
    const modelFile = MODEL_CANDIDATES.map((m) => path.join(dir, m)).find((f) => fs.existsSync(f));
    if (!modelFile) throw new SightlineError('usage', `no ONNX model in ${dir} (looked for ${MODEL_CANDIDATES.join(', ')})`);
    const tokenizerFile = path.join(dir, 'tokenizer.json');
    if (!fs.existsSync(tokenizerFile)) throw new SightlineError('usage', `no tokenizer.json in ${dir}`);
    const config = readJson<{ hidden_size?: number; max_position_embeddings?: number }>(path.join(dir, 'config.json')) ?? {};
    const ort = await loadOrt();
    const session = await ort.InferenceSession.create(modelFile, { intraOpNumThreads: 1, interOpNumThreads: 1 });
    const tokenizer = WordPiece.fromFile(tokenizerFile, Math.min(MAX_TOKENS, config.max_position_embeddings ?? MAX_TOKENS));
    const embedder = new OnnxEmbedder(
      { name: 'onnx', model: `${path.basename(dir)}@${digest(fs.readFileSync(modelFile)).slice(0, 12)}`, dims: 0 },
      ort, session, tokenizer, poolingOf(dir), batchSize,
    );
    // The width is whatever the graph produces: learn it once rather than trusting config.json.
    const [probe] = await embedder.embed(['dimension probe']);
    (embedder as { identity: EmbedderIdentity }).identity = { ...embedder.identity, dims: probe!.length };
    if (config.hidden_size && probe!.length !== config.hidden_size && embedder.session.outputNames.length === 1) {
      throw new SightlineError('usage', `${modelFile} produces ${probe!.length}-wide vectors but config.json says hidden_size ${config.hidden_size}`);
    }
    return embedder;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) out.push(...(await this.run(texts.slice(i, i + this.batchSize))));
    return out;
  }

  private async run(texts: string[]): Promise<Float32Array[]> {
    const encoded = texts.map((t) => this.tokenizer.encode(t));
    const seq = Math.max(...encoded.map((e) => e.length));
    const n = texts.length;
    const ids = new BigInt64Array(n * seq);
    const mask = new BigInt64Array(n * seq);
    encoded.forEach((e, r) => e.forEach((id, t) => {
      ids[r * seq + t] = BigInt(id);
      mask[r * seq + t] = 1n;
    }));
    const feeds: Record<string, import('onnxruntime-node').Tensor> = {};
    const names = this.session.inputNames;
    if (names.includes('input_ids')) feeds.input_ids = new this.ort.Tensor('int64', ids, [n, seq]);
    if (names.includes('attention_mask')) feeds.attention_mask = new this.ort.Tensor('int64', mask, [n, seq]);
    if (names.includes('token_type_ids')) feeds.token_type_ids = new this.ort.Tensor('int64', new BigInt64Array(n * seq), [n, seq]);
    const result = await this.session.run(feeds);
    const name = this.session.outputNames.includes('last_hidden_state') ? 'last_hidden_state' : this.session.outputNames[0]!;
    const output = result[name]!;
    const data = output.data as Float32Array;
    if (output.dims.length === 2) {
      // Already pooled (a sentence_embedding output).
      const dims = output.dims[1]!;
      return encoded.map((_, r) => normalize(data.slice(r * dims, (r + 1) * dims)));
    }
    const dims = output.dims[2]!;
    return encoded.map((e, r) => normalize(pool(data, r, seq, dims, e.length, this.pooling)));
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}
