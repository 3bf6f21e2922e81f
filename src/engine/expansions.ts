/**
 * Expansions of retrieved results (search hits, context slices): the neighbouring
 * chunks, the other members of the same class or module, and the definitions a hit uses from
 * other files (config `expandImports` per hit; 0 turns them off). Each added item names the hit it
 * was added for in its reasons (`neighbor-of:<path>:<line>`, `sibling-of:…`, `imported-by:…`).
 */
import { trimToBudget, type Trimmed } from '../budget/index.js';
import type { Citation, CitationProbe } from '../cite/index.js';
import { nearbyChunks, type NearbyOptions } from '../graph/index.js';
import type { ResultItem } from './envelope.js';
import type { Repo } from './repo.js';
import { snippetFor } from './snippet.js';

export interface ExpandedItem extends ResultItem {
  chunk_id: number;
  /** The chunk's text. */
  text: string;
  tokens: number;
}

/** The configured expansion: neighbours and siblings always, imported definitions as `expandImports` says. */
export function expansionOptions(repo: Repo): NearbyOptions {
  return { imports: repo.config.expandImports };
}

/** The chunks near these (by chunk id, in priority order), as located items with their text. */
export function expand(repo: Repo, chunkIds: number[], options: NearbyOptions = {}): ExpandedItem[] {
  return nearbyChunks(repo.store, [...new Set(chunkIds)], options).map(({ chunk, path, reasons }) => ({
    path,
    start_line: chunk.startLine,
    end_line: chunk.endLine,
    symbol: chunk.symbol,
    kind: 'expansion',
    score: 0,
    reasons,
    chunk_id: chunk.id,
    text: chunk.text,
    tokens: chunk.tokens,
  }));
}

/**
 * Search's expansions of the results it delivers: located and cited like results, each with the
 * opening lines of its chunk as a snippet, best first while they fit what the results left of
 * the token budget.
 */
export function expandResults(repo: Repo, chunkIds: number[], budget: number, probe: CitationProbe): Trimmed<ResultItem & Citation> {
  const items = expand(repo, chunkIds, expansionOptions(repo)).map(
    ({ chunk_id: _id, text, tokens: _tokens, ...item }): ResultItem => ({ ...item, snippet: snippetFor(text, item.start_line, new Set()) }),
  );
  return trimToBudget(probe.cite(items), Math.max(0, budget));
}
