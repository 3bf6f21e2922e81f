/**
 * Features of the builtin model: must match scripts/embedder/features.py
 * exactly, or the shipped weights mean nothing. Every ASCII identifier run is
 * split into lower-cased words (underscores, camelCase humps, letter/digit
 * edges; words under 2 chars and numbers dropped); an identifier of 2+ words
 * also yields its whole form. A vocabulary term is one feature; an unknown
 * single word falls back to hashed character trigrams of "<word>". A feature
 * weighs 1 + ln(count).
 */

const IDENT = /[A-Za-z0-9_]+/g;
const CAMEL = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])/;
const MAX_IDENT = 64;
const DIGITS = /^[0-9]+$/;

export interface FeatureSpace {
  vocab: Map<string, number>;
  buckets: number;
}

/** Calls `emit(term, isSingleWord)` for each term of `text`, in order. */
export function forEachModelTerm(text: string, emit: (term: string, single: boolean) => void): void {
  for (const m of text.matchAll(IDENT)) {
    const raw = m[0];
    if (raw.length > MAX_IDENT) continue;
    const words: string[] = [];
    for (const piece of raw.split('_')) {
      if (!piece) continue;
      for (const w of piece.split(CAMEL)) if (w.length >= 2 && !DIGITS.test(w)) words.push(w.toLowerCase());
    }
    if (words.length > 1) emit(words.join(''), false);
    for (const w of words) emit(w, true);
  }
}

/** FNV-1a, 32-bit, over the string's code units (the features are ASCII, so these are its UTF-8 bytes). */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Feature rows and their weights for one text. */
export function featuresOf(text: string, space: FeatureSpace): Map<number, number> {
  const counts = new Map<number, number>();
  const add = (row: number) => counts.set(row, (counts.get(row) ?? 0) + 1);
  const base = space.vocab.size;
  forEachModelTerm(text, (term, single) => {
    const row = space.vocab.get(term);
    if (row !== undefined) add(row);
    else if (single) {
      const w = `<${term}>`;
      for (let i = 0; i + 3 <= w.length; i++) add(base + (fnv1a(w.slice(i, i + 3)) % space.buckets));
    }
  });
  for (const [row, c] of counts) counts.set(row, 1 + Math.log(c));
  return counts;
}
