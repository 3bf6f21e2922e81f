/**
 * The stored vectors as one matrix in memory: loaded once, then moved by what each pass wrote
 * (the change log: the vectors written since, the chunks whose vectors went), in place. A row
 * that goes takes the last row's place; new rows go into room kept past the last. Loaded whole,
 * babel's 38,000 vectors took ~180 ms, which the first hybrid search after every edit paid.
 *
 * Rows are in no particular order once moved; `nearest` breaks ties by chunk id, as the order
 * of a fresh load would.
 */
import type { ChangePoint, Store, VectorChange, VectorMatrix } from '../store/index.js';
import { slot } from '../store/index.js';
import { DotKernel } from './dot.js';

/** Room kept past the rows loaded: enough for many edits' vectors before the rows are copied into more. */
const ROOM_SHARE = 1 / 16;
const ROOM_MIN = 256;

/** The SIMD kernel each matrix lives in, where one could be had (dot.ts). */
export const kernels = new WeakMap<VectorMatrix, DotKernel>();

class KeptMatrix {
  /** Each chunk's row, made on the first move (a matrix never moved needs none). */
  private rowOf: Map<number, number> | null = null;
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
    if (rows + change.written.length > ids.length) {
      const more = roomFor(rows + change.written.length, dims);
      more.data.set(data.subarray(0, rows * dims));
      more.ids.set(ids.subarray(0, rows));
      ({ ids, data, kernel } = more);
    }
    const rowOf = this.rowOf ?? rowsById(this.matrix.ids);
    for (const id of change.gone) {
      const r = rowOf.get(id);
      if (r === undefined) continue;
      rowOf.delete(id);
      const last = --rows;
      if (r === last) continue;
      ids[r] = ids[last]!;
      data.copyWithin(r * dims, last * dims, (last + 1) * dims);
      rowOf.set(ids[r]!, r);
    }
    for (const { id, vec } of change.written) {
      let r = rowOf.get(id);
      if (r === undefined) rowOf.set(id, (r = rows++));
      ids[r] = id;
      data.set(vec, r * dims);
    }
    const next = new KeptMatrix(change.at, dims, ids, data, kernel, rows);
    next.rowOf = rowOf;
    return next;
  }
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
