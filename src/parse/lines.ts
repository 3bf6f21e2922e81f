/**
 * Line bookkeeping shared by the chunkers. The text is split into lines exactly once;
 * every size question afterwards is an O(1) lookup in a prefix-sum table.
 */

/** Size limits of one chunk (soft: a chunk may exceed them by a tiny header/trailer, see chunker.ts). */
export const MAX_CHUNK_NWS = 1200; // non-whitespace characters
export const MAX_CHUNK_LINES = 80;
/** Line-window fallback for files without a grammar. */
export const WINDOW_LINES = 60;
export const WINDOW_NWS = 2400;
export const WINDOW_OVERLAP = 5;
/** How far back from a window's end we look for a blank line to split at. */
export const WINDOW_BLANK_LOOKBACK = 15;

export interface LineTable {
  readonly text: string;
  /** Number of lines that exist (a trailing newline does not start a new line). */
  readonly count: number;
  /** starts[i] = offset of line i in `text`; starts[count] = text.length + 1 (one past a virtual '\n'). */
  readonly starts: Int32Array;
  /** prefix[i] = non-whitespace characters in lines [0, i). */
  readonly prefix: Int32Array;
  /** Whether the text contains '\r' at all (so line texts need stripping). */
  readonly hasCR: boolean;
}

/** One pass over the text: line starts and non-whitespace prefix sums, no per-line strings. */
export function buildLineTable(text: string): LineTable {
  const len = text.length;
  let newlines = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) newlines++;
  let count = newlines + 1;
  if (len === 0) count = 0;
  else if (text.charCodeAt(len - 1) === 10) count--; // text ended with '\n'
  const starts = new Int32Array(count + 1);
  const prefix = new Int32Array(count + 1);
  let acc = 0;
  let line = 0;
  for (let i = 0; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      if (line <= count) {
        prefix[line] = acc;
        starts[line] = i + 1;
      }
    } else if (c > 32 && c !== 160 && c !== 0xfeff && c !== 0x2028 && c !== 0x2029) {
      acc++;
    }
  }
  if (line < count) {
    // Last line without a trailing newline: pretend one follows it.
    prefix[count] = acc;
    starts[count] = len + 1;
  }
  return { text, count, starts, prefix, hasCR: text.indexOf('\r') >= 0 };
}

/** Text of one row without its line terminator. */
export function lineAt(t: LineTable, row: number): string {
  if (row < 0 || row >= t.count) return '';
  let end = t.starts[row + 1]! - 1;
  if (end > t.text.length) end = t.text.length;
  if (t.hasCR && end > t.starts[row]! && t.text.charCodeAt(end - 1) === 13) end--;
  return t.text.slice(t.starts[row]!, end);
}

/** Non-whitespace characters of rows s..e (0-based, inclusive). */
export function nwsOf(t: LineTable, s: number, e: number): number {
  return t.prefix[e + 1]! - t.prefix[s]!;
}

export function isBlank(t: LineTable, row: number): boolean {
  return t.prefix[row + 1] === t.prefix[row];
}

export function fits(t: LineTable, s: number, e: number, maxNws = MAX_CHUNK_NWS, maxLines = MAX_CHUNK_LINES): boolean {
  return e - s + 1 <= maxLines && nwsOf(t, s, e) <= maxNws;
}

/** Text of rows s..e (0-based inclusive), lines joined with '\n', '\r' before line ends removed. */
export function sliceLines(t: LineTable, s: number, e: number): string {
  if (s > e || s >= t.count) return '';
  let end = t.starts[e + 1]! - 1;
  if (end > t.text.length) end = t.text.length;
  const out = t.text.slice(t.starts[s]!, end);
  if (!t.hasCR) return out;
  return out.replace(/\r(?=\n|$)/g, '');
}

export interface RowRange {
  s: number;
  e: number;
}

/**
 * Split rows s..e into consecutive windows that satisfy the limits. Windows prefer to end on a
 * blank line within the last `lookback` rows; when no blank line is found the next window starts
 * `overlap` rows early. Blank rows at the edges are trimmed; windows that are entirely blank are
 * dropped. A single line is never split, so one enormous line makes one window.
 */
export function lineWindows(
  t: LineTable,
  s: number,
  e: number,
  maxLines: number,
  maxNws: number,
  overlap = 0,
  lookback = 0,
): RowRange[] {
  const out: RowRange[] = [];
  let start = s;
  while (start <= e) {
    while (start <= e && isBlank(t, start)) start++;
    if (start > e) break;
    // Largest end such that the window fits (at least one row).
    let end = Math.min(e, start + maxLines - 1);
    while (end > start && nwsOf(t, start, end) > maxNws) {
      // Shrink quickly: binary search on the prefix table.
      let lo = start;
      let hi = end;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (nwsOf(t, start, mid) <= maxNws) lo = mid;
        else hi = mid - 1;
      }
      end = lo;
    }
    let next = end + 1;
    if (end < e) {
      let splitAt = -1;
      for (let r = end; r > start && r >= end - lookback; r--) {
        if (isBlank(t, r)) {
          splitAt = r;
          break;
        }
      }
      if (splitAt > start) {
        end = splitAt - 1;
        next = splitAt + 1;
      } else if (overlap > 0 && end - start + 1 > overlap * 2) {
        next = end + 1 - overlap;
      }
    }
    let ee = end;
    while (ee > start && isBlank(t, ee)) ee--;
    out.push({ s: start, e: ee });
    start = next;
  }
  return out;
}
