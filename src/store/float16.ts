/**
 * IEEE 754 half precision, as vectors are stored: half the bytes of float32,
 * and a unit vector's cosine moves by about 1e-5 (11 significant bits per
 * component), below the three decimals an answer shows. Node 20 has no
 * Float16Array, so the conversion is by hand.
 */

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The nearest half (ties to even) of one float32, as its 16 bits. */
export function toHalf(x: number): number {
  f32[0] = x;
  const bits = u32[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const exp = (bits >>> 23) & 0xff;
  const mant = bits & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0); // Inf, NaN
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00; // too large: Inf
  if (e <= 0) {
    if (e < -10) return sign; // too small even for a subnormal
    const m = mant | 0x800000; // the implicit bit, then shifted into a subnormal
    const shift = 14 - e;
    const half = m >>> shift;
    const rest = m & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    return sign | (half + (rest > mid || (rest === mid && half & 1) ? 1 : 0));
  }
  const half = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  // A carry out of the mantissa moves the exponent up, which is the right rounding too.
  return sign | (half + (rest > 0x1000 || (rest === 0x1000 && half & 1) ? 1 : 0));
}

/**
 * The float value of a half's 16 bits, exact: every half is a float32. A normal half, Inf or NaN
 * widens by moving its fields into float32 bits (the exponent rebiased from 15 to 127). Vectors
 * are decoded through a table of its 65,536 answers (decodeHalves).
 */
export function fromHalf(h: number): number {
  const exp = (h >>> 10) & 0x1f;
  if (exp === 0) return (h & 0x8000 ? -1 : 1) * (h & 0x3ff) * 2 ** -24; // zero or subnormal
  u32[0] = ((h & 0x8000) << 16) | (exp === 0x1f ? 0x7f800000 : (exp + 112) << 23) | ((h & 0x3ff) << 13);
  return f32[0]!;
}

/** A vector as little-endian halves. */
export function encodeHalves(vec: Float32Array): Buffer {
  const out = Buffer.allocUnsafe(vec.length * 2);
  for (let i = 0; i < vec.length; i++) out.writeUInt16LE(toHalf(vec[i]!), i * 2);
  return out;
}

/** Every half's float value, made on the first decode: a lookup is several times faster than working it out, and a matrix of 100k vectors decodes tens of millions. */
let HALVES: Float32Array | null = null;

function halfTable(): Float32Array {
  if (!HALVES) {
    HALVES = new Float32Array(0x10000);
    for (let h = 0; h < 0x10000; h++) HALVES[h] = fromHalf(h);
  }
  return HALVES;
}

/** Little-endian halves into `into` from `at` on. */
export function decodeHalves(blob: Uint8Array, into: Float32Array, at: number): void {
  const table = halfTable();
  const n = blob.byteLength >>> 1;
  for (let i = 0; i < n; i++) into[at + i] = table[blob[2 * i]! | (blob[2 * i + 1]! << 8)]!;
}
