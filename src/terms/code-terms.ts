/**
 * Code-aware terms. `getUserName`, `get_user_name` and `GetUserNAME` all yield
 * the words `get`, `user`, `name` plus one whole-identifier term `getusername`
 * (underscores dropped, lower-cased), so a search for either the words or the
 * identifier finds every spelling. The same function feeds the index and the
 * query, so both sides always agree.
 */

import { after, classAt, LETTER, NUMBER } from '../unicode.js';
import { ownCopy } from './own-copy.js';

// Boundaries inside an identifier: lower→Upper, UPPER→Upper+lower (HTTPServer), letter↔digit.
const CAMEL_BOUNDARY = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;

/** Longer identifiers (hashes, base64, minified blobs) are not terms. */
export const MAX_TERM_LENGTH = 64;

const SIMPLE_WORD = /^[a-z]+$/;
/** Identifiers repeat heavily within a repository: splitting each distinct one once saves most of the work. */
const wordCache = new Map<string, string[]>();
/** Entries kept before the cache is cleared; an index worker sets it from the memory ceiling (config/memory.ts). */
let wordCacheLimit = 100_000;

export function setWordCacheLimit(entries: number): void {
  wordCacheLimit = entries;
}

/** The words of one identifier, lower-cased, e.g. `HTTPServer2` → http, server, 2. */
export function identifierWords(identifier: string): string[] {
  if (SIMPLE_WORD.test(identifier)) return [identifier];
  let words = wordCache.get(identifier);
  if (words) return words;
  words = splitIdentifier(identifier).map(ownCopy);
  if (wordCache.size >= wordCacheLimit) wordCache.clear();
  wordCache.set(ownCopy(identifier), words); // copies: a view would keep the whole file alive
  return words;
}

function splitIdentifier(identifier: string): string[] {
  const words: string[] = [];
  for (const piece of identifier.split('_')) {
    if (!piece) continue;
    for (const w of piece.split(CAMEL_BOUNDARY)) if (w) words.push(w.toLowerCase());
  }
  return words;
}

/**
 * Calls `found` with each identifier of `text` (a maximal run of letters, digits and `_`, as
 * `/[\p{L}\p{N}_]+/gu` matches them) by its bounds. A scan of code units rather than that
 * regex's matches: a match is an array per identifier, and every chunk indexed and every hit
 * judged is scanned (twice the speed, a fraction of the garbage). Other than ASCII, a code point
 * is classed by unicode.ts (a lone surrogate is neither letter nor digit, as the regex has it).
 */
function forEachIdentifier(text: string, found: (start: number, end: number) => void): void {
  let start = -1;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    const inWord = c < 0x80 ? (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f : (classAt(text, i) & (LETTER | NUMBER)) !== 0;
    if (inWord) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      found(start, i);
      start = -1;
    }
    i = c < 0x80 ? i + 1 : after(text, i);
  }
  if (start >= 0) found(start, text.length);
}

/** Calls `emit` for each term of `text` in order, whole identifiers before their words. */
export function forEachTerm(text: string, emit: (term: string, isWhole: boolean) => void): void {
  forEachIdentifier(text, (start, end) => {
    if (end - start > MAX_TERM_LENGTH) return; // hashes, base64 and minified blobs are noise
    const words = identifierWords(text.slice(start, end));
    if (words.length === 0) return;
    if (words.length === 1) {
      emit(words[0]!, true);
      return;
    }
    emit(words.join(''), true);
    for (const w of words) emit(w, false);
  });
}

/** Space-joined terms for the FTS index (the FTS tokenizer then splits on spaces only). */
export function indexText(text: string): string {
  const out: string[] = [];
  forEachTerm(text, (t) => out.push(t));
  return out.join(' ');
}

/** Distinct terms of a query, in first-seen order. */
export function queryTerms(text: string): string[] {
  const seen = new Set<string>();
  forEachTerm(text, (t) => seen.add(t));
  return [...seen];
}

/** Path words go into their own FTS field, so `src/auth/session.ts` matches `auth session`. */
export function pathTerms(path: string): string {
  return indexText(chunkFields(path, '', '').path);
}

/** The texts a chunk's FTS fields are made of: its file's path less the extension, its breadcrumb past the path, its text. */
export function chunkFields(path: string, breadcrumb: string, text: string): { path: string; symbols: string; body: string } {
  return { path: path.replace(/\.[^./]+$/, ''), symbols: breadcrumb.slice(path.length), body: text };
}

/** A chunk's FTS fields: its file's path words, the symbols of its breadcrumb (past the path), its text. */
export function chunkTerms(path: string, breadcrumb: string, text: string, filePathTerms = pathTerms(path)): { path: string; symbols: string; body: string } {
  const fields = chunkFields(path, breadcrumb, text);
  return { path: filePathTerms, symbols: indexText(fields.symbols), body: indexText(fields.body) };
}
