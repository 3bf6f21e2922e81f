/**
 * Features of the builtin model: must match scripts/embedder/features.py
 * exactly, or the shipped weights mean nothing. Every ASCII identifier run is
 * split into lower-cased words (underscores, camelCase humps, letter/digit
 * edges; words under 2 chars and numbers dropped); an identifier of 2+ words
 * also yields its whole form. A vocabulary term is one feature; an unknown
 * single word falls back to hashed character trigrams of "<word>". A feature
 * weighs 1 + ln(count).
 *
 * Written as a character scanner rather than regular expressions: this is
 * the embedder's hot loop.
 */
import { fnv1a } from '../fnv.js';

const MAX_IDENT = 64;
const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const UNDER = 4;

const CLASS = new Uint8Array(128);
for (let c = 97; c <= 122; c++) CLASS[c] = LOWER;
for (let c = 65; c <= 90; c++) CLASS[c] = UPPER;
for (let c = 48; c <= 57; c++) CLASS[c] = DIGIT;
CLASS[95] = UNDER;

const classOf = (text: string, i: number): number => {
  const c = text.charCodeAt(i);
  return c < 128 ? CLASS[c]! : OTHER;
};

export interface FeatureSpace {
  /** Term → row; `size` terms, the hashed trigram rows after them. */
  vocab: { get(term: string): number | undefined; readonly size: number };
  buckets: number;
}

/** A camelCase or letter/digit edge between i - 1 and i (inside one underscore-free piece). */
function boundary(text: string, i: number, end: number): boolean {
  const a = classOf(text, i - 1);
  const b = classOf(text, i);
  if (b === UPPER) return a === LOWER || a === DIGIT || (a === UPPER && i + 1 < end && classOf(text, i + 1) === LOWER);
  return (a === DIGIT) !== (b === DIGIT); // letter↔digit
}

/** Calls `emit(start, end)` for each identifier run of `text` (a stretch of ASCII letters, digits and underscores) the model reads: those up to MAX_IDENT long. */
function forEachRun(text: string, emit: (start: number, end: number) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (classOf(text, i) === OTHER) {
      i++;
      continue;
    }
    let end = i;
    while (end < n && classOf(text, end) !== OTHER) end++;
    if (end - i <= MAX_IDENT) emit(i, end);
    i = end;
  }
}

const words: string[] = [];

/** Calls `emit(term, isSingleWord)` for each term of the run text[i, end). */
function termsOfRun(text: string, i: number, end: number, emit: (term: string, single: boolean) => void): void {
  words.length = 0;
  let start = i;
  for (let j = i; j <= end; j++) {
    const cut = j === end || classOf(text, j) === UNDER || (j > start && classOf(text, j - 1) !== UNDER && boundary(text, j, end));
    if (!cut) continue;
    if (j - start >= 2 && classOf(text, start) !== UNDER) {
      const w = text.slice(start, j);
      if (!/^[0-9]+$/.test(w)) words.push(w.toLowerCase());
    }
    start = j < end && classOf(text, j) === UNDER ? j + 1 : j;
  }
  if (words.length > 1) emit(words.join(''), false);
  for (const w of words) emit(w, true);
}

/** Calls `emit(term, isSingleWord)` for each term of `text`, in order. */
export function forEachModelTerm(text: string, emit: (term: string, single: boolean) => void): void {
  forEachRun(text, (start, end) => termsOfRun(text, start, end, emit));
}

/** The feature rows one identifier run emits, in order. */
function rowsOfRun(run: string, space: FeatureSpace): number[] {
  const rows: number[] = [];
  const base = space.vocab.size;
  termsOfRun(run, 0, run.length, (term, single) => {
    const row = space.vocab.get(term);
    if (row !== undefined) rows.push(row);
    else if (single) {
      const w = `<${term}>`;
      // The features are ASCII, so code units are their UTF-8 bytes, as the trainer hashes them.
      for (let k = 0; k + 3 <= w.length; k++) rows.push(base + (fnv1a(w, k, k + 3) % space.buckets));
    }
  });
  return rows;
}

/**
 * Rows by identifier run, per feature space: code says the same names again and again, and
 * splitting, lower-casing and looking up a run's words was most of an embedding. Emptied when
 * full, which bounds it (~2 MB).
 */
const runRows = new WeakMap<FeatureSpace, Map<string, number[]>>();
const MAX_RUNS = 16_384;

/** The run cache of `space`, made on its first text. */
function rowsByRun(space: FeatureSpace): Map<string, number[]> {
  let cache = runRows.get(space);
  if (!cache) runRows.set(space, (cache = new Map()));
  return cache;
}

/** Calls `emit(row)` once per feature occurrence of `text`. */
export function forEachFeature(text: string, space: FeatureSpace, emit: (row: number) => void): void {
  const cache = rowsByRun(space);
  forEachRun(text, (start, end) => {
    const run = text.slice(start, end);
    let rows = cache.get(run);
    if (rows === undefined) {
      rows = rowsOfRun(run, space);
      if (cache.size >= MAX_RUNS) cache.clear();
      cache.set(run, rows);
    }
    for (let k = 0; k < rows.length; k++) emit(rows[k]!);
  });
}

/** Feature rows and their weights for one text. */
export function featuresOf(text: string, space: FeatureSpace): Map<number, number> {
  const counts = new Map<number, number>();
  forEachFeature(text, space, (row) => counts.set(row, (counts.get(row) ?? 0) + 1));
  for (const [row, c] of counts) counts.set(row, 1 + Math.log(c));
  return counts;
}
