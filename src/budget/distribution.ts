/**
 * Where the hits of a broad question are: counts per directory one level
 * below the deepest directory that holds them all, so every row is a scope
 * the caller can narrow to.
 */
import path from 'node:path';
import { byCodeUnit } from '../order.js';

export interface DirectoryHits {
  dir: string;
  hits: number;
  files: number;
}

/** Rows shown in a refine answer; the rest are summed into none (the total is in the summary). */
export const DISTRIBUTION_ROWS = 10;

/** A hit's path with its directory's segments, split once however often the hits are grouped. */
export interface PlacedPath {
  path: string;
  dir: readonly string[];
}

export function placed(paths: readonly string[]): PlacedPath[] {
  return paths.map((p) => {
    const d = path.posix.dirname(p);
    return { path: p, dir: d === '.' ? [] : d.split('/') };
  });
}

/** The deepest directory (as segments) containing every path. */
export function commonDirectory(hits: readonly PlacedPath[]): readonly string[] {
  let common: readonly string[] | null = null;
  for (const { dir } of hits) {
    if (!common) {
      common = dir;
      continue;
    }
    let i = 0;
    while (i < common.length && i < dir.length && common[i] === dir[i]) i++;
    if (i < common.length) common = common.slice(0, i);
  }
  return common ?? [];
}

/** A directory row with the hits under it. */
export interface DirectoryGroup extends DirectoryHits {
  members: PlacedPath[];
}

/**
 * One row per directory just below `common` (files directly in it form their
 * own row, named for `common`), most hits first.
 */
export function groupsBelow(hits: readonly PlacedPath[], common: readonly string[]): DirectoryGroup[] {
  const groups = new Map<string, { members: PlacedPath[]; files: Set<string> }>();
  for (const hit of hits) {
    const key = hit.dir.slice(0, Math.min(hit.dir.length, common.length + 1)).join('/') || '.';
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { members: [], files: new Set() }));
    g.members.push(hit);
    g.files.add(hit.path);
  }
  return [...groups.entries()]
    .map(([dir, g]) => ({ dir, hits: g.members.length, files: g.files.size, members: g.members }))
    .sort((a, b) => b.hits - a.hits || byCodeUnit(a.dir, b.dir));
}

/** One row per directory just below the common one (files directly in it form their own row), most hits first. */
export function distribution(hitPaths: string[], rows = DISTRIBUTION_ROWS): DirectoryHits[] {
  const hits = placed(hitPaths);
  return groupsBelow(hits, commonDirectory(hits))
    .slice(0, rows)
    .map(({ dir, hits: n, files }) => ({ dir, hits: n, files }));
}
