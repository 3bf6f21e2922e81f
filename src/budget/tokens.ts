/**
 * Exact BPE token counts (o200k, as used by current OpenAI models; a close
 * proxy for other vendors). The tokenizer tables take ~70 MB, so they are
 * loaded on first use: an indexing main thread that hands parsing to workers
 * never pays for them.
 */
import { createRequire } from 'node:module';

type Counter = (text: string) => number;
interface Tokenizer {
  countTokens: Counter;
  setMergeCacheSize: (size: number) => void;
}
let counter: Counter | undefined;

/** The library's default merge cache (100k entries) costs tens of MB per thread for a few % of speed. */
const MERGE_CACHE_ENTRIES = 20_000;

export function countTokens(text: string): number {
  if (!counter) {
    const tokenizer = createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as Tokenizer;
    tokenizer.setMergeCacheSize(MERGE_CACHE_ENTRIES);
    counter = tokenizer.countTokens;
  }
  return counter(text);
}
