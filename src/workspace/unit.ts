/**
 * One served repository: its Engine (the Repo, its one IndexJob, the verbs)
 * and what keeps it indexed (the watcher and reconcile of keepLive, or a git
 * refresh timer, and the retries of Upkeep). `openRepoUnit` is the one place
 * such a unit is made, for `serve --repo` and for every repository of a
 * workspace alike.
 */
import type { Config } from '../config/index.js';
import { openEngine, type Engine } from '../engine/index.js';
import { describeError } from '../errors/index.js';
import { startReconcile, type Reconciler } from '../index/index.js';
import { Upkeep, type UpkeepStatus } from './upkeep.js';

export interface UnitSpec {
  /** The name callers use (list_repos, the `repo` argument, grants). */
  id: string;
  /** The directory indexed: a working tree, or a git source's materialised commit. */
  root: string;
  flags?: Partial<Config>;
  configPath?: string;
  env?: NodeJS.ProcessEnv;
  /** Keep the index current (watch or refresh, reconcile, retries); default: the configuration's `watch`. */
  live?: boolean;
  /** A git source: brought to its ref's commit before each pass, on its own interval; `indexed` records the commit once a pass over it completed. */
  git?: { refreshMs: number; update: () => Promise<string>; indexed: (commit: string) => Promise<void> };
  warn: (message: string) => void;
}

export interface RepoUnit {
  readonly id: string;
  readonly engine: Engine;
  /** Whether a file-system watcher runs (false where the platform refused one, and for git sources). */
  readonly watching: boolean;
  /** Retries of failed passes; null when the unit is not kept live. */
  upkeep(): UpkeepStatus | null;
  /** Starts bringing the index up to date (a fetch first for git) and returns at once. */
  kick(): void;
  /** Brings the index up to date and resolves when done; rejects with the failure. */
  update(): Promise<void>;
  /** Stops watching, refreshing and retrying, stops the running pass and closes the index. */
  close(): Promise<void>;
}

export async function openRepoUnit(spec: UnitSpec): Promise<RepoUnit> {
  const engine = openEngine(spec.root, { configPath: spec.configPath, flags: spec.flags, env: spec.env, warn: spec.warn });
  const { job, repo } = engine;
  const say = (message: string) => spec.warn(`${spec.id}: ${message}`);
  const update = async () => {
    const commit = await spec.git?.update();
    await job.start();
    if (commit) await spec.git?.indexed(commit);
  };
  if (!(spec.live ?? repo.config.watch)) {
    return {
      id: spec.id, engine, watching: false,
      upkeep: () => null,
      kick: () => void update().catch(() => {}), // the failure is kept in the job status
      update,
      close: () => engine.close(),
    };
  }
  const upkeep = new Upkeep({ baseMs: repo.config.retryBaseMs, maxMs: repo.config.retryMaxMs, attempt: update, onError: say });
  const unsubscribe = job.onPass((result) => upkeep.observe(result));
  const onError = (err: unknown) => say(describeError(err));
  let watching = false;
  let timer: Reconciler | null = null;
  if (spec.git) {
    timer = startReconcile({ intervalMs: spec.git.refreshMs, run: () => upkeep.run(), onError });
    void upkeep.run();
  } else {
    try {
      await engine.keepLive({ onError });
      watching = true;
    } catch (err) {
      say(`no file-system watcher (${describeError(err)}); the periodic reconcile keeps the index current`);
      timer = startReconcile({ intervalMs: repo.config.reconcileIntervalMs, run: () => upkeep.run(), onError });
      void upkeep.run();
    }
  }
  return {
    id: spec.id, engine, watching,
    upkeep: () => upkeep.status(),
    kick: () => void upkeep.run(),
    update,
    async close() {
      upkeep.stop();
      unsubscribe();
      timer?.stop();
      await engine.close();
    },
  };
}
