/**
 * Which text encoding a file's bytes are in, and its text. UTF-8 is the
 * default; UTF-16 and UTF-32 are recognised by a byte-order mark or, without
 * one, by where the NUL bytes fall (ASCII-range text in UTF-16LE has a NUL in
 * every odd byte); Latin-1 by how many of its high bytes are invalid UTF-8.
 * Anything else with a NUL byte near the start is binary.
 */

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be' | 'latin1';

export type Decoded =
  | { binary: false; text: string; encoding: TextEncoding; invalidUtf8: boolean }
  | { binary: true; detail: string };

/** How many leading bytes are sniffed for a NUL byte and its pattern (same window as git). */
export const BINARY_SNIFF_BYTES = 8000;

/** A NUL-pattern guess needs this share of the sniffed code units to look like the encoding. */
const NUL_PATTERN_SHARE = 0.9;

/** A NUL-pattern guess is text only if at most this share of its characters are control characters. */
const CONTROL_SHARE = 0.01;

/** Invalid UTF-8 above this share of the high bytes reads as Latin-1 rather than damaged UTF-8. */
const LATIN1_INVALID_SHARE = 0.5;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8', { fatal: false });
const utf16le = new TextDecoder('utf-16le', { fatal: true });
const utf16be = new TextDecoder('utf-16be', { fatal: true });
// WHATWG's "latin1" is windows-1252, which is what files called Latin-1 nearly always are.
const latin1 = new TextDecoder('latin1');

function startsWith(buf: Uint8Array, ...bytes: number[]): boolean {
  return buf.length >= bytes.length && bytes.every((b, i) => buf[i] === b);
}

/** The encoding a byte-order mark names, and the mark's length. */
function byBom(buf: Uint8Array): { encoding: TextEncoding; skip: number } | undefined {
  if (startsWith(buf, 0xff, 0xfe, 0, 0)) return { encoding: 'utf-32le', skip: 4 };
  if (startsWith(buf, 0, 0, 0xfe, 0xff)) return { encoding: 'utf-32be', skip: 4 };
  if (startsWith(buf, 0xef, 0xbb, 0xbf)) return { encoding: 'utf-8', skip: 3 };
  if (startsWith(buf, 0xff, 0xfe)) return { encoding: 'utf-16le', skip: 2 };
  if (startsWith(buf, 0xfe, 0xff)) return { encoding: 'utf-16be', skip: 2 };
  return undefined;
}

/**
 * UTF-16/32 without a mark, from the NUL pattern of the sniffed window: text
 * below U+0100 leaves the high half (or the three high bytes) of each code
 * unit zero and the low byte not. Mostly-CJK UTF-16 without a mark is not
 * recognised this way; it rarely has NULs, so it is also not called binary.
 */
function byNulPattern(buf: Uint8Array): TextEncoding | undefined {
  const n = Math.min(buf.length, BINARY_SNIFF_BYTES);
  const units32 = Math.floor(n / 4);
  if (units32 >= 1) {
    let le = 0;
    let be = 0;
    for (let i = 0; i < units32 * 4; i += 4) {
      if (buf[i + 2] === 0 && buf[i + 3] === 0 && buf[i] !== 0) le++;
      if (buf[i] === 0 && buf[i + 1] === 0 && buf[i + 3] !== 0) be++;
    }
    if (le >= units32 * NUL_PATTERN_SHARE && n % 4 === 0) return 'utf-32le';
    if (be >= units32 * NUL_PATTERN_SHARE && n % 4 === 0) return 'utf-32be';
  }
  const units16 = Math.floor(n / 2);
  if (units16 >= 1) {
    let le = 0;
    let be = 0;
    for (let i = 0; i < units16 * 2; i += 2) {
      if (buf[i + 1] === 0 && buf[i] !== 0) le++;
      if (buf[i] === 0 && buf[i + 1] !== 0) be++;
    }
    if (le >= units16 * NUL_PATTERN_SHARE) return 'utf-16le';
    if (be >= units16 * NUL_PATTERN_SHARE) return 'utf-16be';
  }
  return undefined;
}

/** UTF-32 by hand (TextDecoder has none); undefined when a unit is not a scalar value. */
function decodeUtf32(buf: Uint8Array, littleEndian: boolean): string | undefined {
  if (buf.length % 4 !== 0) return undefined;
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const parts: string[] = [];
  let points: number[] = [];
  for (let i = 0; i < buf.length; i += 4) {
    const cp = view.getUint32(i, littleEndian);
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
    points.push(cp);
    if (points.length === 4096) {
      parts.push(String.fromCodePoint(...points));
      points = [];
    }
  }
  parts.push(String.fromCodePoint(...points));
  return parts.join('');
}

function decodeAs(encoding: TextEncoding, body: Uint8Array): string | undefined {
  try {
    switch (encoding) {
      case 'utf-16le':
        return body.length % 2 === 0 ? utf16le.decode(body) : undefined;
      case 'utf-16be':
        return body.length % 2 === 0 ? utf16be.decode(body) : undefined;
      case 'utf-32le':
        return decodeUtf32(body, true);
      case 'utf-32be':
        return decodeUtf32(body, false);
      case 'latin1':
        return latin1.decode(body);
      case 'utf-8':
        return strictUtf8.decode(body);
    }
  } catch {
    return undefined;
  }
}

/** Invalid UTF-8 sequences, and the bytes >= 0x80 they are counted against. */
function invalidShare(buf: Uint8Array): number {
  let high = 0;
  for (const b of buf) if (b >= 0x80) high++;
  if (high === 0) return 0;
  const text = lenientUtf8.decode(buf);
  let replaced = 0;
  for (let i = text.indexOf('\ufffd'); i !== -1; i = text.indexOf('\ufffd', i + 1)) replaced++;
  return replaced / high;
}

/** Few control characters other than tab, newlines, form feed and escape, and no NUL. */
function readsAsText(text: string): boolean {
  const n = Math.min(text.length, BINARY_SNIFF_BYTES);
  let controls = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return false;
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0c && c !== 0x0d && c !== 0x1b) || c === 0x7f) controls++;
  }
  return controls <= n * CONTROL_SHARE;
}

/** The text of `buf`, or why it is taken for binary. A byte-order mark is not part of the text. */
export function decodeSource(buf: Uint8Array): Decoded {
  const bom = byBom(buf);
  if (bom) {
    const text = decodeAs(bom.encoding, buf.subarray(bom.skip));
    if (text !== undefined) return { binary: false, text, encoding: bom.encoding, invalidUtf8: false };
    if (bom.encoding === 'utf-8') return decodeUtf8(buf.subarray(bom.skip));
  }
  const sniffed = buf.subarray(0, Math.min(buf.length, BINARY_SNIFF_BYTES));
  if (sniffed.indexOf(0) !== -1) {
    const guess = byNulPattern(buf);
    const text = guess && decodeAs(guess, buf);
    if (guess && text !== undefined && readsAsText(text)) return { binary: false, text, encoding: guess, invalidUtf8: false };
    return { binary: true, detail: `NUL byte within the first ${BINARY_SNIFF_BYTES} bytes, in no UTF-16 or UTF-32 pattern` };
  }
  return decodeUtf8(buf);
}

function decodeUtf8(buf: Uint8Array): Decoded {
  const text = decodeAs('utf-8', buf);
  if (text !== undefined) return { binary: false, text, encoding: 'utf-8', invalidUtf8: false };
  if (invalidShare(buf) > LATIN1_INVALID_SHARE) return { binary: false, text: latin1.decode(buf), encoding: 'latin1', invalidUtf8: false };
  return { binary: false, text: lenientUtf8.decode(buf), encoding: 'utf-8', invalidUtf8: true };
}
