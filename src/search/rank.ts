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
 * Content and history are divided by their best value among the candidates
 * (their scale depends on the query); the others are already on a 0–1 scale.
 * They are summed with FUSION_WEIGHTS; the sum is then scaled by the
 * file's role (roles.ts): tests, docs, examples and the like are demoted
 * unless the query mentions the file or names its role in the title.
 */
import type { StoredChunk, StoredFile, Store } from '../store/index.js';
import { historyCredit } from './history.js';
import { lexicalSearch, readSearchQuery } from './lexical.js';
import type { ReadQuery } from './query.js';
import { fileRole, ROLE_WORDS, type FileRole } from './roles.js';
import { definitionScores, mentionScores, nameScores, type Definitions } from './signals.js';

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

/** How the signals add up; each signal is first divided by its best value among the candidates. */
export interface FusionWeights {
  content: number;
  history: number;
  definition: number;
  mention: number;
  name: number;
  /** The factor for files whose role is not the code itself (tests, docs, examples, …). */
  demote: number;
}

export const FUSION_WEIGHTS: Readonly<FusionWeights> = { content: 1, history: 0.5, definition: 0.5, mention: 1, name: 0.3, demote: 0.3 };

/** Chunk-level multipliers for `search` without --files. */
const DEFINITION_BOOST = 1.6;
const PATH_MATCH_BOOST = 1.25;
/** A mention this clear (a path with directories, or a name only two files share) lifts a file's demotion. */
const MENTION_LIFT = 0.5;
/** Chunks fetched from FTS: enough for a file's best chunks to be among them. */
const CHUNK_CANDIDATES = 1000;
/** How many of a file's best chunks add up to its content score. */
const FILE_TOP_CHUNKS = 3;

/** Everything a query yields, computed once per query. */
interface Evidence {
  read: ReadQuery;
  files: Map<number, StoredFile>;
  hits: RankedChunk[];
  definitions: Map<number, Definitions>;
  mentioned: Map<number, number>;
  named: Map<number, number>;
  /** Roles the query's title names: not demoted. */
  liftedRoles: Set<FileRole>;
}

function gather(store: Store, query: string, options: RankOptions, candidates: number): Evidence {
  const read = readSearchQuery(query);
  const kinds = options.kinds?.length ? new Set(options.kinds) : null;
  const all = store.files.list().filter((f) => (!kinds || kinds.has(f.kind)) && (!options.accept || options.accept(f.path)));
  const files = new Map(all.map((f) => [f.id, f]));
  const lexical = lexicalSearch(store, read.terms, candidates);
  const chunks = store.chunks.byIds(lexical.map((h) => h.chunkId));
  const hits: RankedChunk[] = [];
  for (const h of lexical) {
    const chunk = chunks.get(h.chunkId);
    const file = chunk && files.get(chunk.fileId);
    if (chunk && file) hits.push({ chunk, file, score: h.score, reasons: [`bm25:${h.score.toFixed(2)}`] });
  }
  const liftedRoles = new Set((Object.keys(ROLE_WORDS) as FileRole[]).filter((r) => ROLE_WORDS[r]!.some((w) => read.title.has(w))));
  return {
    read,
    files,
    hits,
    definitions: definitionScores(store, read),
    mentioned: mentionScores(all, read),
    named: nameScores(all, read),
    liftedRoles,
  };
}

/** A file's role, and whether it is demoted: not code, not mentioned, and its role not named in the title. */
function roleOf(file: StoredFile, ev: Evidence): { role: FileRole; demoted: boolean } {
  const role = fileRole(file.path, file.kind, file.language);
  return { role, demoted: role !== 'code' && !ev.liftedRoles.has(role) && (ev.mentioned.get(file.id) ?? 0) < MENTION_LIFT };
}

/** Chunks best first: BM25 × the file's role, × a boost for holding a named definition or sitting in a named file. */
export function rankChunks(store: Store, query: string, options: RankOptions): RankedChunk[] {
  const ev = gather(store, query, options, Math.max(400, options.limit * 4));
  const out = ev.hits.map((hit) => {
    const { role, demoted } = roleOf(hit.file, ev);
    const reasons = [...hit.reasons];
    let score = hit.score * (demoted ? FUSION_WEIGHTS.demote : 1);
    const defs = ev.definitions.get(hit.file.id);
    const defined = defs?.lines.findIndex((line) => line >= hit.chunk.startLine && line <= hit.chunk.endLine) ?? -1;
    if (defined >= 0) {
      score *= DEFINITION_BOOST;
      reasons.push(`symbol:${defs!.names[Math.min(defined, defs!.names.length - 1)]}`);
    }
    if (ev.mentioned.has(hit.file.id) || ev.named.has(hit.file.id)) {
      score *= PATH_MATCH_BOOST;
      reasons.push('path-match');
    }
    if (demoted) reasons.push(`role:${role}`);
    return { ...hit, score, reasons };
  });
  out.sort((a, b) => b.score - a.score || a.file.path.localeCompare(b.file.path) || a.chunk.startLine - b.chunk.startLine);
  return out.slice(0, options.limit);
}

/** The raw value of each signal for one file, and whether its role demotes it. */
export interface SignalValues {
  path: string;
  demoted: boolean;
  content: number;
  history: number;
  definition: number;
  mention: number;
  name: number;
}

/** One candidate file with its signals, what fired, and the chunks that matched. */
export interface FileSignals extends SignalValues {
  file: StoredFile;
  role: FileRole;
  /** The file's chunk hits, best first. */
  chunks: RankedChunk[];
  /** First lines of the named definitions it holds. */
  definitionLines: number[];
  reasons: string[];
}

/** Every candidate file with its raw signals, in no particular order. */
export function fileSignals(store: Store, query: string, options: Omit<RankOptions, 'limit'>): FileSignals[] {
  const ev = gather(store, query, { ...options, limit: CHUNK_CANDIDATES }, CHUNK_CANDIDATES);
  const byFile = new Map<number, FileSignals>();
  const entry = (file: StoredFile): FileSignals => {
    let s = byFile.get(file.id);
    if (!s) {
      s = { file, path: file.path, ...roleOf(file, ev), content: 0, history: 0, definition: 0, mention: 0, name: 0, chunks: [], definitionLines: [], reasons: [] };
      byFile.set(file.id, s);
    }
    return s;
  };
  for (const hit of ev.hits) entry(hit.file).chunks.push(hit); // hits arrive best first
  for (const s of byFile.values()) s.content = s.chunks.slice(0, FILE_TOP_CHUNKS).reduce((sum, c) => sum + c.score, 0);
  const byPath = new Map([...ev.files.values()].map((f) => [f.path, f]));
  for (const [path, credit] of historyCredit(store, ev.read.terms)) {
    const file = byPath.get(path);
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

/** Signals divided by their best value among the candidates: their scale depends on the query. */
const RELATIVE = ['content', 'history'] as const;
/** Signals already on a 0–1 scale (capped at 1): one clear definition or mention is worth the same in any query. */
const ABSOLUTE = ['definition', 'mention', 'name'] as const;

export type SignalMaxima = Record<(typeof RELATIVE)[number], number>;

/** The relative signals' best values among the candidates: what they are divided by. */
export function signalMaxima(candidates: SignalValues[]): SignalMaxima {
  return Object.fromEntries(RELATIVE.map((k) => [k, candidates.reduce((m, s) => Math.max(m, s[k]), 0)])) as SignalMaxima;
}

/** One candidate's fused score. */
export function fusedScore(s: SignalValues, maxima: SignalMaxima, weights: FusionWeights): number {
  let score = 0;
  for (const k of RELATIVE) if (maxima[k] > 0) score += (weights[k] * s[k]) / maxima[k];
  for (const k of ABSOLUTE) score += weights[k] * Math.min(1, s[k]);
  return score * (s.demoted ? weights.demote : 1);
}

/** Orders fused candidates: best score first, ties by path. */
export function byFusedScore(a: { score: number; path: string }, b: { score: number; path: string }): number {
  return b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/** The fused score of each candidate, best first. */
export function fuse<T extends SignalValues>(candidates: T[], weights: FusionWeights): { signals: T; score: number }[] {
  const maxima = signalMaxima(candidates);
  return candidates
    .map((s) => ({ signals: s, path: s.path, score: fusedScore(s, maxima, weights) }))
    .sort(byFusedScore);
}

export interface RankedFile {
  file: StoredFile;
  /** The chunk to show: its best-scoring chunk, else the one holding a named definition, else its first. */
  best: RankedChunk;
  score: number;
  reasons: string[];
}

/** Distinct files, best first. */
export function rankFiles(store: Store, query: string, options: RankOptions): RankedFile[] {
  return fuse(fileSignals(store, query, options), FUSION_WEIGHTS)
    .slice(0, options.limit)
    .map(({ signals: s, score }) => {
      const reasons = [
        ...(s.content > 0 ? [`bm25:${s.content.toFixed(2)}`, `chunks:${s.chunks.length}`] : []),
        ...s.reasons,
        ...(s.demoted ? [`role:${s.role}`] : []),
      ];
      return { file: s.file, best: s.chunks[0] ?? fallbackChunk(store, s), score, reasons };
    });
}

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
