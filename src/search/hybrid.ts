/**
 * Hybrid retrieval. Chunks: the keyword ranking (rank.ts) and the nearest
 * chunks by embedding (vector.ts), fused by reciprocal rank (fusion.ts) and
 * cut where the fused scores stop being worth reading (cutoff.ts). Files: a
 * file's nearness to the question is one more signal of the file ranking
 * (feedbackNearness). When vectors cannot answer (no embedder, the space
 * still being built for another model, the query side not started) the
 * answer is the keyword ranking, and says so in its `mode`. A hybrid question
 * whose words the keyword side finds nowhere gets no answer rather than the
 * nearest noise (an identifier that no longer exists has neighbours too);
 * `semantic` mode asks for the neighbours anyway.
 */
import type { Config } from '../config/index.js';
import { embedderSpec, normalize } from '../embed/index.js';
import type { ChunkPlace, Store, StoredFile } from '../store/index.js';
import { cutoff, type CutoffOptions } from './cutoff.js';
import { rrf, type Fused, type FusionOptions } from './fusion.js';
import { chunkDepth, rankChunks, rankFiles, type FileSignals, type NearnessOf, type RankedChunk, type RankedFile, type RankOptions } from './rank.js';
import type { Question } from './query.js';
import { fileRole } from './roles.js';
import { CHUNK_DEMOTE } from './weigh.js';
import { dot, embeddedQuery, retrievalPhase, vectorSearch, type RetrievalPhase, type VectorHit } from './vector.js';
import { fileCentroids } from './vector-matrix.js';
import { byCodeUnit } from '../order.js';

export type SearchMode = 'hybrid' | 'keyword' | 'semantic';

export interface HybridAnswer<T> {
  results: T[];
  /** What actually answered: `keyword` when vectors could not. */
  mode: SearchMode;
  phase: RetrievalPhase;
}

/** A file answer, and the candidates its words gathered when it ranked them (RankOptions.signals). */
export interface HybridFiles extends HybridAnswer<RankedFile> {
  signals?: readonly FileSignals[];
}

/** Keyword candidates that take part in fusion: past ~100 an RRF contribution is below the cutoff floor anyway. */
const KEYWORD_DEPTH = 100;
/** Nearest chunks fetched: several per file, so files with many similar chunks surface. */
const VECTOR_DEPTH = 300;

/** Keyword candidates to rank: only what is shown when nothing is fused with them. */
function keywordDepth(limit: number, want: SearchMode): number {
  return want === 'keyword' ? limit : Math.max(limit, KEYWORD_DEPTH);
}

/** The lexical candidates the keyword side of an answer of `limit` chunks scores: a pool ranked to it can stand in for that side (hybridChunks' `ranked`). */
export function keywordRankDepth(limit: number, want: SearchMode): number {
  return chunkDepth(keywordDepth(limit, want));
}

export function fusionOptions(config: Config): FusionOptions {
  return { k0: config.fusionK0, keywordWeight: config.fusionKeywordWeight, semanticWeight: config.fusionSemanticWeight };
}

export function cutoffOptions(config: Config): CutoffOptions {
  return { relative: config.cutoffRelative, floor: config.cutoffFloor, outlierRatio: config.cutoffOutlierRatio, safeHarbor: config.cutoffSafeHarbor };
}

/** A nearest chunk, placed in its file: its row and text are read only if it is shown (shownChunks). */
interface Near {
  chunk: ChunkPlace;
  file: StoredFile;
  score: number;
  reasons: string[];
}

/**
 * The nearest chunks that pass the caller's filters, best first. Files that
 * are not the code itself (tests, docs, examples …) are demoted as the
 * keyword ranking demotes them, so both lists agree on what a fix touches.
 */
function semanticChunks(store: Store, hits: VectorHit[], options: RankOptions): Near[] {
  const places = store.chunks.placesOf(hits.map((h) => h.chunkId));
  const files = store.files.byIds([...new Set([...places.values()].map((c) => c.fileId))]);
  const kinds = options.kinds?.length ? new Set(options.kinds) : null;
  const demotion = new Map<number, number>();
  const out: Near[] = [];
  for (const h of hits) {
    const chunk = places.get(h.chunkId);
    const file = chunk && files.get(chunk.fileId);
    if (!chunk || !file || (kinds && !kinds.has(file.kind)) || (options.accept && !options.accept(file.path))) continue;
    let demote = demotion.get(file.id);
    if (demote === undefined) demotion.set(file.id, (demote = fileRole(file.path, file.kind) === 'code' ? 1 : CHUNK_DEMOTE));
    out.push({ chunk, file, score: Math.max(0, h.similarity) * demote, reasons: [`semantic:${h.similarity.toFixed(3)}`] });
  }
  return out.sort(byScoreThenPlace);
}

/** Ranked chunks for what fusion kept: a keyword hit's chunk as it is, a nearest one's row read now, all in one read. */
function shownChunks(store: Store, kept: { keyword?: RankedChunk; near?: Near; score: number; reasons: string[] }[]): RankedChunk[] {
  const rows = store.chunks.byIds(kept.flatMap((k) => (k.keyword ? [] : [k.near!.chunk.id])));
  return kept.flatMap(({ keyword, near, score, reasons }) => {
    const chunk = keyword?.chunk ?? rows.get(near!.chunk.id);
    return chunk ? [{ chunk, file: (keyword ?? near)!.file, score, reasons }] : [];
  });
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
function anchorCount({ read }: Question): number {
  return read.identifiers.size + read.paths.length;
}

/** Semantic-only answers fuse one list: scored against its own best, so the cutoff reads them alike. */
export function fusionFor(config: Config, want: SearchMode, question: Question): FusionOptions {
  const o = fusionOptions(config);
  if (want === 'semantic') return { ...o, keywordWeight: 0, semanticWeight: o.semanticWeight || 1 };
  return anchorCount(question) >= ANCHORED_NAMES ? { ...o, semanticWeight: o.semanticWeight * ANCHORED_SEMANTIC_SHARE } : o;
}

/** Best first; equal scores by path, then line, so two indexes of one tree answer in one order (row ids differ). */
function byScoreThenPlace(a: Placed, b: Placed): number {
  return b.score - a.score || byPlace(a, b);
}

function byPlace(a: Placed, b: Placed): number {
  return byCodeUnit(a.file.path, b.file.path) || (a.chunk?.startLine ?? 0) - (b.chunk?.startLine ?? 0);
}

type Placed = { score: number; file: { path: string }; chunk?: { startLine: number } };

function answer<K extends Placed, T extends Placed, R>(
  config: Config,
  want: SearchMode,
  question: Question,
  keyword: K[],
  semantic: T[],
  keys: { keyword: (k: K) => number; semantic: (s: T) => number },
  merge: (k: K | undefined, s: T | undefined, score: number) => R,
  limit: number,
): R[] {
  // Ordered and cut on the items as they are: merged only for what is kept (a few of hundreds).
  const itemOf = (f: Fused<K, T>): Placed => f.keyword?.item ?? f.semantic!.item;
  const fused = rrf(keyword, semantic, keys, fusionFor(config, want, question)).sort((a, b) => b.score - a.score || byPlace(itemOf(a), itemOf(b)));
  return cutoff(fused, cutoffOptions(config))
    .slice(0, limit)
    .map((f) => merge(f.keyword?.item, f.semantic?.item, f.score));
}

/**
 * `ranked`: this question's keyword ranking when the caller holds one (the
 * gate's pool), scored to the candidate depth this call would use and at
 * least as long: its prefix is what ranking again would give.
 */
export function hybridChunks(
  store: Store,
  config: Config,
  question: Question,
  options: RankOptions,
  want: SearchMode = 'hybrid',
  ranked?: readonly RankedChunk[],
): HybridAnswer<RankedChunk> {
  const phase = retrievalPhase(store, embedderSpec(config));
  const depth = keywordDepth(options.limit, want);
  const keyword = want === 'semantic' ? [] : ranked ? ranked.slice(0, depth) : rankChunks(store, question, { ...options, limit: depth });
  const hits = want === 'keyword' ? null : vectorSearch(store, embedderSpec(config), question.text, VECTOR_DEPTH);
  if (!hits) return { results: keyword.slice(0, options.limit), mode: 'keyword', phase };
  if (want === 'hybrid' && keyword.length === 0) return { results: [], mode: want, phase };
  const semantic = semanticChunks(store, hits, options);
  const kept = answer(
    config, want, question, keyword, semantic,
    { keyword: (k) => k.chunk.id, semantic: (s) => s.chunk.id },
    (k, s, score) => ({ keyword: k, near: s, score, reasons: [...(k?.reasons ?? []), ...(s?.reasons ?? [])] }),
    options.limit,
  );
  return { results: shownChunks(store, kept), mode: want === 'semantic' ? 'semantic' : 'hybrid', phase };
}

/**
 * Files: in hybrid mode nearness is one more signal of the file ranking
 * (learned.ts), beside content, history and the rest; it re-ranks the files the
 * words found. Semantic mode ranks files by their most similar chunk alone.
 */
export function hybridFiles(store: Store, config: Config, question: Question, options: RankOptions, want: SearchMode = 'hybrid'): HybridFiles {
  const phase = retrievalPhase(store, embedderSpec(config));
  if (want === 'hybrid') {
    const nearnessOf = feedbackNearness(store, config, question);
    const { files, signals } = rankFiles(store, question, options, nearnessOf ?? undefined, config.nearnessWeight);
    return { results: files, signals, mode: nearnessOf ? 'hybrid' : 'keyword', phase };
  }
  const hits = want === 'semantic' ? vectorSearch(store, embedderSpec(config), question.text, VECTOR_DEPTH) : null;
  if (!hits) {
    const { files, signals } = rankFiles(store, question, options, undefined, config.nearnessWeight);
    return { results: files, signals, mode: 'keyword', phase };
  }
  // A file ranks by its most similar chunk, which is also the chunk it shows.
  const seen = new Set<number>();
  const semantic: Near[] = [];
  for (const c of semanticChunks(store, hits, options)) {
    if (seen.has(c.file.id)) continue;
    seen.add(c.file.id);
    semantic.push(c);
  }
  const kept = answer(
    config, want, question, [] as Near[], semantic,
    { keyword: (k) => k.file.id, semantic: (s) => s.file.id },
    (k, s, score) => ({ near: (k ?? s)!, score }),
    options.limit,
  );
  const rows = store.chunks.byIds(kept.map(({ near }) => near.chunk.id));
  const results = kept.flatMap(({ near, score }): RankedFile[] => {
    const chunk = rows.get(near.chunk.id);
    return chunk ? [{ file: near.file, best: { chunk, file: near.file, score: near.score, reasons: near.reasons }, score, reasons: near.reasons }] : [];
  });
  return { results, mode: 'semantic', phase };
}

/** How many of the keyword ranking's best files the question's vector is moved towards. */
const FEEDBACK_FILES = 3;
/** Nearness by rank among the candidates: 1 for the nearest, 1/2 for the sixth, 1/3 for the eleventh. */
const NEARNESS_RANK_SCALE = 5;

/**
 * Nearness for hybrid file ranking, by pseudo-relevance feedback (Rocchio) in
 * embedding space: the question's title, moved towards the vectors of the
 * keyword ranking's best few files, against each file's vector (the mean of
 * its chunks'). An issue's words already find its main file; what they miss is
 * the file beside it the fix also touches, which reads like the main one. The
 * title alone, because a static model's average drowns in pasted logs and
 * code. Scored by rank among the candidates: raw similarities share a large
 * baseline and their spread depends on the question. Measured, with the
 * alternatives tried, in docs/semantic.md. Null when vectors
 * cannot answer.
 */
export function feedbackNearness(store: Store, config: Config, question: Question): NearnessOf | null {
  const embedded = embeddedQuery(store, embedderSpec(config), question.read.titleLine || question.text);
  if (!embedded) return null;
  const centroids = fileCentroids(store, embedded.matrix);
  return (byKeyword) => {
    const probe = Float32Array.from(embedded.q);
    const top = byKeyword.slice(0, FEEDBACK_FILES).flatMap((s) => centroids.get(s.file.id) ?? []);
    for (const c of top) for (let d = 0; d < probe.length; d++) probe[d]! += c[d]! / top.length;
    normalize(probe);
    const near = byKeyword
      .flatMap((s) => {
        const c = centroids.get(s.file.id);
        return c ? [{ id: s.file.id, path: s.file.path, similarity: dot(c, probe) }] : [];
      })
      .sort((a, b) => b.similarity - a.similarity || byCodeUnit(a.path, b.path));
    return new Map(near.map((n, rank) => [n.id, { score: 1 / (1 + rank / NEARNESS_RANK_SCALE), similarity: n.similarity }]));
  };
}
