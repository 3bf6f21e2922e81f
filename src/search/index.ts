/** Retrieval: code-aware terms, lexical search, ranking, filters. */
export { searchTerms } from './lexical.js';
export { ask, readQuery, type Question, type ReadQuery, type WeightedTerm } from './query.js';
export { fileRole, type FileRole } from './roles.js';
export { callerGlob, pathFilter, type PathFilterOptions } from './filters.js';
export { candidateFiles, chunkDepth, fileSignals, rankChunks, rankFiles, type FileSignals, type Nearness, type NearnessOf, type RankedChunk, type RankedFile, type RankOptions } from './rank.js';
export { byFusedScore, FUSION_WEIGHTS, fuse, fusedScore, signalMaxima, type FusionWeights, type SignalValues } from './weigh.js';
export { feedbackNearness, hybridChunks, hybridFiles, keywordRankDepth, type HybridAnswer, type SearchMode } from './hybrid.js';
export { retrievalPhase, type RetrievalPhase } from './vector.js';
export { answerCacheStats, cachedAnswer, noteReaderCache, ownAnswerCacheStats, type AnswerCacheStats } from './cache.js';
