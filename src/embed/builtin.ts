/**
 * The builtin embedder: a static bag-of-features model trained by
 * scripts/embedder/train.py and shipped in models/builtin.bin. A text embeds
 * as the normalised weighted sum of its feature rows; no network, no native
 * code, thousands of chunks a second on one core.
 *
 * File layout: "SLEMB001", u32 LE header length, JSON header (dims, buckets,
 * vocab, …), float32 scale per row, then int8 rows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SightlineError } from '../errors/index.js';
import { shippedFile } from '../shipped.js';
import { digest } from '../walk/index.js';
import { forEachFeature, type FeatureSpace } from './features.js';
import type { Embedder, EmbedderIdentity } from './types.js';

const MAGIC = 'SLEMB001';
const MODEL_FILE = path.join('models', 'builtin.bin');

interface Header {
  name: string;
  dims: number;
  buckets: number;
  vocab: string[];
}

export interface StaticModel {
  readonly space: FeatureSpace;
  readonly dims: number;
  readonly scales: Float32Array;
  readonly rows: Int8Array;
  /** Short content digest: retraining the model changes the identity. */
  readonly digest: string;
}

/** models/builtin.bin of this package. */
export function defaultModelPath(): string {
  const file = shippedFile(MODEL_FILE);
  if (file === null) throw new SightlineError('usage', `the builtin embedding model (${MODEL_FILE}) is missing from this installation; reinstall sightline or use --embedder none`);
  return file;
}

export function loadStaticModel(file: string): StaticModel {
  const buf = fs.readFileSync(file);
  if (buf.subarray(0, 8).toString('latin1') !== MAGIC) throw new SightlineError('usage', `${file} is not a sightline embedding model`);
  const headerLen = buf.readUInt32LE(8);
  const header = JSON.parse(buf.subarray(12, 12 + headerLen).toString('utf8')) as Header;
  const rowCount = header.vocab.length + header.buckets;
  const scalesAt = 12 + headerLen;
  const rowsAt = scalesAt + rowCount * 4;
  if (buf.length !== rowsAt + rowCount * header.dims) throw new SightlineError('usage', `${file} is truncated`);
  // The tables are decoded on the first embedding: a pass with nothing to embed,
  // or a keyword search, needs only the identity (name, width, digest).
  let tables: Pick<StaticModel, 'space' | 'scales' | 'rows'> | undefined;
  const decoded = () => {
    if (tables) return tables;
    // The scales are copied out (a Float32Array must be 4-byte aligned; the file's floats are
    // little-endian, as typed arrays are on every platform Node runs on); int8 rows need no alignment.
    const scales = new Float32Array(buf.buffer.slice(buf.byteOffset + scalesAt, buf.byteOffset + rowsAt));
    const rows = new Int8Array(buf.buffer, buf.byteOffset + rowsAt, rowCount * header.dims);
    return (tables = { space: { vocab: new Map(header.vocab.map((t, i) => [t, i])), buckets: header.buckets }, scales, rows });
  };
  return {
    dims: header.dims,
    digest: `${header.name}@${digest(buf).slice(0, 12)}`,
    get space() {
      return decoded().space;
    },
    get scales() {
      return decoded().scales;
    },
    get rows() {
      return decoded().rows;
    },
  };
}

/** Per-thread scratch: feature counts by row, and the rows touched, reused across texts. */
const scratch = new WeakMap<StaticModel, { counts: Float32Array; touched: Int32Array }>();

/** One unit vector (all zeros for a text with no features). */
export function embedStatic(model: StaticModel, text: string): Float32Array {
  const { dims, rows, scales } = model;
  let s = scratch.get(model);
  if (!s) scratch.set(model, (s = { counts: new Float32Array(scales.length), touched: new Int32Array(scales.length) }));
  const { counts, touched } = s;
  let n = 0;
  forEachFeature(text, model.space, (row) => {
    if (counts[row]++ === 0) touched[n++] = row;
  });
  const out = new Float32Array(dims);
  for (let t = 0; t < n; t++) {
    const row = touched[t]!;
    const w = (1 + Math.log(counts[row]!)) * scales[row]!;
    counts[row] = 0;
    const at = row * dims;
    for (let d = 0; d < dims; d++) out[d] += w * rows[at + d]!;
  }
  let norm = 0;
  for (let d = 0; d < dims; d++) norm += out[d]! * out[d]!;
  if (norm > 0) {
    const inv = 1 / Math.sqrt(norm);
    for (let d = 0; d < dims; d++) out[d] *= inv;
  }
  return out;
}

const loaded = new Map<string, { size: number; mtimeMs: number; model: StaticModel }>();

/**
 * The model file's path, size and mtime: what `open` trusts to reuse a model it read, and what
 * the index records beside the identity (VectorTable.stamp) so that learning whether its
 * vectors are current costs a stat instead of reading and digesting 5 MB.
 */
export function modelStamp(modelPath = defaultModelPath()): string {
  const { size, mtimeMs } = fs.statSync(modelPath);
  return JSON.stringify([modelPath, size, mtimeMs]);
}

export class BuiltinEmbedder implements Embedder {
  readonly identity: EmbedderIdentity;
  private constructor(readonly model: StaticModel) {
    this.identity = { name: 'builtin', model: model.digest, dims: model.dims };
  }

  /**
   * The model at `modelPath`, read once per process while the file is
   * unchanged: reading and digesting it costs more than embedding an edited
   * file's chunks, and every index pass opens it.
   */
  static open(modelPath = defaultModelPath()): BuiltinEmbedder {
    const { size, mtimeMs } = fs.statSync(modelPath);
    let cached = loaded.get(modelPath);
    if (cached?.size !== size || cached.mtimeMs !== mtimeMs) loaded.set(modelPath, (cached = { size, mtimeMs, model: loadStaticModel(modelPath) }));
    return new BuiltinEmbedder(cached.model);
  }

  embedOne(text: string): Float32Array {
    return embedStatic(this.model, text);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => embedStatic(this.model, t));
  }

  async close(): Promise<void> {}
}
