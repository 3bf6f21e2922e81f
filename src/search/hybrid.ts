/**
 * Hybrid retrieval: the keyword ranking (rank.ts) and the nearest chunks
 * by embedding (vector.ts), fused by reciprocal rank (fusion.ts) and cut
 * where the fused scores stop being worth reading (cutoff.ts). Files are
 * fused as files: the keyword file ranking with files ordered by their most
 * similar chunk. When vectors cannot answer (no embedder, the space still
 * being built for another model, the query side not started) the answer is
 * the keyword ranking, and says so in its `mode`. A hybrid question whose
 * words the keyword side finds nowhere gets no answer rather than the
 * nearest noise (an identifier that no longer exists has neighbours too);
 * `semantic` mode asks for the neighbours anyway.
 */
import type { Config } from '../config/index.js';
import { embedderSpec } from '../embed/index.js';
import type { Store } from '../store/index.js';
import { cutoff, type CutoffOptions } from './cutoff.js';
import { rrf, type FusionOptions } from './fusion.js';
import { FUSION_WEIGHTS, rankChunks, rankFiles, type RankedChunk, type RankedFile, type RankOptions } from './rank.js';
import { readQuery } from './query.js';
import { fileRole } from './roles.js';
import { retrievalPhase, vectorSearch, type RetrievalPhase } from './vector.js';

export type SearchMode = 'hybrid' | 'keyword' | 'semantic';

export interface HybridAnswer<T> {
  results: T[];
  /** What actually answered: `keyword` when vectors could not. */
  mode: SearchMode;
  phase: RetrievalPhase;
}

/** Keyword candidates that take part in fusion: past ~100 an RRF contribution is below the cutoff floor anyway. */
const KEYWORD_DEPTH = 100;
/** Nearest chunks fetched: several per file, so files with many similar chunks surface. */
const VECTOR_DEPTH = 300;

/** Keyword candidates to rank: only what is shown when nothing is fused with them. */
function keywordDepth(options: RankOptions, want: SearchMode): number {
  return want === 'keyword' ? options.limit : Math.max(options.limit, KEYWORD_DEPTH);
}

export function fusionOptions(config: Config): FusionOptions {
  return { k0: config.fusionK0, keywordWeight: config.fusionKeywordWeight, semanticWeight: config.fusionSemanticWeight };
}

export function cutoffOptions(config: Config): CutoffOptions {
  return { relative: config.cutoffRelative, floor: config.cutoffFloor, outlierRatio: config.cutoffOutlierRatio, safeHarbor: config.cutoffSafeHarbor };
}

/**
 * The nearest chunks that pass the caller's filters, best first. Files that
 * are not the code itself (tests, docs, examples …) are demoted as the
 * keyword ranking demotes them, so both lists agree on what a fix touches.
 */
function semanticChunks(store: Store, config: Config, query: string, options: RankOptions): RankedChunk[] | null {
  const hits = vectorSearch(store, embedderSpec(config), query, VECTOR_DEPTH);
  if (!hits) return null;
  const chunks = store.chunks.byIds(hits.map((h) => h.chunkId));
  const files = store.files.byIds([...new Set([...chunks.values()].map((c) => c.fileId))]);
  const kinds = options.kinds?.length ? new Set(options.kinds) : null;
  const out: RankedChunk[] = [];
  for (const h of hits) {
    const chunk = chunks.get(h.chunkId);
    const file = chunk && files.get(chunk.fileId);
    if (!chunk || !file || (kinds && !kinds.has(file.kind)) || (options.accept && !options.accept(file.path))) continue;
    const demote = fileRole(file.path, file.kind) === 'code' ? 1 : FUSION_WEIGHTS.demote;
    out.push({ chunk, file, score: Math.max(0, h.similarity) * demote, reasons: [`semantic:${h.similarity.toFixed(3)}`] });
  }
  return out.sort((a, b) => b.score - a.score);
}

/**
 * A query that names code (this many identifiers or paths written as code)
 * is answered by what it names: on the dev issues the builtin model's
 * neighbours moved no such query up and cost a few (bench:embed-ablation), so
 * there they only break ties. A prose question keeps the configured weight.
 */
const ANCHORED_NAMES = 3;
const ANCHORED_SEMANTIC_SHARE = 0.1;

/** How many names a query writes as code: identifiers, paths, file names. */
function anchorCount(query: string): number {
  const read = readQuery(query);
  return read.identifiers.size + read.paths.length;
}

/** Semantic-only answers fuse one list: scored against its own best, so the cutoff reads them alike. */
export function fusionFor(config: Config, want: SearchMode, query: string): FusionOptions {
  const o = fusionOptions(config);
  if (want === 'semantic') return { ...o, keywordWeight: 0, semanticWeight: o.semanticWeight || 1 };
  return anchorCount(query) >= ANCHORED_NAMES ? { ...o, semanticWeight: o.semanticWeight * ANCHORED_SEMANTIC_SHARE } : o;
}

function answer<K, T extends { score: number }>(
  config: Config,
  want: SearchMode,
  query: string,
  keyword: K[],
  semantic: T[],
  keys: { keyword: (k: K) => number; semantic: (s: T) => number },
  merge: (k: K | undefined, s: T | undefined, score: number) => T,
  limit: number,
): T[] {
  const fused = rrf(keyword, semantic, keys, fusionFor(config, want, query)).map((f) => merge(f.keyword?.item, f.semantic?.item, f.score));
  return cutoff(fused, cutoffOptions(config)).slice(0, limit);
}

export function hybridChunks(store: Store, config: Config, query: string, options: RankOptions, want: SearchMode = 'hybrid'): HybridAnswer<RankedChunk> {
  const phase = retrievalPhase(store, embedderSpec(config));
  const keyword = want === 'semantic' ? [] : rankChunks(store, query, { ...options, limit: keywordDepth(options, want) });
  const semantic = want === 'keyword' ? null : semanticChunks(store, config, query, options);
  if (!semantic) return { results: keyword.slice(0, options.limit), mode: 'keyword', phase };
  if (want === 'hybrid' && keyword.length === 0) return { results: [], mode: want, phase };
  const results = answer(
    config, want, query, keyword, semantic,
    { keyword: (k) => k.chunk.id, semantic: (s) => s.chunk.id },
    (k, s, score) => ({ ...(k ?? s)!, score, reasons: [...(k?.reasons ?? []), ...(s?.reasons ?? [])] }),
    options.limit,
  );
  return { results, mode: want === 'semantic' ? 'semantic' : 'hybrid', phase };
}

export function hybridFiles(store: Store, config: Config, query: string, options: RankOptions, want: SearchMode = 'hybrid'): HybridAnswer<RankedFile> {
  const phase = retrievalPhase(store, embedderSpec(config));
  const keyword = want === 'semantic' ? [] : rankFiles(store, query, { ...options, limit: keywordDepth(options, want) });
  const chunks = want === 'keyword' ? null : semanticChunks(store, config, query, options);
  if (!chunks) return { results: keyword.slice(0, options.limit), mode: 'keyword', phase };
  if (want === 'hybrid' && keyword.length === 0) return { results: [], mode: want, phase };
  // A file ranks by its most similar chunk, which is also the chunk it shows.
  const seen = new Set<number>();
  const semantic: RankedFile[] = [];
  for (const c of chunks) {
    if (seen.has(c.file.id)) continue;
    seen.add(c.file.id);
    semantic.push({ file: c.file, best: c, score: c.score, reasons: c.reasons });
  }
  const results = answer(
    config, want, query, keyword, semantic,
    { keyword: (k) => k.file.id, semantic: (s) => s.file.id },
    (k, s, score) => ({ ...(k ?? s)!, score, reasons: [...(k?.reasons ?? []), ...(s?.reasons ?? [])] }),
    options.limit,
  );
  return { results, mode: want === 'semantic' ? 'semantic' : 'hybrid', phase };
}
