/**
 * o200k's split pattern (gpt-tokenizer's O200K_TOKEN_SPLIT_REGEX, which
 * test/budget/tokens.test.ts holds it to), by hand. Running the regex per piece was most of what counting
 * cost; this scanner classifies chars from a table instead. Every position
 * starts a match of the pattern (any char is a letter, a digit, whitespace
 * or something else, and each has its branch), so a text's pieces are found
 * one at a time from where the last ended, and a piece can be found either
 * way. Where deciding a piece would read a non-ASCII char (which may be a
 * letter, mark, digit or space the table does not know), the piece is found
 * by the same branches over code points, each classed by its Unicode
 * categories once (unicodePieceEnd). The pattern itself is not compiled:
 * its Unicode classes cost 15–25 ms on a thread's first non-ASCII text.
 *
 * The pattern's branches, tried in order at a piece's start:
 *   1. [^\r\n\p{L}\p{N}]? [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]* [\p{Ll}\p{Lm}\p{Lo}\p{M}]+ contraction?
 *   2. [^\r\n\p{L}\p{N}]? [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+ [\p{Ll}\p{Lm}\p{Lo}\p{M}]*  contraction?
 *   3. \p{N}{1,3}
 *   4. ' '? [^\s\p{L}\p{N}]+ [\r\n/]*
 *   5. \s*[\r\n]+   6. \s+(?!\S)   7. \s+
 * where a contraction is ' followed by s, d, m, t, ll, ve or re in either case.
 */
import { after, CASED_LOWER, CASED_UPPER, classAt, LETTER, LINE, MARK, NUMBER, UNCASED, WHITE } from '../unicode.js';

const END = 0;
const NON_ASCII = 1;
const UPPER = 2;
const LOWER = 3;
const DIGIT = 4;
/** \r and \n: whitespace that no piece may take as its one leading char. */
const NEWLINE = 5;
/** The rest of ASCII \s: space, \t, \v, \f. */
const SPACE = 6;
/** Anything else ASCII (punctuation, symbols, control chars): [^\s\p{L}\p{N}]. */
const OTHER = 7;

const KINDS = new Uint8Array(128).fill(OTHER);
const mark = (from: string, to: string, kind: number) => KINDS.fill(kind, from.charCodeAt(0), to.charCodeAt(0) + 1);
mark('A', 'Z', UPPER);
mark('a', 'z', LOWER);
mark('0', '9', DIGIT);
mark('\t', '\t', SPACE);
mark('\v', '\f', SPACE);
mark(' ', ' ', SPACE);
mark('\n', '\n', NEWLINE);
mark('\r', '\r', NEWLINE);

function kindAt(text: string, i: number): number {
  if (i >= text.length) return END;
  const c = text.charCodeAt(i);
  return c < 128 ? KINDS[c]! : NON_ASCII;
}

/** Where the piece that starts at `start` (< text.length) ends. */
export function pieceEnd(text: string, start: number): number {
  const end = asciiPieceEnd(text, start);
  return end < 0 ? unicodePieceEnd(text, start) : end;
}

/** The same, or -1 where that depends on a non-ASCII char. */
function asciiPieceEnd(text: string, start: number): number {
  const first = kindAt(text, start);
  if (first === UPPER || first === LOWER) return wordEnd(text, start);
  if (first === DIGIT) return digitsEnd(text, start);
  if (first === NEWLINE) return whitespaceEnd(text, start);
  if (first !== SPACE && first !== OTHER) return -1;
  // One char that is neither a newline, letter nor digit may lead a word (branches 1, 2) …
  const next = kindAt(text, start + 1);
  if (next === NON_ASCII) return -1;
  if (next === UPPER || next === LOWER) return wordEnd(text, start + 1);
  // … else it starts a run of punctuation (4), which one space may lead, or is whitespace (5–7).
  if (first === OTHER) return punctuationEnd(text, start);
  if (text.charCodeAt(start) === 0x20 && next === OTHER) return punctuationEnd(text, start + 1);
  return whitespaceEnd(text, start);
}

/**
 * Branches 1 and 2 from a letter: uppercase then lowercase letters (one run
 * or the other may be empty, not both), then a contraction.
 */
function wordEnd(text: string, start: number): number {
  let i = start;
  while (kindAt(text, i) === UPPER) i++;
  while (kindAt(text, i) === LOWER) i++;
  if (kindAt(text, i) === NON_ASCII) return -1; // a non-ASCII letter or mark would go on with the word
  return contractionEnd(text, i);
}

/** Past `'s 'd 'm 't 'll 've 're` in either case at `i`, else `i`. */
function contractionEnd(text: string, i: number): number {
  if (text.charCodeAt(i) !== 0x27) return i;
  // c | 0x20 lowercases an ASCII letter and maps no other char onto one.
  const a = text.charCodeAt(i + 1) | 0x20;
  if (a === 0x73 || a === 0x64 || a === 0x6d || a === 0x74) return i + 2; // s d m t
  const b = text.charCodeAt(i + 2) | 0x20;
  if ((a === 0x6c && b === 0x6c) || (a === 0x76 && b === 0x65) || (a === 0x72 && b === 0x65)) return i + 3; // ll ve re
  return i;
}

/** Branch 3: one to three digits. */
function digitsEnd(text: string, start: number): number {
  const most = start + 3;
  let i = start + 1;
  while (i < most && kindAt(text, i) === DIGIT) i++;
  if (i < most && kindAt(text, i) === NON_ASCII) return -1; // a non-ASCII digit would join the group
  return i;
}

/** Branch 4 from its first non-space char: the run, then any \r, \n and /. */
function punctuationEnd(text: string, start: number): number {
  let i = start;
  while (kindAt(text, i) === OTHER) i++;
  if (kindAt(text, i) === NON_ASCII) return -1; // non-ASCII punctuation or symbols would go on with the run
  let c = text.charCodeAt(i);
  while (c === 0x0d || c === 0x0a || c === 0x2f) c = text.charCodeAt(++i);
  return i;
}

/**
 * Branches 5–7 over the whitespace run from `start`: through its last
 * newline if it has one; else all of it at the end of the text or if it is
 * one char; else all but its last char, which leads the next piece.
 */
function whitespaceEnd(text: string, start: number): number {
  let i = start;
  let afterNewline = -1;
  for (let kind = kindAt(text, i); kind === SPACE || kind === NEWLINE; kind = kindAt(text, ++i)) {
    if (kind === NEWLINE) afterNewline = i + 1;
  }
  if (kindAt(text, i) === NON_ASCII) return -1; // non-ASCII whitespace would go on with the run
  if (afterNewline >= 0) return afterNewline;
  return i === text.length || i - start === 1 ? i : i - 1;
}

/** [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}] and [\p{Ll}\p{Lm}\p{Lo}\p{M}]: a word's leading and trailing classes. */
const LEADING = CASED_UPPER | UNCASED | MARK;
const TRAILING = CASED_LOWER | UNCASED | MARK;

/** Past the run of code points from `i` with any of `classes`. */
function runEnd(text: string, i: number, classes: number): number {
  while (classAt(text, i) & classes) i = after(text, i);
  return i;
}

/** Past the run of code points from `i` with none of `classes`, up to the end. */
function runEndWithout(text: string, i: number, classes: number): number {
  while (i < text.length && !(classAt(text, i) & classes)) i = after(text, i);
  return i;
}

/**
 * The pattern's match at `start`, its branches over code points (the header names them): the
 * first branch that matches, each with the greedy choices and backtracking the regex makes.
 */
function unicodePieceEnd(text: string, start: number): number {
  const first = classAt(text, start);
  // [^\r\n\p{L}\p{N}]? leads branches 1 and 2; the regex tries each with that char, then without.
  const leads = first & (LINE | LETTER | NUMBER) ? [start] : [after(text, start), start];
  for (const from of leads) {
    const end = leadingThenTrailing(text, from);
    if (end >= 0) return contractionEnd(text, end);
  }
  for (const from of leads) {
    const leading = runEnd(text, from, LEADING);
    if (leading > from) return contractionEnd(text, runEnd(text, leading, TRAILING));
  }
  if (first & NUMBER) {
    let end = start;
    for (let n = 0; n < 3 && classAt(text, end) & NUMBER; n++) end = after(text, end);
    return end;
  }
  // 4: ' '? [^\s\p{L}\p{N}]+ [\r\n/]*
  const from = text.charCodeAt(start) === 0x20 ? start + 1 : start;
  const symbols = runEndWithout(text, from, WHITE | LETTER | NUMBER);
  if (symbols > from) {
    let end = symbols;
    for (let c = text.charCodeAt(end); c === 0x0d || c === 0x0a || c === 0x2f; c = text.charCodeAt(++end));
    return end;
  }
  // 5–7 over the whitespace run: through its last \r or \n; else all of it at the end of the text or if it is one char; else all but its last char.
  let end = start;
  let afterLine = -1;
  let last = start;
  for (let c = classAt(text, end); c & WHITE; c = classAt(text, end)) {
    last = end;
    end = after(text, end);
    if (c & LINE) afterLine = end;
  }
  if (end === start) throw new Error(`o200k split pattern matched nothing at ${start}`);
  if (afterLine >= 0) return afterLine;
  return end === text.length || last === start ? end : last;
}

/** Branch 1 from `from`: [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]* then [\p{Ll}\p{Lm}\p{Lo}\p{M}]+, the leading run given back one code point at a time until a trailing one can start; -1 if none can. */
function leadingThenTrailing(text: string, from: number): number {
  const starts = [from];
  for (let i = from; classAt(text, i) & LEADING; ) starts.push((i = after(text, i)));
  for (let k = starts.length - 1; k >= 0; k--) {
    if (classAt(text, starts[k]!) & TRAILING) return runEnd(text, starts[k]!, TRAILING);
  }
  return -1;
}
