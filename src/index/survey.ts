/**
 * What an index pass looks at: the whole tree (a walk), or only the paths a
 * watcher saw change. A scoped pass compares those paths alone with the index
 * (a deleted directory takes the files stored under it), so an edit costs a
 * few stats instead of a walk; a scope that names a directory falls back to
 * the walk, because its files were not reported one by one.
 */
import type { Config } from '../config/index.js';
import type { FileStamp, SkippedFile, Store } from '../store/index.js';
import { walk, walkPaths, type Listings, type WalkedFile, type WalkOptions, type WalkResult } from '../walk/index.js';

export interface Survey {
  walked: WalkResult;
  /** Stored files in scope, by path: any of them the walk did not see is removed. */
  stored: ReadonlyMap<string, FileStamp>;
  skippedBefore: Map<string, SkippedFile>;
}

/** The walk the configuration asks for: every pass, `changed` and the dry run see the same files. */
export function walkOptions(root: string, config: Config): WalkOptions {
  return {
    root,
    gitignore: config.gitignore,
    include: config.include,
    exclude: config.exclude,
    excludeDirs: config.excludeDirs,
    maxFileBytes: config.maxFileBytes,
  };
}

/** The stat fast-path: same size, and modified strictly before it was last read. */
export function unchangedSince(file: WalkedFile, size: number, readAtMs: number): boolean {
  return file.size === size && file.mtimeMs < readAtMs;
}

export async function survey(root: string, store: Store, config: Config, paths?: readonly string[], listings?: Listings): Promise<Survey> {
  const options = walkOptions(root, config);
  const scoped = paths && (await walkPaths(options, paths));
  if (!scoped || scoped.directories.length > 0) {
    return {
      walked: await walk({ ...options, listings }),
      stored: store.files.stamps(),
      skippedBefore: new Map(store.skipped().map((s) => [s.path, s])),
    };
  }
  const scope = new Set(paths);
  const stored = new Map<string, FileStamp>();
  for (const p of paths) {
    const f = store.files.get(p);
    if (f) stored.set(p, f);
  }
  const gone = scoped.missing.filter((p) => !stored.has(p)).map((p) => p + '/');
  if (gone.length > 0) for (const f of store.files.list()) if (gone.some((dir) => f.path.startsWith(dir))) stored.set(f.path, f);
  const skippedBefore = new Map(store.skipped().filter((s) => scope.has(s.path)).map((s) => [s.path, s]));
  return { walked: scoped, stored, skippedBefore };
}
