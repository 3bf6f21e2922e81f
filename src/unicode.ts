/**
 * The Unicode classes that code-aware text splitting asks about (terms/code-terms.ts: letters and
 * digits; budget/split.ts: o200k's pattern), as bits of a code point: each code point is classed
 * once per thread by small one-class regex tests, and then read from a table. A regex over
 * Unicode classes compiled for each use cost a thread 15–25 ms on its first non-ASCII text.
 */
export const CASED_UPPER = 1; // Lu, Lt
export const CASED_LOWER = 2; // Ll
export const UNCASED = 4; // Lm, Lo
export const MARK = 8; // M
export const NUMBER = 16; // N
export const WHITE = 32; // \s
export const LINE = 64; // \r, \n
export const LETTER = CASED_UPPER | CASED_LOWER | UNCASED;

const CLASS_TESTS: [RegExp, number][] = [
  [/^[\p{Lu}\p{Lt}]$/u, CASED_UPPER],
  [/^\p{Ll}$/u, CASED_LOWER],
  [/^[\p{Lm}\p{Lo}]$/u, UNCASED],
  [/^\p{M}$/u, MARK],
  [/^\p{N}$/u, NUMBER],
  [/^\s$/u, WHITE],
];
/** Each BMP code unit's classes, learnt on first sight (bit 128: known); code points past it in a map. */
const bmpClasses = new Uint8Array(0x10000);
const astralClasses = new Map<number, number>();

/** The classes of code point `cp` (a lone surrogate has none). */
export function classesOf(cp: number): number {
  const held = cp < 0x10000 ? bmpClasses[cp]! : astralClasses.get(cp);
  if (held) return held & 0x7f;
  const char = String.fromCodePoint(cp);
  let classes = cp === 0x0a || cp === 0x0d ? LINE : 0;
  for (const [test, bit] of CLASS_TESTS) if (test.test(char)) classes |= bit;
  if (cp < 0x10000) bmpClasses[cp] = classes | 128;
  else astralClasses.set(cp, classes | 128);
  return classes;
}

/** The classes of the code point at `i` of `text`; 0 past the end. */
export function classAt(text: string, i: number): number {
  return i < text.length ? classesOf(text.codePointAt(i)!) : 0;
}

/** Where the code point after the one at `i` starts (a surrogate pair is one). */
export function after(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return (c & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? i + 2 : i + 1;
}
