/**
 * A repository handle: its root, its configuration and its index. The index
 * lives under $SIGHTLINE_HOME/<repo-id>/index.db, never inside the repository.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, memoryPlan, type Config } from '../config/index.js';
import { isCorruption, usageError } from '../errors/index.js';
import { indexRepository, runIndexJob, type IndexProgress, type IndexSummary, type JobOptions } from '../index/index.js';
import { gateLimits, trimBudget, type BudgetSessions } from '../budget/index.js';
import { openMemory, type Memory } from '../memory/index.js';
import { findDamage, rebuildDamaged, Store, type Rebuilt } from '../store/index.js';
import { checkDatabaseUrl, teamMemoryStore, teamSessions } from '../team/index.js';
import { digest, Listings } from '../walk/index.js';

export interface OpenRepoOptions {
  /** Explicit knobs (CLI flags, tool arguments): the highest precedence. */
  flags?: Partial<Config>;
  configPath?: string;
  env?: NodeJS.ProcessEnv;
  warn?: (message: string) => void;
}

/** Validates a repository path: it must exist and be a directory. */
export function resolveRepoRoot(repo: string): string {
  const abs = path.resolve(repo);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
  } catch {
    throw usageError(`repository path ${repo} does not exist`);
  }
  if (!stat.isDirectory()) throw usageError(`repository path ${repo} is not a directory`);
  return fs.realpathSync(abs);
}

export function repoId(root: string): string {
  const base = path.basename(root).replace(/[^A-Za-z0-9._-]/g, '_') || 'root';
  return `${base}-${digest(root).slice(0, 12)}`;
}

/** A damaged index moved aside and begun anew: why, where it went, what became of memory. */
export interface Recovered extends Rebuilt {
  damage: string;
}

const MEMORY_FATE: Record<Recovered['memory'], string> = {
  kept: 'agent memory was kept',
  lost: 'agent memory could not be read from it and is lost',
  none: 'it held no agent memory',
};

/** What a rebuild did with a damaged index, in one sentence. */
export function recoveredSentence(r: Recovered): string {
  return `the index was damaged (${r.damage}); it was moved to ${r.aside} and a new one begun; ${MEMORY_FATE[r.memory]}`;
}

/** A repository's name in the team database: `teamRepo`, else its folder's name. */
export function teamName(config: Pick<Config, 'teamRepo'>, root: string): string {
  return config.teamRepo || path.basename(root);
}

export class Repo {
  private store_: Store | null = null;
  private memory_: Memory | null = null;
  private teamSessions_: BudgetSessions | null = null;
  /** Directory listings kept between this process's walks of the tree (walk/listings.ts); a forced pass starts them anew. */
  private listings_: Listings | null = null;

  private constructor(
    readonly root: string,
    readonly config: Config,
    private readonly openStore: (dbPath: string) => Store = Store.open,
  ) {}

  /**
   * A repository whose root and configuration another thread resolved, its
   * index opened by `openStore` (a read-pool worker's read-only connection).
   */
  static reader(root: string, config: Config, openStore: (dbPath: string) => Store): Repo {
    return new Repo(root, config, openStore);
  }

  static open(repo: string, options: OpenRepoOptions = {}): Repo {
    const root = resolveRepoRoot(repo);
    const config = loadConfig({ repoRoot: root, configPath: options.configPath, flags: options.flags, env: options.env, warn: options.warn });
    if (config.databaseUrl) checkDatabaseUrl(config.databaseUrl);
    return new Repo(root, config);
  }

  get id(): string {
    return repoId(this.root);
  }

  get dbPath(): string {
    return path.join(this.config.home, this.id, 'index.db');
  }

  /** The index, opened on first use. */
  get store(): Store {
    if (!this.store_) {
      this.store_ = this.openStore(this.dbPath);
      const plan = memoryPlan(this.config.maxMemoryMB);
      this.store_.chunks.keepWithin({ textUnits: plan.keptTextKi * 1024, termChunkIds: plan.keptTermChunkIds });
      this.store_.files.keepStampsWithin(plan.listedFiles);
    }
    return this.store_;
  }

  /** The repository's name in the team database: the same on every server that serves it. */
  get teamName(): string {
    return teamName(this.config, this.root);
  }

  /**
   * The repository's agent memory: in the team database when `databaseUrl` is set, else in the
   * same file as its index (opened, and its tables migrated, on first use).
   */
  get memory(): Memory {
    const { databaseUrl } = this.config;
    this.memory_ ??= openMemory(() => this.store, this.root, (requested) => trimBudget(gateLimits(this.config), requested), databaseUrl ? teamMemoryStore(databaseUrl, this.teamName) : undefined);
    return this.memory_;
  }

  /** Budget sessions: in the team database when `databaseUrl` is set (shared by every server), else in the index file. */
  get sessions(): BudgetSessions {
    const { databaseUrl } = this.config;
    if (!databaseUrl) return this.store.sessions;
    this.teamSessions_ ??= teamSessions(databaseUrl, this.teamName);
    return this.teamSessions_;
  }

  /** True when an index exists and has at least been started. */
  hasIndex(): boolean {
    return fs.existsSync(this.dbPath) && this.store.getMeta('last_indexed_at') !== undefined;
  }

  /**
   * An incremental pass, run as the repository's one index job (see
   * index/job.ts): it waits while another process indexes. `force` empties the
   * index under the job's lock first; a damaged one is moved aside and built
   * anew instead (`onRecovered` is told).
   */
  async index(
    options: { force?: boolean; onProgress?: (p: IndexProgress) => void; onRecovered?: (r: Recovered) => void; paths?: readonly string[] } & JobOptions = {},
  ): Promise<IndexSummary> {
    const { force, onProgress, onRecovered, paths, ...job } = options;
    if (force) {
      const recovered = this.recoverIfDamaged();
      if (recovered) onRecovered?.(recovered);
    }
    if (force) this.listings_ = null;
    const listings = this.listings;
    return runIndexJob(this.store, job, (hooks) => {
      if (force) this.store.clear();
      return indexRepository(this.root, this.store, this.config, {
        onProgress: (p) => {
          hooks.onProgress(p);
          onProgress?.(p);
        },
        checkpoint: hooks.checkpoint,
        paths: force ? undefined : paths,
        listings,
      });
    });
  }

  /** This process's kept directory listings of the tree, for every walk of it (an index pass's, `changed`'s). */
  get listings(): Listings {
    return (this.listings_ ??= new Listings(memoryPlan(this.config.maxMemoryMB).listedFiles));
  }

  /**
   * Checks the whole index file (`findDamage`: linear in its size, so only
   * before a rebuild) and, if it cannot be opened or is damaged, moves it aside
   * and opens a new one, with memory kept where it can still be read.
   */
  recoverIfDamaged(): Recovered | null {
    let damage: string | null;
    try {
      damage = findDamage(this.store.db);
    } catch (err) {
      if (!isCorruption(err)) throw err;
      damage = (err as Error).message;
    }
    if (damage === null) return null;
    this.close();
    return { damage, ...rebuildDamaged(this.dbPath) };
  }

  /** Indexes when no index exists yet; returns the summary if it did. */
  async ensureIndexed(options: { onProgress?: (p: IndexProgress) => void } & Pick<JobOptions, 'onWait'> = {}): Promise<IndexSummary | null> {
    if (this.hasIndex()) return null;
    return this.index(options);
  }

  close(): void {
    this.store_?.close();
    this.store_ = null;
    this.memory_ = null;
  }
}

