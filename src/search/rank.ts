/**
 * Ranking: the one code path behind `search` (chunks), `search --files`
 * (files) and whatever else orders code by relevance to a question.
 *
 * The query is read first (query.ts). Chunks are scored by BM25 over the
 * weighted terms. A file gathers evidence from several signals:
 *
 * - content: the sum of its best three chunk scores (one strong chunk is not a
 *   whole file's worth, and whole-file BM25 favours long files);
 * - history: commit messages that match, crediting the files they touched;
 * - definitions of the names the query writes as code;
 * - explicit mentions of its path or file name (stack-trace frames included);
 * - its file name matching a stressed word of the query.
 *
 * learned.ts weighs them into one score with a model fitted on public
 * history; tests, docs, examples and the like are demoted (roles.ts) unless
 * the query mentions them.
 */
import { byCodeUnit } from '../order.js';
import type { LexicalHit, StoredChunk, StoredFile, Store } from '../store/index.js';
import { gatherEvidence, roleOf, type Evidence, type EvidenceOptions } from './evidence.js';
import { historyCredit } from './history.js';
import { firstOrder, kindOf, rankCandidates, shippedRanker, withNearness, type Candidate } from './learned.js';
import type { Question } from './query.js';
import type { FileRole } from './roles.js';
import { CHUNK_DEMOTE } from './weigh.js';

export interface RankedChunk {
  chunk: StoredChunk;
  file: StoredFile;
  score: number;
  reasons: string[];
}

export interface RankOptions extends EvidenceOptions {
  limit: number;
  /** Lexical candidates a chunk ranking scores (default chunkDepth(limit)): two rankings to one depth agree, the shorter a prefix of the longer. */
  depth?: number;
  /**
   * A file ranking's candidates as this question, under these filters, already gathered them (the
   * gate's keyword pool, RankedFiles.signals): ranked again, not gathered again. They depend on
   * neither the limit nor the nearness.
   */
  signals?: readonly FileSignals[];
}

/** Lexical candidates a ranking of `limit` chunks scores by default. */
export function chunkDepth(limit: number): number {
  return Math.max(400, limit * 4);
}

/** Each file's nearness to the query in embedding space: a 0–1 signal, and the similarity it comes from. */
export type Nearness = ReadonlyMap<number, { score: number; similarity: number }>;

/** Judges the candidates' nearness given them in keyword order (hybrid.ts). */
export type NearnessOf = (byKeyword: readonly FileSignals[]) => Nearness;

/** Chunk-level multipliers for `search` without --files. */
const DEFINITION_BOOST = 1.6;
const PATH_MATCH_BOOST = 1.25;
/**
 * One chunk of each file is lifted by its file's place in the file ranking: × 2 for the first
 * file, × 1.5 for the sixth, fading like nearness ranks (hybrid.ts). Chosen on the dev issues,
 * checked on validation pairs (docs/ranking.md, "Chunks follow the file ranking").
 */
const FILE_LIFT = 1;
const FILE_LIFT_SCALE = 5;
/** Chunks read from FTS for a file ranking: enough for a file's best chunks to be among them. */
const FILE_DEPTH = 1000;
/** How many of a file's best chunks add up to its content score. */
const FILE_TOP_CHUNKS = 3;

/**
 * Chunks best first: BM25 × the file's role, × a boost for holding a named definition or sitting
 * in a named file; one chunk of each file also × its file's lift (liftShownChunks), and those
 * chunks in their files' order (inFileOrder).
 */
export function rankChunks(store: Store, question: Question, options: RankOptions): RankedChunk[] {
  const ev = gatherEvidence(store, question, options, options.depth ?? chunkDepth(options.limit));
  // Scored lean, and only the chunks kept get their reasons and rows: a ranking scores hundreds and keeps a few.
  const scored: ScoredHit[] = ev.hits.map((hit) => {
    const file = ev.files.get(hit.fileId)!;
    const { role, demoted } = roleOf(file, ev);
    const defs = ev.definitions.get(file.id);
    const defined = defs?.lines.findIndex((line) => line >= hit.startLine && line <= hit.endLine) ?? -1;
    const named = ev.mentioned.has(file.id) || ev.named.has(file.id);
    const score = hit.score * (demoted ? CHUNK_DEMOTE : 1) * (defined >= 0 ? DEFINITION_BOOST : 1) * (named ? PATH_MATCH_BOOST : 1);
    return { hit, file, score, symbol: defined >= 0 ? defs!.names[Math.min(defined, defs!.names.length - 1)] : undefined, named, role: demoted ? role : undefined };
  });
  liftShownChunks(scored, firstOrder(signalsOf(store, ev), shippedRanker(kindOf(question))));
  scored.sort((a, b) => b.score - a.score || byCodeUnit(a.file.path, b.file.path) || a.hit.startLine - b.hit.startLine);
  inFileOrder(scored);
  const kept = scored.slice(0, options.limit);
  const rows = store.chunks.byIds(kept.map((s) => s.hit.chunkId));
  return kept.flatMap(({ hit, file, score, symbol, named, role, fileRank }) => {
    const chunk = rows.get(hit.chunkId);
    if (!chunk) return [];
    const reasons = [`bm25:${hit.score.toFixed(2)}`];
    if (symbol !== undefined) reasons.push(`symbol:${symbol}`);
    if (named) reasons.push('path-match');
    if (role !== undefined) reasons.push(`role:${role}`);
    if (fileRank !== undefined) reasons.push(`file-rank:${fileRank + 1}`);
    return [{ chunk, file, score, reasons }];
  });
}

interface ScoredHit {
  hit: LexicalHit;
  file: StoredFile;
  score: number;
  symbol: string | undefined;
  named: boolean;
  role: FileRole | undefined;
  /** The file's place in the file ranking, on the one chunk of it lifted. */
  fileRank?: number;
}

/**
 * Lifts one chunk of each file by its file's place in `files` (the file ranking of the same
 * evidence, which weighs history, definitions, paths and all of a file's chunks together): the
 * one the file shows, its best chunk holding a definition the question names, else its best.
 * One chunk: the chunks shown then lead with the files the whole question points at, one
 * each, rather than the top file's every chunk (docs/ranking.md, "Chunks follow the file ranking").
 */
function liftShownChunks(scored: ScoredHit[], files: readonly { candidate: FileSignals }[]): void {
  const definesName = (s: ScoredHit) => Number(s.symbol !== undefined);
  const shown = new Map<number, ScoredHit>();
  for (const s of scored) {
    const b = shown.get(s.file.id);
    if (!b || (definesName(s) - definesName(b) || s.score - b.score) > 0) shown.set(s.file.id, s);
  }
  files.forEach(({ candidate }, rank) => {
    const s = shown.get(candidate.file.id);
    if (!s) return;
    s.score *= 1 + FILE_LIFT / (1 + rank / FILE_LIFT_SCALE);
    s.fileRank = rank;
  });
}

/**
 * The lifted chunks, where the sort put them, in their files' order: the file ranking weighs all
 * of a file's evidence, so it decides which file shows first; a chunk's own score decides which
 * places the files' chunks hold among the rest. Each takes its place's score, so the list stays
 * best first.
 */
function inFileOrder(sorted: ScoredHit[]): void {
  const places: number[] = [];
  sorted.forEach((s, i) => {
    if (s.fileRank !== undefined) places.push(i);
  });
  const lifted = places.map((p) => sorted[p]!).sort((a, b) => a.fileRank! - b.fileRank!);
  const scores = places.map((p) => sorted[p]!.score);
  places.forEach((p, j) => {
    const s = lifted[j]!;
    s.score = scores[j]!;
    sorted[p] = s;
  });
}

/** One candidate file with its signals, what fired, and the chunks that matched. */
export interface FileSignals extends Candidate {
  file: StoredFile;
  role: FileRole;
  /** The file's chunk hits, best first. */
  hits: LexicalHit[];
  /** First lines of the named definitions it holds. */
  definitionLines: number[];
  reasons: string[];
}

/** Every candidate file with its raw signals, in no particular order: the files the query's words lead to. */
export function fileSignals(store: Store, question: Question, options: EvidenceOptions): FileSignals[] {
  return signalsOf(store, gatherEvidence(store, question, options, FILE_DEPTH));
}

/** The candidate files of gathered evidence, with their raw signals. */
function signalsOf(store: Store, ev: Evidence): FileSignals[] {
  const byFile = new Map<number, FileSignals>();
  const entry = (file: StoredFile): FileSignals => {
    let s = byFile.get(file.id);
    if (!s) {
      s = { file, path: file.path, ...roleOf(file, ev), content: 0, top: 0, hitCount: 0, history: 0, definition: 0, mention: 0, name: 0, semantic: 0, hits: [], definitionLines: [], reasons: [] };
      byFile.set(file.id, s);
    }
    return s;
  };
  for (const hit of ev.hits) entry(ev.files.get(hit.fileId)!).hits.push(hit); // hits arrive best first
  for (const s of byFile.values()) {
    s.content = s.hits.slice(0, FILE_TOP_CHUNKS).reduce((sum, h) => sum + h.score, 0);
    s.top = s.hits[0]?.score ?? 0;
    s.hitCount = s.hits.length;
  }
  for (const [path, credit] of historyCredit(store, ev.historyTerms)) {
    const file = ev.byPath.get(path);
    if (!file) continue;
    const s = entry(file);
    s.history = credit.score;
    s.reasons.push(`history:${credit.commits}`);
  }
  for (const [id, defs] of ev.definitions) {
    const file = ev.files.get(id);
    if (!file) continue;
    const s = entry(file);
    s.definition = defs.score;
    s.definitionLines = defs.lines;
    s.reasons.push(...defs.names.slice(0, 3).map((n) => `symbol:${n}`));
  }
  for (const [id, score] of ev.mentioned) {
    const s = entry(ev.files.get(id)!);
    s.mention = score;
    s.reasons.push('path-mention');
  }
  for (const [id, score] of ev.named) {
    const s = entry(ev.files.get(id)!);
    s.name = score;
    s.reasons.push('path-match');
  }
  return [...byFile.values()];
}

/**
 * The candidate files and their signals; with `nearnessOf`, their nearness
 * too, judged from the keyword order. Nearness re-ranks what the words found
 * and brings in no file of its own: a question whose words match nothing
 * gets no answer.
 */
export function candidateFiles(store: Store, question: Question, options: EvidenceOptions & Pick<RankOptions, 'signals'>, nearnessOf?: NearnessOf): readonly FileSignals[] {
  const gathered = options.signals ?? fileSignals(store, question, options);
  if (!nearnessOf) return gathered;
  // Copies: nearness is written into them, and the gathered ones stay as they were, for another ranking of the question.
  const signals = gathered.map((s) => ({ ...s, reasons: [...s.reasons] }));
  const nearness = nearnessOf(firstOrder(signals, shippedRanker(kindOf(question))).map((f) => f.candidate));
  for (const s of signals) {
    const near = nearness.get(s.file.id);
    if (!near) continue;
    s.semantic = near.score;
    s.reasons.push(`semantic:${near.similarity.toFixed(3)}`);
  }
  return signals;
}

export interface RankedFile {
  file: StoredFile;
  /** The chunk to show: its best-scoring chunk, else the one holding a named definition, else its first. */
  best: RankedChunk;
  score: number;
  reasons: string[];
}

/** A file ranking, and the candidates it ranked (before nearness), for another ranking of the same question (RankOptions.signals). */
export interface RankedFiles {
  files: RankedFile[];
  signals: readonly FileSignals[];
}

/** Distinct files, best first, as the shipped ranker (learned.ts) orders them; `nearness` scales its nearness weight. */
export function rankFiles(store: Store, question: Question, options: RankOptions, nearnessOf?: NearnessOf, nearness = 1): RankedFiles {
  const model = withNearness(shippedRanker(kindOf(question)), nearness);
  const signals = options.signals ?? fileSignals(store, question, options);
  const candidates = candidateFiles(store, question, { ...options, signals }, nearnessOf);
  const top = rankCandidates(candidates, model, (paths) => store.history.commitsTouching(paths)).slice(0, options.limit);
  // Each file's best chunk, its rows read in one go.
  const rows = store.chunks.byIds(top.flatMap(({ candidate: s }) => (s.hits[0] ? [s.hits[0].chunkId] : [])));
  const files = top.map(({ candidate: s, score }): RankedFile => {
    const reasons = [
      ...(s.content > 0 ? [`bm25:${s.content.toFixed(2)}`, `chunks:${s.hits.length}`] : []),
      ...s.reasons,
      ...(s.demoted ? [`role:${s.role}`] : []),
    ];
    const hit = s.hits[0];
    const chunk = hit && rows.get(hit.chunkId);
    const best = chunk ? { chunk, file: s.file, score: hit.score, reasons: [`bm25:${hit.score.toFixed(2)}`] } : fallbackChunk(store, s);
    return { file: s.file, best, score, reasons };
  });
  return { files, signals };
}

/** A file ranked without a chunk hit shows the chunk holding its named definition, else its first. */
function fallbackChunk(store: Store, { file, definitionLines }: FileSignals): RankedChunk {
  const chunks = store.chunks.ofFileId(file.id);
  const line = definitionLines[0];
  const chunk = (line !== undefined && chunks.find((c) => c.startLine <= line && line <= c.endLine)) || chunks[0];
  return {
    chunk: chunk ?? { id: 0, fileId: file.id, ord: 0, startLine: 1, endLine: Math.max(1, file.lineCount), breadcrumb: file.path, symbol: null, text: '', tokens: 0 },
    file,
    score: 0,
    reasons: [],
  };
}
