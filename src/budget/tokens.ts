/**
 * Exact BPE token counts (o200k, as used by current OpenAI models; a close
 * proxy for other vendors). The tokenizer tables take ~70 MB, so they are
 * loaded on first use: an indexing main thread that hands parsing to workers
 * never pays for them.
 *
 * BPE never merges across the pieces its split pattern cuts text into, so a
 * text's count is the sum of its pieces' counts. Code repeats its pieces
 * (keywords, indentation, operators, identifiers) so heavily that a per-piece
 * cache answers ~95 % of them and halves the cost of counting at index time.
 * Text is counted as text: `<|endoftext|>` in a file is not a special token.
 */
import { createRequire } from 'node:module';

interface Tokenizer {
  countTokens: (text: string, options: { disallowedSpecial: Set<string> }) => number;
  setMergeCacheSize: (size: number) => void;
}

/** Cleared when full: cheaper than an LRU's bookkeeping, and refills in a few files. */
const PIECE_CACHE_ENTRIES = 50_000;
const AS_TEXT = { disallowedSpecial: new Set<string>() };

let tokenizer: Tokenizer | undefined;
let splitPieces: RegExp | undefined;
const pieceCounts = new Map<string, number>();

function load(): void {
  const require = createRequire(import.meta.url);
  tokenizer = require('gpt-tokenizer/encoding/o200k_base') as Tokenizer;
  tokenizer.setMergeCacheSize(0); // the piece cache below does this job
  const { O200K_TOKEN_SPLIT_REGEX } = require('gpt-tokenizer/cjs/encodingParams/constants') as { O200K_TOKEN_SPLIT_REGEX: RegExp };
  splitPieces = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'gu');
}

export function countTokens(text: string): number {
  if (!tokenizer) load();
  const pieces = splitPieces!;
  pieces.lastIndex = 0;
  let n = 0;
  for (let m = pieces.exec(text); m !== null; m = pieces.exec(text)) {
    const piece = m[0];
    let count = pieceCounts.get(piece);
    if (count === undefined) {
      count = tokenizer!.countTokens(piece, AS_TEXT);
      if (pieceCounts.size >= PIECE_CACHE_ENTRIES) pieceCounts.clear();
      pieceCounts.set(piece, count);
    }
    n += count;
  }
  return n;
}
