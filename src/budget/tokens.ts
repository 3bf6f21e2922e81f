/**
 * Exact BPE token counts (o200k, as used by current OpenAI models; a close
 * proxy for other vendors). The tokenizer tables take ~70 MB, so they are
 * loaded on first use: an indexing main thread that hands parsing to workers
 * never pays for them.
 */
import { createRequire } from 'node:module';

type Counter = (text: string) => number;
let counter: Counter | undefined;

export function countTokens(text: string): number {
  counter ??= (createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as { countTokens: Counter }).countTokens;
  return counter(text);
}
