/**
 * The workspace registry: which repositories one workspace serves, where each
 * comes from and what its index was last built from. Behind a small async
 * interface so that a team backend (PostgreSQL) can hold it instead of the
 * local SQLite file (sqlite-registry.ts).
 */

/** The walk filters `add_repo` takes, the same as `sightline index`. */
export interface WalkFilters {
  include?: string[];
  exclude?: string[];
  gitignore?: boolean;
  maxFileBytes?: number;
}

/** A working tree under the workspace root, or a git repository whose commit is materialised under $SIGHTLINE_HOME. */
export type RepoSource =
  | { kind: 'path'; path: string }
  | { kind: 'git'; url: string; ref: string; refreshMs: number };

export interface RegisteredRepo {
  id: string;
  source: RepoSource;
  filters: WalkFilters;
  added_at: string;
  /** The directory the index was built from; null after reset_index until the repository is added again. */
  indexed_root: string | null;
  /** The commit a git-sourced index was built from; null for a mounted path (no commit anchor) and after a reset. */
  indexed_commit: string | null;
}

export interface WorkspaceRegistry {
  /** Every registered repository, in ascending id order. */
  list(): Promise<RegisteredRepo[]>;
  get(id: string): Promise<RegisteredRepo | undefined>;
  /** Inserts or replaces the row of `repo.id`. */
  put(repo: RegisteredRepo): Promise<void>;
  /** True when there was a row to remove. */
  remove(id: string): Promise<boolean>;
  close(): Promise<void>;
}
