/**
 * The engine's front door. Faces get an `Engine` (api.ts) from `openEngine`
 * and ask it their questions; what else is here is the envelopes they render,
 * the limits they advertise, and the operations on the index itself (doctor,
 * reset, the dry run, the job record) that are not questions.
 */
export type {
  Engine,
  ContextRequest,
  ExploreAnswer,
  ExploreRequest,
  Listing,
  LocateAnswer,
  LocateRequest,
  ReadAnswer,
  ReadRequest,
  SearchAnswer,
  SearchRequest,
} from './api.js';
export { engineOver, openEngine } from './engine.js';
export { freshRounds } from './fresh.js';
export { Repo, recoveredSentence, resolveRepoRoot, repoId, teamName, type OpenRepoOptions, type Recovered } from './repo.js';
export { VERSION } from './version.js';
export { DEFAULT_K, EXPLORE_RELATIONS, MAX_BUDGET_TOKENS, MAX_DEPTH, MAX_TOP, MEMORY_HITS, MIN_BUDGET_TOKENS } from './limits.js';
export type { SearchMode, SearchOptions } from './search.js';
export type { GatedLocateEnvelope, LocateEnvelope, LocateKind, LocateOptions } from './locate.js';
export type { OutlineEntry, OutlineEnvelope } from './outline.js';
export type { ReadEnvelope, ReadOptions } from './read.js';
export type { ListFilesEnvelope, ListFilesOptions, ListedFile } from './list-files.js';
export type { DryRunReport } from './dry-run.js';
export type { StatsEnvelope } from './stats.js';
export { contents, embedderState, type ContentsEnvelope, type Weight } from './contents.js';
export { errorEnvelope, type ErrorEnvelope, type ResultItem, type SearchEnvelope } from './envelope.js';
export type { IndexProgress, IndexSummary } from '../index/index.js';
export { jobStatus, type IndexJob, type IndexJobState, type IndexJobStatus, type JobCounts, type PassResult, type IndexReadiness, type Recovery } from './jobs.js';
export type { HealthEnvelope, IndexHealth } from './health.js';
export type { BriefEnvelope } from './brief.js';
export { doctor, type DoctorEnvelope } from './doctor.js';
export type { ResetEnvelope } from './reset.js';
export type { Live, LiveOptions } from './live.js';
export type { SearchWithMemory } from './remembered.js';
export type { CitedResult, GatedSearchEnvelope } from './search-gate.js';
export { bestEffort, citationProbe, type GatedFields, type GateOptions } from './gated.js';
export type { ContextDetail, ContextEntry, ContextEnvelope, ContextOptions } from './context.js';
export type { AnchorInfo, ExploreEnvelope, ExploreItem, ExploreOptions, ExploreOverviewEnvelope, ExploreRelation } from './explore.js';
export type { RelatedEnvelope, RelatedFile } from './related.js';
export type { GraphPendingField } from './graph-settled.js';
export type { ChangedEnvelope } from './changed.js';
export type { BuildingEnvelope } from './ready.js';

/**
 * Operations on the index that walk or rebuild it, loaded when called: the
 * walker, the parser and the indexer stay off the start path of the verbs
 * that only ask (ARCHITECTURE.md).
 */
export async function dryRun(...args: Parameters<typeof import('./dry-run.js').dryRun>) {
  return (await import('./dry-run.js')).dryRun(...args);
}

export async function reset(...args: Parameters<typeof import('./reset.js').reset>) {
  return (await import('./reset.js')).reset(...args);
}
