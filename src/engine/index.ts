/**
 * The engine: the one API both faces call. Every CLI verb and MCP tool is a
 * thin adapter over one function here.
 */
export { Repo, resolveRepoRoot, repoId, type OpenRepoOptions, type Recovered } from './repo.js';
export { VERSION } from './version.js';
export { search, DEFAULT_K, type SearchMode, type SearchOptions } from './search.js';
export { gatedLocate, locate, type GatedLocateEnvelope, type LocateEnvelope, type LocateKind, type LocateOptions } from './locate.js';
export { outline, type OutlineEntry, type OutlineEnvelope } from './outline.js';
export { gatedRead, read, type ReadEnvelope, type ReadOptions } from './read.js';
export { listFiles, type ListFilesEnvelope, type ListFilesOptions, type ListedFile } from './list-files.js';
export { dryRun, type DryRunReport } from './dry-run.js';
export { stats, type StatsEnvelope } from './stats.js';
export { contents, embedderState, type ContentsEnvelope, type Weight } from './contents.js';
export { errorEnvelope, type ErrorEnvelope, type ResultItem, type RetrievalMode, type SearchEnvelope } from './envelope.js';
export type { IndexProgress, IndexSummary } from '../index/index.js';
export { IndexJob, jobStatus, type IndexJobState, type IndexJobStatus, type JobCounts, type PassResult, type RetrievalPhase } from './jobs.js';
export { health, type HealthEnvelope, type IndexHealth } from './health.js';
export { brief, type BriefEnvelope } from './brief.js';
export { doctor, type DoctorEnvelope } from './doctor.js';
export { reset, type ResetEnvelope } from './reset.js';
export { keepLive, type Live, type LiveOptions } from './live.js';
export { gatedSearch, type CitedResult, type GatedSearchEnvelope } from './search-gate.js';
export { contextWithMemory, MEMORY_HITS, searchWithMemory, type SearchWithMemory } from './remembered.js';
export { citationProbe, type GatedFields, type GateOptions } from './gated.js';
export { packContext, MAX_BUDGET_TOKENS, MAX_TOP, MIN_BUDGET_TOKENS, type ContextDetail, type ContextEntry, type ContextEnvelope, type ContextOptions } from './context.js';
export { explore, EXPLORE_RELATIONS, MAX_DEPTH, type AnchorInfo, type ExploreEnvelope, type ExploreItem, type ExploreOptions, type ExploreOverviewEnvelope, type ExploreRelation } from './explore.js';
export { related, type RelatedEnvelope, type RelatedFile } from './related.js';
export { changed, type ChangedEnvelope } from './changed.js';
export { expand, type ExpandedItem, type ExpandOptions } from './expand.js';
export { answerFresh } from './fresh.js';
export { awaitQueryEmbedder, awaitSearchable, type BuildingEnvelope } from './ready.js';
