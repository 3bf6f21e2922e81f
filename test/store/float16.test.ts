import { describe, expect, it } from 'vitest';
import { decodeHalves, encodeHalves, fromHalf, toHalf } from '../../src/store/float16.js';

describe('half-precision vectors', () => {
  it('keeps values a half can hold exactly, and the special ones', () => {
    for (const x of [0, 1, -1, 0.5, 0.099609375, 65504, -(2 ** -14), 2 ** -24, 3 * 2 ** -24]) expect(fromHalf(toHalf(x))).toBe(x);
    expect(toHalf(-0)).toBe(0x8000);
    expect(fromHalf(toHalf(Infinity))).toBe(Infinity);
    expect(fromHalf(toHalf(70000))).toBe(Infinity); // past the largest half
    expect(fromHalf(toHalf(2 ** -26))).toBe(0); // below half the smallest subnormal
    expect(Number.isNaN(fromHalf(toHalf(NaN)))).toBe(true);
  });

  it('decodes each of the 65,536 halves to its exact value', () => {
    for (let h = 0; h < 0x10000; h++) {
      const sign = h & 0x8000 ? -1 : 1;
      const exp = (h >>> 10) & 0x1f;
      const mant = h & 0x3ff;
      const value = exp === 0 ? sign * mant * 2 ** -24 : exp === 0x1f ? (mant ? NaN : sign * Infinity) : sign * (1 + mant / 1024) * 2 ** (exp - 15);
      expect(fromHalf(h), `0x${h.toString(16)}`).toBe(value);
    }
  });

  it('rounds to the nearest half, ties to even', () => {
    // Between 1 and 1 + 2^-10: the midpoint goes to the even one (1), just above it goes up.
    expect(fromHalf(toHalf(1 + 2 ** -11))).toBe(1);
    expect(fromHalf(toHalf(1 + 3 * 2 ** -11))).toBe(1 + 2 * 2 ** -10);
    expect(fromHalf(toHalf(1 + 2 ** -11 + 2 ** -20))).toBe(1 + 2 ** -10);
    // A subnormal midpoint: 1.5 × 2^-24 rounds to 2 × 2^-24 (even), 2.5 × 2^-24 to 2 × 2^-24.
    expect(fromHalf(toHalf(1.5 * 2 ** -24))).toBe(2 * 2 ** -24);
    expect(fromHalf(toHalf(2.5 * 2 ** -24))).toBe(2 * 2 ** -24);
  });

  it('moves a unit vector’s dot products by less than the three decimals an answer shows', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
    const unit = (dims: number) => {
      const v = Float32Array.from({ length: dims }, random);
      const norm = Math.hypot(...v);
      return v.map((x) => x / norm);
    };
    let worst = 0;
    for (let i = 0; i < 200; i++) {
      const [a, q] = [unit(128), unit(128)];
      const back = new Float32Array(128);
      decodeHalves(encodeHalves(a), back, 0);
      let exact = 0;
      let stored = 0;
      for (let d = 0; d < 128; d++) [exact, stored] = [exact + a[d]! * q[d]!, stored + back[d]! * q[d]!];
      worst = Math.max(worst, Math.abs(exact - stored));
    }
    expect(worst).toBeGreaterThan(0);
    expect(worst).toBeLessThan(1e-4);
  });

  it('writes two little-endian bytes per component and reads them back into place', () => {
    const blob = encodeHalves(Float32Array.from([1, -2, 0.25]));
    expect([...blob]).toEqual([0x00, 0x3c, 0x00, 0xc0, 0x00, 0x34]);
    const into = new Float32Array(5);
    decodeHalves(blob, into, 2);
    expect([...into]).toEqual([0, 0, 1, -2, 0.25]);
  });

  it('decodes every one of the 65,536 halves to the value fromHalf gives it', () => {
    const blob = new Uint8Array(0x20000);
    for (let h = 0; h < 0x10000; h++) [blob[2 * h], blob[2 * h + 1]] = [h & 0xff, h >>> 8];
    const into = new Float32Array(0x10000);
    decodeHalves(blob, into, 0);
    const wrong = [...into.keys()].filter((h) => !Object.is(into[h], Math.fround(fromHalf(h))) && !(Number.isNaN(into[h]) && Number.isNaN(fromHalf(h))));
    expect(wrong).toEqual([]);
  });
});
