/**
 * Context expansion for retrieved results (search hits, context slices): the neighbouring
 * chunks, the other members of the same class or module, and — when asked — the definitions a
 * hit uses from other files. Each added item names the chunk it was added for in its reasons.
 */
import { expandChunks, type ExpandOptions } from '../graph/index.js';
import type { ResultItem } from './envelope.js';
import type { Repo } from './repo.js';

export type { ExpandOptions } from '../graph/index.js';

export interface ExpandedItem extends ResultItem {
  chunk_id: number;
  /** The chunk's text. */
  text: string;
  tokens: number;
}

/** Chunk ids of the chunks that hold each hit's first line (in hit order). */
export function chunkIdsOf(repo: Repo, hits: Pick<ResultItem, 'path' | 'start_line'>[]): number[] {
  const ids: number[] = [];
  for (const h of hits) {
    const file = repo.store.files.get(h.path);
    const chunk = file ? repo.store.chunks.ofFileId(file.id).find((c) => c.startLine <= h.start_line && h.start_line <= c.endLine) : undefined;
    if (chunk && !ids.includes(chunk.id)) ids.push(chunk.id);
  }
  return ids;
}

export function expand(repo: Repo, hits: Pick<ResultItem, 'path' | 'start_line'>[], options: ExpandOptions = {}): ExpandedItem[] {
  return expandChunks(repo.store, chunkIdsOf(repo, hits), options).map(({ chunk, path, reasons }) => ({
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
