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
import { fileURLToPath } from 'node:url';
import { SightlineError } from '../errors/index.js';
import { shippedFile } from '../shipped.js';
import { FNV_BASIS, fnv1a, fnvStep } from '../fnv.js';
import { digest } from '../walk/index.js';
import { featuresOf, forEachFeature, type FeatureSpace } from './features.js';
import { normalize } from './http.js';
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
    addRow(out, (1 + Math.log(counts[row]!)) * scales[row]!, rows, row * dims);
    counts[row] = 0;
  }
  return normalize(out);
}

/**
 * out += weight · rows[at … at + out.length): one feature's share of a text's vector, the
 * embedder's innermost loop, four dimensions a step. Each dimension is added as before, in the
 * same order, so the vector is the same to the bit.
 */
function addRow(out: Float32Array, weight: number, rows: Int8Array, at: number): void {
  const n = out.length;
  const whole = n - (n % 4);
  let d = 0;
  for (; d < whole; d += 4) {
    out[d] += weight * rows[at + d]!;
    out[d + 1] += weight * rows[at + d + 1]!;
    out[d + 2] += weight * rows[at + d + 2]!;
    out[d + 3] += weight * rows[at + d + 3]!;
  }
  for (; d < n; d++) out[d] += weight * rows[at + d]!;
}

/** What a process read from a model file, kept while the file's size and mtime stay the same. */
function readOnce<T>(kept: Map<string, { size: number; mtimeMs: number; value: T }>, file: string, read: (file: string) => T): T {
  const { size, mtimeMs } = fs.statSync(file);
  let cached = kept.get(file);
  if (cached?.size !== size || cached.mtimeMs !== mtimeMs) kept.set(file, (cached = { size, mtimeMs, value: read(file) }));
  return cached.value;
}

const loaded = new Map<string, { size: number; mtimeMs: number; value: StaticModel }>();

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
    return new BuiltinEmbedder(readOnce(loaded, modelPath, loadStaticModel));
  }

  embedOne(text: string): Float32Array {
    return embedStatic(this.model, text);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => embedStatic(this.model, t));
  }

  async close(): Promise<void> {}
}

const headers = new Map<string, { size: number; mtimeMs: number; value: QueryRows }>();

/**
 * The model as one query needs it: a few dozen rows. Reading the whole 5 MB
 * file and mapping its 30,000 terms cost a fresh process (a CLI search) about
 * 80 ms, its digest included; this reads the header once and each row a query
 * touches as it is asked. Terms are found in the header's own text: the
 * vocabulary is a JSON array, so a term's row is the number of entries before it
 * (the table the build wrote says where each entry lies, else one scan does).
 */
export class QueryRows {
  private readonly space: FeatureSpace;

  private constructor(
    private readonly file: string,
    private readonly layout: { dims: number; scalesAt: number; rowsAt: number },
    vocab: VocabText,
    buckets: number,
  ) {
    this.space = { vocab, buckets };
  }

  /** The rows of the model at `file`, its header read once per process while the file is unchanged. */
  static open(file = defaultModelPath()): QueryRows {
    return readOnce(headers, file, (f) => {
      const fd = fs.openSync(f, 'r');
      try {
        const head = Buffer.alloc(12);
        fs.readSync(fd, head, 0, 12, 0);
        if (head.subarray(0, 8).toString('latin1') !== MAGIC) throw new SightlineError('usage', `${f} is not a sightline embedding model`);
        const text = Buffer.alloc(head.readUInt32LE(8));
        fs.readSync(fd, text, 0, text.length, 12);
        const header = text.toString('utf8');
        const { size } = fs.fstatSync(fd);
        const vocab = new VocabText(header, builtVocab(size, header) ?? scanVocab(header));
        const fields = vocab.otherFields() as Omit<Header, 'vocab'>;
        const rowCount = vocab.size + fields.buckets;
        const scalesAt = 12 + text.length;
        const rowsAt = scalesAt + rowCount * 4;
        if (size !== rowsAt + rowCount * fields.dims) throw new SightlineError('usage', `${f} is truncated`);
        return new QueryRows(f, { dims: fields.dims, scalesAt, rowsAt }, vocab, fields.buckets);
      } finally {
        fs.closeSync(fd);
      }
    });
  }

  /** The same unit vector `embedStatic` gives for `text`. */
  embed(text: string): Float32Array {
    const { dims, scalesAt, rowsAt } = this.layout;
    const out = new Float32Array(dims);
    const scale = Buffer.alloc(4);
    const row = new Int8Array(dims);
    const fd = fs.openSync(this.file, 'r');
    try {
      for (const [r, weight] of featuresOf(text, this.space)) {
        fs.readSync(fd, scale, 0, 4, scalesAt + r * 4);
        fs.readSync(fd, row, 0, dims, rowsAt + r * dims);
        addRow(out, weight * scale.readFloatLE(0), row, 0);
      }
    } finally {
      fs.closeSync(fd);
    }
    return normalize(out);
  }
}

const [QUOTE, BACKSLASH, CLOSE] = [0x22, 0x5c, 0x5d];

/**
 * Where a header's vocabulary lies in its JSON text, and a table to find its terms by: each
 * entry's span (start, end exclusive) and, by the FNV-1a of its raw text, its row + 1 in an
 * open-addressing table (0 is empty). Terms are ASCII words, so the raw text of the entry a term
 * could match holds no escapes (an escaped entry is counted but never matched).
 */
export interface VocabTable {
  /** Where the array's `[` and `]` are in the text. */
  before: number;
  after: number;
  spans: Int32Array;
  slots: Int32Array;
}

/** One pass over the header's vocabulary (~18 ms in a fresh process for the 30,000 terms: what a prebuilt table spares). */
export function scanVocab(text: string): VocabTable {
  const open = /"vocab"\s*:\s*\[/.exec(text);
  if (!open) throw new SightlineError('usage', 'the embedding model header has no vocabulary');
  const spans: number[] = [];
  const hashes: number[] = [];
  let i = open.index + open[0].length;
  for (let c = text.charCodeAt(i); i < text.length && c !== CLOSE; c = text.charCodeAt(++i)) {
    if (c !== QUOTE) continue;
    const start = i + 1;
    let h = FNV_BASIS;
    for (let d = text.charCodeAt(++i); i < text.length && d !== QUOTE; d = text.charCodeAt(++i)) {
      h = fnvStep(h, d);
      if (d === BACKSLASH) h = fnvStep(h, text.charCodeAt(++i));
    }
    spans.push(start, i);
    hashes.push(h >>> 0);
  }
  if (i >= text.length) throw new SightlineError('usage', 'the embedding model header ends inside its vocabulary');
  const slots = new Int32Array(2 ** Math.ceil(Math.log2(hashes.length * 2 + 2)));
  const mask = slots.length - 1;
  hashes.forEach((h, row) => {
    let slot = h & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = row + 1;
  });
  return { before: open.index + open[0].length - 1, after: i, spans: Int32Array.from(spans), slots };
}

/**
 * The builtin model's vocabulary table as `npm run build` writes it (scripts/build-data.mjs),
 * beside the compiled sources (dist/src/embed → dist/data). Layout, i32 words in the machine's
 * byte order: [MAGIC, model file size, header length, before, after, spans, slots], then the spans
 * and the slots.
 */
export const VOCAB_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/builtin-vocab.bin');
const VOCAB_MAGIC = 0x766f6331; // "voc1"
const VOCAB_HEADER_WORDS = 7;

/** The table of the shipped model, to write at build time. */
export function vocabFile(modelPath = defaultModelPath()): Buffer {
  const buf = fs.readFileSync(modelPath);
  const header = buf.subarray(12, 12 + buf.readUInt32LE(8)).toString('utf8');
  const { before, after, spans, slots } = scanVocab(header);
  const words = new Int32Array(VOCAB_HEADER_WORDS + spans.length + slots.length);
  words.set([VOCAB_MAGIC, buf.length, header.length, before, after, spans.length, slots.length]);
  words.set(spans, VOCAB_HEADER_WORDS);
  words.set(slots, VOCAB_HEADER_WORDS + spans.length);
  return Buffer.from(words.buffer);
}

/**
 * The prebuilt table, when it was built from a model of this file size and header (a model
 * retrained since the build is scanned instead), and whole: a damaged file is scanned around too.
 * A table of another vocabulary of the same lengths could only miss terms, never misplace them: a
 * lookup compares the term with the text it finds.
 */
export function builtVocab(modelSize: number, header: string, file = VOCAB_FILE): VocabTable | null {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return null; // not built (running from sources)
  }
  if (bytes.byteLength % 4 !== 0 || bytes.byteLength < VOCAB_HEADER_WORDS * 4) return null;
  // An Int32Array starts at a multiple of 4: a small file's bytes may lie anywhere in Buffer's shared pool.
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : Uint8Array.from(bytes);
  const words = new Int32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength >> 2);
  const [magic, size, length, before, after, spanWords, slotWords] = words;
  if (magic !== VOCAB_MAGIC || size !== modelSize || length !== header.length) return null;
  if (spanWords! < 0 || slotWords! < 0 || words.length !== VOCAB_HEADER_WORDS + spanWords! + slotWords!) return null;
  if (header[before!] !== '[' || header[after!] !== ']') return null;
  const slots = words.subarray(VOCAB_HEADER_WORDS + spanWords!);
  // A power of two with an empty slot: every probe ends.
  if ((slots.length & (slots.length - 1)) !== 0 || slots.indexOf(0) < 0) return null;
  return { before: before!, after: after!, spans: words.subarray(VOCAB_HEADER_WORDS, VOCAB_HEADER_WORDS + spanWords!), slots };
}

/** A header's vocabulary looked up in its JSON text through its table: a lookup compares text in place. */
class VocabText {
  readonly size: number;

  constructor(
    private readonly text: string,
    private readonly table: VocabTable,
  ) {
    this.size = table.spans.length / 2;
  }

  get(term: string): number | undefined {
    const { slots, spans } = this.table;
    for (let slot = fnv1a(term) & (slots.length - 1); slots[slot] !== 0; slot = (slot + 1) & (slots.length - 1)) {
      const row = slots[slot]! - 1;
      const start = spans[2 * row]!;
      if (spans[2 * row + 1]! - start === term.length && this.text.startsWith(term, start)) return row;
    }
    return undefined;
  }

  /** The header's fields other than the vocabulary. */
  otherFields(): Record<string, unknown> {
    return JSON.parse(`${this.text.slice(0, this.table.before)}[]${this.text.slice(this.table.after + 1)}`) as Record<string, unknown>;
  }
}
