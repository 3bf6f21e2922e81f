/**
 * Workspace mode: many repositories under one root, each kept indexed by its
 * own unit, listed in a registry (SQLite here, or the team database's with
 * --store: postgres-registry.ts). `openRepoUnit` is the one place a served repository
 * (Repo, IndexJob, watcher or git refresh, retries) is made, in workspace
 * mode and for `serve --repo` alike.
 */
export { Workspace, type Visible, type WorkspaceHealth, type WorkspaceOptions } from './workspace.js';
export { openRepoUnit, type RepoUnit, type UnitSpec } from './unit.js';
export type { UpkeepStatus } from './upkeep.js';
export type { RegisteredRepo, RepoSource, WalkFilters, WorkspaceRegistry } from './registry.js';
export { SqliteRegistry } from './sqlite-registry.js';
export { PostgresRegistry } from './postgres-registry.js';
export { DEFAULT_REFRESH, defaultId, type AddRequest } from './source.js';
export type { RepoHealth, RepoPhase, RepoRow } from './facts.js';
