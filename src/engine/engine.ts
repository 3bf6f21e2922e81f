/**
 * The engine over one repository (see api.ts): the repository handle, its one
 * index job, and every verb gated and fresh. `openEngine` is the one way a
 * face gets one.
 *
 * Each verb imports its module when first asked: a CLI process answers one
 * verb, and loading the graph, memory and indexing modules a keyword search
 * never runs was a third of its start (ARCHITECTURE.md, the start path).
 */
import type { Engine, ContextRequest, ExploreRequest, Listing, LocateRequest, ReadRequest, SearchRequest } from './api.js';
import { inSession } from '../budget/index.js';
import type { CitationProbe } from '../cite/index.js';
import { checkSession } from '../errors/index.js';
import type { NeighborsInput, RecallInput } from '../memory/index.js';
import { answerFresh } from './fresh.js';
import { citationProbe } from './gated.js';
import { health } from './health.js';
import { IndexJob } from './jobs.js';
import type { ListFilesOptions } from './list-files.js';
import type { Live, LiveOptions } from './live.js';
import { awaitQueryEmbedder, awaitSearchable } from './ready.js';
import { Repo, type OpenRepoOptions } from './repo.js';
import { stats } from './stats.js';

/** How an engine cites: builds an answer with the probe(s) it chooses. */
export type Citing = <T>(build: (probe: CitationProbe) => T | Promise<T>) => Promise<T>;

class RepoEngine implements Engine {
  readonly job: IndexJob;
  private live: Live | null = null;
  private readonly citing: Citing;
  /**
   * Whether a cited file that changed on disk is indexed again (the default
   * citing). Only such an engine has a different `asIs` view; one given its
   * own citing (the `asIs` view, a read-pool worker's) never re-indexes, so it
   * is its own.
   */
  private readonly reindexesCited: boolean;

  /**
   * By default a cited file that changed on disk is indexed again before the
   * answer; `citing` replaces that (the `asIs` view discloses stale instead).
   */
  constructor(readonly repo: Repo, job?: IndexJob, citing?: Citing) {
    const own = (this.job = job ?? new IndexJob(repo));
    this.citing = citing ?? ((build) => answerFresh(repo, own, build));
    this.reindexesCited = !citing;
  }

  asIs(): Engine {
    return this.reindexesCited ? new RepoEngine(this.repo, this.job, asIsCiting(this.repo)) : this;
  }

  /** An answer cited as this engine cites, inside its budget session (opened before, settled before it is sent). */
  private async cited<T>(session: string | undefined, build: (probe: CitationProbe) => T | Promise<T>): Promise<T> {
    if (!session) return this.citing(build);
    checkSession(session);
    return inSession(this.repo.sessions, session, () => this.citing(build));
  }

  get memory() {
    return this.repo.memory;
  }

  async whenReady(waitMs = this.repo.config.firstIndexWaitMs) {
    this.job.ensureIndexed();
    const building = await awaitSearchable(this.job, waitMs);
    if (building) return building;
    await awaitQueryEmbedder(this.repo);
    return null;
  }

  async indexIfMissing(options?: Parameters<Repo['ensureIndexed']>[0]) {
    return this.repo.ensureIndexed(options);
  }

  async search(request: SearchRequest) {
    const { searchWithMemory } = await import('./remembered.js');
    return this.cited(request.session, (probe) => searchWithMemory(this.repo, { ...request, probe }));
  }

  async locate(request: LocateRequest) {
    const { gatedLocate } = await import('./locate.js');
    return this.cited(request.session, (probe) => gatedLocate(this.repo, { ...request, probe }));
  }

  async read(request: ReadRequest) {
    const { gatedRead } = await import('./read.js');
    return this.cited(request.session, (probe) => gatedRead(this.repo, { ...request, probe }));
  }

  async context(request: ContextRequest) {
    const { contextWithMemory } = await import('./remembered.js');
    return this.cited(request.session, (probe) => contextWithMemory(this.repo, { ...request, phase: this.job.retrievalPhase, probe }));
  }

  async explore(request: ExploreRequest) {
    const [{ settledGraph }, { explore }] = await Promise.all([import('./graph-settled.js'), import('./explore.js')]);
    await settledGraph(this.repo, this.job);
    return this.cited(request.session, (probe) => explore(this.repo, { ...request, probe }));
  }

  async related(path: string, listing: Listing = {}) {
    const [{ settledGraph }, { related }] = await Promise.all([import('./graph-settled.js'), import('./related.js')]);
    await settledGraph(this.repo, this.job);
    return related(this.repo, path, listing);
  }

  async outline(path: string, listing: Listing = {}) {
    const { outline } = await import('./outline.js');
    return outline(this.repo, path, listing);
  }

  /** Not fresh by design: it reports what changed on disk since indexing. */
  async changed(path?: string, listing: Listing = {}) {
    const { changed } = await import('./changed.js');
    return changed(this.repo, path, listing);
  }

  async listFiles(options: ListFilesOptions = {}) {
    const { listFiles } = await import('./list-files.js');
    return listFiles(this.repo, options);
  }

  async recall(input: RecallInput) {
    const { recall } = await import('../memory/index.js');
    return recall(this.repo.memory, input, citationProbe(this.repo));
  }

  async neighbors(input: NeighborsInput) {
    const { neighbors } = await import('../memory/index.js');
    return neighbors(this.repo.memory, input, citationProbe(this.repo));
  }

  health() {
    return health(this.repo, this.job);
  }

  stats() {
    return stats(this.repo);
  }

  async brief() {
    const { brief } = await import('./brief.js');
    return brief(this.repo, this.health());
  }

  async keepLive(options: LiveOptions) {
    const { keepLive } = await import('./live.js');
    this.live ??= await keepLive(this.repo, this.job, options);
    return this.live;
  }

  async close() {
    await (this.live ? this.live.close() : this.job.stop());
    this.live = null;
    this.repo.close();
  }
}

/** The engine over the repository at `path` (validated; its configuration loaded, its index opened on first use). */
export function openEngine(path: string, options: OpenRepoOptions = {}): Engine {
  return new RepoEngine(Repo.open(path, options));
}

/** The engine over a repository already open (tests, a workspace's registry); `citing` for a reader that does not re-index (a read-pool worker). */
export function engineOver(repo: Repo, citing?: Citing): Engine {
  return new RepoEngine(repo, undefined, citing);
}

/** Cites the index as it is: a file changed on disk is disclosed stale. */
function asIsCiting(repo: Repo): Citing {
  return async (build) => build(citationProbe(repo));
}
