/**
 * The engine's contract: what both faces — CLI verbs and MCP tools — ask of
 * one repository, and all they ask. Small on purpose, in the spirit of
 * zoekt's `Searcher`: a workspace holds one per repository, the dashboard's
 * API calls the same object, and nothing above it reaches past it into the
 * index.
 *
 * Every verb that cites code is gated (a question too broad comes back as a
 * `refine` envelope instead of a flood) and fresh (a cited line comes from
 * the text on disk: see fresh.ts); none of them takes a citation probe or an
 * index phase, which are the engine's own business.
 */
import type { RefineEnvelope } from '../budget/index.js';
import type { IndexSummary } from '../index/index.js';
import type { Memory, NeighborsInput } from '../memory/index.js';
import type { recall, neighbors, RecallInput } from '../memory/index.js';
import type { BriefEnvelope } from './brief.js';
import type { ChangedEnvelope } from './changed.js';
import type { ContextEnvelope, ContextOptions } from './context.js';
import type { ExploreEnvelope, ExploreOptions, ExploreOverviewEnvelope } from './explore.js';
import type { GateOptions } from './gated.js';
import type { HealthEnvelope } from './health.js';
import type { IndexJob } from './jobs.js';
import type { ListFilesEnvelope, ListFilesOptions } from './list-files.js';
import type { Live, LiveOptions } from './live.js';
import type { GatedLocateEnvelope, LocateOptions } from './locate.js';
import type { OutlineEnvelope } from './outline.js';
import type { ReadEnvelope, ReadOptions } from './read.js';
import type { BuildingEnvelope } from './ready.js';
import type { RelatedEnvelope } from './related.js';
import type { SearchWithMemory } from './remembered.js';
import type { Repo } from './repo.js';
import type { ExpandOption } from './search-gate.js';
import type { SearchOptions } from './search.js';
import type { StatsEnvelope } from './stats.js';

/** What a caller may set on a gated question: everything but the probe, which the engine makes per answer. */
type Asked<T> = Omit<T, 'probe'>;

export type SearchRequest = Asked<SearchOptions & GateOptions & ExpandOption>;
export type LocateRequest = Asked<LocateOptions & GateOptions>;
export type ReadRequest = Asked<ReadOptions & GateOptions>;
export type ExploreRequest = Asked<ExploreOptions>;
export type ContextRequest = Omit<ContextOptions, 'probe' | 'phase' | 'remembered'>;
/** Answers about one file or the tree, trimmed to a token budget. */
export interface Listing {
  maxTokens?: number;
}

export type SearchAnswer = SearchWithMemory | RefineEnvelope;
export type LocateAnswer = GatedLocateEnvelope | RefineEnvelope;
export type ReadAnswer = ReadEnvelope | RefineEnvelope;
export type ExploreAnswer = ExploreEnvelope | ExploreOverviewEnvelope | RefineEnvelope;

export interface Engine {
  /** The repository: its root, configuration and index (for what is not a verb: doctor, reset, the index pass). */
  readonly repo: Repo;
  /** The repository's one index job in this process, shared by the watcher, the reconcile and every answer. */
  readonly job: IndexJob;
  /** Agent memory and claims. */
  readonly memory: Memory;

  /**
   * Before a question: starts the first index in the background when there is
   * none and waits up to `waitMs` (default: the configuration's
   * firstIndexWaitMs) for it to become searchable — null once it is, else the
   * `building` envelope to answer instead — then waits for the query embedder.
   */
  whenReady(waitMs?: number): Promise<BuildingEnvelope | null>;
  /** Indexes in the foreground when there is no index yet (the CLI's first use); the summary if it did. */
  indexIfMissing(options?: Parameters<Repo['ensureIndexed']>[0]): Promise<IndexSummary | null>;

  search(request: SearchRequest): Promise<SearchAnswer>;
  locate(request: LocateRequest): Promise<LocateAnswer>;
  read(request: ReadRequest): Promise<ReadAnswer>;
  context(request: ContextRequest): Promise<ContextEnvelope>;
  explore(request: ExploreRequest): Promise<ExploreAnswer>;
  related(path: string, listing?: Listing): Promise<RelatedEnvelope>;
  outline(path: string, listing?: Listing): Promise<OutlineEnvelope>;
  changed(path?: string, listing?: Listing): Promise<ChangedEnvelope>;
  listFiles(options?: ListFilesOptions): Promise<ListFilesEnvelope>;

  /** A memory record with the code it links to, each link's citation checked against the disk. */
  recall(input: RecallInput): ReturnType<typeof recall>;
  /** The records and code around a memory record, links checked the same way. */
  neighbors(input: NeighborsInput): ReturnType<typeof neighbors>;

  health(): HealthEnvelope;
  stats(): StatsEnvelope;
  /** Health and the repository at a glance, from what is indexed; never indexes, never throws. */
  brief(): Promise<BriefEnvelope>;

  /**
   * The same engine (repository, job) answering from the index as it is: a
   * cited file changed on disk is disclosed `stale` instead of indexed again.
   * For a view that looks without touching (the dashboard); never keep it live or close it.
   */
  asIs(): Engine;
  /** Keeps the index current while serving: a catch-up pass, a watcher and a reconcile, all through `job`. */
  keepLive(options: LiveOptions): Promise<Live>;
  /** Stops the watcher (if kept live) and the running pass, and closes the index. */
  close(): Promise<void>;
}
