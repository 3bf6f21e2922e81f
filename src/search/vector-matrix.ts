/**
 * The stored vectors as one matrix in memory: loaded once, then moved by what each pass wrote
 * (the change log: the vectors written since, the chunks whose vectors went), in place. A row
 * that goes takes the last row's place; new rows go into room kept past the last. Loaded whole,
 * babel's 38,000 vectors took ~180 ms, which the first hybrid search after every edit paid.
 * The files' centroids, once worked out, are kept with the matrix and moved with it: only the
 * files whose rows moved are summed again (all of them took ~90 ms on babel).
 *
 * Rows are in no particular order once moved; `nearest` breaks ties by chunk id, and centroids
 * are summed in chunk id order, as the order of a fresh load would.
 */
import { normalize } from '../embed/index.js';
import type { ChangePoint, Store, VectorChange, VectorMatrix } from '../store/index.js';
import { slot } from '../store/index.js';
import { DotKernel } from './dot.js';

/** Room kept past the rows loaded: enough for many edits' vectors before the rows are copied into more. */
const ROOM_SHARE = 1 / 16;
const ROOM_MIN = 256;

/** A move that touches more files than this sums every file's centroid again, in one pass over the rows. */
const FEW_FILES = 32;

/** The SIMD kernel each matrix lives in, where one could be had (dot.ts). */
export const kernels = new WeakMap<VectorMatrix, DotKernel>();
/** The kept matrix each view is of, for its centroids. */
const keptOf = new WeakMap<VectorMatrix, KeptMatrix>();

/** Each row's file (-1: a chunk deleted since), and each file's centroid. */
interface Files {
  ofRow: Float64Array;
  centroids: Map<number, Float32Array>;
}

class KeptMatrix {
  /** Each chunk's row, made on the first move (a matrix never moved needs none). */
  private rowOf: Map<number, number> | null = null;
  /** Made on the first ask for centroids, then moved with the rows. */
  private files: Files | null = null;
  readonly matrix: VectorMatrix;

  constructor(
    readonly at: ChangePoint | null,
    readonly dims: number,
    private readonly ids: Float64Array,
    private readonly data: Float32Array,
    private readonly kernel: DotKernel | null,
    private readonly rows: number,
  ) {
    this.matrix = { ids: ids.subarray(0, rows), data: data.subarray(0, rows * dims), dims };
    if (kernel) kernels.set(this.matrix, kernel);
    keptOf.set(this.matrix, this);
  }

  /** Each file's centroid, worked out on the first ask (each chunk's file read then). */
  centroids(store: Store): Map<number, Float32Array> {
    if (!this.files) {
      const ofRow = filesOf(store, this.matrix.ids, this.ids.length);
      this.files = { ofRow, centroids: centroidsOf(this.matrix, ofRow) };
    }
    return this.files.centroids;
  }

  /** Every vector of the index, read whole, with room for more. */
  static load(store: Store, dims: number): KeptMatrix {
    let room = null as { ids: Float64Array; data: Float32Array; kernel: DotKernel | null } | null;
    const { at, matrix } = store.vectors.load(dims, (rows) => (room = roomFor(rows, dims)));
    return new KeptMatrix(at, dims, room!.ids, room!.data, room!.kernel, matrix.ids.length);
  }

  /**
   * This matrix moved by `change`: in its own memory where the new rows fit, else copied into more
   * first (memory is had before anything moves). The previous matrix's views describe moved rows
   * after this: a matrix is good until the next `matrixOf` of its store.
   */
  moved(change: VectorChange): KeptMatrix {
    const { dims } = this;
    let { ids, data, kernel, rows } = this;
    let ofRow = this.files?.ofRow ?? null;
    if (rows + change.written.length > ids.length) {
      const more = roomFor(rows + change.written.length, dims);
      more.data.set(data.subarray(0, rows * dims));
      more.ids.set(ids.subarray(0, rows));
      ({ ids, data, kernel } = more);
      if (ofRow) {
        const moreFiles = new Float64Array(ids.length).fill(-1);
        moreFiles.set(ofRow.subarray(0, rows));
        ofRow = moreFiles;
      }
    }
    const touched = new Set<number>();
    const rowOf = this.rowOf ?? rowsById(this.matrix.ids);
    for (const id of change.gone) {
      const r = rowOf.get(id);
      if (r === undefined) continue;
      rowOf.delete(id);
      const last = --rows;
      if (ofRow) {
        touched.add(ofRow[r]!);
        ofRow[r] = ofRow[last]!;
        ofRow[last] = -1;
      }
      if (r === last) continue;
      ids[r] = ids[last]!;
      data.copyWithin(r * dims, last * dims, (last + 1) * dims);
      rowOf.set(ids[r]!, r);
    }
    for (const { id, fileId, vec } of change.written) {
      let r = rowOf.get(id);
      if (r === undefined) rowOf.set(id, (r = rows++));
      ids[r] = id;
      data.set(vec, r * dims);
      if (ofRow) {
        ofRow[r] = fileId;
        touched.add(fileId);
      }
    }
    const next = new KeptMatrix(change.at, dims, ids, data, kernel, rows);
    next.rowOf = rowOf;
    if (this.files && ofRow) next.files = { ofRow, centroids: movedCentroids(this.files.centroids, next.matrix, ofRow, touched) };
    return next;
  }
}

/**
 * Each file's vector: the mean of its chunks' vectors, unit length — what the file as a whole is
 * about; of the files in `only`, else of all. Rows are summed in chunk id order: float sums
 * depend on their order, and a moved matrix's rows are in no set order.
 */
function centroidsOf(matrix: VectorMatrix, ofRow: Float64Array, only?: ReadonlySet<number>): Map<number, Float32Array> {
  const { data, ids, dims } = matrix;
  const rows: number[] = [];
  for (let r = 0; r < ids.length; r++) if (ofRow[r]! >= 0 && (!only || only.has(ofRow[r]!))) rows.push(r);
  rows.sort((a, b) => ids[a]! - ids[b]!);
  const out = new Map<number, Float32Array>();
  for (const r of rows) {
    const fileId = ofRow[r]!;
    let c = out.get(fileId);
    if (!c) out.set(fileId, (c = new Float32Array(dims)));
    for (let d = 0; d < dims; d++) c[d]! += data[r * dims + d]!;
  }
  for (const c of out.values()) normalize(c);
  return out;
}

/** `centroids` (changed in place: the matrix they were of has moved) with the `touched` files' summed again. */
function movedCentroids(centroids: Map<number, Float32Array>, matrix: VectorMatrix, ofRow: Float64Array, touched: ReadonlySet<number>): Map<number, Float32Array> {
  if (touched.size > FEW_FILES) return centroidsOf(matrix, ofRow);
  for (const fileId of touched) centroids.delete(fileId);
  for (const [fileId, c] of centroidsOf(matrix, ofRow, touched)) centroids.set(fileId, c);
  return centroids;
}

/**
 * Each file's centroid in `matrix`: kept with the matrix where it is the store's (matrixOf), else
 * worked out once for it.
 */
export function fileCentroids(store: Store, matrix: VectorMatrix): Map<number, Float32Array> {
  const kept = keptOf.get(matrix);
  if (kept) return kept.centroids(store);
  let out = loose.get(matrix);
  if (!out) loose.set(matrix, (out = centroidsOf(matrix, filesOf(store, matrix.ids, matrix.ids.length))));
  return out;
}

const loose = new WeakMap<VectorMatrix, Map<number, Float32Array>>();

/** Each row's file, as the chunk table has it (-1: a chunk deleted since), with room for `capacity` rows. */
function filesOf(store: Store, ids: Float64Array, capacity: number): Float64Array {
  const fileOf = store.chunks.fileIds();
  const out = new Float64Array(capacity).fill(-1);
  ids.forEach((id, r) => (out[r] = fileOf.get(id) ?? -1));
  return out;
}

/** Each id's row (no pair made per row: babel's 38,000 rows). */
function rowsById(ids: Float64Array): Map<number, number> {
  const out = new Map<number, number>();
  for (let r = 0; r < ids.length; r++) out.set(ids[r]!, r);
  return out;
}

/** Memory for `rows` rows and room past them: in a kernel where one can run. */
function roomFor(rows: number, dims: number): { ids: Float64Array; data: Float32Array; kernel: DotKernel | null } {
  const capacity = rows + Math.max(ROOM_MIN, Math.ceil(rows * ROOM_SHARE));
  const kernel = DotKernel.open(capacity, dims);
  return { ids: new Float64Array(capacity), data: kernel?.data ?? new Float32Array(capacity * dims), kernel };
}

const KEPT = slot<KeptMatrix>('vector matrix');

/**
 * The stored vectors as one matrix: kept per index version, moved by what passes wrote since.
 * Loaded and not kept inside a write of this connection's, whose rows may yet roll back.
 */
export function matrixOf(store: Store, dims: number): VectorMatrix {
  if (store.changes.writes()) return KeptMatrix.load(store, dims).matrix;
  return store.memo.derived(KEPT, `${store.indexVersion()}/${dims}`, () => {
    const held = store.memo.peek(KEPT);
    const change = held && held.dims === dims ? store.vectors.changedSince(held.at, dims) : null;
    if (!held || !change) return KeptMatrix.load(store, dims);
    return change.gone.length + change.written.length === 0 ? held : held.moved(change);
  }).matrix;
}
