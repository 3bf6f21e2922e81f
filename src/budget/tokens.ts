/**
 * Exact BPE token counts (o200k, as used by current OpenAI models; a close
 * proxy for other vendors).
 *
 * The merge ranks come from the tiktoken file gpt-tokenizer ships, as one
 * flat table looked up where it lies (ranks.ts): loading the package's
 * encoder costs about 70 MB of RSS (its ranks are a giant array literal), and
 * a Map of them 200 ms and 20 MB, in every thread that counts (each index
 * worker counts). The merge loop is tiktoken's; tests hold the counts to the
 * package's encoder.
 *
 * BPE never merges across the pieces its split pattern cuts text into, so a
 * text's count is the sum of its pieces' counts. The pieces are found by a
 * scanner that does what the pattern does on ASCII text and leaves the rest
 * to the pattern (split.ts). Code repeats its pieces
 * (keywords, indentation, operators, identifiers) so heavily that a per-piece
 * cache answers ~95 % of them and halves the cost of counting at index time.
 * Text is counted as text: `<|endoftext|>` in a file is not a special token.
 *
 * The merge loop is quadratic in a piece's length, and one piece can be a
 * whole file (a FASTA sequence, a run of one letter: 100 KB took 7 s), so a
 * piece over MAX_PIECE_BYTES is counted in chunks of that many bytes, each
 * merged on its own: linear time. Only such pieces (never ordinary words,
 * numbers or indentation) may then count differently from exact BPE, by at
 * most one token per chunk boundary.
 */
import { ownCopy } from '../terms/own-copy.js';
import { loadRankTable, type RankTable } from './ranks.js';
import { pieceEnd } from './split.js';

/**
 * Cleared when full: cheaper than an LRU's bookkeeping, and refills in a few
 * files. An index worker sets it from the memory ceiling (config/memory.ts).
 */
let pieceCacheEntries = 50_000;

export function setPieceCacheLimit(entries: number): void {
  pieceCacheEntries = entries;
}

/** Longer pieces are merged in chunks of this many bytes (see above). */
export const MAX_PIECE_BYTES = 512;

/** Marks a chunk's cache key: not a latin1 char, so a chunk's bytes never share a key with a piece. */
const CHUNK_KEY = '\u0100';

/** ASCII text is its own UTF-8 bytes, one per char. */
const ASCII = /^[\x00-\x7f]*$/;

let ranks: RankTable | undefined;
const pieceCounts = new Map<string, number>();

/**
 * Tokens in one piece: its UTF-8 bytes merged pair by pair, lowest rank
 * first (ties: leftmost), until no adjacent pair is a token (tiktoken's
 * byte_pair_merge). `bytes` holds one byte per char (latin1).
 */
function pieceTokens(bytes: string, table: RankTable): number {
  if (bytes.length <= 1 || table.has(bytes)) return 1;
  if (bytes.length > MAX_PIECE_BYTES) {
    let n = 0;
    for (let at = 0; at < bytes.length; at += MAX_PIECE_BYTES) n += cached(CHUNK_KEY + bytes.slice(at, at + MAX_PIECE_BYTES), (k) => pieceTokens(k.slice(1), table));
    return n;
  }
  // starts[i]: where part i begins; rank[i]: the rank of part i joined with part i + 1.
  const starts: number[] = [];
  const rank: number[] = [];
  for (let i = 0; i <= bytes.length; i++) starts.push(i);
  const joined = (i: number) => (i + 2 < starts.length ? (table.get(bytes.slice(starts[i]!, starts[i + 2]!)) ?? Infinity) : Infinity);
  for (let i = 0; i < starts.length - 1; i++) rank.push(joined(i));
  for (;;) {
    let best = 0;
    for (let i = 1; i < rank.length; i++) if (rank[i]! < rank[best]!) best = i;
    if (rank[best] === Infinity) break;
    starts.splice(best + 1, 1);
    rank.splice(best + 1, 1);
    rank[best] = joined(best);
    if (best > 0) rank[best - 1] = joined(best - 1);
  }
  return starts.length - 1;
}

export function countTokens(text: string): number {
  const table = (ranks ??= loadRankTable());
  let n = 0;
  const merged = (p: string) => pieceTokens(latin1Bytes(p), table);
  for (let start = 0, end = 0; start < text.length; start = end) {
    end = pieceEnd(text, start);
    const piece = text.slice(start, end);
    // An over-long piece is not kept whole (its chunks are): the cache holds short keys only.
    n += piece.length > MAX_PIECE_BYTES ? merged(piece) : cached(piece, merged);
  }
  return n;
}

/** A piece's UTF-8 bytes, one char each. */
function latin1Bytes(p: string): string {
  return ASCII.test(p) ? p : Buffer.from(p, 'utf8').toString('latin1');
}

/** A count from the per-piece cache, computed on a miss. */
function cached(key: string, count: (key: string) => number): number {
  let n = pieceCounts.get(key);
  if (n === undefined) {
    n = count(key);
    if (pieceCounts.size >= pieceCacheEntries) pieceCounts.clear();
    pieceCounts.set(ownCopy(key), n); // a copy: a view would keep the whole text alive
  }
  return n;
}
