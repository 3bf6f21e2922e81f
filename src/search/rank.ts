/**
 * Chunk ranking for keyword search: BM25 over code-aware terms, then
 * multipliers an engineer would apply by eye — the definition of a named
 * symbol beats its mentions, a file named like the query beats one that is
 * not, and code beats tests, docs and generated text.
 */
import path from 'node:path';
import type { StoredChunk, StoredFile, StoredSymbol, Store } from '../store/index.js';
import { lexicalSearch, searchTerms } from './lexical.js';
import { identifierWords } from './terms.js';

export interface RankedChunk {
  chunk: StoredChunk;
  file: StoredFile;
  score: number;
  reasons: string[];
}

export interface RankOptions {
  /** Keeps a result when true (scope, exclude). */
  accept?: (path: string) => boolean;
  /** File kinds to keep (code, test, doc, config, generated); all when empty. */
  kinds?: string[];
  limit: number;
}

/** How much a file kind is worth relative to code when nothing says otherwise. */
const KIND_WEIGHT: Record<string, number> = { code: 1, config: 0.6, test: 0.5, doc: 0.5, generated: 0.3 };
const DEFINITION_BOOST = 1.6;
const PATH_MATCH_BOOST = 1.25;
/** Candidates fetched from FTS before filters and re-ranking. */
const CANDIDATE_FLOOR = 400;

/** Definitions of the identifiers a query names, by file id. */
function definitionsByFile(store: Store, terms: string[]): Map<number, StoredSymbol[]> {
  const out = new Map<number, StoredSymbol[]>();
  for (const s of store.symbols.withKeys(terms)) {
    const list = out.get(s.fileId);
    if (list) list.push(s);
    else out.set(s.fileId, [s]);
  }
  return out;
}

function wholeTerm(identifier: string): string {
  return identifierWords(identifier).join('');
}

export function rankChunks(store: Store, query: string, options: RankOptions): RankedChunk[] {
  const terms = searchTerms(query);
  const termSet = new Set(terms);
  const hits = lexicalSearch(store, terms, Math.max(CANDIDATE_FLOOR, options.limit * 4));
  const chunks = store.chunks.byIds(hits.map((h) => h.chunkId));
  const files = store.files.byIds([...new Set([...chunks.values()].map((c) => c.fileId))]);
  const kinds = options.kinds?.length ? new Set(options.kinds) : null;
  const definitions = definitionsByFile(store, terms);
  const out: RankedChunk[] = [];
  for (const hit of hits) {
    const chunk = chunks.get(hit.chunkId);
    const file = chunk && files.get(chunk.fileId);
    if (!chunk || !file) continue;
    if (kinds && !kinds.has(file.kind)) continue;
    if (options.accept && !options.accept(file.path)) continue;
    const reasons = [`bm25:${hit.score.toFixed(2)}`];
    let score = hit.score * (KIND_WEIGHT[file.kind] ?? 1);
    const defined = definitions.get(file.id)?.find((d) => d.startLine >= chunk.startLine && d.startLine <= chunk.endLine);
    if (defined) {
      score *= DEFINITION_BOOST;
      reasons.push(`symbol:${defined.name}`);
    }
    const stem = path.posix.basename(file.path).replace(/\.[^.]+$/, '');
    if (stem && termSet.has(wholeTerm(stem))) {
      score *= PATH_MATCH_BOOST;
      reasons.push('path-match');
    }
    if (file.kind !== 'code') reasons.push(`kind:${file.kind}`);
    out.push({ chunk, file, score, reasons });
  }
  out.sort((a, b) => b.score - a.score || a.file.path.localeCompare(b.file.path) || a.chunk.startLine - b.chunk.startLine);
  return out.slice(0, options.limit);
}

export interface RankedFile {
  file: StoredFile;
  /** The file's best chunk. */
  best: RankedChunk;
  score: number;
  reasons: string[];
}

/** How many of a file's best chunks add up to its score: one strong chunk is not a whole file's worth. */
const FILE_TOP_CHUNKS = 3;

/** Distinct files, best first: a file scores the sum of its top chunks. */
export function rankFiles(chunks: RankedChunk[]): RankedFile[] {
  const byFile = new Map<number, RankedChunk[]>();
  for (const c of chunks) {
    const list = byFile.get(c.file.id);
    if (list) list.push(c);
    else byFile.set(c.file.id, [c]);
  }
  const out: RankedFile[] = [];
  for (const list of byFile.values()) {
    const top = list.slice(0, FILE_TOP_CHUNKS); // already sorted best first
    const reasons = [...new Set(top.flatMap((c) => c.reasons.filter((r) => !r.startsWith('bm25:'))))];
    out.push({ file: list[0]!.file, best: list[0]!, score: top.reduce((s, c) => s + c.score, 0), reasons: [`chunks:${list.length}`, ...reasons] });
  }
  out.sort((a, b) => b.score - a.score || a.file.path.localeCompare(b.file.path));
  return out;
}
