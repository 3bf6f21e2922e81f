/**
 * Answers with what agents remembered: a `search` that passed the gate, and
 * a `context` bundle, also carry the memory entries holding their words
 * (reasons `memory`, `topic:<topic>`) within the same token budget — search
 * in what its results left, context in a bounded share of its ceiling. A
 * regex search and a refused one carry none, and an index whose memory
 * cannot be read (a read-only file not yet migrated) answers without it.
 */
import { trimBudget, trimToBudget, type RefineEnvelope } from '../budget/index.js';
import { SightlineError } from '../errors/index.js';
import { indexSource, type IndexSource } from '../index/index.js';
import { findMemory, type MemoryHit } from '../memory/index.js';
import { searchTerms } from '../search/index.js';
import { packContext, type ContextEnvelope, type ContextOptions } from './context.js';
import { limitsOf, type GateOptions } from './gated.js';
import { MEMORY_HITS } from './limits.js';
import type { Repo } from './repo.js';
import { gatedSearch, type ExpandOption, type GatedSearchEnvelope } from './search-gate.js';
import type { SearchOptions } from './search.js';

export interface SearchWithMemory extends GatedSearchEnvelope {
  /** What the local index was built from (commit, digest), so answers of two servers can be compared. */
  index_source?: IndexSource;
  memory?: (MemoryHit & { tokens: number })[];
  /** Entries that matched but did not fit the budget. */
  memory_omitted?: number;
}

/** The entries holding the words of `query`, best first; none when memory cannot be read. */
async function remembered(repo: Repo, query: string): Promise<MemoryHit[]> {
  try {
    return await findMemory(repo.memory, searchTerms(query), MEMORY_HITS);
  } catch (err) {
    // An unreadable memory table, or an unreachable team database: the code answer stands on its own.
    const unreachable = err instanceof SightlineError && err.code === 'io';
    if (!unreachable && !/^SQLITE_/.test(String((err as { code?: unknown }).code ?? ''))) throw err;
    return [];
  }
}

export async function searchWithMemory(repo: Repo, options: SearchOptions & GateOptions & ExpandOption): Promise<SearchWithMemory | RefineEnvelope> {
  const gated = gatedSearch(repo, options);
  if (gated.status !== 'ok') return gated;
  const answer: SearchWithMemory = { ...gated, index_source: indexSource(repo.store) };
  if (options.regex) return answer;
  const hits = await remembered(repo, options.query);
  if (!hits.length) return answer;
  const fitted = trimToBudget(hits, trimBudget(limitsOf(repo, options), options.maxTokens) - answer.tokens);
  if (!fitted.kept.length) return { ...answer, memory_omitted: fitted.omitted };
  return { ...answer, memory: fitted.kept, tokens: answer.tokens + fitted.tokens, ...(fitted.omitted ? { memory_omitted: fitted.omitted } : {}) };
}

export async function contextWithMemory(repo: Repo, options: ContextOptions): Promise<ContextEnvelope> {
  const words = [options.task, ...(options.terms ?? [])].join(' ');
  return packContext(repo, { ...options, remembered: await remembered(repo, words) });
}
