/**
 * A workspace: every repository registered under one root, each served by
 * its own unit (unit.ts). The registry (registry.ts) is the durable list;
 * this process arms a unit for each registered repository and follows
 * changes another process (`sightline workspace add`) made to the registry.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type Config } from '../config/index.js';
import { repoId, reset, resolveRepoRoot, teamName, type ResetEnvelope } from '../engine/index.js';
import { describeError, SightlineError, usageError } from '../errors/index.js';
import { forgetTeamRepo } from '../team/index.js';
import { digest } from '../walk/index.js';
import { repoHealth, repoRow, type RepoHealth, type RepoRow } from './facts.js';
import { gitPlace, materialise } from './git.js';
import type { RegisteredRepo, WorkspaceRegistry } from './registry.js';
import { checkAdd, describeSource, sameSource, type AddRequest } from './source.js';
import { PostgresRegistry } from './postgres-registry.js';
import { SqliteRegistry } from './sqlite-registry.js';
import { openRepoUnit, type RepoUnit, type UnitSpec } from './unit.js';

export interface WorkspaceOptions {
  root: string;
  /** Knobs for every repository (embedder, watch); `home` decides where indexes and the registry live. */
  flags?: Partial<Config>;
  configPath?: string;
  env?: NodeJS.ProcessEnv;
  /** serve: keep every repository indexed; the CLI: open on demand, index in the foreground. */
  live: boolean;
  /** Default: the team database's with a `databaseUrl`, else the SQLite registry under $SIGHTLINE_HOME. */
  registry?: WorkspaceRegistry;
  warn: (message: string) => void;
}

/** Which repositories a caller may see; everything, unless grants say otherwise. */
export type Visible = (id: string) => boolean;
const EVERY: Visible = () => true;

interface Served {
  unit: RepoUnit;
  /** False after reset_index: memory answers, the code index waits for add_repo. */
  armed: boolean;
}

export class Workspace {
  private readonly served = new Map<string, Served>();
  /** Repositories that could not be opened (a path that vanished), with why. */
  private readonly broken = new Map<string, string>();
  private serial: Promise<unknown> = Promise.resolve();
  /** reset_index sweeps running in the background, by id: add, remove and close wait for them. */
  private readonly resets = new Map<string, Promise<void>>();
  private readonly closedListeners: ((unit: RepoUnit) => void)[] = [];

  private constructor(
    readonly root: string,
    /** The workspace's own knobs (flags > environment > config file): where indexes live, the team database. */
    readonly config: Config,
    readonly home: string,
    private readonly dir: string,
    private readonly registry: WorkspaceRegistry,
    private readonly options: WorkspaceOptions,
  ) {}

  static async open(options: WorkspaceOptions): Promise<Workspace> {
    const root = resolveRepoRoot(options.root);
    const config = loadConfig({ flags: options.flags, env: options.env, configPath: options.configPath, warn: options.warn });
    const { home } = config;
    const dir = path.join(path.resolve(home), 'workspaces', digest(root).slice(0, 16));
    const registry = options.registry ?? (config.databaseUrl ? new PostgresRegistry(config.databaseUrl, root) : new SqliteRegistry(path.join(dir, 'registry.db')));
    const workspace = new Workspace(root, config, path.resolve(home), dir, registry, options);
    if (options.live) await workspace.sync();
    return workspace;
  }

  /** Runs workspace changes one at a time, in the order they were asked for. */
  private exclusive<T>(body: () => Promise<T>): Promise<T> {
    const next = this.serial.then(body, body);
    this.serial = next.catch(() => {});
    return next;
  }

  /** Arms what the registry holds and this process does not serve yet, and closes what it no longer holds. */
  async sync(): Promise<void> {
    const entries = await this.registry.list();
    await this.exclusive(async () => {
      for (const entry of entries) if (!this.served.has(entry.id)) await this.serve(entry).catch(() => {});
    });
    await this.closeRemoved(entries);
  }

  private async serve(entry: RegisteredRepo): Promise<Served> {
    const armed = entry.indexed_root !== null;
    try {
      const unit = await openRepoUnit(this.spec(entry, this.options.live && armed));
      const served = { unit, armed };
      this.served.set(entry.id, served);
      this.broken.delete(entry.id);
      return served;
    } catch (err) {
      this.broken.set(entry.id, describeError(err));
      this.options.warn(`${entry.id}: ${describeError(err)}`);
      throw err;
    }
  }

  private gitDir(id: string): string {
    return path.join(this.dir, 'git', id);
  }

  private spec(entry: RegisteredRepo, live: boolean): UnitSpec {
    const { filters } = entry;
    const flags: Partial<Config> = { ...this.options.flags, home: this.home };
    if (filters.include?.length) flags.include = filters.include;
    if (filters.exclude?.length) flags.exclude = filters.exclude;
    if (filters.gitignore !== undefined) flags.gitignore = filters.gitignore;
    if (filters.maxFileBytes !== undefined) flags.maxFileBytes = filters.maxFileBytes;
    const base = { id: entry.id, flags, env: this.options.env, live, warn: this.options.warn };
    const { source } = entry;
    if (source.kind === 'path') return { ...base, root: source.path };
    const place = gitPlace(this.gitDir(entry.id));
    fs.mkdirSync(place.tree, { recursive: true });
    return {
      ...base,
      root: place.tree,
      git: {
        refreshMs: source.refreshMs,
        update: () => materialise(place, source.url, source.ref),
        indexed: async (commit) => {
          const now = await this.registry.get(entry.id);
          if (now && now.indexed_root !== null && sameSource(now.source, source)) await this.registry.put({ ...now, indexed_commit: commit });
        },
      },
    };
  }

  private async unitFor(entry: RegisteredRepo): Promise<Served> {
    return this.served.get(entry.id) ?? (await this.exclusive(async () => this.served.get(entry.id) ?? this.serve(entry)));
  }

  /** Every registered repository the caller may see, in ascending id order. */
  async list(visible: Visible = EVERY): Promise<RepoRow[]> {
    const all = await this.registry.list();
    await this.closeRemoved(all);
    const entries = all.filter((e) => visible(e.id));
    const rows: RepoRow[] = [];
    for (const entry of entries) {
      const served = await this.unitFor(entry).catch(() => undefined);
      rows.push(repoRow(entry, served?.unit, this.broken.get(entry.id) ?? null));
    }
    return rows;
  }

  /** Stops serving what another process (`sightline workspace remove`) took out of the registry. */
  private closeRemoved(entries: RegisteredRepo[]): Promise<void> {
    const goneFrom = (rows: RegisteredRepo[]) => [...this.served.keys()].filter((id) => !rows.some((e) => e.id === id));
    if (goneFrom(entries).length === 0) return Promise.resolve();
    return this.exclusive(async () => {
      for (const id of goneFrom(await this.registry.list())) { // again, after any add queued before
        const served = this.served.get(id);
        this.served.delete(id);
        if (served) await this.closeUnit(served.unit);
      }
    });
  }

  /**
   * The repository a call names: `id`, or the only one the caller may see.
   * An id the caller may not see is answered as one that does not exist.
   */
  async resolve(id: string | undefined, visible: Visible = EVERY): Promise<{ unit: RepoUnit; armed: boolean }> {
    const entries = (await this.registry.list()).filter((e) => visible(e.id));
    const names = entries.map((e) => e.id).join(', ');
    if (id === undefined) {
      if (entries.length === 0) throw usageError('no repository is registered in this workspace yet; add one with add_repo (or `sightline workspace add`)');
      if (entries.length > 1) throw usageError(`repo is required: this workspace serves ${entries.length} repositories (${names}); pass repo with one of them`);
      return this.unitFor(entries[0]!);
    }
    const entry = entries.find((e) => e.id === id);
    if (!entry) throw new SightlineError('not_found', `no repository ${JSON.stringify(id)} in this workspace; ${entries.length ? `its repositories: ${names}` : 'none is registered yet'}`);
    return this.unitFor(entry);
  }

  /** Registers a repository (or finds it registered) and starts indexing it; `wait` returns when the pass ended. */
  add(request: AddRequest, options: { wait?: boolean; authorize?: (id: string) => void } = {}) {
    return this.exclusive(async () => {
      const checked = checkAdd(this.root, request);
      options.authorize?.(checked.id);
      await this.resets.get(checked.id);
      const existing = await this.registry.get(checked.id);
      if (existing && !sameSource(existing.source, checked.source)) {
        const exclusive = existing.source.kind !== checked.source.kind ? ': a mounted path and a git source are mutually exclusive for one id' : '';
        throw usageError(`repository ${checked.id} is registered from ${describeSource(existing.source)}${exclusive}; remove_repo it first, or pass another id`);
      }
      if (checked.source.kind === 'path') {
        const dir = checked.source.path;
        const twin = (await this.registry.list()).find((e) => e.id !== checked.id && e.source.kind === 'path' && e.source.path === dir);
        if (twin) throw usageError(`${dir} is already registered as ${twin.id}; one directory has one id (pass repo: "${twin.id}")`);
      }
      const root = checked.source.kind === 'path' ? checked.source.path : gitPlace(this.gitDir(checked.id)).tree;
      const entry: RegisteredRepo = {
        id: checked.id,
        source: checked.source,
        filters: checked.filters,
        added_at: existing?.added_at ?? new Date().toISOString(),
        indexed_root: root,
        indexed_commit: existing?.indexed_root ? existing.indexed_commit : null,
      };
      const before = this.served.get(entry.id);
      if (before && (!before.armed || JSON.stringify(existing?.filters) !== JSON.stringify(entry.filters))) {
        this.served.delete(entry.id);
        await this.closeUnit(before.unit);
      }
      await this.registry.put(entry);
      const { unit } = this.served.get(entry.id) ?? (await this.serve(entry));
      if (options.wait) await unit.update();
      else unit.kick();
      return { status: 'ok' as const, repo: entry.id, created: !existing, indexed_root: root, source: checked.source.kind, job: unit.engine.job.snapshot(), upkeep: unit.upkeep() };
    });
  }

  /** Drops a repository's index and memory and forgets it; files under the root are never touched. Unknown ids are a no-op. */
  remove(id: string) {
    return this.exclusive(async () => {
      await this.resets.get(id);
      const entry = await this.registry.get(id);
      if (!entry) return { status: 'ok' as const, repo: id, removed: false };
      const served = this.served.get(id);
      this.served.delete(id);
      this.broken.delete(id);
      if (served) await this.closeUnit(served.unit);
      const root = entry.indexed_root ?? (entry.source.kind === 'path' ? entry.source.path : gitPlace(this.gitDir(id)).tree);
      const indexDir = path.join(this.home, repoId(root));
      const deleted = fs.existsSync(indexDir);
      if (this.owned(indexDir, root)) fs.rmSync(indexDir, { recursive: true, force: true });
      if (entry.source.kind === 'git' && this.owned(this.gitDir(id), this.root)) fs.rmSync(this.gitDir(id), { recursive: true, force: true });
      // With a team database, memory lives there, not in the index file: it goes too.
      const { databaseUrl } = this.config;
      if (databaseUrl) await forgetTeamRepo(databaseUrl, served?.unit.engine.repo.teamName ?? teamName(this.config, root));
      await this.registry.remove(id);
      return { status: 'ok' as const, repo: id, removed: true, index_deleted: deleted, memory_deleted: deleted || Boolean(databaseUrl) };
    });
  }

  /** Calls `listener` with each unit this workspace stops serving, just before it closes (the read pool drops its connections). */
  onUnitClosed(listener: (unit: RepoUnit) => void): void {
    this.closedListeners.push(listener);
  }

  private async closeUnit(unit: RepoUnit): Promise<void> {
    for (const listener of this.closedListeners) listener(unit);
    await unit.close();
  }

  /** Only what sightline made under $SIGHTLINE_HOME is ever deleted, and never a folder holding `keep` (the repository's files). */
  private owned(dir: string, keep: string): boolean {
    const below = (parent: string, child: string) => {
      const rel = path.relative(parent, child);
      return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
    };
    return dir !== this.home && below(this.home, dir) && !below(dir, keep);
  }

  /**
   * Drops the code index and keeps memory; the repository stays listed,
   * unindexed, until add_repo. Answers at once, in phase `resetting`: the
   * sweep runs in the background as the repository's job (index_status
   * follows it), or in the foreground with `wait` (the CLI). Unknown ids are a no-op.
   */
  reset(id: string, options: { wait?: boolean } = {}) {
    return this.exclusive(async () => {
      await this.resets.get(id);
      const entry = await this.registry.get(id);
      if (!entry) return { status: 'ok' as const, repo: id, existed: false, memory_preserved: true };
      const before = this.served.get(id);
      this.served.delete(id);
      if (before) await this.closeUnit(before.unit);
      const resetEntry = { ...entry, indexed_root: null, indexed_commit: null };
      await this.registry.put(resetEntry);
      const { unit } = await this.serve(resetEntry);
      const existed = fs.existsSync(unit.engine.repo.dbPath);
      const sweep = unit.engine.job.runReset(() => reset(unit.engine.repo));
      const ended = sweep.then(
        () => {},
        (err) => this.options.warn(`${id}: reset_index failed: ${describeError(err)} (reset it again to finish)`),
      );
      this.resets.set(id, ended);
      void ended.then(() => this.resets.get(id) === ended && this.resets.delete(id));
      if (options.wait) {
        const answer: ResetEnvelope = await sweep;
        return { status: 'ok' as const, repo: id, existed: answer.existed, dropped: answer.dropped, recovered: answer.recovered, memory_preserved: true };
      }
      return { status: 'ok' as const, repo: id, existed, phase: 'resetting' as const, memory_preserved: true, job: unit.engine.job.snapshot() };
    });
  }

  /** One repository's readiness, or the workspace's: `nothing_registered` (ready: there is nothing to serve) when none is. */
  async health(id: string | undefined, visible: Visible = EVERY): Promise<RepoHealth | WorkspaceHealth> {
    if (id !== undefined) {
      const { unit, armed } = await this.resolve(id, visible);
      return repoHealth(unit, armed);
    }
    const rows = await this.list(visible);
    const building = rows.filter((r) => r.last_verified === null || r.vector_count_pending);
    const phase = rows.length === 0 ? 'nothing_registered' : building.length ? 'building' : 'serving';
    return {
      status: 'ok',
      workspace: this.root,
      repositories: rows.length,
      retrieval_phase: phase,
      retrieval_ready: phase !== 'building',
      reason:
        phase === 'nothing_registered' ? 'no repository is registered yet; add one with add_repo'
        : phase === 'building' ? `not indexed yet: ${building.map((r) => (r.job_phase === 'resetting' ? `${r.id} (resetting)` : r.id)).join(', ')}` : 'every repository is indexed',
      repos: rows.map((r) => ({ id: r.id, last_verified: r.last_verified, job: r.job, job_phase: r.job_phase, failures: r.upkeep?.failures ?? 0, problem: r.problem ?? r.upkeep?.last_error ?? null })),
    };
  }

  async close(): Promise<void> {
    await this.serial;
    await Promise.all(this.resets.values());
    for (const { unit } of this.served.values()) await this.closeUnit(unit);
    this.served.clear();
    await this.registry.close();
  }
}

export interface WorkspaceHealth {
  status: 'ok';
  workspace: string;
  repositories: number;
  retrieval_phase: 'nothing_registered' | 'building' | 'serving';
  retrieval_ready: boolean;
  reason: string;
  repos: { id: string; last_verified: string | null; job: string; job_phase: RepoRow['job_phase']; failures: number; problem: string | null }[];
}
