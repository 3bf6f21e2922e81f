/**
 * Code-aware terms: how text, identifiers and paths become the words the
 * index stores and a query asks for. Below both `store/` (symbol names) and
 * `search/` (queries), and used by `index/` (what each chunk is indexed
 * under), so all three split words the same way.
 */
export { chunkFields, chunkTerms, forEachTerm, identifierWords, indexText, MAX_TERM_LENGTH, pathTerms, queryTerms, setWordCacheLimit } from './code-terms.js';
