/**
 * `search` with what agents remembered: an answer that passed the gate also
 * carries the memory entries holding its words (reasons `memory`,
 * `topic:<topic>`), in what its results left of the token budget. A regex
 * search and a refused one carry none, and an index whose memory cannot be
 * read (a read-only file not yet migrated) answers without it.
 */
import { trimBudget, trimToBudget, type RefineEnvelope } from '../budget/index.js';
import { findMemory, type MemoryHit } from '../memory/index.js';
import { searchTerms } from '../search/index.js';
import { limitsOf, type GateOptions } from './gated.js';
import type { Repo } from './repo.js';
import { gatedSearch, type ExpandOption, type GatedSearchEnvelope } from './search-gate.js';
import type { SearchOptions } from './search.js';

/** Memory entries an answer carries at most: a pointer to what was decided, not a second result list. */
export const MEMORY_HITS = 3;

export interface SearchWithMemory extends GatedSearchEnvelope {
  memory?: (MemoryHit & { tokens: number })[];
  /** Entries that matched but did not fit the budget. */
  memory_omitted?: number;
}

export async function searchWithMemory(repo: Repo, options: SearchOptions & GateOptions & ExpandOption): Promise<SearchWithMemory | RefineEnvelope> {
  const answer = gatedSearch(repo, options);
  if (answer.status !== 'ok' || options.regex) return answer;
  let hits: MemoryHit[];
  try {
    hits = await findMemory(repo.memory, searchTerms(options.query), MEMORY_HITS);
  } catch (err) {
    if (!/^SQLITE_/.test(String((err as { code?: unknown }).code ?? ''))) throw err;
    return answer;
  }
  if (!hits.length) return answer;
  const fitted = trimToBudget(hits, trimBudget(limitsOf(repo, options), options.maxTokens) - answer.tokens);
  if (!fitted.kept.length) return { ...answer, memory_omitted: fitted.omitted };
  return { ...answer, memory: fitted.kept, tokens: answer.tokens + fitted.tokens, ...(fitted.omitted ? { memory_omitted: fitted.omitted } : {}) };
}
