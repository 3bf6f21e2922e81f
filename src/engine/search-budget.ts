/**
 * `search` within a token budget: the best results, in rank order, while their
 * JSON fits `maxTokens`; each result carries its `tokens`. It stands in for
 * budgets in `search` itself until the gate (src/budget) packs answers.
 */
import { countTokens } from '../budget/index.js';
import { usageError } from '../errors/index.js';
import type { ResultItem, SearchEnvelope } from './envelope.js';
import type { Repo } from './repo.js';
import { search, type SearchOptions } from './search.js';

export interface BudgetedSearchEnvelope extends SearchEnvelope {
  results: (ResultItem & { tokens: number })[];
  /** Tokens of all results returned. */
  tokens: number;
  /** Results left out to stay within max_tokens. */
  omitted: number;
}

export function searchWithinBudget(repo: Repo, options: SearchOptions & { maxTokens?: number }): BudgetedSearchEnvelope {
  const { maxTokens } = options;
  if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || maxTokens < 1)) {
    throw usageError(`max_tokens must be a positive integer (got ${maxTokens})`);
  }
  const answer = search(repo, options);
  const results: BudgetedSearchEnvelope['results'] = [];
  let tokens = 0;
  for (const item of answer.results) {
    const cost = countTokens(JSON.stringify(item));
    if (maxTokens !== undefined && tokens + cost > maxTokens) break;
    results.push({ ...item, tokens: cost });
    tokens += cost;
  }
  return { ...answer, results, tokens, omitted: answer.results.length - results.length };
}
