/** Retrieval: code-aware terms, lexical search, ranking, filters. */
export { forEachTerm, identifierWords, indexText, queryTerms } from './terms.js';
export { searchTerms } from './lexical.js';
export { pathFilter, type PathFilterOptions } from './filters.js';
export { rankChunks, rankFiles, type RankedChunk, type RankedFile, type RankOptions } from './rank.js';
export { hybridChunks, hybridFiles, type HybridAnswer, type SearchMode } from './hybrid.js';
export { retrievalPhase, type RetrievalPhase } from './vector.js';
export { cachedAnswer } from './cache.js';
