/** Retrieval: code-aware terms, lexical search, ranking, filters. */
export { searchTerms } from './lexical.js';
export { ask, readQuery, type Question, type ReadQuery, type WeightedTerm } from './query.js';
export { fileRole, type FileRole } from './roles.js';
export { callerGlob, pathFilter, type PathFilterOptions } from './filters.js';
export { candidateFiles, chunkDepth, fileSignals, rankChunks, rankFiles, type FileSignals, type Nearness, type NearnessOf, type RankedChunk, type RankedFile, type RankOptions } from './rank.js';
export type { SignalValues } from './weigh.js';
export { FIRST_FEATURES, firstFeatures, kindOf, linear, rankCandidates, SECOND_FEATURES, shippedRanker, withNearness, type Candidate, type CommitsOf, type QueryKind, type RankerModel } from './learned.js';
export { feedbackNearness, hybridChunks, hybridFiles, keywordRankDepth, type HybridAnswer, type SearchMode } from './hybrid.js';
export { retrievalPhase, type RetrievalPhase } from './vector.js';
export { answerCacheStats, cachedAnswer, forgetAnswers, noteReaderCache, ownAnswerCacheStats, type AnswerCacheStats } from './cache.js';
