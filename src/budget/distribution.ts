/**
 * Where the hits of a broad question are: counts per directory one level
 * below the deepest directory that holds them all, so every row is a scope
 * the caller can narrow to.
 */
import path from 'node:path';

export interface DirectoryHits {
  dir: string;
  hits: number;
  files: number;
}

/** Rows shown in a refine answer; the rest are summed into none (the total is in the summary). */
export const DISTRIBUTION_ROWS = 10;

function dirOf(p: string): string[] {
  const d = path.posix.dirname(p);
  return d === '.' ? [] : d.split('/');
}

/** The deepest directory (as segments) containing every path. */
export function commonDirectory(paths: string[]): string[] {
  let common: string[] | null = null;
  for (const p of paths) {
    const segs = dirOf(p);
    if (!common) {
      common = segs;
      continue;
    }
    let i = 0;
    while (i < common.length && i < segs.length && common[i] === segs[i]) i++;
    common = common.slice(0, i);
  }
  return common ?? [];
}

/** One row per directory just below the common one (files directly in it form their own row), most hits first. */
export function distribution(hitPaths: string[], rows = DISTRIBUTION_ROWS): DirectoryHits[] {
  const common = commonDirectory(hitPaths);
  const groups = new Map<string, { hits: number; files: Set<string> }>();
  for (const p of hitPaths) {
    const segs = dirOf(p);
    const key = segs.slice(0, Math.min(segs.length, common.length + 1)).join('/') || '.';
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { hits: 0, files: new Set() }));
    g.hits++;
    g.files.add(p);
  }
  return [...groups.entries()]
    .map(([dir, g]) => ({ dir, hits: g.hits, files: g.files.size }))
    .sort((a, b) => b.hits - a.hits || a.dir.localeCompare(b.dir))
    .slice(0, rows);
}
