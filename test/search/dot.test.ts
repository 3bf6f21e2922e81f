import { describe, expect, it } from 'vitest';
import { assembleDot } from '../../scripts/dot-wasm.js';
import { DOT_WASM } from '../../src/search/dot-wasm.js';
import { DotKernel } from '../../src/search/dot.js';
import { nearest, similarities } from '../../src/search/vector.js';

function seeded(seed: number): () => number {
  let x = seed;
  return () => ((x = (x * 16807) % 2147483647) / 2147483647) * 2 - 1;
}

describe('the SIMD dot-product kernel', () => {
  it('is what dot.wat assembles to (run `npx tsx scripts/dot-wasm.ts` after editing it)', async () => {
    expect(Buffer.from(await assembleDot()).toString('base64')).toBe(DOT_WASM);
  });

  it('scores every row with the same bits as the JavaScript loop', () => {
    for (const [rows, dims] of [[1, 4], [37, 128], [300, 384], [5, 8]] as const) {
      const random = seeded(rows * 1000 + dims);
      const kernel = DotKernel.open(rows, dims);
      expect(kernel).not.toBeNull(); // Node 20 has WebAssembly SIMD
      for (let i = 0; i < kernel!.data.length; i++) kernel!.data[i] = random();
      const q = Float32Array.from({ length: dims }, random);
      const matrix = { ids: Float64Array.from({ length: rows }, (_, i) => i + 1), data: kernel!.data, dims };
      const got = kernel!.scores(q, rows);
      const want = similarities(matrix, q);
      expect([...got].filter((s, r) => !Object.is(s, want[r]))).toEqual([]);
      // and so the same neighbours, in the same order
      expect(nearest(matrix, q, 10)).toEqual(nearest({ ...matrix, data: Float32Array.from(matrix.data) }, q, 10));
    }
  });

  it('declines what it cannot run, which the JavaScript loop then answers', () => {
    expect(DotKernel.open(10, 6)).toBeNull(); // dims not a multiple of 4
    expect(DotKernel.open(0, 128)).toBeNull();
  });
});
