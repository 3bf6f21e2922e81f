/** Just enough protobuf encoding to write an ONNX model: varints, strings, bytes and nested messages. */

export type Field = [number, 'varint', number] | [number, 'bytes', Uint8Array | string] | [number, 'float', number];

function varint(n: number): number[] {
  const out: number[] = [];
  let v = BigInt.asUintN(64, BigInt(n)); // negative int64s are ten bytes, as protobuf says
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}

export function message(fields: Field[]): Uint8Array {
  const parts: number[] = [];
  for (const [no, kind, value] of fields) {
    if (kind === 'varint') parts.push(...varint((no << 3) | 0), ...varint(value));
    else if (kind === 'float') {
      const b = Buffer.alloc(4);
      b.writeFloatLE(value);
      parts.push(...varint((no << 3) | 5), ...b);
    } else {
      const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
      parts.push(...varint((no << 3) | 2), ...varint(bytes.length));
      for (const x of bytes) parts.push(x);
    }
  }
  return Uint8Array.from(parts);
}
