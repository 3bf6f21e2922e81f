/**
 * Dot products of a query with every row of the vector matrix in WebAssembly
 * SIMD (dot.wat, assembled into dot-wasm.ts by scripts/dot-wasm.ts): 3–5×
 * the JavaScript loop (vector.ts) with the same bits, since each product and
 * sum is taken in f64 in the loop's order. The matrix is loaded straight into
 * the kernel's memory, so a question copies only its own vector there.
 */
import { DOT_WASM } from './dot-wasm.js';

type Scores = (rows: number, q: number, n: number, dims: number, out: number) => void;

let compiled: WebAssembly.Module | null | undefined;

/** The compiled kernel, once per thread; null where this engine has no SIMD (the JavaScript loop answers). */
function kernelModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(Buffer.from(DOT_WASM, 'base64'));
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

const WASM_PAGE = 65_536;

export class DotKernel {
  private constructor(
    /** Where the matrix's rows are loaded: a view of the kernel's memory, which never grows. */
    readonly data: Float32Array,
    private readonly query: Float32Array,
    private readonly out: Float64Array,
    private readonly run: (n: number) => void,
  ) {}

  /** Room for `rows` rows of `dims` floats; null where the kernel cannot run (no SIMD, or dims not a multiple of 4). */
  static open(rows: number, dims: number): DotKernel | null {
    const module = rows > 0 && dims > 0 && dims % 4 === 0 ? kernelModule() : null;
    if (!module) return null;
    const queryAt = rows * dims * 4;
    const outAt = queryAt + dims * 4; // a multiple of 16: the f64 scores are aligned
    const memory = new WebAssembly.Memory({ initial: Math.ceil((outAt + rows * 8) / WASM_PAGE) });
    const scores = new WebAssembly.Instance(module, { env: { memory } }).exports.scores as Scores;
    return new DotKernel(
      new Float32Array(memory.buffer, 0, rows * dims),
      new Float32Array(memory.buffer, queryAt, dims),
      new Float64Array(memory.buffer, outAt, rows),
      (n) => scores(0, queryAt, n, dims, outAt),
    );
  }

  /** The first `n` rows' dot products with `q`: a view of the kernel's memory, good until the next call. */
  scores(q: Float32Array, n: number): Float64Array {
    this.query.set(q);
    this.run(n);
    return this.out.subarray(0, n);
  }
}
